package core_test

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// The three routes of issue 23 by which palink restored checkpoints the
// cluster had already deleted, against the simulator, whose checkpoint
// storage keeps and deletes them as Flink's CheckpointProperties say.

// pausableClock runs the simulation speed times faster than the wall
// clock, and stops it while a test lines up a race.
type pausableClock struct {
	mu     sync.Mutex
	at     time.Time // simulated time at wall
	wall   time.Time
	speed  float64
	paused bool
}

func newPausableClock(speed float64) *pausableClock {
	return &pausableClock{at: time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC), wall: time.Now(), speed: speed}
}

func (c *pausableClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now()
}

func (c *pausableClock) now() time.Time {
	if c.paused {
		return c.at
	}
	return c.at.Add(time.Duration(float64(time.Since(c.wall)) * c.speed))
}

// Pause stops simulated time.
func (c *pausableClock) Pause() {
	c.mu.Lock()
	c.at, c.paused = c.now(), true
	c.mu.Unlock()
}

// Advance moves stopped time forward by d.
func (c *pausableClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.at = c.at.Add(d)
	c.mu.Unlock()
}

// Resume lets simulated time run again.
func (c *pausableClock) Resume() {
	c.mu.Lock()
	c.at, c.wall, c.paused = c.now(), time.Now(), false
	c.mu.Unlock()
}

func setFaults(e *coretest.Env, spec string) {
	e.T.Helper()
	f, err := sim.ParseFaults(spec)
	if err != nil {
		e.T.Fatal(err)
	}
	if err := e.Sim.SetFaults(f); err != nil {
		e.T.Fatal(err)
	}
}

// createJob creates the SQL job with Flink settings of its own.
func createJob(e *coretest.Env, name string, conf map[string]string) model.Job {
	e.T.Helper()
	j, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: name, Cluster: "sim", Kind: model.KindSQL, Spec: model.Spec{SQL: coretest.SQL}, Config: conf})
	if err != nil {
		e.T.Fatal(err)
	}
	return j
}

// waitState waits until the command is in state want, failing at once if
// it ends otherwise.
func waitState(e *coretest.Env, id string, want model.CommandState) model.Command {
	e.T.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		c, err := e.Svc.Command(e.Ctx, id)
		if err != nil {
			e.T.Fatal(err)
		}
		if c.State == want {
			return c
		}
		if c.State.Final() || time.Now().After(deadline) {
			e.T.Fatalf("%s #%d is %s, want %s: %s\n%s", c.Kind, c.Seq, c.State, want, c.Error, strings.Join(coretest.LogTexts(c), "\n"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// held reports whether the simulated HDFS still holds path, a checkpoint
// or a savepoint of the job the application ran.
func held(e *coretest.Env, appID, path string) bool {
	e.T.Helper()
	j := simJob(e, appID)
	return slices.Contains(j.Retained, path) || slices.Contains(j.Savepoints, path)
}

func simJob(e *coretest.Env, appID string) sim.Job {
	e.T.Helper()
	a, err := e.Sim.App(appID)
	if err != nil || len(a.Jobs) == 0 {
		e.T.Fatalf("app %s: %v %+v", appID, err, a)
	}
	return a.Jobs[0]
}

// TestResubmitFromTheCheckpointOfAPausedJobIsRefused is route (a): a pause
// ends the job FINISHED, and Flink deletes a FINISHED job's checkpoints
// whatever the retention (RETAIN_ON_CANCELLATION keeps them after a cancel
// or a failure only). `resubmit --restore checkpoint` is refused with the
// reason and what to restore instead; `restart` (latest) takes the pause's
// savepoint, which exists. Before, it deployed the deleted checkpoint and
// the new application failed with FileNotFoundException.
func TestResubmitFromTheCheckpointOfAPausedJobIsRefused(t *testing.T) {
	e := coretest.New(t, sim.Options{CheckpointInterval: 2 * time.Second}, nil)
	createJob(e, "paused", map[string]string{decide.RetentionKey: "RETAIN_ON_CANCELLATION"})
	if c := e.Act("paused", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	j := e.SyncUntil("paused", "a checkpoint", func(j model.Job) bool { return coretest.Running(j) && j.LatestCheckpoint != nil })
	if j.Retention != model.RetainOnCancellation {
		t.Errorf("the retention read from the JobManager is %s", j.Retention)
	}
	if c := e.Act("paused", model.CmdPause, 0); c.State != model.CmdSucceeded {
		t.Fatalf("pause: %s %s", c.State, c.Error)
	}
	j = e.Job("paused")
	cp, sp := j.LatestCheckpoint, j.LatestSavepoint
	if cp == nil || sp == nil {
		t.Fatalf("after the pause: checkpoint %+v, savepoint %+v", cp, sp)
	}
	if held(e, j.AppID, cp.Path) || !held(e, j.AppID, sp.Path) {
		t.Fatalf("the cluster holds checkpoint %v and savepoint %v; want only the savepoint", held(e, j.AppID, cp.Path), held(e, j.AppID, sp.Path))
	}
	name := cp.Path[strings.LastIndex(cp.Path, "/")+1:]
	req := api.ActionRequest{JobRef: "paused", Kind: model.CmdResubmit, Restore: model.RestoreCheckpoint}
	want := "Flink discarded " + name + " when the job FINISHED (retention RETAIN_ON_CANCELLATION keeps checkpoints only after cancel or failure); restore the savepoint " + sp.Path + " instead, or choose none"
	p, err := e.Svc.Plan(e.Ctx, req)
	if err != nil || p.Allowed || p.Reason != want {
		t.Errorf("plan of resubmit --restore checkpoint: allowed %v, %q, %v\nwant refused: %s", p.Allowed, p.Reason, err, want)
	}
	if _, err := e.Svc.Act(e.Ctx, req); !errors.Is(err, model.ErrRefused) || !strings.Contains(err.Error(), want) {
		t.Fatalf("resubmit --restore checkpoint: %v", err)
	}
	c := e.Act("paused", model.CmdRestart, model.RestoreLatest)
	if c.State != model.CmdSucceeded || c.Params.RestorePath != sp.Path {
		t.Fatalf("restart: %s from %q, want the savepoint %s", c.State, c.Params.RestorePath, sp.Path)
	}
	j = e.SyncUntil("paused", "RUNNING again", func(j model.Job) bool { return coretest.Running(j) || j.State == model.StateFailed })
	if j.State != model.StateRunning || j.RestoredFrom != sp.Path {
		t.Errorf("after the restart: %s restored from %q: %s", j.State, j.RestoredFrom, j.Diagnostics)
	}
}

// TestPauseWhoseAnswersAreLostIsReconciled is route (b) for a pause: the
// stop reaches the JobManager, then every answer is garbled until the
// tries are spent. The command is not FAILED but UNKNOWN, and once the
// cluster answers again it is reconciled from the trigger's status:
// SUCCEEDED, the savepoint recorded, the job FINISHED, and a restart
// resumes from that savepoint, not from the deleted checkpoint.
func TestPauseWhoseAnswersAreLostIsReconciled(t *testing.T) {
	clock := newPausableClock(30)
	e := coretest.NewWith(t, sim.Options{Clock: clock, CheckpointInterval: 2 * time.Second}, nil, func(o *core.Options) {
		o.Tries, o.RetryBackoff = 2, 20*time.Millisecond
	})
	createJob(e, "lossy", nil)
	if c := e.Act("lossy", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	j := e.SyncUntil("lossy", "a checkpoint", func(j model.Job) bool { return coretest.Running(j) && j.LatestCheckpoint != nil })
	// Stopped time: the stop cannot complete while the answers are lost.
	clock.Pause()
	c, err := e.Svc.Act(e.Ctx, api.ActionRequest{JobRef: "lossy", Kind: model.CmdPause})
	if err != nil {
		t.Fatal(err)
	}
	waitLog(e, c.ID, "stop-with-savepoint of job") // logged as the stop is sent
	setFaults(e, "jm:malformed=1")                 // it reaches the JobManager; no answer decodes
	c = waitState(e, c.ID, model.CmdUnknown)
	setFaults(e, "")
	clock.Resume()
	ctx, cancel := context.WithTimeout(e.Ctx, time.Minute)
	defer cancel()
	if c, err = e.Svc.WaitCommand(ctx, c.ID); err != nil || c.State != model.CmdSucceeded {
		t.Fatalf("the reconciled pause: %s %s %v\n%s", c.State, c.Error, err, strings.Join(coretest.LogTexts(c), "\n"))
	}
	sj := simJob(e, j.AppID)
	if len(sj.Savepoints) == 0 {
		t.Fatal("the simulator took no savepoint")
	}
	taken := sj.Savepoints[len(sj.Savepoints)-1]
	j = e.Job("lossy")
	if j.State != model.StateFinished || j.LatestSavepoint == nil || j.LatestSavepoint.Path != taken {
		t.Fatalf("after the pause: %s, savepoint %+v; want FINISHED with %s", j.State, j.LatestSavepoint, taken)
	}
	r := e.Act("lossy", model.CmdRestart, model.RestoreLatest)
	if r.State != model.CmdSucceeded || r.Params.RestorePath != taken {
		t.Fatalf("restart: %s %s from %q, want %s", r.State, r.Error, r.Params.RestorePath, taken)
	}
}

// TestKillWhoseAnswersAreLostIsReconciled is route (b) for a kill: the kill
// reaches the RM, then no answer of the RM decodes. The application is
// killed, so the command must not end FAILED (and `job kill --wait` must
// not exit 1): it is UNKNOWN until the RM answers again, then SUCCEEDED
// from the application's state, and the job KILLED.
func TestKillWhoseAnswersAreLostIsReconciled(t *testing.T) {
	e := coretest.NewWith(t, sim.Options{}, nil, func(o *core.Options) {
		o.Tries, o.RetryBackoff = 2, 20*time.Millisecond
	})
	createJob(e, "doomed", nil)
	if c := e.Act("doomed", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	j := e.SyncUntil("doomed", "RUNNING", coretest.Running)
	c, err := e.Svc.Act(e.Ctx, api.ActionRequest{JobRef: "doomed", Kind: model.CmdKill})
	if err != nil {
		t.Fatal(err)
	}
	waitLog(e, c.ID, "killing YARN application") // logged as the kill is sent
	setFaults(e, "rm:malformed=1")
	c = waitState(e, c.ID, model.CmdUnknown)
	for deadline := time.Now().Add(30 * time.Second); ; {
		if a, _ := e.Sim.App(j.AppID); a.State == "KILLED" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the kill never reached the RM")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Another action waits for the reconciliation; a kill is never blocked.
	if _, err := e.Svc.Act(e.Ctx, api.ActionRequest{JobRef: "doomed", Kind: model.CmdSavepoint}); err == nil || !strings.Contains(err.Error(), "is UNKNOWN") {
		t.Errorf("a savepoint while the kill is UNKNOWN: %v", err)
	}
	setFaults(e, "")
	ctx, cancel := context.WithTimeout(e.Ctx, time.Minute)
	defer cancel()
	if c, err = e.Svc.WaitCommand(ctx, c.ID); err != nil || c.State != model.CmdSucceeded {
		t.Fatalf("the reconciled kill: %s %s %v\n%s", c.State, c.Error, err, strings.Join(coretest.LogTexts(c), "\n"))
	}
	if j = e.Job("doomed"); j.State != model.StateKilled {
		t.Errorf("job is %s, want KILLED", j.State)
	}
}

// TestKillRaceRestoresTheCheckpointThatSurvived is route (c): the kill
// reads the newest checkpoint, then another completes and subsumes it
// before the kill lands (num-retained 1). A YARN kill deletes nothing, so
// the checkpoint that survives is the newest completed at the kill: palink
// hears it from the JobManager while the kill is on its way, records it,
// and a resubmit from "latest" restores it. Before, it restored the one
// read first, which the cluster had deleted.
func TestKillRaceRestoresTheCheckpointThatSurvived(t *testing.T) {
	clock := newPausableClock(30)
	e := coretest.NewWith(t, sim.Options{Clock: clock}, nil, nil)
	createJob(e, "raced", map[string]string{"execution.checkpointing.interval": "60s"})
	if c := e.Act("raced", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	j := e.SyncUntil("raced", "a checkpoint", func(j model.Job) bool { return coretest.Running(j) && j.LatestCheckpoint != nil })
	clock.Pause()
	first := simJob(e, j.AppID).LatestCheckpoint
	setFaults(e, "rm:latency=300ms") // the kill takes its time to land
	c, err := e.Svc.Act(e.Ctx, api.ActionRequest{JobRef: "raced", Kind: model.CmdKill})
	if err != nil {
		t.Fatal(err)
	}
	waitLog(e, c.ID, "before the kill the JobManager reports checkpoint")
	// The next checkpoint completes, and subsumes the one just read.
	var next string
	for i := 0; i < 70 && (next == "" || next == first); i++ {
		clock.Advance(time.Second)
		next = simJob(e, j.AppID).LatestCheckpoint
	}
	if next == first || held(e, j.AppID, first) {
		t.Fatalf("no newer checkpoint subsumed %s (newest %s)", first, next)
	}
	// The kill lands on the RM (three calls at 300ms), the application dies a second later.
	time.Sleep(2 * time.Second)
	clock.Advance(time.Second)
	clock.Resume()
	setFaults(e, "")
	ctx, cancel := context.WithTimeout(e.Ctx, time.Minute)
	defer cancel()
	if c, err = e.Svc.WaitCommand(ctx, c.ID); err != nil || c.State != model.CmdSucceeded {
		t.Fatalf("kill: %s %s %v", c.State, c.Error, err)
	}
	killed := e.Job("raced")
	if killed.LatestCheckpoint == nil || killed.LatestCheckpoint.Path != next || !held(e, j.AppID, next) {
		t.Fatalf("the kill recorded %+v; want %s, which survived (read before the kill: %s)\n%s",
			killed.LatestCheckpoint, next, first, strings.Join(coretest.LogTexts(c), "\n"))
	}
	r := e.Act("raced", model.CmdResubmit, model.RestoreLatest)
	if r.State != model.CmdSucceeded || r.Params.RestorePath != next {
		t.Fatalf("resubmit: %s %s from %q, want %s", r.State, r.Error, r.Params.RestorePath, next)
	}
	j = e.SyncUntil("raced", "RUNNING restored", func(j model.Job) bool { return coretest.Running(j) || j.State == model.StateFailed })
	if j.State != model.StateRunning || j.RestoredFrom != next {
		t.Errorf("after the resubmit: %s restored from %q: %s", j.State, j.RestoredFrom, j.Diagnostics)
	}
}

// restartsOf are the commands the restart policy issued for the job, oldest first.
func restartsOf(e *coretest.Env, jobID string) []model.Command {
	e.T.Helper()
	cs, err := e.Svc.Commands(e.Ctx, api.CommandFilter{JobRef: jobID})
	if err != nil {
		e.T.Fatal(err)
	}
	var out []model.Command
	for _, c := range cs {
		if c.Params.Auto && c.Kind.Deploys() {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Seq < out[b].Seq })
	return out
}

// TestRestartPolicyNeverRetriesAMissingCheckpoint is the rest of route (c),
// for the restart policy: palink recorded checkpoint N, the job went on
// checkpointing unseen (N subsumed), then failed for good with its
// per-job cluster gone before sync could ask. RETAIN_ON_CANCELLATION keeps
// a FAILED job's newest checkpoint, so N looks kept, but it is not: the
// policy's restart from N fails with Flink's "Cannot find checkpoint or
// savepoint". That restore point is marked missing and never tried again:
// the next restart takes the next older point known to exist (a savepoint),
// or, with none, the policy stops and says why. Before, the policy
// restarted from the same missing checkpoint until it gave up.
func TestRestartPolicyNeverRetriesAMissingCheckpoint(t *testing.T) {
	for _, withSavepoint := range []bool{true, false} {
		name := "no older point: the policy stops"
		if withSavepoint {
			name = "an older savepoint: restored from it"
		}
		t.Run(name, func(t *testing.T) {
			e := coretest.NewWith(t, sim.Options{}, nil, func(o *core.Options) {
				o.Restart = decide.RestartPolicy{Enabled: true, MaxAttempts: 3, Window: time.Hour, Backoff: 50 * time.Millisecond, Multiplier: 1}
				o.Tick = 20 * time.Millisecond
			})
			createJob(e, "flaky", map[string]string{"execution.checkpointing.interval": "2s", decide.RetentionKey: "RETAIN_ON_CANCELLATION"})
			if c := e.Act("flaky", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
				t.Fatalf("submit: %s %s", c.State, c.Error)
			}
			j := e.SyncUntil("flaky", "a checkpoint", func(j model.Job) bool {
				return coretest.Running(j) && j.LatestCheckpoint != nil && j.Retention == model.RetainOnCancellation
			})
			var sp string
			if withSavepoint {
				if c := e.Act("flaky", model.CmdSavepoint, 0); c.State != model.CmdSucceeded {
					t.Fatalf("savepoint: %s %s", c.State, c.Error)
				}
				sp = e.Job("flaky").LatestSavepoint.Path
			}
			seen := e.Job("flaky").LatestCheckpoint.Path
			for deadline := time.Now().Add(time.Minute); held(e, j.AppID, seen); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%s was never subsumed", seen)
				}
			}
			if err := e.Sim.FailJob(j.AppID); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
				if a, _ := e.Sim.App(j.AppID); a.State == "FINISHED" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the per-job cluster never went away")
				}
			}
			// From here sync sees the failure, the policy restarts, and so on.
			var stop func(model.Job) bool
			if withSavepoint {
				stop = func(j model.Job) bool { return coretest.Running(j) && j.RestoredFrom == sp }
			} else {
				stop = func(j model.Job) bool {
					return j.NextRestart.IsZero() && strings.Contains(j.Diagnostics, "restart policy stopped")
				}
			}
			j = e.SyncUntil("flaky", "the policy's end", func(j model.Job) bool {
				if n := len(restartsOf(e, j.ID)); n > 2 || (!withSavepoint && n > 1) {
					t.Fatalf("%d restarts: %+v", n, restartsOf(e, j.ID))
				}
				return stop(j)
			})
			rs := restartsOf(e, j.ID)
			if len(rs) == 0 || rs[0].Params.RestorePath != seen {
				t.Fatalf("the first restart: %+v, want it from %s", rs, seen)
			}
			for _, r := range rs[1:] {
				if r.Params.RestorePath == seen {
					t.Errorf("RESTART #%d tried %s again, after the cluster could not find it", r.Seq, seen)
				}
			}
			d, err := e.Svc.Job(e.Ctx, "flaky")
			if err != nil {
				t.Fatal(err)
			}
			var noted bool
			for _, ev := range d.Events {
				noted = noted || strings.Contains(ev.Reason, "restore from "+seen+" failed: the cluster cannot find it")
			}
			if !noted {
				t.Errorf("no event says %s could not be found", seen)
			}
			if !withSavepoint && !strings.Contains(j.Diagnostics, "the cluster could not find the checkpoint") {
				t.Errorf("diagnostics do not say why the policy stopped: %q", j.Diagnostics)
			}
		})
	}
}

// TestActionsUnderWireFaultsEndAsTheClusterShows is route (b) under the
// issue's weather: 30 % of every listener's answers are 5xx, resets,
// malformed or truncated bodies. A pause and a kill issued into it end as
// the cluster shows them (SUCCEEDED exactly when the simulator's job
// stopped, or its application was killed), never FAILED when they took
// effect, whatever their tries met.
func TestActionsUnderWireFaultsEndAsTheClusterShows(t *testing.T) {
	e := coretest.NewWith(t, sim.Options{}, nil, func(o *core.Options) {
		o.Tries, o.RetryBackoff = 3, 50*time.Millisecond
	})
	apps := map[string]string{}
	for _, name := range []string{"paused", "killed"} {
		createJob(e, name, nil)
		if c := e.Act(name, model.CmdSubmit, 0); c.State != model.CmdSucceeded {
			t.Fatalf("submit %s: %s %s", name, c.State, c.Error)
		}
		apps[name] = e.SyncUntil(name, "RUNNING", func(j model.Job) bool { return coretest.Running(j) && j.FlinkJobID != "" }).AppID
	}
	setFaults(e, "5xx=0.15,reset=0.05,malformed=0.05,truncated=0.05")
	var ids []string
	for name, kind := range map[string]model.CommandKind{"paused": model.CmdPause, "killed": model.CmdKill} {
		c, err := e.Svc.Act(e.Ctx, api.ActionRequest{JobRef: name, Kind: kind})
		if err != nil {
			t.Fatalf("%s %s: %v", kind, name, err)
		}
		ids = append(ids, c.ID)
	}
	ctx, cancel := context.WithTimeout(e.Ctx, 2*time.Minute)
	defer cancel()
	ended := map[string]model.Command{}
	for _, id := range ids {
		c, err := e.Svc.WaitCommand(ctx, id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		ended[c.Kind.String()] = c
	}
	setFaults(e, "")
	tookEffect := map[string]bool{
		"PAUSE": simJob(e, apps["paused"]).State == "FINISHED",
		"KILL":  func() bool { a, _ := e.Sim.App(apps["killed"]); return a.State == "KILLED" }(),
	}
	for kind, c := range ended {
		if (c.State == model.CmdSucceeded) != tookEffect[kind] {
			t.Errorf("%s #%d ended %s (%s) while the cluster shows it took effect: %v\n%s", kind, c.Seq, c.State, c.Error, tookEffect[kind],
				strings.Join(coretest.LogTexts(c), "\n"))
		}
	}
}
