package core_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// TestDeployRefusesALiveApplication checks the deploy-time refusal on its
// own, past CanAct: a deploy command written straight into the store (as a
// bug, a race between two palinks, or an old store could leave it) must
// still refuse while the job has a live application, whichever way that
// application is known — only by its tags (the job lost its AppID), or only
// by the recorded AppID (an adopted application carries no palink tags).
func TestDeployRefusesALiveApplication(t *testing.T) {
	cases := []struct {
		name  string
		setup func(e *coretest.Env) model.Job
	}{
		{"found by its tag only", func(e *coretest.Env) model.Job {
			e.CreateSQL("tagged")
			if c := e.Act("tagged", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
				e.T.Fatalf("submit: %s", c.Error)
			}
			return e.SyncUntil("tagged", "RUNNING", coretest.Running)
		}},
		{"found by the recorded AppID only", func(e *coretest.Env) model.Job {
			sub, err := e.Sim.Submit(e.Ctx, sim.SubmitRequest{Name: "legacy", JobName: "legacy"})
			if err != nil {
				e.T.Fatal(err)
			}
			if _, err := e.Svc.Adopt(e.Ctx, api.AdoptRequest{Cluster: "sim", AppID: sub.AppID, Name: "legacy"}); err != nil {
				e.T.Fatal(err)
			}
			j := e.SyncUntil("legacy", "RUNNING", coretest.Running)
			if a, _ := e.Sim.App(j.AppID); len(a.Tags) != 0 {
				e.T.Fatalf("the adopted application has tags %v; the case needs none", a.Tags)
			}
			return j
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := coretest.New(t, sim.Options{}, nil)
			j := tc.setup(e)
			app := j.AppID
			var id string
			err := e.St.Update(e.Ctx, func(tx store.Tx) error {
				cur, err := tx.Job(j.ID)
				if err != nil {
					return err
				}
				if tc.name == "found by its tag only" {
					cur.AppID = ""
				}
				cur.State = model.StateDeploying
				if err := tx.PutJob(cur); err != nil {
					return err
				}
				c, err := tx.PutCommand(model.Command{JobID: j.ID, Kind: model.CmdResubmit, State: model.CmdUndo, Issuer: "test",
					Params: model.CommandParams{Restore: model.RestoreNone, SpecVersion: 1}, CreatedAt: time.Now()})
				id = c.ID
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(e.Ctx, time.Minute)
			defer cancel()
			c, err := e.Svc.WaitCommand(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if c.State != model.CmdFailed || !strings.Contains(c.Error, "refusing to start "+j.Name+": its application "+app+" is still RUNNING") {
				t.Fatalf("deploy past CanAct while %s lives: %s %q\n%v", app, c.State, c.Error, coretest.LogTexts(c))
			}
			var live int
			for _, a := range e.Sim.Apps() {
				if a.State == "RUNNING" || a.State == "ACCEPTED" || a.State == "SUBMITTED" {
					live++
				}
			}
			if live != 1 {
				t.Errorf("%d live applications on the cluster, want the one that was there", live)
			}
		})
	}
}

// TestRestartWaitsOutAJobManagerThatStillSaysRunning: right after a pause,
// the per-job cluster's JobManager may list the stopped job as RUNNING a
// moment longer while it shuts down. A restart or a resubmit waits that out
// (up to EndingGrace) instead of refusing; a JobManager that goes on saying
// RUNNING past the grace is refused with its application named.
func TestRestartWaitsOutAJobManagerThatStillSaysRunning(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kind  model.CommandKind
		stale time.Duration // simulated: 30× the wall clock here, against a grace of 3s
		want  model.CommandState
	}{
		{"shorter than the grace", model.CmdRestart, 90 * time.Second, model.CmdSucceeded},
		{"longer than the grace", model.CmdRestart, 30 * time.Minute, model.CmdFailed},
		{"resubmit, shorter than the grace", model.CmdResubmit, 90 * time.Second, model.CmdSucceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := coretest.New(t, sim.Options{}, nil)
			e.CreateSQL("paused")
			if c := e.Act("paused", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
				t.Fatalf("submit: %s", c.Error)
			}
			j := e.SyncUntil("paused", "RUNNING", coretest.Running)
			f := e.Sim.Faults()
			f.StaleStatus = tc.stale
			if err := e.Sim.SetFaults(f); err != nil {
				t.Fatal(err)
			}
			if c := e.Act("paused", model.CmdPause, 0); c.State != model.CmdSucceeded {
				t.Fatalf("pause: %s %s", c.State, c.Error)
			}
			if a, _ := e.Sim.App(j.AppID); a.State != "RUNNING" {
				t.Fatalf("the paused job's cluster is already %s: the case needs it still shutting down", a.State)
			}
			c := e.Act("paused", tc.kind, model.RestoreLatest)
			log := strings.Join(coretest.LogTexts(c), "\n")
			if c.State != tc.want {
				t.Fatalf("%s: %s %s\n%s", tc.kind, c.State, c.Error, log)
			}
			if tc.want == model.CmdFailed && !strings.Contains(c.Error, "its application "+j.AppID+" is still RUNNING") {
				t.Errorf("refusal does not name the application: %q", c.Error)
			}
			if n := strings.Count(log, "the JobManager of "+j.AppID+" still lists a job as running"); n != 1 {
				t.Errorf("the %s's log says %d times that it waits for the old cluster, want once:\n%s", tc.kind, n, log)
			}
		})
	}
}
