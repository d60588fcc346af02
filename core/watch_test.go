package core

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

func jobChange(id string, s model.JobState) api.Change {
	return api.Change{Kind: api.JobChanged, Job: &api.JobView{Job: model.Job{ID: id, State: s}}}
}

func recv(t *testing.T, ch <-chan api.Change) api.Change {
	t.Helper()
	select {
	case c, ok := <-ch:
		if !ok {
			t.Fatal("channel closed")
		}
		return c
	case <-time.After(5 * time.Second):
		t.Fatal("no change arrived")
	}
	return api.Change{}
}

func TestHubCoalescesPerEntityForSlowReaders(t *testing.T) {
	h := newHub()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := h.subscribe(ctx)
	// The reader is not reading: the publisher must not block.
	h.publish(jobChange("j1", model.StateDeploying))
	h.publish(jobChange("j2", model.StateRunning))
	h.publish(jobChange("j1", model.StateDeploySucceeded))
	h.publish(jobChange("j1", model.StateRunning))

	// The watcher may already hold the first change when the reader comes;
	// after it, only the latest state of each job may arrive.
	got := map[string]model.JobState{}
	n := 0
	for got["j1"] != model.StateRunning || got["j2"] != model.StateRunning {
		c := recv(t, ch)
		got[c.Job.ID] = c.Job.State
		n++
	}
	if n > 3 {
		t.Errorf("%d changes delivered for 4 published on 2 jobs: not coalesced", n)
	}
	select {
	case c := <-ch:
		t.Errorf("a change after the latest: %+v", c.Job.Job)
	case <-time.After(50 * time.Millisecond):
	}
}

func TestHubOverflowSendsResync(t *testing.T) {
	h := newHub()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := h.subscribe(ctx)
	for i := 0; i < 3*maxPending; i++ {
		h.publish(jobChange(fmt.Sprint(i), model.StateRunning))
	}
	// The reader may have drained an early batch before the overflow; a
	// Resync must arrive, and nothing must be lost without one.
	deadline := time.After(5 * time.Second)
	for {
		select {
		case c := <-ch:
			if c.Kind == api.Resync {
				return
			}
		case <-deadline:
			t.Fatal("no Resync after overflow")
		}
	}
}

func TestHubClosesOnCancel(t *testing.T) {
	h := newHub()
	ctx, cancel := context.WithCancel(context.Background())
	ch := h.subscribe(ctx)
	cancel()
	select {
	case _, ok := <-ch:
		if ok {
			// drain until closed
			for range ch {
			}
		}
	case <-time.After(5 * time.Second):
		t.Fatal("channel not closed after cancel")
	}
	time.Sleep(10 * time.Millisecond)
	h.mu.Lock()
	n := len(h.subs)
	h.mu.Unlock()
	if n != 0 {
		t.Errorf("%d watchers left after cancel", n)
	}
}
