package scheduler

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

const trigger = "7f3a21aa7f3a21aa7f3a21aa7f3a21aa"

// running is a RUNNING job of the fake cluster's application prevApp.
func running() model.Job {
	j := recorded()
	j.State = model.StateRunning
	j.LatestCheckpoint.RunEnd = model.EndUnknown
	return j
}

// TestReconcileSavepoint: what an UNKNOWN PAUSE finds out, by what the
// cluster shows: decided only on evidence (the trigger's status, the job's
// state and checkpoint history, YARN's final status), otherwise asked
// again; SUCCEEDED whenever the stop took effect.
func TestReconcileSavepoint(t *testing.T) {
	statusPath := "/jm/" + prevApp + "/jobs/" + prevJob + "/savepoints/" + trigger
	for _, tc := range []struct {
		name    string
		cluster func(a *fakeApp, f *fakeCluster)
		decided bool
		err     string         // a fragment of the error it ends FAILED with ("" none)
		state   model.JobState // the job after the command ends (decided only)
		sp      string         // the savepoint recorded
	}{
		{"the trigger completed", func(a *fakeApp, _ *fakeCluster) { a.ops[trigger] = fakeOp{done: true, location: sp9} },
			true, "", model.StateFinished, sp9},
		{"the trigger failed: the job runs on", func(a *fakeApp, _ *fakeCluster) {
			a.ops[trigger] = fakeOp{done: true, failure: "org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint expired"}
		}, true, "Checkpoint expired", model.StateRunning, sp6},
		{"still in progress", func(a *fakeApp, _ *fakeCluster) { a.ops[trigger] = fakeOp{} }, false, "", 0, ""},
		{"the JobManager answers 500", func(a *fakeApp, f *fakeCluster) {
			a.ops[trigger] = fakeOp{done: true, location: sp9}
			f.failing(statusPath, http.StatusInternalServerError)
		}, false, "", 0, ""},
		{"the RM answers 500", func(_ *fakeApp, f *fakeCluster) {
			f.failing("/ws/v1/cluster/apps/"+prevApp, http.StatusInternalServerError)
		},
			false, "", 0, ""},
		{"trigger forgotten, job FINISHED: the savepoint from its history", func(a *fakeApp, _ *fakeCluster) {
			a.jobs = []yarn.JobOverview{{ID: prevJob, State: "FINISHED"}}
			a.stats[prevJob] = yarn.CheckpointStats{Latest: yarn.LatestCheckpoints{Savepoint: completed(9, sp9, true)}}
		}, true, "", model.StateFinished, sp9},
		{"trigger forgotten, job FINISHED, history unreadable", func(a *fakeApp, f *fakeCluster) {
			a.jobs = []yarn.JobOverview{{ID: prevJob, State: "FINISHED"}}
			f.failing("/jm/"+prevApp+"/jobs/"+prevJob+"/checkpoints", http.StatusInternalServerError)
		}, false, "", 0, ""},
		{"trigger unknown, job RUNNING: the stop never arrived", func(a *fakeApp, _ *fakeCluster) {
			a.jobs = []yarn.JobOverview{{ID: prevJob, State: "RUNNING"}}
		}, true, "did not take effect", model.StateRunning, sp6},
		{"trigger unknown, job CANCELED", func(a *fakeApp, _ *fakeCluster) {
			a.jobs = []yarn.JobOverview{{ID: prevJob, State: "CANCELED"}}
		}, true, "is CANCELED", model.StateRunning, sp6},
		{"the per-job cluster stopped and went", func(a *fakeApp, _ *fakeCluster) {
			a.app.State, a.app.FinalStatus = yarn.AppFinished, yarn.FinalSucceeded
		}, true, "", model.StateFinished, sp6},
		{"the per-job cluster ended otherwise", func(a *fakeApp, _ *fakeCluster) {
			a.app.State, a.app.FinalStatus = yarn.AppFinished, "KILLED"
		}, true, "not stopped", model.StateRunning, sp6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, running(), nil)
			a := b.f.add(prevApp, yarn.AppRunning, nil)
			tc.cluster(a, b.f)
			x := b.exec(model.CmdPause, model.CommandParams{TriggerID: trigger, AppID: prevApp, FlinkJobID: prevJob})
			decided, err := reconciliation{x}.savepoint(b.ctx, true)
			if decided != tc.decided {
				t.Fatalf("decided %v (%v), want %v", decided, err, tc.decided)
			}
			if !decided {
				if err == nil {
					t.Error("undecided without saying why")
				}
				return
			}
			if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("ends with %v, want %q", err, tc.err)
			}
			b.s.finish(x, err)
			j, c := b.stored(x)
			want := model.CmdSucceeded
			if tc.err != "" {
				want = model.CmdFailed
			}
			if c.State != want || j.State != tc.state || j.LatestSavepoint == nil || j.LatestSavepoint.Path != tc.sp {
				t.Errorf("command %s, job %s with savepoint %+v; want %s, %s with %s\n%s", c.State, j.State, j.LatestSavepoint, want, tc.state, tc.sp, logOf(c))
			}
			if tc.state == model.StateFinished && (j.LatestCheckpoint.RunEnd != model.EndFinished) {
				t.Errorf("the stopped run's checkpoint is not marked FINISHED: %+v", j.LatestCheckpoint)
			}
		})
	}
}

// TestReconcileKill: an UNKNOWN KILL is SUCCEEDED once its application
// ended or is gone, asked again while the RM does not answer or the
// application still runs, and FAILED only when it still runs long after.
func TestReconcileKill(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cluster func(a *fakeApp, f *fakeCluster)
		settled bool // the kill was sent long ago
		decided bool
		err     string
	}{
		{"killed", func(a *fakeApp, _ *fakeCluster) { a.app.State, a.app.FinalStatus = yarn.AppKilled, "KILLED" }, false, true, ""},
		{"gone from the RM", func(_ *fakeApp, f *fakeCluster) {
			f.mu.Lock()
			delete(f.apps, prevApp)
			f.mu.Unlock()
		}, false, true, ""},
		{"the RM answers 500", func(_ *fakeApp, f *fakeCluster) {
			f.failing("/ws/v1/cluster/apps/"+prevApp, http.StatusInternalServerError)
		},
			true, false, ""},
		{"still running: the kill may be on its way", func(*fakeApp, *fakeCluster) {}, false, false, ""},
		{"still running long after", func(*fakeApp, *fakeCluster) {}, true, true, "did not take effect"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, running(), nil)
			tc.cluster(b.f.add(prevApp, yarn.AppRunning, nil), b.f)
			x := b.exec(model.CmdKill, model.CommandParams{AppID: prevApp, FlinkJobID: prevJob})
			x.eff.unknownSince = time.Now()
			if tc.settled {
				x.eff.unknownSince = time.Now().Add(-2 * killSettle)
			}
			decided, err := reconciliation{x}.kill(b.ctx)
			if decided != tc.decided || (decided && ((err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)))) {
				t.Fatalf("decided %v with %v; want %v with %q", decided, err, tc.decided, tc.err)
			}
			if decided && err == nil {
				b.s.finish(x, nil)
				if j, c := b.stored(x); c.State != model.CmdSucceeded || j.State != model.StateKilled || j.LatestCheckpoint.RunEnd != model.EndKilled {
					t.Errorf("command %s, job %s, checkpoint %+v", c.State, j.State, j.LatestCheckpoint)
				}
			}
		})
	}
}

// TestAnUnknownCommandIsReconciledNeverSentAgain: a PAUSE whose status
// polls all failed ends its tries UNKNOWN, not FAILED, and is reconciled
// once the JobManager answers; one left UNKNOWN by a palink that died is
// reclaimed and reconciled the same way, its stop never sent a second time.
func TestAnUnknownCommandIsReconciledNeverSentAgain(t *testing.T) {
	statusPath := "/jm/" + prevApp + "/jobs/" + prevJob + "/savepoints/" + trigger
	stopPath := "/jm/" + prevApp + "/jobs/" + prevJob + "/stop"
	t.Run("its tries spent on answers that were lost", func(t *testing.T) {
		b := newBed(t, running(), func(o *Options) { o.Tries, o.RetryBackoff = 2, time.Millisecond })
		a := b.f.add(prevApp, yarn.AppRunning, nil)
		a.ops[trigger] = fakeOp{done: true, location: sp9}
		b.f.failing(statusPath, http.StatusInternalServerError)
		x := b.exec(model.CmdPause, model.CommandParams{TriggerID: trigger, AppID: prevApp, FlinkJobID: prevJob})
		done := make(chan struct{})
		go func() { defer close(done); b.s.execute(b.ctx, x.cmd) }()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			if _, c := b.stored(x); c.State == model.CmdUnknown {
				break
			} else if c.State.Final() || time.Now().After(deadline) {
				t.Fatalf("the command is %s, want UNKNOWN: %s\n%s", c.State, c.Error, logOf(c))
			}
		}
		b.f.healed(statusPath)
		<-done
		j, c := b.stored(x)
		if c.State != model.CmdSucceeded || j.State != model.StateFinished || j.LatestSavepoint.Path != sp9 {
			t.Fatalf("command %s, job %s, savepoint %s\n%s", c.State, j.State, j.LatestSavepoint.Path, logOf(c))
		}
		if !strings.Contains(logOf(c), "UNKNOWN until YARN and Flink show what happened") {
			t.Errorf("the log does not say why it was UNKNOWN:\n%s", logOf(c))
		}
	})
	t.Run("reclaimed after its palink died", func(t *testing.T) {
		b := newBed(t, running(), nil)
		a := b.f.add(prevApp, yarn.AppRunning, nil)
		a.ops[trigger] = fakeOp{done: true, location: sp9}
		var c model.Command
		if err := b.st.Update(b.ctx, func(tx store.Tx) error {
			var err error
			c, err = tx.PutCommand(model.Command{JobID: b.job.ID, Kind: model.CmdPause, State: model.CmdUnknown, Attempts: 1,
				Params:     model.CommandParams{TriggerID: trigger, AppID: prevApp, FlinkJobID: prevJob},
				LeaseOwner: "ops-2 pid 1 #dead", LeaseUntil: time.Now().Add(-time.Second), CreatedAt: time.Now()})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		claimed, err := b.s.claim(b.ctx, 10, nil)
		if err != nil || len(claimed) != 1 || claimed[0].State != model.CmdUnknown {
			t.Fatalf("claimed %+v, %v; want the UNKNOWN command", claimed, err)
		}
		b.s.execute(b.ctx, claimed[0])
		j, c := b.stored(&execution{id: c.ID})
		if c.State != model.CmdSucceeded || j.LatestSavepoint.Path != sp9 {
			t.Fatalf("command %s, savepoint %s\n%s", c.State, j.LatestSavepoint.Path, logOf(c))
		}
		if n := b.f.sent("POST", stopPath); n != 0 {
			t.Errorf("the stop was sent %d times again", n)
		}
	})
}
