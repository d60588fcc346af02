package scheduler

import (
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// TestFinishNeverWaitsOnTheLeaseRenewal: the lease renewal saves the
// command holding the execution's lock (then a write transaction), and may
// tick while finish records the command's end. Finish must not take that
// lock inside its write transaction: the two would wait on each other for
// good (the CLI hung in `job savepoint --wait`, the store's Close with
// it).
func TestFinishNeverWaitsOnTheLeaseRenewal(t *testing.T) {
	b := newBed(t, model.Job{}, nil)
	x := b.exec(model.CmdSavepoint, model.CommandParams{})
	x.mu.Lock() // the renewal, saving
	finished := make(chan struct{})
	go func() { defer close(finished); b.s.finish(x, nil) }()
	time.Sleep(200 * time.Millisecond) // finish is under way
	saved := make(chan error, 1)
	go func() { saved <- b.st.Update(b.ctx, func(store.Tx) error { return nil }) }()
	select {
	case err := <-saved:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		x.mu.Unlock() // untie them, so that the test ends
		<-finished
		t.Fatal("the renewal's write waited on finish, which waited on the renewal's lock")
	}
	x.mu.Unlock()
	select {
	case <-finished:
	case <-time.After(5 * time.Second):
		t.Fatal("finish never ended")
	}
	if _, c := b.stored(x); c.State != model.CmdSucceeded {
		t.Errorf("the command is %s", c.State)
	}
}
