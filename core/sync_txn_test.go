package core_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/store"
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
	cycle() // learns each job's checkpoints and retention
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
