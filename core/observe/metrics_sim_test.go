package observe

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// countingTransport counts the JobManager requests per YARN application,
// read from the RM web proxy's path (/proxy/<app id>/…).
type countingTransport struct {
	next http.RoundTripper
	mu   sync.Mutex
	apps map[string]int
	all  int
}

func newCountingTransport() *countingTransport {
	return &countingTransport{next: http.DefaultTransport.(*http.Transport).Clone(), apps: map[string]int{}}
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	app := "?"
	if rest, ok := strings.CutPrefix(r.URL.Path, "/proxy/"); ok {
		app, _, _ = strings.Cut(rest, "/")
	}
	c.mu.Lock()
	c.apps[app]++
	c.all++
	c.mu.Unlock()
	return c.next.RoundTrip(r)
}

// take returns the counts since the last take and starts again.
func (c *countingTransport) take() (map[string]int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	apps, all := c.apps, c.all
	c.apps, c.all = map[string]int{}, 0
	return apps, all
}

// manualClock is a settable clock for the service.
type manualClock struct{ ns atomic.Int64 }

func (m *manualClock) now() time.Time          { return time.Unix(0, m.ns.Load()) }
func (m *manualClock) set(t time.Time)         { m.ns.Store(t.UnixNano()) }
func (m *manualClock) advance(d time.Duration) { m.ns.Add(int64(d)) }

// chanPublisher keeps what the observer publishes, for the test to read.
type chanPublisher struct{ ch chan api.Change }

func (p *chanPublisher) Job(j model.Job, pending *model.Command, ev *model.Event) {
	p.ch <- api.Change{Kind: api.JobChanged, Job: &api.JobView{Job: j, Pending: pending}, Event: ev}
}
func (p *chanPublisher) Command(c model.Command) {
	p.ch <- api.Change{Kind: api.CommandChanged, Command: &c}
}
func (p *chanPublisher) Publish(c api.Change) { p.ch <- c }

// fleetEnv is a simulated fleet with one palink job per Flink application,
// a Local over it whose JobManager requests are counted, and its clock.
type fleetEnv struct {
	sim     *sim.Cluster
	svc     *Observer
	pub     *chanPublisher
	st      store.Store
	counter *countingTransport
	clock   *manualClock
	jobs    []model.Job // by id
	running map[string]bool
}

// newFleet populates a simulator with apps Flink applications and makes
// each a palink job, as if palink had deployed them; running ones are
// RUNNING with the addresses sync would have recorded.
func newFleet(tb testing.TB, apps int, edit func(*Settings)) *fleetEnv {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c, err := sim.New(sim.Options{Seed: 7, Apps: apps})
	if err != nil {
		tb.Fatal(err)
	}
	if err := c.Start(ctx, "127.0.0.1:0"); err != nil {
		tb.Fatal(err)
	}
	st, err := store.Open(filepath.Join(tb.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		tb.Fatal(err)
	}
	set := Settings{Interval: 5 * time.Second, Concurrency: 8, AlertInterval: 30 * time.Second,
		Rules: []Rule{{Name: "job-failed", Kind: RuleJobFailed, Severity: "critical"}, {Name: "state-drift", Kind: RuleDrift, Severity: "warning"}}}
	if edit != nil {
		edit(&set)
	}
	f := &fleetEnv{sim: c, st: st, counter: newCountingTransport(), clock: &manualClock{}, running: map[string]bool{}}
	f.clock.set(time.Now())
	now := f.clock.now()
	for i, a := range c.Apps() {
		if a.Type != "Apache Flink" || len(a.Jobs) == 0 || a.Mode == sim.ModeSession {
			continue
		}
		j := model.Job{ID: fmt.Sprintf("j%05d", i), Name: fmt.Sprintf("job-%05d", i), Kind: model.KindSQL, Cluster: "sim",
			SpecVersion: 1, State: model.StateFinished, AppID: a.ID, FlinkJobID: a.Jobs[0].ID, CreatedAt: now, UpdatedAt: now}
		if a.State == "RUNNING" && a.Jobs[0].State == "RUNNING" {
			j.State, j.FlinkState, j.TrackingURL, j.JMAddress = model.StateRunning, "RUNNING", a.TrackingURL, a.JMAddress
			f.running[j.ID] = true
		}
		f.jobs = append(f.jobs, j)
	}
	err = st.Update(ctx, func(tx store.Tx) error {
		for _, j := range f.jobs {
			if err := tx.CreateJob(j); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	cs, err := clusters.New([]clusters.Spec{{Name: "sim", RM: c.RMURLs(), SQLGateway: c.GatewayURL()}})
	if err != nil {
		tb.Fatal(err)
	}
	cl := cs["sim"]
	if err = cl.UseFlinkTransport(f.counter); err != nil {
		tb.Fatal(err)
	}
	f.pub = &chanPublisher{ch: make(chan api.Change, 100_000)}
	f.svc = New(Options{Store: st, Settings: set, Clusters: cs, Now: f.clock.now, Publisher: f.pub,
		Watch: func(ctx context.Context) <-chan api.Change { return make(chan api.Change) }})
	tb.Cleanup(func() { cancel(); st.Close(); c.Close() })
	return f
}

// page is the ids of rows [from, from+n) of the jobs table (sorted by id).
func (f *fleetEnv) page(from, n int) []string {
	var out []string
	for _, j := range f.jobs[from : from+n] {
		out = append(out, j.ID)
	}
	return out
}

func (f *fleetEnv) appsOf(ids []string) map[string]string {
	byID := map[string]model.Job{}
	for _, j := range f.jobs {
		byID[j.ID] = j
	}
	out := map[string]string{}
	for _, id := range ids {
		out[byID[id].AppID] = id
	}
	return out
}

func (f *fleetEnv) runningOf(ids []string) int {
	n := 0
	for _, id := range ids {
		if f.running[id] {
			n++
		}
	}
	return n
}

// TestMetricRequestsFollowTheScreen is the scale check: with
// 10,000 jobs and 40 on screen, a round asks the JobManagers of those 40
// only, a fixed number of requests each; scrolling moves the requests
// with the rows and never touches a hidden job; an interest nobody renews
// stops costing anything. It keeps its 10,000 jobs under the race
// detector too (a few seconds there).
func TestMetricRequestsFollowTheScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10,000-job fleet")
	}
	const apps = 10_000
	f := newFleet(t, apps, nil)
	ctx := context.Background()
	if len(f.jobs) < apps/2 {
		t.Fatalf("fleet has %d jobs", len(f.jobs))
	}
	watch := f.pub.ch

	screen := f.page(0, 40)
	running := f.runningOf(screen)
	if running < 10 {
		t.Fatalf("only %d of the first 40 jobs run; pick another seed", running)
	}
	// A second client shows one running job in depth.
	detail := screen[firstRunning(f, screen)]
	if err := f.svc.SetInterest(ctx, api.InterestRequest{Client: "tui-1", Jobs: screen}); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.SetInterest(ctx, api.InterestRequest{Client: "tui-2", Detail: detail}); err != nil {
		t.Fatal(err)
	}
	// Each running job costs checkpoints + restarts + one per vertex (3 in
	// the simulator); once per Flink job (and every few minutes) its
	// details, for its graph, and the listing of its source's metric names;
	// the job shown in depth its details every round and one more (the
	// cluster overview).
	const perJob, firstTime, inDepth = 5, 2, 2
	for round, want := range []int{running*(perJob+firstTime) + 1, running*perJob + inDepth} {
		stats, err := f.svc.collectOnce(ctx, true)
		if err != nil {
			t.Fatal(err)
		}
		byApp, all := f.counter.take()
		onScreen := f.appsOf(screen)
		for app, n := range byApp {
			if _, ok := onScreen[app]; !ok {
				t.Fatalf("round %d: %d requests to %s, which is not on screen", round+1, n, app)
			}
		}
		if all != want || int(stats.Requests) != want || stats.Errors != 0 || stats.Jobs != running {
			t.Fatalf("round %d: %d requests (stats %+v), want %d for %d running jobs of 40 on screen", round+1, all, stats, want, running)
		}
		f.clock.advance(5 * time.Second)
	}

	// Figures went out through Watch for the running rows, with a sparkline.
	// The stream coalesces per job: read until every job's latest change
	// (the second round's, two points of history) arrived.
	published := map[string]api.JobView{}
	current := func() int {
		n := 0
		for _, v := range published {
			if len(v.Figures.InSpark) == 2 {
				n++
			}
		}
		return n
	}
	for current() < running {
		select {
		case c := <-watch:
			if c.Kind == api.JobChanged && c.Job != nil {
				published[c.Job.ID] = *c.Job
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("only %d of %d running jobs' figures were published twice: %v", current(), running, sortedKeys(published))
		}
	}
	for id, v := range published {
		fg := v.Figures
		if !f.running[id] || fg.At.IsZero() || fg.RecordsInPerSec <= 0 || len(fg.InSpark) != 2 || fg.Backpressure < 0 || fg.Backpressure > 1 {
			t.Errorf("published %s: running %t, figures %+v", id, f.running[id], fg)
		}
		// A figures update is a whole view: core's answer for each action
		// goes with it, or the TUI would lose its keys every few seconds.
		if want := journal.Checks(v.Job, v.Pending); !slices.Equal(v.Actions, want) {
			t.Errorf("published %s: actions %+v, want %+v", id, v.Actions, want)
		}
	}
	series, err := f.svc.JobMetrics(ctx, detail)
	if err != nil {
		t.Fatal(err)
	}
	if len(series.Recent) != 2 || len(series.Vertices) != 3 || !series.Vertices[0].Source || !series.Vertices[2].Sink {
		t.Fatalf("series of a shown job: %d points, vertices %+v", len(series.Recent), series.Vertices)
	}
	if c := series.Cluster; c == nil || c.TaskManagers < 1 || c.SlotsTotal < c.SlotsFree || c.SlotsTotal < 1 {
		t.Errorf("the job shown in depth has no cluster overview: %+v", c)
	}
	if p := series.Latest(); p.WatermarkDelay < 0 || p.CheckpointAge < 0 && p.CheckpointDuration > 0 || p.Restarts < 0 {
		t.Errorf("latest point %+v: watermark delay, checkpoint age and restarts should be known", p)
	}

	// Scrolling: the next page replaces the first; no request reaches a
	// job that scrolled off.
	next := f.page(40, 40)
	if err := f.svc.SetInterest(ctx, api.InterestRequest{Client: "tui-1", Jobs: next}); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.SetInterest(ctx, api.InterestRequest{Client: "tui-2"}); err != nil { // the detail closed
		t.Fatal(err)
	}
	if _, err := f.svc.collectOnce(ctx, true); err != nil {
		t.Fatal(err)
	}
	byApp, all := f.counter.take()
	hidden := f.appsOf(screen)
	shown := f.appsOf(next)
	for app := range byApp {
		if _, ok := hidden[app]; ok {
			t.Fatalf("after scrolling, %d requests went to %s (job %s, off screen)", byApp[app], app, hidden[app])
		}
		if _, ok := shown[app]; !ok {
			t.Fatalf("after scrolling, requests went to %s, not on screen", app)
		}
	}
	if want := f.runningOf(next) * (perJob + firstTime); all != want {
		t.Errorf("after scrolling: %d requests, want %d", all, want)
	}

	// The TUI quit: its interest expires and nothing is measured any more.
	f.clock.advance(f.svc.ttl + time.Second)
	stats, err := f.svc.collectOnce(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, all := f.counter.take(); all != 0 || stats.Jobs != 0 {
		t.Errorf("after the interest expired: %d requests, %d jobs measured", all, stats.Jobs)
	}
}

func firstRunning(f *fleetEnv, ids []string) int {
	for i, id := range ids {
		if f.running[id] {
			return i
		}
	}
	return 0
}

// BenchmarkCollectRound measures one metrics round over a 10,000-job fleet
// with N jobs on screen: requests per round follow N, not the fleet.
func BenchmarkCollectRound(b *testing.B) {
	f := newFleet(b, 10_000, nil)
	ctx := context.Background()
	for _, n := range []int{10, 40, 100} {
		b.Run(fmt.Sprintf("shown=%d", n), func(b *testing.B) {
			ids := f.page(0, n)
			if err := f.svc.SetInterest(ctx, api.InterestRequest{Client: "bench", Jobs: ids}); err != nil {
				b.Fatal(err)
			}
			if _, err := f.svc.collectOnce(ctx, true); err != nil { // lists the sources' metrics once
				b.Fatal(err)
			}
			f.counter.take()
			b.ResetTimer()
			var reqs int
			for i := 0; i < b.N; i++ {
				f.clock.advance(5 * time.Second)
				// The TUI renews its interest well within its expiry.
				if err := f.svc.SetInterest(ctx, api.InterestRequest{Client: "bench", Jobs: ids}); err != nil {
					b.Fatal(err)
				}
				if _, err := f.svc.collectOnce(ctx, true); err != nil {
					b.Fatal(err)
				}
				_, all := f.counter.take()
				reqs += all
			}
			b.ReportMetric(float64(reqs)/float64(b.N), "requests/round")
			b.ReportMetric(float64(f.runningOf(ids)), "running-shown")
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/round")
		})
	}
}

// sortedKeys is for messages.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestAlertRulesMeasureTheirJobsAtTheAlertsInterval: jobs no screen shows
// are measured only when a metric rule selects them, once per alerts
// interval, and a rule's selector bounds the cost.
func TestAlertRulesMeasureTheirJobsAtTheAlertsInterval(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a fleet")
	}
	f := newFleet(t, 300, func(s *Settings) {
		s.Rules = append(s.Rules, Rule{Name: "bp", Kind: RuleBackpressure, Above: 0.9,
			Jobs: []string{"job-0000*"}, Severity: "warning"})
	})
	ctx := context.Background()
	if err := f.svc.loadObserved(ctx); err != nil {
		t.Fatal(err)
	}
	selected := f.page(0, 10) // job-00000 … job-00009 (ids j00000 …)
	var want []string
	for _, id := range selected {
		if f.running[id] && strings.HasPrefix(jobName(f, id), "job-0000") {
			want = append(want, id)
		}
	}
	round := func() (map[string]int, int) {
		t.Helper()
		if _, err := f.svc.collectOnce(ctx, true); err != nil {
			t.Fatal(err)
		}
		return f.counter.take()
	}
	byApp, all := round()
	if all == 0 || len(byApp) != len(want) {
		t.Fatalf("first round measured %d applications (%d requests), want the %d running jobs the rule selects", len(byApp), all, len(want))
	}
	for app := range byApp {
		if id := f.appsOf(want)[app]; id == "" {
			t.Fatalf("measured %s, which the rule does not select", app)
		}
	}
	f.clock.advance(f.svc.interval)
	if _, all := round(); all != 0 {
		t.Fatalf("%d requests one metrics interval later; rule-only jobs wait for the alerts interval", all)
	}
	f.clock.advance(f.svc.alertInterval)
	if byApp, _ := round(); len(byApp) != len(want) {
		t.Fatalf("an alerts interval later, %d applications measured, want %d", len(byApp), len(want))
	}
}

func jobName(f *fleetEnv, id string) string {
	for _, j := range f.jobs {
		if j.ID == id {
			return j.Name
		}
	}
	return ""
}
