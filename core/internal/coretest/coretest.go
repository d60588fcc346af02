// Package coretest is the test bed of core's tests and of the agent's: the
// in-process service over a fresh store and a running simulator, with the
// scheduler running, and helpers to act and to sync until something holds.
package coretest

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
	"github.com/palink/palink/core/observe"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// Env is the in-process service over a fresh store and a simulator,
// with the scheduler Running; tests drive sync themselves.
type Env struct {
	T   *testing.T
	Ctx context.Context
	Sim *sim.Cluster
	Svc *core.Local
	St  store.Store
}

func New(t *testing.T, o sim.Options, edit func(*clusters.Spec)) *Env {
	t.Helper()
	return NewWith(t, o, edit, nil)
}

// NewWith is New with core's options edited too (a savepoint policy, a
// faster tick).
func NewWith(t *testing.T, o sim.Options, edit func(*clusters.Spec), editCore func(*core.Options)) *Env {
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
	cc := SimCluster(c)
	if edit != nil {
		edit(&cc)
	}
	// No restart policy: tests drive failures themselves. The alert rules are
	// the config file's defaults.
	co := core.Options{Store: st, Clusters: []clusters.Spec{cc}, User: "tester", Observe: observe.Settings{Rules: DefaultRules()},
		Poll: 20 * time.Millisecond, Lease: 2 * time.Second, NoJitter: true, EndingGrace: 3 * time.Second,
		Build: TestBuildPolicy()}
	if editCore != nil {
		editCore(&co)
	}
	svc, err := core.NewLocal(co)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = svc.RunScheduler(ctx) }()
	t.Cleanup(func() { cancel(); <-done; st.Close(); c.Close() })
	return &Env{T: t, Ctx: ctx, Sim: c, Svc: svc, St: st}
}

// TestBuildPolicy is how builds and secret commands run in tests: as
// nobody where the tests run as root (CI does), since palink refuses to
// run them as root; else as the tester.
func TestBuildPolicy() core.BuildPolicy {
	if os.Geteuid() == 0 {
		return core.BuildPolicy{User: "nobody"}
	}
	return core.BuildPolicy{}
}

// DefaultRules are the alert rules a config without alerts.rules gets.
func DefaultRules() []observe.Rule {
	return []observe.Rule{{Name: "job-failed", Kind: observe.RuleJobFailed, Severity: "critical"}, {Name: "state-drift", Kind: observe.RuleDrift, Severity: "warning"}}
}

// SimCluster is the simulator as the one cluster, "sim", of a palink.
func SimCluster(c *sim.Cluster) clusters.Spec {
	// The exec deployer's tests run a fake flink client (testdata/fake-flink),
	// which finds the simulator's RM as the real one finds a cluster: in
	// its environment, which the cluster's deploy env gives it.
	return clusters.Spec{Name: "sim", RM: c.RMURLs(), SQLGateway: c.GatewayURL(), User: "ops",
		Deploy: clusters.Deploy{SavepointDir: "hdfs:///flink/savepoints", Env: map[string]string{"FAKE_FLINK_RM": c.RMURLs()[0]}}}
}

// SQL is a job that reads generated rows and writes them nowhere.
const SQL = `CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen');
CREATE TABLE snk (id BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO snk SELECT id FROM src;`

func (e *Env) CreateSQL(name string) model.Job {
	e.T.Helper()
	j, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: name, Cluster: "sim", Kind: model.KindSQL, Spec: model.Spec{SQL: SQL}})
	if err != nil {
		e.T.Fatal(err)
	}
	return j
}

// act issues an action and waits for its command to end.
func (e *Env) Act(ref string, k model.CommandKind, restore model.RestoreChoice) model.Command {
	e.T.Helper()
	c, err := e.Svc.Act(e.Ctx, api.ActionRequest{JobRef: ref, Kind: k, Restore: restore})
	if err != nil {
		e.T.Fatalf("%s %s: %v", k, ref, err)
	}
	ctx, cancel := context.WithTimeout(e.Ctx, time.Minute)
	defer cancel()
	c, err = e.Svc.WaitCommand(ctx, c.ID)
	if err != nil {
		e.T.Fatalf("wait %s: %v", k, err)
	}
	return c
}

func (e *Env) Job(ref string) model.Job {
	e.T.Helper()
	d, err := e.Svc.Job(e.Ctx, ref)
	if err != nil {
		e.T.Fatal(err)
	}
	return d.Job
}

// syncUntil runs sync cycles until cond holds.
func (e *Env) SyncUntil(ref, what string, cond func(model.Job) bool) model.Job {
	e.T.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; {
		if _, err := e.Svc.SyncOnce(e.Ctx, 0); err != nil {
			e.T.Fatal(err)
		}
		j := e.Job(ref)
		if cond(j) {
			return j
		}
		if time.Now().After(deadline) {
			e.T.Fatalf("%s: %s never happened: %s %+v", ref, what, j.State, j)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func Running(j model.Job) bool { return j.State == model.StateRunning }

func (e *Env) LiveApps(jobID string) []sim.App {
	var out []sim.App
	for _, a := range e.Sim.Apps() {
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

func ContainsTag(tags []string, t string) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}

func LogTexts(c model.Command) []string {
	var out []string
	for _, l := range c.Log {
		out = append(out, l.Text)
	}
	return out
}
