package logview

import (
	"bytes"
	"context"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// filterView is the viewer filtered, k9s' `/` in a log: only the lines a
// query matches, found as it is typed by a scan of the file in steps
// (filterscan.go), newest first, and held as a window of their own (at
// most filterHeld bytes: the newest when more match). It has its own view
// of them, and a current line (the newest at first; n and N move it) that
// enter shows in the whole log; the viewer's window stays as it was, for
// esc.
type filterView struct {
	pane // win holds the matching lines, one after the other; offs their offsets

	env    *kit.Env
	call   kit.Call[Service]
	viewer int

	query api.LogQuery
	since since // the part of the log filtered
	held  []filterLine
	cur   int // the current line, an index of held

	step   filterStep // where the scan goes on from
	seq    int        // the step in flight, 0 for none
	cancel context.CancelFunc
	// The backward scan: how far it got of how much, and how it ended:
	// at the floor (done), with as much held as may be (full), or stopped
	// by esc.
	scanned, total      int64
	done, full, stopped bool
	err                 error
}

// newFilter starts filtering the log req names for q, back from its end
// to the period's first line; the Cmd is the scan's first step. The view is sized and
// wrapped as like's.
func newFilter(e *kit.Env, c kit.Call[Service], viewer int, req api.LogRequest, q api.LogQuery, in since, like *pane) (*filterView, tea.Cmd) {
	f := &filterView{env: e, call: c, viewer: viewer, query: q, since: in,
		pane: pane{win: newLogWindow(filterHeld), loaded: true, size: -1, wrap: like.wrap, width: like.width, height: like.height}}
	f.step = filterStep{req: req, query: q, floor: in.floor, hi: -1, room: filterHeld}
	f.cur = -1
	return f, f.run()
}

// run asks for the next step, under a context the next query, esc or
// leaving the viewer cancels.
func (f *filterView) run() tea.Cmd {
	if f.cancel != nil {
		f.cancel()
	}
	ctx, cancel := context.WithCancel(f.env.Ctx)
	f.cancel = cancel
	f.seq = f.env.NextSeq()
	return filterCmd(f.call, ctx, f.viewer, f.seq, f.step)
}

// close cancels the step in flight.
func (f *filterView) close() {
	if f.cancel != nil {
		f.cancel()
	}
	f.seq = 0
}

// end closes f, if there is one, and is the viewer's filter from then on:
// none.
func (f *filterView) end() *filterView {
	if f != nil {
		f.close()
	}
	return nil
}

// scanning reports that the backward scan goes on.
func (f *filterView) scanning() bool { return f.seq != 0 && !f.step.forward }

// stop ends the backward scan where it got (esc): what it found stays.
func (f *filterView) stop() {
	f.close()
	f.stopped = true
}

// onStep takes a step's answer: its lines join the held ones, and the scan
// goes on while there is more. rotated reports that the file was replaced
// under the scan: the viewer starts again.
func (f *filterView) onStep(msg logFilteredMsg) (cmd tea.Cmd, rotated bool) {
	f.seq = 0
	if msg.err != nil {
		f.err = msg.err
		return kit.Flash(kit.FlashError, fmt.Sprintf("filter for %s: %v", quoteQuery(f.query), msg.err)), false
	}
	r := msg.res
	if r.rotated {
		return nil, true
	}
	f.err = nil
	if r.size >= 0 {
		f.size = r.size
	}
	if f.step.forward {
		f.step = r.next
		f.add(r.lines)
		if !r.done {
			return f.run(), false
		}
		return nil, false
	}
	if f.step.hi < 0 {
		f.total = r.next.hi - r.next.floor
	}
	f.step, f.scanned = r.next, f.scanned+r.scanned
	f.done, f.full = r.done, f.full || r.full
	f.addOlder(r.lines)
	if !f.done && !f.full {
		return f.run(), false
	}
	return nil, false
}

// poll goes on from where the scan began, for the lines the file gained
// (follow mode), once the backward scan is over and while the view is at
// the newest line.
func (f *filterView) poll() tea.Cmd {
	if f.seq != 0 || !(f.done || f.full || f.stopped) || f.step.hi < 0 || (len(f.held) > 0 && !f.viewAtEnd()) {
		return nil
	}
	f.step.forward = true
	return f.run()
}

// addOlder puts lines found back from the scan's position before the
// held ones; the view stays on the lines it shows.
func (f *filterView) addOlder(lines []filterLine) {
	if len(lines) == 0 {
		return
	}
	end := len(f.held) == 0 || f.viewAtEnd()
	f.held = append(lines, f.held...)
	f.top += len(lines)
	if f.cur >= 0 && len(f.held) > len(lines) {
		f.cur += len(lines)
	} else {
		f.cur = len(f.held) - 1
	}
	f.rebuild()
	if end {
		f.toBottom()
	}
}

// add puts lines the file gained after the held ones: a line at the
// offset of the last held one is that line, now whole. The oldest go when
// more are held than filterHeld.
func (f *filterView) add(lines []filterLine) {
	if len(lines) == 0 {
		return
	}
	end := f.viewAtEnd()
	if n := len(f.held); n > 0 && lines[0].off == f.held[n-1].off {
		f.held = f.held[:n-1]
	}
	f.held = append(f.held, lines...)
	held := 0
	for _, l := range f.held {
		held += len(l.text) + 1
	}
	drop := 0
	for ; held > filterHeld && drop < len(f.held)-1; drop++ {
		held -= len(f.held[drop].text) + 1
	}
	if drop > 0 {
		f.held = append([]filterLine(nil), f.held[drop:]...)
		f.full = true
		f.top, f.cur = max(f.top-drop, 0), max(f.cur-drop, 0)
	}
	f.cur = min(f.cur, len(f.held)-1)
	f.rebuild()
	if end {
		f.toBottom()
	}
}

// rebuild makes the window of the held lines.
func (f *filterView) rebuild() {
	var b bytes.Buffer
	f.offs = f.offs[:0]
	for _, l := range f.held {
		b.Write(l.text)
		b.WriteByte('\n')
		f.offs = append(f.offs, l.off)
	}
	f.win.data = b.Bytes()
	f.win.index()
	f.clampView()
}

// move makes the line n lines down (up, negative) the current one, and
// shows it.
func (f *filterView) move(n int) tea.Cmd {
	if len(f.held) == 0 {
		return nil
	}
	to := f.cur + n
	switch {
	case to < 0:
		what := "the oldest line that matches"
		if f.full || f.stopped {
			what = "the oldest line held (" + f.extentNote() + ")"
		}
		return kit.Flash(kit.FlashInfo, "filter: this is "+what)
	case to >= len(f.held):
		return kit.Flash(kit.FlashInfo, "filter: this is the newest line that matches")
	}
	f.cur = to
	if to < f.top || to >= f.top+f.page() {
		f.top, f.sub = max(to-f.page()/3, 0), 0
		f.clampView()
	}
	if !f.wrap {
		text := cleanLine(f.win.line(to))
		if a, b, ok := f.query.Match([]byte(text)); ok {
			f.reveal(kit.Width(text[:a]), kit.Width(text[:b]))
		}
	}
	return nil
}

// key handles the keys that act on the filtered lines alone.
func (f *filterView) key(k kit.KeyMap, msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, k.Nav.Up):
		f.scroll(-1)
	case key.Matches(msg, k.Nav.Down):
		f.scroll(1)
	case key.Matches(msg, k.Nav.PageUp):
		f.scroll(-f.page())
	case key.Matches(msg, k.Nav.PageDown):
		f.scroll(f.page())
	case key.Matches(msg, k.Nav.Top):
		f.top, f.sub = 0, 0
	case key.Matches(msg, k.Nav.Bottom):
		f.toBottom()
	case key.Matches(msg, k.Log.NextMatch):
		return f.move(1), true
	case key.Matches(msg, k.Log.PrevMatch):
		return f.move(-1), true
	case key.Matches(msg, k.Log.Copy):
		if len(f.held) == 0 {
			return kit.Flash(kit.FlashWarn, "copy: no line matches"), true
		}
		i := f.cur
		if i < f.top || i >= f.top+f.page() {
			i = f.top
		}
		return copyLine(&f.pane, i), true
	default:
		return nil, false
	}
	return nil, true
}

// painter styles the filtered lines: the query's matches marked, the
// current line's most.
func (f *filterView) painter(st *kit.Styles) painter {
	pt := painter{st: st, query: f.query, current: -1}
	if f.cur >= 0 && f.cur < len(f.held) {
		pt.current = f.held[f.cur].off
	}
	return pt
}

// extentNote says what part of the log the held lines come from.
func (f *filterView) extentNote() string {
	switch {
	case f.full:
		return fmt.Sprintf("the newest %s held; narrow the filter for older ones", kit.Bytes(filterHeld))
	case f.stopped && !f.done:
		return fmt.Sprintf("searched back to %s, stopped", kit.Bytes(f.step.lo))
	case f.since.floor > 0:
		return "since " + f.since.from.Format("15:04:05")
	}
	return "in the whole log"
}

// status is the filter's part of the status line; typing says what its
// input line follows it with.
func (f *filterView) status(st *kit.Styles, typing bool) string {
	what := kit.Plural(len(f.held), "line")
	if !typing {
		what = fmt.Sprintf("filter %s: %s", quoteQuery(f.query), what)
	}
	switch {
	case f.scanning():
		s := st.Info.Render(fmt.Sprintf("%s · scanning… %s of %s", what, kit.Bytes(f.scanned), kit.Bytes(f.total)))
		if typing {
			return s
		}
		return s + st.Dim.Render(" (esc stops)")
	case f.err != nil:
		return st.Info.Render(what) + st.Error.Render(" ✖ "+f.err.Error())
	}
	return st.Info.Render(what + " " + f.extentNote())
}

// empty is what the view says while no line matches.
func (f *filterView) empty() string {
	if f.scanning() || f.step.hi < 0 {
		return "no line matches " + quoteQuery(f.query) + " yet…"
	}
	return "no line matches " + quoteQuery(f.query) + " " + f.extentNote()
}
