package flinksql

import (
	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/format"
)

// Script is a parsed SQL script: its statements in order.
type Script struct {
	ast.Span
	File  string
	Src   string
	Stmts []ast.Statement
	// Comments are every comment of the source, in order. The formatter
	// keeps the ones that stand between statements.
	Comments []ast.Comment
	// features are the constructs newer than the oldest release palink
	// knows, where the script uses them (feature.go).
	features []featureUse
	// vars is the substitution ParseWithVars parsed, nil if none.
	vars *substitution
}

// Text returns the source text of a node of this script, e.g. a statement
// as the user wrote it, without its terminating semicolon.
func (s *Script) Text(n ast.Node) string {
	r := n.Range()
	if r.Pos.Offset < 0 || r.End.Offset > len(s.Src) || r.Pos.Offset > r.End.Offset {
		return ""
	}
	return s.Src[r.Pos.Offset:r.End.Offset]
}

// Format renders a parsed script in palink's canonical style, its comments
// kept; the rules are package format's (format.Script).
func Format(s *Script) string { return format.Script(s.Src, s.Stmts, s.Comments) }
