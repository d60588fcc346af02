package editor

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/tui/kit"
)

// finder is the editor's ctrl-f: the prompt, the query (ctrl-n and ctrl-p
// find it again once the prompt is closed) and where the search began,
// where esc goes back to. Its methods report whether the cursor moved, so
// that the editor scrolls to it.
type finder struct {
	input  textinput.Model
	active bool
	query  string
	from   pos
}

// open starts a search from the cursor, with the last query.
func (f *finder) open(b *textBuffer) tea.Cmd {
	f.active, f.from = true, b.cursor
	f.input.SetValue(f.query)
	f.input.CursorEnd()
	return f.input.Focus()
}

// key handles a key while the prompt is open.
func (f *finder) key(k kit.KeyMap, msg tea.KeyPressMsg, b *textBuffer) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, k.Form.Cancel):
		f.active = false
		f.input.Blur()
		b.moveTo(f.from, false, false)
		return nil, true
	case key.Matches(msg, k.Form.Confirm):
		f.active = false
		f.input.Blur()
		return nil, false
	case key.Matches(msg, k.Editor.FindNext):
		return f.next(b, false)
	case key.Matches(msg, k.Editor.FindPrev):
		return f.next(b, true)
	}
	return f.typed(msg, b)
}

// typed gives a key or a paste to the prompt and finds as it changes.
func (f *finder) typed(msg tea.Msg, b *textBuffer) (tea.Cmd, bool) {
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	return cmd, f.incremental(b)
}

// incremental moves to the first match from where the search began.
func (f *finder) incremental(b *textBuffer) bool {
	f.query = f.input.Value()
	if f.query == "" {
		b.moveTo(f.from, false, false)
		return true
	}
	if p, ok := b.find(f.query, f.from, false); ok {
		f.selectMatch(b, p)
		return true
	}
	return false
}

func (f *finder) selectMatch(b *textBuffer, p pos) {
	b.moveTo(p, false, false)
	b.moveTo(pos{p.line, p.col + len([]rune(f.query))}, true, false)
}

// next goes to the next match after the cursor, or the one before.
func (f *finder) next(b *textBuffer, backwards bool) (tea.Cmd, bool) {
	if f.query == "" {
		return kit.Flash(kit.FlashInfo, "nothing to find: ctrl+f asks what"), false
	}
	from := b.cursor
	if sel, _, ok := b.selection(); ok && backwards {
		from = sel
	}
	p, ok := b.find(f.query, from, backwards)
	if !ok {
		return kit.Flash(kit.FlashWarn, fmt.Sprintf("%q is not in the text", f.query)), false
	}
	f.selectMatch(b, p)
	return nil, true
}

// nextProblem is where the first diagnostic after cur is, wrapping.
func nextProblem(diags []flinksql.Diagnostic, cur pos) (pos, bool) {
	if len(diags) == 0 {
		return pos{}, false
	}
	target := diags[0]
	for _, d := range diags {
		if cur.before(diagPos(d.Pos)) {
			target = d
			break
		}
	}
	return diagPos(target.Pos), true
}

// diagPos is a diagnostic's place in the editor's terms (0-based).
func diagPos(p ast.Pos) pos { return pos{max(p.Line-1, 0), max(p.Col-1, 0)} }
