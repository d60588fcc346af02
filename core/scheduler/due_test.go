package scheduler

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// listCounter counts the reads of every job (ReadTx.Jobs).
type listCounter struct {
	store.Store
	lists atomic.Int64
}

func (c *listCounter) View(ctx context.Context, fn func(store.ReadTx) error) error {
	return c.Store.View(ctx, func(tx store.ReadTx) error { return fn(listingTx{tx, c}) })
}

type listingTx struct {
	store.ReadTx
	c *listCounter
}

func (t listingTx) Jobs() ([]model.Job, error) {
	t.c.lists.Add(1)
	return t.ReadTx.Jobs()
}

// TestDueRestartsReadWhatChanged: with the change feed, the scheduler's
// ticks read every job once, then only the jobs written since and those
// falling due; a job sync marks FAILED with a restart due is restarted
// all the same.
func TestDueRestartsReadWhatChanged(t *testing.T) {
	feed := make(chan api.Change, 16)
	var counter *listCounter
	b := newBed(t, model.Job{State: model.StateRunning}, func(o *Options) {
		counter = &listCounter{Store: o.Store}
		o.Store = counter
		o.Watch = func(context.Context) <-chan api.Change { return feed }
	})
	err := b.st.Update(b.ctx, func(tx store.Tx) error {
		for i := 0; i < 300; i++ {
			id := fmt.Sprintf("x%03d", i)
			if err := tx.CreateJob(model.Job{ID: id, Name: id, Kind: model.KindSQL, Cluster: "fake", State: model.StateRunning}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	b.s.watchDue(ctx)
	for i := 0; i < 20; i++ {
		if err := b.s.startDueRestarts(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := counter.lists.Load(); n != 1 {
		t.Errorf("20 ticks read every job %d times, want once", n)
	}
	// Sync sees the job fail; the policy restarts it at once.
	var failed model.Job
	err = b.st.Update(b.ctx, func(tx store.Tx) error {
		j, err := tx.Job("j1")
		if err != nil {
			return err
		}
		spec, err := tx.AddSpec(model.Spec{JobID: j.ID, SQL: "INSERT INTO snk SELECT * FROM src"})
		if err != nil {
			return err
		}
		j.SpecVersion = spec.Version
		j.State, j.NextRestart, j.PlatformRestarts = model.StateFailed, time.Now().Add(-time.Second), 1
		failed = j
		return tx.PutJob(j)
	})
	if err != nil {
		t.Fatal(err)
	}
	feed <- api.Change{Kind: api.JobChanged, Job: &api.JobView{Job: failed}}
	for deadline := time.Now().Add(5 * time.Second); ; {
		if err := b.s.startDueRestarts(ctx); err != nil {
			t.Fatal(err)
		}
		var cs []model.Command
		if err := b.st.View(ctx, func(tx store.ReadTx) (err error) {
			cs, err = tx.Commands(store.CommandFilter{JobID: "j1", Kinds: []model.CommandKind{model.CmdRestart}})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if len(cs) == 1 {
			break
		}
		if time.Now().After(deadline) {
			var j model.Job
			_ = b.st.View(ctx, func(tx store.ReadTx) (err error) { j, err = tx.Job("j1"); return err })
			t.Fatalf("the due restart was never issued: %s %q next %s", j.State, j.Diagnostics, j.NextRestart)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := counter.lists.Load(); n != 1 {
		t.Errorf("ticks read every job %d times, want once", n)
	}
}
