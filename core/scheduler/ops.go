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
	cl, err := actingCluster(ctx, x.s, j)
	if err != nil {
		return j, nil, yarn.Application{}, err
	}
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
		if err := x.s.mayAct(); err != nil {
			return err
		}
		x.eff.acted()
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
					return stoppedPerHistory(ctx, x, f, jid)
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
	x.logf(ctx, "savepoint %s", op.Location)
	x.outcome = savepointOutcome(op.Location, jid, stop)
	return nil
}

// savepointOutcome is the outcome of a SAVEPOINT or PAUSE whose savepoint
// completed at loc: it is recorded, and a PAUSE's job FINISHED.
func savepointOutcome(loc, jid string, stop bool) outcomeFunc {
	return func(tx store.Tx, j model.Job, c model.Command, runErr error, now time.Time) (model.Job, *model.Event, error) {
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
	var (
		due  []dueJob
		read []model.Job
		plan = s.restarts.plan(now)
	)
	err := s.st.View(ctx, func(tx store.ReadTx) error {
		due = nil
		var jobs []model.Job
		var rps [][]model.RestorePoint
		var err error
		read, jobs, rps, err = s.restarts.read(tx, plan, now)
		for i, j := range jobs {
			due = append(due, dueJob{j, rps[i]})
		}
		return err
	})
	s.restarts.record(plan, read, now, err)
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
		ev, job = nil, model.Job{} // from an earlier run, after a conflict on etcd
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
