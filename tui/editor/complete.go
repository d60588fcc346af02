package editor

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/tui/sqlview"
)

// completion is the editor's popup of suggestions (flinksql.Complete):
// tab after a word or a '.', or ctrl+space anywhere, asks for them in a
// Cmd; typing narrows them, backspace widens them; up/down choose, enter
// or tab write the chosen one, esc closes. The popup never covers the
// cursor's line: it opens below it, or above when there is no room.
type completion struct {
	open bool
	// seq is the request whose answer is awaited or shown: an answer for
	// another text or cursor is dropped.
	seq   int
	start pos // where the text the suggestions replace begins
	items []flinksql.Suggestion
	shown []int // indexes into items of the ones the typed prefix matches
	sel   int   // index into shown

	// hover describes the function or option under the cursor for the
	// status line, for the text version and cursor it was asked at.
	hover        string
	hoverAt      pos
	hoverVersion int
	hoverSeq     int
}

// popupRows is the most suggestions the popup shows at once.
const popupRows = 8

type completedMsg struct {
	id, seq, version int
	at               pos
	res              flinksql.Completion
}

type describedMsg struct {
	id, seq, version int
	at               pos
	desc             string
}

// completeCmd completes in a Cmd: a few milliseconds in a long script,
// never on the event loop.
func completeCmd(id, seq, version int, text string, at pos, opts flinksql.Options) tea.Cmd {
	return func() tea.Msg {
		return completedMsg{id: id, seq: seq, version: version, at: at, res: flinksql.Complete(text, at.line+1, at.col+1, opts)}
	}
}

func describeCmd(id, seq, version int, text string, at pos, opts flinksql.Options) tea.Cmd {
	return func() tea.Msg {
		s, ok := flinksql.Describe(text, at.line+1, at.col+1, opts)
		desc := ""
		if ok {
			desc = describe(s)
		}
		return describedMsg{id: id, seq: seq, version: version, at: at, desc: desc}
	}
}

// describe is a suggestion's line in the status line.
func describe(s flinksql.Suggestion) string {
	parts := []string{}
	for _, p := range []string{s.Detail, s.Doc} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return s.Kind.String()
	}
	return strings.Join(parts, " — ")
}

// wordBefore reports whether the cursor follows a word character or a
// '.': there tab completes, elsewhere it indents.
func (m *Screen) wordBefore() bool {
	b := m.buf
	if b.cursor.col == 0 {
		return false
	}
	if _, _, sel := b.selection(); sel {
		return false
	}
	r := b.lines[b.cursor.line][b.cursor.col-1]
	return r == '.' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// askCompletion starts a completion at the cursor.
func (m *Screen) askCompletion() tea.Cmd {
	m.comp.seq = m.env.NextSeq()
	m.comp.open = false
	return completeCmd(m.id, m.comp.seq, m.buf.version, m.buf.Text(), m.buf.cursor, m.sqlOptions())
}

// completed shows an answer that is still for the text and the cursor; a
// single suggestion is written at once.
func (m *Screen) completed(msg completedMsg) tea.Cmd {
	if msg.seq != m.comp.seq || msg.version != m.buf.version || msg.at != m.buf.cursor {
		return nil
	}
	line := m.buf.lines[m.buf.cursor.line]
	start := pos{msg.res.Start.Line - 1, runeCol(line, msg.res.Start.Col-1)}
	if start.line != m.buf.cursor.line {
		return nil
	}
	m.comp.start, m.comp.items, m.comp.sel = start, msg.res.Items, 0
	m.comp.open = true
	m.narrow()
	if m.comp.open && len(m.comp.shown) == 1 {
		return m.accept()
	}
	return nil
}

// runeCol clamps a rune column to the line.
func runeCol(line []rune, col int) int { return max(min(col, len(line)), 0) }

// popupKey handles a key while the popup is open; used is false for keys
// the editor handles as usual (typing and backspace narrow the popup
// afterwards, other keys close it).
func (m *Screen) popupKey(msg tea.KeyPressMsg) (cmd tea.Cmd, used bool) {
	k := m.env.Keys
	switch {
	case key.Matches(msg, k.Text.Up) && !msg.Mod.Contains(tea.ModShift):
		m.comp.sel = (m.comp.sel - 1 + len(m.comp.shown)) % len(m.comp.shown)
	case key.Matches(msg, k.Text.Down) && !msg.Mod.Contains(tea.ModShift):
		m.comp.sel = (m.comp.sel + 1) % len(m.comp.shown)
	case key.Matches(msg, k.Text.Newline), key.Matches(msg, k.Text.Indent):
		return m.accept(), true
	case key.Matches(msg, k.Editor.Back):
		m.comp.open = false
	case key.Matches(msg, k.Text.Backspace), msg.Text != "" && !msg.Mod.Contains(tea.ModCtrl) && !msg.Mod.Contains(tea.ModAlt):
		return nil, false
	default:
		m.comp.open = false
		return nil, false
	}
	return nil, true
}

// narrow keeps the suggestions the text typed since the popup opened
// still completes; it closes the popup when none does or the cursor left
// the word.
func (m *Screen) narrow() {
	if !m.comp.open {
		return
	}
	b := m.buf
	if b.cursor.line != m.comp.start.line || b.cursor.col < m.comp.start.col {
		m.comp.open = false
		return
	}
	typed := string(b.lines[b.cursor.line][m.comp.start.col:b.cursor.col])
	m.comp.shown = m.comp.shown[:0]
	for i, s := range m.comp.items {
		if hasPrefixFold(strings.Trim(s.Text, "'`"), strings.TrimLeft(typed, "'`")) {
			m.comp.shown = append(m.comp.shown, i)
		}
	}
	if len(m.comp.shown) == 0 {
		m.comp.open = false
		return
	}
	m.comp.sel = min(m.comp.sel, len(m.comp.shown)-1)
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// accept writes the chosen suggestion over the text it completes.
func (m *Screen) accept() tea.Cmd {
	s := m.comp.items[m.comp.shown[m.comp.sel]]
	m.comp.open = false
	start := m.comp.start
	return m.edit(func() { m.buf.apply(start, m.buf.cursor, s.Text, editOther) })
}

// askHover asks for the description of what is under the cursor, when it
// moved or the text changed and the cursor touches a word or a string.
func (m *Screen) askHover() tea.Cmd {
	b := m.buf
	if m.comp.hoverAt == b.cursor && m.comp.hoverVersion == b.version {
		return nil
	}
	m.comp.hoverAt, m.comp.hoverVersion, m.comp.hover = b.cursor, b.version, ""
	line := b.lines[b.cursor.line]
	touches := func(c int) bool {
		return c >= 0 && c < len(line) && (line[c] == '_' || line[c] == '\'' || line[c] == '.' || line[c] == '-' ||
			unicode.IsLetter(line[c]) || unicode.IsDigit(line[c]))
	}
	if !touches(b.cursor.col) && !touches(b.cursor.col-1) {
		return nil
	}
	m.comp.hoverSeq = m.env.NextSeq()
	return describeCmd(m.id, m.comp.hoverSeq, b.version, b.Text(), b.cursor, m.sqlOptions())
}

func (m *Screen) described(msg describedMsg) {
	if msg.seq == m.comp.hoverSeq && msg.version == m.buf.version && msg.at == m.buf.cursor {
		m.comp.hover = msg.desc
	}
}

// statusHint is the status line's description: the chosen suggestion's
// while the popup is open, else the function's or option's under the
// cursor.
func (m *Screen) statusHint() string {
	if m.comp.open {
		return describe(m.comp.items[m.comp.shown[m.comp.sel]])
	}
	if m.comp.hoverAt == m.buf.cursor && m.comp.hoverVersion == m.buf.version {
		return m.comp.hover
	}
	return ""
}

// kindMarks mark each suggestion's kind in the popup.
var kindMarks = map[flinksql.SuggestionKind]string{
	flinksql.SuggestKeyword: "k", flinksql.SuggestTable: "t", flinksql.SuggestColumn: "c",
	flinksql.SuggestFunction: "f", flinksql.SuggestOption: "o", flinksql.SuggestValue: "v", flinksql.SuggestHint: "h",
}

// overlayPopup draws the popup over the text's rows: under the cursor's
// line (and its problem line), or above it when there is no room below;
// never over the cursor's line.
func (m *Screen) overlayPopup(rows []string) []string {
	if !m.comp.open || len(rows) == 0 {
		return rows
	}
	ed := &m.env.Styles.Editor
	b := m.buf
	cur := b.cursor.line - m.offset
	below := cur + 1
	if m.annotationFor(b.cursor.line) != nil {
		below++
	}
	n := min(len(m.comp.shown), popupRows)
	first := min(max(m.comp.sel-n+1, 0), len(m.comp.shown)-n) // the chosen row stays in view
	top := below
	switch {
	case below+n <= m.textHeight():
	case cur-n >= 0:
		top = cur - n
	default:
		n = max(m.textHeight()-below, 0)
	}
	textW, detailW := 0, 0
	for _, i := range m.comp.shown[first : first+n] {
		s := m.comp.items[i]
		textW = max(textW, kit.Width(s.Text))
		detailW = max(detailW, kit.Width(s.Detail))
	}
	textW, detailW = min(textW, 32), min(detailW, 36)
	width := 3 + textW + 1 // " k text "
	if detailW > 0 {
		width += 1 + detailW + 1
	}
	gutter := gutterWidth(len(b.lines))
	x := gutter + sqlview.CellCol(b.lines[b.cursor.line], m.comp.start.col) - m.xoff
	x = max(min(x, m.width-width), gutter)
	for r := 0; r < n; r++ {
		s := m.comp.items[m.comp.shown[first+r]]
		body := " " + kindMarks[s.Kind] + " " + padCut(s.Text, textW) + " "
		detail := ""
		if detailW > 0 {
			detail = " " + padCut(s.Detail, detailW) + " "
		}
		cell := ed.Popup.Render(body) + ed.PopupDetail.Render(detail)
		if first+r == m.comp.sel {
			cell = ed.PopupSelected.Render(body + detail)
		}
		for len(rows) <= top+r {
			rows = append(rows, "")
		}
		rows[top+r] = overlay(rows[top+r], cell, x, width)
	}
	return rows
}

// padCut fits s into w cells: cut with an ellipsis, or padded.
func padCut(s string, w int) string { return kit.Fit(s, w) }

// overlay puts cell (width cells wide) over row from cell x on; the row's
// styles on either side are kept.
func overlay(row, cell string, x, width int) string {
	left := ansi.Truncate(row, x, "")
	if w := kit.Width(left); w < x {
		left += strings.Repeat(" ", x-w)
	}
	return left + cell + ansi.TruncateLeft(row, x+width, "")
}
