package scheduler

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// An action's request may reach the cluster while its answer is lost (a
// reset, a garbled body, a 5xx from a proxy in front of a server that did
// the work). A command whose tries all ended so cannot tell whether it
// took effect: it ends UNKNOWN, never FAILED, and is reconciled from what
// YARN and Flink show afterwards (the trigger's status, the job's status
// and checkpoint history, the application's state) into SUCCEEDED or
// FAILED. Deploys reconcile their own way (findOwnSubmission) and never
// end UNKNOWN.

// killSettle bounds how long a reconciled KILL waits for an application
// that still runs to end (the RM reports it RUNNING until the kill landed)
// before it says the kill did not take effect.
const killSettle = time.Minute

// effect is what a running command knows of its own effect on the
// cluster: whether its request may have reached it, since when that is
// UNKNOWN in this process, and the checkpoints a KILL last heard of.
type effect struct {
	mu           sync.Mutex
	sent         bool
	unknownSince time.Time
	points       []*yarn.Checkpoint
}

// acted notes that the request (a stop, a savepoint trigger, a kill, a
// cancel) is about to be sent: from here on a lost answer leaves its
// effect unknown.
func (e *effect) acted() {
	e.mu.Lock()
	e.sent = true
	e.mu.Unlock()
}

func (e *effect) wasSent() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sent
}

// unknownFor is how long the effect has been UNKNOWN in this process.
func (e *effect) unknownFor() time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.unknownSince.IsZero() {
		e.unknownSince = time.Now()
	}
	return time.Since(e.unknownSince)
}

// lastPoints are the checkpoints a KILL read of its job's JobManager in
// this process (none after a reclaim: the JobManager is gone by then).
func (e *effect) lastPoints() []*yarn.Checkpoint {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.points
}

func (e *effect) setPoints(pts []*yarn.Checkpoint) {
	e.mu.Lock()
	e.points = pts
	e.mu.Unlock()
}

// newer keeps cp as the newest completed checkpoint when it is newer than
// the one read before; it returns that one and whether cp was kept.
func (e *effect) newer(cp *yarn.Checkpoint) (before *yarn.Checkpoint, kept bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.points) > 0 {
		before = e.points[0]
	}
	if before != nil && cp.ID <= before.ID {
		return before, false
	}
	pts := []*yarn.Checkpoint{cp, nil}
	if len(e.points) > 1 {
		pts[1] = e.points[1]
	}
	e.points = pts
	return before, true
}

// mayHaveActed reports whether x failed with err after its tries in a
// way that says nothing of its effect: the cluster's moment (a transient
// error) after its request may have been sent. A savepoint or stop whose
// trigger id was persisted may have been sent by an earlier attempt too.
func mayHaveActed(x *execution, err error) bool {
	if !transient(err) {
		return false
	}
	switch x.kind {
	case model.CmdPause, model.CmdSavepoint:
		return x.eff.wasSent() || x.params().TriggerID != ""
	case model.CmdKill:
		return x.eff.wasSent()
	}
	return false
}

// settle reconciles an UNKNOWN command and ends it as the cluster shows;
// when palink quits first, it stays UNKNOWN and its lease is released, so
// that the next run goes on at once.
func (s *Scheduler) settle(ctx, runCtx context.Context, x *execution, stopRenewal func()) {
	decided, err := reconciliation{x}.run(runCtx)
	stopRenewal()
	if !decided {
		if ctx.Err() != nil {
			_ = x.save(context.Background(), func(c *model.Command) {
				c.Logf(s.now(), "interrupted: palink is quitting; the next run goes on reconciling it")
			})
			_ = s.releaseLease(x.id)
		}
		return
	}
	s.finish(x, err)
}

// markUnknown moves the command to UNKNOWN, keeping its lease: this
// worker reconciles it next.
func (s *Scheduler) markUnknown(x *execution, runErr error) error {
	now := s.now()
	var saved model.Command
	// The command's lock is never taken inside a store transaction.
	x.mu.Lock()
	log, params := x.cmd.Log, x.cmd.Params
	x.mu.Unlock()
	err := s.st.Update(context.Background(), func(tx store.Tx) error {
		c, err := tx.Command(x.id)
		if err != nil {
			return err
		}
		if c.LeaseOwner != s.owner || c.State != model.CmdDoing {
			return errLeaseLost
		}
		c.Log, c.Params = log, params
		c.Logf(now, "after %d tries the cluster's answers do not say whether it took effect (%v): UNKNOWN until YARN and Flink show what happened", s.opts.Tries, runErr)
		if c, err = decide.StepCommand(c, decide.CmdEvUncertain, "", 0, now); err != nil {
			return err
		}
		c.LeaseUntil = now.Add(s.opts.Lease)
		saved, err = tx.PutCommand(c)
		return err
	})
	if err != nil {
		return err
	}
	x.mu.Lock()
	x.cmd = saved
	x.mu.Unlock()
	s.pub.Command(saved)
	return nil
}

// reconciliation finds out what an UNKNOWN command did.
type reconciliation struct{ x *execution }

// run asks the cluster what the command did until it can tell: decided,
// with the error it ends FAILED with (nil: SUCCEEDED, its outcome set). It
// stops undecided only when ctx ends; the command stays UNKNOWN and the
// next palink that claims it goes on.
func (r reconciliation) run(ctx context.Context) (bool, error) {
	x := r.x
	x.eff.unknownFor()
	var said string
	for n := 1; ; n++ {
		var (
			err     error
			decided bool
		)
		switch x.kind {
		case model.CmdPause:
			decided, err = r.savepoint(ctx, true)
		case model.CmdSavepoint:
			decided, err = r.savepoint(ctx, false)
		case model.CmdKill:
			decided, err = r.kill(ctx)
		default:
			return true, fmt.Errorf("%s commands are not reconciled", x.kind)
		}
		if decided {
			return true, err
		}
		// The log says each new reason once, not every poll.
		if msg := err.Error(); msg != said {
			x.logf(ctx, "reconciling: %s; asking again", msg)
			said = msg
		}
		if sleepCtx(ctx, min(x.s.retryDelay(n), 10*time.Second)) != nil {
			return false, nil
		}
	}
}

// savepoint finds out what became of a SAVEPOINT or PAUSE: its trigger's
// status while the JobManager knows it; else, for a stop, the job's status
// and checkpoint history; else, once the per-job cluster is gone, YARN's
// final status.
func (r reconciliation) savepoint(ctx context.Context, stop bool) (bool, error) {
	x := r.x
	what := "savepoint"
	if stop {
		what = "stop-with-savepoint"
	}
	j, cl, app, err := x.target(ctx)
	if err != nil {
		return false, err
	}
	p := x.params()
	jid := p.FlinkJobID
	if jid == "" {
		jid = j.FlinkJobID
	}
	if app.Final() {
		switch {
		case stop && !j.Session && app.FinalStatus == yarn.FinalSucceeded:
			return true, x.pausedWithoutLocation(ctx, app, cl.Cfg.Deploy.SavepointDir)
		case stop && !j.Session:
			return true, fmt.Errorf("%s: application %s ended %s/%s, not stopped: %s", what, app.ID, app.State, app.FinalStatus, model.FirstLine(app.Diagnostics))
		}
		return true, fmt.Errorf("%s: application %s ended (%s/%s) before palink learned what became of savepoint %s; none is recorded",
			what, app.ID, app.State, app.FinalStatus, p.TriggerID)
	}
	f, err := cl.Flink(app)
	if err != nil {
		return false, err
	}
	op, err := f.SavepointStatus(ctx, jid, p.TriggerID)
	switch {
	case err == nil && !op.Done:
		return false, fmt.Errorf("%s %s of %s is still in progress", what, p.TriggerID, jid)
	case err == nil && op.Failure != nil:
		return true, fmt.Errorf("%s of %s failed: %s", what, jid, op.Failure.Message())
	case err == nil && op.Location != "":
		x.logf(ctx, "the JobManager reports %s %s completed: savepoint %s", what, p.TriggerID, op.Location)
		x.outcome = savepointOutcome(op.Location, jid, stop)
		return true, nil
	case err == nil:
		return true, fmt.Errorf("%s of %s completed without a location", what, jid)
	case !errors.Is(err, yarn.ErrNotFound):
		return false, fmt.Errorf("%s status: %w", what, err)
	}
	// The JobManager does not know the trigger: it never arrived, or a
	// JobManager failover forgot it. The job's state tells.
	st, err := f.JobStatus(ctx, jid)
	switch {
	case err != nil:
		return false, fmt.Errorf("status of job %s: %w", jid, err)
	case stop && st == yarn.JobFinished:
		if err := stoppedPerHistory(ctx, x, f, jid); err != nil {
			return false, err
		}
		return true, nil
	case clusters.FlinkTerminal(st):
		return true, fmt.Errorf("%s: job %s is %s and the JobManager does not know savepoint %s", what, jid, st, p.TriggerID)
	case !stop:
		// A savepoint leaves the job running either way: whether one was
		// written before a JobManager failover forgot the trigger cannot
		// be told apart from the history, so none is recorded.
		return true, fmt.Errorf("savepoint: the JobManager does not know trigger %s (it never arrived, or a failover forgot it); no savepoint is recorded", p.TriggerID)
	}
	return true, fmt.Errorf("%s did not take effect: the JobManager does not know trigger %s and job %s is %s", what, p.TriggerID, jid, st)
}

// stoppedPerHistory ends a PAUSE whose job FINISHED although the
// JobManager does not know its trigger: the stop happened, and its
// savepoint is the newest in the job's checkpoint history (a stop's
// synchronous savepoint is the job's last act).
func stoppedPerHistory(ctx context.Context, x *execution, f *yarn.Flink, jid string) error {
	stats, err := f.Checkpoints(ctx, jid)
	if err != nil {
		return fmt.Errorf("job %s FINISHED; its checkpoint history, which names the savepoint: %w", jid, err)
	}
	sp := stats.Latest.Savepoint
	if sp == nil || sp.ExternalPath == "" {
		x.logf(ctx, "job %s FINISHED, but its checkpoint history names no savepoint", jid)
		return x.pausedWithoutLocation(ctx, yarn.Application{FinalStatus: yarn.FinalSucceeded}, "")
	}
	x.logf(ctx, "job %s FINISHED; its newest savepoint, per its checkpoint history, is %s", jid, sp.ExternalPath)
	x.outcome = savepointOutcome(sp.ExternalPath, jid, true)
	return nil
}

// kill finds out whether a KILL took effect: every application it
// targets ended (or is gone from the RM), or, in a session cluster, the
// Flink job is terminal. One that still runs may be a kill on its way: it
// is given killSettle before the kill counts as not taken.
func (r reconciliation) kill(ctx context.Context) (bool, error) {
	x := r.x
	var j model.Job
	if err := x.s.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		j, err = tx.Job(x.jobID)
		return err
	}); err != nil {
		return false, err
	}
	cl, err := actingCluster(ctx, x.s, j)
	if err != nil {
		return false, err
	}
	if cl == nil {
		return true, fmt.Errorf("cluster %q is not configured", j.Cluster)
	}
	p := x.params()
	settled := x.eff.unknownFor() > killSettle
	if j.Session {
		return r.sessionKill(ctx, cl, j, settled)
	}
	seen := map[string]bool{}
	for _, id := range []string{p.AppID, j.AppID} {
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		app, err := cl.RM.Application(ctx, id)
		switch {
		case errors.Is(err, yarn.ErrNotFound):
			continue
		case err != nil:
			return false, fmt.Errorf("application %s: %w", id, err)
		case !app.Final() && settled:
			return true, fmt.Errorf("application %s is still %s %s after the kill: it did not take effect", app.ID, app.State, killSettle)
		case !app.Final():
			return false, fmt.Errorf("application %s is still %s", app.ID, app.State)
		}
		x.logf(ctx, "application %s is %s/%s", app.ID, app.State, app.FinalStatus)
	}
	x.outcome = killedOutcome(x.eff.lastPoints(), false, cl.Retained())
	return true, nil
}

func (r reconciliation) sessionKill(ctx context.Context, cl *clusters.Cluster, j model.Job, settled bool) (bool, error) {
	x := r.x
	appID := x.params().AppID
	if appID == "" {
		appID = j.AppID
	}
	app, err := cl.RM.Application(ctx, appID)
	switch {
	case errors.Is(err, yarn.ErrNotFound):
		x.outcome = killedOutcome(nil, true, cl.Retained())
		return true, nil
	case err != nil:
		return false, fmt.Errorf("session application %s: %w", appID, err)
	case app.Final():
		x.logf(ctx, "session application %s ended (%s/%s)", app.ID, app.State, app.FinalStatus)
		x.outcome = killedOutcome(nil, true, cl.Retained())
		return true, nil
	}
	f, err := cl.Flink(app)
	if err != nil {
		return false, err
	}
	st, err := f.JobStatus(ctx, j.FlinkJobID)
	switch {
	case errors.Is(err, yarn.ErrNotFound), err == nil && clusters.FlinkTerminal(st):
		x.logf(ctx, "Flink job %s is %s in session %s", j.FlinkJobID, orGone(st), app.ID)
		x.outcome = killedOutcome(x.eff.lastPoints(), true, cl.Retained())
		return true, nil
	case err != nil:
		return false, fmt.Errorf("status of Flink job %s: %w", j.FlinkJobID, err)
	case settled:
		return true, fmt.Errorf("Flink job %s is still %s %s after the cancel: it did not take effect", j.FlinkJobID, st, killSettle)
	}
	return false, fmt.Errorf("Flink job %s is still %s", j.FlinkJobID, st)
}

func orGone(st string) string {
	if st == "" {
		return "gone"
	}
	return st
}
