package core_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// simEnv is the in-process service over a fresh store and a simulator,
// with the scheduler running; tests drive sync themselves.
type simEnv struct {
	t   *testing.T
	ctx context.Context
	sim *sim.Cluster
	svc *core.Local
	st  store.Store
}

func newSimEnv(t *testing.T, o sim.Options, edit func(*config.Cluster)) *simEnv {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	if o.Speed == 0 {
		o.Speed = 30
	}
	if o.Seed == 0 {
		o.Seed = 11
	}
	ctx, cancel := context.WithCancel(context.Background())
	c, err := sim.New(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	cc := config.Cluster{Name: "sim", RM: c.RMURLs(), SQLGateway: c.GatewayURL(), User: "ops",
		Deploy: config.Deploy{SavepointDir: "hdfs:///flink/savepoints"}}
	if edit != nil {
		edit(&cc)
	}
	cfg := &config.Config{Clusters: []config.Cluster{cc}}
	cfg.ApplyDefaults()
	cfg.Restart.MaxAttempts = 0 // tests drive failures themselves
	svc, err := core.NewLocal(core.Options{Store: st, Config: cfg, User: "tester",
		Poll: 20 * time.Millisecond, Lease: 2 * time.Second, NoJitter: true, EndingGrace: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = svc.RunScheduler(ctx) }()
	t.Cleanup(func() { cancel(); <-done; st.Close(); c.Close() })
	return &simEnv{t: t, ctx: ctx, sim: c, svc: svc, st: st}
}

const simSQL = `CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen');
CREATE TABLE snk (id BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO snk SELECT id FROM src;`

func (e *simEnv) createSQL(name string) model.Job {
	e.t.Helper()
	j, err := e.svc.CreateJob(e.ctx, api.CreateJobRequest{Name: name, Cluster: "sim", Kind: model.KindSQL, Spec: model.Spec{SQL: simSQL}})
	if err != nil {
		e.t.Fatal(err)
	}
	return j
}

// act issues an action and waits for its command to end.
func (e *simEnv) act(ref string, k model.CommandKind, restore model.RestoreChoice) model.Command {
	e.t.Helper()
	c, err := e.svc.Act(e.ctx, api.ActionRequest{JobRef: ref, Kind: k, Restore: restore})
	if err != nil {
		e.t.Fatalf("%s %s: %v", k, ref, err)
	}
	ctx, cancel := context.WithTimeout(e.ctx, time.Minute)
	defer cancel()
	c, err = e.svc.WaitCommand(ctx, c.ID)
	if err != nil {
		e.t.Fatalf("wait %s: %v", k, err)
	}
	return c
}

func (e *simEnv) job(ref string) model.Job {
	e.t.Helper()
	d, err := e.svc.Job(e.ctx, ref)
	if err != nil {
		e.t.Fatal(err)
	}
	return d.Job
}

// syncUntil runs sync cycles until cond holds.
func (e *simEnv) syncUntil(ref, what string, cond func(model.Job) bool) model.Job {
	e.t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; {
		if _, err := e.svc.SyncOnce(e.ctx, 0); err != nil {
			e.t.Fatal(err)
		}
		j := e.job(ref)
		if cond(j) {
			return j
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: %s never happened: %s %+v", ref, what, j.State, j)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func running(j model.Job) bool { return j.State == model.StateRunning }

func (e *simEnv) liveApps(jobID string) []sim.App {
	var out []sim.App
	for _, a := range e.sim.Apps() {
		if a.State == "FINISHED" || a.State == "FAILED" || a.State == "KILLED" {
			continue
		}
		for _, tag := range a.Tags {
			if tag == "palink-job-"+strings.ToLower(jobID) {
				out = append(out, a)
			}
		}
	}
	return out
}

// TestExecDeployerWithFakeFlink deploys a JAR job with the exec deployer
// and a fake `flink` that prints what the real client prints: palink parses
// the application and job ids, tags the application, and restores with -s.
func TestExecDeployerWithFakeFlink(t *testing.T) {
	fake, err := filepath.Abs("testdata/fake-flink")
	if err != nil {
		t.Fatal(err)
	}
	e := newSimEnv(t, sim.Options{}, func(c *config.Cluster) {
		c.Deploy.JarDeployer = "exec"
		c.Deploy.Command = fake + " run -t {target} -d {dynamic} {restore} -c {class} {jar} {args}"
	})
	t.Setenv("FAKE_FLINK_RM", e.sim.RMURLs()[0])
	jar := filepath.Join(t.TempDir(), "dedup.jar")
	if err := os.WriteFile(jar, []byte("PK\x03\x04 not really a jar"), 0o600); err != nil {
		t.Fatal(err)
	}
	j, err := e.svc.CreateJob(e.ctx, api.CreateJobRequest{Name: "dedup", Cluster: "sim", Kind: model.KindJAR,
		Spec: model.Spec{JarPath: jar, EntryClass: "com.acme.Dedup", Args: []string{"--topic", "payments"}}, Parallelism: 2})
	if err != nil {
		t.Fatal(err)
	}
	c := e.act("dedup", model.CmdSubmit, 0)
	if c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s\n%v", c.State, c.Error, c.Log)
	}
	apps := e.liveApps(j.ID)
	if len(apps) != 1 {
		t.Fatalf("%d live applications tagged for the job", len(apps))
	}
	if c.Params.AppID != apps[0].ID || c.Params.FlinkJobID == "" {
		t.Errorf("command recorded %s/%s, the cluster has %s", c.Params.AppID, c.Params.FlinkJobID, apps[0].ID)
	}
	if apps[0].Name != "dedup" || !containsTag(apps[0].Tags, "palink-cmd-"+strings.ToLower(c.ID)) {
		t.Errorf("application name %q tags %v", apps[0].Name, apps[0].Tags)
	}
	logged := strings.Join(logTexts(c), "\n")
	if !strings.Contains(logged, "flink: Job has been submitted with JobID "+c.Params.FlinkJobID) {
		t.Errorf("the command log lacks the client's output:\n%s", logged)
	}
	e.syncUntil("dedup", "RUNNING with a checkpoint", func(j model.Job) bool { return running(j) && j.LatestCheckpoint != nil })

	if c := e.act("dedup", model.CmdPause, 0); c.State != model.CmdSucceeded {
		t.Fatalf("pause: %s %s", c.State, c.Error)
	}
	sp := e.job("dedup").LatestSavepoint
	if sp == nil {
		t.Fatal("no savepoint after pause")
	}
	if c := e.act("dedup", model.CmdRestart, 0); c.State != model.CmdSucceeded {
		t.Fatalf("restart: %s %s\n%v", c.State, c.Error, c.Log)
	}
	j = e.syncUntil("dedup", "RUNNING after restart", running)
	app, err := e.sim.App(j.AppID)
	if err != nil || len(app.Jobs) == 0 || app.Jobs[0].RestoredFrom != sp.Path {
		t.Errorf("restarted job did not restore %s through -s: %+v %v", sp.Path, app.Jobs, err)
	}
}

// TestExecDeployerReportsClientFailure: a failing client fails the command
// with its output, and the job is DEPLOY_FAILED with the reason.
func TestExecDeployerReportsClientFailure(t *testing.T) {
	fake, _ := filepath.Abs("testdata/fake-flink")
	e := newSimEnv(t, sim.Options{}, func(c *config.Cluster) {
		c.Deploy.JarDeployer = "exec"
		c.Deploy.Command = fake + " run -t {target} -d {dynamic} -c {class} {jar}"
	})
	t.Setenv("FAKE_FLINK_RM", e.sim.RMURLs()[0])
	jar := filepath.Join(t.TempDir(), "gone.jar")
	_ = os.WriteFile(jar, []byte("x"), 0o600)
	if _, err := e.svc.CreateJob(e.ctx, api.CreateJobRequest{Name: "gone", Cluster: "sim", Kind: model.KindJAR,
		Spec: model.Spec{JarPath: jar, EntryClass: "X"}}); err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(jar)
	c := e.act("gone", model.CmdSubmit, 0)
	if c.State != model.CmdFailed || !strings.Contains(strings.Join(logTexts(c), "\n"), "JAR file does not exist") {
		t.Fatalf("want a failed submit that shows the client's error: %s %s\n%v", c.State, c.Error, c.Log)
	}
	if j := e.job("gone"); j.State != model.StateDeployFailed || j.Diagnostics == "" {
		t.Errorf("job after a failed deploy: %s %q", j.State, j.Diagnostics)
	}
}

// TestFailoverKeepsStateAndFollowsTheJobManager: under an RM failover and a
// JobManager failover, sync keeps the job RUNNING and records the
// JobManager's new address.
func TestFailoverKeepsStateAndFollowsTheJobManager(t *testing.T) {
	e := newSimEnv(t, sim.Options{RMs: 2}, nil)
	e.createSQL("orders")
	if c := e.act("orders", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	j := e.syncUntil("orders", "RUNNING", running)
	e.sim.FailoverRM()
	st, err := e.svc.SyncOnce(e.ctx, 0)
	if err != nil || st.Errors != 0 || st.RMCalls != 1 {
		t.Fatalf("sync after RM failover: %+v %v", st, err)
	}
	if got := e.job("orders"); got.State != model.StateRunning {
		t.Fatalf("after RM failover: %s", got.State)
	}
	old := j.JMAddress
	if err := e.sim.FailoverJM(j.AppID); err != nil {
		t.Fatal(err)
	}
	j = e.syncUntil("orders", "a new JobManager address", func(j model.Job) bool {
		return j.JMAddress != old && j.FlinkState == "RUNNING"
	})
	if j.State != model.StateRunning || j.AppID == "" {
		t.Errorf("after JM failover: %s %s", j.State, j.AppID)
	}
	d, _ := e.svc.Job(e.ctx, "orders")
	for _, ev := range d.Events {
		if ev.To == model.StateFailed || ev.To == model.StateFinished || ev.To == model.StateKilled {
			t.Errorf("failover produced a state change: %+v", ev)
		}
	}
	// Actions go to the new JobManager.
	if c := e.act("orders", model.CmdSavepoint, 0); c.State != model.CmdSucceeded {
		t.Errorf("savepoint after JM failover: %s %s", c.State, c.Error)
	}
}

// TestDriftWhenTheApplicationVanishes: the platform expects RUNNING, the RM
// does not know the application: the job shows both sides, not UNKNOWN.
func TestDriftWhenTheApplicationVanishes(t *testing.T) {
	e := newSimEnv(t, sim.Options{}, nil)
	now := time.Now()
	err := e.st.Update(e.ctx, func(tx store.Tx) error {
		return tx.CreateJob(model.Job{ID: "jghost", Name: "ghost", Kind: model.KindSQL, Cluster: "sim", SpecVersion: 1,
			State: model.StateRunning, AppID: "application_1_9999", CreatedAt: now, UpdatedAt: now})
	})
	if err != nil {
		t.Fatal(err)
	}
	j := e.syncUntil("ghost", "drift", func(j model.Job) bool { return j.Drift != nil })
	if j.State != model.StateRunning || j.Drift.Expected != "RUNNING" || !strings.Contains(j.Drift.Observed, "application not found") {
		t.Errorf("drift = %s %+v", j.State, j.Drift)
	}
	d, _ := e.svc.Job(e.ctx, "ghost")
	if n := len(d.Events); n == 0 || !strings.Contains(d.Events[n-1].Reason, "drift: platform expects RUNNING") {
		t.Errorf("no drift event: %+v", d.Events)
	}
	// A second cycle does not repeat the event.
	_, _ = e.svc.SyncOnce(e.ctx, 0)
	d2, _ := e.svc.Job(e.ctx, "ghost")
	if len(d2.Events) != len(d.Events) {
		t.Errorf("drift event repeated: %d → %d events", len(d.Events), len(d2.Events))
	}
	// Kill of a vanished application ends the drift: KILLED.
	if c := e.act("ghost", model.CmdKill, 0); c.State != model.CmdSucceeded {
		t.Fatalf("kill: %s %s", c.State, c.Error)
	}
	if j := e.job("ghost"); j.State != model.StateKilled || j.Drift != nil {
		t.Errorf("after kill: %s drift %+v", j.State, j.Drift)
	}
}

// TestSessionKillCancelsOnlyTheJob: in a shared session cluster, kill is a
// Flink cancel of the job; the session application keeps running.
func TestSessionKillCancelsOnlyTheJob(t *testing.T) {
	var sessionApp string
	e := newSimEnv(t, sim.Options{}, nil)
	s, err := e.sim.Submit(e.ctx, sim.SubmitRequest{Mode: sim.ModeSession, Name: "shared-session"})
	if err != nil {
		t.Fatal(err)
	}
	sessionApp = s.AppID
	// A second service over the same store and simulator, configured for the session.
	cfg := &config.Config{Clusters: []config.Cluster{{Name: "sim", RM: e.sim.RMURLs(), SQLGateway: e.sim.GatewayURL(),
		Deploy: config.Deploy{Mode: "yarn-session", SessionApp: sessionApp, SavepointDir: "hdfs:///flink/savepoints"}}}}
	cfg.ApplyDefaults()
	svc, err := core.NewLocal(core.Options{Store: e.st, Config: cfg, Poll: 20 * time.Millisecond, Lease: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	e.svc = svc
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	go func() { _ = svc.RunScheduler(ctx) }()
	for deadline := time.Now().Add(30 * time.Second); ; {
		if a, _ := e.sim.App(sessionApp); a.State == "RUNNING" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("session never ran")
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.createSQL("in-session")
	if c := e.act("in-session", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s\n%v", c.State, c.Error, c.Log)
	}
	j := e.syncUntil("in-session", "RUNNING", running)
	if !j.Session || j.AppID != sessionApp {
		t.Fatalf("job runs in %s (session %v), want the session %s", j.AppID, j.Session, sessionApp)
	}
	ov, err := svc.ClusterOverview(e.ctx, "sim")
	if err != nil {
		t.Fatal(err)
	}
	if len(ov.Sessions) != 1 || ov.Sessions[0].AppID != sessionApp || ov.Sessions[0].SlotsTotal == 0 || ov.Sessions[0].Jobs < 1 {
		t.Errorf("session clusters in the overview: %+v", ov.Sessions)
	}
	plan, err := svc.Plan(e.ctx, api.ActionRequest{JobRef: "in-session", Kind: model.CmdKill})
	if err != nil || !strings.Contains(strings.Join(plan.Steps, " "), "cancel job") || !strings.Contains(strings.Join(plan.Steps, " "), "session keeps running") {
		t.Errorf("kill plan for a session job: %+v %v", plan.Steps, err)
	}
	if c := e.act("in-session", model.CmdKill, 0); c.State != model.CmdSucceeded {
		t.Fatalf("kill: %s %s", c.State, c.Error)
	}
	if j := e.job("in-session"); j.State != model.StateKilled {
		t.Errorf("job after kill: %s", j.State)
	}
	a, _ := e.sim.App(sessionApp)
	if a.State != "RUNNING" {
		t.Errorf("the session application is %s after killing one of its jobs", a.State)
	}
	for _, fj := range a.Jobs {
		if fj.ID == j.FlinkJobID && fj.State != "CANCELED" {
			t.Errorf("Flink job %s is %s, want CANCELED", fj.ID, fj.State)
		}
	}
}

// TestStartRefusedWhileTheApplicationLives: the store says FAILED but the
// application still runs its job (say, someone restarted it by hand): a
// restart is refused, clearly, and nothing is submitted.
func TestStartRefusedWhileTheApplicationLives(t *testing.T) {
	e := newSimEnv(t, sim.Options{}, nil)
	j := e.createSQL("stubborn")
	if c := e.act("stubborn", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s", c.Error)
	}
	j = e.syncUntil("stubborn", "RUNNING", running)
	err := e.st.Update(e.ctx, func(tx store.Tx) error {
		cur, err := tx.Job(j.ID)
		if err != nil {
			return err
		}
		cur.State = model.StateFailed
		return tx.PutJob(cur)
	})
	if err != nil {
		t.Fatal(err)
	}
	c := e.act("stubborn", model.CmdRestart, model.RestoreNone)
	if c.State != model.CmdFailed || !strings.Contains(c.Error, "refusing to start stubborn: its application "+j.AppID+" is still RUNNING") {
		t.Fatalf("restart of a live job: %s %q", c.State, c.Error)
	}
	if n := len(e.liveApps(j.ID)); n != 1 {
		t.Errorf("%d live applications, want 1", n)
	}
}

func containsTag(tags []string, t string) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}

func logTexts(c model.Command) []string {
	var out []string
	for _, l := range c.Log {
		out = append(out, l.Text)
	}
	return out
}
