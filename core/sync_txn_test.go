package core_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// countingStore counts the write transactions palink opens.
type countingStore struct {
	store.Store
	updates atomic.Int64
}

func (c *countingStore) Update(ctx context.Context, fn func(store.Tx) error) error {
	c.updates.Add(1)
	return c.Store.Update(ctx, fn)
}

// TestSyncWritesOnlyWhatChanged: a sync cycle in which no job's state,
// addresses or checkpoints moved opens no write transaction; one in which
// every job's checkpoint moved persists them all in one.
func TestSyncWritesOnlyWhatChanged(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	const jobs = 40
	var counter *countingStore
	f := newRetainedFleet(t, jobs, map[string]string{"execution.checkpointing.interval": "10s"}, nil, func(o *core.Options) {
		counter = &countingStore{Store: o.Store}
		o.Store = counter
	})
	ctx := context.Background()
	cycle := func(what string) int64 {
		t.Helper()
		before := counter.updates.Load()
		st, err := f.svc.SyncOnce(ctx, 0)
		if err != nil || st.Errors > 0 || st.Jobs != jobs {
			t.Fatalf("%s: %+v, %v", what, st, err)
		}
		return counter.updates.Load() - before
	}
	if n := cycle("first cycle"); n > 1 {
		t.Errorf("first cycle, every job's record new: %d write transactions, want 1", n)
	}
	// The second reads what the first left for later (each job's
	// details): the jobs were never synced before.
	if n := cycle("second cycle"); n > 1 {
		t.Errorf("second cycle: %d write transactions, want at most 1", n)
	}
	if n := cycle("nothing moved"); n != 0 {
		t.Errorf("a cycle in which nothing moved: %d write transactions, want none", n)
	}
	f.clock.Advance(10 * time.Second) // every job completes a checkpoint
	if n := cycle("checkpoints moved"); n != 1 {
		t.Errorf("a cycle in which %d checkpoints moved: %d write transactions, want 1", jobs, n)
	}
	for _, id := range f.ids {
		j, _ := f.points(t, id)
		if app, _ := f.sim.App(j.AppID); len(app.Jobs) == 0 || j.LatestCheckpoint == nil || j.LatestCheckpoint.Path != app.Jobs[0].LatestCheckpoint {
			t.Fatalf("job %s: latest checkpoint %v, the cluster's %v", id, j.LatestCheckpoint, app.Jobs)
		}
	}
}

// countingTransport counts the JobManager requests a palink sends.
type countingTransport struct{ n atomic.Int64 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

// TestSyncRequestsPerRunningJob: once every job's Flink job and its
// retention are known, a cycle costs at most 1.1 requests per running job
// (the RM list included): its state each cycle, its checkpoint details
// every few cycles; every checkpoint is still recorded within a dozen
// cycles, and a job whose state moves is asked at once.
func TestSyncRequestsPerRunningJob(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	const jobs = 100
	counter := &countingTransport{}
	f := newRetainedFleet(t, jobs, map[string]string{"execution.checkpointing.interval": "10s"}, nil, func(o *core.Options) {
		cs, err := clusters.New(o.Clusters)
		if err != nil {
			t.Fatal(err)
		}
		if err := cs["sim"].UseFlinkTransport(counter); err != nil {
			t.Fatal(err)
		}
		o.Clients, o.SyncCheckpointEvery = cs, 0 // the default cadence
	})
	ctx := context.Background()
	var rm int64
	cycle := func() {
		t.Helper()
		f.clock.Advance(10 * time.Second)
		st, err := f.svc.SyncOnce(ctx, 0)
		if err != nil || st.Errors > 0 || st.Jobs != jobs {
			t.Fatalf("cycle: %+v, %v", st, err)
		}
		rm += st.RMCalls
	}
	cycle() // learns each job's state and checkpoints
	cycle() // and, the jobs never synced before, their details
	counter.n.Store(0)
	rm = 0
	const cycles = 24
	for i := 0; i < cycles; i++ {
		cycle()
	}
	perJob := float64(counter.n.Load()+rm) / float64(jobs*cycles)
	t.Logf("%d cycles of %d running jobs: %d JobManager requests, %d RM lists: %.3f requests per job per cycle", cycles, jobs, counter.n.Load(), rm, perJob)
	if perJob > 1.1 {
		t.Errorf("%.3f requests per running job per cycle, want at most 1.1", perJob)
	}
	// Every job's latest checkpoint is at most a dozen cycles behind.
	for _, id := range f.ids {
		j, _ := f.points(t, id)
		if j.LatestCheckpoint == nil || f.sim.Now().Sub(j.LatestCheckpoint.Time) > 130*time.Second {
			t.Fatalf("job %s: latest checkpoint %+v at %s", id, j.LatestCheckpoint, f.sim.Now())
		}
	}
}

// pathTransport counts the JobManager requests a palink sends, by the
// kind of resource they read.
type pathTransport struct {
	mu    sync.Mutex
	kinds map[string]int
	bytes int64
}

var jobDetailsPath = regexp.MustCompile(`/jobs/[0-9a-f]{32}$`)

func (p *pathTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	kind := "other"
	switch {
	case strings.HasSuffix(r.URL.Path, "/jobs/overview"):
		kind = "overview"
	case jobDetailsPath.MatchString(r.URL.Path):
		kind = "details"
	case strings.HasSuffix(r.URL.Path, "/exceptions"):
		kind = "exceptions"
	case strings.HasSuffix(r.URL.Path, "/checkpoints"):
		kind = "checkpoints"
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.kinds[kind]++
	if err == nil && resp.ContentLength > 0 {
		p.bytes += resp.ContentLength
	}
	return resp, err
}

func (p *pathTransport) take() (map[string]int, int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k, b := p.kinds, p.bytes
	p.kinds, p.bytes = map[string]int{}, 0
	return k, b
}

// TestSyncReadsJobDetailsOnlyWhenTheJobMoved: a running job whose
// JobManager's overview says nothing moved costs the overview alone, a
// few hundred bytes, not its details (kilobytes of vertices and plan);
// a job that fails is read in full at once, its exceptions with it.
func TestSyncReadsJobDetailsOnlyWhenTheJobMoved(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	const jobs = 20
	counter := &pathTransport{kinds: map[string]int{}}
	f := newRetainedFleet(t, jobs, nil, nil, func(o *core.Options) {
		cs, err := clusters.New(o.Clusters)
		if err != nil {
			t.Fatal(err)
		}
		if err := cs["sim"].UseFlinkTransport(counter); err != nil {
			t.Fatal(err)
		}
		o.Clients, o.SyncCheckpointEvery = cs, 1000 // checkpoints apart
	})
	ctx := context.Background()
	cycle := func() {
		t.Helper()
		f.clock.Advance(10 * time.Second)
		if st, err := f.svc.SyncOnce(ctx, 0); err != nil || st.Errors > 0 {
			t.Fatalf("cycle: %+v, %v", st, err)
		}
	}
	// Never synced, the jobs are read for their state, checkpoints and
	// retention first, their details in the next cycle.
	cycle()
	if kinds, _ := counter.take(); kinds["details"] != 0 || kinds["overview"] != jobs || kinds["checkpoints"] != jobs {
		t.Errorf("the first cycle of %d jobs never synced read %v; want an overview and checkpoints each", jobs, kinds)
	}
	cycle()
	if kinds, _ := counter.take(); kinds["details"] != jobs {
		t.Errorf("the second cycle of %d jobs read %v; want their details once each", jobs, kinds)
	}
	const cycles = 5
	for range cycles {
		cycle()
	}
	kinds, bytes := counter.take()
	if kinds["details"] != 0 || kinds["overview"] != jobs*cycles {
		t.Errorf("%d cycles of %d jobs that did not move read %v; want %d overviews and no details", cycles, jobs, kinds, jobs*cycles)
	}
	t.Logf("a cycle reads %.0f bytes per job", float64(bytes)/float64(jobs*cycles))

	var failed model.Job
	if err := f.st.View(ctx, func(tx store.ReadTx) (err error) { failed, err = tx.Job(f.ids[3]); return err }); err != nil {
		t.Fatal(err)
	}
	if err := f.sim.FailJob(failed.AppID); err != nil {
		t.Fatal(err)
	}
	cycle()
	kinds, _ = counter.take()
	if kinds["details"] != 1 || kinds["exceptions"] != 1 {
		t.Errorf("the cycle after a job failed read %v; want its details and exceptions once", kinds)
	}
	if err := f.st.View(ctx, func(tx store.ReadTx) (err error) { failed, err = tx.Job(f.ids[3]); return err }); err != nil {
		t.Fatal(err)
	}
	if failed.FlinkState == "RUNNING" || failed.Diagnostics == "" {
		t.Errorf("after its failure the job's record says Flink state %s, diagnostics %q", failed.FlinkState, failed.Diagnostics)
	}
}

// TestSyncReadsNewJobsAtOnce: a cycle spreads its jobs over the interval,
// but a job never synced (adopted or deployed since) is read at the
// cycle's start, so that a bulk adoption shows its jobs within one
// interval, not two.
func TestSyncReadsNewJobsAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	const jobs = 20
	f := newRetainedFleet(t, jobs, nil, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, _ = f.svc.SyncOnce(ctx, time.Minute) // spread over a minute, cut after 2 s
	for _, id := range f.ids {
		var j model.Job
		if err := f.st.View(context.Background(), func(tx store.ReadTx) (err error) { j, err = tx.Job(id); return err }); err != nil {
			t.Fatal(err)
		}
		if j.SyncedAt.IsZero() || j.FlinkState != "RUNNING" {
			t.Errorf("job %s, never synced before, not read in the first 2 s of a cycle spread over a minute: synced %v, Flink state %q", id, j.SyncedAt, j.FlinkState)
		}
	}
}

// TestSyncTakesTheCheckpointsOthersRead: the checkpoint statistics the
// metrics rounds read (every round, for a job an alert rule watches) serve
// state sync within its interval: one fetch for both, and the sync records
// the latest checkpoint from it without asking again.
func TestSyncTakesTheCheckpointsOthersRead(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	const jobs = 10
	counter := &pathTransport{kinds: map[string]int{}}
	var cl *clusters.Cluster
	f := newRetainedFleet(t, jobs, map[string]string{"execution.checkpointing.interval": "10s"}, nil, func(o *core.Options) {
		cs, err := clusters.New(o.Clusters)
		if err != nil {
			t.Fatal(err)
		}
		cl = cs["sim"]
		if err := cl.UseFlinkTransport(counter); err != nil {
			t.Fatal(err)
		}
		o.Clients, o.SyncCheckpointEvery, o.SyncInterval = cs, 1, 10*time.Second // checkpoints every cycle
	})
	ctx := context.Background()
	for range 2 { // the jobs' state, checkpoints and retention, then details
		f.clock.Advance(10 * time.Second)
		if _, err := f.svc.SyncOnce(ctx, 0); err != nil {
			t.Fatal(err)
		}
	}
	f.clock.Advance(10 * time.Second) // every job completes a checkpoint
	// What a metrics round does for each job: read its checkpoints.
	want := map[string]string{}
	for _, id := range f.ids {
		var j model.Job
		if err := f.st.View(ctx, func(tx store.ReadTx) (err error) { j, err = tx.Job(id); return err }); err != nil {
			t.Fatal(err)
		}
		fl, err := cl.Flink(yarn.Application{ID: j.AppID, State: yarn.AppRunning, TrackingUI: "ApplicationMaster", TrackingURL: j.TrackingURL})
		if err != nil {
			t.Fatal(err)
		}
		cps, err := fl.Checkpoints(ctx, j.FlinkJobID)
		if err != nil || cps.Latest.Completed == nil {
			t.Fatalf("checkpoints of %s: %+v, %v", id, cps.Latest, err)
		}
		cl.Reads.PutCheckpoints(j.FlinkJobID, cps, time.Now(), "metrics") // the core's clock, the host's
		want[id] = cps.Latest.Completed.ExternalPath
	}
	counter.take()
	if _, err := f.svc.SyncOnce(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if kinds, _ := counter.take(); kinds["checkpoints"] != 0 {
		t.Errorf("a cycle after the metrics round read every job's checkpoints asked for them again: %v", kinds)
	}
	for _, id := range f.ids {
		var j model.Job
		if err := f.st.View(ctx, func(tx store.ReadTx) (err error) { j, err = tx.Job(id); return err }); err != nil {
			t.Fatal(err)
		}
		if j.LatestCheckpoint == nil || j.LatestCheckpoint.Path != want[id] {
			t.Errorf("job %s: latest checkpoint %+v, want the one the round read, %s", id, j.LatestCheckpoint, want[id])
		}
	}
}
