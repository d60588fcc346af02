package scheduler

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

const (
	prevApp = "application_1_0001"
	prevJob = "00000000000000000000000000000001"
	chk5    = "hdfs:///flink/checkpoints/orders/chk-5"
	chk7    = "hdfs:///flink/checkpoints/orders/chk-7"
	sp6     = "hdfs:///flink/savepoints/savepoint-0001-6"
	sp9     = "hdfs:///flink/savepoints/savepoint-0001-9"
)

// recorded is a job whose last run recorded checkpoint 5 and savepoint 6
// of one Flink job, then was killed by YARN (so Flink deleted nothing):
// "latest" means the savepoint, "checkpoint" chk-5.
func recorded() model.Job {
	seen := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	return model.Job{AppID: prevApp, FlinkJobID: prevJob,
		LatestCheckpoint: &model.RestorePoint{JobID: "j1", Kind: model.Checkpoint, Path: chk5, FlinkJobID: prevJob, CheckID: 5, SeenAt: seen,
			RunEnd: model.EndKilled},
		LatestSavepoint: &model.RestorePoint{JobID: "j1", Kind: model.Savepoint, Path: sp6, FlinkJobID: prevJob, CheckID: 6, SeenAt: seen.Add(-time.Minute)},
	}
}

func completed(id int64, path string, savepoint bool) *yarn.Checkpoint {
	return &yarn.Checkpoint{ID: id, Status: "COMPLETED", IsSavepoint: savepoint, ExternalPath: path, LatestAckTimestamp: 1_764_650_000_000 + id}
}

// TestCheckRestoreTakesExplicitChoicesAsGiven: a named path, the latest
// savepoint and "none" are what the user chose when the command was
// accepted; the deploy neither asks the cluster nor swaps them for a newer
// point.
func TestCheckRestoreTakesExplicitChoicesAsGiven(t *testing.T) {
	for _, tc := range []struct {
		name   string
		choice model.RestoreChoice
		path   string
	}{
		{"a named path", model.RestorePath, "hdfs:///flink/savepoints/savepoint-old"},
		{"the latest savepoint", model.RestoreSavepoint, sp6},
		{"none", model.RestoreNone, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, recorded(), nil)
			a := b.f.add(prevApp, yarn.AppRunning, nil)
			a.stats[prevJob] = yarn.CheckpointStats{Latest: yarn.LatestCheckpoints{Completed: completed(7, chk7, false)}}
			x := b.exec(model.CmdRestart, model.CommandParams{Restore: tc.choice, RestorePath: tc.path})
			got, err := x.checkRestore(b.ctx, b.cl, b.job)
			if err != nil || got != tc.path {
				t.Fatalf("checkRestore = %q, %v; want %q as chosen", got, err, tc.path)
			}
			if n := b.f.asked("/ws/v1/cluster/apps/" + prevApp); n != 0 {
				t.Errorf("asked the RM %d times for the previous application; an explicit choice needs no check", n)
			}
			if _, c := b.stored(x); c.Params.RestorePath != tc.path {
				t.Errorf("the command now restores %q, want %q", c.Params.RestorePath, tc.path)
			}
		})
	}
}

// TestCheckRestoreLatestAndCheckpoint: "latest" and "checkpoint" are
// decided again when the deploy runs, from what the previous run's
// JobManager reports (recorded in the store) or, when it is gone, from
// palink's records; the command then says what it restores and why.
func TestCheckRestoreLatestAndCheckpoint(t *testing.T) {
	for _, tc := range []struct {
		name     string
		choice   model.RestoreChoice
		accepted string // the path resolved when the command was accepted
		cluster  func(f *fakeCluster)
		want     string
		log      string
	}{
		{"latest: the savepoint of the same job with the higher id", model.RestoreLatest, sp6, nil, sp6,
			"restore point " + sp6 + ": the newest palink recorded (the previous run's JobManager is gone, so it cannot be asked)"},
		{"checkpoint: the latest checkpoint though a savepoint is newer", model.RestoreCheckpoint, chk5, nil, chk5,
			"restore point " + chk5 + ": the newest palink recorded"},
		{"latest: a newer checkpoint the JobManager reports", model.RestoreLatest, sp6, func(f *fakeCluster) {
			a := f.add(prevApp, yarn.AppRunning, nil)
			a.stats[prevJob] = yarn.CheckpointStats{Latest: yarn.LatestCheckpoints{Completed: completed(7, chk7, false), Savepoint: completed(6, sp6, true)}}
		}, chk7, "restoring from " + chk7 + " instead of " + sp6 + ": a newer checkpoint was recorded after this command was accepted"},
		{"latest: a newer savepoint the JobManager reports", model.RestoreLatest, sp6, func(f *fakeCluster) {
			a := f.add(prevApp, yarn.AppRunning, nil)
			a.stats[prevJob] = yarn.CheckpointStats{Latest: yarn.LatestCheckpoints{Completed: completed(7, chk7, false), Savepoint: completed(9, sp9, true)}}
		}, sp9, "restoring from " + sp9 + " instead of " + sp6 + ": a newer savepoint was recorded"},
		{"checkpoint: a newer checkpoint, not the newer savepoint", model.RestoreCheckpoint, chk5, func(f *fakeCluster) {
			a := f.add(prevApp, yarn.AppRunning, nil)
			a.stats[prevJob] = yarn.CheckpointStats{Latest: yarn.LatestCheckpoints{Completed: completed(7, chk7, false), Savepoint: completed(9, sp9, true)}}
		}, chk7, "restoring from " + chk7 + " instead of " + chk5},
		{"latest: the JobManager confirms the recorded point", model.RestoreLatest, sp6, func(f *fakeCluster) {
			a := f.add(prevApp, yarn.AppRunning, nil)
			a.stats[prevJob] = yarn.CheckpointStats{Latest: yarn.LatestCheckpoints{Completed: completed(5, chk5, false), Savepoint: completed(6, sp6, true)}}
		}, sp6, "restore point checked with the JobManager of " + prevApp + ": " + sp6 + " is still the newest"},
		{"latest: the previous application ended", model.RestoreLatest, sp6, func(f *fakeCluster) {
			a := f.add(prevApp, yarn.AppFinished, nil)
			a.stats[prevJob] = yarn.CheckpointStats{Latest: yarn.LatestCheckpoints{Completed: completed(7, chk7, false)}}
		}, sp6, "the newest palink recorded (the previous run's JobManager is gone"},
		{"latest: the JobManager no longer knows the Flink job", model.RestoreLatest, sp6, func(f *fakeCluster) {
			f.add(prevApp, yarn.AppRunning, nil)
		}, sp6, "the newest palink recorded"},
		{"latest: the JobManager fails to answer", model.RestoreLatest, sp6, func(f *fakeCluster) {
			a := f.add(prevApp, yarn.AppRunning, nil)
			a.stats[prevJob] = yarn.CheckpointStats{Latest: yarn.LatestCheckpoints{Completed: completed(7, chk7, false)}}
			f.failing("/jm/"+prevApp+"/jobs/"+prevJob+"/checkpoints", http.StatusInternalServerError)
		}, sp6, "could not ask the JobManager of " + prevApp + " for its checkpoints"},
		{"latest: the RM fails to answer", model.RestoreLatest, sp6, func(f *fakeCluster) {
			f.add(prevApp, yarn.AppRunning, nil)
			f.failing("/ws/v1/cluster/apps/"+prevApp, http.StatusInternalServerError)
		}, sp6, "could not ask the JobManager of " + prevApp},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, recorded(), nil)
			if tc.cluster != nil {
				tc.cluster(b.f)
			}
			x := b.exec(model.CmdRestart, model.CommandParams{Restore: tc.choice, RestorePath: tc.accepted})
			got, err := x.checkRestore(b.ctx, b.cl, b.job)
			j, c := b.stored(x)
			if err != nil || got != tc.want {
				t.Fatalf("checkRestore = %q, %v; want %q\n%s", got, err, tc.want, logOf(c))
			}
			if c.Params.RestorePath != tc.want {
				t.Errorf("the command says it restores %q, want %q", c.Params.RestorePath, tc.want)
			}
			if !strings.Contains(logOf(c), tc.log) {
				t.Errorf("the command's log does not say %q:\n%s", tc.log, logOf(c))
			}
			// What the JobManager reported is recorded, so that the next
			// deploy (or a crash and resume) knows it too.
			if got == chk7 && (j.LatestCheckpoint == nil || j.LatestCheckpoint.Path != chk7 || j.LatestCheckpoint.CheckID != 7) {
				t.Errorf("the job's latest checkpoint is %+v, want chk-7 recorded", j.LatestCheckpoint)
			}
			if got == sp9 && (j.LatestSavepoint == nil || j.LatestSavepoint.Path != sp9) {
				t.Errorf("the job's latest savepoint is %+v, want savepoint 9 recorded", j.LatestSavepoint)
			}
		})
	}
}

// TestCheckRestoreNothingRecorded: a job that never checkpointed starts
// from empty state, and says so.
func TestCheckRestoreNothingRecorded(t *testing.T) {
	b := newBed(t, model.Job{AppID: prevApp, FlinkJobID: prevJob}, nil)
	a := b.f.add(prevApp, yarn.AppRunning, nil)
	a.stats[prevJob] = yarn.CheckpointStats{}
	x := b.exec(model.CmdRestart, model.CommandParams{Restore: model.RestoreLatest})
	got, err := x.checkRestore(b.ctx, b.cl, b.job)
	_, c := b.stored(x)
	if err != nil || got != "" {
		t.Fatalf("checkRestore = %q, %v; want empty state", got, err)
	}
	if want := "still the newest"; !strings.Contains(logOf(c), "empty state") || !strings.Contains(logOf(c), want) {
		t.Errorf("the log does not say it checked and starts from empty state:\n%s", logOf(c))
	}
}

// TestCheckRestoreRefusesADiscardedCheckpoint: the recorded checkpoint
// was subsumed and deleted by the cluster; restoring from it would fail
// the job at start, so the deploy fails first, naming it and the way out.
func TestCheckRestoreRefusesADiscardedCheckpoint(t *testing.T) {
	for _, choice := range []model.RestoreChoice{model.RestoreLatest, model.RestoreCheckpoint} {
		t.Run(choice.String(), func(t *testing.T) {
			j := recorded()
			j.LatestSavepoint = nil
			b := newBed(t, j, nil)
			a := b.f.add(prevApp, yarn.AppRunning, nil)
			a.stats[prevJob] = yarn.CheckpointStats{History: []yarn.Checkpoint{
				{ID: 6, Status: "COMPLETED", ExternalPath: "hdfs:///flink/checkpoints/orders/chk-6"},
				{ID: 5, Status: "COMPLETED", ExternalPath: chk5, Discarded: true},
			}}
			x := b.exec(model.CmdRestart, model.CommandParams{Restore: choice, RestorePath: chk5})
			got, err := x.checkRestore(b.ctx, b.cl, b.job)
			if err == nil || !strings.Contains(err.Error(), "the restore point "+chk5+" was discarded by the cluster") ||
				!strings.Contains(err.Error(), "resubmit --restore") {
				t.Fatalf("checkRestore = %q, %v; want chk-5 refused as discarded", got, err)
			}
		})
	}
}

// TestCheckRestoreFailsCleanly: the store cannot take what the JobManager
// reported (the job is gone), or another process took the command over
// meanwhile: the deploy stops with the reason, restoring from nothing.
func TestCheckRestoreFailsCleanly(t *testing.T) {
	t.Run("the job is gone from the store", func(t *testing.T) {
		b := newBed(t, recorded(), nil)
		a := b.f.add(prevApp, yarn.AppRunning, nil)
		a.stats[prevJob] = yarn.CheckpointStats{Latest: yarn.LatestCheckpoints{Completed: completed(7, chk7, false)}}
		x := b.exec(model.CmdRestart, model.CommandParams{Restore: model.RestoreLatest, RestorePath: sp6})
		gone := b.job
		gone.ID = "j-deleted"
		if got, err := x.checkRestore(b.ctx, b.cl, gone); err == nil || !strings.Contains(err.Error(), `job "j-deleted"`) {
			t.Fatalf("checkRestore = %q, %v; want the store's error naming the job", got, err)
		}
	})
	t.Run("the store fails to record the JobManager's point", func(t *testing.T) {
		full := errors.New("disk full")
		b := newBed(t, recorded(), func(o *Options) { o.Store = failingStore{Store: o.Store, addErr: full} })
		a := b.f.add(prevApp, yarn.AppRunning, nil)
		a.stats[prevJob] = yarn.CheckpointStats{Latest: yarn.LatestCheckpoints{Completed: completed(7, chk7, false)}}
		x := b.exec(model.CmdRestart, model.CommandParams{Restore: model.RestoreLatest, RestorePath: sp6})
		if got, err := x.checkRestore(b.ctx, b.cl, b.job); !errors.Is(err, full) {
			t.Fatalf("checkRestore = %q, %v; want the store's error", got, err)
		}
		if j, c := b.stored(x); j.LatestCheckpoint.Path != chk5 || c.Params.RestorePath != sp6 {
			t.Errorf("after the failure the job's latest checkpoint is %s and the command restores %s; want both unchanged (chk-5, savepoint 6)",
				j.LatestCheckpoint.Path, c.Params.RestorePath)
		}
	})
	t.Run("the lease was lost", func(t *testing.T) {
		b := newBed(t, recorded(), nil)
		a := b.f.add(prevApp, yarn.AppRunning, nil)
		a.stats[prevJob] = yarn.CheckpointStats{Latest: yarn.LatestCheckpoints{Completed: completed(7, chk7, false)}}
		x := b.exec(model.CmdRestart, model.CommandParams{Restore: model.RestoreLatest, RestorePath: sp6})
		x.s.owner = "another process"
		if got, err := x.checkRestore(b.ctx, b.cl, b.job); !errors.Is(err, errLeaseLost) {
			t.Fatalf("checkRestore = %q, %v; want errLeaseLost", got, err)
		}
	})
}

// TestCheckRestoreUsesOnlyPointsKnownToExist: at deploy time the restore
// point is decided again by what Flink kept: a paused job's checkpoint is
// refused for "checkpoint", "latest" passes over it, and a command
// accepted with a point that has since proved missing fails rather than
// start from empty state unasked.
func TestCheckRestoreUsesOnlyPointsKnownToExist(t *testing.T) {
	paused := recorded()
	paused.LatestSavepoint = nil
	paused.LatestCheckpoint.RunEnd, paused.LatestCheckpoint.Retention = model.EndFinished, model.RetainOnCancellation
	t.Run("checkpoint of a paused job", func(t *testing.T) {
		b := newBed(t, paused, nil)
		x := b.exec(model.CmdResubmit, model.CommandParams{Restore: model.RestoreCheckpoint, RestorePath: chk5})
		got, err := x.checkRestore(b.ctx, b.cl, b.job)
		if err == nil || !strings.Contains(err.Error(), "Flink discarded chk-5 when the job FINISHED (retention RETAIN_ON_CANCELLATION keeps checkpoints only after cancel or failure)") {
			t.Fatalf("checkRestore = %q, %v; want chk-5 refused", got, err)
		}
	})
	t.Run("latest of a paused job accepted with its checkpoint", func(t *testing.T) {
		b := newBed(t, paused, nil)
		x := b.exec(model.CmdRestart, model.CommandParams{Restore: model.RestoreLatest, RestorePath: chk5})
		got, err := x.checkRestore(b.ctx, b.cl, b.job)
		if err == nil || !strings.Contains(err.Error(), "the restore point "+chk5+" this command was accepted with is gone (Flink discarded chk-5") {
			t.Fatalf("checkRestore = %q, %v; want a refusal rather than empty state", got, err)
		}
	})
	t.Run("latest passes over a missing checkpoint to the savepoint", func(t *testing.T) {
		j := recorded()
		j.LatestCheckpoint.SeenAt = j.LatestSavepoint.SeenAt.Add(time.Hour)
		j.LatestCheckpoint.CheckID = 0
		j.LatestCheckpoint.Status, j.LatestCheckpoint.Error = model.SavepointMissing, "Cannot find checkpoint or savepoint file/directory"
		b := newBed(t, j, nil)
		x := b.exec(model.CmdRestart, model.CommandParams{Restore: model.RestoreLatest, RestorePath: chk5})
		got, err := x.checkRestore(b.ctx, b.cl, b.job)
		_, c := b.stored(x)
		if err != nil || got != sp6 || !strings.Contains(logOf(c), "passed over a newer restore point: the cluster could not find the checkpoint chk-5") {
			t.Fatalf("checkRestore = %q, %v; want savepoint 6, saying why\n%s", got, err, logOf(c))
		}
	})
}

// TestRestoreAgeGuardCoversCheckpoints: savepoints.max_restore_age guards
// a checkpoint as it guards a savepoint (like the Flink Kubernetes
// operator's job.upgrade.last-state.max.allowed.checkpoint.age): a person
// is asked to force it; the restart policy, which cannot, stops and says
// why instead of trying again every tick.
func TestRestoreAgeGuardCoversCheckpoints(t *testing.T) {
	old := recorded()
	old.LatestSavepoint = nil
	old.State = model.StateFailed
	old.LatestCheckpoint.RunEnd, old.LatestCheckpoint.Retention = model.EndFailed, model.RetainOnCancellation
	old.LatestCheckpoint.SeenAt = time.Now().Add(-100 * time.Hour)
	old.NextRestart = time.Now().Add(-time.Second)
	b := newBed(t, old, func(o *Options) { o.Savepoints.MaxRestoreAge = 72 * time.Hour })
	p, err := b.s.Plan(b.ctx, api.ActionRequest{JobRef: "orders", Kind: model.CmdRestart})
	if err != nil || p.Allowed || !strings.Contains(p.Reason, "the checkpoint "+chk5+" is 100h0m0s old, older than the 72h0m0s allowed") {
		t.Errorf("restart from a 100h old checkpoint: allowed %v %q %v", p.Allowed, p.Reason, err)
	}
	if p, _ := b.s.Plan(b.ctx, api.ActionRequest{JobRef: "orders", Kind: model.CmdRestart, Force: true}); !p.Allowed || p.Restore != chk5 {
		t.Errorf("forced: allowed %v from %q (%s)", p.Allowed, p.Restore, p.Reason)
	}
	if err := b.s.startDueRestarts(b.ctx); err != nil {
		t.Fatal(err)
	}
	var (
		j  model.Job
		cs []model.Command
		ev []model.Event
	)
	if err := b.st.View(b.ctx, func(tx store.ReadTx) error {
		var err error
		if j, err = tx.Job("j1"); err != nil {
			return err
		}
		if cs, err = tx.Commands(store.CommandFilter{JobID: "j1"}); err != nil {
			return err
		}
		ev, err = tx.Events("j1", 0, 0)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(cs) != 0 || !j.NextRestart.IsZero() || !strings.Contains(j.Diagnostics, "restart policy stopped: the checkpoint "+chk5+" is 100h0m0s old") {
		t.Fatalf("after the due restart: %d commands, next restart %s, diagnostics %q", len(cs), j.NextRestart, j.Diagnostics)
	}
	if len(ev) == 0 || !strings.Contains(ev[len(ev)-1].Reason, "restart policy stopped") {
		t.Errorf("no event says the policy stopped: %+v", ev)
	}
	// A path typed by hand that palink knows Flink discarded: refused unless forced.
	gone := recorded()
	gone.State = model.StateFinished
	gone.LatestCheckpoint.RunEnd = model.EndFinished
	b = newBed(t, gone, nil)
	req := api.ActionRequest{JobRef: "orders", Kind: model.CmdResubmit, Restore: model.RestorePath, RestorePath: chk5}
	if p, _ := b.s.Plan(b.ctx, req); p.Allowed || !strings.Contains(p.Reason, "Flink discarded chk-5 when the job FINISHED") || !strings.Contains(p.Reason, "force it") {
		t.Errorf("resubmit from a discarded path: allowed %v %q", p.Allowed, p.Reason)
	}
	req.Force = true
	if p, _ := b.s.Plan(b.ctx, req); !p.Allowed {
		t.Errorf("forced resubmit from a discarded path: %q", p.Reason)
	}
}
