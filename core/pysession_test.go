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
	"github.com/palink/palink/yarn/sim"
)

// TestPythonJobInASessionCluster: a PyFlink job on a yarn-session cluster
// is run by the client attached to the session (`flink run -t
// yarn-session -Dyarn.application.id=…`) under the command's fixed job
// id; it runs in the session's application, pauses with a savepoint and
// restarts from it there, and the session keeps running throughout.
func TestPythonJobInASessionCluster(t *testing.T) {
	fake, _ := filepath.Abs("testdata/fake-flink")
	e := coretest.New(t, sim.Options{}, nil)
	s, err := e.Sim.Submit(e.Ctx, sim.SubmitRequest{Mode: sim.ModeSession, Name: "shared-session"})
	if err != nil {
		t.Fatal(err)
	}
	cc := coretest.SimCluster(e.Sim)
	cc.Deploy.Mode, cc.Deploy.SessionApp = "yarn-session", s.AppID
	// The client's output ends with its arguments (a console log), which
	// carry a secret the command log must show masked.
	wrapper := filepath.Join(t.TempDir(), "flink")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\n"+fake+" \"$@\"; rc=$?\necho \"Program Arguments: $*\"\nexit $rc\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	const secret = "pl4nted-pysession-0e4"
	t.Setenv("PALINK_TEST_PY_SECRET", secret)
	cc.Deploy.PythonCommand = wrapper + " run -t {target} -d {dynamic} {restore} {python} {args}"
	svc, err := core.NewLocal(core.Options{Store: e.St, Clusters: []clusters.Spec{cc}, Poll: 20 * time.Millisecond, Lease: 2 * time.Second,
		EndingGrace: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	e.Svc = svc
	ctx, cancel := context.WithCancel(e.Ctx)
	t.Cleanup(cancel)
	go func() { _ = svc.RunScheduler(ctx) }()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if a, _ := e.Sim.App(s.AppID); a.State == "RUNNING" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("session never ran")
		}
	}

	if _, err := e.Svc.SetVar(e.Ctx, model.Variable{Name: "token", SecretEnv: "PALINK_TEST_PY_SECRET"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "wordcount", Cluster: "sim", Kind: model.KindPython,
		Spec: model.Spec{PyFile: "word_count.py", Python: "from pyflink.table import TableEnvironment\n", PyFiles: []string{"hdfs:///py/lib.zip"},
			Args: []string{"--token", "${token}"}}}); err != nil {
		t.Fatal(err)
	}
	c := e.Act("wordcount", model.CmdSubmit, 0)
	if c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s\n%v", c.State, c.Error, c.Log)
	}
	logged := strings.Join(coretest.LogTexts(c), "\n")
	if !strings.Contains(logged, "-t yarn-session") || !strings.Contains(logged, "-Dyarn.application.id="+s.AppID) ||
		!strings.Contains(logged, "-D$internal.pipeline.job-id="+c.Params.FlinkJobID) {
		t.Errorf("the client was not attached to the session:\n%s", logged)
	}
	if strings.Contains(logged, secret) || strings.Count(logged, "--token "+model.Masked) != 2 {
		t.Errorf("the command log shows the secret, or not the argv and the client's output masked:\n%s", logged)
	}
	j := e.SyncUntil("wordcount", "RUNNING with a checkpoint", func(j model.Job) bool { return coretest.Running(j) && j.LatestCheckpoint != nil })
	if j.AppID != s.AppID || !j.Session || j.FlinkJobID != c.Params.FlinkJobID {
		t.Fatalf("job runs in %s (session %v) as %s; want session %s, job %s", j.AppID, j.Session, j.FlinkJobID, s.AppID, c.Params.FlinkJobID)
	}
	app, _ := e.Sim.App(s.AppID)
	if len(app.Jobs) != 1 || app.Jobs[0].EntryClass != sim.PythonDriver || app.Jobs[0].Python == nil || app.Jobs[0].Python.Script != "word_count.py" {
		t.Fatalf("the session runs %+v", app.Jobs)
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
	app, _ = e.Sim.App(s.AppID)
	if app.State != "RUNNING" || len(app.Jobs) != 2 || app.Jobs[1].ID != j.FlinkJobID || app.Jobs[1].RestoredFrom != sp.Path {
		t.Errorf("after restart the session %s holds %+v; the job is %s", app.State, app.Jobs, j.FlinkJobID)
	}
}
