package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
	bolt "go.etcd.io/bbolt"
)

// TestAMissingBucketIsAnErrorNotAPanic: a file that lost one of its
// buckets (damaged, or edited by hand) answers every call of a transaction
// with an error that says so, never a nil dereference; and a call that does
// not need the missing bucket still works.
func TestAMissingBucketIsAnErrorNotAPanic(t *testing.T) {
	buckets := [][]byte{bucketJobs, bucketJobNames, bucketSpecs, bucketEvents, bucketRestorePoints,
		bucketRestorePointPaths, bucketAudit}
	for _, missing := range buckets {
		t.Run(string(missing), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "palink.db")
			seededStore(t, path)
			corrupt(t, path, func(tx *bolt.Tx) error { return tx.DeleteBucket(missing) })
			db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			rollback := errors.New("rollback")
			err = db.Update(func(btx *bolt.Tx) error {
				tx := newBoltRecords(btx)
				renamed := sampleJob("j-001", "orders-renamed")
				renamed.State = model.StateRunning
				calls := []struct {
					name  string
					needs [][]byte // the buckets the call reads or writes
					call  func() error
				}{
					{"Jobs", [][]byte{bucketJobs}, func() error { _, err := tx.Jobs(); return err }},
					{"JobByName", [][]byte{bucketJobNames, bucketJobs}, func() error { _, err := tx.JobByName("orders-enrich"); return err }},
					{"CreateJob", [][]byte{bucketJobs, bucketJobNames}, func() error { return tx.CreateJob(sampleJob("j-009", "fresh")) }},
					{"PutJob", [][]byte{bucketJobs, bucketJobNames}, func() error { return tx.PutJob(renamed) }},
					{"Spec", [][]byte{bucketSpecs}, func() error { _, err := tx.Spec("j-001", 1); return err }},
					{"Specs", [][]byte{bucketJobs, bucketSpecs}, func() error { _, err := tx.Specs("j-001"); return err }},
					{"Events", [][]byte{bucketJobs, bucketEvents}, func() error { _, err := tx.Events("j-001", 0, 0); return err }},
					{"RestorePoints", [][]byte{bucketJobs, bucketRestorePoints}, func() error { _, err := tx.RestorePoints("j-001"); return err }},
					{"AddRestorePoint", [][]byte{bucketJobs, bucketRestorePoints, bucketRestorePointPaths}, func() error {
						_, err := tx.AddRestorePoint(model.RestorePoint{JobID: "j-001", Kind: model.Checkpoint, Path: "hdfs:///ck/j-001/chk-99", Time: t0})
						return err
					}},
					{"Audit", [][]byte{bucketAudit}, func() error { _, err := tx.Audit(0, 0); return err }},
					{"AppendAudit", [][]byte{bucketAudit}, func() error {
						_, err := tx.AppendAudit(model.AuditEntry{Time: t0, User: "ops", Action: "edit", JobID: "j-001", Outcome: "accepted"})
						return err
					}},
					{"AppendEvent", [][]byte{bucketJobs, bucketEvents}, func() error {
						_, err := tx.AppendEvent(model.Event{JobID: "j-001", Time: t0, From: model.StateRunning, To: model.StateRunning, Reason: "note"})
						return err
					}},
				}
				for _, c := range calls {
					err := func() (err error) {
						defer func() {
							if p := recover(); p != nil {
								err = fmt.Errorf("panic: %v", p)
							}
						}()
						return c.call()
					}()
					needed := false
					for _, b := range c.needs {
						needed = needed || string(b) == string(missing)
					}
					switch {
					case err != nil && strings.HasPrefix(err.Error(), "panic: "):
						t.Errorf("%s without the %s bucket: %v", c.name, missing, err)
					case needed && (err == nil || !strings.Contains(err.Error(), "store has no "+string(missing)+" bucket (damaged file?)")):
						t.Errorf("%s without the %s bucket: %v, want it named as damage", c.name, missing, err)
					case !needed && err != nil:
						t.Errorf("%s, which needs no %s bucket: %v", c.name, missing, err)
					}
				}
				return rollback
			})
			if !errors.Is(err, rollback) {
				t.Fatal(err)
			}
		})
	}
}

// TestAGarbledRecordIsAnError: a record that does not decode fails the
// read that meets it, named, instead of being skipped or read as zero.
func TestAGarbledRecordIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	seededStore(t, path)
	corrupt(t, path, func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketJobs).Put([]byte("j-009"), []byte("{")); err != nil {
			return err
		}
		for _, parent := range [][]byte{bucketSpecs, bucketEvents, bucketRestorePoints} {
			b, err := tx.Bucket(parent).CreateBucketIfNotExists([]byte("j-001"))
			if err != nil {
				return err
			}
			if err := b.Put(u64Key(999), []byte("{")); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketAudit).Put(u64Key(999), []byte("{"))
	})
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(btx *bolt.Tx) error {
		tx := newBoltRecords(btx)
		for name, call := range map[string]func() error{
			"Jobs":          func() error { _, err := tx.Jobs(); return err },
			"Specs":         func() error { _, err := tx.Specs("j-001"); return err },
			"Events":        func() error { _, err := tx.Events("j-001", 0, 0); return err },
			"RestorePoints": func() error { _, err := tx.RestorePoints("j-001"); return err },
			"Audit":         func() error { _, err := tx.Audit(0, 0); return err },
		} {
			if err := call(); err == nil || !strings.Contains(err.Error(), "decode") {
				t.Errorf("%s over a garbled record: %v, want a decode error", name, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTxReadEdges: an empty store lists no jobs as an empty list (JSON
// "[]", not null); an unknown name, an unknown job's spec and a negative
// limit are refused plainly.
func TestTxReadEdges(t *testing.T) {
	s := openT(t, filepath.Join(t.TempDir(), "palink.db"), Options{NoSync: true})
	defer s.Close()
	view(t, s, func(tx ReadTx) error {
		if jobs, err := tx.Jobs(); err != nil || jobs == nil || len(jobs) != 0 {
			t.Errorf("jobs of an empty store: %#v, %v; want an empty, non-nil list", jobs, err)
		}
		_, err := tx.JobByName("nope")
		wantErr(t, err, ErrNotFound, `job named "nope"`)
		if err != nil && strings.Contains(err.Error(), "missing job") {
			t.Errorf("an unknown name reads as a broken index: %v", err)
		}
		_, err = tx.Spec("j-404", 1)
		wantErr(t, err, ErrNotFound, "spec v1", "j-404")
		return nil
	})
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j-1", "one")) })
	view(t, s, func(tx ReadTx) error {
		_, err := tx.Events("j-1", 0, -1)
		wantErr(t, err, ErrInvalid, "limit -1")
		return nil
	})
}

// TestAKeyBBoltCannotStoreIsRefused: an id, name or path longer than
// bbolt's largest key fails the call that would store it, so the
// transaction rolls back instead of keeping a record its indexes miss.
func TestAKeyBBoltCannotStoreIsRefused(t *testing.T) {
	long := strings.Repeat("x", bolt.MaxKeySize+1)
	s := openT(t, filepath.Join(t.TempDir(), "palink.db"), Options{NoSync: true})
	defer s.Close()
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j-1", "one")) })
	for name, call := range map[string]func(tx Tx) error{
		"a job id":   func(tx Tx) error { return tx.CreateJob(sampleJob(long, "two")) },
		"a job name": func(tx Tx) error { return tx.CreateJob(sampleJob("j-2", long)) },
		"a rename":   func(tx Tx) error { return tx.PutJob(sampleJob("j-1", long)) },
		"a restore point's path": func(tx Tx) error {
			_, err := tx.AddRestorePoint(model.RestorePoint{JobID: "j-1", Kind: model.Checkpoint, Path: long, Time: t0})
			return err
		},
	} {
		if err := s.Update(context.Background(), call); err == nil {
			t.Errorf("%s of %d bytes was stored", name, len(long))
		}
	}
	view(t, s, func(tx ReadTx) error {
		if jobs, err := tx.Jobs(); err != nil || len(jobs) != 1 || jobs[0].Name != "one" {
			t.Errorf("jobs after the refusals: %+v, %v; want only j-1, named one", jobs, err)
		}
		if rps, err := tx.RestorePoints("j-1"); err != nil || len(rps) != 0 {
			t.Errorf("restore points after the refusal: %+v, %v", rps, err)
		}
		return nil
	})
}

// TestARecordJSONCannotEncodeIsRefused: a time outside JSON's years 0–9999
// (a clock gone wrong) makes a record that cannot be encoded; each write
// refuses it with an error and stores nothing of it.
func TestARecordJSONCannotEncodeIsRefused(t *testing.T) {
	far := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	s := openT(t, filepath.Join(t.TempDir(), "palink.db"), Options{NoSync: true})
	defer s.Close()
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j-1", "one")) })
	update(t, s, func(tx Tx) error {
		_, err := tx.AddRestorePoint(model.RestorePoint{JobID: "j-1", Kind: model.Checkpoint, Path: "hdfs:///cp/1", Time: t0})
		return err
	})
	for name, call := range map[string]func(tx Tx) error{
		"a new restore point": func(tx Tx) error {
			_, err := tx.AddRestorePoint(model.RestorePoint{JobID: "j-1", Kind: model.Checkpoint, Path: "hdfs:///cp/2", Time: far})
			return err
		},
		"a restore point replaced": func(tx Tx) error {
			return tx.PutRestorePoint(model.RestorePoint{JobID: "j-1", Kind: model.Checkpoint, Path: "hdfs:///cp/1", Time: far})
		},
		"an audit entry": func(tx Tx) error {
			_, err := tx.AppendAudit(model.AuditEntry{Time: far, User: "ops", Action: "kill", JobID: "j-1"})
			return err
		},
		"a job event": func(tx Tx) error {
			_, err := tx.AppendEvent(model.Event{JobID: "j-1", Time: far, Reason: "sync"})
			return err
		},
		"a new job": func(tx Tx) error {
			j := sampleJob("j-2", "two")
			j.CreatedAt = far
			return tx.CreateJob(j)
		},
		"a job replaced": func(tx Tx) error {
			j := sampleJob("j-1", "one")
			j.UpdatedAt = far
			return tx.PutJob(j)
		},
	} {
		if err := s.Update(context.Background(), call); err == nil || !strings.Contains(err.Error(), "year outside of range") {
			t.Errorf("%s dated %s: %v, want the encoding's refusal", name, far.Format("2006-01-02"), err)
		}
	}
	view(t, s, func(tx ReadTx) error {
		if rps, err := tx.RestorePoints("j-1"); err != nil || len(rps) != 1 || !rps[0].Time.Equal(t0) {
			t.Errorf("restore points after the refusals: %+v, %v; want the one of %s", rps, err, t0)
		}
		if es, err := tx.Events("j-1", 0, 0); err != nil || len(es) != 0 {
			t.Errorf("events after the refusal: %+v, %v", es, err)
		}
		if as, err := tx.Audit(0, 0); err != nil || len(as) != 0 {
			t.Errorf("audit after the refusal: %+v, %v", as, err)
		}
		if jobs, err := tx.Jobs(); err != nil || len(jobs) != 1 || !jobs[0].UpdatedAt.Equal(sampleJob("j-1", "one").UpdatedAt) {
			t.Errorf("jobs after the refusals: %+v, %v; want j-1 as it was", jobs, err)
		}
		return nil
	})
	// A restore point of a job that is not there is refused too.
	err := s.Update(context.Background(), func(tx Tx) error {
		return tx.PutRestorePoint(model.RestorePoint{JobID: "j-none", Kind: model.Checkpoint, Path: "hdfs:///cp/1", Time: t0})
	})
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("a restore point of job j-none replaced: %v, want ErrNotFound", err)
	}
}
