package scheduler

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// Restore points over time: the periodic savepoints Options.Savepoints
// asks for are SAVEPOINT commands like a person's (issued by "schedule",
// audited, resumed after a crash); the savepoints its retention no longer
// keeps are disposed of through Flink's savepoint-disposal, each record
// kept with what became of it.

// startDueSavepoints issues the periodic SAVEPOINT commands that are due,
// for RUNNING jobs with no command pending.
func (s *Scheduler) startDueSavepoints(ctx context.Context) error {
	pol := s.opts.Savepoints
	if pol.Interval <= 0 {
		return nil
	}
	now := s.now()
	var due []model.Job
	err := s.st.View(ctx, func(tx store.ReadTx) error {
		jobs, err := tx.Jobs()
		if err != nil {
			return err
		}
		for _, j := range jobs {
			if j.State != model.StateRunning || j.FlinkJobID == "" {
				continue
			}
			rps, err := tx.RestorePoints(j.ID)
			if err != nil {
				return err
			}
			if !decide.SavepointDue(j, rps, pol, now) {
				continue
			}
			pending, err := tx.Commands(store.CommandFilter{JobID: j.ID, States: []model.CommandState{model.CmdUndo, model.CmdDoing, model.CmdUnknown}})
			if err != nil {
				return err
			}
			if len(pending) == 0 && !s.savepointFailedRecently(tx, j, now) {
				due = append(due, j)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, j := range due {
		if _, err := s.actWith(ctx, api.ActionRequest{JobRef: j.ID, Kind: model.CmdSavepoint, Issuer: "schedule"},
			func(c *model.Command, _ *model.Job) { c.Params.Auto = true }); err != nil {
			s.log.Warn("periodic savepoint", "job", j.Name, "err", err)
		}
	}
	return nil
}

// savepointFailedRecently holds periodic savepoints of a job back for an
// interval after one of them failed, so that a job whose savepoints fail
// is not asked again every tick.
func (s *Scheduler) savepointFailedRecently(tx store.ReadTx, j model.Job, now time.Time) bool {
	last, err := tx.Commands(store.CommandFilter{JobID: j.ID, Kinds: []model.CommandKind{model.CmdSavepoint}, Limit: 1})
	if err != nil || len(last) == 0 {
		return false
	}
	c := last[0]
	return c.State == model.CmdFailed && c.Params.Auto && now.Sub(c.EndedAt) < s.opts.Savepoints.Interval
}

// applyRetention disposes of the savepoints the policy no longer keeps,
// for jobs whose JobManager runs (it does the disposal). One pass at a
// time; a disposal that fails is recorded as failed and not retried.
func (s *Scheduler) applyRetention(ctx context.Context) {
	pol := s.opts.Savepoints
	if !pol.Retains() || !s.retaining.CompareAndSwap(false, true) {
		return
	}
	defer s.retaining.Store(false)
	now := s.now()
	type item struct {
		job  model.Job
		path string
	}
	var todo []item
	_ = s.st.View(ctx, func(tx store.ReadTx) error {
		jobs, err := tx.Jobs()
		if err != nil {
			return err
		}
		for _, j := range jobs {
			if j.State != model.StateRunning {
				continue
			}
			rps, err := tx.RestorePoints(j.ID)
			if err != nil {
				return err
			}
			for _, rp := range decide.SavepointsToDispose(j, rps, pol, now) {
				todo = append(todo, item{j, rp.Path})
			}
		}
		return nil
	})
	for _, it := range todo {
		if ctx.Err() != nil {
			return
		}
		if _, err := s.Dispose(ctx, api.DisposeRequest{Path: it.path, JobRef: it.job.ID, Issuer: "retention"}); err != nil {
			s.log.Warn("savepoint retention", "job", it.job.Name, "path", it.path, "err", err)
		}
	}
}

// Dispose disposes of a savepoint palink recorded through the
// savepoint-disposal of a running JobManager of the job's cluster (the
// job's own, else the session cluster's), and records the outcome on the
// record: disposed, or failed with Flink's reason. It refuses a checkpoint
// (Flink owns those), a record already disposed of, and, unless forced, a
// savepoint the job still needs.
func (s *Scheduler) Dispose(ctx context.Context, r api.DisposeRequest) (model.RestorePoint, error) {
	if s.readOnly {
		return model.RestorePoint{}, api.ReadOnly("dispose savepoint")
	}
	issuer := r.Issuer
	if issuer == "" {
		issuer = s.user
	}
	var (
		j   model.Job
		rec model.RestorePoint
		why string
	)
	refuse := func(reason string) error {
		return fmt.Errorf("dispose of savepoint %s: %s: %w", r.Path, reason, model.ErrRefused)
	}
	now := s.now()
	// Find the record and mark it disposing, in one transaction, so that
	// two disposals of one savepoint do not both run.
	err := s.st.Update(ctx, func(tx store.Tx) error {
		var err error
		if j, rec, err = findRecord(tx, r.JobRef, r.Path); err != nil {
			return err
		}
		switch {
		case rec.Kind != model.Savepoint:
			why = "it is a checkpoint: Flink disposes of those itself"
		case rec.Status == model.SavepointDisposed:
			why = "it was already disposed of at " + rec.DisposedAt.Format(time.RFC3339)
		case rec.Status == model.SavepointDisposing:
			why = "its disposal is under way"
		case !r.Force:
			if need := decide.NeededBy(j, rec.Path); need != "" {
				why = need + " (force to dispose of it anyway)"
			}
		}
		if why != "" {
			return refuse(why)
		}
		rec.Status, rec.Error = model.SavepointDisposing, ""
		return tx.PutRestorePoint(rec)
	})
	if err != nil {
		if why != "" {
			// Refusals are audited too; the transaction that found the
			// reason wrote nothing.
			_ = s.st.Update(ctx, func(tx store.Tx) error {
				_, err := tx.AppendAudit(model.AuditEntry{Time: now, User: issuer, Action: "dispose " + r.Path, JobID: j.ID, Outcome: "refused: " + why})
				return err
			})
		}
		return rec, err
	}
	disposeErr := s.disposeOnCluster(ctx, j, rec.Path)
	end := s.now()
	rec.DisposedAt = end
	if disposeErr != nil {
		rec.Status, rec.Error = model.SavepointFailed, disposeErr.Error()
	} else {
		rec.Status = model.SavepointDisposed
	}
	err = s.st.Update(context.WithoutCancel(ctx), func(tx store.Tx) error {
		if err := tx.PutRestorePoint(rec); err != nil {
			return err
		}
		outcome := "succeeded"
		if disposeErr != nil {
			outcome = "failed: " + disposeErr.Error()
		}
		if _, err := tx.AppendAudit(model.AuditEntry{Time: end, User: issuer, Action: "dispose " + rec.Path, JobID: j.ID, Outcome: outcome}); err != nil {
			return err
		}
		cur, err := tx.Job(j.ID)
		if err != nil {
			return err
		}
		if disposeErr == nil && cur.LatestSavepoint != nil && cur.LatestSavepoint.Path == rec.Path {
			// Forced: the latest savepoint is now the newest one left.
			rps, err := tx.RestorePoints(j.ID)
			if err != nil {
				return err
			}
			cur.LatestSavepoint = nil
			for i := range rps {
				if rps[i].Kind == model.Savepoint && rps[i].Status == model.SavepointCompleted {
					rp := rps[i]
					cur.LatestSavepoint = &rp
				}
			}
			cur.UpdatedAt = end
			if err := tx.PutJob(cur); err != nil {
				return err
			}
		}
		j = cur
		return nil
	})
	if err != nil {
		return rec, err
	}
	s.pub.Job(j, nil, nil)
	if disposeErr != nil {
		return rec, fmt.Errorf("dispose of savepoint %s of %s: %w", rec.Path, j.Name, disposeErr)
	}
	return rec, nil
}

// disposeOnCluster runs the disposal on a JobManager of the job's cluster.
func (s *Scheduler) disposeOnCluster(ctx context.Context, j model.Job, path string) error {
	cl, err := actingCluster(ctx, s, j)
	if err != nil {
		return err
	}
	if cl == nil {
		return fmt.Errorf("cluster %q is not configured", j.Cluster)
	}
	var candidates []string
	if j.AppID != "" && j.State.Live() {
		candidates = append(candidates, j.AppID)
	}
	if sa := cl.Cfg.Deploy.SessionApp; sa != "" && sa != j.AppID {
		candidates = append(candidates, sa)
	}
	for _, id := range candidates {
		app, err := cl.RM.Application(ctx, id)
		if err != nil || app.State != yarn.AppRunning {
			continue
		}
		f, err := cl.Flink(app)
		if err != nil {
			continue
		}
		if err := s.mayAct(); err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		return f.DisposeSavepoint(ctx, path)
	}
	return fmt.Errorf("no running JobManager on cluster %s to dispose through (the job's application is not running and no session is configured): start the job, then dispose", j.Cluster)
}

// findRecord finds the restore point of path, in the job ref names or in
// every job.
func findRecord(tx store.ReadTx, ref, path string) (model.Job, model.RestorePoint, error) {
	var jobs []model.Job
	if ref != "" {
		j, err := tx.Job(ref)
		if errors.Is(err, model.ErrNotFound) {
			j, err = tx.JobByName(ref)
		}
		if err != nil {
			return model.Job{}, model.RestorePoint{}, err
		}
		jobs = []model.Job{j}
	} else {
		var err error
		if jobs, err = tx.Jobs(); err != nil {
			return model.Job{}, model.RestorePoint{}, err
		}
	}
	want := strings.TrimRight(path, "/")
	for _, j := range jobs {
		rps, err := tx.RestorePoints(j.ID)
		if err != nil {
			return model.Job{}, model.RestorePoint{}, err
		}
		for _, rp := range rps {
			if strings.TrimRight(rp.Path, "/") == want {
				return j, rp, nil
			}
		}
	}
	return model.Job{}, model.RestorePoint{}, fmt.Errorf("savepoint %s: palink recorded no restore point with this path: %w", path, model.ErrNotFound)
}
