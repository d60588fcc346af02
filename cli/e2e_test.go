package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/demo"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// cliEnv is a simulator and a config file pointing at it, for running the
// CLI the way a user does.
type cliEnv struct {
	t      *testing.T
	sim    *sim.Cluster
	config string
}

func newCLIEnv(t *testing.T, o sim.Options, edit func(*config.Config)) *cliEnv {
	t.Helper()
	if o.Speed == 0 {
		o.Speed = 30
	}
	if o.Seed == 0 {
		o.Seed = 7
	}
	c, err := sim.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := c.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return newCLIEnvOn(t, c, edit)
}

// newCLIEnvOn is a store and config of its own against a running
// simulator: several of them are several palinks sharing one cluster.
func newCLIEnvOn(t *testing.T, c *sim.Cluster, edit func(*config.Config)) *cliEnv {
	t.Helper()
	dir := t.TempDir()
	cfg := demo.SimConfig(c, filepath.Join(dir, "palink.db"))
	cfg.Sync.Interval = config.Duration(time.Second)
	cfg.Scheduler.Lease = config.Duration(2 * time.Second)
	cfg.Restart.Backoff = config.Duration(time.Second)
	cfg.Restart.MaxBackoff = config.Duration(2 * time.Second)
	cfg.Restart.MaxAttempts = 2
	cfg.Socket = filepath.Join(dir, "agent.sock")
	if os.Geteuid() == 0 {
		cfg.Build.User = "nobody" // palink as root builds nothing as root
	}
	if edit != nil {
		edit(cfg)
	}
	path := filepath.Join(dir, "config.yaml")
	if err := cfg.Write(path); err != nil {
		t.Fatal(err)
	}
	return &cliEnv{t: t, sim: c, config: path}
}

// run runs one palink CLI invocation and returns its standard output; a
// failure carries its standard error.
func (e *cliEnv) run(ctx context.Context, args ...string) (string, error) {
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(append([]string{"--config", e.config}, args...))
	if err := root.ExecuteContext(ctx); err != nil {
		return out.String(), fmt.Errorf("%w\n%s", err, errOut.String())
	}
	return out.String(), nil
}

// runBoth runs one palink CLI invocation and returns its standard output
// and standard error, failing the test if it fails.
func (e *cliEnv) runBoth(ctx context.Context, args ...string) (string, string) {
	e.t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(append([]string{"--config", e.config}, args...))
	if err := root.ExecuteContext(ctx); err != nil {
		e.t.Fatalf("palink %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errOut.String())
	}
	return out.String(), errOut.String()
}

func (e *cliEnv) mustRun(args ...string) string {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := e.run(ctx, args...)
	if err != nil {
		e.t.Fatalf("palink %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func (e *cliEnv) job(name string) api.JobDetail {
	e.t.Helper()
	var d api.JobDetail
	if err := decodeWire([]byte(e.mustRun("job", "show", name, "-o", "json")), &d); err != nil {
		e.t.Fatalf("job show -o json: %v", err)
	}
	return d
}

// syncUntil runs `palink sync --once` until cond holds for the job.
func (e *cliEnv) syncUntil(name, what string, cond func(model.Job) bool) model.Job {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		e.mustRun("sync", "--once")
		j := e.job(name).Job
		if cond(j) {
			return j
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: %s never happened; job is %s (%+v)", name, what, j.State, j)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

const e2eSQL = `CREATE TABLE src (id BIGINT, v STRING) WITH ('connector' = 'datagen');
CREATE TABLE snk (id BIGINT, v STRING) WITH ('connector' = 'blackhole');
INSERT INTO snk SELECT id, v FROM src;
`

// TestCLIJobLifecycle is the end-to-end test of issue 3 through the CLI:
// create, submit, run with checkpoints, pause with a savepoint, restart from
// it, kill, resubmit with nothing restored, and the restart policy on
// failure until it gives up.
func TestCLIJobLifecycle(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	e := newCLIEnv(t, sim.Options{}, nil)
	sqlFile := filepath.Join(t.TempDir(), "job.sql")
	if err := os.WriteFile(sqlFile, []byte(e2eSQL), 0o600); err != nil {
		t.Fatal(err)
	}
	// Retained checkpoints (kept after a failure), so that the restart
	// policy below has the failed run's checkpoint to restore.
	e.mustRun("job", "create", "--name", "orders", "--sql", sqlFile,
		"--set", "execution.checkpointing.externalized-checkpoint-retention=RETAIN_ON_CANCELLATION")
	out := e.mustRun("job", "submit", "orders", "--wait")
	if !strings.Contains(out, "SUBMIT #1 SUCCEEDED") {
		t.Fatalf("submit: %s", out)
	}
	j := e.syncUntil("orders", "RUNNING with a checkpoint", func(j model.Job) bool {
		return j.State == model.StateRunning && j.LatestCheckpoint != nil
	})
	if !strings.HasPrefix(j.AppID, "application_") || j.FlinkJobID == "" {
		t.Fatalf("running job lacks ids: %+v", j)
	}
	if apps := e.appsOf(j.ID); len(apps) != 1 {
		t.Fatalf("%d applications for the job, want 1", len(apps))
	}

	// pause → FINISHED with a savepoint recorded
	out = e.mustRun("job", "pause", "orders", "--wait")
	if !strings.Contains(out, "PAUSE #2 SUCCEEDED") {
		t.Fatalf("pause: %s", out)
	}
	d := e.job("orders")
	if d.Job.State != model.StateFinished || d.Job.LatestSavepoint == nil {
		t.Fatalf("after pause: %s, savepoint %+v", d.Job.State, d.Job.LatestSavepoint)
	}
	sp := d.Job.LatestSavepoint.Path
	if !hasRestorePoint(d.RestorePoints, model.Savepoint, sp) {
		t.Errorf("savepoint %s not in the restore points %+v", sp, d.RestorePoints)
	}

	// restart → RUNNING, and the new Flink job restored that savepoint
	e.mustRun("job", "restart", "orders", "--wait")
	j = e.syncUntil("orders", "RUNNING after restart", func(j model.Job) bool { return j.State == model.StateRunning })
	if j.RestoredFrom != sp {
		t.Errorf("restarted job restored from %q, want the savepoint %q", j.RestoredFrom, sp)
	}
	if app, err := e.sim.App(j.AppID); err != nil || len(app.Jobs) == 0 || app.Jobs[len(app.Jobs)-1].RestoredFrom != sp {
		t.Errorf("the simulator's Flink job did not restore %s: %+v, %v", sp, app.Jobs, err)
	}

	// kill → KILLED (confirmation skipped with --yes)
	out = e.mustRun("job", "kill", "orders", "--yes", "--wait")
	if !strings.Contains(out, "SUCCEEDED") {
		t.Fatalf("kill: %s", out)
	}
	if s := e.job("orders").Job.State; s != model.StateKilled {
		t.Fatalf("after kill: %s", s)
	}
	if app, _ := e.sim.App(j.AppID); app.State != "KILLED" {
		t.Errorf("YARN application is %s after kill", app.State)
	}

	// resubmit with --restore none → RUNNING with nothing restored
	e.mustRun("job", "resubmit", "orders", "--restore", "none", "--yes", "--wait")
	j = e.syncUntil("orders", "RUNNING after resubmit", func(j model.Job) bool { return j.State == model.StateRunning })
	if j.RestoredFrom != "" {
		t.Errorf("resubmit --restore none restored %q", j.RestoredFrom)
	}
	j = e.syncUntil("orders", "a checkpoint of the new run", func(x model.Job) bool {
		return x.LatestCheckpoint != nil && strings.Contains(x.LatestCheckpoint.Path, x.FlinkJobID)
	})

	// A job made to fail is restarted by the policy from its latest
	// checkpoint, then given up after max attempts (2 in this config).
	ctx, cancel := context.WithCancel(context.Background())
	agentDone := make(chan error, 1)
	go func() { _, err := e.run(ctx, "agent"); agentDone <- err }()
	var once sync.Once
	stopAgent := func() { once.Do(func() { cancel(); <-agentDone }) }
	defer stopAgent()
	failures := 0
	deadline := time.Now().Add(90 * time.Second)
	lastApp, lastFlinkJob := "", ""
	// restored[i] is what policy restart i+1 restored, and the Flink job
	// that failed before it.
	type policyRestart struct {
		restored, failed string
		seen             int64 // the newest checkpoint id of the failed run palink had when it failed
	}
	var restored []policyRestart
	var lastSeen int64
	for time.Now().Before(deadline) {
		time.Sleep(300 * time.Millisecond)
		cur, err := e.jobViaAgentStore(ctx, "orders")
		if err != nil {
			continue
		}
		// Each run is failed once palink has recorded a checkpoint of it,
		// so the restart after it has one of that run to restore.
		if cur.State == model.StateRunning && cur.AppID != lastApp && failures <= 2 &&
			cur.LatestCheckpoint != nil && cur.LatestCheckpoint.FlinkJobID == cur.FlinkJobID {
			if failures > 0 {
				restored = append(restored, policyRestart{cur.RestoredFrom, lastFlinkJob, lastSeen})
			}
			lastApp, lastFlinkJob, lastSeen = cur.AppID, cur.FlinkJobID, cur.LatestCheckpoint.CheckID
			if err := e.sim.FailJob(cur.AppID); err != nil {
				t.Fatal(err)
			}
			failures++
		}
		if cur.State == model.StateFailed && failures == 3 && cur.NextRestart.IsZero() {
			break
		}
	}
	stopAgent()
	d = e.job("orders")
	if d.Job.State != model.StateFailed || failures != 3 {
		t.Fatalf("after %d failures: %s", failures, d.Job.State)
	}
	gaveUp := false
	for _, ev := range d.Events {
		if strings.Contains(ev.Reason, "gave up") {
			gaveUp = true
		}
	}
	if !gaveUp {
		t.Errorf("no 'gave up' event in the timeline")
	}
	// Each policy restart restored the latest checkpoint of the run that
	// failed: one of that Flink job, at least as new as the newest palink
	// had recorded when the failure was planted (sync may record a newer
	// one before the failure lands). The history no longer holds it once
	// later runs' checkpoints subsume it (the store keeps what Flink
	// retains), so the path says which it is.
	if len(restored) != 2 {
		t.Errorf("saw %d policy restarts running, want 2", len(restored))
	}
	chk := regexp.MustCompile(`/chk-([0-9]+)/?$`)
	for i, r := range restored {
		m := chk.FindStringSubmatch(r.restored)
		var id int64
		if m != nil {
			id, _ = strconv.ParseInt(m[1], 10, 64)
		}
		if m == nil || !strings.Contains(r.restored, r.failed) || id < r.seen {
			t.Errorf("policy restart %d restored %q, want a checkpoint of the failed run %s, chk-%d or newer",
				i+1, r.restored, r.failed, r.seen)
		}
	}
	auto := 0
	for _, c := range d.Commands {
		if c.Kind == model.CmdRestart && c.Params.Auto {
			auto++
			if c.Params.Restore != model.RestoreCheckpoint {
				t.Errorf("policy restart #%d restores %s, want checkpoint", c.Seq, c.Params.Restore)
			}
		}
	}
	if auto != 2 {
		t.Errorf("%d policy restarts, want 2 (max attempts)", auto)
	}
}

// jobViaAgentStore reads the job while `palink agent` owns the store: the
// CLI then talks to the agent over its socket.
func (e *cliEnv) jobViaAgentStore(ctx context.Context, name string) (model.Job, error) {
	out, err := e.run(ctx, "job", "show", name, "-o", "json")
	if err != nil {
		return model.Job{}, err
	}
	var d api.JobDetail
	if err := decodeWire([]byte(out), &d); err != nil {
		return model.Job{}, err
	}
	return d.Job, nil
}

func (e *cliEnv) appsOf(jobID string) []sim.App {
	var out []sim.App
	for _, a := range e.sim.Apps() {
		for _, tag := range a.Tags {
			if tag == "palink-job-"+strings.ToLower(jobID) {
				out = append(out, a)
			}
		}
	}
	return out
}

func hasRestorePoint(rps []model.RestorePoint, k model.RestorePointKind, path string) bool {
	for _, rp := range rps {
		if rp.Kind == k && rp.Path == path {
			return true
		}
	}
	return false
}

func (e *cliEnv) commandsJSON(ctx context.Context) ([]model.Command, error) {
	out, err := e.run(ctx, "commands", "-o", "json")
	if err != nil {
		return nil, err
	}
	var cs []model.Command
	return cs, decodeWire([]byte(out), &cs)
}

// TestSimCommand runs `palink sim` on a loopback port: it answers the YARN
// RM API, the RM web proxy and the SQL Gateway, and its --config-out file
// makes `palink --config FILE …` work against it at once.
func TestSimCommand(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "sim.yaml")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"sim", "--addr", "127.0.0.1:0", "--jobs", "4", "--seed", "3", "--config-out", cfgPath})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	var cfg *config.Config
	for deadline := time.Now().Add(20 * time.Second); cfg == nil; {
		if c, _, err := config.Load(cfgPath); err == nil {
			cfg = c
		} else if time.Now().After(deadline) {
			t.Fatalf("no config written: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	get := func(url string, v any) {
		t.Helper()
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s", url, resp.Status)
		}
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
	}
	rm := cfg.Clusters[0].RM[0]
	var apps struct {
		Apps struct {
			App []struct{ ID, State, ApplicationType string } `json:"app"`
		} `json:"apps"`
	}
	get(rm+"/ws/v1/cluster/apps?states=RUNNING&applicationTypes=Apache%20Flink", &apps)
	if len(apps.Apps.App) == 0 {
		t.Fatal("no running Flink applications listed")
	}
	var overview struct {
		Jobs []struct{ Jid, State string } `json:"jobs"`
	}
	get(rm+"/proxy/"+apps.Apps.App[0].ID+"/jobs/overview", &overview)
	if len(overview.Jobs) == 0 || overview.Jobs[0].Jid == "" {
		t.Errorf("jobs overview through the proxy: %+v", overview)
	}
	var versions struct{ Versions []string }
	get(cfg.Clusters[0].SQLGateway+"/api_versions", &versions)
	if len(versions.Versions) == 0 {
		t.Errorf("gateway api_versions: %+v", versions)
	}
	// The written config is short, commented, and means what the demo's does.
	text, _ := os.ReadFile(cfgPath)
	if n := strings.Count(string(text), "\n"); n > 45 || !strings.Contains(string(text), "# ") {
		t.Errorf("--config-out wrote %d lines, or no comment:\n%s", n, text)
	}
	want := demo.SimConfig(nil, cfg.Store)
	if cfg.Sync != want.Sync || cfg.Metrics != want.Metrics || len(cfg.Alerts.Rules) != len(want.Alerts.Rules) ||
		cfg.Clusters[0].Deploy.SavepointDir != want.Clusters[0].Deploy.SavepointDir || cfg.Clusters[0].User != want.Clusters[0].User {
		t.Errorf("--config-out differs from the demo's config:\n%+v\nwant\n%+v", cfg, want)
	}
	e := &cliEnv{t: t, config: cfgPath}
	if got := e.mustRun("config", "check"); !strings.Contains(got, "ok") {
		t.Errorf("config check: %s", got)
	}
	e.mustRun("jobs")
	cancel()
	if err := <-done; err != nil {
		t.Errorf("palink sim: %v", err)
	}
}

// TestCLIClusterAdoptEdit: the cluster view lists the Flink applications
// palink does not manage; adopting one makes it a job that sync follows;
// a new spec version is saved with job edit.
func TestCLIClusterAdoptEdit(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	e := newCLIEnv(t, sim.Options{Apps: 8}, nil)
	var ov api.ClusterOverview
	if err := decodeWire([]byte(e.mustRun("cluster", "-o", "json")), &ov); err != nil {
		t.Fatal(err)
	}
	if ov.Metrics.VCoresTotal == 0 || len(ov.Queues) == 0 {
		t.Errorf("cluster metrics/queues missing: %+v", ov.Metrics)
	}
	var app api.Application
	for _, a := range ov.Unmanaged {
		if a.State == "RUNNING" {
			app = a
			break
		}
	}
	if app.ID == "" {
		t.Fatalf("no running unmanaged application among %d", len(ov.Unmanaged))
	}
	e.mustRun("adopt", app.ID, "--name", "adopted-one")
	j := e.syncUntil("adopted-one", "RUNNING", func(j model.Job) bool { return j.State == model.StateRunning })
	if j.AppID != app.ID || j.FlinkJobID == "" {
		t.Errorf("adopted job: %+v", j)
	}
	if err := decodeWire([]byte(e.mustRun("cluster", "-o", "json")), &ov); err != nil {
		t.Fatal(err)
	}
	for _, a := range ov.Unmanaged {
		if a.ID == app.ID {
			t.Errorf("%s is still listed as unmanaged after adoption", app.ID)
		}
	}
	sqlFile := filepath.Join(t.TempDir(), "v2.sql")
	_ = os.WriteFile(sqlFile, []byte(e2eSQL), 0o600)
	if out := e.mustRun("job", "edit", "adopted-one", "--sql", sqlFile, "--note", "now with SQL"); !strings.Contains(out, "v2") {
		t.Errorf("job edit: %s", out)
	}
	if d := e.job("adopted-one"); d.Job.SpecVersion != 2 || !strings.Contains(d.Spec.SQL, "INSERT INTO snk") {
		t.Errorf("after edit: v%d %q", d.Job.SpecVersion, d.Spec.SQL)
	}
}

// TestConfigurationGuideIsValid: the configuration example in
// docs/configuration.md uses only fields palink knows, with values it
// accepts; what it names outside (files, environment variables) is all that
// `config check` may complain of.
func TestConfigurationGuideIsValid(t *testing.T) {
	b, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "# Configuration")
	j := strings.Index(s[i:], "```yaml\n")
	k := strings.Index(s[i+j+8:], "```")
	if i < 0 || j < 0 || k < 0 {
		t.Fatal("no yaml block under # Configuration in docs/configuration.md")
	}
	// The example names its secret by variable; a user sets it before palink runs.
	t.Setenv("PALINK_PROD_PASSWORD", "example")
	_, _, err = config.Parse("docs/configuration.md", []byte(s[i+j+8:i+j+8+k]))
	var ps config.Problems
	if err != nil && !errors.As(err, &ps) {
		t.Fatal(err)
	}
	for _, p := range ps {
		if !strings.Contains(p.Message, "no such file") {
			t.Errorf("docs/configuration.md: %v", p)
		}
	}
}
