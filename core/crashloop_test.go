package core_test

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// Failures as the simulator's tasks die of them (yarn/sim/failures.go):
// an async lookup that times out on a record, which Flink's
// AsyncWaitOperator names; and two that name none.
const (
	asyncTimeout = "java.util.concurrent.TimeoutException: Async function call has timed out."
	npe          = `java.lang.NullPointerException: Cannot invoke "String.length()" because "key" is null`
	connReset    = "java.io.IOException: Connection reset by peer"
)

// loopingJob submits a job that checkpoints every two simulated minutes
// (so that a run restored from a checkpoint dies before it takes the
// next) and waits for its first checkpoint.
func loopingJob(e *coretest.Env, name string) model.Job {
	e.T.Helper()
	createJob(e, name, map[string]string{"execution.checkpointing.interval": "2min", decide.RetentionKey: "RETAIN_ON_CANCELLATION"})
	if c := e.Act(name, model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		e.T.Fatalf("submit: %s %s", c.State, c.Error)
	}
	return e.SyncUntil(name, "a checkpoint", func(j model.Job) bool { return coretest.Running(j) && j.LatestCheckpoint != nil })
}

// failRun fails the job's current run with cause while its newest
// checkpoint is at ("" for none since it started), as soon as its Flink
// job runs, and syncs until palink sees it FAILED.
func failRun(e *coretest.Env, name, cause, at string) model.Job {
	e.T.Helper()
	j := e.Job(name)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if a, err := e.Sim.App(j.AppID); err == nil && len(a.Jobs) > 0 && a.Jobs[0].State == "RUNNING" {
			break
		}
		if time.Now().After(deadline) {
			e.T.Fatalf("%s: the Flink job of %s never ran", name, j.AppID)
		}
	}
	failed, err := e.Sim.FailJobAs(j.AppID, sim.Failure{Cause: cause, OnlyAt: true, At: at})
	if err != nil {
		e.T.Fatal(err)
	}
	if !failed {
		e.T.Fatalf("%s: a checkpoint completed before the failure (want the newest %q)", name, at)
	}
	return e.SyncUntil(name, "FAILED", func(j model.Job) bool { return j.State == model.StateFailed })
}

// restartFrom restarts the job as `r` does (the latest restore point) and
// checks it restores from want.
func restartFrom(e *coretest.Env, name, want string) {
	e.T.Helper()
	c := e.Act(name, model.CmdRestart, model.RestoreLatest)
	if c.State != model.CmdSucceeded || c.Params.RestorePath != want {
		e.T.Fatalf("restart: %s %s from %q, want from %s", c.State, c.Error, c.Params.RestorePath, want)
	}
}

// TestCrashLoopAfterThreeFailuresFromOneCheckpoint: a job that dies on
// the same record each time it restores from checkpoint P is said to
// crash-loop from the second such failure, with the cause, the record, P
// and how many runs; a restart's plan says that restoring P replays it;
// once a run checkpoints past P, the loop is over.
func TestCrashLoopAfterThreeFailuresFromOneCheckpoint(t *testing.T) {
	e := coretest.New(t, sim.Options{Speed: 60}, nil)
	p := loopingJob(e, "poison").LatestCheckpoint.Path
	// The first failure: its run restored from nothing.
	if j := failRun(e, "poison", asyncTimeout, p); j.CrashLoop != nil {
		t.Fatalf("after one failure: %+v", j.CrashLoop)
	}
	for n := 1; n <= 3; n++ {
		restartFrom(e, "poison", p)
		j := failRun(e, "poison", asyncTimeout, "")
		if n < decide.CrashLoopMin {
			if j.CrashLoop != nil {
				t.Fatalf("after %d failure from %s: %+v", n, p, j.CrashLoop)
			}
			continue
		}
		loop := j.CrashLoop
		if loop == nil {
			t.Fatalf("after %d failures from %s: no crash loop", n, p)
		}
		if loop.Count != n || loop.RestorePoint != p || loop.Cause != asyncTimeout ||
			loop.Record != "+I(1042,42.50,2024-11-28T09:01:02)" || loop.RestoreTime.IsZero() {
			t.Errorf("after %d failures from %s: %+v", n, p, *loop)
		}
	}
	d, err := e.Svc.Job(e.Ctx, "poison")
	if err != nil {
		t.Fatal(err)
	}
	chk := model.PointName(p)
	want := "3 restarts from " + chk + " failed with the same TimeoutException on +I(1042,…) — restoring " + chk + " again will replay it"
	if got := d.Job.CrashLoop.Sentence(); got != want {
		t.Errorf("sentence:\n got %s\nwant %s", got, want)
	}
	noted := false
	for _, ev := range d.Events {
		noted = noted || ev.Reason == "crash loop: "+want
	}
	if !noted {
		t.Errorf("the timeline does not say it: %+v", d.Events)
	}
	// Restarting from P again is planned with the warning; from none,
	// without.
	plan, err := e.Svc.Plan(e.Ctx, api.ActionRequest{JobRef: "poison", Kind: model.CmdRestart})
	if err != nil {
		t.Fatal(err)
	}
	if plan.CrashLoop == nil || plan.CrashLoop.Count != 3 || !containsText(plan.Warnings, want) {
		t.Errorf("restart plan: %+v", plan)
	}
	plan, err = e.Svc.Plan(e.Ctx, api.ActionRequest{JobRef: "poison", Kind: model.CmdResubmit, Restore: model.RestoreNone})
	if err != nil {
		t.Fatal(err)
	}
	if plan.CrashLoop != nil || containsText(plan.Warnings, "replay") {
		t.Errorf("resubmit from none is planned as if it replayed the loop: %+v", plan)
	}
	// A run that gets past P ends the loop.
	restartFrom(e, "poison", p)
	j := e.SyncUntil("poison", "a checkpoint past "+chk, func(j model.Job) bool {
		return j.LatestCheckpoint != nil && j.LatestCheckpoint.Path != p
	})
	if j.CrashLoop != nil {
		t.Errorf("still a crash loop after checkpoint %s: %+v", j.LatestCheckpoint.Path, *j.CrashLoop)
	}
}

// TestNoCrashLoopWhenTheCausesDiffer: three failures from one checkpoint,
// each of another cause, are no crash loop.
func TestNoCrashLoopWhenTheCausesDiffer(t *testing.T) {
	e := coretest.New(t, sim.Options{Speed: 60}, nil)
	p := loopingJob(e, "flaky").LatestCheckpoint.Path
	failRun(e, "flaky", npe, p)
	// The first restart fails as the first run did, which restored from
	// nothing: no two runs from p agree.
	for _, cause := range []string{npe, asyncTimeout, connReset} {
		restartFrom(e, "flaky", p)
		if j := failRun(e, "flaky", cause, ""); j.CrashLoop != nil {
			t.Errorf("after a failure with %s: %+v", cause, *j.CrashLoop)
		}
	}
}

func containsText(lines []string, s string) bool {
	for _, l := range lines {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}
