package logview

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// maxLineShown caps the bytes of one line the viewer renders: a line of
// megabytes (a serialized record, say) is shown cut, with its size.
const maxLineShown = 16 << 10

// cleanLine makes a log line safe and flat for the terminal: trailing
// blanks go (some appenders pad every line to a width, and a CRLF log ends
// its lines in \r: neither is text, and kept they would mark every line cut
// and wrap it onto a blank row), tabs become spaces, control characters (a
// log may hold escape sequences) a middle dot, and invalid UTF-8 the
// replacement character.
func cleanLine(b []byte) string {
	b = bytes.TrimRight(b, " \t\r")
	cut := len(b) > maxLineShown
	if cut {
		b = b[:maxLineShown]
	}
	plain := true
	for _, c := range b {
		if c < 0x20 || c >= 0x7f {
			plain = false
			break
		}
	}
	var s string
	if plain {
		s = string(b)
	} else {
		var sb strings.Builder
		sb.Grow(len(b) + 8)
		for len(b) > 0 {
			r, n := utf8.DecodeRune(b)
			switch {
			case r == '\t':
				sb.WriteString("    ")
			case r == '\r':
			case r == utf8.RuneError && n == 1:
				sb.WriteRune(utf8.RuneError)
			case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
				sb.WriteRune('·')
			default:
				sb.WriteRune(r)
			}
			b = b[n:]
		}
		s = sb.String()
	}
	if cut {
		s += " …"
	}
	return s
}

// logSpan styles a byte range of a line.
type logSpan struct {
	a, b  int
	style lipgloss.Style
}

// levelSpan finds the log level word of a log4j line (ERROR, WARN, FATAL),
// among its first words, so that failures stand out.
func levelSpan(st *kit.Styles, text string) (logSpan, bool) {
	head := text[:min(len(text), 48)]
	for _, lvl := range []string{"ERROR", "FATAL", "WARN"} {
		i := strings.Index(head, " "+lvl+" ")
		if i < 0 {
			continue
		}
		style := st.Warn
		if lvl != "WARN" {
			style = st.Error
		}
		return logSpan{a: i + 1, b: i + 1 + len(lvl), style: style}, true
	}
	return logSpan{}, false
}

// painter styles the lines of log text: the level word coloured, every
// match of the query marked, the current match most.
type painter struct {
	st    *kit.Styles
	query api.LogQuery
	// current is the file offset of the current match's line, -1 for none.
	current int64
}

// paint renders a line that starts at file offset off, and says its width.
func (pt painter) paint(line []byte, off int64) (string, int) {
	st := pt.st
	text := cleanLine(line)
	var spans []logSpan
	if pt.query != (api.LogQuery{}) {
		current := pt.current == off
		for from := 0; from < len(text); {
			a, b, ok := pt.query.Match([]byte(text[from:]))
			if !ok || b <= a {
				break
			}
			style := st.Match
			if current {
				style, current = st.MatchCurrent, false
			}
			spans = append(spans, logSpan{a: from + a, b: from + b, style: style})
			from += b
		}
	}
	if lv, ok := levelSpan(st, text); ok && !slices.ContainsFunc(spans, func(s logSpan) bool { return s.a < lv.b && lv.a < s.b }) {
		spans = append(spans, lv)
		slices.SortFunc(spans, func(x, y logSpan) int { return x.a - y.a })
	}
	w := kit.Width(text)
	if len(spans) == 0 {
		return text, w
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		b.WriteString(text[at:s.a])
		b.WriteString(s.style.Render(text[s.a:s.b]))
		at = s.b
	}
	b.WriteString(text[at:])
	return b.String(), w
}

// painter is how the viewer's lines are styled now.
func (m *Viewer) painter() painter {
	pt := painter{st: m.env.Styles, query: m.query, current: -1}
	if m.match != nil {
		pt.current = m.match.off
	}
	return pt
}

// showMatch puts a hit's line a third of the way down the page, and makes
// it the current match.
func (m *Viewer) showMatch(p *logMatchPos) {
	if p == nil || len(m.win.lines) == 0 {
		return
	}
	i := m.win.lineAt(p.off)
	if m.query != (api.LogQuery{}) {
		hit := *p
		hit.off = m.win.lineOffset(i)
		m.match = &hit
	}
	if i < m.top || i >= m.top+m.page() {
		m.top, m.sub = max(i-m.page()/3, 0), 0
	}
	m.clampView()
	if !m.wrap {
		// The match as the line is drawn (tabs expanded), so that a hit
		// past the right edge is scrolled into view.
		text := cleanLine(m.win.line(i))
		if a, b, ok := m.query.Match([]byte(text)); ok {
			m.reveal(kit.Width(text[:a]), kit.Width(text[:b]))
		}
	}
}

// View implements kit.Screen.
func (m *Viewer) View() string {
	st := m.env.Styles
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	rows := m.page()
	var lines []string
	note := m.positionNote()
	switch f := m.filter; {
	case f != nil && len(f.held) == 0:
		lines = kit.Centered(st.Dim.Render(f.empty()), m.cols(), rows)
		note = ""
	case f != nil:
		lines = f.textRows(f.painter(st), rows)
		note = ""
	case !m.loaded && m.err != nil:
		lines = kit.Centered(st.LoadFailed(m.err), m.cols(), rows)
	case !m.loaded:
		lines = kit.Centered(st.Dim.Render("reading the end of the log…"), m.cols(), rows)
	case len(m.win.lines) == 0 && m.since.d > 0:
		lines = kit.Centered(st.Dim.Render(fmt.Sprintf("no line in the log's last %s (from %s): 0 shows the whole log", label(m.since.d), m.since.from.Format("15:04:05"))), m.cols(), rows)
	case len(m.win.lines) == 0:
		lines = kit.Centered(st.Dim.Render("the log is empty"+map[bool]string{true: " — following", false: ""}[m.follow]), m.cols(), rows)
	default:
		lines = m.textRows(m.painter(), rows)
	}
	for len(lines) < rows {
		lines = append(lines, "")
	}
	lines = append(lines[:rows], m.statusLine())
	return kit.Box(st, st.Title.Render(m.Title()), note, lines, m.width, m.height)
}

// positionNote says where the view is in the file: "48.2 MiB / 200.0 MiB · 24%".
func (m *Viewer) positionNote() string {
	if !m.loaded {
		return ""
	}
	off := m.topOffset()
	if m.size < 0 {
		return m.env.Styles.Dim.Render("at " + kit.Bytes(off))
	}
	pct := 100
	if m.size > 0 && !m.atBottom() {
		pct = int(off * 100 / m.size)
	}
	return m.env.Styles.Dim.Render(fmt.Sprintf("%s / %s · %d%%", kit.Bytes(off), kit.Bytes(m.size), pct))
}

// statusLine is the viewer's last row: the input line while it asks, else
// the modes and what is going on.
func (m *Viewer) statusLine() string {
	st := m.env.Styles
	if m.in.kind != promptNone {
		if m.in.kind == promptFilter && m.filter != nil {
			return m.in.field.View() + "  " + m.filter.status(st, true)
		}
		return m.in.field.View()
	}
	var parts []string
	atEnd := m.viewAtEnd()
	if f := m.filter; f != nil {
		atEnd = len(f.held) == 0 || f.viewAtEnd()
	}
	if m.follow {
		if atEnd {
			parts = append(parts, st.Info.Render("● following"))
			if m.appended > 0 {
				parts = append(parts, st.Info.Render(fmt.Sprintf("+%s, the last at %s", kit.Plural(m.appended, "new line"), kit.Stamp(m.env.Now, m.appendedAt))))
			}
		} else {
			parts = append(parts, st.Warn.Render("● following paused (G resumes)"))
		}
	}
	if !m.rotatedAt.IsZero() {
		parts = append(parts, st.Warn.Render("log rotated at "+kit.Stamp(m.env.Now, m.rotatedAt)))
	}
	switch {
	case m.since.seq != 0:
		parts = append(parts, st.Info.Render(fmt.Sprintf("finding the log's last %s…", label(m.since.asked))))
	case m.since.d > 0:
		parts = append(parts, st.Dim.Render(m.since.note()))
	}
	if m.wrap {
		parts = append(parts, st.Dim.Render("wrap"))
	}
	switch {
	case m.filter != nil:
		parts = append(parts, m.filter.status(st, false))
	case m.searchSeq != 0:
		what := fmt.Sprintf("searching for %s… %s scanned", quoteQuery(m.query), kit.Bytes(m.scanned))
		parts = append(parts, st.Info.Render(what)+st.Dim.Render(" (esc stops)"))
	case m.match != nil:
		parts = append(parts, st.Dim.Render(fmt.Sprintf("%s at %s · n/N for more", quoteQuery(m.query), kit.Bytes(m.match.off))))
	case m.query != (api.LogQuery{}):
		parts = append(parts, st.Dim.Render(quoteQuery(m.query)))
	}
	if p := m.shown(); !p.wrap && p.xoff > 0 {
		// Short lines may be blank, scrolled past their end: say why.
		parts = append(parts, st.Dim.Render(fmt.Sprintf("scrolled %d columns right (← back)", p.xoff)))
	}
	if m.saving {
		parts = append(parts, st.Info.Render("saving…"))
	}
	if m.seq != 0 && m.loaded {
		parts = append(parts, st.Dim.Render("reading…"))
	}
	if m.err != nil && m.loaded {
		parts = append(parts, st.Error.Render("✖ "+m.err.Error()))
	}
	if len(parts) == 0 {
		return st.Dim.Render(m.src.Kind.String() + " · f follows · / filters · E finds the first error")
	}
	return strings.Join(parts, st.Dim.Render(" · "))
}

func quoteQuery(q api.LogQuery) string {
	if q.Errors {
		return "ERROR/exception"
	}
	return "“" + q.Text + "”"
}
