package tui

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
)

// burstService is the fake whose change stream is a burst of new jobs,
// handed over one at a time on an unbuffered channel, as core's hub
// hands its pending changes to a watcher.
type burstService struct {
	*tuitest.Fake
	burst []api.Change
	start chan struct{} // closed when the burst may begin
}

func (s *burstService) Watch(ctx context.Context) (<-chan api.Change, error) {
	ch := make(chan api.Change)
	go func() {
		defer close(ch)
		select {
		case <-s.start:
		case <-ctx.Done():
			return
		}
		for _, c := range s.burst {
			select {
			case ch <- c:
			case <-ctx.Done():
				return
			}
		}
		<-ctx.Done()
	}()
	return ch, nil
}

// framesCounted counts the frames the program draws (one View each).
type framesCounted struct {
	*Model
	frames *atomic.Int64
}

func (f framesCounted) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := f.Model.Update(msg)
	return f, cmd
}

func (f framesCounted) View() tea.View {
	f.frames.Add(1)
	return f.Model.View()
}

// Issue 28: `demo --managed 5000` listed 917 of its 5,000 jobs after 10 s:
// the program drew a frame of the whole table for every change of the
// stream. A burst of 5,000 new jobs reaches the header, and the program
// draws a frame for many changes at once, not for each.
func TestABurstOfChangesIsDrawnInFewFrames(t *testing.T) {
	const n = 5000
	f := tuitest.NewFixture()
	svc := &burstService{Fake: f, start: make(chan struct{})}
	for i := range n {
		j := api.JobView{Job: model.Job{ID: fmt.Sprintf("jb%05d", i), Name: fmt.Sprintf("fleet-%d", i), Kind: model.KindSQL,
			Cluster: "prod", State: model.StateNone}}
		svc.burst = append(svc.burst, api.Change{Kind: api.JobChanged, Job: &j})
	}
	frames := new(atomic.Int64)
	opts := Options{Now: func() time.Time { return tuitest.Now }, User: "ops", Theme: ThemeDark}
	tm := tuitest.Program(t, func(ctx context.Context) tea.Model {
		return framesCounted{Model: New(ctx, svc, opts), frames: frames}
	})
	tuitest.WaitFor(t, tm, fmt.Sprintf("jobs %d", len(f.Jobs)))
	before := frames.Load()
	close(svc.start)
	tuitest.WaitFor(t, tm, fmt.Sprintf("jobs %d", n+len(f.Jobs)))
	got := frames.Load() - before
	t.Logf("%d frames for %d changes", got, n)
	if got > n/10 {
		t.Errorf("the program drew %d frames for a burst of %d changes; want at most %d (a frame for many changes)", got, n, n/10)
	}
	tuitest.Final(t, tm)
}
