package ast

import "fmt"

// Pos is a place in the source. Offset counts bytes from the start (it
// slices the source); Line and Col are 1-based and Col counts runes, which
// is what an editor shows in its status line.
type Pos struct {
	Offset int
	Line   int
	Col    int
}

// String renders the position as line:col.
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// IsValid reports whether the position was set (lines start at 1).
func (p Pos) IsValid() bool { return p.Line > 0 }

// Comment is a comment the lexer skipped; the formatter puts the ones
// between statements back.
type Comment struct {
	Text  string // as written, with its -- or /* */ markers
	Pos   Pos
	End   Pos
	Block bool // /* */ rather than --
	// Trailing is set when a token precedes the comment on its line, as in
	// "a INT, -- the id": the formatter keeps such comments at line ends.
	Trailing bool
}
