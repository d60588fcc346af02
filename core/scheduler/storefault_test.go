package scheduler

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// hiccupStore fails its next transactions, as many as a test arms, the
// way a store on etcd does while no member answers.
type hiccupStore struct {
	store.Store
	views, updates atomic.Int32
}

// errHiccup is what a store on etcd says when no member answered.
var errHiccup = fmt.Errorf("update store etcd://127.0.0.1:2379/palink: no etcd endpoint answered within 10s (127.0.0.1:2379): %w: %w",
	store.ErrUnavailable, model.ErrUnavailable)

func (s *hiccupStore) View(ctx context.Context, fn func(store.ReadTx) error) error {
	if s.views.Add(-1) >= 0 {
		return errHiccup
	}
	return s.Store.View(ctx, fn)
}

func (s *hiccupStore) Update(ctx context.Context, fn func(store.Tx) error) error {
	if s.updates.Add(-1) >= 0 {
		return errHiccup
	}
	return s.Store.Update(ctx, fn)
}

// TestALeaseRenewalFailureLeavesTheCommandToReclaim: when the store fails
// a command's lease renewal, the command stops acting and stays DOING
// under its lease, as if its palink had died — not FAILED for a
// "context canceled" of its own making; once the lease is over it is
// claimed again and, reconciled with the cluster, ends once.
func TestALeaseRenewalFailureLeavesTheCommandToReclaim(t *testing.T) {
	hs := &hiccupStore{}
	const lease = 60 * time.Millisecond
	b := newBed(t, running(), func(o *Options) {
		hs.Store = o.Store
		o.Store, o.Lease = hs, lease
	})
	a := b.f.add(prevApp, yarn.AppRunning, nil)
	a.ops[trigger] = fakeOp{} // the savepoint is under way: the command polls it
	x := b.exec(model.CmdSavepoint, model.CommandParams{TriggerID: trigger, AppID: prevApp, FlinkJobID: prevJob})
	done := make(chan struct{})
	go func() { defer close(done); b.s.execute(b.ctx, x.cmd) }()
	time.Sleep(lease / 2)
	hs.updates.Store(1) // the next write, a renewal: the polling writes nothing
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the command went on acting after its lease renewal failed")
	}
	_, c := b.stored(x)
	if c.State != model.CmdDoing || c.LeaseOwner != b.s.owner || c.Error != "" {
		t.Fatalf("after a failed renewal the command is %s (owner %q, error %q); want DOING under its lease, to be reclaimed\n%s",
			c.State, c.LeaseOwner, c.Error, logOf(c))
	}
	time.Sleep(time.Until(c.LeaseUntil) + time.Millisecond)
	claimed, err := b.s.claim(b.ctx, 10, nil)
	if err != nil || len(claimed) != 1 || claimed[0].ID != x.id {
		t.Fatalf("after its lease the command is not claimed again: %v, %v", claimed, err)
	}
	a.ops[trigger] = fakeOp{done: true, location: sp9}
	b.s.execute(b.ctx, claimed[0])
	if _, c := b.stored(x); c.State != model.CmdSucceeded || strings.Count(logOf(c), "succeeded") != 1 {
		t.Errorf("the reclaimed command ended %s, want SUCCEEDED once:\n%s", c.State, logOf(c))
	}
}

// TestATransientStoreErrorIsRetried: a command whose step meets the store
// unreachable for a moment tries the step again, as after a cluster's
// moment, and succeeds; it does not end FAILED for it.
func TestATransientStoreErrorIsRetried(t *testing.T) {
	hs := &hiccupStore{}
	b := newBed(t, running(), func(o *Options) {
		hs.Store = o.Store
		o.Store, o.RetryBackoff = hs, time.Millisecond
	})
	a := b.f.add(prevApp, yarn.AppRunning, nil)
	a.ops[trigger] = fakeOp{done: true, location: sp9}
	x := b.exec(model.CmdSavepoint, model.CommandParams{TriggerID: trigger, AppID: prevApp, FlinkJobID: prevJob})
	hs.views.Store(1) // reading the job, the step's first
	b.s.execute(b.ctx, x.cmd)
	if _, c := b.stored(x); c.State != model.CmdSucceeded {
		t.Errorf("after one store error the command ended %s (%s), want SUCCEEDED after a retry:\n%s", c.State, c.Error, logOf(c))
	}
}
