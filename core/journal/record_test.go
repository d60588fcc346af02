package journal

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// TestRecordFlinkPoint: what the JobManager reports becomes the job's
// latest restore point of its kind, except a checkpoint it has discarded
// (gone from the file system); and a savepoint a command recorded by path
// alone learns its checkpoint id, so that it orders against checkpoints.
func TestRecordFlinkPoint(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "p.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	j := model.Job{ID: "j1", Name: "orders", Kind: model.KindSQL, Cluster: "c", SpecVersion: 1, FlinkJobID: "f1", CreatedAt: now}
	sp := &model.RestorePoint{JobID: "j1", Kind: model.Savepoint, Path: "hdfs:///sp/savepoint-2", SeenAt: now, FlinkJobID: "f1", Origin: "PAUSE #2"}
	j.LatestSavepoint = sp
	err = st.Update(context.Background(), func(tx store.Tx) error {
		if err := tx.CreateJob(j); err != nil {
			return err
		}
		if _, err := tx.AddRestorePoint(*sp); err != nil {
			return err
		}
		later := now.Add(time.Minute)
		// chk-1 was subsumed: the JobManager still lists it, discarded.
		if err := RecordFlinkPoint(tx, &j, &yarn.Checkpoint{ID: 1, ExternalPath: "hdfs:///ck/chk-1", Discarded: true}, "test", 1, later); err != nil {
			return err
		}
		if j.LatestCheckpoint != nil {
			t.Errorf("a discarded checkpoint became the latest: %+v", j.LatestCheckpoint)
		}
		if err := RecordFlinkPoint(tx, &j, &yarn.Checkpoint{ID: 2, IsSavepoint: true, ExternalPath: sp.Path}, "test", 1, later); err != nil {
			return err
		}
		if j.LatestSavepoint.CheckID != 2 || j.LatestSavepoint.Origin != "PAUSE #2" {
			t.Errorf("the savepoint seen again: %+v, want its id 2 and its origin kept", j.LatestSavepoint)
		}
		if err := RecordFlinkPoint(tx, &j, &yarn.Checkpoint{ID: 3, ExternalPath: "hdfs:///ck/chk-3"}, "test", 1, later); err != nil {
			return err
		}
		if j.LatestCheckpoint == nil || j.LatestCheckpoint.CheckID != 3 {
			t.Errorf("a new checkpoint: %+v", j.LatestCheckpoint)
		}
		if rp := decide.NewestRestorePoint(j); rp.Path != "hdfs:///ck/chk-3" {
			t.Errorf("newest after chk-3: %s", rp.Path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
