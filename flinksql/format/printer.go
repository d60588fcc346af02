package format

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// outLine is one line of formatted output, with the comments that end it.
type outLine struct {
	text     string
	trailing []string
}

// writeLines writes lines, each with its trailing comments.
func writeLines(b *strings.Builder, lines []outLine) {
	for _, l := range lines {
		b.WriteString(l.text)
		for _, c := range l.trailing {
			b.WriteByte(' ')
			b.WriteString(c)
		}
		b.WriteByte('\n')
	}
}

// printer is where a formatting run writes: the lines so far, and the
// script's comments, placed as the parts that render statements, queries
// and expressions move through the source.
type printer struct {
	lines    []outLine
	comments []ast.Comment
	ci       int // next comment not yet placed
	limit    int // comments at or past this offset belong to a later statement
}

// indent is the leading white space of indent level n.
func indent(n int) string { return strings.Repeat("  ", n) }

// emit writes a line (which may hold further lines after '\n', already
// indented) after placing the comments that come before anchor.
func (p *printer) emit(anchor ast.Pos, ind int, text string) {
	if anchor.IsValid() {
		p.flushBefore(anchor.Offset, ind)
	}
	parts := strings.Split(text, "\n")
	for i, part := range parts {
		if i == 0 {
			part = indent(ind) + part
		}
		p.lines = append(p.lines, outLine{text: part})
	}
}

// emitNode is emit for a node's line: the comments that end the node's
// last source line stay at the end of its line.
func (p *printer) emitNode(sp ast.Span, ind int, text string) {
	p.emit(sp.Pos, ind, text)
	p.flushTrailing(sp.End)
}

// appendTrailing puts a comment at the end of the last line, unless that
// line already ends in a -- comment, which would swallow it: then the
// comment gets a line of its own.
func (p *printer) appendTrailing(c ast.Comment, ind int) {
	last := &p.lines[len(p.lines)-1]
	if n := len(last.trailing); n > 0 && strings.HasPrefix(last.trailing[n-1], "--") {
		p.lines = append(p.lines, outLine{text: indent(ind) + c.Text})
		return
	}
	last.trailing = append(last.trailing, c.Text)
}

// flushTrailing places the pending comments that follow end on its source
// line at the end of the last line written.
func (p *printer) flushTrailing(end ast.Pos) {
	for p.ci < len(p.comments) && len(p.lines) > 0 {
		c := p.comments[p.ci]
		if c.Pos.Offset < end.Offset || c.Pos.Line != end.Line || !c.Trailing || p.limit > 0 && c.Pos.Offset >= p.limit {
			return
		}
		p.ci++
		p.appendTrailing(c, leadingIndent(p.lines[len(p.lines)-1].text))
	}
}

// leadingIndent is the indent level of a written line.
func leadingIndent(line string) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n / 2
}

// flushBefore places the pending comments that start before off: a comment
// that ended a source line goes to the end of the last line written, the
// others on lines of their own.
func (p *printer) flushBefore(off, ind int) {
	for p.ci < len(p.comments) {
		c := p.comments[p.ci]
		if c.Pos.Offset >= off || c.Pos.Offset >= p.limit && p.limit > 0 {
			return
		}
		p.ci++
		if c.Trailing && len(p.lines) > 0 {
			p.appendTrailing(c, ind)
			continue
		}
		p.lines = append(p.lines, outLine{text: indent(ind) + c.Text})
	}
}

// capture renders into a string what fn emits, for a construct (such as a
// subquery) that sits inside a line.
func (p *printer) capture(fn func()) string {
	saved := p.lines
	p.lines = nil
	fn()
	var b strings.Builder
	for i, l := range p.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.text)
		for _, c := range l.trailing {
			b.WriteByte(' ')
			b.WriteString(c)
		}
	}
	p.lines = saved
	return b.String()
}

// hasCommentsIn reports whether unplaced comments fall inside the span, in
// which case a clause is laid out one item per line so they stay close.
func (p *printer) hasCommentsIn(s ast.Span) bool {
	for i := p.ci; i < len(p.comments); i++ {
		o := p.comments[i].Pos.Offset
		if o >= s.End.Offset {
			return false
		}
		if o >= s.Pos.Offset {
			return true
		}
	}
	return false
}
