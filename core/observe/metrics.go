package observe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// Live metrics: the observer measures the jobs that clients show (their
// interest) every metrics interval, and the jobs that metric alert rules
// watch every alerts interval — never a job that nothing asked for, so the
// requests follow the screen, not the fleet. It keeps each shown job's
// history in ring buffers, publishes headline figures through Watch, and
// feeds the alert rules (alerts.go). It runs beside state sync (RunSync),
// in the process that owns the store: the agent when one runs.

// Options wire an Observer.
type Options struct {
	Store     store.Store
	Clusters  map[string]*clusters.Cluster
	Publisher journal.Publisher
	// Watch streams the changes the other parts publish (the alert rules
	// follow every job's record through it).
	Watch    func(ctx context.Context) <-chan api.Change
	Settings Settings
	Now      func() time.Time
	Log      *slog.Logger
	// HookRetryWait is the first pause between a webhook's retries; it
	// doubles per retry. Default 500ms.
	HookRetryWait time.Duration
}

// Observer measures jobs, judges the alert rules and notifies webhooks.
type Observer struct {
	st       store.Store
	clusters map[string]*clusters.Cluster
	pub      journal.Publisher
	watch    func(ctx context.Context) <-chan api.Change
	webhooks []Webhook
	now      func() time.Time
	log      *slog.Logger

	fmu     sync.Mutex
	figures map[string]api.Figures // job id → latest figures of a shown job

	round sync.Mutex // one metrics round and alerts judgement at a time

	interval      time.Duration // for shown jobs
	alertInterval time.Duration // for jobs only alert rules watch
	ttl           time.Duration // how long an interest lasts undeclared
	concurrency   int

	mu      sync.Mutex
	clients map[string]clientInterest
	jobs    map[string]*jobMetrics // by job id
	// known is every job as the store and the change stream last said, for
	// the alert rules (which watch jobs nobody shows).
	known map[string]model.Job

	al *alerter
	// judging is the store of the run that judges the rules, if one runs.
	judging atomic.Pointer[store.Store]
	// hookWait overrides the first pause between webhook retries (tests).
	hookWait time.Duration
}

// clientInterest is one client's declared screen.
type clientInterest struct {
	jobs   []string
	detail string
	vertex api.VertexInterest
	until  time.Time
}

// jobMetrics is what the observer knows of one job.
type jobMetrics struct {
	flinkJobID string
	series     *series // history; only for jobs some client showed
	vertices   []api.VertexMetrics
	cluster    *api.FlinkCluster // when a client showed the job in depth
	// lagNames are the source vertices' lag metric names, listed once per
	// Flink job (vertex id → names).
	lagNames map[string][]string
	// history is the subtasks of the vertices clients show subtask by
	// subtask, over the last minutes (vertex id → history; subtasks.go).
	history map[string]*subtaskHistory
	// shape is the Flink job's graph, as its details last said.
	shape *jobShape

	latest      api.MetricPoint
	collectedAt time.Time // of latest
	triedAt     time.Time // of the last attempt, which may have failed
	shownAt     time.Time // when a client last showed the job
	lastErr     string
	lastErrAt   time.Time

	// restarts are the increases of Flink's numRestarts seen, for the
	// restarts rule's window; lastRestarts is Unknown before the first.
	restarts     []restartMark
	lastRestarts int64
	// failedBase is Flink's failed-checkpoint count when a checkpoint last
	// completed, so that a run of failures longer than Flink's history
	// still counts in full; lastCompleted is the completed count then.
	failedBase, lastCompleted int64
	streak                    int
	ckSeen                    bool
}

type restartMark struct {
	at time.Time
	n  int64
}

// New builds an observer. It does no I/O.
func New(o Options) *Observer {
	cfg := o.Settings
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	iv := cfg.Interval
	if iv <= 0 {
		iv = 5 * time.Second
	}
	av := max(cfg.AlertInterval, iv)
	return &Observer{
		st: o.Store, clusters: o.Clusters, pub: o.Publisher, watch: o.Watch, webhooks: cfg.Webhooks,
		now: o.Now, log: o.Log, figures: map[string]api.Figures{}, hookWait: o.HookRetryWait,
		interval:      iv,
		alertInterval: av,
		ttl:           max(3*iv, 30*time.Second),
		concurrency:   max(cfg.Concurrency, 1),
		clients:       map[string]clientInterest{},
		jobs:          map[string]*jobMetrics{},
		known:         map[string]model.Job{},
		al:            newAlerter(cfg.Rules),
	}
}

// SetInterest implements Service.
func (o *Observer) SetInterest(ctx context.Context, r api.InterestRequest) error {
	if r.Client == "" {
		return errors.New("set metrics interest: no client id")
	}
	now := o.now()
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(r.Jobs) == 0 && r.Detail == "" && r.Vertex.IsZero() {
		delete(o.clients, r.Client)
		return nil
	}
	o.clients[r.Client] = clientInterest{jobs: slices.Clone(r.Jobs), detail: r.Detail, vertex: r.Vertex, until: now.Add(o.ttl)}
	return nil
}

// JobMetrics implements Service.
func (o *Observer) JobMetrics(ctx context.Context, ref string) (api.MetricsSeries, error) {
	var j model.Job
	if err := o.st.View(ctx, func(tx store.ReadTx) (err error) { j, err = journal.FindJob(tx, ref); return err }); err != nil {
		return api.MetricsSeries{}, fmt.Errorf("metrics of %s: %w", ref, err)
	}
	now := o.now()
	out := api.MetricsSeries{JobID: j.ID, Interval: o.interval, Charts: slices.Clone(j.Charts)}
	o.mu.Lock()
	defer o.mu.Unlock()
	jm := o.jobs[j.ID]
	if jm == nil {
		return out, nil
	}
	if jm.series != nil {
		out.Recent = jm.series.recentSince(now.Add(-recentSpan))
		out.Hour = jm.series.hourSince(now.Add(-hourSpan))
	}
	out.Vertices = slices.Clone(jm.vertices)
	if jm.cluster != nil && now.Sub(jm.cluster.At) <= o.ttl {
		c := *jm.cluster
		out.Cluster = &c
	}
	out.LastError, out.LastErrorAt = jm.lastErr, jm.lastErrAt
	return out, nil
}

// CollectStats describe one collection round.
type CollectStats struct {
	Jobs     int   // jobs measured
	Shown    int   // of which some client shows
	Requests int64 // JobManager requests made
	Errors   int
	Duration time.Duration
}

// collectTarget is one job to measure in a round.
type collectTarget struct {
	job   model.Job
	shown bool
	depth bool // a client shows it in depth
	// subtasks are the vertices a client shows subtask by subtask, with
	// the subtasks on screen.
	subtasks map[string][]int
}

// dueTargets lists the jobs to measure now: the ones clients show, and
// those that metric alert rules watch whose last measure is an alerts
// interval old. Expired interests are dropped here.
func (o *Observer) dueTargets(now time.Time) (shown []string, depth map[string]bool, vertices map[string]map[string][]int, watched []model.Job) {
	o.mu.Lock()
	defer o.mu.Unlock()
	seen := map[string]bool{}
	depth = map[string]bool{}
	for id, c := range o.clients {
		if now.After(c.until) {
			delete(o.clients, id)
			continue
		}
		if c.detail != "" {
			depth[c.detail] = true
		}
		for _, j := range append([]string{c.detail, c.vertex.JobID}, c.jobs...) {
			if j != "" && !seen[j] {
				seen[j] = true
				shown = append(shown, j)
			}
		}
	}
	sort.Strings(shown)
	vertices = vertexWants(o.clients)
	if !o.al.watchesMetrics() {
		return shown, depth, vertices, nil
	}
	for id, j := range o.known {
		if seen[id] || !measurable(j) || !o.al.watchesMetricsOf(j) {
			continue
		}
		// A JobManager that does not answer is asked again an alerts
		// interval later too, not every round.
		if jm := o.jobs[id]; jm != nil && now.Sub(jm.triedAt) < o.alertInterval-o.interval/2 {
			continue
		}
		watched = append(watched, j)
	}
	sort.Slice(watched, func(a, b int) bool { return watched[a].ID < watched[b].ID })
	return shown, depth, vertices, watched
}

// measurable: a running Flink job whose JobManager palink knows.
func measurable(j model.Job) bool {
	return j.State == model.StateRunning && j.AppID != "" && j.FlinkJobID != "" &&
		(j.TrackingURL != "" || j.JMAddress != "")
}

// collectOnce runs one round: it measures the due jobs (bounded
// concurrency; those only the alert rules watch when it judges), records what they said, publishes the shown ones' figures,
// and forgets what nobody looked at for an hour.
func (o *Observer) collectOnce(ctx context.Context, judge bool) (CollectStats, error) {
	start := time.Now()
	now := o.now()
	var stats CollectStats
	shownIDs, depth, vertices, watched := o.dueTargets(now)
	if !judge {
		watched = nil // only the rules need them
	}
	var targets []collectTarget
	if len(shownIDs) > 0 {
		err := o.st.View(ctx, func(tx store.ReadTx) error {
			for _, id := range shownIDs {
				j, err := tx.Job(id)
				if errors.Is(err, store.ErrNotFound) {
					continue
				}
				if err != nil {
					return err
				}
				targets = append(targets, collectTarget{job: j, shown: true, depth: depth[id], subtasks: vertices[id]})
			}
			return nil
		})
		if err != nil {
			return stats, fmt.Errorf("collect metrics: read jobs: %w", err)
		}
	}
	for _, j := range watched {
		targets = append(targets, collectTarget{job: j})
	}

	var (
		requests atomic.Int64
		failed   atomic.Int64
		measured atomic.Int64
		wg       sync.WaitGroup
		sem      = make(chan struct{}, o.concurrency)
	)
	for _, t := range targets {
		j := t.job
		cl := o.clusters[j.Cluster]
		if !measurable(j) || cl == nil {
			if t.shown {
				o.forgetFigures(j.ID)
			}
			continue
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return stats, ctx.Err()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			jctx, cancel := context.WithTimeout(ctx, max(2*o.interval, 10*time.Second))
			defer cancel()
			lag, shape := o.knownOf(j)
			m, err := o.measure(jctx, cl, j, measureWant{lagNames: lag, shape: shape, depth: t.depth, charts: j.Charts, subtasks: t.subtasks})
			requests.Add(int64(m.calls))
			measured.Add(1)
			if err != nil {
				failed.Add(1)
				o.log.Debug("metrics", "job", j.Name, "err", err)
			}
			o.record(j, t.shown, m, err, o.now())
		}()
	}
	wg.Wait()
	stats.Jobs = int(measured.Load())
	stats.Shown = len(shownIDs)
	stats.Requests = requests.Load()
	stats.Errors = int(failed.Load())
	o.publishFigures(ctx, shownIDs, now)
	o.prune(now)
	o.pruneFigures(now)
	stats.Duration = time.Since(start)
	return stats, ctx.Err()
}

// knownOf is what earlier measurements learned of the job's Flink job:
// its lag metric names and its shape.
func (o *Observer) knownOf(j model.Job) (map[string][]string, *jobShape) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if jm := o.jobs[j.ID]; jm != nil && jm.flinkJobID == j.FlinkJobID {
		return jm.lagNames, jm.shape
	}
	return nil, nil
}

// record keeps one measurement.
func (o *Observer) record(j model.Job, shown bool, m measurement, err error, now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	jm := o.jobs[j.ID]
	if jm == nil {
		jm = &jobMetrics{lastRestarts: api.Unknown}
		o.jobs[j.ID] = jm
	}
	if jm.flinkJobID != j.FlinkJobID {
		// A new Flink job (a redeploy): its counters start again.
		jm.flinkJobID, jm.lagNames, jm.history, jm.shape = j.FlinkJobID, nil, nil, nil
		jm.lastRestarts, jm.failedBase, jm.lastCompleted, jm.streak, jm.ckSeen = api.Unknown, 0, 0, 0, false
	}
	jm.triedAt = now
	if shown {
		jm.shownAt = now
	}
	if err != nil {
		jm.lastErr, jm.lastErrAt = err.Error(), now
		return
	}
	jm.lastErr = ""
	if m.shape != nil {
		jm.shape = m.shape
	}
	jm.keepSubtasks(m.subtasks, m.subtaskErrs, o.interval, now)
	if jm.lagNames == nil {
		jm.lagNames = map[string][]string{}
	}
	for id, names := range m.lagNames {
		jm.lagNames[id] = names
	}
	p := m.point
	if p.Restarts >= 0 {
		if jm.lastRestarts >= 0 && p.Restarts > jm.lastRestarts {
			jm.restarts = append(jm.restarts, restartMark{at: now, n: p.Restarts - jm.lastRestarts})
		}
		jm.lastRestarts = p.Restarts
	}
	// Failures in a row: Flink's history shows the newest few; the counts
	// carry longer runs. A completion resets the run.
	if m.checkpointsOK {
		if !jm.ckSeen || m.completed > jm.lastCompleted {
			jm.lastCompleted, jm.failedBase, jm.ckSeen = m.completed, m.failed-int64(p.FailedInARow), true
		}
		jm.streak = max(p.FailedInARow, int(m.failed-jm.failedBase))
	}
	p.FailedInARow = jm.streak
	jm.latest, jm.collectedAt = p, now
	if shown {
		if jm.series == nil {
			jm.series = newSeries(o.interval)
		}
		jm.series.add(p)
		jm.vertices = m.vertices
	}
	if m.cluster != nil {
		jm.cluster = m.cluster
	}
}

// prune forgets what nobody needs: histories not shown for an hour, and
// everything of jobs not measured for an hour.
func (o *Observer) prune(now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	keep := o.al.longestWindow()
	for id, jm := range o.jobs {
		if jm.series != nil && now.Sub(jm.shownAt) > hourSpan {
			jm.series, jm.vertices = nil, nil
		}
		jm.pruneSubtasks(now)
		if now.Sub(jm.collectedAt) > hourSpan && now.Sub(jm.lastErrAt) > hourSpan {
			delete(o.jobs, id)
			continue
		}
		i := 0
		for i < len(jm.restarts) && now.Sub(jm.restarts[i].at) > keep {
			i++
		}
		jm.restarts = jm.restarts[i:]
	}
}

// figuresOf is the jobs table's view of a job's latest measure.
func (o *Observer) figuresOf(id string, now time.Time) (api.Figures, bool) {
	jm := o.jobs[id]
	if jm == nil || jm.collectedAt.IsZero() || jm.series == nil {
		return api.Figures{}, false
	}
	p := jm.latest
	f := api.Figures{At: jm.collectedAt, RecordsInPerSec: p.RecordsIn, RecordsOutPerS: p.RecordsOut,
		Backpressure: p.Backpressure, Lag: p.Lag, InSpark: jm.series.spark(now.Add(-recentSpan))}
	if p.CheckpointAge >= 0 {
		f.CheckpointAge = p.CheckpointAge
	}
	if p.WatermarkDelay >= 0 {
		f.WatermarkDelay = p.WatermarkDelay
	}
	return f, true
}

// Start runs metrics collection and alerting beside state sync
// until ctx is done, writing alerts through the observer's store; stop
// waits for them to end.
func (o *Observer) Start(ctx context.Context) (stop func()) { return o.StartWith(ctx, o.st) }

// StartWith is Start with the alerts written through w: the leader's store,
// fenced by its term, where palinks share a store on etcd. A nil w measures
// only the jobs this palink's clients show and judges no rule: a palink
// that does not lead still shows its screens live figures, while the leader
// alone judges the rules, writes alerts and calls webhooks. Rounds of one
// observer run one StartWith at a time.
func (o *Observer) StartWith(ctx context.Context, w store.Store) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		o.runObserver(ctx, &wg, w)
	}()
	return func() { cancel(); wg.Wait() }
}

// writer is the store alerts are written through: the judging run's, or
// the observer's own when none judges (a person's action on an alert).
func (o *Observer) writer() store.Store {
	if w := o.judging.Load(); w != nil {
		return *w
	}
	return o.st
}

// runObserver is the collection loop: every metrics interval a round, then,
// when it judges (w set), the alert rules over what it and state sync know.
func (o *Observer) runObserver(ctx context.Context, wg *sync.WaitGroup, w store.Store) {
	judge := w != nil
	var kick chan struct{} // nil unless it judges: no notifier to wake
	if judge {
		o.judging.Store(&w)
		defer func() {
			o.judging.Store(nil)
			// What it judged goes stale once it stops (another palink
			// judges on): actions on alerts go to the store meanwhile.
			o.al.forget()
		}()
		if err := o.loadObserved(ctx); err != nil && ctx.Err() == nil {
			o.log.Warn("alerts: load", "err", err)
		}
		changes := o.watch(ctx)
		wg.Add(2)
		go func() { defer wg.Done(); o.followJobs(ctx, changes) }()
		kick = make(chan struct{}, 1)
		go func() { defer wg.Done(); o.runNotifier(ctx, kick) }()
	}
	t := time.NewTicker(o.interval)
	defer t.Stop()
	for {
		o.round.Lock()
		stats, err := o.collectOnce(ctx, judge)
		if err != nil && ctx.Err() == nil {
			o.log.Warn("metrics round", "err", err)
		} else if stats.Jobs > 0 {
			o.log.Debug("metrics round", "jobs", stats.Jobs, "shown", stats.Shown, "requests", stats.Requests, "errors", stats.Errors, "took", stats.Duration)
		}
		if judge {
			if err := o.evaluateAlerts(ctx); err != nil && ctx.Err() == nil {
				o.log.Warn("alerts", "err", err)
			}
		}
		o.round.Unlock()
		select {
		case kick <- struct{}{}:
		default:
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Round measures the due jobs and judges the alert rules now, between the
// loop's own rounds; Start must be running (it knows the jobs). The demo
// steps its clock through an hour and takes a round at each step.
func (o *Observer) Round(ctx context.Context) (CollectStats, error) {
	o.round.Lock()
	defer o.round.Unlock()
	stats, err := o.collectOnce(ctx, true)
	if err != nil {
		return stats, err
	}
	return stats, o.evaluateAlerts(ctx)
}

// loadObserved reads every job (for the alert rules) and the alerts the
// last run left.
func (o *Observer) loadObserved(ctx context.Context) error {
	var jobs []model.Job
	var alerts []model.Alert
	err := o.st.View(ctx, func(tx store.ReadTx) (err error) {
		if jobs, err = tx.Jobs(); err != nil {
			return err
		}
		alerts, err = tx.Alerts()
		return err
	})
	if err != nil {
		return err
	}
	o.mu.Lock()
	o.known = make(map[string]model.Job, len(jobs))
	for _, j := range jobs {
		o.known[j.ID] = j
	}
	o.mu.Unlock()
	o.al.load(alerts)
	return nil
}

// followJobs keeps the observer's copy of every job current from the
// change stream; a Resync reloads it.
func (o *Observer) followJobs(ctx context.Context, ch <-chan api.Change) {
	for c := range ch {
		switch {
		case c.Kind == api.JobChanged && c.Job != nil:
			o.mu.Lock()
			o.known[c.Job.ID] = c.Job.Job
			o.mu.Unlock()
		case c.Kind == api.Resync:
			var jobs []model.Job
			if err := o.st.View(ctx, func(tx store.ReadTx) (err error) { jobs, err = tx.Jobs(); return err }); err != nil {
				if ctx.Err() == nil {
					o.log.Warn("alerts: reload jobs", "err", err)
				}
				continue
			}
			o.mu.Lock()
			o.known = make(map[string]model.Job, len(jobs))
			for _, j := range jobs {
				o.known[j.ID] = j
			}
			o.mu.Unlock()
		}
	}
}
