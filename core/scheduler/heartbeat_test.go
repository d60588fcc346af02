package scheduler

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// slowStore holds every write transaction open a while before running it,
// as a loaded disk does: the window in which a lease renewal and a
// command's end meet.
type slowStore struct{ store.Store }

func (s slowStore) Update(ctx context.Context, fn func(store.Tx) error) error {
	return s.Store.Update(ctx, func(tx store.Tx) error {
		time.Sleep(2 * time.Millisecond)
		return fn(tx)
	})
}

// TestACommandEndsWhileItsLeaseIsRenewed: the lease renewal, which runs
// beside a command, never holds up its end. (It took the command's lock,
// then waited for the store, while the end held the store and waited for
// the command's lock: the process hung for good.)
func TestACommandEndsWhileItsLeaseIsRenewed(t *testing.T) {
	b := newBed(t, model.Job{State: model.StateFailed}, func(o *Options) {
		o.Lease = 3 * time.Millisecond // a renewal every millisecond
		o.Store = slowStore{o.Store}
	})
	for i := range 40 {
		x := b.exec(model.CmdSavepoint, model.CommandParams{})
		done := make(chan struct{})
		go func() { defer close(done); b.s.execute(b.ctx, x.cmd) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			// Not t.Fatal: closing the store would wait for the hung
			// transaction as well.
			panic(fmt.Sprintf("command %d never ended: its end and its lease renewal wait for each other", i))
		}
		if _, c := b.stored(x); !c.State.Final() {
			t.Fatalf("command %d is %s after execute returned", i, c.State)
		}
	}
}
