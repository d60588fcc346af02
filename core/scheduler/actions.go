package scheduler

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// Plan implements Service.
func (s *Scheduler) Plan(ctx context.Context, r api.ActionRequest) (api.ActionPlan, error) {
	var p api.ActionPlan
	err := s.st.View(ctx, func(tx store.ReadTx) error {
		j, err := journal.FindJob(tx, r.JobRef)
		if err != nil {
			return err
		}
		pending, err := journal.Pending(tx, j.ID)
		if err != nil {
			return err
		}
		rps, err := tx.RestorePoints(j.ID)
		if err != nil {
			return err
		}
		p = s.plan(j, r, pending, rps)
		if p.Allowed {
			why, err := catalogRefusal(tx, j, r.Kind)
			if err != nil {
				return err
			}
			if why != "" {
				p.Allowed, p.Reason = false, why
			}
		}
		return nil
	})
	return p, err
}

// plan is the pure part of Plan: what the action would do to j now.
func (s *Scheduler) plan(j model.Job, r api.ActionRequest, pending *model.Command, rps []model.RestorePoint) api.ActionPlan {
	p := api.ActionPlan{JobID: j.ID, JobName: j.Name, Kind: r.Kind, Allowed: true}
	var destructive, protected bool
	if s.readOnly {
		p.Allowed, p.Reason = false, "palink is read-only"
		return p
	}
	if err := decide.CanAct(j, r.Kind, pending); err != nil {
		var ar *decide.ActionRefusedError
		if errors.As(err, &ar) {
			p.Allowed, p.Reason = false, ar.Reason
		} else {
			p.Allowed, p.Reason = false, err.Error()
		}
		return p
	}
	var cl clusters.Spec
	if c := s.clusters[j.Cluster]; c != nil {
		cl = c.Cfg
	}
	spDir := cl.Deploy.SavepointDir
	if spDir == "" {
		spDir = "the cluster's default savepoint directory (state.savepoints.dir)"
	}
	app := j.AppID
	if app == "" {
		app = "its application"
	}
	jid := j.FlinkJobID
	if jid == "" {
		jid = "(id from the JobManager)"
	}
	ckptAge := "no checkpoint recorded"
	if j.LatestCheckpoint != nil {
		ckptAge = fmt.Sprintf("latest checkpoint %s ago (%s)", model.Age(s.now().Sub(j.LatestCheckpoint.Time)), baseName(j.LatestCheckpoint.Path))
	}
	switch r.Kind {
	case model.CmdPause:
		p.Steps = []string{
			fmt.Sprintf("Flink will stop job %s with a savepoint to %s (stop-with-savepoint).", jid, spDir),
			"The job ends FINISHED; restart resumes from that savepoint.",
		}
		if !j.Session {
			p.Steps = append(p.Steps, fmt.Sprintf("The per-job cluster %s shuts down.", app))
		}
	case model.CmdKill:
		destructive, protected = true, cl.Protected
		switch {
		case j.State == model.StateDeploying:
			p.Steps = []string{fmt.Sprintf("YARN will kill every live application of %s (found by its tags); it is still deploying.", j.Name)}
		case j.Session:
			p.Steps = []string{fmt.Sprintf("Flink will cancel job %s in the shared session cluster %s; the session keeps running.", jid, app)}
		default:
			p.Steps = []string{fmt.Sprintf("YARN will kill %s (per-job cluster).", app)}
		}
		if decide.Supersedes(r.Kind, pending) {
			p.Steps = append(p.Steps, fmt.Sprintf("%s #%d (%s) ends FAILED, superseded by this kill; whatever it started is killed too.",
				pending.Kind, pending.Seq, s.pendingState(*pending)))
		}
		p.Warnings = []string{"State is NOT saved. " + capitalize(ckptAge) + ".", "Prefer pause: stop with a savepoint."}
	case model.CmdSavepoint:
		p.Steps = []string{fmt.Sprintf("Flink will write a savepoint of job %s to %s; the job keeps running.", jid, spDir)}
	case model.CmdSubmit, model.CmdRestart, model.CmdResubmit:
		choice := r.Restore
		if r.Kind == model.CmdSubmit {
			choice = model.RestoreNone
		}
		if r.Kind == model.CmdRestart && choice == 0 {
			choice = model.RestoreLatest
		}
		if r.Kind == model.CmdResubmit && choice == 0 {
			p.Allowed, p.Reason = false, "resubmit needs a restore point: latest, savepoint, checkpoint, a path, or none"
			return p
		}
		res, err := decide.ResolveRestore(j, rps, choice, r.RestorePath)
		if err != nil {
			p.Allowed, p.Reason = false, err.Error()
			return p
		}
		path := res.Path
		p.Restore = path
		if rec := res.Point; rec != nil {
			if err := decide.CheckRestorePoint(*rec, s.opts.Savepoints, s.now(), r.Force); err != nil {
				p.Allowed, p.Reason = false, err.Error()
				return p
			}
			// A path typed by hand that palink knows to be gone: it says
			// why, and a person who knows better forces it.
			if why := decide.Missing(j, *rec); why != "" && !r.Force {
				p.Allowed, p.Reason = false, why+"; force it if the files are there, or choose another restore point"
				return p
			}
		}
		for _, why := range res.Passed {
			p.Warnings = append(p.Warnings, "Passed over a newer restore point: "+why+".")
		}
		how := "through the SQL Gateway"
		switch j.Kind {
		case model.KindJAR:
			how = "with " + cl.Deploy.JarDeployer + " deploy"
		case model.KindPython:
			how = "with `flink run -py`"
		}
		p.Steps = []string{fmt.Sprintf("Deploy %s v%d to cluster %s (%s) %s.", j.Kind, j.SpecVersion, j.Cluster, cl.Deploy.Mode, how)}
		if path != "" {
			from := "Restore state from " + path
			if rec := res.Point; rec != nil && !rec.Time.IsZero() {
				from += " · " + model.Age(s.now().Sub(rec.Time)) + " ago"
			}
			p.Steps = append(p.Steps, from+".")
			if r.AllowNonRestoredState {
				p.Steps = append(p.Steps, "Flink drops the state that maps to no operator of the job (allowNonRestoredState).")
			}
			if loop := j.CrashLoop; loop != nil && loop.RestorePoint == path {
				p.CrashLoop = loop
				w := capitalize(loop.Sentence()) + "."
				if loop.SpecVersion != 0 && j.SpecVersion != loop.SpecVersion {
					w += fmt.Sprintf(" Spec v%d deploys, edited since the v%d that failed.", j.SpecVersion, loop.SpecVersion)
				}
				p.Warnings = append(p.Warnings, w)
			}
		} else {
			p.Steps = append(p.Steps, "Start with empty state.")
			if r.Kind != model.CmdSubmit && (j.LatestCheckpoint != nil || j.LatestSavepoint != nil) {
				p.Warnings = append(p.Warnings, "The job's recorded state is NOT restored.")
			}
			if r.Kind == model.CmdRestart {
				p.Warnings = append(p.Warnings, "No savepoint or checkpoint recorded: the job starts from empty state.")
			}
		}
		destructive = r.Kind != model.CmdSubmit && path == "" && (j.LatestCheckpoint != nil || j.LatestSavepoint != nil)
	}
	p.Confirm = confirmLevel(r.Kind, destructive, protected)
	return p
}

// confirmLevel is how sure a person must be: the one policy every front
// end follows (api.Confirm).
func confirmLevel(k model.CommandKind, destructive, protected bool) api.Confirm {
	switch {
	case protected:
		return api.ConfirmName
	case destructive:
		return api.ConfirmDestructive
	case k == model.CmdSavepoint:
		return api.ConfirmNone
	}
	return api.ConfirmAsk
}

// Act implements Service.
func (s *Scheduler) Act(ctx context.Context, r api.ActionRequest) (model.Command, error) {
	return s.actWith(ctx, r, nil)
}

// ActWith is Act with a last change to the new command, made in the
// same transaction (core records what a resubmit changes in a jar).
func (s *Scheduler) ActWith(ctx context.Context, r api.ActionRequest, mod func(*model.Command)) (model.Command, error) {
	return s.actWith(ctx, r, func(c *model.Command, _ *model.Job) { mod(c) })
}

// actWith is Act with a last change to the new command and the job, made
// in the same transaction (the restart policy marks its commands).
func (s *Scheduler) actWith(ctx context.Context, r api.ActionRequest, mod func(*model.Command, *model.Job)) (model.Command, error) {
	issuer := r.Issuer
	if issuer == "" {
		issuer = s.user
	}
	if s.readOnly {
		return model.Command{}, api.ReadOnly(strings.ToLower(r.Kind.String()))
	}
	now := s.now()
	var (
		cmd        model.Command
		superseded *model.Command
		job        model.Job
		ev         *model.Event
		refusal    error
	)
	err := s.st.Update(ctx, func(tx store.Tx) error {
		// A store on etcd runs this again after a conflict, on what the
		// other writer left: nothing of an earlier run holds.
		cmd, superseded, job, ev, refusal = model.Command{}, nil, model.Job{}, nil, nil
		j, err := journal.FindJob(tx, r.JobRef)
		if err != nil {
			return err
		}
		pending, err := journal.Pending(tx, j.ID)
		if err != nil {
			return err
		}
		rps, err := tx.RestorePoints(j.ID)
		if err != nil {
			return err
		}
		p := s.plan(j, r, pending, rps)
		if p.Allowed {
			why, err := catalogRefusal(tx, j, r.Kind)
			if err != nil {
				return err
			}
			if why != "" {
				p.Allowed, p.Reason = false, why
			}
		}
		if !p.Allowed {
			// The refusal is audited; the job and its commands are untouched.
			refusal = &decide.ActionRefusedError{Job: j.Name, Action: r.Kind, Reason: p.Reason}
			_, err := tx.AppendAudit(model.AuditEntry{Time: now, User: issuer, Action: strings.ToLower(r.Kind.String()), JobID: j.ID, Outcome: "refused: " + p.Reason})
			return err
		}
		params := model.CommandParams{Restore: r.Restore, RestorePath: r.RestorePath, SpecVersion: j.SpecVersion}
		if r.Kind.Deploys() {
			if r.Kind == model.CmdSubmit {
				params.Restore = model.RestoreNone
			}
			if params.Restore == 0 {
				params.Restore = model.RestoreLatest
			}
			params.RestorePath = p.Restore // resolved now, so the command says what it restores
			params.ClaimMode, params.AllowNonRestoredState = r.ClaimMode, r.AllowNonRestoredState
		} else {
			params.AppID, params.FlinkJobID = j.AppID, j.FlinkJobID
		}
		supersede := decide.Supersedes(r.Kind, pending)
		if supersede {
			params.Supersedes = pending.ID
			if pending.State == model.CmdDoing && now.Before(pending.LeaseUntil) && !ownerGone(pending.LeaseOwner) {
				params.SupersededLease = pending.LeaseUntil
			}
			if params.AppID == "" {
				params.AppID = pending.Params.AppID
			}
		}
		c := model.Command{JobID: j.ID, Kind: r.Kind, Params: params, State: model.CmdUndo, Issuer: issuer, CreatedAt: now}
		if mod != nil {
			mod(&c, &j)
		}
		c, err = tx.PutCommand(c)
		if err != nil {
			return err
		}
		cmd = c
		if supersede {
			if superseded, err = s.supersede(tx, *pending, c, now); err != nil {
				return err
			}
		}
		if evk, ok := decide.AcceptEvent(r.Kind); ok {
			to, _, err := decide.StepJob(j.State, evk)
			if err != nil {
				return err
			}
			e, err := tx.AppendEvent(model.Event{JobID: j.ID, Time: now, From: j.State, To: to, CommandID: c.ID,
				Reason: fmt.Sprintf("%s #%d by %s%s", r.Kind, c.Seq, issuer, restoreNote(p.Restore))})
			if err != nil {
				return err
			}
			ev = &e
			j.State, j.Drift = to, nil
		}
		j.UpdatedAt = now
		if err := tx.PutJob(j); err != nil {
			return err
		}
		job = j
		_, err = tx.AppendAudit(model.AuditEntry{Time: now, User: issuer, Action: strings.ToLower(r.Kind.String()), JobID: j.ID, CommandID: c.ID, Outcome: "accepted"})
		return err
	})
	if err != nil {
		return model.Command{}, err
	}
	if refusal != nil {
		return model.Command{}, refusal
	}
	if superseded != nil {
		s.pub.Command(*superseded)
	}
	s.pub.Command(cmd)
	s.pub.Job(job, &cmd, ev)
	s.Kick()
	return cmd, nil
}

// supersede ends the pending command p in favour of the KILL k, inside the
// transaction that records k. Its worker, if one still runs, loses the
// lease: its next save fails and a deploy undoes what it created.
func (s *Scheduler) supersede(tx store.Tx, p, k model.Command, now time.Time) (*model.Command, error) {
	held := s.pendingState(p)
	c, err := decide.StepCommand(p, decide.CmdEvSupersede, "", 0, now)
	if err != nil {
		return nil, err
	}
	c.SupersededBy = k.ID
	c.Error = fmt.Sprintf("superseded by %s #%d (issued by %s)", k.Kind, k.Seq, k.Issuer)
	c.Logf(now, "superseded by %s #%d issued by %s while %s", k.Kind, k.Seq, k.Issuer, held)
	if c, err = tx.PutCommand(c); err != nil {
		return nil, err
	}
	_, err = tx.AppendAudit(model.AuditEntry{Time: now, User: k.Issuer, Action: strings.ToLower(p.Kind.String()), JobID: p.JobID, CommandID: p.ID,
		Outcome: "failed: " + c.Error})
	return &c, err
}

// pendingState says, for people, where a pending command stands: queued,
// running under a live lease, or orphaned by a palink that died.
func (s *Scheduler) pendingState(c model.Command) string {
	switch {
	case c.State == model.CmdUndo:
		return "queued, not started"
	case s.now().Before(c.LeaseUntil) && !ownerGone(c.LeaseOwner):
		return fmt.Sprintf("DOING, held by %s", orNone(c.LeaseOwner))
	case s.now().Before(c.LeaseUntil):
		return fmt.Sprintf("DOING, orphaned: its palink %s is gone", c.LeaseOwner)
	default:
		return fmt.Sprintf("DOING, orphaned: the lease of %s expired %s ago", orNone(c.LeaseOwner), model.Age(s.now().Sub(c.LeaseUntil)))
	}
}

func restoreNote(path string) string {
	if path == "" {
		return ""
	}
	return " (from " + baseName(path) + ")"
}

// kick wakes the scheduler.
// Kick wakes Run to look for commands now: this palink queued one, or
// another on the store did (its change feed says so).
func (s *Scheduler) Kick() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' && i < len(p)-1 {
			return p[i+1:]
		}
	}
	return p
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	b := []byte(s)
	if 'a' <= b[0] && b[0] <= 'z' {
		b[0] -= 'a' - 'A'
	}
	return string(b)
}
