package editor

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// fmtCount renders a count with thousands separators: "5,000".
func fmtCount(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// fmtLatency renders a lookup time in milliseconds: "1.8 ms", "0.42 ms".
func fmtLatency(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case d <= 0:
		return kit.NoValue
	case ms < 1:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.1f s", ms/1000)
}

// progressBar draws a bar of w cells filled to pct (0..1), in eighths.
func progressBar(st *kit.Styles, pct float64, w int) string {
	eighths := int(pct * float64(w*8))
	full, part := eighths/8, eighths%8
	bar := strings.Repeat("█", full)
	if part > 0 && full < w {
		bar += string([]rune(" ▏▎▍▌▋▊▉")[part])
		full++
	}
	return st.StateRunning.Render(bar) + strings.Repeat(" ", w-full)
}

// sourceLabel names a source as the head line shows it.
func sourceLabel(s api.DebugSource) string {
	name := s.Table + " (datagen"
	if s.File != "" {
		name = filepath.Base(s.File) + " ("
	} else {
		name += ", "
	}
	if s.Total >= 0 {
		return name + fmtCount(s.Total) + " rows)"
	}
	return name + "unbounded)"
}

// progressOf is the rows read of all the rows there are, when every
// source's total is known.
func (m *debugScreen) progressOf() (read, total int64, known bool) {
	known = len(m.sources) > 0
	for _, s := range m.sources {
		if s.Total < 0 {
			known = false
		}
		total += max(s.Total, 0)
	}
	for _, n := range m.read {
		read += n
	}
	return read, total, known
}

// headLines are the lines above the rows: what runs, how far it is, what
// went wrong, and the column names.
func (m *debugScreen) headLines() []string {
	st := m.env.Styles
	w := max(m.width, 20)
	parts := []string{st.Title.Render("Debug run")}
	for _, s := range m.sources {
		parts = append(parts, sourceLabel(s))
	}
	for _, l := range m.lookups {
		p := "lookup " + l.Table
		if l.Where != "" {
			p += " @ " + l.Where
		}
		if l.Mode != "" {
			p += fmt.Sprintf(" · %s, capacity %d", l.Mode, l.Capacity)
		}
		parts = append(parts, p)
	}
	lines := []string{" " + strings.Join(parts, st.Dim.Render(" · "))}
	for _, l := range inputsLines(st, m.injected, m.sampled) {
		lines = append(lines, kit.Truncate(l, w))
	}

	read, total, known := m.progressOf()
	pct := 0.0
	switch {
	case known && total > 0:
		pct = float64(read) / float64(total)
	case m.done && m.err == nil:
		pct = 1
	}
	count := fmtCount(read)
	if known {
		count += "/" + fmtCount(total)
	}
	stats := []string{count}
	if secs := m.elapsed.Seconds(); secs > 0 {
		stats = append(stats, fmt.Sprintf("%s rows/s", fmtCount(int64(float64(m.total)/secs))))
	}
	if len(m.latencies) > 0 {
		stats = append(stats, fmt.Sprintf("lookup p50 %s  p99 %s", fmtLatency(m.p50), fmtLatency(m.p99)))
	}
	for _, l := range m.lookups {
		if l.Lookups > 0 {
			stats = append(stats, fmt.Sprintf("cache hit %.0f%%", 100*l.CacheHit))
			break
		}
	}
	var state string
	switch {
	case m.running && m.stopped:
		state = st.Warn.Render("cancelling…")
	case m.running:
		state = st.Info.Render("running")
	case m.err != nil:
		state = st.Error.Render("✖ failed")
	case m.stopped:
		state = st.Warn.Render("cancelled")
	case m.done:
		state = st.StateRunning.Render(fmt.Sprintf("✓ done in %s", kit.Duration(m.elapsed)))
	}
	switch {
	case m.final:
		state += "   " + st.Info.Render("final tables") + st.Dim.Render(" (f: changelog)")
	case m.done && m.updating():
		state += "   " + st.Info.Render("changelog") + st.Dim.Render(" (f: final tables)")
	}
	bar := progressBar(st, min(pct, 1), max(min(m.width/4, 30), 10))
	lines = append(lines, " ▕"+bar+"▏ "+strings.Join(stats, "   ")+"   "+state)
	if m.err != nil {
		for _, l := range kit.Wrap(m.err.Error(), w-4) {
			lines = append(lines, "   "+st.Error.Render(l))
		}
	}
	for _, s := range m.skipped {
		lines = append(lines, kit.Truncate(" "+st.Warn.Render("⚠ "+skippedLine(s)), w))
	}
	lines = append(lines, m.columnHeader())
	return lines
}

// skippedLine says what a source's ignore-parse-errors passed over, the
// count first so that a narrow screen keeps it.
func skippedLine(s api.DebugSkipped) string {
	var what []string
	if s.Rows > 0 {
		what = append(what, kit.Plural(int(s.Rows), "record")+" skipped")
	}
	if s.Fields > 0 {
		what = append(what, kit.Plural(int(s.Fields), "field")+" NULL")
	}
	lines := make([]string, len(s.Lines))
	for i, l := range s.Lines {
		lines[i] = fmt.Sprint(l)
	}
	return fmt.Sprintf("%s: %s by ignore-parse-errors (lines %s)", s.Table, strings.Join(what, ", "), strings.Join(lines, ", "))
}

// inputsLines say where the run's tables came from: the catalog tables it
// was given, and a line for each table sampled from Kafka, with the
// records that did not decode.
func inputsLines(st *kit.Styles, injected []string, sampled []api.DebugSample) []string {
	var lines []string
	if len(injected) > 0 {
		lines = append(lines, " "+st.Dim.Render("from the catalog ")+strings.Join(injected, ", "))
	}
	for _, s := range sampled {
		p := st.Dim.Render("sampled ") + fmt.Sprintf("%s: %s of topic %s (%s)", s.Table, kit.Plural(s.Records, "record"), s.Topic, s.Format)
		if s.Undecodable > 0 {
			p += st.Warn.Render(fmt.Sprintf(", %d undecodable: %s", s.Undecodable, s.FirstError))
		}
		lines = append(lines, " "+p)
	}
	return lines
}

// multiSink says whether rows need a SINK column.
func (m *debugScreen) multiSink() bool { return len(m.sinks) > 1 }

func (m *debugScreen) columnHeader() string {
	st := m.env.Styles
	var cells []string
	if !m.final {
		cells = append(cells, fmt.Sprintf("%-7s %-9s", "INPUT", "LOOKUP"))
	}
	if m.changelog && !m.final {
		cells = append(cells, "OP")
	}
	if m.multiSink() {
		cells = append(cells, fmt.Sprintf("%-12s", "SINK"))
	}
	if len(m.sinks) > 0 {
		s := m.sinks[0]
		w := m.widths[s.Name]
		for i, c := range s.Columns {
			cw := kit.Width(c.Name)
			if i < len(w) {
				cw = max(cw, w[i])
			}
			cells = append(cells, kit.Fit(c.Name, cw))
		}
	}
	return " " + st.ColumnHeader.Render(strings.Join(cells, "  "))
}

func (m *debugScreen) rowLine(r api.DebugRow) string {
	st := m.env.Styles
	var cells []string
	if !m.final {
		cells = append(cells, st.Dim.Render(fmt.Sprintf("%-7s %-9s", fmtCount(r.Input), fmtLatency(r.Lookup))))
	}
	if m.changelog && !m.final {
		kind := r.Kind
		if kind == "" {
			kind = "+I"
		}
		cells = append(cells, kind)
	}
	if m.multiSink() {
		cells = append(cells, fmt.Sprintf("%-12s", kit.Truncate(r.Sink, 12)))
	}
	var cols []api.DebugColumn
	for _, s := range m.sinks {
		if s.Name == r.Sink {
			cols = s.Columns
		}
	}
	w := m.widths[r.Sink]
	for i, v := range r.Values {
		cw := 0
		if i < len(w) {
			cw = w[i]
		}
		if i < len(cols) {
			cw = max(cw, kit.Width(cols[i].Name))
		}
		cell := kit.Fit(v, cw)
		if v == "NULL" {
			cell = st.Dim.Render(cell)
		}
		cells = append(cells, cell)
	}
	return " " + strings.Join(cells, "  ")
}

func (m *debugScreen) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	st := m.env.Styles
	head := m.headLines()
	h := max(m.height-len(head), 1)
	var body []string
	rows := m.shown()
	switch {
	case len(rows) == 0 && m.final:
		body = []string{"", " " + st.Dim.Render("the sinks end up holding no rows")}
	case len(m.rows) == 0 && m.running:
		body = []string{"", " " + st.Dim.Render("waiting for the first row…")}
	case len(m.rows) == 0 && m.done:
		body = []string{"", " " + st.Dim.Render("the sinks received no rows")}
	default:
		n := max(len(rows)-h, 0)
		if m.follow {
			m.offset = n
		}
		m.offset = kit.Clamp(m.offset, 0, n)
		for _, r := range rows[m.offset:min(m.offset+h, len(rows))] {
			body = append(body, m.rowLine(r))
		}
		if !m.final && m.total > len(m.rows) && len(body) > 0 && m.offset == n {
			body[len(body)-1] = " " + st.Dim.Render(fmt.Sprintf("… %s more rows not shown; `palink debug --out FILE` keeps them all", fmtCount(int64(m.total-len(m.rows)))))
		}
	}
	return kit.PadLines(strings.Join(append(head, body...), "\n"), m.width, m.height)
}
