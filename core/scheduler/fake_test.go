package scheduler

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// fakeCluster is a ResourceManager and, per application, a JobManager,
// served by httptest as the official REST specs shape them. Any one
// request can be made to fail, so that a test shows what a deploy does
// when exactly that call breaks. It runs in milliseconds, which is what
// lets make mutate judge the scheduler's deploy checks by these tests.
type fakeCluster struct {
	t  *testing.T
	rm *httptest.Server

	mu   sync.Mutex
	apps map[string]*fakeApp
	fail map[string]int         // "GET <path>" → the status it answers with instead
	hits map[string][]time.Time // "GET <path>" → when it was asked
	// on are hooks by "<method> <path>": see onRequest.
	on map[string]func(n int, w http.ResponseWriter, r *http.Request) bool
	// onListApps, if set, is called as the RM lists applications.
	onListApps func()
}

// fakeApp is one application and what its JobManager answers.
type fakeApp struct {
	app  yarn.Application
	jm   *httptest.Server
	jobs []yarn.JobOverview
	// stats are the checkpoint statistics by Flink job id.
	stats map[string]yarn.CheckpointStats
	// endsAfter > 0: the application is FINISHED from that lookup on
	// (a per-job cluster shutting down).
	endsAfter, lookups int
	// staleFor > 0: the JobManager lists every job as RUNNING for that many
	// job listings before telling the truth (the simulator's StaleStatus).
	staleFor, listings int
	// onList, if set, is called with the count of job listings so far.
	onList func(n int)
	// ops are the savepoint operations its JobManager knows, by trigger id.
	ops map[string]fakeOp
	// gone: the application was killed; what was its JobManager answers
	// 404 to everything, as the RM's proxy does for an application that
	// ended.
	gone bool
}

// fakeOp is a savepoint (or stop) operation as its status endpoint
// reports it: under way, completed at a location, or failed.
type fakeOp struct {
	done     bool
	location string
	failure  string
}

func newFakeCluster(t *testing.T) *fakeCluster {
	f := &fakeCluster{t: t, apps: map[string]*fakeApp{}, fail: map[string]int{}, hits: map[string][]time.Time{},
		on: map[string]func(int, http.ResponseWriter, *http.Request) bool{}}
	f.rm = httptest.NewServer(http.HandlerFunc(f.serveRM))
	t.Cleanup(f.rm.Close)
	return f
}

// cluster is palink's client of the fake: JobManagers reached directly at
// their amRPCAddress, polls of a millisecond.
func (f *fakeCluster) cluster() *clusters.Cluster {
	cl, err := clusters.NewCluster(clusters.Spec{Name: "fake", RM: []string{f.rm.URL}, FlinkAccess: "direct",
		Poll: time.Millisecond, Timeout: 5 * time.Second})
	if err != nil {
		f.t.Fatal(err)
	}
	return cl
}

// add starts an application with the given tags and a JobManager running jobs.
func (f *fakeCluster) add(id, state string, tags []string, jobs ...yarn.JobOverview) *fakeApp {
	a := &fakeApp{app: yarn.Application{ID: id, Name: id, State: state, ApplicationType: "Apache Flink",
		ApplicationTags: strings.Join(tags, ",")}, jobs: jobs, stats: map[string]yarn.CheckpointStats{}, ops: map[string]fakeOp{}}
	a.jm = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { f.serveJM(a, w, r) }))
	f.t.Cleanup(a.jm.Close)
	a.app.AMRPCAddress = strings.TrimPrefix(a.jm.URL, "http://")
	f.mu.Lock()
	f.apps[id] = a
	f.mu.Unlock()
	return a
}

// failing makes every request to path (the RM's, or a JobManager's as
// "/jm/<app id>/…") answer status.
func (f *fakeCluster) failing(path string, status int) {
	f.mu.Lock()
	f.fail["GET "+path] = status
	f.mu.Unlock()
}

// healed lets requests to path through again.
func (f *fakeCluster) healed(path string) {
	f.mu.Lock()
	delete(f.fail, "GET "+path)
	f.mu.Unlock()
}

// sent counts the requests of any method to path.
func (f *fakeCluster) sent(method, path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.hits[method+" "+path])
}

func (f *fakeCluster) asked(path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.hits["GET "+path])
}

// askedAt is when path was asked, in order.
func (f *fakeCluster) askedAt(path string) []time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.hits["GET "+path])
}

// onRequest calls fn as the n-th request of method to path (the RM's, or
// a JobManager's as "/jm/<app id>/…") arrives, before the fake answers it
// and without its lock: fn may take its time (the cluster's moment), change
// what the fake answers (under f.mu), or answer itself and return true.
func (f *fakeCluster) onRequest(method, path string, fn func(n int, w http.ResponseWriter, r *http.Request) bool) {
	f.mu.Lock()
	f.on[method+" "+path] = fn
	f.mu.Unlock()
}

// answer counts the request and answers its hook or its injected failure,
// if any.
func (f *fakeCluster) answer(w http.ResponseWriter, r *http.Request, key string) bool {
	f.mu.Lock()
	f.hits[r.Method+" "+key] = append(f.hits[r.Method+" "+key], time.Now())
	n, hook := len(f.hits[r.Method+" "+key]), f.on[r.Method+" "+key]
	f.mu.Unlock()
	if hook != nil && hook(n, w, r) {
		return true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if st, ok := f.fail[r.Method+" "+key]; ok {
		http.Error(w, `{"RemoteException":{"exception":"InjectedFault","message":"injected"}}`, st)
		return true
	}
	return false
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func notFound(w http.ResponseWriter, what string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write([]byte(`{"RemoteException":{"exception":"NotFoundException","message":"` + what + ` not found"}}`))
}

func (f *fakeCluster) serveRM(w http.ResponseWriter, r *http.Request) {
	if f.answer(w, r, r.URL.Path) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	const apps = "/ws/v1/cluster/apps"
	switch {
	case r.URL.Path == apps || r.URL.Path == apps+"/":
		// A real RM's Jersey routes serve the list at …/apps/ too, so a
		// lookup of application "" gets a list, not a 404.
		tags := strings.Split(r.URL.Query().Get("applicationTags"), ",")
		states := strings.Split(r.URL.Query().Get("states"), ",")
		if f.onListApps != nil {
			f.onListApps()
		}
		// In the order of their ids, as the RM lists them.
		var out []yarn.Application
		for _, id := range slices.Sorted(maps.Keys(f.apps)) {
			a := f.apps[id]
			cur := a.snapshot(false)
			if states[0] != "" && !slices.Contains(states, cur.State) {
				continue
			}
			if tags[0] != "" && !slices.ContainsFunc(tags, func(t string) bool { return slices.Contains(cur.Tags(), t) }) {
				continue
			}
			out = append(out, cur)
		}
		if out == nil {
			writeJSON(w, map[string]any{"apps": nil})
			return
		}
		writeJSON(w, map[string]any{"apps": map[string]any{"app": out}})
	case r.Method == http.MethodPut && strings.HasPrefix(r.URL.Path, apps+"/") && strings.HasSuffix(r.URL.Path, "/state"):
		// A kill: accepted (202 with the state before), and landed by the
		// next lookup; the application's JobManager dies with it.
		a, ok := f.apps[strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, apps+"/"), "/state")]
		if !ok {
			notFound(w, "application")
			return
		}
		before := a.snapshot(false)
		if !before.Final() {
			a.app.State, a.app.FinalStatus, a.gone = yarn.AppKilled, "KILLED", true
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted)
		_ = json.NewEncoder(w).Encode(map[string]string{"state": before.State})
	case strings.HasPrefix(r.URL.Path, apps+"/"):
		a, ok := f.apps[strings.TrimPrefix(r.URL.Path, apps+"/")]
		if !ok {
			notFound(w, "application")
			return
		}
		writeJSON(w, map[string]any{"app": a.snapshot(true)})
	default:
		notFound(w, r.URL.Path)
	}
}

// snapshot is the application as the RM reports it now.
func (a *fakeApp) snapshot(lookup bool) yarn.Application {
	if lookup {
		a.lookups++
	}
	cur := a.app
	if a.endsAfter > 0 && a.lookups >= a.endsAfter {
		cur.State, cur.FinalStatus = yarn.AppFinished, "SUCCEEDED"
	}
	return cur
}

func (f *fakeCluster) serveJM(a *fakeApp, w http.ResponseWriter, r *http.Request) {
	if f.answer(w, r, "/jm/"+a.app.ID+r.URL.Path) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	p := strings.TrimPrefix(r.URL.Path, "/")
	switch {
	case a.gone:
		notFound(w, "application "+a.app.ID)
	case r.Method == http.MethodPatch && strings.HasPrefix(p, "jobs/") && r.URL.Query().Get("mode") == "cancel":
		// A cancel: accepted, and the job CANCELED by its next status.
		jid := strings.TrimPrefix(p, "jobs/")
		i := slices.IndexFunc(a.jobs, func(j yarn.JobOverview) bool { return j.ID == jid })
		if i < 0 {
			notFound(w, "job "+jid)
			return
		}
		a.jobs[i].State = "CANCELED"
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted)
		_, _ = w.Write([]byte("{}"))
	case p == "jobs/overview":
		jobs := slices.Clone(a.jobs)
		if a.listings++; a.onList != nil {
			a.onList(a.listings)
		}
		if a.listings <= a.staleFor {
			for i := range jobs {
				jobs[i].State = "RUNNING"
			}
		}
		writeJSON(w, map[string]any{"jobs": jobs})
	case strings.HasPrefix(p, "jobs/") && strings.HasSuffix(p, "/status"):
		jid := strings.TrimSuffix(strings.TrimPrefix(p, "jobs/"), "/status")
		for _, j := range a.jobs {
			if j.ID == jid {
				writeJSON(w, map[string]string{"status": j.State})
				return
			}
		}
		notFound(w, "job "+jid)
	case strings.HasPrefix(p, "jobs/") && strings.Contains(p, "/savepoints/"):
		op, ok := a.ops[p[strings.LastIndexByte(p, '/')+1:]]
		switch {
		case !ok:
			notFound(w, "operation")
		case !op.done:
			writeJSON(w, map[string]any{"status": map[string]string{"id": "IN_PROGRESS"}})
		case op.failure != "":
			writeJSON(w, map[string]any{"status": map[string]string{"id": "COMPLETED"},
				"operation": map[string]any{"failure-cause": map[string]string{"class": "java.util.concurrent.CompletionException", "stack-trace": op.failure}}})
		default:
			writeJSON(w, map[string]any{"status": map[string]string{"id": "COMPLETED"}, "operation": map[string]string{"location": op.location}})
		}
	case strings.HasPrefix(p, "jobs/") && strings.HasSuffix(p, "/checkpoints"):
		jid := strings.TrimSuffix(strings.TrimPrefix(p, "jobs/"), "/checkpoints")
		st, ok := a.stats[jid]
		if !ok {
			notFound(w, "job "+jid)
			return
		}
		writeJSON(w, st)
	case strings.HasPrefix(p, "jobs/") && !strings.Contains(p[len("jobs/"):], "/"):
		jid := strings.TrimPrefix(p, "jobs/")
		for _, j := range a.jobs {
			if j.ID == jid {
				writeJSON(w, yarn.JobDetails{ID: j.ID, Name: j.Name, State: j.State})
				return
			}
		}
		notFound(w, "job "+jid)
	default:
		notFound(w, p)
	}
}

// bed is a scheduler over a fresh store and the fake cluster, with one
// job of the cluster.
type bed struct {
	t   *testing.T
	ctx context.Context
	st  store.Store
	s   *Scheduler
	f   *fakeCluster
	cl  *clusters.Cluster
	job model.Job
}

func newBed(t *testing.T, j model.Job, edit func(*Options)) *bed {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := newFakeCluster(t)
	cl := f.cluster()
	o := Options{Store: st, Publisher: &recorder{}, Clusters: map[string]*clusters.Cluster{"fake": cl},
		Poll: time.Millisecond, EndingGrace: time.Second, Lease: time.Hour}
	if edit != nil {
		edit(&o)
	}
	s := New(o)
	if j.ID == "" {
		j.ID = "j1"
	}
	if j.Name == "" {
		j.Name = "orders"
	}
	j.Cluster, j.Kind = "fake", model.KindSQL
	if j.State == 0 {
		j.State = model.StateDeploying
	}
	ctx := context.Background()
	if err := st.Update(ctx, func(tx store.Tx) error { return tx.CreateJob(j) }); err != nil {
		t.Fatal(err)
	}
	return &bed{t: t, ctx: ctx, st: st, s: s, f: f, cl: cl, job: j}
}

// exec is a command of the job as this process runs it: DOING under its
// lease, so that it can save its progress.
func (b *bed) exec(kind model.CommandKind, p model.CommandParams) *execution {
	b.t.Helper()
	var c model.Command
	err := b.st.Update(b.ctx, func(tx store.Tx) error {
		var err error
		c, err = tx.PutCommand(model.Command{JobID: b.job.ID, Kind: kind, Params: p, State: model.CmdDoing,
			LeaseOwner: b.s.owner, LeaseUntil: time.Now().Add(time.Hour), CreatedAt: time.Now(), Attempts: 1})
		return err
	})
	if err != nil {
		b.t.Fatal(err)
	}
	return &execution{s: b.s, id: c.ID, jobID: b.job.ID, kind: kind, cmd: c}
}

// stored is the job and the command as the store now has them.
func (b *bed) stored(x *execution) (model.Job, model.Command) {
	b.t.Helper()
	var (
		j model.Job
		c model.Command
	)
	err := b.st.View(b.ctx, func(tx store.ReadTx) error {
		var err error
		if j, err = tx.Job(b.job.ID); err != nil {
			return err
		}
		c, err = tx.Command(x.id)
		return err
	})
	if err != nil {
		b.t.Fatal(err)
	}
	return j, c
}

func logOf(c model.Command) string { return strings.Join(logTexts(c), "\n") }

// failingStore fails, inside its write transactions, the calls a test
// names: adding a restore point, rewriting one (stamping a run's end on
// it), listing commands, writing a command.
type failingStore struct {
	store.Store
	addErr, rewriteErr, listErr, putErr error
}

func (s failingStore) Update(ctx context.Context, fn func(store.Tx) error) error {
	return s.Store.Update(ctx, func(tx store.Tx) error { return fn(failingTx{Tx: tx, s: s}) })
}

type failingTx struct {
	store.Tx
	s failingStore
}

func (t failingTx) AddRestorePoint(rp model.RestorePoint) (bool, error) {
	if t.s.addErr != nil {
		return false, t.s.addErr
	}
	return t.Tx.AddRestorePoint(rp)
}

func (t failingTx) PutRestorePoint(rp model.RestorePoint) error {
	if t.s.rewriteErr != nil {
		return t.s.rewriteErr
	}
	return t.Tx.PutRestorePoint(rp)
}

func (t failingTx) Commands(f store.CommandFilter) ([]model.Command, error) {
	if t.s.listErr != nil {
		return nil, t.s.listErr
	}
	return t.Tx.Commands(f)
}

func (t failingTx) PutCommand(c model.Command) (model.Command, error) {
	if t.s.putErr != nil {
		return model.Command{}, t.s.putErr
	}
	return t.Tx.PutCommand(c)
}
