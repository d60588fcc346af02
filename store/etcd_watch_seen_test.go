package store

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/palink/palink/internal/etcdtest"
)

// TestEtcdWatchTellsWhatReadsSee: a change another palink wrote is told
// to this one's watchers only once this palink's reads (its mirror, which
// follows etcd on a watch of its own) see it — a scheduler woken by it
// must find the command it was woken for.
func TestEtcdWatchTellsWhatReadsSee(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := freshURL(c)
	here := openEtcdT(t, url, Options{Etcd: EtcdOptions{Mirror: true}})
	there := openEtcdT(t, url, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changes := here.Watch(ctx)
	for i := range 200 {
		id := fmt.Sprintf("j%03d", i)
		update(t, there, func(tx Tx) error { return tx.CreateJob(sampleJob(id, "n"+id)) })
		deadline := time.After(10 * time.Second)
	wait:
		for {
			select {
			case ch := <-changes:
				for _, j := range ch.Jobs {
					if j == id {
						break wait
					}
				}
			case <-deadline:
				t.Fatalf("no change told of %s", id)
			}
		}
		if err := here.View(ctx, func(tx ReadTx) error { _, err := tx.Job(id); return err }); err != nil {
			t.Fatalf("job %s was told written, but a read does not see it: %v", id, err)
		}
	}
}
