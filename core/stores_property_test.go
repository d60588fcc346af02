package core_test

import (
	"context"
	"errors"
	"flag"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// killRecorder stands between one palink and the ResourceManager and
// notes every application it asks YARN to kill.
type killRecorder struct {
	mu    sync.Mutex
	kills []string
}

var appStatePath = regexp.MustCompile(`/ws/v1/cluster/apps/([^/]+)/state$`)

func newKillRecorder(t *testing.T, rm string) (*killRecorder, string) {
	u, err := url.Parse(rm)
	if err != nil {
		t.Fatal(err)
	}
	k := &killRecorder{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m := appStatePath.FindStringSubmatch(r.URL.Path); m != nil && r.Method == http.MethodPut {
			k.mu.Lock()
			k.kills = append(k.kills, m[1])
			k.mu.Unlock()
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return k, srv.URL
}

func (k *killRecorder) take() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := k.kills
	k.kills = nil
	return out
}

// palinkStore is one palink: its store file, its service (rebuilt after a
// crash or a restore, as a new process would be), the backup it last took,
// and what it asked YARN to kill.
type palinkStore struct {
	name   string
	path   string
	backup string
	spec   clusters.Spec
	st     *store.Bolt
	svc    *core.Local
	kills  *killRecorder
}

func (p *palinkStore) open(t *testing.T) {
	st, err := store.Open(p.path, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := core.NewLocal(core.Options{Store: st, Clusters: []clusters.Spec{p.spec}, User: p.name,
		Poll: 20 * time.Millisecond, Lease: 2 * time.Second, NoJitter: true, EndingGrace: time.Second, RetryBackoff: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	p.st, p.svc = st, svc
}

// TestNeverActsOnAnotherSubmission interleaves two palink stores on one
// YARN cluster — deploys, deploys cut short by a crash, recoveries, kills,
// syncs, backups and restores of a store from its own older backup — and
// checks after every step the promise behind "never the wrong job": a store
// adopts (records as a deploy's result) only an application that carries
// its own store tag and the tags of that very job and command, and asks
// YARN to kill only applications one of its own commands of that job
// submitted. Both stores name their job "orders" and count commands from 1.
//
// Each step runs real deploys on the simulator, so a plain run tries 6
// sequences; `go test ./core -run TestNeverActsOnAnotherSubmission -rapid.checks=100` for more.
func TestNeverActsOnAnotherSubmission(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "rapid.checks" })
	if !explicit {
		if err := flag.Set("rapid.checks", "6"); err != nil {
			t.Fatal(err)
		}
		defer flag.Set("rapid.checks", "100")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := sim.New(sim.Options{Speed: 60, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	rapid.Check(t, func(rt *rapid.T) {
		dir := t.TempDir()
		var stores []*palinkStore
		for _, name := range []string{"a", "b"} {
			kills, rm := newKillRecorder(t, c.RMURLs()[0])
			spec := coretest.SimCluster(c)
			spec.RM = []string{rm}
			p := &palinkStore{name: name, path: filepath.Join(dir, name+".db"), spec: spec, kills: kills}
			p.open(t)
			if _, err := p.svc.CreateJob(ctx, api.CreateJobRequest{Name: "orders", Cluster: "sim", Kind: model.KindSQL,
				Spec: model.Spec{SQL: coretest.SQL}}); err != nil {
				rt.Fatal(err)
			}
			stores = append(stores, p)
		}
		defer func() {
			for _, p := range stores {
				p.st.Close()
			}
		}()
		steps := rapid.IntRange(3, 8).Draw(rt, "steps")
		for i := 0; i < steps; i++ {
			p := stores[rapid.IntRange(0, len(stores)-1).Draw(rt, "store (0: a, 1: b)")]
			op := rapid.SampledFrom([]string{"deploy", "deploy", "crash", "crash", "recover", "kill", "sync", "backup", "restore"}).Draw(rt, "op")
			switch op {
			case "deploy", "crash":
				j, err := p.svc.Job(ctx, "orders")
				if err != nil {
					rt.Fatal(err)
				}
				kind := model.CmdSubmit
				if j.Job.State != model.StateNone && j.Job.State != model.StateDeployFailed {
					kind = model.CmdResubmit
				}
				_, err = p.svc.Act(ctx, api.ActionRequest{JobRef: "orders", Kind: kind, Restore: model.RestoreNone})
				var refused *decide.ActionRefusedError
				if errors.As(err, &refused) {
					break
				}
				if err != nil {
					rt.Fatal(err)
				}
				runCtx, stop := context.WithCancel(ctx)
				if op == "crash" {
					after := time.Duration(rapid.IntRange(0, 400).Draw(rt, "crash after ms")) * time.Millisecond
					time.AfterFunc(after, stop)
				}
				_, _ = p.svc.ResumeOrphans(runCtx)
				stop()
				if op == "crash" { // a new process takes over
					p.st.Close()
					p.open(t)
				}
			case "recover":
				if _, err := p.svc.ResumeOrphans(ctx); err != nil {
					rt.Fatal(err)
				}
			case "kill":
				_, err := p.svc.Act(ctx, api.ActionRequest{JobRef: "orders", Kind: model.CmdKill})
				var refused *decide.ActionRefusedError
				if err != nil && !errors.As(err, &refused) {
					rt.Fatal(err)
				}
				if err == nil {
					if _, err := p.svc.ResumeOrphans(ctx); err != nil {
						rt.Fatal(err)
					}
				}
			case "sync":
				if _, err := p.svc.SyncOnce(ctx, 0); err != nil {
					rt.Fatal(err)
				}
			case "backup":
				f, err := os.CreateTemp(dir, p.name+"-backup-*.db")
				if err != nil {
					rt.Fatal(err)
				}
				if _, err := p.st.Backup(ctx, f); err != nil {
					rt.Fatal(err)
				}
				f.Close()
				p.backup = f.Name()
			case "restore":
				if p.backup == "" {
					break
				}
				p.st.Close()
				if err := store.Restore(p.backup, p.path); err != nil {
					rt.Fatal(err)
				}
				p.open(t)
			}
			for _, q := range stores {
				checkOwnActions(rt, c, q, i, op)
			}
		}
	})
}

// checkOwnActions fails when store p recorded a deploy's application that
// is not its own command's, or asked YARN to kill one that none of its
// commands of the job submitted.
func checkOwnActions(rt *rapid.T, c *sim.Cluster, p *palinkStore, step int, op string) {
	ctx := context.Background()
	tags := func(appID string) []string {
		a, err := c.App(appID)
		if err != nil {
			rt.Fatalf("step %d (%s): store %s speaks of %s, which the cluster does not know", step, op, p.name, appID)
		}
		return a.Tags
	}
	has := func(ts []string, t string) bool {
		for _, x := range ts {
			if x == strings.ToLower(t) {
				return true
			}
		}
		return false
	}
	storeTag := "palink-store-" + p.st.ID()
	cmds, err := p.svc.Commands(ctx, api.CommandFilter{})
	if err != nil {
		rt.Fatal(err)
	}
	for _, cmd := range cmds {
		if !cmd.Kind.Deploys() || cmd.State != model.CmdSucceeded || cmd.Params.AppID == "" {
			continue
		}
		ts := tags(cmd.Params.AppID)
		if !has(ts, storeTag) || !has(ts, "palink-job-"+cmd.JobID) || !has(ts, "palink-cmd-"+cmd.ID) {
			rt.Fatalf("step %d (%s): store %s's %s #%d took %s, whose tags are %v", step, op, p.name, cmd.Kind, cmd.Seq, cmd.Params.AppID, ts)
		}
	}
	for _, app := range p.kills.take() {
		ts := tags(app)
		own := false
		for _, cmd := range cmds {
			own = own || (cmd.Kind.Deploys() && has(ts, storeTag) && has(ts, "palink-job-"+cmd.JobID) && has(ts, "palink-cmd-"+cmd.ID))
		}
		if !own {
			rt.Fatalf("step %d (%s): store %s asked YARN to kill %s, whose tags %v name none of its commands", step, op, p.name, app, ts)
		}
	}
}
