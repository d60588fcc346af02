package format

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// lineWidth is where the formatter breaks a clause into one item per line.
const lineWidth = 100

// Script renders a script's statements canonically: src is the script's
// text, stmts its statements and comments every comment of it, as
// flinksql.ParseScript gives them (flinksql.Format is the short way).
//
// It renders a parsed script in palink's canonical style: keywords
// upper-case, two-space indent, one clause per line, one column or option
// per line, statements ending in ';' and separated by a blank line.
//
// Comments are kept: those between statements stay where they are, and
// those inside a statement move to the start or end of the nearest line
// of the formatted statement. A statement that failed to parse is copied
// as written. The output is stable: formatting it again changes nothing,
// and it parses to the same tree as the input.
func Script(src string, stmts []ast.Statement, comments []ast.Comment) string {
	s := &script{Src: src, Stmts: stmts, Comments: comments}
	f := newFormatter(&printer{comments: s.Comments})
	var out strings.Builder
	var prev []outLine // the previous statement, held back for a trailing comment after its ';'
	flushPrev := func() {
		writeLines(&out, prev)
		prev = nil
	}
	lastEndLine := 0
	for i, st := range s.Stmts {
		r := st.Range()
		var lead []string
		for f.ci < len(f.comments) && f.comments[f.ci].Pos.Offset < r.Pos.Offset {
			c := f.comments[f.ci]
			f.ci++
			if c.Trailing && canTrail(prev) && c.Pos.Line == lastEndLine {
				prev[len(prev)-1].trailing = append(prev[len(prev)-1].trailing, c.Text)
				continue
			}
			next := r.Pos.Line
			if f.ci < len(f.comments) && f.comments[f.ci].Pos.Offset < r.Pos.Offset {
				next = f.comments[f.ci].Pos.Line
			}
			lead = append(lead, c.Text)
			if next-c.End.Line > 1 {
				lead = append(lead, "")
			}
		}
		flushPrev()
		if i > 0 {
			out.WriteByte('\n')
		}
		for _, l := range lead {
			out.WriteString(l)
			out.WriteByte('\n')
		}
		prev = f.statementLines(s, st)
		lastEndLine = semicolonLine(s, st)
	}
	for f.ci < len(f.comments) {
		c := f.comments[f.ci]
		f.ci++
		if c.Trailing && canTrail(prev) && c.Pos.Line == lastEndLine {
			prev[len(prev)-1].trailing = append(prev[len(prev)-1].trailing, c.Text)
			continue
		}
		flushPrev()
		if out.Len() > 0 {
			out.WriteByte('\n')
		}
		out.WriteString(c.Text)
		out.WriteByte('\n')
	}
	flushPrev()
	return out.String()
}

// canTrail reports whether a comment can go at the end of the last line:
// not after a -- comment, which would swallow it.
func canTrail(lines []outLine) bool {
	if len(lines) == 0 {
		return false
	}
	tr := lines[len(lines)-1].trailing
	return len(tr) == 0 || !strings.HasPrefix(tr[len(tr)-1], "--")
}

// semicolonLine is the line of the ';' ending the statement, or of its
// last token when there is none.
func semicolonLine(s *script, st ast.Statement) int {
	r := st.Range()
	rest := s.Src[r.End.Offset:]
	line := r.End.Line
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case ';':
			return line
		case '\n':
			line++
		case ' ', '\t', '\r':
		default:
			return r.End.Line
		}
	}
	return r.End.Line
}

// Statement renders one statement (without a terminating ';'),
// without comments.
func Statement(st ast.Statement) string {
	f := newFormatter(&printer{})
	f.stmt(st, 0)
	var b strings.Builder
	for i, l := range f.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.text)
	}
	return b.String()
}

// Expr renders an expression on one line (subqueries aside).
func Expr(e ast.Expr) string { return exprFormatter{printer: &printer{}}.expr(e, 0) }

// kw is s when on, else nothing: an optional keyword.
func kw(on bool, s string) string {
	if on {
		return s
	}
	return ""
}

// script is what the formatter reads of a parsed script.
type script struct {
	Src      string
	Stmts    []ast.Statement
	Comments []ast.Comment
}

// Text is the source of n, as flinksql.Script.Text.
func (s *script) Text(n ast.Node) string {
	r := n.Range()
	if r.Pos.Offset < 0 || r.End.Offset > len(s.Src) || r.Pos.Offset > r.End.Offset {
		return ""
	}
	return s.Src[r.Pos.Offset:r.End.Offset]
}
