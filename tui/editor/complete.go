package editor

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/complete"
	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/tui/sqlview"
)

// completion is the editor's popup of suggestions (complete.At):
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
	items []complete.Suggestion
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
	res              complete.Result
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
		return completedMsg{id: id, seq: seq, version: version, at: at, res: complete.At(text, at.line+1, at.col+1, opts)}
	}
}

func describeCmd(id, seq, version int, text string, at pos, opts flinksql.Options) tea.Cmd {
	return func() tea.Msg {
		s, ok := complete.Describe(text, at.line+1, at.col+1, opts)
		desc := ""
		if ok {
			desc = describe(s)
		}
		return describedMsg{id: id, seq: seq, version: version, at: at, desc: desc}
	}
}

// describe is a suggestion's line in the status line.
func describe(s complete.Suggestion) string {
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
func wordBefore(b *textBuffer) bool {
	if b.cursor.col == 0 {
		return false
	}
	if _, _, sel := b.selection(); sel {
		return false
	}
	r := b.lines[b.cursor.line][b.cursor.col-1]
	return r == '.' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// ask starts a completion at the cursor; seq is the request's number.
func (c *completion) ask(b *textBuffer, id, seq int, opts flinksql.Options) tea.Cmd {
	c.seq = seq
	c.open = false
	return completeCmd(id, c.seq, b.version, b.Text(), b.cursor, opts)
}

// completed shows an answer that is still for the text and the cursor. It
// reports a single suggestion, which the editor writes at once.
func (c *completion) completed(msg completedMsg, b *textBuffer) (single bool) {
	if msg.seq != c.seq || msg.version != b.version || msg.at != b.cursor {
		return false
	}
	line := b.lines[b.cursor.line]
	start := pos{msg.res.Start.Line - 1, runeCol(line, msg.res.Start.Col-1)}
	if start.line != b.cursor.line {
		return false
	}
	c.start, c.items, c.sel = start, msg.res.Items, 0
	c.open = true
	c.narrow(b)
	return c.open && len(c.shown) == 1
}

// runeCol clamps a rune column to the line.
func runeCol(line []rune, col int) int { return max(min(col, len(line)), 0) }

// key handles a key while the popup is open: accept when the chosen
// suggestion is to be written; used is false for keys the editor handles
// as usual (typing and backspace narrow the popup afterwards, other keys
// close it).
func (c *completion) key(msg tea.KeyPressMsg, k *kit.KeyMap) (accept, used bool) {
	switch {
	case key.Matches(msg, k.Text.Up) && !msg.Mod.Contains(tea.ModShift):
		c.sel = (c.sel - 1 + len(c.shown)) % len(c.shown)
	case key.Matches(msg, k.Text.Down) && !msg.Mod.Contains(tea.ModShift):
		c.sel = (c.sel + 1) % len(c.shown)
	case key.Matches(msg, k.Text.Newline), key.Matches(msg, k.Text.Indent):
		return true, true
	case key.Matches(msg, k.Editor.Back):
		c.open = false
	case key.Matches(msg, k.Text.Backspace), msg.Text != "" && !msg.Mod.Contains(tea.ModCtrl) && !msg.Mod.Contains(tea.ModAlt):
		return false, false
	default:
		c.open = false
		return false, false
	}
	return false, true
}

// narrow keeps the suggestions the text typed since the popup opened
// still completes; it closes the popup when none does or the cursor left
// the word.
func (c *completion) narrow(b *textBuffer) {
	if !c.open {
		return
	}
	if b.cursor.line != c.start.line || b.cursor.col < c.start.col {
		c.open = false
		return
	}
	typed := string(b.lines[b.cursor.line][c.start.col:b.cursor.col])
	c.shown = c.shown[:0]
	for i, s := range c.items {
		if hasPrefixFold(strings.Trim(s.Text, "'`"), strings.TrimLeft(typed, "'`")) {
			c.shown = append(c.shown, i)
		}
	}
	if len(c.shown) == 0 {
		c.open = false
		return
	}
	c.sel = min(c.sel, len(c.shown)-1)
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// chosen is the suggestion the popup has selected.
func (c *completion) chosen() complete.Suggestion { return c.items[c.shown[c.sel]] }

// accept writes the chosen suggestion over the text it completes.
func (m *Screen) accept() tea.Cmd {
	s := m.comp.chosen()
	m.comp.open = false
	start := m.comp.start
	return m.edit(func() { m.buf.apply(start, m.buf.cursor, s.Text, editOther) })
}

// askHover asks for the description of what is under the cursor, when it
// moved or the text changed and the cursor touches a word or a string;
// seq numbers the request.
func (c *completion) askHover(b *textBuffer, id int, seq func() int, opts flinksql.Options) tea.Cmd {
	if c.hoverAt == b.cursor && c.hoverVersion == b.version {
		return nil
	}
	c.hoverAt, c.hoverVersion, c.hover = b.cursor, b.version, ""
	line := b.lines[b.cursor.line]
	touches := func(i int) bool {
		return i >= 0 && i < len(line) && (line[i] == '_' || line[i] == '\'' || line[i] == '.' || line[i] == '-' ||
			unicode.IsLetter(line[i]) || unicode.IsDigit(line[i]))
	}
	if !touches(b.cursor.col) && !touches(b.cursor.col-1) {
		return nil
	}
	c.hoverSeq = seq()
	return describeCmd(id, c.hoverSeq, b.version, b.Text(), b.cursor, opts)
}

func (c *completion) described(msg describedMsg, b *textBuffer) {
	if msg.seq == c.hoverSeq && msg.version == b.version && msg.at == b.cursor {
		c.hover = msg.desc
	}
}

// hint is the status line's description: the chosen suggestion's while
// the popup is open, else the function's or option's under the cursor.
func (c *completion) hint(b *textBuffer) string {
	if c.open {
		return describe(c.chosen())
	}
	if c.hoverAt == b.cursor && c.hoverVersion == b.version {
		return c.hover
	}
	return ""
}

// kindMarks mark each suggestion's kind in the popup.
var kindMarks = map[complete.Kind]string{
	complete.Keyword: "k", complete.Table: "t", complete.Column: "c",
	complete.Function: "f", complete.Option: "o", complete.Value: "v", complete.Hint: "h",
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
