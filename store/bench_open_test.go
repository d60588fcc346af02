package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/palink/palink/model"
)

// growStore fills a new store at path with jobs, each with a command, events
// and restore points, until the file holds at least size bytes, and closes it.
func growStore(b *testing.B, path string, size int64) {
	b.Helper()
	s, err := Open(path, Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for n := 0; ; n++ {
		if fi, err := os.Stat(path); err != nil || fi.Size() >= size {
			if err != nil {
				b.Fatal(err)
			}
			return
		}
		update(b, s, func(tx Tx) error {
			for i := range 200 {
				id := fmt.Sprintf("j%07d", n*200+i)
				j := sampleJob(id, "job-"+id)
				j.State = model.StateRunning
				if err := tx.CreateJob(j); err != nil {
					return err
				}
				if _, err := tx.PutCommand(sampleCommand(id, model.CmdSubmit, model.CmdSucceeded)); err != nil {
					return err
				}
				for k := range 10 {
					if _, err := tx.AppendEvent(model.Event{JobID: id, Time: t0, To: model.StateRunning, Reason: fmt.Sprintf("sync %d", k)}); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
}

// BenchmarkOpen is what every CLI call pays to open the store, at 10 MB and
// at 200 MB: the same (Open looks at the pages every read starts from, not
// at every page). "full-check" is the walk of every page Open did before
// issue 28, which the agent now runs once after it starts (CheckPages). Run
// with
//
//	go test ./store -run '^$' -bench Open -benchtime 2s
func BenchmarkOpen(b *testing.B) {
	for _, mb := range []int64{10, 200} {
		path := filepath.Join(b.TempDir(), "palink.db")
		growStore(b, path, mb<<20)
		for _, ro := range []bool{false, true} {
			name := fmt.Sprintf("%dMB/writer", mb)
			if ro {
				name = fmt.Sprintf("%dMB/read-only", mb)
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					s, err := Open(path, Options{ReadOnly: ro, NoSync: true})
					if err != nil {
						b.Fatal(err)
					}
					_ = s.Close()
				}
			})
		}
		b.Run(fmt.Sprintf("%dMB/full-check", mb), func(b *testing.B) {
			s, err := Open(path, Options{NoSync: true})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			for b.Loop() {
				if err := s.CheckPages(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
