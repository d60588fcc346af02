package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// metaOf reads what the newer of a closed store's two meta pages says: the
// page of the tree's root (which lists the top-level buckets) and of the
// freelist. (bbolt's on-disk format: a 16-byte page header, then magic,
// version, page size, flags, root page, root sequence, freelist page, page
// count, txid.)
func metaOf(t *testing.T, path string) (root, freelist int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, size := livePages(t, path)
	var txid uint64
	for _, off := range []int64{0, int64(size)} {
		m := make([]byte, 80)
		if _, err := f.ReadAt(m, off); err != nil {
			t.Fatal(err)
		}
		le := binary.LittleEndian
		if le.Uint32(m[16:]) != 0xED0CDAED || le.Uint64(m[64:]) < txid {
			continue
		}
		txid = le.Uint64(m[64:])
		root, freelist = int(le.Uint64(m[32:])), int(le.Uint64(m[48:]))
	}
	return root, freelist
}

// rootPages are the pages a closed store's reads all start from: the root
// of its tree and the root page of each top-level bucket that has one (an
// inline bucket has none).
func rootPages(t *testing.T, path string) []int {
	t.Helper()
	root, _ := metaOf(t, path)
	roots := []int{root}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(_ []byte, b *bolt.Bucket) error {
			if r := int(b.Root()); r != 0 {
				roots = append(roots, r)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return roots
}

// innerPages are the live pages of a closed store that no read starts
// from: the pages Open does not look at.
func innerPages(t *testing.T, path string) ([]int, int) {
	t.Helper()
	live, size := livePages(t, path)
	roots := rootPages(t, path)
	var inner []int
	for _, id := range live {
		if !slices.Contains(roots, id) {
			inner = append(inner, id)
		}
	}
	return inner, size
}

// readEverything reads every record of s the way palink's commands do:
// jobs by id and by name, their events, commands through each index.
func readEverything(s *Bolt) error {
	return s.View(context.Background(), func(tx ReadTx) error {
		jobs, err := tx.Jobs()
		if err != nil {
			return err
		}
		for _, j := range jobs {
			if _, err := tx.JobByName(j.Name); err != nil {
				return err
			}
			if _, err := tx.Events(j.ID, 0, 0); err != nil {
				return err
			}
			if _, err := tx.Commands(CommandFilter{JobID: j.ID}); err != nil {
				return err
			}
		}
		if _, err := tx.Commands(CommandFilter{}); err != nil {
			return err
		}
		_, err = tx.Commands(CommandFilter{States: []model.CommandState{model.CmdSucceeded}})
		return err
	})
}

// TestDamageInsideIsFoundAtFirstUse: Open looks at the pages every read
// starts from, not at every page, so that it costs the same for a store of
// any size (BenchmarkOpen). A page damaged deeper in is found by the first
// transaction that reads it, which fails with the same ErrCorrupt, the
// file's name and the restore command; the store then refuses to write.
func TestDamageInsideIsFoundAtFirstUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	bigStore(t, path, 300)
	inner, size := innerPages(t, path)
	if len(inner) < 10 {
		t.Fatalf("the store has %d inner pages; the test needs more", len(inner))
	}
	mid := len(inner) / 2
	scribble(t, path, size, inner[mid-1], inner[mid], inner[mid+1])
	before, _ := os.ReadFile(path)

	for _, ro := range []bool{true, false} {
		s, err := Open(path, Options{ReadOnly: ro, NoSync: true})
		if err != nil {
			t.Fatalf("Open(read-only %t) of a store damaged past its root pages: %v; want it opened, the damage found at first use", ro, err)
		}
		wantDamage(t, readEverything(s), path, "read store "+path+": the file is damaged: bbolt: ")
		if !ro {
			err = s.Update(context.Background(), func(tx Tx) error { return tx.CreateJob(sampleJob("j-new", "new")) })
			wantDamage(t, err, path, "nothing is written to a damaged store")
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Error("a palink that met the damage changed the file")
	}
}

// TestCheckPagesFindsWhatOpenLeavesOut: the full page check a palink that
// keeps the store open runs once it started (the agent) finds the damage
// Open did not look for, says it as Open would have, with the restore
// command, and the store then refuses to write. On a sound store it finds
// nothing, while this process writes beside it.
func TestCheckPagesFindsWhatOpenLeavesOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	bigStore(t, path, 300)
	s := openT(t, path, Options{NoSync: true})
	done := make(chan error)
	go func() {
		var err error
		for i := 0; i < 50 && err == nil; i++ {
			err = s.Update(context.Background(), func(tx Tx) error {
				return tx.CreateJob(sampleJob(fmt.Sprintf("j-more-%02d", i), fmt.Sprintf("more-%02d", i)))
			})
		}
		done <- err
	}()
	for range 3 {
		if err := s.CheckPages(context.Background()); err != nil {
			t.Fatalf("CheckPages of a sound store: %v", err)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	inner, size := innerPages(t, path)
	scribble(t, path, size, inner[len(inner)/2])
	for _, ro := range []bool{true, false} {
		s, err := Open(path, Options{ReadOnly: ro, NoSync: true})
		if err != nil {
			t.Fatalf("Open(read-only %t): %v", ro, err)
		}
		wantDamage(t, s.CheckPages(context.Background()), path, "check store "+path+": the file is damaged: bbolt: ")
		if !ro {
			err = s.Update(context.Background(), func(tx Tx) error { return tx.CreateJob(sampleJob("j-new", "new")) })
			wantDamage(t, err, path, "nothing is written to a damaged store")
		}
		_ = s.Close()
	}
}
