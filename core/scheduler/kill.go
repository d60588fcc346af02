package scheduler

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// A KILL: the YARN kill of a per-job application, or the cancel of a job in
// a session cluster, and what the JobManager says of its checkpoints while
// the kill lands.

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
	cl, err := actingCluster(ctx, x.s, j)
	if err != nil {
		return err
	}
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
		x.eff.setPoints(pts.latest)
	}
	// An application is the job's to kill when one of this store's
	// commands of this job submitted it (a copy of this store restored
	// elsewhere, or another store, may run applications with the job's tag).
	ours := func(a yarn.Application) (clusters.Claim, model.Command) {
		return strongestClaim(x.s.storeID, j, cmds, a)
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
	x.outcome = killedOutcome(x.eff.lastPoints(), session, cl.Retained())
	return nil
}

// killedOutcome is the outcome of a KILL that took effect: the checkpoints
// the JobManager last reported are recorded, with how the run ended.
func killedOutcome(latest []*yarn.Checkpoint, session bool, retained int) outcomeFunc {
	return func(tx store.Tx, j model.Job, c model.Command, runErr error, now time.Time) (model.Job, *model.Event, error) {
		if runErr != nil {
			ev, err := journal.Note(tx, j, fmt.Sprintf("%s #%d failed: %v", c.Kind, c.Seq, runErr), c.ID, now)
			return j, ev, err
		}
		j.FlinkState, j.Drift = "", nil
		if err := journal.RecordPoints(tx, &j, latest, fmt.Sprintf("%s #%d", c.Kind, c.Seq), retained, now); err != nil {
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
func (x *execution) killApps(ctx context.Context, cl *clusters.Cluster, j model.Job, sup *model.Command, ours func(yarn.Application) (clusters.Claim, model.Command)) error {
	ids := []string{x.params().AppID, j.AppID}
	if sup != nil {
		ids = append(ids, sup.Params.AppID)
	}
	tagged, err := cl.RM.Applications(ctx, yarn.AppFilter{ApplicationTags: []string{clusters.JobTag(j.ID)}, States: clusters.LiveStates})
	cl.Observe(err, x.s.now())
	if err != nil {
		return fmt.Errorf("look for live applications of %s: %w", j.Name, err)
	}
	left := 0
	for _, a := range tagged {
		claim, by := ours(a)
		switch {
		case slices.Contains(ids, a.ID):
			// Recorded by this store: killed as such below.
		case claim.Ours():
			ids = append(ids, a.ID)
		case claim == clusters.UnrecordedLegacy:
			left++
			x.logf(ctx, "application %s, tagged for %s #%d, %s: left alone; adopt it explicitly with `palink adopt --cluster %s %s` if it is this job's, then kill it",
				a.ID, by.Kind, by.Seq, claim.Matched(x.s.storeID), cl.Name, a.ID)
		default:
			left++
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
		if err := x.s.mayAct(); err != nil {
			stopWatch()
			return err
		}
		x.eff.acted()
		final, err := cl.RMFor(issuerOf(x)).Kill(ctx, app.ID)
		stopWatch()
		if watched != nil {
			noteLastWord(ctx, x, <-watched)
		}
		if err != nil {
			return err
		}
		x.logf(ctx, "application %s is %s", final.ID, final.State)
	}
	if len(seen) == 0 && left == 0 {
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

// noteLastWord keeps cp, the newest completed checkpoint a JobManager
// reported at or after the kill, when it is newer than what the kill read
// before, and says so in the command's log.
func noteLastWord(ctx context.Context, x *execution, cp *yarn.Checkpoint) {
	if cp == nil || cp.ExternalPath == "" || cp.Discarded {
		return
	}
	before, kept := x.eff.newer(cp)
	switch {
	case kept && before != nil:
		x.logf(ctx, "the JobManager's last word: checkpoint %d at %s, completed after checkpoint %d read before the kill (which it may have subsumed)", cp.ID, cp.ExternalPath, before.ID)
	case kept:
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
		if err := x.s.mayAct(); err != nil {
			return err
		}
		x.eff.acted()
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
				noteLastWord(ctx, x, stats.Latest.Completed)
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
