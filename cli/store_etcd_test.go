package cli

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core"
	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestCLIStoreMigrateToEtcdAndBack: a store file with jobs, commands and
// history goes into etcd with `palink store migrate --to`; palink then
// works on the store on etcd (reads the same, submits a job through the
// scheduler, checks it), and `--from etcd://… --to FILE` brings it back.
func TestCLIStoreMigrateToEtcdAndBack(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := "etcd://" + c.Endpoints()[0] + "/palink-cli"
	e := newCLIEnv(t, sim.Options{}, nil)
	sqlFile := writeTemp(t, "job.sql", e2eSQL)
	e.mustRun("job", "create", "--name", "orders", "--sql", sqlFile)
	e.mustRun("job", "create", "--name", "clicks", "--sql", sqlFile)
	e.mustRun("job", "submit", "orders", "--wait")
	contents := func(args ...string) string {
		var out string
		for _, q := range [][]string{{"jobs"}, {"commands"}, {"job", "history", "orders"}, {"job", "history", "clicks"}} {
			out += e.mustRun(append(append(args, q...), "-o", "json")...)
		}
		return out
	}
	want := contents()

	out := e.mustRun("store", "migrate", "--to", url)
	db := filepath.Join(filepath.Dir(e.config), "palink.db")
	if !strings.HasPrefix(out, "copied "+db+" to "+url+": ") || !strings.Contains(out, "compared: the same") {
		t.Errorf("store migrate said %q", out)
	}
	if got := contents("--db", url); got != want {
		t.Errorf("the store on etcd reads\n%s\nwant\n%s", got, want)
	}
	if _, err := e.run(context.Background(), "store", "migrate", "--to", url); err == nil || !strings.Contains(err.Error(), "holds a store already") {
		t.Errorf("a second migrate onto the store = %v, want a refusal", err)
	}
	if out := e.mustRun("--db", url, "store", "check"); !strings.HasPrefix(out, url+" (a snapshot of the store on etcd): ok: schema ") ||
		!strings.Contains(out, "2 jobs") {
		t.Errorf("store check on etcd said %q", out)
	}

	// The scheduler and state sync run on it.
	e.mustRun("--db", url, "job", "submit", "clicks", "--wait")
	var jobs []model.Job
	if err := decodeWire([]byte(e.mustRun("--db", url, "jobs", "-o", "json")), &jobs); err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if j.State != model.StateRunning {
			t.Errorf("job %s is %s on the store on etcd, want RUNNING", j.Name, j.State)
		}
	}

	back := filepath.Join(t.TempDir(), "back.db")
	out = e.mustRun("store", "migrate", "--from", url, "--to", back)
	if !strings.HasPrefix(out, "copied "+url+" at etcd revision ") || !strings.Contains(out, " to "+back+": ") {
		t.Errorf("store migrate back said %q", out)
	}
	if got, want := contents("--db", back), contents("--db", url); got != want {
		t.Errorf("the file migrated back reads\n%s\nwant\n%s", got, want)
	}
}

// TestCLIEtcdUnreachable: a configured store on etcd that no endpoint
// serves fails at start, within the dial timeout, naming the endpoints.
func TestCLIEtcdUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close()
	e := newCLIEnv(t, sim.Options{}, func(c *config.Config) {
		c.Store = "etcd://" + dead + "/palink"
		c.Etcd.DialTimeout = config.Duration(time.Second)
	})
	start := time.Now()
	_, err = e.run(context.Background(), "jobs")
	if err == nil || !strings.Contains(err.Error(), "open store etcd://"+dead+"/palink: no etcd endpoint answered within 1s ("+dead+")") {
		t.Errorf("palink jobs with etcd down: %v", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %v to give up", took)
	}
}

// TestCLIAgentOnEtcd: an agent serves a store on etcd on the host's
// socket for it, and another palink of the host works through it.
func TestCLIAgentOnEtcd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := "etcd://" + c.Endpoints()[0] + "/palink-agent"
	e := newCLIEnv(t, sim.Options{}, func(cfg *config.Config) {
		cfg.Store = url
		cfg.Socket = "" // the default socket, named after the URL
	})
	sqlFile := writeTemp(t, "job.sql", e2eSQL)
	e.mustRun("job", "create", "--name", "orders", "--sql", sqlFile)
	ctx, cancel := context.WithCancel(context.Background())
	agentDone := make(chan error, 1)
	go func() { _, err := e.run(ctx, "agent"); agentDone <- err }()
	defer func() { cancel(); <-agentDone }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, err := e.run(context.Background(), "store", "check")
		if err == nil && strings.HasPrefix(out, url+" (a snapshot taken through the agent): ok:") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("store check with an agent on etcd: %v\n%s", err, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
	e.mustRun("job", "submit", "orders", "--wait")
}

// TestCLIOwnPalinkOnEtcdIsGuarded: a palink that opens a store on etcd
// itself (no agent) is held to the roles the config gives its user, as
// one over the agent's socket or SSH is: whoever can reach etcd is not
// its admin by that alone.
func TestCLIOwnPalinkOnEtcdIsGuarded(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := "etcd://" + c.Endpoints()[0] + "/palink-guarded"
	owner := newCLIEnv(t, sim.Options{}, func(cfg *config.Config) { cfg.Store = url })
	sqlFile := writeTemp(t, "job.sql", e2eSQL)
	// No admins named: one person's store, whose user is its admin.
	owner.mustRun("job", "create", "--name", "orders", "--sql", sqlFile)

	viewer := newCLIEnvOn(t, owner.sim, func(cfg *config.Config) {
		cfg.Store = url
		cfg.Admins, cfg.Operators = []string{"alice"}, []string{"bob"}
	})
	if out := viewer.mustRun("jobs"); !strings.Contains(out, "orders") {
		t.Errorf("a viewer's jobs list does not show the job:\n%s", out)
	}
	me := core.CurrentUser()
	for _, args := range [][]string{
		{"job", "submit", "orders"},
		{"job", "create", "--name", "payments", "--sql", sqlFile},
	} {
		_, err := viewer.run(context.Background(), args...)
		if err == nil || !strings.Contains(err.Error(), "user "+me) || !strings.Contains(err.Error(), "viewer") ||
			!strings.Contains(err.Error(), "this palink opened the store itself") {
			t.Errorf("palink %s as a viewer of a store on etcd it opened itself: %v", strings.Join(args, " "), err)
		}
	}
	out := owner.mustRun("jobs", "-o", "json")
	if strings.Contains(out, "payments") || strings.Contains(out, `"DEPLOYING"`) {
		t.Errorf("a refused call changed the store:\n%s", out)
	}
}
