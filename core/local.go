package core

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/user"
	"sort"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/catalog"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/diagnose"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/core/logs"
	"github.com/palink/palink/core/observe"
	"github.com/palink/palink/core/projects"
	"github.com/palink/palink/core/scheduler"
	"github.com/palink/palink/core/syncer"
	"github.com/palink/palink/core/udfs"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// Options wire a Local service.
type Options struct {
	Store store.Store
	// Clusters are the clusters palink works on; Clients, when given, are
	// their connections by name (else built from Clusters).
	Clusters []clusters.Spec
	Clients  map[string]*clusters.Cluster
	// SyncInterval is state sync's cycle (default 10s); SyncConcurrency
	// bounds the jobs it fetches at once (default 1).
	SyncInterval    time.Duration
	SyncConcurrency int
	// SyncCheckpointEvery is how many sync cycles apart a running job's
	// checkpoint details are read when its state did not move (default
	// 12, syncer.Options.CheckpointEvery; 1 every cycle).
	SyncCheckpointEvery int
	// Restart is the platform's restart policy for FAILED jobs.
	Restart decide.RestartPolicy
	// Observe is what metrics to collect and which alert rules to judge.
	Observe observe.Settings
	// Now is the clock; default time.Now.
	Now func() time.Time
	// User is the OS user recorded as the issuer of actions.
	User     string
	ReadOnly bool
	Log      *slog.Logger
	// Lease, Workers, Poll, DeployWait, EndingGrace, Tries, RetryBackoff and Tick
	// tune the scheduler (scheduler.Options says what each does and its
	// default).
	Lease, Poll, DeployWait, EndingGrace, RetryBackoff, Tick time.Duration
	Workers, Tries                                           int
	// Savepoints are the periodic savepoints, their retention and the
	// restore-age guard.
	Savepoints decide.SavepointPolicy
	// ProjectCache is where project builds keep checkouts and artifacts.
	ProjectCache string
	// Build is how palink runs the commands it does not write — project
	// builds and secret variables' commands: their environment, user and
	// sandbox (config build:).
	Build BuildPolicy
	// HookRetryWait is the first pause between a webhook's retries
	// (observe.Options); default 500ms.
	HookRetryWait time.Duration
	// NoSync skips fsync: a throwaway store (the demo's), for Open.
	NoSync bool
	// Etcd says how Open reaches a store on etcd (TLS, credentials,
	// the cluster's limits); a file store ignores it.
	Etcd store.EtcdOptions
	// NoJitter syncs every job at the start of a cycle instead of spreading
	// them over the interval (for `sync --once` and benchmarks).
	NoJitter bool
	// ElectionTTL is how long the leader of a store on etcd keeps the lead
	// once it stops answering (core/leader; default leader.DefaultTTL).
	ElectionTTL time.Duration
}

// Local is the in-process Service: it embeds the store and the cluster
// clients, and with Run it also runs the scheduler and state sync.
type Local struct {
	st       store.Store
	specs    []clusters.Spec
	clusters map[string]*clusters.Cluster
	now      func() time.Time
	user     string
	readOnly bool
	log      *slog.Logger
	opts     Options
	policy   decide.RestartPolicy
	hub      *hub
	bulkAdopter
	bulkCreator
	obs                 *observe.Observer    // metrics, alerts and webhooks
	sched               *scheduler.Scheduler // commands: Plan, Act, and running them
	sync                *syncer.Syncer       // state sync
	*logs.Reader                             // job logs: Logs, ReadLog, FindInLog, SaveLog, ContainerLogs
	*diagnose.Inspector                      // the job graph, vertices, checkpoints, TaskManagers, flame graphs, exceptions
	builds                                   // projects and their builds: AddProject, Projects, BuildProject, Artifacts
	*catalog.Keeper                          // the table catalog: Tables, Table, PutTable, RemoveTable
	*udfs.Registry                           // the UDF registry: UDFs, AddUDF, RemoveUDF
	planner                                  // SQL on a cluster's gateway: FlinkVersion, Explain
	tenants                                  // the teams and the audit log: Teams, AddTeam, Grant, WhoAmI, Audit, Tenancy
	nodeLister                               // a cluster's YARN nodes: ClusterNodes
	charts                                   // the metric browser's charts and the vertex view's history: ChartMetric, SubtaskHistory
	pager                                    // long lists a page at a time: ListJobsPage, CommandsPage

	closeStore bool // Open opened the store: Close closes it

	// schedOpts and syncOpts build the scheduler and the syncer; a
	// leader's term builds its own over its fenced store (lead.go).
	schedOpts scheduler.Options
	syncOpts  syncer.Options
	*lead     // who runs the background, for Leadership
}

var (
	_ api.Service         = (*Local)(nil)
	_ api.DiagnoseService = (*Local)(nil)
)

// NewLocal builds the in-process service. It does no I/O.
func NewLocal(o Options) (*Local, error) {
	if o.Store == nil {
		return nil, errors.New("core: a store is required")
	}
	if o.Store.ID() == "" && !o.ReadOnly {
		return nil, fmt.Errorf("core: store %s has no id: open it once as a writer to upgrade it", o.Store.Path())
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.User == "" {
		o.User = CurrentUser()
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Clients == nil {
		cs, err := clusters.New(o.Clusters)
		if err != nil {
			return nil, err
		}
		o.Clients = cs
	}
	l := &Local{
		st: o.Store, specs: o.Clusters, clusters: o.Clients, now: o.Now, user: o.User,
		readOnly: o.ReadOnly, log: o.Log, opts: o, policy: o.Restart, hub: newHub(),
	}
	l.lead = &lead{l: l, id: memberID(), started: time.Now()}
	l.obs = observe.New(observe.Options{
		Store: o.Store, Clusters: o.Clients, Publisher: publisher{l}, Settings: o.Observe, Now: o.Now, Log: o.Log,
		HookRetryWait: o.HookRetryWait,
		Watch:         func(ctx context.Context) <-chan api.Change { return l.hub.subscribe(ctx) },
	})
	l.schedOpts = scheduler.Options{
		Store: o.Store, Clusters: o.Clients, Publisher: publisher{l}, Now: o.Now, User: o.User, ReadOnly: o.ReadOnly, Log: o.Log,
		Lease: o.Lease, Workers: o.Workers, Poll: o.Poll, DeployWait: o.DeployWait, EndingGrace: o.EndingGrace,
		Tries: o.Tries, RetryBackoff: o.RetryBackoff, Tick: o.Tick, Savepoints: o.Savepoints,
		Secrets: catalog.Sources{Commands: o.Build}, Wake: make(chan struct{}, 1),
		Watch: func(ctx context.Context) <-chan api.Change { return l.hub.subscribe(ctx) },
	}
	l.sched = scheduler.New(l.schedOpts)
	l.builds = builds{b: projects.New(projects.Options{Store: o.Store, CacheDir: o.ProjectCache, Now: o.Now, Run: o.Build}), st: o.Store,
		user: o.User, readOnly: o.ReadOnly}
	l.Reader = logs.New(o.Store, o.Clients, o.Now)
	l.tenants = tenants{st: o.Store, specs: o.Clusters, now: o.Now, user: o.User, readOnly: o.ReadOnly}
	l.planner = planner{st: o.Store, specs: l.specs, clusters: l.clusters, now: l.now, secrets: catalog.Sources{Commands: o.Build}, readOnly: o.ReadOnly, user: o.User}
	l.nodeLister = nodeLister{specs: l.specs, clusters: l.clusters, now: l.now}
	l.Inspector = diagnose.New(o.Store, o.Clients, diagnose.Options{Now: o.Now})
	names := make([]string, 0, len(o.Clients))
	for name := range o.Clients {
		names = append(names, name)
	}
	l.Keeper = catalog.NewKeeper(o.Store, names, o.Now, o.User, o.ReadOnly)
	l.Registry = udfs.New(o.Store, o.Now, o.User, o.ReadOnly)
	l.bulkAdopter = bulkAdopter{l}
	l.bulkCreator = bulkCreator{l}
	l.pager = pager{l}
	l.charts = charts{l}
	l.syncOpts = syncer.Options{
		Store: o.Store, Clusters: o.Clients, Publisher: publisher{l}, Now: o.Now, Log: o.Log,
		Interval: o.SyncInterval, Concurrency: o.SyncConcurrency, NoJitter: o.NoJitter, Policy: o.Restart,
		CheckpointEvery: o.SyncCheckpointEvery,
	}
	l.sync = syncer.New(l.syncOpts)
	return l, nil
}

// CurrentUser is the OS user name recorded in the audit log.
func CurrentUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "unknown"
}

// ReadOnly implements Service.
func (l *Local) ReadOnly() bool { return l.readOnly }

// Watch implements Service.
func (l *Local) Watch(ctx context.Context) (<-chan api.Change, error) {
	return l.hub.subscribe(ctx), nil
}

// pendingByJob is each job's pending command, as the jobs list shows it: a
// queued or running command first; one UNKNOWN (being reconciled) when
// there is no other.
func pendingByJob(tx store.ReadTx) (map[string]*model.Command, error) {
	pending, err := tx.Commands(store.CommandFilter{States: []model.CommandState{model.CmdUndo, model.CmdDoing, model.CmdUnknown}})
	if err != nil {
		return nil, err
	}
	byJob := map[string]*model.Command{}
	for i := range pending {
		if cur := byJob[pending[i].JobID]; cur == nil || cur.State == model.CmdUnknown {
			byJob[pending[i].JobID] = &pending[i]
		}
	}
	return byJob, nil
}

// ListJobs implements Service.
func (l *Local) ListJobs(ctx context.Context, f api.JobFilter) ([]api.JobView, error) {
	var out []api.JobView
	err := l.st.View(ctx, func(tx store.ReadTx) error {
		jobs, err := tx.Jobs()
		if err != nil {
			return err
		}
		byJob, err := pendingByJob(tx)
		if err != nil {
			return err
		}
		states := map[model.JobState]bool{}
		for _, s := range f.States {
			states[s] = true
		}
		for _, j := range jobs {
			if f.Cluster != "" && j.Cluster != f.Cluster {
				continue
			}
			if len(states) > 0 && !states[j.State] {
				continue
			}
			if f.Name != "" && !strings.Contains(strings.ToLower(j.Name), strings.ToLower(f.Name)) {
				continue
			}
			out = append(out, publisher{l}.view(j, byJob[j.ID]))
		}
		return nil
	})
	return out, err
}

// Job implements Service. It syncs the job with its cluster first (bounded
// by ctx), so the detail view opens on fresh facts.
func (l *Local) Job(ctx context.Context, ref string) (api.JobDetail, error) {
	var d api.JobDetail
	err := l.st.View(ctx, func(tx store.ReadTx) error {
		j, err := journal.FindJob(tx, ref)
		if err != nil {
			return err
		}
		d.Job = j
		if d.Spec, err = tx.Spec(j.ID, j.SpecVersion); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if d.Events, err = tx.Events(j.ID, 0, 0); err != nil {
			return err
		}
		if d.Commands, err = tx.Commands(store.CommandFilter{JobID: j.ID}); err != nil {
			return err
		}
		d.RestorePoints, err = tx.RestorePoints(j.ID)
		return err
	})
	if err != nil {
		return d, err
	}
	live, err := live(ctx, l.clusters, l.now, d.Job)
	if err != nil {
		d.LiveError = err.Error()
	}
	d.Live = live
	return d, nil
}

// CreateJob implements Service.
func (l *Local) CreateJob(ctx context.Context, r api.CreateJobRequest) (model.Job, error) {
	if l.readOnly {
		return model.Job{}, api.ReadOnly("create job")
	}
	nj, err := l.newJob(ctx, r)
	if err != nil {
		return model.Job{}, err
	}
	var ev model.Event
	err = l.st.Update(ctx, func(tx store.Tx) (err error) {
		ev, err = nj.create(tx)
		return err
	})
	if err != nil {
		return model.Job{}, err
	}
	publisher{l}.Job(nj.job, nil, &ev)
	return nj.job, nil
}

// SaveSpec implements Service.
func (l *Local) SaveSpec(ctx context.Context, ref string, s model.Spec) (model.Spec, error) {
	if l.readOnly {
		return model.Spec{}, api.ReadOnly("save spec")
	}
	var saved model.Spec
	var j model.Job
	s, err := l.pinArtifact(ctx, s)
	if err != nil {
		return model.Spec{}, fmt.Errorf("save spec of %s: %w", ref, err)
	}
	if s.SQL == "" && s.Python == "" && s.PyModule == "" {
		if s, err = withEntryClass(s); err != nil {
			return model.Spec{}, fmt.Errorf("save spec of %s: %w", ref, err)
		}
	}
	err = l.st.Update(ctx, func(tx store.Tx) error {
		var err error
		if j, err = journal.FindJob(tx, ref); err != nil {
			return err
		}
		if j.Kind == model.KindPython {
			if err := checkPythonSpec(s); err != nil {
				return fmt.Errorf("save spec of %s: %w", j.Name, err)
			}
		}
		s.JobID, s.CreatedAt = j.ID, l.now()
		if s.Author == "" {
			s.Author = l.user
		}
		if saved, err = tx.AddSpec(s); err != nil {
			return fmt.Errorf("save spec of %s: %w", j.Name, err)
		}
		j.SpecVersion, j.UpdatedAt = saved.Version, l.now()
		if err := tx.PutJob(j); err != nil {
			return err
		}
		_, err = tx.AppendAudit(model.AuditEntry{Time: l.now(), User: s.Author, Action: fmt.Sprintf("edit (v%d)", saved.Version), JobID: j.ID, Outcome: "succeeded"})
		return err
	})
	if err == nil {
		publisher{l}.Job(j, nil, nil)
	}
	return saved, err
}

// DisposeSavepoint implements Service.
func (l *Local) DisposeSavepoint(ctx context.Context, r api.DisposeRequest) (model.RestorePoint, error) {
	if l.readOnly {
		return model.RestorePoint{}, api.ReadOnly("dispose savepoint")
	}
	if r.Issuer == "" {
		r.Issuer = l.user
	}
	return l.sched.Dispose(ctx, r)
}

// checkPythonSpec refuses a PyFlink spec that names no entry point, or two.
func checkPythonSpec(s model.Spec) error {
	switch {
	case s.PyModule == "" && s.PyFile == "":
		return errors.New("a PYTHON job needs an entry script (-py) or module (-pym)")
	case s.PyModule != "" && s.PyFile != "":
		return errors.New("a PYTHON job starts from a script or a module, not both")
	case s.PyFile != "" && strings.TrimSpace(s.Python) == "":
		return fmt.Errorf("the entry script %s is empty", s.PyFile)
	case s.PyModule != "" && len(s.PyFiles) == 0:
		return fmt.Errorf("module %s: give the files that hold it (--py-files)", s.PyModule)
	}
	return nil
}

// Specs implements Service.
func (l *Local) Specs(ctx context.Context, ref string) ([]model.Spec, error) {
	var out []model.Spec
	err := l.st.View(ctx, func(tx store.ReadTx) error {
		j, err := journal.FindJob(tx, ref)
		if err != nil {
			return err
		}
		out, err = tx.Specs(j.ID)
		return err
	})
	return out, err
}

// Command implements Service.
func (l *Local) Command(ctx context.Context, id string) (model.Command, error) {
	var c model.Command
	err := l.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		c, err = journal.FindCommand(tx, id)
		return err
	})
	return c, err
}

// storeCommandFilter is f as the store takes it: its job reference
// resolved to an id.
func storeCommandFilter(tx store.ReadTx, f api.CommandFilter) (store.CommandFilter, error) {
	sf := store.CommandFilter{States: f.States, Limit: f.Limit}
	if f.JobRef != "" {
		j, err := journal.FindJob(tx, f.JobRef)
		if err != nil {
			return sf, err
		}
		sf.JobID = j.ID
	}
	return sf, nil
}

// Commands implements Service.
func (l *Local) Commands(ctx context.Context, f api.CommandFilter) ([]model.Command, error) {
	var out []model.Command
	err := l.st.View(ctx, func(tx store.ReadTx) error {
		sf, err := storeCommandFilter(tx, f)
		if err != nil {
			return err
		}
		out, err = tx.Commands(sf)
		return err
	})
	return out, err
}

// WaitCommand implements Service.
func (l *Local) WaitCommand(ctx context.Context, id string) (model.Command, error) {
	ch := l.hub.subscribe(ctx)
	for {
		c, err := l.Command(ctx, id)
		if err != nil || c.State.Final() {
			return c, err
		}
		// Wake on any change of this command, and poll now and then in case
		// another process (the agent) runs it.
		t := time.NewTimer(time.Second)
	wait:
		for {
			select {
			case <-ctx.Done():
				t.Stop()
				return c, ctx.Err()
			case <-t.C:
				break wait
			case ch2, ok := <-ch:
				if !ok {
					t.Stop()
					return c, ctx.Err()
				}
				if ch2.Kind == api.Resync || (ch2.Command != nil && ch2.Command.ID == c.ID) {
					t.Stop()
					break wait
				}
			}
		}
	}
}

// clusterNames lists the clusters' names, sorted, for messages.
func clusterNames(specs []clusters.Spec) []string {
	var names []string
	for _, c := range specs {
		names = append(names, c.Name)
	}
	sort.Strings(names)
	return names
}

func orUser(u, def string) string {
	if u != "" {
		return u
	}
	return def
}

func newJobID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "j" + hex.EncodeToString(b[:])
}

func checkJobName(name string) error {
	if name == "" {
		return errors.New("create job: a name is required")
	}
	if len(name) > 100 {
		return fmt.Errorf("create job: name %q is longer than 100 characters", name)
	}
	for i, r := range name {
		alnum := (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		if i == 0 && !alnum {
			// "--x" or ".x" would read as a flag or a hidden file in scripts.
			return fmt.Errorf("create job: name %q must start with a letter or a digit", name)
		}
		if !alnum && r != '-' && r != '_' && r != '.' {
			return fmt.Errorf("create job: name %q: use letters, digits, '-', '_' and '.'", name)
		}
	}
	return nil
}

// publisher tells watchers of what the parts commit, with each job's live
// figures (journal.Publisher).
type publisher struct{ l *Local }

func (p publisher) Job(j model.Job, pending *model.Command, ev *model.Event) {
	v := p.view(j, pending)
	p.l.hub.publish(api.Change{Kind: api.JobChanged, Job: &v, Event: ev})
}

func (p publisher) Command(c model.Command) {
	p.l.hub.publish(api.Change{Kind: api.CommandChanged, Command: &c})
}

func (p publisher) Publish(c api.Change) { p.l.hub.publish(c) }

// view is a job as the jobs table shows it, with its live figures.
func (p publisher) view(j model.Job, pending *model.Command) api.JobView {
	fig, _ := p.l.obs.Figures(j.ID)
	if j.LatestCheckpoint != nil && j.State == model.StateRunning {
		fig.CheckpointAge = p.l.now().Sub(j.LatestCheckpoint.Time)
	}
	return journal.View(j, pending, fig)
}

// RunScheduler runs commands until ctx is done (scheduler.Scheduler.Run).
func (l *Local) RunScheduler(ctx context.Context) error { return l.sched.Run(ctx) }

// Orphans are the commands no live process runs (scheduler.Scheduler.Orphans).
func (l *Local) Orphans(ctx context.Context) ([]model.Command, error) { return l.sched.Orphans(ctx) }

// ResumeOrphans runs the orphaned commands, but those of skipJobs, to their
// end in this process (scheduler.Scheduler.ResumeOrphans).
func (l *Local) ResumeOrphans(ctx context.Context, skipJobs ...string) ([]model.Command, error) {
	return l.sched.ResumeOrphans(ctx, skipJobs...)
}

// RunSync runs state sync until ctx is done, with metrics collection and
// the alert rules beside it: they run in the one process that syncs.
func (l *Local) RunSync(ctx context.Context) error {
	defer l.obs.Start(ctx)()
	return l.sync.Run(ctx)
}

// SyncOnce runs one sync cycle, spread over spread (syncer.Syncer.Once).
func (l *Local) SyncOnce(ctx context.Context, spread time.Duration) (api.SyncStats, error) {
	return l.sync.Once(ctx, spread)
}

// MeasureNow takes a metrics round and judges the alert rules at once,
// while RunSync runs (observe.Observer.Round).
func (l *Local) MeasureNow(ctx context.Context) (observe.CollectStats, error) {
	return l.obs.Round(ctx)
}

// SyncJob implements api.Service.
func (l *Local) SyncJob(ctx context.Context, ref string) (model.Job, error) {
	return l.sync.Job(ctx, ref)
}

// SetInterest implements api.Service.
func (l *Local) SetInterest(ctx context.Context, r api.InterestRequest) error {
	return l.obs.SetInterest(ctx, r)
}

// JobMetrics implements api.Service.
func (l *Local) JobMetrics(ctx context.Context, ref string) (api.MetricsSeries, error) {
	return l.obs.JobMetrics(ctx, ref)
}

// Alerts implements api.Service.
func (l *Local) Alerts(ctx context.Context, f api.AlertFilter) ([]model.Alert, error) {
	return l.obs.Alerts(ctx, f)
}

// Backup implements api.Service.
func (l *Local) Backup(ctx context.Context, w io.Writer) (int64, error) { return l.st.Backup(ctx, w) }

// ActOnAlert implements api.Service.
func (l *Local) ActOnAlert(ctx context.Context, a api.AlertAction) (model.Alert, error) {
	if l.readOnly {
		return model.Alert{}, api.ReadOnly("act on alert")
	}
	if a.Issuer == "" {
		a.Issuer = l.user
	}
	al, err := l.obs.ActOnAlert(ctx, a)
	// Who acknowledged or silenced what is kept with every other action: a
	// silenced alert is an on-call decision someone answers for.
	outcome := "succeeded"
	if err != nil {
		outcome = "refused: " + err.Error()
	}
	if aerr := l.st.Update(context.WithoutCancel(ctx), func(tx store.Tx) error {
		_, err := tx.AppendAudit(model.AuditEntry{Time: l.now(), User: a.Issuer, Action: alertAction(a), JobID: al.JobID, Outcome: outcome})
		return err
	}); aerr != nil && err == nil {
		return al, aerr
	}
	return al, err
}

// alertAction names an alert action in the audit log.
func alertAction(a api.AlertAction) string {
	switch {
	case a.Undo:
		return "alert undo " + a.Rule
	case a.Ack:
		return "alert ack " + a.Rule
	case a.Unsilence:
		return "alert unsilence " + a.Rule
	}
	return fmt.Sprintf("alert silence %s for %s", a.Rule, a.Silence)
}
