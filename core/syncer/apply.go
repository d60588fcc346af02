package syncer

import (
	"context"
	"fmt"
	"time"

	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// What a cycle observed is persisted here: only what may change a record
// (mayChange), many jobs a transaction (writeBatches).

// mayChange reports whether persisting o could change the job's record
// or its history, from the record the cycle read: a job whose answers
// are what its record already says costs no write transaction. It errs on
// the side of writing (applyTx decides for good).
func (o observation) mayChange() bool {
	j, app, ff := o.seen, o.app, o.ff
	if ff != nil && len(ff.exceptions) > 0 {
		return true
	}
	switch {
	case o.outcome == decide.OutcomeGone && j.Drift == nil: // drift begins
		return true
	case o.outcome != decide.OutcomeGone && o.outcome != decide.OutcomeWait && j.Drift != nil: // drift resolved
		return true
	}
	if evk, ok := o.outcome.Event(); ok {
		if _, changed, err := decide.StepJob(j.State, evk); err != nil || changed {
			return true
		}
	}
	if app != nil {
		failed := app.Diagnostics != "" && (app.State == yarn.AppFailed || app.FinalStatus == yarn.FinalFailed)
		if app.TrackingURL != j.TrackingURL || (app.AMRPCAddress != "" && app.AMRPCAddress != j.JMAddress) ||
			(failed && app.Diagnostics != j.Diagnostics) {
			return true
		}
	}
	if ff == nil {
		return false
	}
	if (ff.jobID != "" && ff.jobID != j.FlinkJobID) || (ff.retention != model.RetentionUnknown && ff.retention != j.Retention) ||
		(ff.state != "" && ff.state != j.FlinkState) || (ff.rootErr != "" && ff.rootErr != j.Diagnostics) ||
		(ff.restored != nil && ff.restored.ExternalPath != "" && ff.restored.ExternalPath != j.RestoredFrom) {
		return true
	}
	for _, p := range []struct {
		cp  *yarn.Checkpoint
		cur *model.RestorePoint
	}{{ff.ckpt, j.LatestCheckpoint}, {ff.sp, j.LatestSavepoint}} {
		if p.cp == nil || p.cp.ExternalPath == "" || p.cp.Discarded {
			continue
		}
		if p.cur == nil || p.cur.Path != p.cp.ExternalPath || (p.cur.CheckID == 0 && p.cp.ID > 0) {
			return true
		}
	}
	return false
}

// writeBatches persists the observations that arrive on in, up to Batch
// of them in one transaction, each waiting at most wait for others (0:
// until the batch is full or in is closed); done is told after each
// transaction how many records changed, and how many transactions it
// took.
func (s *Syncer) writeBatches(ctx context.Context, in <-chan observation, wait time.Duration, done func(changed, txns int, errs []error)) {
	var batch []observation
	var timer <-chan time.Time
	flush := func() {
		if len(batch) == 0 {
			return
		}
		n, txns, errs := s.applyAll(ctx, batch)
		done(n, txns, errs)
		batch, timer = batch[:0], nil
	}
	for {
		select {
		case o, ok := <-in:
			if !ok {
				flush()
				return
			}
			batch = append(batch, o)
			if len(batch) == 1 && wait > 0 {
				timer = time.After(wait)
			}
			if len(batch) >= s.opts.Batch {
				flush()
			}
		case <-timer:
			flush()
		}
	}
}

// applyAll persists obs in one transaction; when that fails (a job's
// record refused, a transaction too large for etcd), it splits them in
// halves, down to one job a transaction, so that one job's error does not
// keep the others' changes out of the store. It returns the records that
// changed, the transactions committed or tried, and the jobs' errors.
func (s *Syncer) applyAll(ctx context.Context, obs []observation) (int, int, []error) {
	n, err := s.apply(ctx, obs)
	if err == nil {
		return n, 1, nil
	}
	if len(obs) == 1 || ctx.Err() != nil {
		return 0, 1, []error{fmt.Errorf("job %s: %w", obs[0].seen.Name, err)}
	}
	half := len(obs) / 2
	n1, t1, e1 := s.applyAll(ctx, obs[:half])
	n2, t2, e2 := s.applyAll(ctx, obs[half:])
	return n1 + n2, 1 + t1 + t2, append(e1, e2...)
}

// apply persists what the observations changed, in one transaction:
// each job's record, its state change with its event, the restore points
// seen, and the restart policy's decision; then tells watchers. It
// returns how many records changed.
func (s *Syncer) apply(ctx context.Context, obs []observation) (int, error) {
	now := s.now()
	type result struct {
		job    model.Job
		events []*model.Event
	}
	var out []result
	err := s.st.Update(ctx, func(tx store.Tx) error {
		// A store on etcd runs this again after a conflict: nothing of an
		// earlier run was written, so none of it may be published.
		out = out[:0]
		owned, err := ownedJobs(tx)
		if err != nil {
			return err
		}
		for _, o := range obs {
			job, events, changed, err := s.applyTx(tx, o, owned, now)
			if err != nil {
				return err
			}
			if changed {
				out = append(out, result{job, events})
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, r := range out {
		var last *model.Event
		if n := len(r.events); n > 0 {
			last = r.events[n-1]
		}
		s.pub.Job(r.job, nil, last)
	}
	return len(out), nil
}

// applyTx persists, in tx, what one observation changed.
func (s *Syncer) applyTx(tx store.Tx, o observation, owned map[string]bool, now time.Time) (job model.Job, events []*model.Event, changed bool, err error) {
	seen, app, ff, outcome, end, reason, cl := o.seen, o.app, o.ff, o.outcome, o.end, o.reason, o.cl
	j, err := tx.Job(seen.ID)
	if err != nil {
		return job, nil, false, err
	}
	// The exception history is a fact of the cluster, whatever a
	// command does with the job meanwhile.
	if ff != nil && len(ff.exceptions) > 0 {
		if _, err := tx.AddExceptions(j.ID, ff.exceptions); err != nil {
			return job, nil, false, err
		}
	}
	if j.State != seen.State || j.AppID != seen.AppID {
		return job, nil, false, nil // a command moved the job meanwhile; the next cycle looks again
	}
	if owned[j.ID] {
		return job, nil, false, nil // a command acts on the job now: its outcome decides
	}
	before := j
	if app != nil {
		j.TrackingURL = app.TrackingURL
		if app.AMRPCAddress != "" {
			j.JMAddress = app.AMRPCAddress
		}
		if app.Diagnostics != "" && (app.State == yarn.AppFailed || app.FinalStatus == yarn.FinalFailed) {
			j.Diagnostics = app.Diagnostics
		}
	}
	if ff != nil {
		if ff.jobID != "" && ff.jobID != j.FlinkJobID {
			j.FlinkJobID, j.Retention = ff.jobID, model.RetentionUnknown
		}
		if ff.retention != model.RetentionUnknown {
			j.Retention = ff.retention
		}
		if ff.state != "" {
			j.FlinkState = ff.state
		}
		if ff.rootErr != "" {
			j.Diagnostics = ff.rootErr
		}
		if ff.restored != nil && ff.restored.ExternalPath != "" {
			j.RestoredFrom = ff.restored.ExternalPath
		}
		for _, cp := range []*yarn.Checkpoint{ff.ckpt, ff.sp} {
			if err := journal.RecordFlinkPoint(tx, &j, cp, "sync", cl.Retained(), now); err != nil {
				return job, nil, false, err
			}
		}
	}
	if decide.CrashLoopOver(j) {
		ev, err := journal.Note(tx, j, fmt.Sprintf("crash loop over: the job checkpointed past %s", model.PointName(j.CrashLoop.RestorePoint)), "", now)
		if err != nil {
			return job, nil, false, err
		}
		events = append(events, ev)
		j.CrashLoop = nil
	}
	// Drift: the platform expects a live job, the cluster has none.
	if outcome == decide.OutcomeGone {
		if j.Drift == nil {
			j.Drift = &model.Drift{Expected: j.State.String(), Observed: reason, Since: now}
			ev, err := journal.Note(tx, j, fmt.Sprintf("drift: platform expects %s, %s", j.State, reason), "", now)
			if err != nil {
				return job, nil, false, err
			}
			events = append(events, ev)
		}
	} else if j.Drift != nil && outcome != decide.OutcomeWait {
		ev, err := journal.Note(tx, j, fmt.Sprintf("drift resolved: %s", reason), "", now)
		if err != nil {
			return job, nil, false, err
		}
		events = append(events, ev)
		j.Drift = nil
	}
	// A job already in the state observed keeps its record as it is
	// (journal.Apply would write it with a new UpdatedAt).
	evk, ok := outcome.Event()
	if ok {
		if _, moves, err := decide.StepJob(j.State, evk); err == nil && !moves {
			ok = false
		}
	}
	if ok {
		var ev *model.Event
		prev := j.State
		if to, changed, err := decide.StepJob(j.State, evk); err == nil && changed && to.Final() {
			// The run ended: what Flink kept of it follows from how.
			if err := journal.EndRun(tx, &j, end); err != nil {
				return job, nil, false, err
			}
			if to == model.StateFailed && j.RestoredFrom != "" {
				for _, text := range []string{j.Diagnostics, appDiagnostics(app)} {
					ev, err := journal.RestoreNotFound(tx, &j, j.RestoredFrom, text, "", now)
					if err != nil {
						return job, nil, false, err
					}
					if ev != nil {
						events = append(events, ev)
						break
					}
				}
			}
		}
		j, ev, err = journal.Apply(tx, j, evk, reason, "", now)
		if err != nil {
			return job, nil, false, err
		}
		if ev != nil {
			events = append(events, ev)
			if j.State == model.StateRunning && prev != model.StateRunning {
				j.StartedAt = now
				if ff != nil && !ff.started.IsZero() {
					j.StartedAt = ff.started
				}
			}
			if j.State == model.StateFailed {
				cause := ""
				if ff != nil {
					cause = ff.rootErr
				}
				if j.CrashLoop, err = journal.CrashLoop(tx, j, cause, now); err != nil {
					return job, nil, false, err
				}
				if j.CrashLoop != nil {
					lev, err := journal.Note(tx, j, "crash loop: "+j.CrashLoop.Sentence(), "", now)
					if err != nil {
						return job, nil, false, err
					}
					events = append(events, lev)
				}
				d := s.opts.Policy.Decide(j, now)
				if d.Restart {
					j.NextRestart, j.PlatformRestarts, j.RestartWindow = d.At, d.Attempt, d.WindowStart
				} else {
					j.NextRestart = time.Time{}
				}
				pev, err := journal.Note(tx, j, d.Reason, "", now)
				if err != nil {
					return job, nil, false, err
				}
				events = append(events, pev)
			}
		}
	}
	if !jobChanged(before, j) && len(events) == 0 {
		return job, nil, false, nil
	}
	j.UpdatedAt, j.SyncedAt = now, now
	return j, events, true, tx.PutJob(j)
}
