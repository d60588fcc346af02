package demo

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// lister keeps the job list as the TUI keeps it: one ListJobs, then the
// change stream, a Resync reading the list again. It counts the fleet's
// jobs by name.
type lister struct {
	d      *World
	fleet  map[string]bool // the fleet's job names
	jobs   map[string]api.JobView
	listed int // how many of the fleet's jobs the list holds
}

func newLister(d *World, n int) *lister {
	l := &lister{d: d, fleet: map[string]bool{}, jobs: map[string]api.JobView{}}
	for i := range n {
		l.fleet[jobRequest(i).Name] = true
	}
	return l
}

// load reads the whole list.
func (l *lister) load(ctx context.Context) error {
	jobs, err := l.d.svc.ListJobs(ctx, api.JobFilter{})
	if err != nil {
		return err
	}
	clear(l.jobs)
	l.listed = 0
	for _, j := range jobs {
		l.put(j)
	}
	return nil
}

func (l *lister) put(j api.JobView) {
	if _, ok := l.jobs[j.ID]; !ok && l.fleet[j.Name] && j.Kind == model.KindSQL {
		l.listed++
	}
	l.jobs[j.ID] = j
}

// take applies a change.
func (l *lister) take(ctx context.Context, c api.Change) error {
	switch {
	case c.Kind == api.Resync:
		return l.load(ctx)
	case c.Kind == api.JobChanged && c.Job != nil:
		l.put(*c.Job)
	}
	return nil
}

// logTimes records when the demo logs each message.
type logTimes struct {
	mu sync.Mutex
	at map[string]time.Time
}

func (h *logTimes) Enabled(context.Context, slog.Level) bool { return true }
func (h *logTimes) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *logTimes) WithGroup(string) slog.Handler            { return h }
func (h *logTimes) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.at[r.Message]; !ok {
		h.at[r.Message] = time.Now()
	}
	return nil
}

func (h *logTimes) when(msg string) time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.at[msg]
}

// fleetRun is a demo of n managed jobs started as `palink demo --managed
// n` starts it, with a lister watching its job list from the start.
type fleetRun struct {
	d     *World
	l     *lister
	ch    <-chan api.Change
	log   *logTimes
	start time.Time
	first time.Duration // until the first list was read (the UI's first frame)
}

func startFleet(t testing.TB, n int) *fleetRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &fleetRun{log: &logTimes{at: map[string]time.Time{}}, start: time.Now()}
	d, err := Start(ctx, Options{Sim: Sim{Apps: 6, Seed: 11, Speed: 1, CheckpointInterval: 10 * time.Second},
		Managed: n, Log: slog.New(r.log)})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	t.Cleanup(func() { cancel(); <-done; d.Close() })
	r.d, r.l = d, newLister(d, n)
	if r.ch, err = d.svc.Watch(ctx); err != nil {
		t.Fatal(err)
	}
	go func() { done <- d.Run(ctx) }()
	if err := r.l.load(ctx); err != nil {
		t.Fatal(err)
	}
	r.first = time.Since(r.start)
	return r
}

// until reads the change stream until done says so or the wait is over.
func (r *fleetRun) until(t testing.TB, wait time.Duration, done func(c api.Change) bool) {
	t.Helper()
	ctx := context.Background()
	timeout := time.After(wait)
	for {
		select {
		case c := <-r.ch:
			if err := r.l.take(ctx, c); err != nil {
				t.Fatal(err)
			}
			if done(c) {
				return
			}
		case <-timeout:
			t.Fatalf("after %v: %d of the fleet's %d jobs listed", wait, r.l.listed, len(r.l.fleet))
		}
	}
}

// Issue 28: `demo --managed 5000` listed 917 of its jobs after 10 s: the
// fleet beyond the warm jobs was created one job at a time, each
// submitted before the next was created. The fleet is listed whole
// before the first of those jobs is deployed.
func TestDemoListsItsFleetBeforeDeployingIt(t *testing.T) {
	const n = 600 // more than one of CreateJobs' batches
	r := startFleet(t, n)
	rest := map[string]bool{}
	for i := warmJobs; i < n; i++ {
		rest[jobRequest(i).Name] = true
	}
	deploying := func(c api.Change) bool {
		if c.Kind == api.JobChanged && c.Job != nil && rest[c.Job.Name] {
			return c.Job.Pending != nil || c.Job.State != model.StateNone
		}
		return false
	}
	r.until(t, 5*time.Minute, deploying)
	if got := r.l.listed; got != n {
		t.Errorf("the first of the fleet's jobs beyond the warm ones was deployed with %d of its %d jobs listed", got, n)
	}
	// The rest of it is deployed on, up to the last but one.
	last := jobRequest(n - 2).Name
	r.until(t, time.Minute, func(c api.Change) bool {
		return c.Kind == api.JobChanged && c.Job != nil && c.Job.Name == last && c.Job.Pending != nil
	})
}

// BenchmarkDemoFleetListed is `palink demo --managed N` as the UI sees
// it: the first list (the UI's first frame), the hour the warm jobs live,
// and the full list of N jobs, in seconds from the start and as a ratio
// to issue 28's bound (every job listed within 5 s of the first frame).
func BenchmarkDemoFleetListed(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("jobs=%d", n), func(b *testing.B) {
			for b.Loop() {
				r := startFleet(b, n)
				r.until(b, 10*time.Minute, func(api.Change) bool { return r.l.listed == n })
				full := time.Since(r.start)
				hour := r.log.when("demo: warm").Sub(r.start)
				b.ReportMetric(r.first.Seconds(), "s/first-list")
				b.ReportMetric(hour.Seconds(), "s/hour")
				b.ReportMetric(full.Seconds(), "s/full-list")
				if created := r.log.when("demo: fleet created"); !created.IsZero() {
					b.ReportMetric(created.Sub(r.log.when("demo: warm")).Seconds(), "s/create")
				}
				b.ReportMetric((full - hour).Seconds(), "s/after-hour")
				b.ReportMetric((full-r.first).Seconds()/5, "x-bound")
			}
		})
	}
}
