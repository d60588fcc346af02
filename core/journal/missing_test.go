package journal

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// journalT is a store with one job, run j1 of Flink job f1, and its
// checkpoint and savepoint recorded in the history.
func journalT(t *testing.T) (store.Store, model.Job) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "p.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	cp := &model.RestorePoint{JobID: "j1", Kind: model.Checkpoint, Path: "hdfs:///ck/f1/chk-7", CheckID: 7, SeenAt: now, FlinkJobID: "f1"}
	sp := &model.RestorePoint{JobID: "j1", Kind: model.Savepoint, Path: "hdfs:///sp/savepoint-1", CheckID: 5, SeenAt: now, FlinkJobID: "f1"}
	j := model.Job{ID: "j1", Name: "orders", Kind: model.KindSQL, Cluster: "c", SpecVersion: 1, FlinkJobID: "f1",
		Retention: model.RetainOnCancellation, LatestCheckpoint: cp, LatestSavepoint: sp, CreatedAt: now}
	err = st.Update(context.Background(), func(tx store.Tx) error {
		if err := tx.CreateJob(j); err != nil {
			return err
		}
		for _, rp := range []*model.RestorePoint{sp, cp} {
			if _, err := tx.AddRestorePoint(*rp); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st, j
}

// recorded is the history's record of path.
func recorded(t *testing.T, st store.Store, path string) model.RestorePoint {
	t.Helper()
	var out model.RestorePoint
	err := st.View(context.Background(), func(tx store.ReadTx) error {
		rps, err := tx.RestorePoints("j1")
		for _, rp := range rps {
			if rp.Path == path {
				out = rp
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func updateT(t *testing.T, st store.Store, fn func(tx store.Tx) error) {
	t.Helper()
	if err := st.Update(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

// TestEndRun: the end of the current Flink job, with the retention it ran
// with, goes on its newest checkpoint, in the job and in the history; a
// checkpoint whose end is known already, or of an earlier Flink job,
// keeps its own; a job with no checkpoint has nothing to stamp.
func TestEndRun(t *testing.T) {
	st, j := journalT(t)
	updateT(t, st, func(tx store.Tx) error { return EndRun(tx, &j, model.EndCanceled) })
	if cp := j.LatestCheckpoint; cp.RunEnd != model.EndCanceled || cp.Retention != model.RetainOnCancellation {
		t.Errorf("the latest checkpoint after the run was cancelled: %s, %s", cp.RunEnd, cp.Retention)
	}
	if rec := recorded(t, st, "hdfs:///ck/f1/chk-7"); rec.RunEnd != model.EndCanceled || rec.Retention != model.RetainOnCancellation {
		t.Errorf("its record in the history: %s, %s", rec.RunEnd, rec.Retention)
	}
	if sp := j.LatestSavepoint; sp.RunEnd != model.EndUnknown {
		t.Errorf("the savepoint was stamped too: %s", sp.RunEnd)
	}
	// Known already: a second end (the kill that followed) changes nothing.
	updateT(t, st, func(tx store.Tx) error { return EndRun(tx, &j, model.EndKilled) })
	if j.LatestCheckpoint.RunEnd != model.EndCanceled {
		t.Errorf("a known end was overwritten: %s", j.LatestCheckpoint.RunEnd)
	}
	// A checkpoint of the Flink job before: the new run's end is not its.
	st2, j2 := journalT(t)
	j2.FlinkJobID = "f2"
	updateT(t, st2, func(tx store.Tx) error { return EndRun(tx, &j2, model.EndFailed) })
	if j2.LatestCheckpoint.RunEnd != model.EndUnknown || recorded(t, st2, "hdfs:///ck/f1/chk-7").RunEnd != model.EndUnknown {
		t.Errorf("the end of run f2 went on f1's checkpoint: %s", j2.LatestCheckpoint.RunEnd)
	}
	// A checkpoint whose Flink job palink did not learn is the run's.
	st3, j3 := journalT(t)
	j3.LatestCheckpoint.FlinkJobID = ""
	updateT(t, st3, func(tx store.Tx) error { return EndRun(tx, &j3, model.EndFinished) })
	if j3.LatestCheckpoint.RunEnd != model.EndFinished {
		t.Errorf("a checkpoint of an unknown Flink job: %s, want FINISHED", j3.LatestCheckpoint.RunEnd)
	}
	// No checkpoint: nothing to do, and no failure.
	j3.LatestCheckpoint = nil
	updateT(t, st3, func(tx store.Tx) error { return EndRun(tx, &j3, model.EndFinished) })
	if j3.LatestCheckpoint != nil {
		t.Errorf("EndRun made a checkpoint: %+v", j3.LatestCheckpoint)
	}
}

// TestMarkMissing: a restore point the cluster cannot find is marked
// missing with the cluster's words, in the history and wherever the job
// names it, once; a path palink never recorded is not invented.
func TestMarkMissing(t *testing.T) {
	st, j := journalT(t)
	const why = "Cannot find checkpoint or savepoint file/directory 'hdfs:///sp/savepoint-1' on file system 'hdfs'."
	var marked bool
	updateT(t, st, func(tx store.Tx) (err error) {
		marked, err = MarkMissing(tx, &j, "hdfs:///sp/savepoint-1", why)
		return err
	})
	if !marked || j.LatestSavepoint.Status != model.SavepointMissing || j.LatestSavepoint.Error != why {
		t.Errorf("marked %t; the job's savepoint %s %q", marked, j.LatestSavepoint.Status, j.LatestSavepoint.Error)
	}
	if j.LatestCheckpoint.Status == model.SavepointMissing {
		t.Error("the checkpoint, another path, was marked missing too")
	}
	if rec := recorded(t, st, "hdfs:///sp/savepoint-1"); rec.Status != model.SavepointMissing || rec.Error != why {
		t.Errorf("its record: %s %q", rec.Status, rec.Error)
	}
	updateT(t, st, func(tx store.Tx) (err error) {
		marked, err = MarkMissing(tx, &j, "hdfs:///sp/savepoint-1", "again")
		return err
	})
	if marked || j.LatestSavepoint.Error != why {
		t.Errorf("marked again: %t, %q", marked, j.LatestSavepoint.Error)
	}
	updateT(t, st, func(tx store.Tx) (err error) {
		marked, err = MarkMissing(tx, &j, "hdfs:///typed/by/hand", why)
		return err
	})
	if marked {
		t.Error("a path palink never recorded was marked")
	}
	updateT(t, st, func(tx store.Tx) (err error) {
		marked, err = MarkMissing(tx, &j, "hdfs:///ck/f1/chk-7", why)
		return err
	})
	if !marked || j.LatestCheckpoint.Status != model.SavepointMissing {
		t.Errorf("the latest checkpoint marked %t: %s", marked, j.LatestCheckpoint.Status)
	}
}

// TestRestoreNotFound: a failure's text that says Flink cannot find the
// path restored from marks it missing, with the line that says so, and
// notes it on the job's timeline; any other failure, or one about another
// path, changes nothing.
func TestRestoreNotFound(t *testing.T) {
	st, j := journalT(t)
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	const line = "Cannot find checkpoint or savepoint file/directory 'hdfs:///sp/savepoint-1/' on file system 'hdfs'."
	text := "org.apache.flink.runtime.client.JobInitializationException: Could not start the JobMaster.\n" +
		"Caused by: java.io.FileNotFoundException:   " + line + "  \n\tat org.apache.flink..."
	for _, other := range []string{
		"java.lang.OutOfMemoryError: Java heap space",
		"Caused by: java.io.FileNotFoundException: Cannot find checkpoint or savepoint file/directory 'hdfs:///sp/other' on file system 'hdfs'.",
	} {
		var ev *model.Event
		updateT(t, st, func(tx store.Tx) (err error) {
			ev, err = RestoreNotFound(tx, &j, "hdfs:///sp/savepoint-1", other, "c1", now)
			return err
		})
		if ev != nil || j.LatestSavepoint.Status == model.SavepointMissing {
			t.Errorf("%q: event %v, savepoint %s", other, ev, j.LatestSavepoint.Status)
		}
	}
	var ev *model.Event
	updateT(t, st, func(tx store.Tx) (err error) {
		ev, err = RestoreNotFound(tx, &j, "hdfs:///sp/savepoint-1", text, "c1", now)
		return err
	})
	want := "Caused by: java.io.FileNotFoundException:   " + line
	if j.LatestSavepoint.Status != model.SavepointMissing || j.LatestSavepoint.Error != want {
		t.Errorf("the savepoint after Flink could not find it: %s %q, want MISSING %q", j.LatestSavepoint.Status, j.LatestSavepoint.Error, want)
	}
	if ev == nil || ev.CommandID != "c1" || ev.Reason != "restore from hdfs:///sp/savepoint-1 failed: the cluster cannot find it; palink will not offer it again" {
		t.Errorf("the timeline's note: %+v", ev)
	}
}

// TestRecordPointsMovesTheEndToTheNewest: a checkpoint of a run palink
// saw end, learned of after (the JobManager read once more), is the run's
// newest: the end moves onto it from the one it subsumed. A checkpoint of
// the next Flink job carries no end of the run before.
func TestRecordPointsMovesTheEndToTheNewest(t *testing.T) {
	st, j := journalT(t)
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	updateT(t, st, func(tx store.Tx) error { return EndRun(tx, &j, model.EndCanceled) })
	updateT(t, st, func(tx store.Tx) error {
		return RecordPoints(tx, &j, []*yarn.Checkpoint{{ID: 8, ExternalPath: "hdfs:///ck/f1/chk-8"}}, "sync", 3, now)
	})
	if cp := j.LatestCheckpoint; cp.Path != "hdfs:///ck/f1/chk-8" || cp.RunEnd != model.EndCanceled || cp.Retention != model.RetainOnCancellation {
		t.Errorf("the newest checkpoint of the ended run: %s %s %s", cp.Path, cp.RunEnd, cp.Retention)
	}
	if rec := recorded(t, st, "hdfs:///ck/f1/chk-8"); rec.RunEnd != model.EndCanceled {
		t.Errorf("its record: %s", rec.RunEnd)
	}
	if rec := recorded(t, st, "hdfs:///ck/f1/chk-7"); rec.RunEnd != model.EndUnknown || rec.Retention != model.RetentionUnknown {
		t.Errorf("the subsumed checkpoint kept the run's end: %s %s", rec.RunEnd, rec.Retention)
	}
	j.FlinkJobID = "f2"
	updateT(t, st, func(tx store.Tx) error {
		return RecordPoints(tx, &j, []*yarn.Checkpoint{{ID: 1, ExternalPath: "hdfs:///ck/f2/chk-1"}}, "sync", 3, now)
	})
	if cp := j.LatestCheckpoint; cp.Path != "hdfs:///ck/f2/chk-1" || cp.RunEnd != model.EndUnknown {
		t.Errorf("the next Flink job's first checkpoint: %s %s, want no end", cp.Path, cp.RunEnd)
	}
	if rec := recorded(t, st, "hdfs:///ck/f1/chk-8"); rec.RunEnd != model.EndCanceled {
		t.Errorf("the ended run's newest checkpoint lost its end: %s", rec.RunEnd)
	}
}
