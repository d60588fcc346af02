package core_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
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

// alertJSON is the generic webhook's message, as a receiver reads it.
type alertJSON struct {
	Source   string `json:"source"`
	Status   string `json:"status"` // firing | resolved
	Key      string `json:"key"`
	Rule     string `json:"rule"`
	Kind     string `json:"kind"`
	Severity string `json:"severity"`
	Job      struct {
		ID      string `json:"id"`
		Name    string `json:"name"`
		Cluster string `json:"cluster"`
	} `json:"job"`
	Value      string    `json:"value"`
	Message    string    `json:"message"`
	Since      time.Time `json:"since"`
	ResolvedAt time.Time `json:"resolved_at,omitzero"`
	SentAt     time.Time `json:"sent_at"`
}

// receiver is a test webhook: it keeps every message it was sent.
type receiver struct {
	srv  *httptest.Server
	mu   sync.Mutex
	msgs []alertJSON
	raw  []string
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var m alertJSON
		var buf strings.Builder
		dec := json.NewDecoder(req.Body)
		if err := dec.Decode(&m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		b, _ := json.Marshal(m)
		buf.Write(b)
		r.mu.Lock()
		r.msgs = append(r.msgs, m)
		r.raw = append(r.raw, buf.String())
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// count is how many messages of a status a job's alert got.
func (r *receiver) count(status, jobID string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, m := range r.msgs {
		if m.Status == status && m.Job.ID == jobID {
			n++
		}
	}
	return n
}

func (r *receiver) dump() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.raw, "\n")
}

// alertEnv is palink over a simulator with a webhook, whose process can be
// stopped and started again over the same store.
type alertEnv struct {
	t    *testing.T
	sim  *sim.Cluster
	st   store.Store
	opts core.Options
	svc  *core.Local
	stop func()
}

func newAlertEnv(t *testing.T, hookURL string) *alertEnv {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	c, err := sim.New(sim.Options{Seed: 21, Speed: 30})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	// The default rules, job-failed and state-drift; no restart policy (the
	// test restarts the job itself).
	o := core.Options{
		Clusters:     []clusters.Spec{{Name: "sim", RM: c.RMURLs(), SQLGateway: c.GatewayURL(), Deploy: clusters.Deploy{SavepointDir: "hdfs:///flink/savepoints"}}},
		SyncInterval: 200 * time.Millisecond, SyncConcurrency: 8,
		Observe: observe.Settings{Interval: 100 * time.Millisecond, AlertInterval: 100 * time.Millisecond,
			Rules:    []observe.Rule{{Name: "job-failed", Kind: observe.RuleJobFailed, Severity: "critical"}, {Name: "state-drift", Kind: observe.RuleDrift, Severity: "warning"}},
			Webhooks: []observe.Webhook{{Name: "test-receiver", Endpoint: func() (string, error) { return hookURL, nil }, Timeout: 10 * time.Second, Retries: 3}},
		},
	}
	e := &alertEnv{t: t, sim: c, st: st, opts: o}
	e.start()
	t.Cleanup(func() { e.stop() })
	return e
}

// start runs a palink process: a fresh Local over the store, with its
// scheduler and sync (and so metrics and alerts).
func (e *alertEnv) start() {
	e.t.Helper()
	o := e.opts
	o.Store, o.Poll, o.Lease, o.NoJitter, o.HookRetryWait = e.st, 20*time.Millisecond, 2*time.Second, true, 10*time.Millisecond
	svc, err := core.NewLocal(o)
	if err != nil {
		e.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = svc.RunScheduler(ctx) }()
	go func() { defer wg.Done(); _ = svc.RunSync(ctx) }()
	e.svc = svc
	e.stop = func() { cancel(); wg.Wait() }
}

func (e *alertEnv) waitFor(what string, cond func() bool) {
	e.t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (e *alertEnv) job(id string) model.Job {
	var j model.Job
	if err := e.st.View(context.Background(), func(tx store.ReadTx) (err error) { j, err = tx.Job(id); return err }); err != nil {
		e.t.Fatal(err)
	}
	return j
}

func (e *alertEnv) act(id string, k model.CommandKind, restore model.RestoreChoice) {
	e.t.Helper()
	ctx := context.Background()
	c, err := e.svc.Act(ctx, api.ActionRequest{JobRef: id, Kind: k, Restore: restore})
	if err != nil {
		e.t.Fatalf("%s: %v", k, err)
	}
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if c, err = e.svc.WaitCommand(wctx, c.ID); err != nil || c.State != model.CmdSucceeded {
		e.t.Fatalf("%s: %v, %s %s", k, err, c.State, c.Error)
	}
}

// TestFailedJobAlertsTheWebhookOnceAndResolves is the end-to-end
// check: a job made to fail in the simulator raises an alert that reaches
// a webhook receiver exactly once, and a resolve when it recovers; a
// palink restarted while the alert fires neither fires nor sends it again,
// and sends the resolve it owes.
func TestFailedJobAlertsTheWebhookOnceAndResolves(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	rec := newReceiver(t)
	e := newAlertEnv(t, rec.srv.URL+"/alerts")
	ctx := context.Background()
	j, err := e.svc.CreateJob(ctx, api.CreateJobRequest{Name: "orders-enrich", Cluster: "sim", Kind: model.KindSQL,
		Spec: model.Spec{SQL: "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen');\nCREATE TABLE snk (id BIGINT) WITH ('connector' = 'blackhole');\nINSERT INTO snk SELECT id FROM src;"}})
	if err != nil {
		t.Fatal(err)
	}
	e.act(j.ID, model.CmdSubmit, 0)
	e.waitFor("the job to run", func() bool { return e.job(j.ID).State == model.StateRunning })

	watch, _ := e.svc.Watch(ctx)
	if err := e.sim.FailJob(e.job(j.ID).AppID); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the firing message", func() bool { return rec.count("firing", j.ID) == 1 })
	// Watchers heard of it, and the alert lists as firing with the job's failure.
	e.waitFor("AlertsChanged", func() bool {
		for {
			select {
			case c := <-watch:
				if c.Kind == api.AlertsChanged {
					return true
				}
			default:
				return false
			}
		}
	})
	as, err := e.svc.Alerts(ctx, api.AlertFilter{States: []model.AlertState{model.AlertFiring}})
	if err != nil || len(as) != 1 || as[0].Rule != "job-failed" || as[0].JobName != "orders-enrich" ||
		!strings.HasPrefix(as[0].Value, "FAILED") || len(as[0].Notified) != 1 {
		t.Fatalf("firing alerts %+v, %v", as, err)
	}
	// Many more rounds of sync and rules: still one message.
	time.Sleep(600 * time.Millisecond)
	if n := rec.count("firing", j.ID); n != 1 {
		t.Fatalf("%d firing messages for one failure:\n%s", n, rec.dump())
	}

	// palink restarts while the alert fires: no second message.
	e.stop()
	e.start()
	time.Sleep(600 * time.Millisecond)
	if n := rec.count("firing", j.ID); n != 1 {
		t.Fatalf("after a palink restart, %d firing messages:\n%s", n, rec.dump())
	}

	// The job recovers: one resolve, from the new process.
	e.act(j.ID, model.CmdRestart, model.RestoreLatest)
	e.waitFor("the resolve message", func() bool { return rec.count("resolved", j.ID) == 1 })
	e.waitFor("the job to run again", func() bool { return e.job(j.ID).State == model.StateRunning })
	time.Sleep(500 * time.Millisecond)
	if f, r := rec.count("firing", j.ID), rec.count("resolved", j.ID); f != 1 || r != 1 {
		t.Fatalf("%d firing and %d resolved messages, want one each:\n%s", f, r, rec.dump())
	}
	as, _ = e.svc.Alerts(ctx, api.AlertFilter{JobRef: "orders-enrich"})
	if len(as) != 1 || as[0].State != model.AlertResolved || as[0].ResolvedAt.IsZero() {
		t.Errorf("after recovery: %+v", as)
	}
}
