package syncer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// Options wire a Syncer.
type Options struct {
	Store     store.Store
	Clusters  map[string]*clusters.Cluster
	Publisher journal.Publisher
	Now       func() time.Time
	Log       *slog.Logger
	// Interval is the cycle; Concurrency bounds the jobs fetched at once.
	Interval    time.Duration
	Concurrency int
	// NoJitter syncs every job at the start of a cycle instead of spreading
	// them over the interval (for `sync --once` and benchmarks).
	NoJitter bool
	// Policy decides the restart of a job that sync sees FAILED.
	Policy decide.RestartPolicy
	// Batch is how many changed jobs one write transaction persists
	// (default 256); a cycle whose jobs did not change writes nothing.
	Batch int
	// BatchWait is how long a changed job waits for others to share its
	// transaction (default 200ms): the freshness a batch costs.
	BatchWait time.Duration
	// CheckpointEvery is how many cycles apart a running job's checkpoint
	// details are read when nothing else moved (default 12; 1: every
	// cycle): they cost a request of their own, and a job's state one.
	// A job whose Flink state or Flink job changed, or that has no
	// checkpoint recorded, is asked at once; so is a job synced on its
	// own (Job), and a deploy asks its JobManager before it restores.
	CheckpointEvery int
}

// Syncer is state sync: it keeps each live job's record in step with what
// YARN and Flink report, and schedules the restart policy's restarts.
type Syncer struct {
	st       store.Store
	clusters map[string]*clusters.Cluster
	pub      journal.Publisher
	now      func() time.Time
	log      *slog.Logger
	opts     Options

	// failSeen is, per job, the time of the newest failure whose exception
	// history was read, so that the history is read once per failure, not
	// every cycle (a palink that starts reads it once more).
	failMu   sync.Mutex
	failSeen map[string]int64
	// lastMod is, per job, the last-modification of its JobManager's
	// overview when its details were last read (observeFlink).
	lastMod map[string]int64

	// cycle counts the cycles, for the checkpoints' cadence.
	cycle atomic.Int64
}

// New builds a syncer. It does no I/O.
func New(o Options) *Syncer {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Interval <= 0 {
		o.Interval = 10 * time.Second
	}
	o.Concurrency = max(o.Concurrency, 1)
	if o.Batch <= 0 {
		o.Batch = 256
	}
	if o.BatchWait <= 0 {
		o.BatchWait = 200 * time.Millisecond
	}
	if o.CheckpointEvery <= 0 {
		o.CheckpointEvery = 12
	}
	return &Syncer{st: o.Store, clusters: o.Clusters, pub: o.Publisher, now: o.Now, log: o.Log, opts: o,
		failSeen: map[string]int64{}, lastMod: map[string]int64{}}
}

// maxProblems bounds the errors a cycle describes (it counts them all).
const maxProblems = 5

// problem counts an error of the cycle and keeps the first few.
func problem(s *api.SyncStats, format string, args ...any) {
	s.Errors++
	if len(s.Problems) < maxProblems {
		s.Problems = append(s.Problems, fmt.Sprintf(format, args...))
	}
}

// Run runs state sync until ctx is done: a first cycle at once, then every
// interval one cycle, its jobs spread over the interval with random jitter.
func (s *Syncer) Run(ctx context.Context) error {
	interval := s.opts.Interval
	for first := true; ; first = false {
		start := s.now()
		// The jobs are spread over most of the interval, not all of it:
		// the RM list before them and the last batch's commit after them
		// take their time too, and at 10,000 jobs a spread of the whole
		// interval made every cycle 1–3 s late.
		spread := interval * 8 / 10
		if s.opts.NoJitter || first {
			// The first cycle syncs every job at once: a palink that just
			// started shows the cluster's truth now, not over an interval.
			spread = 0
		}
		stats, err := s.Once(ctx, spread)
		if err != nil && ctx.Err() == nil {
			s.log.Warn("sync cycle", "err", err)
		} else {
			s.log.Debug("sync cycle", "jobs", stats.Jobs, "changed", stats.Changed, "rm", stats.RMCalls, "flink", stats.FlinkCalls, "txns", stats.Transactions, "took", stats.Duration)
		}
		wait := interval - s.now().Sub(start)
		if wait < 0 {
			wait = 0
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

// syncable reports whether sync looks after a job in state s. DEPLOYING
// jobs belong to their command; final states have no application to watch.
func syncable(s model.JobState) bool {
	return s == model.StateDeploySucceeded || s == model.StateRunning
}

type syncWork struct {
	cl  *clusters.Cluster
	job *model.Job        // in the cycle's one slice of jobs: a Job is 432 bytes
	app *yarn.Application // from the cycle's list call; nil if absent
	at  time.Duration     // offset within the cycle
	// checkpoints says to read the checkpoint details whatever moved.
	checkpoints bool
}

// Once runs one sync cycle: one application list call per cluster, then
// every live job's Flink state through the application's current tracking
// URL, spread over spread with jitter and bounded concurrency.
func (s *Syncer) Once(ctx context.Context, spread time.Duration) (api.SyncStats, error) {
	start := time.Now()
	cycle := s.cycle.Add(1)
	var stats api.SyncStats
	var jobs []model.Job
	err := s.st.View(ctx, func(tx store.ReadTx) error {
		all, err := tx.Jobs()
		if err != nil {
			return err
		}
		owned, err := ownedJobs(tx)
		if err != nil {
			return err
		}
		// Filtered in place: at fleet size, every copy of the list is
		// megabytes moved each cycle.
		jobs = slices.DeleteFunc(all, func(j model.Job) bool { return !syncable(j.State) || owned[j.ID] })
		return nil
	})
	if err != nil {
		return stats, err
	}
	byCluster := map[string][]*model.Job{}
	for i := range jobs {
		byCluster[jobs[i].Cluster] = append(byCluster[jobs[i].Cluster], &jobs[i])
	}
	work := make([]syncWork, 0, len(jobs))
	var (
		mu sync.Mutex
		wg sync.WaitGroup
		rm atomic.Int64
	)
	for name, js := range byCluster {
		cl := s.clusters[name]
		if cl == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rm.Add(1)
			apps, err := cl.RM.ApplicationStates(ctx, yarn.AppFilter{ApplicationTypes: []string{cl.Cfg.ApplicationType}})
			cl.Observe(err, s.now())
			s.publishCluster(cl)
			if err != nil {
				// An unreachable RM says nothing about the jobs: no state changes.
				s.log.Warn("sync: list applications", "cluster", name, "err", err)
				mu.Lock()
				problem(&stats, "cluster %s: list applications: %v", name, err)
				mu.Unlock()
				return
			}
			byID := make(map[string]*yarn.Application, len(apps))
			for i := range apps {
				byID[apps[i].ID] = &apps[i]
			}
			mu.Lock()
			defer mu.Unlock()
			for _, j := range js {
				w := syncWork{cl: cl, job: j, app: byID[j.AppID], checkpoints: checkpointsDue(j.ID, cycle, s.opts.CheckpointEvery)}
				// A job never synced (just adopted or deployed) is read at
				// once: spread over the interval, a bulk adoption would show
				// its jobs' state only an interval later.
				if spread > 0 && !j.SyncedAt.IsZero() {
					w.at = time.Duration(rand.Int64N(int64(spread)))
				}
				work = append(work, w)
			}
		}()
	}
	wg.Wait()
	slices.SortFunc(work, func(a, b syncWork) int { return cmp.Compare(a.at, b.at) })

	// A delay queue: a dispatcher releases each job at its offset to a
	// bounded pool, so a thousand jobs are not fetched in the same second.
	// The pool only observes; what may change a record goes to one writer,
	// which persists it with others in one transaction.
	queue := make(chan syncWork)
	// Buffered by a batch: the pool goes on observing while the writer
	// commits the batch before (a commit of 256 jobs with its fsync took
	// longer than observing them, and held the pool at the channel).
	writes := make(chan observation, s.opts.Batch)
	var flink atomic.Int64
	var changed, txns atomic.Int64
	var pool sync.WaitGroup
	for i := 0; i < s.opts.Concurrency; i++ {
		pool.Add(1)
		go func() {
			defer pool.Done()
			for w := range queue {
				o, calls, err := s.observe(ctx, w.cl, *w.job, w.app, w.checkpoints)
				flink.Add(calls)
				if err != nil {
					s.log.Warn("sync job", "job", w.job.Name, "err", err)
					mu.Lock()
					problem(&stats, "job %s: %v", w.job.Name, err)
					mu.Unlock()
					continue
				}
				if o.mayChange() {
					writes <- o
				}
			}
		}()
	}
	written := make(chan struct{})
	go func() {
		defer close(written)
		// Spread over the interval, a changed job waits a moment for
		// others; all at once, they come together anyway.
		wait := s.opts.BatchWait
		if spread == 0 {
			wait = 0
		}
		s.writeBatches(ctx, writes, wait, func(n int, tx int, errs []error) {
			changed.Add(int64(n))
			txns.Add(int64(tx))
			mu.Lock()
			for _, err := range errs {
				s.log.Warn("sync job", "err", err)
				problem(&stats, "%v", err)
			}
			mu.Unlock()
		})
	}()
	cycleStart := time.Now()
	// One timer, and the jobs due within a tick released together: a
	// wake-up for each job, a thousand a second at 10,000 jobs, parked and
	// woke the runtime's threads for every request, and cost more CPU than
	// the requests themselves. A tick is a hundredth of the spread, or
	// longer in a small fleet, so that a tick releases about as many jobs
	// as the pool reads at once (at 100 jobs, three bursts a cycle).
	tick := max(spread/100, spread*time.Duration(s.opts.Concurrency)/time.Duration(len(work)+1), time.Millisecond)
	timer := time.NewTimer(0)
	defer timer.Stop()
dispatch:
	for _, w := range work {
		if d := w.at - time.Since(cycleStart); d > tick {
			timer.Reset(d)
			select {
			case <-ctx.Done():
				break dispatch
			case <-timer.C:
			}
		}
		select {
		case queue <- w:
		case <-ctx.Done():
			break dispatch
		}
	}
	close(queue)
	pool.Wait()
	close(writes)
	<-written
	stats.Jobs = len(work)
	stats.Changed = int(changed.Load())
	stats.Transactions = int(txns.Load())
	stats.RMCalls = rm.Load()
	stats.FlinkCalls = flink.Load()
	stats.Duration = time.Since(start)
	return stats, ctx.Err()
}

// ownedJobs are the jobs a pending command acts on (all but SAVEPOINT,
// which leaves the job running), or one palink is reconciling (UNKNOWN):
// sync leaves them to the command.
func ownedJobs(tx store.CommandsReader) (map[string]bool, error) {
	cs, err := tx.Commands(store.CommandFilter{States: []model.CommandState{model.CmdUndo, model.CmdDoing, model.CmdUnknown}})
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(cs))
	for _, c := range cs {
		if c.Kind != model.CmdSavepoint {
			out[c.JobID] = true
		}
	}
	return out, nil
}

// Job implements Service: it syncs one job now.
func (s *Syncer) Job(ctx context.Context, ref string) (model.Job, error) {
	var j model.Job
	err := s.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		j, err = journal.FindJob(tx, ref)
		return err
	})
	if err != nil || !syncable(j.State) || j.AppID == "" {
		return j, err
	}
	cl := s.clusters[j.Cluster]
	if cl == nil {
		return j, fmt.Errorf("sync %s: cluster %q is not configured", j.Name, j.Cluster)
	}
	o, _, err := s.observe(ctx, cl, j, nil, true)
	if err == nil {
		_, err = s.apply(ctx, []observation{o})
	}
	if err != nil {
		return j, fmt.Errorf("sync %s: %w", j.Name, err)
	}
	err = s.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		j, err = tx.Job(j.ID)
		return err
	})
	return j, err
}

// flinkFacts is what the JobManager said of a job in one sync.
type flinkFacts struct {
	jobID    string
	state    string
	gone     bool
	started  time.Time
	restarts int
	ckpt     *yarn.Checkpoint
	sp       *yarn.Checkpoint
	restored *yarn.RestoredCheckpoint
	// retention is what its checkpoints/config says, when it was read.
	retention model.CheckpointRetention
	rootErr   string
	// exceptions is the JobManager's exception history, when it was read.
	exceptions []model.JobException
}

// observation is what one sync saw of a job, to persist.
type observation struct {
	cl      *clusters.Cluster
	seen    model.Job // the job's record when the cycle read it
	app     *yarn.Application
	ff      *flinkFacts
	outcome decide.Outcome
	end     model.RunEnd
	reason  string
}

// observe asks YARN (unless the cycle's list call answered) and the
// JobManager about one job. It returns how many JobManager calls it made.
func (s *Syncer) observe(ctx context.Context, cl *clusters.Cluster, j model.Job, app *yarn.Application, checkpoints bool) (observation, int64, error) {
	var calls int64
	if app == nil && j.AppID != "" {
		a, err := cl.RM.Application(ctx, j.AppID)
		cl.Observe(err, s.now())
		switch {
		case errors.Is(err, yarn.ErrNotFound):
		case err != nil:
			return observation{}, calls, err
		default:
			app = &a
		}
	}
	obs := decide.Observation{AppFound: app != nil}
	var ff *flinkFacts
	if app != nil {
		obs.YARNState, obs.FinalStatus = app.State, app.FinalStatus
		if app.State == yarn.AppRunning {
			var err error
			ff, calls, err = s.observeFlink(ctx, cl, *app, j, checkpoints)
			if err != nil {
				s.log.Info("sync: JobManager unreachable", "job", j.Name, "err", err)
			}
			if ff != nil {
				obs.FlinkState, obs.FlinkGone = ff.state, ff.gone
			}
		}
	}
	outcome, reason := decide.MapObservation(obs)
	return observation{cl: cl, seen: j, app: app, ff: ff, outcome: outcome, end: decide.RunEndOf(obs), reason: "sync: " + reason}, calls, nil
}

// observeFlink asks the application's JobManager about the job.
func (s *Syncer) observeFlink(ctx context.Context, cl *clusters.Cluster, app yarn.Application, j model.Job, checkpoints bool) (*flinkFacts, int64, error) {
	var calls int64
	f, err := cl.Flink(app)
	if err != nil {
		return nil, calls, err
	}
	ff := &flinkFacts{jobID: j.FlinkJobID}
	// The JobManager's overview first: a few hundred bytes a job, where
	// its details are kilobytes of vertices and plan. Its last-modification
	// moves with every job and task state change, so while it stands where
	// the details were last read, they would say nothing new.
	calls++
	jobs, err := f.Jobs(ctx)
	if err != nil {
		return nil, calls, err
	}
	var over yarn.JobOverview
	if ff.jobID == "" {
		jo, ok := pickFlinkJob(jobs, j)
		if !ok {
			return nil, calls, nil // not submitted yet: nothing to say
		}
		ff.jobID, over = jo.ID, jo
	} else if i := slices.IndexFunc(jobs, func(o yarn.JobOverview) bool { return o.ID == ff.jobID }); i >= 0 {
		over = jobs[i]
	} else {
		ff.gone = true // the JobManager no longer knows it, as its details would answer 404
		return ff, calls, nil
	}
	s.failMu.Lock()
	known, seenBefore := s.lastMod[j.ID]
	s.failMu.Unlock()
	moved := !seenBefore || over.LastModification != known || over.LastModification <= 0 || ff.jobID != j.FlinkJobID
	// A job never synced (a bulk adoption brings thousands at once) is
	// read for its state, checkpoints and retention first; its details
	// (the failures of its past) wait for the next cycle, spread over it.
	first := j.SyncedAt.IsZero() && !failing(over.State)
	var det yarn.JobDetails
	if (moved || failing(over.State)) && !first {
		calls++
		det, err = f.Job(ctx, ff.jobID)
		if errors.Is(err, yarn.ErrNotFound) {
			ff.gone = true
			return ff, calls, nil
		}
		if err != nil {
			return nil, calls, err
		}
		s.failMu.Lock()
		s.lastMod[j.ID] = over.LastModification
		s.failMu.Unlock()
	} else {
		det = yarn.JobDetails{ID: over.ID, Name: over.Name, State: over.State, StartTime: over.StartTime}
	}
	ff.state = det.State
	if det.StartTime > 0 {
		ff.started = time.UnixMilli(det.StartTime)
	}
	// Checkpoints the metrics rounds read within the interval (they read
	// a watched job's every round) serve as this cycle's, whatever its
	// cadence; a job whose state moved is asked now.
	moving := j.LatestCheckpoint == nil || ff.jobID != j.FlinkJobID || det.State != j.FlinkState
	if cps, _, ok := cl.Reads.Checkpoints(ff.jobID, s.now().Add(-s.opts.Interval), readBy); ok && !moving {
		ff.ckpt, ff.sp, ff.restored = cps.Latest.Completed, cps.Latest.Savepoint, cps.Latest.Restored
	} else if checkpoints || moving {
		calls++
		cps, err := f.Checkpoints(ctx, ff.jobID)
		if err == nil {
			ff.ckpt, ff.sp, ff.restored = cps.Latest.Completed, cps.Latest.Savepoint, cps.Latest.Restored
			cl.Reads.PutCheckpoints(ff.jobID, cps, s.now(), readBy)
		}
	}
	// The retention the Flink job runs with decides what Flink keeps when
	// it ends: read once per Flink job.
	if j.Retention == model.RetentionUnknown || ff.jobID != j.FlinkJobID {
		calls++
		if conf, err := f.CheckpointConfig(ctx, ff.jobID); err == nil {
			ff.retention = decide.RetentionFromREST(conf.Externalization.Enabled, conf.Externalization.DeleteOnCancellation)
		}
	}
	// The exception history, when the job failed since it was last read:
	// kept in the store, it outlives the application.
	failed := max(det.Timestamps[yarn.JobFailing], det.Timestamps[yarn.JobRestarting], det.Timestamps[yarn.JobFailed])
	s.failMu.Lock()
	seen := s.failSeen[j.ID]
	s.failMu.Unlock()
	if failing(det.State) || failed > seen {
		calls++
		if ex, err := f.Exceptions(ctx, ff.jobID, model.MaxStoredExceptions); err == nil {
			ff.rootErr = rootCause(ex)
			ff.exceptions = storedExceptions(ex, j, ff.jobID, s.now())
			s.failMu.Lock()
			s.failSeen[j.ID] = max(s.failSeen[j.ID], failed)
			s.failMu.Unlock()
		}
	}
	return ff, calls, nil
}

// readBy names state sync's reads in the cluster's shared Reads.
const readBy = "sync"

// failing: the job failed or is failing, and its details are read every
// cycle (their failure timestamps, the exception history).
func failing(state string) bool {
	return state == yarn.JobFailed || state == yarn.JobFailing || state == yarn.JobRestarting
}

// checkpointsDue reports whether cycle is the one of every `every` in
// which the job's checkpoint details are read; jobs are spread over the
// cycles by their id, so that each cycle reads about 1/every of them.
func checkpointsDue(jobID string, cycle int64, every int) bool {
	if every <= 1 {
		return true
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(jobID))
	return (int64(h.Sum32())+cycle)%int64(every) == 0
}

// pickFlinkJob finds the job's Flink job on a JobManager: the only one in a
// per-job cluster, else the newest with the job's name.
func pickFlinkJob(jobs []yarn.JobOverview, j model.Job) (yarn.JobOverview, bool) {
	if len(jobs) == 1 && !j.Session {
		return jobs[0], true
	}
	var best yarn.JobOverview
	found := false
	for _, jo := range jobs {
		if jo.Name == j.Name && (!found || jo.StartTime > best.StartTime) {
			best, found = jo, true
		}
	}
	return best, found
}

func appDiagnostics(app *yarn.Application) string {
	if app == nil {
		return ""
	}
	return app.Diagnostics
}

// jobChanged compares the fields sync maintains.
func jobChanged(a, b model.Job) bool {
	rp := func(x, y *model.RestorePoint) bool {
		if x == nil || y == nil {
			return x != y
		}
		return x.Path != y.Path
	}
	return a.State != b.State || a.TrackingURL != b.TrackingURL || a.JMAddress != b.JMAddress || a.Retention != b.Retention ||
		a.FlinkJobID != b.FlinkJobID || a.FlinkState != b.FlinkState || a.Diagnostics != b.Diagnostics ||
		a.RestoredFrom != b.RestoredFrom || rp(a.LatestCheckpoint, b.LatestCheckpoint) ||
		rp(a.LatestSavepoint, b.LatestSavepoint) || (a.Drift == nil) != (b.Drift == nil)
}

// publishCluster tells watchers of the cluster's connectivity.
func (s *Syncer) publishCluster(cl *clusters.Cluster) {
	st := cl.Status()
	s.pub.Publish(api.Change{Kind: api.ClusterChanged, Cluster: &st})
}
