package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// boltBackend gives each test its own files; NoSync keeps the suite fast
// without changing what a transaction sees. A backup is restored with
// Restore.
var boltBackend = backend{
	fresh: func(t *testing.T) opener { return boltOpener(filepath.Join(t.TempDir(), "palink.db")) },
	restore: func(t *testing.T, backup []byte) opener {
		dir := t.TempDir()
		file, path := filepath.Join(dir, "backup.db"), filepath.Join(dir, "palink.db")
		if err := os.WriteFile(file, backup, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := Restore(file, path); err != nil {
			t.Fatal(err)
		}
		return boltOpener(path)
	},
}

// boltOpener opens the store at path, and checks it when the test ends.
func boltOpener(path string) opener {
	return func(t *testing.T) Store {
		t.Helper()
		b, err := Open(path, Options{NoSync: true})
		if err != nil {
			t.Fatalf("open %s: %v", path, err)
		}
		t.Cleanup(func() {
			// Every contract test must leave consistent indexes behind.
			if b.db.IsReadOnly() || b.db.Path() == "" {
				return
			}
			if err := b.Check(context.Background()); err != nil {
				t.Errorf("store left inconsistent: %v", err)
			}
			_ = b.Close()
		})
		return b
	}
}

func TestBoltContract(t *testing.T) {
	runContract(t, boltBackend)
}

// openT opens a store that the test closes at its end.
func openT(t *testing.T, path string, opts Options) *Bolt {
	t.Helper()
	b, err := Open(path, opts)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func TestOpenCreatesPrivateDirAndFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data", "palink")
	path := filepath.Join(dir, "palink.db")
	b := openT(t, path, Options{NoSync: true})
	if b.Path() != path {
		t.Errorf("Path() = %q, want %q", b.Path(), path)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != want {
			t.Errorf("%s mode = %v, want %v", p, got, want)
		}
	}
	if err := b.Check(context.Background()); err != nil {
		t.Errorf("fresh store: %v", err)
	}
}

func TestOpenReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	w := openT(t, path, Options{NoSync: true})
	update(t, w, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "orders")) })
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	ro := openT(t, path, Options{ReadOnly: true})
	if !ro.ReadOnly() {
		t.Error("ReadOnly() = false")
	}
	view(t, ro, func(tx ReadTx) error {
		_, err := tx.JobByName("orders")
		return err
	})
	ran := false
	err := ro.Update(context.Background(), func(Tx) error { ran = true; return nil })
	wantErr(t, err, ErrReadOnly, path)
	if ran {
		t.Error("Update ran fn on a read-only store")
	}
	// Read-only stores share the lock.
	ro2 := openT(t, path, Options{ReadOnly: true, LockTimeout: -1})
	view(t, ro2, func(tx ReadTx) error { _, err := tx.Job("j1"); return err })
	// Backups work read-only: they only read.
	var sink strings.Builder
	if _, err := ro2.Backup(context.Background(), &sink); err != nil || sink.Len() == 0 {
		t.Errorf("Backup of a read-only store: %d bytes, %v", sink.Len(), err)
	}
}

func TestOpenReadOnlyCreatesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "absent", "palink.db")
	_, err := Open(path, Options{ReadOnly: true})
	if err == nil || !strings.Contains(err.Error(), path) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("read-only Open of a missing store = %v, want a not-exist error naming %s", err, path)
	}
	if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("read-only Open created %s", filepath.Dir(path))
	}
}

func TestOpenRejectsNonStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database\n", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path, Options{})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Open of a text file = %v, want an error naming it", err)
	}
}

func TestTxUnusableAfterItsTransaction(t *testing.T) {
	s := openT(t, filepath.Join(t.TempDir(), "palink.db"), Options{NoSync: true})
	var leaked Tx
	update(t, s, func(tx Tx) error { leaked = tx; return tx.CreateJob(sampleJob("j1", "a")) })
	if _, err := leaked.Job("j1"); err == nil || !strings.Contains(err.Error(), "outlive") {
		t.Errorf("using a Tx after Update = %v, want a clear error", err)
	}
}

func TestUseAfterClose(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "palink.db"), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	err = s.View(context.Background(), func(ReadTx) error { return nil })
	if err == nil || !strings.Contains(err.Error(), s.Path()) {
		t.Errorf("View after Close = %v, want an error naming the store", err)
	}
	err = s.Update(context.Background(), func(Tx) error { return nil })
	if err == nil || !strings.Contains(err.Error(), s.Path()) {
		t.Errorf("Update after Close = %v, want an error naming the store", err)
	}
}

func TestCommandWithoutStateIsReportedNotIndexed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	s := openT(t, path, Options{NoSync: true})
	id := commandWorld(t, s)[2].ID
	_ = s.Close()
	// A record as a buggy or older writer might leave it: no state at all.
	corrupt(t, path, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketCommands).Put([]byte(id), []byte(`{"ID":"`+id+`","Seq":3,"JobID":"j1","Kind":"PAUSE"}`))
	})
	s = openT(t, path, Options{NoSync: true})
	err := s.View(context.Background(), func(tx ReadTx) error { _, err := tx.Commands(CommandFilter{JobID: "j1"}); return err })
	wantErr(t, err, ErrInvalid, id, "state 0")
	if err := s.Check(context.Background()); err == nil || !strings.Contains(err.Error(), id) {
		t.Errorf("Check = %v, want the stateless command reported", err)
	}
	// Other queries that do not read it still work.
	view(t, s, func(tx ReadTx) error {
		_, err := tx.Commands(CommandFilter{States: []model.CommandState{model.CmdUndo}})
		return err
	})
}

// corrupt edits the raw file under a closed store, as a bug or a crash of an
// older palink might have left it.
func corrupt(t *testing.T, path string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
}

func TestCheckFindsBrokenIndexes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	s := openT(t, path, Options{NoSync: true})
	all := commandWorld(t, s)
	update(t, s, func(tx Tx) error {
		_, err := tx.AddRestorePoint(model.RestorePoint{JobID: "j1", Kind: model.Savepoint, Path: "hdfs:///sp/1"})
		return err
	})
	if err := s.Check(context.Background()); err != nil {
		t.Fatalf("healthy store: %v", err)
	}
	_ = s.Close()

	undoCmd := all[5] // c…6, UNDO
	corrupt(t, path, func(tx *bolt.Tx) error {
		// A command missing from its state index: the scheduler would never run it.
		if err := tx.Bucket(bucketCommandsByState).Bucket([]byte("UNDO")).Delete([]byte(undoCmd.ID)); err != nil {
			return err
		}
		// A stale name, and a restore point path index pointing nowhere.
		if err := tx.Bucket(bucketJobNames).Put([]byte("stale"), []byte("j404")); err != nil {
			return err
		}
		return tx.Bucket(bucketRestorePointPaths).Bucket([]byte("j1")).Put([]byte("hdfs:///sp/2"), u64Key(9))
	})
	s = openT(t, path, Options{NoSync: true})
	err := s.Check(context.Background())
	if err == nil {
		t.Fatal("Check found nothing wrong")
	}
	for _, want := range []string{undoCmd.ID + " is UNDO", `"stale"`, "j404", "hdfs:///sp/2"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Check report lacks %q:\n%v", want, err)
		}
	}
}
