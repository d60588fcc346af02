package diagnose

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui/kit"
)

// Open builds the view msg asks for and the Cmd that loads it.
func Open(e *kit.Env, msg kit.OpenDiagMsg) (kit.Screen, tea.Cmd) {
	switch msg.View {
	case kit.DiagVertex:
		return NewVertex(e, msg.Job, msg.VertexID, msg.VertexName)
	case kit.DiagFlame:
		return NewFlame(e, msg.Job, msg.VertexID, msg.VertexName)
	case kit.DiagCheckpoint:
		return NewCheckpoint(e, msg.Job, msg.Checkpoint, msg.Recorded)
	case kit.DiagTaskManager:
		return NewTaskManager(e, msg.Job, msg.TaskManager)
	}
	return NewConfig(e, msg.Job)
}

// loadState is what every view shows before and around its data: the
// load in flight, and the error of the last one. Its requests run under
// a context of the view's own, which Close cancels when the view is left.
type loadState struct {
	loads  kit.Refresher
	err    error
	ctx    context.Context
	cancel context.CancelFunc
}

// start makes the view's context, under the session's.
func (l *loadState) start(e *kit.Env) {
	l.ctx, l.cancel = context.WithCancel(e.Ctx)
}

// call is what the view's Cmds capture: the session's, under the view's
// context.
func (l *loadState) call(e *kit.Env) kit.Call[Service] {
	c := call(e)
	c.Ctx = l.ctx
	return c
}

// Close implements kit.Closer: the view's requests in flight end.
func (l *loadState) Close() { l.cancel() }

// done takes the answer of load seq; ok is false for one to drop.
func (l *loadState) done(seq int, err error) (ok bool, next tea.Cmd) {
	current, next := l.loads.Done(seq)
	if !current {
		return false, nil
	}
	l.err = err
	return true, next
}

// placeholder is a view without its data: the title, then the loading
// line or what could not be fetched.
func placeholder(st *kit.Styles, title string, busy bool, err error, loading string, w, h int) string {
	msg := st.Dim.Render(loading)
	if err != nil && !busy {
		msg = st.LoadFailed(err)
	}
	return kit.Fit(title, w) + "\n" + strings.Join(kit.Centered(msg, w, h-1), "\n")
}

// statusNote is what a title line says of the data's freshness: a refresh
// in flight, a failed one, the service's notes of what is missing.
func statusNote(st *kit.Styles, busy bool, err error, notes []string) string {
	out := ""
	switch {
	case busy:
		out += st.Dim.Render("  refreshing…")
	case err != nil:
		out += st.Error.Render("  ✖ not current: " + err.Error())
	}
	for _, n := range notes {
		out += st.Warn.Render("  ⚠ " + n)
	}
	return out
}
