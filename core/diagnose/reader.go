package diagnose

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// Defaults of Options.
const (
	DefaultConcurrency = 8
	DefaultBudget      = 20 * time.Second
	// DefaultStreamBudget bounds reading one flame graph or thread dump.
	DefaultStreamBudget = 30 * time.Second
)

// Options tune an Inspector; zero fields take the defaults.
type Options struct {
	// Concurrency bounds the JobManager requests one call makes at once.
	Concurrency int
	// Budget bounds the requests of one call that fans out (one per
	// vertex, TaskManager or operator): past it, what was not read is
	// named in Notes.
	Budget time.Duration
	// StreamBudget bounds reading one flame graph or thread dump.
	StreamBudget time.Duration
	Now          func() time.Time
}

// Inspector reads jobs' diagnostics through the clusters that run them.
type Inspector struct {
	st       store.Store
	clusters map[string]*clusters.Cluster
	opts     Options
	// rates keeps each vertex's last totals, for the rates of the next read.
	rates rateSamples
}

// New builds an Inspector. It does no I/O.
func New(st store.Store, cs map[string]*clusters.Cluster, o Options) *Inspector {
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	if o.StreamBudget <= 0 {
		o.StreamBudget = DefaultStreamBudget
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Inspector{st: st, clusters: cs, opts: o}
}

func (rd *Inspector) now() time.Time { return rd.opts.Now() }

// target is a job resolved for a diagnostic call: its record, its cluster
// and, while its application runs, a client of its JobManager.
type target struct {
	job   model.Job
	cl    *clusters.Cluster
	app   *yarn.Application
	flink *yarn.Flink
}

// resolve finds the job, its cluster and its application. what names the
// call in errors ("job graph of orders").
func (rd *Inspector) resolve(ctx context.Context, ref, what string) (target, error) {
	var t target
	err := rd.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		t.job, err = journal.FindJob(tx, ref)
		return err
	})
	if err != nil {
		return t, fmt.Errorf("%s: %w", what, err)
	}
	t.cl = rd.clusters[t.job.Cluster]
	if t.cl == nil {
		return t, fmt.Errorf("%s of job %s: cluster %q is not configured", what, t.job.Name, t.job.Cluster)
	}
	if t.job.AppID == "" {
		return t, nil
	}
	app, err := t.cl.RM.Application(ctx, t.job.AppID)
	t.cl.Observe(err, rd.now())
	if err != nil {
		return t, fmt.Errorf("%s of job %s: application %s: %w", what, t.job.Name, t.job.AppID, err)
	}
	t.app = &app
	if app.State == yarn.AppRunning {
		if t.flink, err = t.cl.Flink(app); err != nil {
			t.flink = nil
		}
	}
	return t, nil
}

// live resolves a job whose JobManager must answer: its application runs
// and the job has a Flink job id.
func (rd *Inspector) live(ctx context.Context, ref, what string) (target, error) {
	t, err := rd.resolve(ctx, ref, what)
	if err != nil {
		return t, err
	}
	switch {
	case t.job.AppID == "":
		return t, fmt.Errorf("%s of job %s: it has no YARN application yet: %w", what, t.job.Name, model.ErrUnavailable)
	case t.app.State != yarn.AppRunning:
		return t, fmt.Errorf("%s of job %s: application %s is %s: its JobManager is gone: %w",
			what, t.job.Name, t.app.ID, t.app.State, model.ErrUnavailable)
	case t.flink == nil:
		return t, fmt.Errorf("%s of job %s: application %s has no JobManager address yet: %w",
			what, t.job.Name, t.app.ID, model.ErrUnavailable)
	case t.job.FlinkJobID == "":
		return t, fmt.Errorf("%s of job %s: its Flink job id is not known yet (state sync records it): %w",
			what, t.job.Name, model.ErrUnavailable)
	}
	return t, nil
}

// fanOut runs fn for each of n items, at most Concurrency at once, within
// the Budget (and ctx). It returns which items finished with no error and
// the failures of the others, by index; items never started because the
// budget ran out fail with context.DeadlineExceeded.
func (rd *Inspector) fanOut(ctx context.Context, n int, fn func(ctx context.Context, i int) error) []error {
	ctx, cancel := context.WithTimeout(ctx, rd.opts.Budget)
	defer cancel()
	errs := make([]error, n)
	sem := make(chan struct{}, rd.opts.Concurrency)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			for k := i; k < n; k++ {
				errs[k] = ctx.Err()
			}
			wg.Wait()
			return errs
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = fn(ctx, i)
		}()
	}
	wg.Wait()
	return errs
}

// failureNotes sums up a fan-out's failures: one note per kind of
// failure, naming the first items ("metrics of 3 vertices (Sink: out,
// Calc, …): timeout").
func failureNotes(what string, errs []error, name func(i int) string) []string {
	byCause := map[string][]string{}
	var order []string
	for i, err := range errs {
		if err == nil {
			continue
		}
		cause := shortCause(err)
		if _, ok := byCause[cause]; !ok {
			order = append(order, cause)
		}
		byCause[cause] = append(byCause[cause], name(i))
	}
	var out []string
	for _, cause := range order {
		names := byCause[cause]
		list := names
		if len(list) > 3 {
			list = append(append([]string(nil), list[:3]...), "…")
		}
		out = append(out, fmt.Sprintf("%s of %d (%s) not read: %s", what, len(names), strings.Join(list, ", "), cause))
	}
	return out
}

// shortCause is an error's gist for a note: a deadline is "no answer in
// time", whatever wrapped it.
func shortCause(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, yarn.ErrTimeout):
		return "the JobManager did not answer in time"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, yarn.ErrUnavailable):
		return "the JobManager is unreachable"
	case errors.Is(err, yarn.ErrNotFound):
		return "not found"
	}
	s := err.Error()
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// ms is Flink's milliseconds as a time; zero for none (0 or negative).
func ms(v int64) time.Time {
	if v <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(v)
}

// median of vs (which it sorts), 0 for none.
func median(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	sort.Float64s(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2]
	}
	return (vs[n/2-1] + vs[n/2]) / 2
}
