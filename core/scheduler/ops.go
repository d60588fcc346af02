package scheduler

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// outcomeFunc applies a finished command to its job inside the
// transaction that ends the command.
type outcomeFunc func(tx store.Tx, j model.Job, c model.Command, runErr error, now time.Time) (model.Job, *model.Event, error)

// run dispatches a command to its executor.
func (x *execution) run(ctx context.Context) error {
	switch x.kind {
	case model.CmdSubmit, model.CmdRestart, model.CmdResubmit:
		x.outcome = func(tx store.Tx, j model.Job, c model.Command, runErr error, now time.Time) (model.Job, *model.Event, error) {
			return deployFailedOutcome(tx, j, c, runErr, now)
		}
		return x.runDeploy(ctx)
	case model.CmdPause:
		return x.runSavepoint(ctx, true)
	case model.CmdSavepoint:
		return x.runSavepoint(ctx, false)
	case model.CmdKill:
		return x.runKill(ctx)
	}
	return fmt.Errorf("unknown command kind %v", x.kind)
}

// target loads the job a command acts on, its cluster and its application.
func (x *execution) target(ctx context.Context) (model.Job, *clusters.Cluster, yarn.Application, error) {
	var j model.Job
	err := x.s.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		j, err = tx.Job(x.jobID)
		return err
	})
	if err != nil {
		return j, nil, yarn.Application{}, err
	}
	cl := x.s.clusters[j.Cluster]
	if cl == nil {
		return j, nil, yarn.Application{}, fmt.Errorf("cluster %q is not configured", j.Cluster)
	}
	appID := x.params().AppID
	if appID == "" {
		appID = j.AppID
	}
	if appID == "" {
		return j, cl, yarn.Application{}, fmt.Errorf("job %s has no application", j.Name)
	}
	app, err := cl.RM.Application(ctx, appID)
	cl.Observe(err, x.s.now())
	if err != nil {
		return j, cl, app, fmt.Errorf("application %s: %w", appID, err)
	}
	return j, cl, app, nil
}

// runSavepoint executes SAVEPOINT and PAUSE (stop-with-savepoint). The
// trigger id is chosen and persisted before the request is sent: a resumed
// command polls it, and re-sending it reaches the same operation in Flink
// instead of stopping the job a second time.
func (x *execution) runSavepoint(ctx context.Context, stop bool) error {
	j, cl, app, err := x.target(ctx)
	if err != nil {
		return err
	}
	what := "savepoint"
	if stop {
		what = "stop-with-savepoint"
	}
	jid := x.params().FlinkJobID
	if jid == "" {
		jid = j.FlinkJobID
	}
	if jid == "" {
		return fmt.Errorf("%s: the Flink job id of %s is not known yet; wait for sync", what, j.Name)
	}
	if stop && x.params().TriggerID != "" && app.Final() && !j.Session {
		// Resumed after the per-job cluster already shut down: the stop
		// happened, but its result left with the JobManager.
		return x.pausedWithoutLocation(ctx, app, cl.Cfg.Deploy.SavepointDir)
	}
	f, err := cl.Flink(app)
	if err != nil {
		return err
	}
	trigger := x.params().TriggerID
	resumed := trigger != ""
	if !resumed {
		trigger = yarn.NewTriggerID()
		if err := x.save(ctx, func(c *model.Command) { c.Params.TriggerID = trigger }); err != nil {
			return errLeaseLost
		}
	}
	send := func() error {
		x.acted()
		dir := cl.Cfg.Deploy.SavepointDir
		var err error
		if stop {
			_, err = f.StopWithSavepoint(ctx, jid, yarn.StopRequest{TargetDirectory: dir, TriggerID: trigger})
		} else {
			_, err = f.TriggerSavepoint(ctx, jid, yarn.SavepointRequest{TargetDirectory: dir, TriggerID: trigger})
		}
		return err
	}
	if resumed {
		x.logf(ctx, "resuming %s %s of job %s", what, trigger, jid)
		_, err := f.SavepointStatus(ctx, jid, trigger)
		if errors.Is(err, yarn.ErrNotFound) {
			// The JobManager never saw it (or forgot it after a failover):
			// the same trigger id keeps a second request idempotent.
			if st, serr := f.JobStatus(ctx, jid); serr == nil && clusters.FlinkTerminal(st) && stop {
				if st == yarn.JobFinished {
					// Stopped, by this command as far as anyone can tell:
					// the savepoint is the job's newest in its history.
					return x.stoppedPerHistory(ctx, f, jid)
				}
				return fmt.Errorf("%s: job %s is already %s and the savepoint %s is unknown to the JobManager", what, jid, st, trigger)
			}
			x.logf(ctx, "trigger %s unknown to the JobManager: sending it again", trigger)
			if err := send(); err != nil {
				return fmt.Errorf("%s of %s: %w", what, jid, err)
			}
		} else if err != nil {
			return fmt.Errorf("%s status: %w", what, err)
		}
	} else {
		x.logf(ctx, "%s of job %s via %s (trigger %s)", what, jid, f.DirectBase(), trigger)
		if err := send(); err != nil {
			return fmt.Errorf("%s of %s: %w", what, jid, err)
		}
	}
	op, err := f.WaitSavepoint(ctx, jid, trigger)
	if err != nil {
		return fmt.Errorf("%s of %s: %w", what, jid, err)
	}
	if op.Failure != nil {
		return fmt.Errorf("%s of %s failed: %s", what, jid, op.Failure.Message())
	}
	if op.Location == "" {
		return fmt.Errorf("%s of %s completed without a location", what, jid)
	}
	x.savepointTaken(ctx, op.Location, jid, stop)
	return nil
}

// savepointTaken sets the outcome of a SAVEPOINT or PAUSE whose savepoint
// completed at loc: it is recorded, and a PAUSE's job FINISHED.
func (x *execution) savepointTaken(ctx context.Context, loc, jid string, stop bool) {
	x.logf(ctx, "savepoint %s", loc)
	x.outcome = func(tx store.Tx, j model.Job, c model.Command, runErr error, now time.Time) (model.Job, *model.Event, error) {
		if runErr != nil {
			ev, err := journal.Note(tx, j, fmt.Sprintf("%s #%d failed: %v", c.Kind, c.Seq, runErr), c.ID, now)
			return j, ev, err
		}
		rp := model.RestorePoint{JobID: j.ID, Kind: model.Savepoint, Path: loc, Time: now, SeenAt: now, FlinkJobID: jid,
			Origin: fmt.Sprintf("%s #%d", c.Kind, c.Seq)}
		if _, err := tx.AddRestorePoint(rp); err != nil {
			return j, nil, err
		}
		j.LatestSavepoint = &rp
		reason := fmt.Sprintf("%s #%d by %s: savepoint %s", c.Kind, c.Seq, c.Issuer, loc)
		if !stop {
			j.UpdatedAt = now
			if err := tx.PutJob(j); err != nil {
				return j, nil, err
			}
			ev, err := journal.Note(tx, j, reason, c.ID, now)
			return j, ev, err
		}
		j.FlinkState = yarn.JobFinished
		// A stopped job FINISHED: Flink deleted its checkpoints, whatever
		// the retention; the savepoint is what it resumes from.
		if err := journal.EndRun(tx, &j, model.EndFinished); err != nil {
			return j, nil, err
		}
		return applyIfLegal(tx, j, decide.EvPaused, reason, c.ID, now)
	}
}

// applyIfLegal steps the job with ev when that is still a legal step, and
// otherwise notes what the command found: a command reconciled late (an
// UNKNOWN one) may find its job moved on meanwhile (a kill ran alongside).
func applyIfLegal(tx store.Tx, j model.Job, ev decide.JobEvent, reason, cmdID string, now time.Time) (model.Job, *model.Event, error) {
	if _, _, err := decide.StepJob(j.State, ev); err != nil {
		j.UpdatedAt = now
		if err := tx.PutJob(j); err != nil {
			return j, nil, err
		}
		e, err := journal.Note(tx, j, reason+" (the job is "+j.State.String()+" by now)", cmdID, now)
		return j, e, err
	}
	return journal.Apply(tx, j, ev, reason, cmdID, now)
}

// pausedWithoutLocation ends a resumed PAUSE whose per-job cluster shut
// down before palink read the savepoint's path: a successful stop (final
// status SUCCEEDED) is a pause, and the log says where to look.
func (x *execution) pausedWithoutLocation(ctx context.Context, app yarn.Application, dir string) error {
	if app.FinalStatus != yarn.FinalSucceeded {
		return fmt.Errorf("stop-with-savepoint: application %s ended %s/%s before palink read the result: %s",
			app.ID, app.State, app.FinalStatus, model.FirstLine(app.Diagnostics))
	}
	if dir == "" {
		dir = "the cluster's state.savepoints.dir"
	}
	x.logf(ctx, "application %s shut down after the stop before palink read the savepoint's path; it is the newest savepoint under %s — record it with resubmit --restore PATH", app.ID, dir)
	x.outcome = func(tx store.Tx, j model.Job, c model.Command, runErr error, now time.Time) (model.Job, *model.Event, error) {
		if runErr != nil {
			ev, err := journal.Note(tx, j, fmt.Sprintf("%s #%d failed: %v", c.Kind, c.Seq, runErr), c.ID, now)
			return j, ev, err
		}
		j.FlinkState = yarn.JobFinished
		if err := journal.EndRun(tx, &j, model.EndFinished); err != nil {
			return j, nil, err
		}
		return applyIfLegal(tx, j, decide.EvPaused, fmt.Sprintf("%s #%d by %s: savepoint path unknown (cluster shut down before it was read)", c.Kind, c.Seq, c.Issuer), c.ID, now)
	}
	return nil
}

// runKill kills the job's YARN application, or, for a job in a shared
// session cluster, cancels only that Flink job. It is idempotent: an
// application already gone or ended counts as killed. A kill that
// superseded a pending command also kills what that command may have
// started (a deploy's application, found by its tags), looking once more
// after the superseded worker's lease ran out if that worker was alive.
func (x *execution) runKill(ctx context.Context) error {
	var (
		j    model.Job
		sup  *model.Command
		cmds []model.Command
	)
	p := x.params()
	err := x.s.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		if j, err = tx.Job(x.jobID); err != nil {
			return err
		}
		if cmds, err = tx.Commands(store.CommandFilter{JobID: j.ID}); err != nil {
			return err
		}
		if p.Supersedes != "" {
			c, err := tx.Command(p.Supersedes)
			if err != nil {
				return fmt.Errorf("the superseded command %s: %w", p.Supersedes, err)
			}
			sup = &c
		}
		return nil
	})
	if err != nil {
		return err
	}
	cl := x.s.clusters[j.Cluster]
	if cl == nil {
		return fmt.Errorf("cluster %q is not configured", j.Cluster)
	}
	if sup != nil {
		x.logf(ctx, "%s #%d was superseded by this kill: killing whatever it started too", sup.Kind, sup.Seq)
	}
	// A kill loses the JobManager, and with it the only word on which
	// checkpoint is the newest: ask it first, so a later resubmit from the
	// latest checkpoint restores one that still exists.
	pts, asked, err := x.s.askCluster(ctx, cl, j, 3*time.Second)
	switch {
	case err != nil:
		x.logf(ctx, "could not read the checkpoints before the kill: %v", err)
	case asked && pts.latest[0] != nil:
		x.logf(ctx, "before the kill the JobManager reports checkpoint %d at %s", pts.latest[0].ID, pts.latest[0].ExternalPath)
	}
	if asked {
		x.mu.Lock()
		x.points = pts.latest
		x.mu.Unlock()
	}
	// An application is the job's to kill when one of this store's
	// commands of this job submitted it (a copy of this store restored
	// elsewhere, or another store, may run applications with the job's tag).
	ours := func(a yarn.Application) bool {
		for _, c := range cmds {
			if c.Kind.Deploys() && clusters.SubmittedBy(a, x.s.storeID, j.ID, c.ID) {
				return true
			}
		}
		return false
	}
	session := j.Session || (sup != nil && sup.Kind.Deploys() && cl.Cfg.Deploy.Mode == "yarn-session")
	if session {
		if err := x.cancelSessionJobs(ctx, cl, j, sup); err != nil {
			return err
		}
	} else {
		if err := x.killApps(ctx, cl, j, sup, ours); err != nil {
			return err
		}
		if until := p.SupersededLease; !until.IsZero() && x.s.now().Before(until) {
			// The superseded worker was alive: it stops at its next save and
			// undoes its own submission, but a submission in flight may
			// still reach the RM until its lease would have run out.
			x.logf(ctx, "its worker was alive (lease until %s): looking again once that has passed", until.Format(time.TimeOnly))
			if err := sleepCtx(ctx, until.Sub(x.s.now())+x.s.opts.Poll); err != nil {
				return err
			}
			if err := x.killApps(ctx, cl, j, sup, ours); err != nil {
				return err
			}
		}
	}
	x.killed(x.lastPoints(), session)
	return nil
}

// killed sets the outcome of a KILL that took effect: the checkpoints the
// JobManager last reported are recorded, with how the run ended.
func (x *execution) killed(latest []*yarn.Checkpoint, session bool) {
	x.outcome = func(tx store.Tx, j model.Job, c model.Command, runErr error, now time.Time) (model.Job, *model.Event, error) {
		if runErr != nil {
			ev, err := journal.Note(tx, j, fmt.Sprintf("%s #%d failed: %v", c.Kind, c.Seq, runErr), c.ID, now)
			return j, ev, err
		}
		j.FlinkState, j.Drift = "", nil
		if err := journal.RecordPoints(tx, &j, latest, fmt.Sprintf("%s #%d", c.Kind, c.Seq), now); err != nil {
			return j, nil, err
		}
		// A YARN kill gives Flink no chance to clean up: the files stay. A
		// session job is cancelled: its retention decides.
		end := model.EndKilled
		if session {
			end = model.EndCanceled
		}
		// Only a run that was deployed ends here: a kill of a deploy in
		// progress ends no Flink job palink knew of.
		if j.State == model.StateRunning || j.State == model.StateDeploySucceeded {
			if err := journal.EndRun(tx, &j, end); err != nil {
				return j, nil, err
			}
		}
		return applyIfLegal(tx, j, decide.EvKilled, fmt.Sprintf("%s #%d by %s", c.Kind, c.Seq, c.Issuer), c.ID, now)
	}
}

// killApps kills every live application of the job: the one it records,
// the one the command targets, the one a superseded deploy recorded, and
// any other the RM lists that one of the job's commands submitted.
func (x *execution) killApps(ctx context.Context, cl *clusters.Cluster, j model.Job, sup *model.Command, ours func(yarn.Application) bool) error {
	ids := []string{x.params().AppID, j.AppID}
	if sup != nil {
		ids = append(ids, sup.Params.AppID)
	}
	tagged, err := cl.RM.Applications(ctx, yarn.AppFilter{ApplicationTags: []string{clusters.JobTag(j.ID)}, States: clusters.LiveStates})
	cl.Observe(err, x.s.now())
	if err != nil {
		return fmt.Errorf("look for live applications of %s: %w", j.Name, err)
	}
	for _, a := range tagged {
		if ours(a) {
			ids = append(ids, a.ID)
		} else {
			x.logf(ctx, "application %s carries the job's tag but no command of this store submitted it: left alone", a.ID)
		}
	}
	seen, live := map[string]bool{}, 0
	for _, id := range ids {
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		app, err := cl.RM.Application(ctx, id)
		switch {
		case errors.Is(err, yarn.ErrNotFound):
			x.logf(ctx, "application %s is gone from the RM: nothing left to kill", id)
			continue
		case err != nil:
			return fmt.Errorf("application %s: %w", id, err)
		case app.Final():
			x.logf(ctx, "application %s already ended (%s/%s)", app.ID, app.State, app.FinalStatus)
			continue
		}
		live++
		var watched chan *yarn.Checkpoint
		wctx, stopWatch := context.WithCancel(ctx)
		if jid := j.FlinkJobID; jid != "" && (id == j.AppID || id == x.params().AppID) {
			watched = make(chan *yarn.Checkpoint, 1)
			go func() { watched <- x.s.watchCheckpoints(wctx, cl, app, jid) }()
		}
		x.logf(ctx, "killing YARN application %s", app.ID)
		x.acted()
		final, err := cl.RM.Kill(ctx, app.ID)
		stopWatch()
		if watched != nil {
			x.lastWord(ctx, <-watched)
		}
		if err != nil {
			return err
		}
		x.logf(ctx, "application %s is %s", final.ID, final.State)
	}
	if len(seen) == 0 {
		x.logf(ctx, "no application of %s was ever recorded or tagged on the RM: nothing runs", j.Name)
	}
	return nil
}

// watchCheckpoints polls the JobManager of app for job jid's newest
// completed checkpoint while a kill is on its way, and returns the last
// one it heard of when ctx ends (the kill landed) or the JobManager stopped
// answering. A kill deletes nothing, so the checkpoint Flink retains is the
// newest completed before the JobManager died; the checkpoint read before
// the kill was sent may have been subsumed by then. What stays unknowable:
// a checkpoint that completed between the JobManager's last answer and its
// death (one poll at most). If that one subsumed the one palink recorded,
// the restore fails with Flink's "cannot find", which marks the point
// missing so that it is never tried again.
func (s *Scheduler) watchCheckpoints(ctx context.Context, cl *clusters.Cluster, app yarn.Application, jid string) *yarn.Checkpoint {
	f, err := cl.Flink(app)
	if err != nil {
		return nil
	}
	var last *yarn.Checkpoint
	for {
		actx, cancel := context.WithTimeout(ctx, max(4*s.opts.Poll, time.Second))
		stats, err := f.Checkpoints(actx, jid)
		cancel()
		if err == nil && stats.Latest.Completed != nil {
			last = stats.Latest.Completed
		}
		if ctx.Err() != nil || errors.Is(err, yarn.ErrNotFound) {
			return last
		}
		if sleepCtx(ctx, s.opts.Poll) != nil {
			return last
		}
	}
}

// lastWord keeps cp, the newest completed checkpoint a JobManager reported
// at or after the kill, when it is newer than what the kill read before.
func (x *execution) lastWord(ctx context.Context, cp *yarn.Checkpoint) {
	if cp == nil || cp.ExternalPath == "" || cp.Discarded {
		return
	}
	x.mu.Lock()
	var before *yarn.Checkpoint
	if len(x.points) > 0 {
		before = x.points[0]
	}
	newer := before == nil || cp.ID > before.ID
	if newer {
		pts := []*yarn.Checkpoint{cp, nil}
		if len(x.points) > 1 {
			pts[1] = x.points[1]
		}
		x.points = pts
	}
	x.mu.Unlock()
	if newer && before != nil {
		x.logf(ctx, "the JobManager's last word: checkpoint %d at %s, completed after checkpoint %d read before the kill (which it may have subsumed)", cp.ID, cp.ExternalPath, before.ID)
	} else if newer {
		x.logf(ctx, "the JobManager's last word: checkpoint %d at %s", cp.ID, cp.ExternalPath)
	}
}

// cancelSessionJobs cancels the job's Flink job (and a superseded deploy's)
// in its session cluster, never killing the shared application.
func (x *execution) cancelSessionJobs(ctx context.Context, cl *clusters.Cluster, j model.Job, sup *model.Command) error {
	appID := x.params().AppID
	if appID == "" {
		appID = j.AppID
	}
	if appID == "" {
		appID = cl.Cfg.Deploy.SessionApp
	}
	jids := []string{x.params().FlinkJobID, j.FlinkJobID}
	guessed := "" // the fixed id a superseded deploy would have given its job
	if sup != nil && sup.Kind.Deploys() {
		guessed = fixedJobID(sup.ID)
		jids = append(jids, sup.Params.FlinkJobID, guessed)
	}
	app, err := cl.RM.Application(ctx, appID)
	cl.Observe(err, x.s.now())
	if errors.Is(err, yarn.ErrNotFound) {
		x.logf(ctx, "session application %s is gone from the RM: nothing left to cancel", appID)
		return nil
	}
	if err != nil {
		return fmt.Errorf("application %s: %w", appID, err)
	}
	if app.Final() {
		x.logf(ctx, "session application %s already ended (%s/%s)", app.ID, app.State, app.FinalStatus)
		return nil
	}
	f, err := cl.Flink(app)
	if err != nil {
		return err
	}
	seen, known := map[string]bool{}, false
	for _, jid := range jids {
		if jid == "" || seen[jid] {
			continue
		}
		seen[jid] = true
		st, err := f.JobStatus(ctx, jid)
		switch {
		case errors.Is(err, yarn.ErrNotFound):
			if jid != guessed {
				x.logf(ctx, "Flink job %s is unknown to session %s: nothing to cancel", jid, app.ID)
			}
			continue
		case err != nil:
			return fmt.Errorf("status of Flink job %s: %w", jid, err)
		case clusters.FlinkTerminal(st):
			x.logf(ctx, "Flink job %s already %s", jid, st)
			known = true
			continue
		}
		known = true
		x.logf(ctx, "cancelling Flink job %s in session cluster %s (the session keeps running)", jid, app.ID)
		x.acted()
		if err := f.Cancel(ctx, jid); err != nil && !errors.Is(err, yarn.ErrNotFound) && !isConflict(err) {
			return fmt.Errorf("cancel %s: %w", jid, err)
		}
		if err := waitFlinkTerminal(ctx, f, jid, x.s.opts.Poll); err != nil {
			return err
		}
		if jid == j.FlinkJobID {
			// The session outlives the cancel: its JobManager says for
			// sure which checkpoint the cancelled job ended with.
			if stats, err := f.Checkpoints(ctx, jid); err == nil {
				x.lastWord(ctx, stats.Latest.Completed)
			}
		}
	}
	if !known && x.params().FlinkJobID == "" && j.FlinkJobID == "" && sup == nil {
		return fmt.Errorf("the Flink job id of %s in session %s is not known; cannot cancel it without killing the session", j.Name, app.ID)
	}
	return nil
}

func isConflict(err error) bool {
	var he *yarn.HTTPError
	return errors.As(err, &he) && he.Status == 409
}

func waitFlinkTerminal(ctx context.Context, f *yarn.Flink, jid string, poll time.Duration) error {
	for {
		st, err := f.JobStatus(ctx, jid)
		if errors.Is(err, yarn.ErrNotFound) || (err == nil && clusters.FlinkTerminal(st)) {
			return nil
		}
		if err := sleepCtx(ctx, poll); err != nil {
			return fmt.Errorf("wait for job %s to end: %w", jid, err)
		}
		poll = min(2*poll, 5*time.Second)
	}
}

// startDueRestarts issues the RESTART commands the restart policy
// scheduled, each from the newest restore point known to exist
// (decide.PolicyRestore). When none is, or the restart is refused (a
// point older than savepoints.max_restore_age, a pending command), the
// policy stops for that job and says why: a person decides.
func (s *Scheduler) startDueRestarts(ctx context.Context) error {
	now := s.now()
	type dueJob struct {
		j   model.Job
		rps []model.RestorePoint
	}
	var due []dueJob
	err := s.st.View(ctx, func(tx store.ReadTx) error {
		jobs, err := tx.Jobs()
		for _, j := range jobs {
			// FAILED: sync scheduled it. DEPLOY_FAILED: the policy's own
			// restart found its restore point gone and tries the next.
			policy := j.State == model.StateFailed || j.State == model.StateDeployFailed
			if policy && !j.NextRestart.IsZero() && !now.Before(j.NextRestart) {
				rps, err := tx.RestorePoints(j.ID)
				if err != nil {
					return err
				}
				due = append(due, dueJob{j, rps})
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	for _, d := range due {
		j := d.j
		choice, path, passed, ok := decide.PolicyRestore(j, d.rps)
		if !ok {
			s.stopPolicy(ctx, j, passed)
			continue
		}
		kind := model.CmdRestart
		if j.State == model.StateDeployFailed {
			kind = model.CmdResubmit // a failed deploy is started again by a resubmit
		}
		_, err := s.actWith(ctx, api.ActionRequest{JobRef: j.ID, Kind: kind, Restore: choice, RestorePath: path, Issuer: "policy"},
			func(c *model.Command, j *model.Job) {
				c.Params.Auto = true
				j.NextRestart = time.Time{}
				if passed != "" {
					c.Logf(now, "restart policy: passed over a newer restore point: %s", passed)
				}
			})
		var refused *decide.ActionRefusedError
		switch {
		case errors.As(err, &refused):
			s.stopPolicy(ctx, j, refused.Reason)
		case err != nil:
			s.log.Warn("restart policy", "job", j.Name, "err", err)
		}
	}
	return nil
}

// stopPolicy ends the restart policy's attempts on a FAILED job that it
// cannot restart, with the reason in its diagnostics and timeline.
func (s *Scheduler) stopPolicy(ctx context.Context, j model.Job, why string) {
	now := s.now()
	reason := "restart policy stopped: " + why + "; a human must restart or resubmit it"
	var ev *model.Event
	var job model.Job
	err := s.st.Update(ctx, func(tx store.Tx) error {
		cur, err := tx.Job(j.ID)
		if err != nil {
			return err
		}
		if (cur.State != model.StateFailed && cur.State != model.StateDeployFailed) || cur.NextRestart.IsZero() {
			return nil // someone acted meanwhile
		}
		cur.NextRestart, cur.Diagnostics, cur.UpdatedAt = time.Time{}, reason, now
		if ev, err = journal.Note(tx, cur, reason, "", now); err != nil {
			return err
		}
		job = cur
		return tx.PutJob(cur)
	})
	if err != nil {
		s.log.Warn("restart policy", "job", j.Name, "err", err)
		return
	}
	if job.ID != "" {
		s.pub.Job(job, nil, ev)
	}
}
