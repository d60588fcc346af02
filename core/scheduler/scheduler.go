package scheduler

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/catalog"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// Options wire a Scheduler; zero durations and counts take the defaults
// named on each.
type Options struct {
	Store     store.Store
	Clusters  map[string]*clusters.Cluster
	Publisher journal.Publisher
	// Now is the clock; default time.Now.
	Now func() time.Time
	// User is the issuer of actions that name none.
	User     string
	ReadOnly bool
	Log      *slog.Logger
	// Lease is how long a worker owns a DOING command without renewing it;
	// default 30s. After it expires another process reclaims the command.
	Lease time.Duration
	// Workers bound the commands executed at once; default 8.
	Workers int
	// Poll is the first interval of trigger and state polling; default 500ms.
	Poll time.Duration
	// DeployWait bounds how long a deploy waits for its application to show
	// up and run; default 5m.
	DeployWait time.Duration
	// EndingGrace is how long a restart waits for a JobManager that still
	// reports the previous run of the job as running; default 30s.
	EndingGrace time.Duration
	// Tries bounds how often a command runs its step when the cluster fails
	// transiently (a 5xx, a reset, a timeout), reconciling before each
	// retry; default 5. RetryBackoff is the first wait; it doubles, up to
	// 30s; default 2s.
	Tries        int
	RetryBackoff time.Duration
	// Tick is how often Run looks for due restarts and commands nobody
	// woke it for; default 1s.
	Tick time.Duration
	// Savepoints are the periodic savepoints, their retention and the
	// restore-age guard.
	Savepoints decide.SavepointPolicy
	// Secrets are where a deploy reads its secret variables: secret
	// commands run under Secrets.Commands.
	Secrets catalog.Sources
	// Wake, if set, is the channel Act wakes Run through, shared by the
	// schedulers of one palink: the one that records a person's actions
	// and the one that runs commands in the leader's term (core/leader).
	Wake chan struct{}
	// MayAct, if set, is asked right before each act on a cluster (a
	// submission, a stop or savepoint trigger, a kill, a cancel): an error
	// means this palink no longer leads, and the command is left as it is,
	// under its lease, for the leader to reconcile (leader.Term.MayAct).
	MayAct func() error
	// LeadSince is when the leader's term this scheduler runs in began,
	// zero outside one. A command leased by another palink is reclaimed
	// once its lease expired by this host's clock, or once a Lease has
	// passed since LeadSince: that palink was deposed before the term
	// began, so a clock running behind its own holds nothing back.
	LeadSince time.Time
	// Watch is the store's change feed: with it a tick reads only the
	// jobs written since, and those falling due, for the restart policy
	// (dueRestarts); without it, every job.
	Watch func(ctx context.Context) <-chan api.Change
}

// Scheduler runs commands: it records actions as commands (Plan, Act), and
// claims, executes and ends them under a lease, so that a command is done
// once whatever process dies on the way.
type Scheduler struct {
	st       store.Store
	clusters map[string]*clusters.Cluster
	pub      journal.Publisher
	now      func() time.Time
	user     string
	readOnly bool
	log      *slog.Logger
	opts     Options
	// retaining is set while a retention pass runs.
	retaining atomic.Bool
	owner     string // this process's lease owner id
	storeID   string // the store's identity, on every application palink submits
	wake      chan struct{}
	restarts  *dueRestarts

	mu      sync.Mutex
	running map[string]bool // command ids executing in this process
}

// New builds a scheduler. It does no I/O.
func New(o Options) *Scheduler {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Lease == 0 {
		o.Lease = 30 * time.Second
	}
	if o.Workers == 0 {
		o.Workers = 8
	}
	if o.Poll == 0 {
		o.Poll = 500 * time.Millisecond
	}
	if o.DeployWait == 0 {
		o.DeployWait = 5 * time.Minute
	}
	if o.EndingGrace == 0 {
		o.EndingGrace = 30 * time.Second
	}
	if o.Tries == 0 {
		o.Tries = 5
	}
	if o.RetryBackoff == 0 {
		o.RetryBackoff = 2 * time.Second
	}
	if o.Tick == 0 {
		o.Tick = time.Second
	}
	wake := o.Wake
	if wake == nil {
		wake = make(chan struct{}, 1)
	}
	host, _ := os.Hostname()
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	return &Scheduler{
		st: o.Store, clusters: o.Clusters, pub: o.Publisher, now: o.Now, user: o.User, readOnly: o.ReadOnly,
		log: o.Log, opts: o, owner: leaseOwner(host, os.Getpid(), hex.EncodeToString(rnd[:])), storeID: o.Store.ID(),
		wake: wake, running: map[string]bool{}, restarts: newDueRestarts(),
	}
}

// mayAct says whether this palink may act on a cluster now (Options.MayAct);
// its error is errLeaseLost's.
func (s *Scheduler) mayAct() error {
	if s.opts.MayAct == nil {
		return nil
	}
	if err := s.opts.MayAct(); err != nil {
		return fmt.Errorf("%w: not acting: %v", errLeaseLost, err)
	}
	return nil
}

// termOutlasted reports whether a Lease has passed since the leader's term
// began (Options.LeadSince), on this host's monotonic clock.
func (s *Scheduler) termOutlasted() bool {
	return !s.opts.LeadSince.IsZero() && time.Since(s.opts.LeadSince) >= s.opts.Lease
}

// Run executes commands until ctx is done: it claims UNDO commands
// and DOING commands whose lease expired (their process died), marks them
// DOING under this process's lease, runs them, and ends them SUCCEEDED or
// FAILED with a log. It also starts the restarts the policy scheduled.
//
// ctx is "the program is quitting": commands in flight stop where they are
// and keep their persisted progress (trigger ids, application ids); their
// lease is released so that the next run resumes them at once.
func (s *Scheduler) Run(ctx context.Context) error {
	if s.readOnly {
		return api.ReadOnly("scheduler")
	}
	sem := make(chan struct{}, s.opts.Workers)
	var wg sync.WaitGroup
	defer wg.Wait()
	tick := time.NewTicker(s.opts.Tick)
	defer tick.Stop()
	s.watchDue(ctx)
	for {
		if err := s.startDueRestarts(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("restart policy", "err", err)
		}
		if err := s.startDueSavepoints(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("periodic savepoints", "err", err)
		}
		if s.opts.Savepoints.Retains() && !s.retaining.Load() {
			wg.Add(1)
			go func() { defer wg.Done(); s.applyRetention(ctx) }()
		}
		claimed, err := s.claim(ctx, cap(sem)-len(sem), nil)
		if err != nil && ctx.Err() == nil {
			s.log.Warn("claim commands", "err", err)
		}
		for _, c := range claimed {
			sem <- struct{}{}
			wg.Add(1)
			go func(c model.Command) {
				defer wg.Done()
				defer func() { <-sem }()
				s.execute(ctx, c)
			}(c)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		case <-s.wake:
		}
	}
}

// claim takes up to n runnable commands under this process's lease,
// leaving those skip names to others.
func (s *Scheduler) claim(ctx context.Context, n int, skip func(model.Command) bool) ([]model.Command, error) {
	if n <= 0 {
		return nil, nil
	}
	now := s.now()
	pending := store.CommandFilter{States: []model.CommandState{model.CmdUndo, model.CmdDoing, model.CmdUnknown}}
	// claimable: queued, or its lease ended (another live worker's has
	// not), and neither run here already nor one skip names.
	claimable := func(c model.Command) bool {
		s.mu.Lock()
		mine := s.running[c.ID]
		s.mu.Unlock()
		if mine || (skip != nil && skip(c)) {
			return false
		}
		return c.State == model.CmdUndo || now.After(c.LeaseUntil) || c.LeaseUntil.Equal(now) || s.termOutlasted()
	}
	// Read first: the scheduler asks every tick, and a write transaction
	// with nothing to claim still commits and syncs the file, a second's
	// fsync on an idle agent.
	var some bool
	err := s.st.View(ctx, func(tx store.ReadTx) error {
		cs, err := tx.Commands(pending)
		some = slices.ContainsFunc(cs, claimable)
		return err
	})
	if err != nil || !some {
		return nil, err
	}
	var claimed []model.Command
	err = s.st.Update(ctx, func(tx store.Tx) error {
		// A store on etcd runs this again after a conflict: what an
		// earlier run claimed was not written.
		claimed = nil
		cs, err := tx.Commands(pending)
		if err != nil {
			return err
		}
		for _, c := range cs {
			if len(claimed) == n {
				break
			}
			if !claimable(c) {
				continue
			}
			var next model.Command
			switch {
			case c.State == model.CmdUndo:
				next, err = decide.StepCommand(c, decide.CmdEvStart, s.owner, s.opts.Lease, now)
				if err == nil {
					next.Logf(now, "started by %s", s.owner)
				}
			default: // its lease ended
				prev, why := c.LeaseOwner, "expired"
				if now.Before(c.LeaseUntil) {
					// Its holder was deposed before this term began: its
					// lease ended with its lead, whatever its clock said.
					c.LeaseUntil, why = now, "ended with its lead"
				}
				next, err = decide.StepCommand(c, decide.CmdEvReclaim, s.owner, s.opts.Lease, now)
				switch {
				case err != nil:
				case c.State == model.CmdUnknown:
					next.Logf(now, "lease of %s %s while it reconciled; finding out from the cluster what it did (attempt %d)", orNone(prev), why, next.Attempts)
				default:
					next.Logf(now, "lease of %s %s; reconciling with the cluster before resuming (attempt %d)", orNone(prev), why, next.Attempts)
				}
			}
			if err != nil {
				return err
			}
			if next, err = tx.PutCommand(next); err != nil {
				return err
			}
			claimed = append(claimed, next)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	for _, c := range claimed {
		s.running[c.ID] = true
	}
	s.mu.Unlock()
	for _, c := range claimed {
		s.pub.Command(c)
	}
	return claimed, nil
}

// Orphans are the commands no live process runs: queued ones (UNDO) and
// DOING ones whose lease expired because their palink died.
func (s *Scheduler) Orphans(ctx context.Context) ([]model.Command, error) {
	now := s.now()
	var out []model.Command
	err := s.st.View(ctx, func(tx store.ReadTx) error {
		cs, err := tx.Commands(store.CommandFilter{States: []model.CommandState{model.CmdUndo, model.CmdDoing, model.CmdUnknown}})
		for _, c := range cs {
			if c.State == model.CmdUndo || !now.Before(c.LeaseUntil) {
				out = append(out, c)
			}
		}
		return err
	})
	return out, err
}

// ResumeOrphans claims the orphaned commands (but those of the jobs in
// skipJobs) and runs them to their end in this process, reconciling each
// with the cluster first as every reclaim does. A palink that opens the
// store as a writer calls it before acting, so that no command is left
// hanging because no agent runs; it returns the commands as they ended.
func (s *Scheduler) ResumeOrphans(ctx context.Context, skipJobs ...string) ([]model.Command, error) {
	if s.readOnly {
		return nil, nil
	}
	skip := func(c model.Command) bool { return slices.Contains(skipJobs, c.JobID) }
	claimed, err := s.claim(ctx, math.MaxInt, skip)
	if err != nil {
		return nil, err
	}
	var wg sync.WaitGroup
	for _, c := range claimed {
		wg.Add(1)
		go func() { defer wg.Done(); s.execute(ctx, c) }()
	}
	wg.Wait()
	out := make([]model.Command, 0, len(claimed))
	for _, c := range claimed {
		if cur, err := s.command(ctx, c.ID); err == nil {
			c = cur
		}
		out = append(out, c)
	}
	return out, ctx.Err()
}

func orNone(s string) string {
	if s == "" {
		return "a previous run"
	}
	return s
}

// execution is one command being run: its persisted state plus helpers to
// log and save progress under the lease.
type execution struct {
	s *Scheduler
	// id, jobID and kind never change while it runs: read them freely.
	id, jobID string
	kind      model.CommandKind
	mu        sync.Mutex
	cmd       model.Command // guarded by mu: saves replace it
	// outcome applies the command's end to its job; set by the executor.
	outcome outcomeFunc
	// retries counts the tries of this run after the first: a deploy that
	// retries reconciles as a reclaimed one does.
	retries int
	// eff is what it knows of its own effect on the cluster.
	eff effect
}

// logf appends to the command's log and persists it.
func (x *execution) logf(ctx context.Context, format string, args ...any) {
	x.mu.Lock()
	x.cmd.Logf(x.s.now(), format, args...)
	x.mu.Unlock()
	_ = x.save(ctx, nil)
}

// save persists the command after mod (which may record progress such as a
// trigger id). It fails if another process took the command over.
func (x *execution) save(ctx context.Context, mod func(*model.Command)) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if mod != nil {
		mod(&x.cmd)
	}
	var saved model.Command
	err := x.s.st.Update(context.WithoutCancel(ctx), func(tx store.Tx) error {
		cur, err := tx.Command(x.cmd.ID)
		if err != nil {
			return err
		}
		if cur.LeaseOwner != x.s.owner || (cur.State != model.CmdDoing && cur.State != model.CmdUnknown) {
			return fmt.Errorf("%s #%d: lease lost to %s", cur.Kind, cur.Seq, orNone(cur.LeaseOwner))
		}
		c := x.cmd
		c.LeaseUntil = x.s.now().Add(x.s.opts.Lease)
		saved, err = tx.PutCommand(c)
		return err
	})
	if err == nil {
		x.cmd = saved
		x.s.pub.Command(saved)
	}
	return err
}

func (x *execution) params() model.CommandParams {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.cmd.Params
}

// execute runs one claimed command to its end, renewing its lease meanwhile.
func (s *Scheduler) execute(ctx context.Context, c model.Command) {
	defer func() {
		s.mu.Lock()
		delete(s.running, c.ID)
		s.mu.Unlock()
	}()
	x := &execution{s: s, cmd: c, id: c.ID, jobID: c.JobID, kind: c.Kind}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The lease is kept while the command works, and only then: the
	// renewal takes the command's lock and then the store, so it must
	// have stopped before the end, which takes them the other way round.
	beatCtx, stopBeat := context.WithCancel(runCtx)
	beating := make(chan struct{})
	stop := func() { stopBeat(); <-beating }
	defer stop()
	var renewalFailed atomic.Bool
	go func() {
		defer close(beating)
		t := time.NewTicker(s.opts.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-beatCtx.Done():
				return
			case <-t.C:
				if err := x.save(beatCtx, nil); err != nil && beatCtx.Err() == nil {
					s.log.Warn("lease renewal failed; stopping, the command left to be reclaimed when its lease ends", "command", c.ID, "err", err)
					renewalFailed.Store(true)
					cancel()
					return
				}
			}
		}
	}()
	if c.State == model.CmdUnknown {
		// Reclaimed while UNKNOWN: its request is never sent again; the
		// cluster says what it did.
		s.settle(ctx, runCtx, x, stop)
		return
	}
	err := x.run(runCtx)
	for try := 1; try < s.opts.Tries && transient(err) && runCtx.Err() == nil; try++ {
		// The step is idempotent or reconciled first (a deploy looks for
		// what an earlier try submitted; a savepoint resumes its trigger).
		delay := s.retryDelay(try)
		x.logf(ctx, "try %d of %d failed on a transient cluster error: %v; trying again in %s", try, s.opts.Tries, err, delay)
		if sleepCtx(runCtx, delay) != nil {
			break
		}
		x.mu.Lock()
		x.retries++
		x.mu.Unlock()
		err = x.run(runCtx)
	}
	if ctx.Err() != nil {
		// Quitting: leave the command DOING with its progress and release
		// the lease so that the next run resumes it without waiting.
		stop()
		_ = x.save(context.Background(), func(c *model.Command) {
			c.Logf(s.now(), "interrupted: palink is quitting; the next run resumes it")
		})
		_ = s.releaseLease(x.id)
		return
	}
	if renewalFailed.Load() || errors.Is(err, store.ErrUnavailable) {
		// The store failed it, not the cluster: whatever the step did on
		// the cluster, the command cannot say so now. It stays DOING under
		// its lease, as a dead palink's would, and whoever claims it once
		// the lease ends — the next leader, or this one — reconciles it
		// with the cluster first (tags: it never acts twice).
		s.log.Warn("command left to be reclaimed when its lease ends: the store failed it", "command", x.id, "err", err)
		return
	}
	if by, ok := s.supersededBy(x.id); ok {
		stop()
		x.undoSuperseded(ctx, by)
		return
	}
	if errors.Is(err, errLeaseLost) {
		return
	}
	if mayHaveActed(x, err) {
		// The lease is kept while the cluster is asked what happened.
		if s.markUnknown(x, err) != nil {
			return
		}
		s.settle(ctx, runCtx, x, stop)
		return
	}
	stop()
	s.finish(x, err)
}

var errLeaseLost = errors.New("lease lost")

func (s *Scheduler) releaseLease(id string) error {
	return s.st.Update(context.Background(), func(tx store.Tx) error {
		c, err := tx.Command(id)
		if err != nil || c.LeaseOwner != s.owner || (c.State != model.CmdDoing && c.State != model.CmdUnknown) {
			return err
		}
		c.LeaseUntil = s.now()
		_, err = tx.PutCommand(c)
		return err
	})
}

// finish ends a command and applies its outcome to the job in one
// transaction: the command's end, the job's state and the job's event
// commit together.
func (s *Scheduler) finish(x *execution, runErr error) {
	now := s.now()
	var (
		job     model.Job
		ev      *model.Event
		cmd     model.Command
		outcome = x.outcome
	)
	// The command's lock is never taken inside a store transaction (save
	// takes them the other way round).
	x.mu.Lock()
	log, params := x.cmd.Log, x.cmd.Params
	x.mu.Unlock()
	err := s.st.Update(context.Background(), func(tx store.Tx) error {
		c, err := tx.Command(x.id)
		if err != nil {
			return err
		}
		if c.LeaseOwner != s.owner || (c.State != model.CmdDoing && c.State != model.CmdUnknown) {
			return errLeaseLost
		}
		c.Log, c.Params = log, params
		evk := decide.CmdEvSucceed
		if runErr != nil {
			evk = decide.CmdEvFail
			c.Error = runErr.Error()
			c.Logf(now, "failed: %v", runErr)
		} else {
			c.Logf(now, "succeeded")
		}
		if c, err = decide.StepCommand(c, evk, "", 0, now); err != nil {
			return err
		}
		if cmd, err = tx.PutCommand(c); err != nil {
			return err
		}
		j, err := tx.Job(c.JobID)
		if err != nil {
			return err
		}
		if outcome != nil {
			j, ev, err = outcome(tx, j, c, runErr, now)
			if err != nil {
				return err
			}
		}
		job = j
		outcomeText := "succeeded"
		if runErr != nil {
			outcomeText = "failed: " + runErr.Error()
		}
		_, err = tx.AppendAudit(model.AuditEntry{Time: now, User: c.Issuer, Action: strings.ToLower(c.Kind.String()), JobID: c.JobID, CommandID: c.ID, Outcome: outcomeText})
		return err
	})
	if err != nil {
		s.log.Error("finish command", "command", x.id, "err", err)
		return
	}
	s.pub.Command(cmd)
	if job.ID != "" {
		s.pub.Job(job, nil, ev)
	}
}

// command reads a command as stored now.
func (s *Scheduler) command(ctx context.Context, id string) (model.Command, error) {
	var c model.Command
	err := s.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		c, err = tx.Command(id)
		return err
	})
	return c, err
}
