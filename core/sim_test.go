package core_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// TestExecDeployerWithFakeFlink deploys a JAR job with the exec deployer
// and a fake `flink` that prints what the real client prints: palink parses
// the application and job ids, tags the application, and restores with -s.
func TestExecDeployerWithFakeFlink(t *testing.T) {
	fake, err := filepath.Abs("testdata/fake-flink")
	if err != nil {
		t.Fatal(err)
	}
	e := coretest.New(t, sim.Options{}, func(c *clusters.Spec) {
		c.Deploy.JarDeployer = "exec"
		c.Deploy.Command = fake + " run -t {target} -d {dynamic} {restore} -c {class} {jar} {args}"
	})
	jar := filepath.Join(t.TempDir(), "dedup.jar")
	if err := os.WriteFile(jar, []byte("PK\x03\x04 not really a jar"), 0o600); err != nil {
		t.Fatal(err)
	}
	j, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "dedup", Cluster: "sim", Kind: model.KindJAR,
		Spec: model.Spec{JarPath: jar, EntryClass: "com.acme.Dedup", Args: []string{"--topic", "payments"}}, Parallelism: 2})
	if err != nil {
		t.Fatal(err)
	}
	c := e.Act("dedup", model.CmdSubmit, 0)
	if c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s\n%v", c.State, c.Error, c.Log)
	}
	apps := e.LiveApps(j.ID)
	if len(apps) != 1 {
		t.Fatalf("%d live applications tagged for the job", len(apps))
	}
	if c.Params.AppID != apps[0].ID || c.Params.FlinkJobID == "" {
		t.Errorf("command recorded %s/%s, the cluster has %s", c.Params.AppID, c.Params.FlinkJobID, apps[0].ID)
	}
	if apps[0].Name != "dedup" || !coretest.ContainsTag(apps[0].Tags, "palink-cmd-"+strings.ToLower(c.ID)) {
		t.Errorf("application name %q tags %v", apps[0].Name, apps[0].Tags)
	}
	logged := strings.Join(coretest.LogTexts(c), "\n")
	if !strings.Contains(logged, "flink: Job has been submitted with JobID "+c.Params.FlinkJobID) {
		t.Errorf("the command log lacks the client's output:\n%s", logged)
	}
	e.SyncUntil("dedup", "RUNNING with a checkpoint", func(j model.Job) bool { return coretest.Running(j) && j.LatestCheckpoint != nil })

	if c := e.Act("dedup", model.CmdPause, 0); c.State != model.CmdSucceeded {
		t.Fatalf("pause: %s %s", c.State, c.Error)
	}
	sp := e.Job("dedup").LatestSavepoint
	if sp == nil {
		t.Fatal("no savepoint after pause")
	}
	if c := e.Act("dedup", model.CmdRestart, 0); c.State != model.CmdSucceeded {
		t.Fatalf("restart: %s %s\n%v", c.State, c.Error, c.Log)
	}
	j = e.SyncUntil("dedup", "RUNNING after restart", coretest.Running)
	app, err := e.Sim.App(j.AppID)
	if err != nil || len(app.Jobs) == 0 || app.Jobs[0].RestoredFrom != sp.Path {
		t.Errorf("restarted job did not restore %s through -s: %+v %v", sp.Path, app.Jobs, err)
	}
}

// TestExecDeployerReportsClientFailure: a failing client fails the command
// with its output, and the job is DEPLOY_FAILED with the reason.
func TestExecDeployerReportsClientFailure(t *testing.T) {
	fake, _ := filepath.Abs("testdata/fake-flink")
	e := coretest.New(t, sim.Options{}, func(c *clusters.Spec) {
		c.Deploy.JarDeployer = "exec"
		c.Deploy.Command = fake + " run -t {target} -d {dynamic} -c {class} {jar}"
	})
	jar := filepath.Join(t.TempDir(), "gone.jar")
	_ = os.WriteFile(jar, []byte("x"), 0o600)
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "gone", Cluster: "sim", Kind: model.KindJAR,
		Spec: model.Spec{JarPath: jar, EntryClass: "X"}}); err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(jar)
	c := e.Act("gone", model.CmdSubmit, 0)
	if c.State != model.CmdFailed || !strings.Contains(strings.Join(coretest.LogTexts(c), "\n"), "JAR file does not exist") {
		t.Fatalf("want a failed submit that shows the client's error: %s %s\n%v", c.State, c.Error, c.Log)
	}
	if j := e.Job("gone"); j.State != model.StateDeployFailed || j.Diagnostics == "" {
		t.Errorf("job after a failed deploy: %s %q", j.State, j.Diagnostics)
	}
}

// TestFailoverKeepsStateAndFollowsTheJobManager: under an RM failover and a
// JobManager failover, sync keeps the job RUNNING and records the
// JobManager's new address.
func TestFailoverKeepsStateAndFollowsTheJobManager(t *testing.T) {
	e := coretest.New(t, sim.Options{RMs: 2}, nil)
	e.CreateSQL("orders")
	if c := e.Act("orders", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	j := e.SyncUntil("orders", "RUNNING", coretest.Running)
	e.Sim.FailoverRM()
	st, err := e.Svc.SyncOnce(e.Ctx, 0)
	if err != nil || st.Errors != 0 || st.RMCalls != 1 {
		t.Fatalf("sync after RM failover: %+v %v", st, err)
	}
	if got := e.Job("orders"); got.State != model.StateRunning {
		t.Fatalf("after RM failover: %s", got.State)
	}
	old := j.JMAddress
	if err := e.Sim.FailoverJM(j.AppID); err != nil {
		t.Fatal(err)
	}
	j = e.SyncUntil("orders", "a new JobManager address", func(j model.Job) bool {
		return j.JMAddress != old && j.FlinkState == "RUNNING"
	})
	if j.State != model.StateRunning || j.AppID == "" {
		t.Errorf("after JM failover: %s %s", j.State, j.AppID)
	}
	d, _ := e.Svc.Job(e.Ctx, "orders")
	for _, ev := range d.Events {
		if ev.To == model.StateFailed || ev.To == model.StateFinished || ev.To == model.StateKilled {
			t.Errorf("failover produced a state change: %+v", ev)
		}
	}
	// Actions go to the new JobManager.
	if c := e.Act("orders", model.CmdSavepoint, 0); c.State != model.CmdSucceeded {
		t.Errorf("savepoint after JM failover: %s %s", c.State, c.Error)
	}
}

// TestDriftWhenTheApplicationVanishes: the platform expects RUNNING, the RM
// does not know the application: the job shows both sides, not UNKNOWN.
func TestDriftWhenTheApplicationVanishes(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	now := time.Now()
	err := e.St.Update(e.Ctx, func(tx store.Tx) error {
		return tx.CreateJob(model.Job{ID: "jghost", Name: "ghost", Kind: model.KindSQL, Cluster: "sim", SpecVersion: 1,
			State: model.StateRunning, AppID: "application_1_9999", CreatedAt: now, UpdatedAt: now})
	})
	if err != nil {
		t.Fatal(err)
	}
	j := e.SyncUntil("ghost", "drift", func(j model.Job) bool { return j.Drift != nil })
	if j.State != model.StateRunning || j.Drift.Expected != "RUNNING" || !strings.Contains(j.Drift.Observed, "application not found") {
		t.Errorf("drift = %s %+v", j.State, j.Drift)
	}
	d, _ := e.Svc.Job(e.Ctx, "ghost")
	if n := len(d.Events); n == 0 || !strings.Contains(d.Events[n-1].Reason, "drift: platform expects RUNNING") {
		t.Errorf("no drift event: %+v", d.Events)
	}
	// A second cycle does not repeat the event.
	_, _ = e.Svc.SyncOnce(e.Ctx, 0)
	d2, _ := e.Svc.Job(e.Ctx, "ghost")
	if len(d2.Events) != len(d.Events) {
		t.Errorf("drift event repeated: %d → %d events", len(d.Events), len(d2.Events))
	}
	// Kill of a vanished application ends the drift: KILLED.
	if c := e.Act("ghost", model.CmdKill, 0); c.State != model.CmdSucceeded {
		t.Fatalf("kill: %s %s", c.State, c.Error)
	}
	if j := e.Job("ghost"); j.State != model.StateKilled || j.Drift != nil {
		t.Errorf("after kill: %s drift %+v", j.State, j.Drift)
	}
}

// sessionEnv starts a session cluster on the simulator and a service over
// the same store configured to deploy into it; it returns the session's
// application once it runs.
func sessionEnv(t *testing.T) (*coretest.Env, string) {
	e := coretest.New(t, sim.Options{}, nil)
	s, err := e.Sim.Submit(e.Ctx, sim.SubmitRequest{Mode: sim.ModeSession, Name: "shared-session"})
	if err != nil {
		t.Fatal(err)
	}
	sessionApp := s.AppID
	// A second service over the same store and simulator, configured for the session.
	cc := coretest.SimCluster(e.Sim)
	cc.Deploy.Mode, cc.Deploy.SessionApp = "yarn-session", sessionApp
	svc, err := core.NewLocal(core.Options{Store: e.St, Clusters: []clusters.Spec{cc}, Poll: 20 * time.Millisecond, Lease: 2 * time.Second,
		EndingGrace: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	e.Svc = svc
	ctx, cancel := context.WithCancel(e.Ctx)
	t.Cleanup(cancel)
	go func() { _ = svc.RunScheduler(ctx) }()
	for deadline := time.Now().Add(30 * time.Second); ; {
		if a, _ := e.Sim.App(sessionApp); a.State == "RUNNING" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("session never ran")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return e, sessionApp
}

// TestSessionKillCancelsOnlyTheJob: in a shared session cluster, kill is a
// Flink cancel of the job; the session application keeps running.
func TestSessionKillCancelsOnlyTheJob(t *testing.T) {
	e, sessionApp := sessionEnv(t)
	svc := e.Svc
	e.CreateSQL("in-session")
	if c := e.Act("in-session", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s\n%v", c.State, c.Error, c.Log)
	}
	j := e.SyncUntil("in-session", "RUNNING", coretest.Running)
	if !j.Session || j.AppID != sessionApp {
		t.Fatalf("job runs in %s (session %v), want the session %s", j.AppID, j.Session, sessionApp)
	}
	ov, err := svc.ClusterOverview(e.Ctx, "sim")
	if err != nil {
		t.Fatal(err)
	}
	if len(ov.Sessions) != 1 || ov.Sessions[0].AppID != sessionApp || ov.Sessions[0].SlotsTotal == 0 || ov.Sessions[0].Jobs < 1 {
		t.Errorf("session clusters in the overview: %+v", ov.Sessions)
	}
	plan, err := svc.Plan(e.Ctx, api.ActionRequest{JobRef: "in-session", Kind: model.CmdKill})
	if err != nil || !strings.Contains(strings.Join(plan.Steps, " "), "cancel job") || !strings.Contains(strings.Join(plan.Steps, " "), "session keeps running") {
		t.Errorf("kill plan for a session job: %+v %v", plan.Steps, err)
	}
	if c := e.Act("in-session", model.CmdKill, 0); c.State != model.CmdSucceeded {
		t.Fatalf("kill: %s %s", c.State, c.Error)
	}
	if j := e.Job("in-session"); j.State != model.StateKilled {
		t.Errorf("job after kill: %s", j.State)
	}
	a, _ := e.Sim.App(sessionApp)
	if a.State != "RUNNING" {
		t.Errorf("the session application is %s after killing one of its jobs", a.State)
	}
	for _, fj := range a.Jobs {
		if fj.ID == j.FlinkJobID && fj.State != "CANCELED" {
			t.Errorf("Flink job %s is %s, want CANCELED", fj.ID, fj.State)
		}
	}
}

// TestSessionResubmitWhileTheSessionRuns: a session job that was killed
// is resubmitted into its session, which still runs another job: the live
// session application is not this job's to refuse on.
func TestSessionResubmitWhileTheSessionRuns(t *testing.T) {
	e, sessionApp := sessionEnv(t)
	for _, name := range []string{"neighbour", "in-session"} {
		e.CreateSQL(name)
		if c := e.Act(name, model.CmdSubmit, 0); c.State != model.CmdSucceeded {
			t.Fatalf("submit %s: %s %s", name, c.State, c.Error)
		}
		e.SyncUntil(name, "RUNNING", coretest.Running)
	}
	if c := e.Act("in-session", model.CmdKill, 0); c.State != model.CmdSucceeded {
		t.Fatalf("kill: %s %s", c.State, c.Error)
	}
	c := e.Act("in-session", model.CmdResubmit, model.RestoreNone)
	if c.State != model.CmdSucceeded {
		t.Fatalf("resubmit into the running session: %s %q\n%v", c.State, c.Error, coretest.LogTexts(c))
	}
	if j := e.SyncUntil("in-session", "RUNNING", coretest.Running); j.AppID != sessionApp {
		t.Errorf("resubmitted into %s, want the session %s", j.AppID, sessionApp)
	}
	if j := e.Job("neighbour"); j.State != model.StateRunning || j.AppID != sessionApp {
		t.Errorf("the neighbour is %s in %s after the resubmit", j.State, j.AppID)
	}
}

// TestSessionDeployRefusesARunningFlinkJob: the session's application
// always lives, so for a session job deploy asks the session's JobManager:
// a deploy command past CanAct (see TestDeployRefusesALiveApplication)
// while the job's Flink job still runs there is refused, and the session
// gets no second copy of it.
func TestSessionDeployRefusesARunningFlinkJob(t *testing.T) {
	e, sessionApp := sessionEnv(t)
	e.CreateSQL("in-session")
	if c := e.Act("in-session", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	j := e.SyncUntil("in-session", "RUNNING", coretest.Running)
	var id string
	err := e.St.Update(e.Ctx, func(tx store.Tx) error {
		cur, err := tx.Job(j.ID)
		if err != nil {
			return err
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
	want := "refusing to start in-session: its Flink job " + j.FlinkJobID + " is still RUNNING in session " + sessionApp
	if c.State != model.CmdFailed || !strings.Contains(c.Error, want) {
		t.Fatalf("deploy past CanAct while its Flink job runs in the session: %s %q\n%v", c.State, c.Error, coretest.LogTexts(c))
	}
	a, _ := e.Sim.App(sessionApp)
	running := 0
	for _, fj := range a.Jobs {
		if fj.State == "RUNNING" {
			running++
		}
	}
	if running != 1 {
		t.Errorf("%d Flink jobs run in the session, want the one that was there", running)
	}
}

// TestRestartAfterYARNForgotTheApplication: YARN keeps a bounded number of
// ended applications (yarn.resourcemanager.max-completed-applications); a
// job whose recorded application it no longer knows restarts, it is not
// refused.
func TestRestartAfterYARNForgotTheApplication(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	e.CreateSQL("old")
	if c := e.Act("old", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s", c.Error)
	}
	j := e.SyncUntil("old", "RUNNING", coretest.Running)
	if c := e.Act("old", model.CmdPause, 0); c.State != model.CmdSucceeded {
		t.Fatalf("pause: %s %s", c.State, c.Error)
	}
	forgotten := j.AppID[:strings.LastIndex(j.AppID, "_")+1] + "9999"
	if _, err := e.Sim.App(forgotten); err == nil {
		t.Fatalf("the simulator knows %s; the case needs an id it does not", forgotten)
	}
	err := e.St.Update(e.Ctx, func(tx store.Tx) error {
		cur, err := tx.Job(j.ID)
		if err != nil {
			return err
		}
		cur.AppID = forgotten
		return tx.PutJob(cur)
	})
	if err != nil {
		t.Fatal(err)
	}
	c := e.Act("old", model.CmdRestart, model.RestoreNone)
	if c.State != model.CmdSucceeded {
		t.Fatalf("restart after YARN forgot %s: %s %q\n%v", forgotten, c.State, c.Error, coretest.LogTexts(c))
	}
	if log := strings.Join(coretest.LogTexts(c), "\n"); !strings.Contains(log, "no live application of old: submitting") {
		t.Errorf("the restart's log does not say it found no live application:\n%s", log)
	}
}

// TestStartRefusedWhileTheApplicationLives: the store says FAILED but the
// application still runs its job (say, someone restarted it by hand): a
// restart is refused, clearly, and nothing is submitted.
func TestStartRefusedWhileTheApplicationLives(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	j := e.CreateSQL("stubborn")
	if c := e.Act("stubborn", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s", c.Error)
	}
	j = e.SyncUntil("stubborn", "RUNNING", coretest.Running)
	err := e.St.Update(e.Ctx, func(tx store.Tx) error {
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
	c := e.Act("stubborn", model.CmdRestart, model.RestoreNone)
	if c.State != model.CmdFailed || !strings.Contains(c.Error, "refusing to start stubborn: its application "+j.AppID+" is still RUNNING") {
		t.Fatalf("restart of a live job: %s %q", c.State, c.Error)
	}
	if n := len(e.LiveApps(j.ID)); n != 1 {
		t.Errorf("%d live applications, want 1", n)
	}
}

// TestPythonJobSubmitPauseRestart: a PyFlink job goes through the python run
// template and the fake `flink` (-py, -pyfs, -pyreq, -pyexec), runs as
// Flink's PythonDriver with the python.* settings, pauses with a savepoint
// and restarts from it.
func TestPythonJobSubmitPauseRestart(t *testing.T) {
	fake, err := filepath.Abs("testdata/fake-flink")
	if err != nil {
		t.Fatal(err)
	}
	e := coretest.New(t, sim.Options{}, func(c *clusters.Spec) {
		c.Deploy.JarDeployer = "exec"
		c.Deploy.PythonCommand = fake + " run -t {target} -d {dynamic} {restore} {python} {args}"
	})
	j, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "wordcount", Cluster: "sim", Kind: model.KindPython,
		Spec: model.Spec{PyFile: "jobs/word_count.py", Python: "from pyflink.table import TableEnvironment\n",
			PyFiles: []string{"hdfs:///py/lib.zip"}, PyRequirements: "hdfs:///py/requirements.txt",
			PyExecutable: "venv/bin/python3", PyClientExecutable: "/usr/bin/python3", Args: []string{"--output", "hdfs:///out"}}, Parallelism: 2})
	if err != nil {
		t.Fatal(err)
	}
	c := e.Act("wordcount", model.CmdSubmit, 0)
	if c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s\n%v", c.State, c.Error, c.Log)
	}
	logged := strings.Join(coretest.LogTexts(c), "\n")
	for _, want := range []string{"entry script word_count.py (spec v1", " -py ", "-pyfs hdfs:///py/lib.zip", "-pyreq hdfs:///py/requirements.txt", "-pyexec venv/bin/python3 -pyclientexec /usr/bin/python3 --output hdfs:///out"} {
		if !strings.Contains(logged, want) {
			t.Errorf("the command log lacks %q:\n%s", want, logged)
		}
	}
	e.SyncUntil("wordcount", "RUNNING with a checkpoint", func(j model.Job) bool { return coretest.Running(j) && j.LatestCheckpoint != nil })
	app, err := e.Sim.App(e.Job("wordcount").AppID)
	if err != nil || len(app.Jobs) != 1 {
		t.Fatalf("app: %+v %v", app, err)
	}
	if sj := app.Jobs[0]; sj.EntryClass != sim.PythonDriver || sj.Python == nil || sj.Python.Script != "word_count.py" ||
		sj.Python.Executable != "venv/bin/python3" || sj.Python.Requirements != "hdfs:///py/requirements.txt" {
		t.Errorf("the cluster runs %s %+v", sj.EntryClass, sj.Python)
	}

	if c := e.Act("wordcount", model.CmdPause, 0); c.State != model.CmdSucceeded {
		t.Fatalf("pause: %s %s", c.State, c.Error)
	}
	sp := e.Job("wordcount").LatestSavepoint
	if sp == nil {
		t.Fatal("no savepoint after pause")
	}
	if c := e.Act("wordcount", model.CmdRestart, 0); c.State != model.CmdSucceeded {
		t.Fatalf("restart: %s %s\n%v", c.State, c.Error, c.Log)
	}
	j = e.SyncUntil("wordcount", "RUNNING after restart", coretest.Running)
	app, err = e.Sim.App(j.AppID)
	if err != nil || len(app.Jobs) == 0 || app.Jobs[0].RestoredFrom != sp.Path || app.Jobs[0].Python == nil {
		t.Errorf("restarted PyFlink job did not restore %s through -s: %+v %v", sp.Path, app.Jobs, err)
	}
}

// TestPythonJobApplicationModeShipsTheScript: in application mode the
// versioned entry script is shipped (yarn.ship-files) and named relative to
// the shipped directory; a module job needs no script at all.
func TestPythonJobApplicationModeShipsTheScript(t *testing.T) {
	fake, _ := filepath.Abs("testdata/fake-flink")
	e := coretest.New(t, sim.Options{}, func(c *clusters.Spec) {
		c.Deploy.Mode = "yarn-application"
		c.Deploy.JarDeployer = "exec"
		c.Deploy.PythonCommand = fake + " run -t {target} -d {dynamic} {restore} {python} {args}"
	})
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "etl", Cluster: "sim", Kind: model.KindPython,
		Spec: model.Spec{PyFile: "etl.py", Python: "print('etl')\n"}}); err != nil {
		t.Fatal(err)
	}
	if c := e.Act("etl", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s\n%v", c.State, c.Error, c.Log)
	}
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "mod", Cluster: "sim", Kind: model.KindPython,
		Spec: model.Spec{PyModule: "jobs.mod", PyFiles: []string{"hdfs:///py/jobs.zip"}}}); err != nil {
		t.Fatal(err)
	}
	if c := e.Act("mod", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit module: %s %s\n%v", c.State, c.Error, c.Log)
	}
	for name, want := range map[string]string{"etl": "etl.py", "mod": ""} {
		j := e.SyncUntil(name, "RUNNING", coretest.Running)
		app, err := e.Sim.App(j.AppID)
		if err != nil || len(app.Jobs) != 1 || app.Jobs[0].Python == nil || app.Jobs[0].Python.Script != want {
			t.Errorf("%s: %+v %v", name, app.Jobs, err)
		}
	}
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "bad", Cluster: "sim", Kind: model.KindPython,
		Spec: model.Spec{PyModule: "jobs.mod"}}); err == nil || !strings.Contains(err.Error(), "--py-files") {
		t.Errorf("a module without its files: %v", err)
	}
}

// TestExecClientGetsNoneOfPalinksSecrets: the `flink run` client runs a JAR
// job's main() on the ops host, code an operator chose: it gets the
// variables Flink, Hadoop and Kerberos read to find the cluster, and the
// cluster's deploy env, never the rest of palink's environment (a cluster
// password, a token).
func TestExecClientGetsNoneOfPalinksSecrets(t *testing.T) {
	fake, err := filepath.Abs("testdata/fake-flink")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PALINK_PROD_PASSWORD", "hunter2")
	t.Setenv("GIT_TOK", "ghp_notforyou")
	t.Setenv("HADOOP_CONF_DIR", "/etc/hadoop/conf")
	dump := filepath.Join(t.TempDir(), "client.env")
	e := coretest.New(t, sim.Options{}, func(c *clusters.Spec) {
		c.Deploy.JarDeployer = "exec"
		c.Deploy.Command = fake + " run -t {target} -d {dynamic} {restore} -c {class} {jar} {args}"
		c.Deploy.Env["FAKE_FLINK_ENV_OUT"] = dump
		c.Deploy.Env["ACME_REGION"] = "eu-1"
	})
	jar := filepath.Join(t.TempDir(), "dedup.jar")
	if err := os.WriteFile(jar, []byte("PK\x03\x04 not really a jar"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "dedup", Cluster: "sim", Kind: model.KindJAR,
		Spec: model.Spec{JarPath: jar, EntryClass: "com.acme.Dedup"}}); err != nil {
		t.Fatal(err)
	}
	if c := e.Act("dedup", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	raw, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	got := string(raw)
	for _, secret := range []string{"PALINK_PROD_PASSWORD", "hunter2", "GIT_TOK", "ghp_notforyou"} {
		if strings.Contains(got, secret) {
			t.Errorf("the client's environment holds %s:\n%s", secret, got)
		}
	}
	for _, want := range []string{"HADOOP_CONF_DIR=/etc/hadoop/conf", "ACME_REGION=eu-1", "PATH="} {
		if !strings.Contains(got, want) {
			t.Errorf("the client's environment lacks %s:\n%s", want, got)
		}
	}
}

// TestExecClientSubmitsAsTheProxyUser: on a cluster set up for proxy users
// (auth.do_as), `flink run` submits as the palink user who acted: Hadoop's
// HADOOP_PROXY_USER in its environment, and no delegation tokens of
// palink's own login, without which Flink refuses a proxy user
// (FLINK-31109) — whatever deploy.env says.
func TestExecClientSubmitsAsTheProxyUser(t *testing.T) {
	fake, err := filepath.Abs("testdata/fake-flink")
	if err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(t.TempDir(), "client.env")
	e := coretest.New(t, sim.Options{}, func(c *clusters.Spec) {
		c.DoAs = true
		c.Deploy.JarDeployer = "exec"
		c.Deploy.Command = fake + " run -t {target} -d {dynamic} {restore} -c {class} {jar} {args}"
		c.Deploy.Env["FAKE_FLINK_ENV_OUT"] = dump
		c.Deploy.Env["HADOOP_PROXY_USER"] = "someone-else"
	})
	jar := filepath.Join(t.TempDir(), "dedup.jar")
	if err := os.WriteFile(jar, []byte("PK\x03\x04 not really a jar"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "dedup", Cluster: "sim", Kind: model.KindJAR,
		Spec: model.Spec{JarPath: jar, EntryClass: "com.acme.Dedup"}}); err != nil {
		t.Fatal(err)
	}
	c := e.Act("dedup", model.CmdSubmit, 0)
	if c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	raw, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	var proxies []string
	for _, kv := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(kv, "HADOOP_PROXY_USER="); ok {
			proxies = append(proxies, v)
		}
	}
	if len(proxies) != 1 || proxies[0] != c.Issuer || c.Issuer == "" {
		t.Errorf("the client's HADOOP_PROXY_USER: %q, want only the issuer %q", proxies, c.Issuer)
	}
	if logged := strings.Join(coretest.LogTexts(c), "\n"); !strings.Contains(logged, "-Dsecurity.kerberos.fetch.delegation-token=false") {
		t.Errorf("flink run does not turn delegation tokens off:\n%s", logged)
	}
}
