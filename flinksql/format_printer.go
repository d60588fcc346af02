package flinksql

import "strings"

type outLine struct {
	text     string
	trailing []string
}

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

type formatter struct {
	lines    []outLine
	comments []Comment
	ci       int // next comment not yet placed
	limit    int // comments at or past this offset belong to a later statement
}

func indent(n int) string { return strings.Repeat("  ", n) }

// emit writes a line (which may hold further lines after '\n', already
// indented) after placing the comments that come before anchor.
func (f *formatter) emit(anchor Pos, ind int, text string) {
	if anchor.IsValid() {
		f.flushBefore(anchor.Offset, ind)
	}
	parts := strings.Split(text, "\n")
	for i, part := range parts {
		if i == 0 {
			part = indent(ind) + part
		}
		f.lines = append(f.lines, outLine{text: part})
	}
}

// emitNode is emit for a node's line: the comments that end the node's
// last source line stay at the end of its line.
func (f *formatter) emitNode(sp Span, ind int, text string) {
	f.emit(sp.Pos, ind, text)
	f.flushTrailing(sp.End)
}

// appendTrailing puts a comment at the end of the last line, unless that
// line already ends in a -- comment, which would swallow it: then the
// comment gets a line of its own.
func (f *formatter) appendTrailing(c Comment, ind int) {
	last := &f.lines[len(f.lines)-1]
	if n := len(last.trailing); n > 0 && strings.HasPrefix(last.trailing[n-1], "--") {
		f.lines = append(f.lines, outLine{text: indent(ind) + c.Text})
		return
	}
	last.trailing = append(last.trailing, c.Text)
}

// flushTrailing places the pending comments that follow end on its source
// line at the end of the last line written.
func (f *formatter) flushTrailing(end Pos) {
	for f.ci < len(f.comments) && len(f.lines) > 0 {
		c := f.comments[f.ci]
		if c.Pos.Offset < end.Offset || c.Pos.Line != end.Line || !c.Trailing || f.limit > 0 && c.Pos.Offset >= f.limit {
			return
		}
		f.ci++
		f.appendTrailing(c, leadingIndent(f.lines[len(f.lines)-1].text))
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
func (f *formatter) flushBefore(off, ind int) {
	for f.ci < len(f.comments) {
		c := f.comments[f.ci]
		if c.Pos.Offset >= off || c.Pos.Offset >= f.limit && f.limit > 0 {
			return
		}
		f.ci++
		if c.Trailing && len(f.lines) > 0 {
			f.appendTrailing(c, ind)
			continue
		}
		f.lines = append(f.lines, outLine{text: indent(ind) + c.Text})
	}
}

// capture renders into a string what fn emits, for a construct (such as a
// subquery) that sits inside a line.
func (f *formatter) capture(fn func()) string {
	saved := f.lines
	f.lines = nil
	fn()
	var b strings.Builder
	for i, l := range f.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.text)
		for _, c := range l.trailing {
			b.WriteByte(' ')
			b.WriteString(c)
		}
	}
	f.lines = saved
	return b.String()
}

// hasCommentsIn reports whether unplaced comments fall inside the span, in
// which case a clause is laid out one item per line so they stay close.
func (f *formatter) hasCommentsIn(s Span) bool {
	for i := f.ci; i < len(f.comments); i++ {
		o := f.comments[i].Pos.Offset
		if o >= s.End.Offset {
			return false
		}
		if o >= s.Pos.Offset {
			return true
		}
	}
	return false
}
