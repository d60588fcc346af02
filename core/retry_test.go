package core_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// waitLog waits until the command's log has a line containing text.
func waitLog(e *coretest.Env, id, text string) model.Command {
	e.T.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		c, err := e.Svc.Command(e.Ctx, id)
		if err != nil {
			e.T.Fatal(err)
		}
		if strings.Contains(strings.Join(coretest.LogTexts(c), "\n"), text) {
			return c
		}
		if c.State.Final() || time.Now().After(deadline) {
			e.T.Fatalf("%s #%d never logged %q: %s %s\n%v", c.Kind, c.Seq, text, c.State, c.Error, coretest.LogTexts(c))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTransientFailuresAreRetried: a command whose step meets a transient
// cluster error (here every answer a 5xx for a moment) tries again after a
// backoff, reconciling first, and succeeds once the cluster recovers; the
// log shows each failed try. Without retries the deploy ends FAILED and the
// job DEPLOY_FAILED although the cluster came back.
func TestTransientFailuresAreRetried(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	j := e.CreateSQL("flaky")
	set := func(spec string) {
		f, err := sim.ParseFaults(spec)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Sim.SetFaults(f); err != nil {
			t.Fatal(err)
		}
	}

	set("gateway:5xx=1")
	c, err := e.Svc.Act(e.Ctx, api.ActionRequest{JobRef: "flaky", Kind: model.CmdSubmit})
	if err != nil {
		t.Fatal(err)
	}
	waitLog(e, c.ID, "try 1 of 5 failed on a transient cluster error")
	set("")
	ctx, cancel := context.WithTimeout(e.Ctx, time.Minute)
	defer cancel()
	if c, err = e.Svc.WaitCommand(ctx, c.ID); err != nil || c.State != model.CmdSucceeded {
		t.Fatalf("submit after the gateway recovered: %s %s %v\n%v", c.State, c.Error, err, coretest.LogTexts(c))
	}
	if n := len(e.LiveApps(j.ID)); n != 1 {
		t.Errorf("%d live applications, want 1", n)
	}
	e.SyncUntil("flaky", "RUNNING", coretest.Running)

	set("rm:5xx=1")
	c, err = e.Svc.Act(e.Ctx, api.ActionRequest{JobRef: "flaky", Kind: model.CmdKill})
	if err != nil {
		t.Fatal(err)
	}
	waitLog(e, c.ID, "try 1 of 5 failed on a transient cluster error")
	set("")
	if c, err = e.Svc.WaitCommand(ctx, c.ID); err != nil || c.State != model.CmdSucceeded {
		t.Fatalf("kill after the RM recovered: %s %s %v\n%v", c.State, c.Error, err, coretest.LogTexts(c))
	}
	if n := len(e.LiveApps(j.ID)); n != 0 {
		t.Errorf("%d live applications after the kill", n)
	}
	if got := e.Job("flaky").State; got != model.StateKilled {
		t.Errorf("job is %s, want KILLED", got)
	}
}

// TestRequestErrorsAreNotRetried: a statement the gateway rejects as
// invalid fails at once; retrying cannot mend it.
func TestRequestErrorsAreNotRetried(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "bad", Cluster: "sim", Kind: model.KindSQL,
		Spec: model.Spec{SQL: "CREATE TABLE t (id BIGINT) WITH ('connector' = 'datagen');\nINSERT INTO nowhere SELECT id FROM t;"}}); err != nil {
		t.Fatal(err)
	}
	c := e.Act("bad", model.CmdSubmit, 0)
	if c.State != model.CmdFailed {
		t.Fatalf("submit of an invalid statement: %s\n%v", c.State, coretest.LogTexts(c))
	}
	if strings.Contains(strings.Join(coretest.LogTexts(c), "\n"), "transient") {
		t.Errorf("a request error was retried: %v", coretest.LogTexts(c))
	}
}

// TestResubmitAfterKillRestoresACheckpointThatExists: palink synced a
// checkpoint, then the job went on checkpointing (each new one discards
// the one before: num-retained 1) without palink looking. A kill asks the
// JobManager for its newest checkpoint before it strikes, so a resubmit
// from "latest" restores one that still exists instead of failing with
// FileNotFoundException on the one palink saw last.
func TestResubmitAfterKillRestoresACheckpointThatExists(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	j := e.CreateSQL("ckpt")
	if c := e.Act("ckpt", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	j = e.SyncUntil("ckpt", "a checkpoint", func(j model.Job) bool { return coretest.Running(j) && j.LatestCheckpoint != nil })
	seen := j.LatestCheckpoint.Path
	newest := func() string {
		a, _ := e.Sim.App(j.AppID)
		for _, fj := range a.Jobs {
			return fj.LatestCheckpoint
		}
		return ""
	}
	for deadline := time.Now().Add(time.Minute); newest() == seen; {
		if time.Now().After(deadline) {
			t.Fatal("the job never took another checkpoint")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if c := e.Act("ckpt", model.CmdKill, 0); c.State != model.CmdSucceeded {
		t.Fatalf("kill: %s %s", c.State, c.Error)
	}
	killed := e.Job("ckpt")
	if killed.LatestCheckpoint == nil || killed.LatestCheckpoint.Path == seen {
		t.Fatalf("the kill did not record the newest checkpoint: %+v (palink had %s)", killed.LatestCheckpoint, seen)
	}
	c := e.Act("ckpt", model.CmdResubmit, model.RestoreLatest)
	if c.State != model.CmdSucceeded || c.Params.RestorePath != killed.LatestCheckpoint.Path {
		t.Fatalf("resubmit: %s %s from %q\n%v", c.State, c.Error, c.Params.RestorePath, coretest.LogTexts(c))
	}
	// The command's log says what it restores from, not "empty state".
	if log := strings.Join(coretest.LogTexts(c), "\n"); !strings.Contains(log, "restoring from "+killed.LatestCheckpoint.Path) ||
		strings.Contains(log, "empty state") {
		t.Errorf("the resubmit's log does not say it restores from %s:\n%s", killed.LatestCheckpoint.Path, log)
	}
	j = e.SyncUntil("ckpt", "RUNNING restored", func(j model.Job) bool { return coretest.Running(j) || j.State == model.StateFailed })
	if j.State != model.StateRunning || j.RestoredFrom != killed.LatestCheckpoint.Path {
		t.Fatalf("after resubmit: %s restored from %q: %s", j.State, j.RestoredFrom, j.Diagnostics)
	}
}
