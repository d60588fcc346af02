package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palink/palink/model"

	"github.com/palink/palink/internal/etcdtest"
)

// etcdBackend gives each test its own key prefix on the members of c. A
// backup is restored with RestoreEtcd under a prefix of its own.
func etcdBackend(c *etcdtest.Cluster, o EtcdOptions) backend {
	return backend{
		fresh: func(t *testing.T) opener { return etcdOpener(freshURL(c), o) },
		restore: func(t *testing.T, backup []byte) opener {
			file := filepath.Join(t.TempDir(), "backup.db")
			if err := os.WriteFile(file, backup, 0o600); err != nil {
				t.Fatal(err)
			}
			url := freshURL(c)
			if err := RestoreEtcd(file, url, Options{Etcd: o}); err != nil {
				t.Fatal(err)
			}
			return etcdOpener(url, o)
		},
	}
}

// freshURL is a prefix no test used yet on c.
func freshURL(c *etcdtest.Cluster) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return EtcdScheme + strings.Join(c.Endpoints(), ",") + "/test-" + hex.EncodeToString(b)
}

// etcdOpener opens the store at url, and checks it when the test ends:
// its backup, a bbolt file, must pass the file check (records and
// indexes agree).
func etcdOpener(url string, o EtcdOptions) opener {
	return func(t *testing.T) Store {
		t.Helper()
		e, err := OpenEtcd(url, Options{Etcd: o})
		if err != nil {
			t.Fatalf("open %s: %v", url, err)
		}
		t.Cleanup(func() {
			_ = e.Close()
			// The test may have closed it: check through a store of its own.
			c, err := OpenEtcd(url, Options{ReadOnly: true, Etcd: o})
			if err != nil {
				t.Errorf("open %s to check it: %v", url, err)
				return
			}
			defer c.Close()
			checkEtcd(t, c)
		})
		return e
	}
}

// checkEtcd checks a store on etcd as `palink store check` does: its
// backup, with the file check.
func checkEtcd(t *testing.T, e *Etcd) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "check-*.db")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Backup(context.Background(), f); err != nil {
		t.Errorf("back up %s to check it: %v", e.Path(), err)
		return
	}
	f.Close()
	rep, err := CheckFile(context.Background(), f.Name(), Options{})
	if err != nil || len(rep.Problems) > 0 {
		t.Errorf("store left inconsistent: %v %v", err, rep.Problems)
	}
}

func TestEtcdContract(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	runContract(t, etcdBackend(c, EtcdOptions{}))
}

func TestEtcdContractThreeMembers(t *testing.T) {
	c := etcdtest.Start(t, 3, etcdtest.Options{})
	runContract(t, etcdBackend(c, EtcdOptions{}))
}

// TestEtcdContractMirrored: a store that reads from its mirror
// (EtcdOptions.Mirror) is the same store.
func TestEtcdContractMirrored(t *testing.T) {
	c := etcdtest.Start(t, 3, etcdtest.Options{})
	runContract(t, etcdBackend(c, EtcdOptions{Mirror: true}))
}

// TestEtcdDisjointUpdatesDoNotConflict: two Updates of different jobs,
// overlapping in time, both commit at their first run — the state sync
// writes each job in its own transaction, 16 at a time, and must not pay
// for a conflict it does not have.
func TestEtcdDisjointUpdatesDoNotConflict(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := etcdOpener(freshURL(c), EtcdOptions{})(t)
	defer s.Close()
	update(t, s, func(tx Tx) error {
		for _, id := range []string{"a", "b"} {
			if err := tx.CreateJob(sampleJob(id, "job-"+id)); err != nil {
				return err
			}
		}
		return nil
	})
	// What a sync transaction does for one job: its record, its last
	// event, a new event.
	syncJob := func(id string, mid func()) func(tx Tx) error {
		return func(tx Tx) error {
			n, err := restarts(tx, id)
			if err != nil {
				return err
			}
			if _, err := tx.Events(id, 0, 1); err != nil {
				return err
			}
			mid()
			if err := setRestarts(tx, id, n+1); err != nil {
				return err
			}
			_, err = tx.AppendEvent(model.Event{JobID: id, To: model.StateRunning})
			return err
		}
	}
	runs := interleave(t, s, func(tx Tx, mid func()) error { return syncJob("a", mid)(tx) }, syncJob("b", func() {}))
	if runs != 1 {
		t.Errorf("an update of job a ran %d times beside one of job b: disjoint transactions conflicted", runs)
	}
	view(t, s, func(tx ReadTx) error {
		for _, id := range []string{"a", "b"} {
			if n, err := restarts(tx, id); err != nil || n != 1 {
				t.Errorf("job %s: counter %d, %v; want 1", id, n, err)
			}
		}
		return nil
	})
}
