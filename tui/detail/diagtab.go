package detail

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// diagFetch is what a tab that finds the cause (Checkpoints, Exceptions,
// Graph, TaskManagers) fetches through api.DiagnoseService: fetched when
// the tab is shown, never before; one fetch in flight (kit.Refresher), a
// late answer dropped; another job's answer forgotten when the tab shows
// a new one; a failed refresh keeps the last answer and says why (err).
type diagFetch[T any] struct {
	job   api.JobView // the job of the last fetch
	loads kit.Refresher
	got   *T    // the last answer; nil before the first
	err   error // the last fetch's error
}

// diagFetchedMsg is the answer of one fetch of a diagFetch[T].
type diagFetchedMsg[T any] struct {
	jobID string
	seq   int
	v     T
	err   error
}

// newDiagFetch fetches what ("graph": a failure reads "fetch graph of
// orders-enrich: …") with fetch, a DiagnoseService method, through call
// (the detail's: leaving the detail cancels the fetch).
func newDiagFetch[T any](e *kit.Env, call func() kit.Call[Service], what string, fetch func(api.DiagnoseService, context.Context, string) (T, error)) *diagFetch[T] {
	f := &diagFetch[T]{}
	f.loads = kit.NewRefresher(e, func(seq int) tea.Cmd {
		c, id, name := call(), f.job.ID, f.job.Name
		return func() tea.Msg {
			v, err := kit.Diagnose(c, what+" of "+name, func(ctx context.Context, d api.DiagnoseService) (T, error) {
				return fetch(d, ctx, id)
			})
			return diagFetchedMsg[T]{jobID: id, seq: seq, v: v, err: err}
		}
	})
	return f
}

// show fetches for job j as its tab comes up, forgetting first what was
// fetched for another job.
func (f *diagFetch[T]) show(j api.JobView) tea.Cmd {
	if f.job.ID != j.ID {
		f.got, f.err = nil, nil
		f.loads.Drop()
	}
	f.job = j
	return f.loads.Refresh()
}

// refresh fetches again for the same job (ctrl+r, a timer).
func (f *diagFetch[T]) refresh() tea.Cmd { return f.loads.Refresh() }

// busy reports a fetch in flight.
func (f *diagFetch[T]) busy() bool { return f.loads.Busy() }

// take takes an answer: fresh reports a current one that brought a value
// (an answer for another job, or one no longer waited for, is dropped);
// next is the fetch asked for meanwhile.
func (f *diagFetch[T]) take(msg diagFetchedMsg[T]) (fresh bool, next tea.Cmd) {
	if msg.jobID != f.job.ID {
		return false, nil
	}
	current, next := f.loads.Done(msg.seq)
	if !current {
		return false, nil
	}
	f.err = msg.err
	if msg.err != nil {
		return false, next
	}
	v := msg.v
	f.got = &v
	return true, next
}

// placeholder is the tab, w×h, while nothing was fetched yet: that it
// fetches, or the first fetch's error and retry, the hint under it; show
// is false once an answer came.
func (f *diagFetch[T]) placeholder(st *kit.Styles, w, h int, fetching, retry string) (text string, show bool) {
	switch {
	case f.got != nil:
		return "", false
	case f.err != nil:
		text = st.Error.Render("✖ "+f.err.Error()) + "\n" + st.Dim.Render(retry)
	default:
		text = st.Dim.Render(fetching)
	}
	return strings.Join(kit.Centered(text, w, h), "\n"), true
}
