package editor

import (
	"fmt"
	"strings"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/tui/sqlview"
)

// gutterWidth is the width of the marker, the line numbers and the rule
// beside n lines.
func gutterWidth(n int) int {
	digits := max(len(fmt.Sprint(n)), 3)
	return 1 + digits + 3 // marker, number, " │ "
}

// textWidth is the cells the text has beside the gutter.
func (m *Screen) textWidth() int { return max(m.width-gutterWidth(len(m.buf.lines)), 1) }

// annotationFor is the problem shown under a line: the cursor's line only,
// its first error, else its first warning.
func (m *Screen) annotationFor(line int) *flinksql.Diagnostic {
	if line != m.buf.cursor.line {
		return nil
	}
	var warn *flinksql.Diagnostic
	for i := range m.diags {
		d := &m.diags[i]
		if d.Pos.Line-1 != line {
			continue
		}
		if d.Severity == flinksql.SeverityError {
			return d
		}
		if warn == nil {
			warn = d
		}
	}
	return warn
}

// View renders the title, the text with its gutter, and the status line.
func (m *Screen) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	st := m.env.Styles
	var body []string
	switch {
	case m.job.Kind != model.KindSQL && m.job.Kind != 0:
		body = kit.Centered(st.Dim.Render(fmt.Sprintf("%s is a %s job: it has no SQL to edit", m.job.Name, m.job.Kind)), m.width, m.textHeight())
	case m.loadErr != nil:
		body = kit.Centered(st.Error.Render("✖ "+m.loadErr.Error())+"\n"+st.Dim.Render("esc goes back"), m.width, m.textHeight())
	case !m.loaded:
		body = kit.Centered(st.Dim.Render("loading the SQL of "+m.job.Name+"…"), m.width, m.textHeight())
	default:
		body = m.overlayPopup(m.textLines())
	}
	rows := []string{kit.Fit(m.titleLine(), m.width)}
	if m.injected.rows() > 0 && m.loaded {
		rows = append(rows, kit.Fit(catalogStrip(m.env.Styles, m.injected, m.job.Cluster, m.width), m.width))
	}
	return strings.Join(append(rows,
		kit.PadLines(strings.Join(body, "\n"), m.width, m.textHeight()),
		kit.Fit(m.statusLine(), m.width),
	), "\n")
}

func (m *Screen) titleLine() string {
	st := m.env.Styles
	left := " " + st.Title.Render(m.job.Name) + st.Dim.Render(" · ") + "SQL"
	if m.loaded {
		left += fmt.Sprintf(" v%d", m.version)
	}
	if m.dirty() {
		left += st.Warn.Render(" (edited)")
	}
	if m.saving {
		left += st.Dim.Render(" saving…")
	}
	if m.job.State != model.StateNone {
		left += st.Dim.Render(" · job ") + st.JobState(m.job.State, m.job.FlinkState).Render(kit.StateLabel(m.job.State, m.job.FlinkState))
	}
	var right string
	switch {
	case !m.loaded:
	case m.checkedVersion != m.buf.version:
		right = st.Dim.Render("checking…")
	default:
		errs, warns := sqlview.CountSeverity(m.diags, flinksql.SeverityError), sqlview.CountSeverity(m.diags, flinksql.SeverityWarning)
		var parts []string
		if errs > 0 {
			parts = append(parts, st.Editor.ErrorMark.Render("✖ "+kit.Plural(errs, "error")))
		}
		if warns > 0 {
			parts = append(parts, st.Editor.WarnMark.Render("⚠ "+kit.Plural(warns, "warning")))
		}
		if len(parts) == 0 {
			parts = append(parts, st.StateRunning.Render("✓ no problems"))
		}
		right = strings.Join(parts, "  ")
	}
	gap := m.width - kit.Width(left) - kit.Width(right) - 1
	if gap < 1 {
		return left
	}
	return left + strings.Repeat(" ", gap) + right
}

func (m *Screen) statusLine() string {
	st := m.env.Styles
	if m.find.active {
		return " " + m.find.input.View()
	}
	b := m.buf
	parts := []string{fmt.Sprintf("Ln %d, Col %d", b.cursor.line+1, b.cursor.col+1)}
	if from, to, ok := b.selection(); ok {
		if from.line == to.line {
			parts = append(parts, fmt.Sprintf("%d selected", to.col-from.col))
		} else {
			parts = append(parts, fmt.Sprintf("%d lines selected", to.line-from.line+1))
		}
	}
	if m.find.query != "" {
		parts = append(parts, fmt.Sprintf("find %q (ctrl+n/ctrl+p)", m.find.query))
	}
	line := " " + st.Dim.Render(strings.Join(parts, " · "))
	// The whole message of the cursor's line: the caret line may cut it.
	if d := m.annotationFor(b.cursor.line); d != nil {
		mark, icon := st.Editor.ErrorMark, "✖ "
		if d.Severity != flinksql.SeverityError {
			mark, icon = st.Editor.WarnMark, "⚠ "
		}
		line += st.Dim.Render(" · ") + mark.Render(icon+d.Message())
	} else if hint := m.comp.hint(m.buf); hint != "" {
		line += st.Dim.Render(" · ") + hint
	}
	return line
}

// textLines renders the visible lines with their gutter, and the problem
// line under the cursor's line.
func (m *Screen) textLines() []string {
	st := m.env.Styles
	ed := &st.Editor
	b := m.buf
	m.hl.window(b, m.offset, min(m.offset+m.textHeight(), len(b.lines)))
	digits := gutterWidth(len(b.lines)) - 4
	w := m.textWidth()
	sty := sqlview.NewStyler(ed)
	lineSev := map[int]int{}
	for _, d := range m.diags {
		sev := 1
		if d.Severity == flinksql.SeverityError {
			sev = 2
		}
		lineSev[d.Pos.Line-1] = max(lineSev[d.Pos.Line-1], sev)
	}
	selFrom, selTo, selOK := b.selection()
	h := m.textHeight()
	out := make([]string, 0, h)
	for i := m.offset; i < len(b.lines) && len(out) < h; i++ {
		marker := " "
		switch lineSev[i] {
		case 2:
			marker = ed.ErrorMark.Render("✖")
		case 1:
			marker = ed.WarnMark.Render("⚠")
		}
		num := ed.LineNumber.Render(fmt.Sprintf("%*d", digits, i+1))
		if i == b.cursor.line {
			num = ed.CurrentLine.Render(fmt.Sprintf("%*d", digits, i+1))
		}
		gutter := marker + num + ed.Gutter.Render(" │ ")
		mk := m.marksFor(i, selFrom, selTo, selOK)
		var spans []sqlview.Span
		spans = m.hl.line(i)
		out = append(out, gutter+sqlview.RenderLine(sty, b.lines[i], spans, mk, m.xoff, w))
		if d := m.annotationFor(i); d != nil && len(out) < h {
			out = append(out, m.annotation(d, digits, w))
		}
	}
	return out
}

// hlCache is the highlighting of lines [from, from+len(spans)) of the
// text of version.
type hlCache struct {
	spans   [][]sqlview.Span
	from    int
	version int
}

// window classes at least lines [from, to). Lexing a long script
// on every keystroke would cost a frame (16 ms for 2,000 lines), so it
// lexes from the start of the statement above the window: a line that
// starts in column 0 after a line ending in ';' (or a blank one), where no
// string or comment of Flink SQL can be open in a script laid out as
// people write them.
func (c *hlCache) window(b *textBuffer, from, to int) {
	if c.version == b.version && from >= c.from && to <= c.from+len(c.spans) {
		return
	}
	start := from
	for start > 0 && !statementStart(b.lines, start) {
		start--
	}
	end := min(to+50, len(b.lines)) // a little ahead, for scrolling down
	var sb strings.Builder
	for i := start; i < end; i++ {
		if i > start {
			sb.WriteByte('\n')
		}
		sb.WriteString(string(b.lines[i]))
	}
	c.spans, c.from, c.version = sqlview.Highlight(sb.String()), start, b.version
}

// line is line i's classes, nil when it is not in the window.
func (c *hlCache) line(i int) []sqlview.Span {
	if k := i - c.from; k >= 0 && k < len(c.spans) {
		return c.spans[k]
	}
	return nil
}

// statementStart reports whether line i can only start a statement.
func statementStart(lines [][]rune, i int) bool {
	l := lines[i]
	if len(l) == 0 || l[0] == ' ' || l[0] == '\t' {
		return false
	}
	prev := strings.TrimSpace(string(lines[i-1]))
	return prev == "" || strings.HasSuffix(prev, ";")
}

// marksFor collects line i's selection, matches and problem spans.
func (m *Screen) marksFor(i int, selFrom, selTo pos, selOK bool) sqlview.Marks {
	b := m.buf
	line := b.lines[i]
	mk := sqlview.Marks{Cursor: -1}
	if i == b.cursor.line {
		mk.Cursor = b.cursor.col
	}
	if selOK && i >= selFrom.line && i <= selTo.line {
		from, to := 0, len(line)
		if i == selFrom.line {
			from = selFrom.col
		}
		if i == selTo.line {
			to = selTo.col
		} else {
			mk.SelectToEOL = true
		}
		mk.Sel = [2]int{from, to}
	}
	if q := []rune(strings.ToLower(m.find.query)); len(q) > 0 {
		lower := []rune(strings.ToLower(string(line)))
		if len(lower) == len(line) { // case mapping kept the length: columns line up
			for c := 0; c+len(q) <= len(lower); c++ {
				if string(lower[c:c+len(q)]) == string(q) {
					mk.Matches = append(mk.Matches, [2]int{c, c + len(q)})
				}
			}
		}
	}
	for _, d := range m.diags {
		first, last := d.Pos.Line-1, d.End.Line-1
		if i < first || i > max(last, first) {
			continue
		}
		from, to := 0, len(line)
		if i == first {
			from = d.Pos.Col - 1
		}
		if i == last && d.End.Col-1 > from {
			to = d.End.Col - 1
		} else if i == first && last <= first {
			to = from + 1 // a point: mark one rune
		}
		sev := 1
		if d.Severity == flinksql.SeverityError {
			sev = 2
		}
		mk.Diags = append(mk.Diags, [3]int{from, min(to, max(len(line), from+1)), sev})
	}
	return mk
}

// annotation is the caret line under the cursor's line: carets under the
// offending text, then the message and its hint.
func (m *Screen) annotation(d *flinksql.Diagnostic, digits, w int) string {
	ed := &m.env.Styles.Editor
	line := m.buf.lines[d.Pos.Line-1]
	from := sqlview.CellCol(line, d.Pos.Col-1)
	to := from + 1
	if d.End.Line == d.Pos.Line && d.End.Col > d.Pos.Col {
		to = sqlview.CellCol(line, d.End.Col-1)
	}
	mark := ed.ErrorMark
	if d.Severity != flinksql.SeverityError {
		mark = ed.WarnMark
	}
	gutter := strings.Repeat(" ", 1+digits) + ed.Gutter.Render(" │ ")
	lead := max(from-m.xoff, 0)
	carets := max(to-max(from, m.xoff), 1)
	text := strings.Repeat(" ", lead) + mark.Render(strings.Repeat("^", carets)+" "+d.Message())
	return gutter + kit.Truncate(text, w)
}
