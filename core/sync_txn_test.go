package core_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

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
	f := newRetainedFleet(t, jobs, map[string]string{"execution.checkpointing.interval": "10s"}, nil, func(st store.Store) store.Store {
		counter = &countingStore{Store: st}
		return counter
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
