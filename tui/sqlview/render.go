package sqlview

import (
	"strings"
	"unicode"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/tui/kit"
)

// TabWidth is how many cells a tab advances to.
const TabWidth = 4

// RuneCells is how many cells r takes at cell column c.
func RuneCells(r rune, c int) int {
	switch {
	case r == '\t':
		return TabWidth - c%TabWidth
	case r < 0x80:
		return 1
	case !unicode.IsPrint(r):
		return 1 // drawn as a replacement mark
	}
	return max(ansi.StringWidth(string(r)), 1)
}

// CellCol is the cell column of rune column col of a line.
func CellCol(line []rune, col int) int {
	c := 0
	for _, r := range line[:min(col, len(line))] {
		c += RuneCells(r, c)
	}
	return c
}

// cellAttr is what decides a cell's look besides its syntax class.
type cellAttr struct {
	class  Class
	sel    bool
	match  bool
	diag   uint8 // 0 none, 1 warning, 2 error
	cursor bool
}

// Styler composes and remembers the styles of one frame.
type Styler struct {
	ed    *kit.EditorStyles
	cache map[cellAttr]lipgloss.Style
	// wraps are each style's escape codes before and after a text: these
	// styles only colour, so a run is wrap[0]+text+wrap[1], which is much
	// cheaper than Style.Render for every run of every line.
	wraps map[cellAttr][2]string
}

// NewStyler makes the styler of one frame.
func NewStyler(ed *kit.EditorStyles) *Styler {
	return &Styler{ed: ed, cache: map[cellAttr]lipgloss.Style{}}
}

// render styles text with the look of a.
func (s *Styler) render(a cellAttr, text string) string {
	w, ok := s.wraps[a]
	if !ok {
		// "x" is in no escape code; lipgloss would style NUL apart.
		out := s.style(a).Render("x")
		before, after, _ := strings.Cut(out, "x")
		w = [2]string{before, after}
		if s.wraps == nil {
			s.wraps = map[cellAttr][2]string{}
		}
		s.wraps[a] = w
	}
	return w[0] + text + w[1]
}

func (s *Styler) style(a cellAttr) lipgloss.Style {
	if st, ok := s.cache[a]; ok {
		return st
	}
	ed := s.ed
	st := [...]lipgloss.Style{
		synText: lipgloss.NewStyle(), synKeyword: ed.Keyword, synType: ed.Type, synFunction: ed.Function,
		synString: ed.String, synNumber: ed.Number, synComment: ed.Comment, synHint: ed.Hint,
		synQuoted: ed.Quoted, synOperator: ed.Operator, synIllegal: ed.Illegal,
	}[a.class]
	switch a.diag {
	case 2:
		st = ed.ErrorSpan
	case 1:
		st = ed.WarnSpan
	}
	if a.match {
		st = ed.Match
	}
	if a.sel {
		st = st.Background(ed.Selection.GetBackground())
	}
	if a.cursor {
		st = st.Reverse(true)
	}
	s.cache[a] = st
	return st
}

// Marks are a line's overlays: ranges of rune columns.
type Marks struct {
	Sel         [2]int // [from, to); from == to: none
	Matches     [][2]int
	Diags       [][3]int // from, to, severity (1 warning, 2 error)
	Cursor      int      // -1: not on this line
	SelectToEOL bool     // the selection goes on past the line's end
}

// RenderLine draws the visible cells [xoff, xoff+w) of a line.
func RenderLine(s *Styler, line []rune, spans []Span, mk Marks, xoff, w int) string {
	var b strings.Builder
	classAt := make([]Class, len(line))
	i := 0
	for _, sp := range spans {
		for k := 0; k < sp.N && i < len(line); k++ {
			classAt[i] = sp.Class
			i++
		}
	}
	attrAt := func(c int) cellAttr {
		a := cellAttr{cursor: c == mk.Cursor}
		if c < len(line) {
			a.class = classAt[c]
		}
		a.sel = c >= mk.Sel[0] && c < mk.Sel[1]
		for _, r := range mk.Matches {
			if c >= r[0] && c < r[1] {
				a.match = true
			}
		}
		for _, r := range mk.Diags {
			if c >= r[0] && c < r[1] && uint8(r[2]) > a.diag {
				a.diag = uint8(r[2])
			}
		}
		return a
	}
	var run strings.Builder
	var runAttr cellAttr
	flush := func() {
		if run.Len() > 0 {
			b.WriteString(s.render(runAttr, run.String()))
			run.Reset()
		}
	}
	put := func(a cellAttr, text string) {
		if a != runAttr {
			flush()
			runAttr = a
		}
		run.WriteString(text)
	}
	cell, used := 0, 0
	for c, r := range line {
		n := RuneCells(r, cell)
		start := cell
		cell += n
		if cell <= xoff {
			continue
		}
		if start >= xoff+w {
			break
		}
		a := attrAt(c)
		text := string(r)
		switch {
		case r == '\t':
			text = strings.Repeat(" ", n)
		case !unicode.IsPrint(r):
			text = "�"
		}
		if start < xoff || cell > xoff+w { // a wide rune or tab cut by an edge
			text = strings.Repeat(" ", min(cell, xoff+w)-max(start, xoff))
		}
		put(a, text)
		used += kit.Width(text)
	}
	if used < w && mk.Cursor == len(line) && cell >= xoff {
		put(cellAttr{cursor: true, sel: mk.SelectToEOL}, " ")
		used++
	} else if used < w && mk.SelectToEOL && cell >= xoff {
		put(cellAttr{sel: true}, " ")
		used++
	}
	flush()
	if used < w {
		b.WriteString(strings.Repeat(" ", w-used))
	}
	return b.String()
}
