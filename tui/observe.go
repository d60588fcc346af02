package tui

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/alerts"
	"github.com/palink/palink/tui/detail"
	"github.com/palink/palink/tui/diagnose"
	"github.com/palink/palink/tui/jobs"
	"github.com/palink/palink/tui/kit"
)

// The root's part in live metrics and alerts: it declares to the service
// which jobs are on screen (the visible rows of the jobs table, or the job
// of the detail view), so that only those are measured; and it keeps the
// count of firing alerts for the header badge.

// interestRefresh is how often an unchanged interest is declared again:
// well within the service's expiry (a few collection intervals, at least
// 30s), so a running TUI never lapses and a closed one soon does.
const interestRefresh = 10 * time.Second

// observeState is the root model's interest and alert badge state.
type observeState struct {
	client string

	sent     api.InterestRequest // the last interest declared
	sentAt   time.Time
	declared bool // an interest was ever declared
	inFlight bool

	firing      []model.Alert // for the badge
	firingLoads kit.Refresher
}

type interestSentMsg struct{ err error }

func newObserveState(e *kit.Env) observeState {
	var b [6]byte
	_, _ = rand.Read(b[:])
	firing := api.AlertFilter{States: []model.AlertState{model.AlertFiring}}
	return observeState{
		client: "tui-" + hex.EncodeToString(b[:]),
		firingLoads: kit.NewRefresher(e, func(seq int) tea.Cmd {
			return alerts.Load(kit.CallOf[alerts.Service](e, e.Svc), firing, seq)
		}),
	}
}

func setInterestCmd(c kit.Call[appService], r api.InterestRequest) tea.Cmd {
	return func() tea.Msg {
		err := c.With(func(ctx context.Context) error { return c.Service.SetInterest(ctx, r) })
		return interestSentMsg{err: err}
	}
}

// interestOf is what is on screen now: the topmost jobs table or job
// detail of the stack (a help or text screen over them keeps theirs), and
// the vertex view when it is on top (its subtasks are sampled while it
// shows them; help over it keeps them).
func interestOf(stack []kit.Screen, client string) api.InterestRequest {
	r := api.InterestRequest{Client: client}
	for i := len(stack) - 1; i >= 0; i-- {
		if _, help := stack[i].(*helpScreen); help {
			continue
		}
		if v, ok := stack[i].(*diagnose.Vertex); ok {
			r.Vertex = v.OnScreen()
		}
		break
	}
	for i := len(stack) - 1; i >= 0; i-- {
		switch s := stack[i].(type) {
		case *detail.Screen:
			r.Detail = s.JobID()
			return r
		case *jobs.Screen:
			r.Jobs, _ = s.OnScreen()
			return r
		}
	}
	return r
}

func sameInterest(a, b api.InterestRequest) bool {
	return a.Detail == b.Detail && a.Vertex == b.Vertex && slices.Equal(a.Jobs, b.Jobs)
}

// declare sends the interest of the stack when it changed (scroll, filter,
// resize, a screen opened or closed) or is due again, one call at a time.
func (o *observeState) declare(e *kit.Env, stack []kit.Screen) tea.Cmd {
	if o.inFlight {
		return nil
	}
	r := interestOf(stack, o.client)
	changed := !sameInterest(r, o.sent)
	due := o.declared && e.Now.Sub(o.sentAt) >= interestRefresh
	if !changed && !due {
		return nil
	}
	if !o.declared && len(r.Jobs) == 0 && r.Detail == "" && r.Vertex.IsZero() {
		return nil // nothing on screen yet, nothing declared yet
	}
	o.sent, o.sentAt, o.declared, o.inFlight = r, e.Now, true, true
	return setInterestCmd(call(e), r)
}

// update handles the root's metrics and alerts messages before the rest
// of Update sees them; gen is the change stream's generation.
func (o *observeState) update(msg tea.Msg, gen int) tea.Cmd {
	switch msg := msg.(type) {
	case interestSentMsg:
		o.inFlight = false
		// A failure is not worth a flash: the interest is declared again
		// at the next change or refresh, and the table works without figures.
	case alerts.LoadedMsg:
		current, again := o.firingLoads.Done(msg.Seq)
		if !current {
			return nil
		}
		if msg.Err == nil {
			o.firing = msg.Alerts
		}
		return again
	case kit.ChangeMsg:
		if msg.Gen == gen && (msg.Change.Kind == api.AlertsChanged || msg.Change.Kind == api.Resync) {
			return o.firingLoads.Refresh()
		}
	case watchRetryMsg:
		if msg.gen == gen {
			return o.firingLoads.Refresh() // alerts may have changed while the stream was down
		}
	}
	return nil
}

// alertBadge is the header's count of firing alerts, "" when none fire.
func alertBadge(st *kit.Styles, firing []model.Alert, level int) string {
	n := len(firing)
	if n == 0 {
		return ""
	}
	critical := false
	for _, a := range firing {
		critical = critical || a.Severity == "critical"
	}
	style := st.Warn
	if critical {
		style = st.AlertFiring
	}
	switch {
	case level >= 2:
		return style.Render(fmt.Sprintf("⚠%d", n))
	case n == 1:
		return style.Render("⚠ 1 alert")
	}
	return style.Render(fmt.Sprintf("⚠ %d alerts", n))
}
