package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	bolt "go.etcd.io/bbolt"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/model"
)

// seedCheckpoints gives n jobs what a palink before schema 8 kept: every
// checkpoint sync saw (per checkpoints each), a savepoint among them, and
// a run restored from an old checkpoint.
func seedCheckpoints(t *testing.T, s Store, jobs, per int) {
	t.Helper()
	for i := 0; i < jobs; i++ {
		id := fmt.Sprintf("j%04d", i)
		j := sampleJob(id, "job-"+id)
		j.RestoredFrom = fmt.Sprintf("hdfs:///ck/%s/chk-2/", id) // Flink may add the slash
		update(t, s, func(tx Tx) error { return tx.CreateJob(j) })
		// In updates of 30 points: etcd takes 128 operations in one.
		for from := 1; from <= per; from += 30 {
			update(t, s, func(tx Tx) error {
				for c := from; c < from+30 && c <= per; c++ {
					rp := model.RestorePoint{JobID: id, Kind: model.Checkpoint, Path: fmt.Sprintf("hdfs:///ck/%s/chk-%d", id, c), Time: t0, CheckID: int64(c), Origin: "sync"}
					if c == per/2 {
						rp.Kind, rp.Path = model.Savepoint, fmt.Sprintf("hdfs:///sp/%s/sp-%d", id, c)
					}
					if _, err := tx.AddRestorePoint(rp); err != nil {
						return err
					}
					if rp.Kind == model.Checkpoint {
						j.LatestCheckpoint = &rp
					}
				}
				return tx.PutJob(j)
			})
		}
	}
}

// wantPruned checks that each job kept its savepoint, its latest
// checkpoint and the one it restored from, and nothing else.
func wantPruned(t *testing.T, s Store, jobs, per int) {
	t.Helper()
	view(t, s, func(tx ReadTx) error {
		for i := 0; i < jobs; i++ {
			id := fmt.Sprintf("j%04d", i)
			rps, err := tx.RestorePoints(id)
			if err != nil {
				return err
			}
			var paths []string
			for _, rp := range rps {
				paths = append(paths, rp.Path)
			}
			want := []string{fmt.Sprintf("hdfs:///ck/%s/chk-2", id), fmt.Sprintf("hdfs:///sp/%s/sp-%d", id, per/2), fmt.Sprintf("hdfs:///ck/%s/chk-%d", id, per)}
			if !slices.Equal(paths, want) {
				t.Fatalf("job %s keeps %v, want %v", id, paths, want)
			}
		}
		return nil
	})
}

// TestMigrationForgetsSubsumedCheckpoints: a store of schema 7 that kept
// every checkpoint sync saw keeps, once opened, what can be restored:
// each job's savepoints, its latest checkpoint and the one its run
// restored from; Check agrees with its indexes.
func TestMigrationForgetsSubsumedCheckpoints(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	s := openT(t, path, Options{NoSync: true})
	seedCheckpoints(t, s, 20, 40)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	setFileVersion(t, path, 7)
	s = openT(t, path, Options{NoSync: true})
	defer s.Close()
	if v := rawVersionOf(t, s); v != SchemaVersion {
		t.Errorf("schema %d after Open, want %d", v, SchemaVersion)
	}
	wantPruned(t, s, 20, 40)
	if err := s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestEtcdMigrationForgetsSubsumedCheckpoints: the same on etcd, where a
// job's 80 deletions do not fit one transaction.
func TestEtcdMigrationForgetsSubsumedCheckpoints(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := freshURL(c)
	e := openEtcdT(t, url, Options{})
	seedCheckpoints(t, e, 5, 90)
	u, err := ParseEtcdURL(url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cli.Put(context.Background(), u.Prefix+etcdVersionKey, "7"); err != nil {
		t.Fatal(err)
	}
	e.Close()
	e = openEtcdT(t, url, Options{})
	defer e.Close()
	resp, err := e.cli.Get(context.Background(), u.Prefix+etcdVersionKey, clientv3.WithLimit(1))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := strconv.Atoi(string(resp.Kvs[0].Value)); v != SchemaVersion {
		t.Errorf("schema %d after Open, want %d", v, SchemaVersion)
	}
	wantPruned(t, e, 5, 90)
	checkEtcd(t, e)
}

// TestCompactShrinksTheFile: `palink store compact` prunes by the
// clusters' num-retained and gives the freed pages back: the file
// shrinks, and the store holds what it held but the forgotten records.
func TestCompactShrinksTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	s := openT(t, path, Options{NoSync: true})
	seedCheckpoints(t, s, 200, 60)
	// What a palink before schema 8 left: every checkpoint, at schema 7.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	setFileVersion(t, path, 7)
	rep, err := Compact(context.Background(), path, Options{NoSync: true}, func(model.Job) int { return 1 })
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if rep.After != fi.Size() || rep.After*2 > rep.Before {
		t.Errorf("compact: %d → %d bytes (file %d): want at most half", rep.Before, rep.After, fi.Size())
	}
	s = openT(t, path, Options{NoSync: true})
	defer s.Close()
	wantPruned(t, s, 200, 60)
	if err := s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func setFileVersion(t *testing.T, path string, v int) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error { return writeVersion(tx, v) }); err != nil {
		t.Fatal(err)
	}
}

func rawVersionOf(t *testing.T, s *Bolt) int {
	t.Helper()
	var v int
	if err := s.db.View(func(tx *bolt.Tx) (err error) { v, err = readVersion(tx); return err }); err != nil {
		t.Fatal(err)
	}
	return v
}
