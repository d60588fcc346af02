package scheduler

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// deployed is what a deploy created.
type deployed struct {
	app     yarn.Application
	jobID   string
	session bool
	restore string
}

// fixedJobID is the Flink job id palink gives a submission to a session
// cluster, derived from the command: a resumed command finds the job it
// already submitted, and Flink itself refuses a second job with that id.
func fixedJobID(cmdID string) string {
	h := sha256.Sum256([]byte("palink/" + cmdID))
	return hex.EncodeToString(h[:16])
}

// runDeploy executes SUBMIT, RESTART and RESUBMIT. It first reconciles: an
// application this command already created (the process died after
// submitting) is adopted, never submitted again; and it refuses while any
// other application of the job is alive.
func (x *execution) runDeploy(ctx context.Context) error {
	p := x.params()
	var (
		j    model.Job
		spec model.Spec
	)
	err := x.s.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		if j, err = tx.Job(x.jobID); err != nil {
			return err
		}
		v := p.SpecVersion
		if v == 0 {
			v = j.SpecVersion
		}
		spec, err = tx.Spec(j.ID, v)
		return err
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
	session := cl.Cfg.Deploy.Mode == "yarn-session"

	// 1. Reconcile with what a previous attempt may have done.
	if d, ok, err := x.findOwnSubmission(ctx, cl, session); err != nil {
		return err
	} else if ok {
		x.logf(ctx, "found %s (Flink job %s) submitted by an earlier attempt of this command: adopting it, not submitting again", d.app.ID, orUnknown(d.jobID))
		return x.deploySucceeded(ctx, d)
	}
	// 2. The restore point, checked against what exists now (the previous
	// run's JobManager may still answer while it shuts down).
	restore, err := x.checkRestore(ctx, cl, j)
	if err != nil {
		return err
	}
	// 3. Never two live applications for one job.
	if err := x.refuseIfAlive(ctx, cl, j, session); err != nil {
		return err
	}
	// 4. Submit.
	if restore != "" {
		x.logf(ctx, "restoring from %s", restore)
	} else {
		x.logf(ctx, "starting with empty state")
	}
	var d deployed
	switch j.Kind {
	case model.KindSQL:
		d, err = x.deploySQL(ctx, cl, j, spec, restore, session)
	case model.KindJAR:
		if cl.Cfg.Deploy.JarDeployer == "rest" {
			d, err = x.deployJarREST(ctx, cl, j, spec, restore)
		} else {
			d, err = x.deployJarExec(ctx, cl, j, spec, restore)
		}
	case model.KindPython:
		d, err = x.deployPython(ctx, cl, j, spec, restore, session)
	default:
		err = fmt.Errorf("job kind %v cannot be deployed", j.Kind)
	}
	if err != nil {
		return err
	}
	d.restore = restore
	return x.deploySucceeded(ctx, d)
}

// findOwnSubmission looks for an application (or session job) this very
// command created in an earlier attempt.
func (x *execution) findOwnSubmission(ctx context.Context, cl *clusters.Cluster, session bool) (deployed, bool, error) {
	p := x.params()
	x.mu.Lock()
	first := x.cmd.Attempts <= 1 && x.retries == 0
	x.mu.Unlock()
	if first && p.AppID == "" {
		return deployed{}, false, nil
	}
	if session {
		app, err := cl.RM.Application(ctx, cl.Cfg.Deploy.SessionApp)
		if err != nil {
			return deployed{}, false, fmt.Errorf("session cluster %s: %w", cl.Cfg.Deploy.SessionApp, err)
		}
		f, err := cl.Flink(app)
		if err != nil {
			return deployed{}, false, err
		}
		jid := fixedJobID(x.id)
		if _, err := f.Job(ctx, jid); err == nil {
			return deployed{app: app, jobID: jid, session: true}, true, nil
		} else if !errors.Is(err, yarn.ErrNotFound) {
			return deployed{}, false, fmt.Errorf("look for job %s on the session cluster: %w", jid, err)
		}
		return deployed{}, false, nil
	}
	// The submission may still be reaching the RM: look twice.
	recorded, err := recordedAppIDs(ctx, x.s.st, x.jobID, p)
	if err != nil {
		return deployed{}, false, err
	}
	for i := 0; i < 2; i++ {
		apps, err := cl.RM.Applications(ctx, yarn.AppFilter{ApplicationTags: []string{clusters.CmdTag(x.id)}})
		if err != nil {
			return deployed{}, false, fmt.Errorf("look for applications tagged %s: %w", clusters.CmdTag(x.id), err)
		}
		var own, unproven []yarn.Application
		claims := map[string]clusters.Claim{}
		for _, a := range apps {
			claims[a.ID] = clusters.ClaimOf(a, x.s.storeID, x.jobID, x.id, recorded...)
			switch claims[a.ID] {
			case clusters.ByStoreTag, clusters.ByRecordedID:
				own = append(own, a)
			case clusters.UnrecordedLegacy:
				unproven = append(unproven, a)
			default:
				x.logf(ctx, "application %s carries this command's tag but not all of this store's (%s): not ours, left alone", a.ID, strings.Join(a.Tags(), ","))
			}
		}
		if len(own) > 0 {
			a := newest(own)
			if a.Final() {
				// Submitting again would run the job twice over its life;
				// a person decides.
				return deployed{}, false, fmt.Errorf("an earlier attempt of this command submitted %s, which already ended (%s/%s): not submitting again; restart or resubmit the job when its cause is known: %s",
					a.ID, a.State, a.FinalStatus, model.FirstLine(a.Diagnostics))
			}
			x.logf(ctx, "%s is ours: it %s; it is %s", a.ID, claims[a.ID].Matched(x.s.storeID), a.State)
			return deployed{app: a, jobID: p.FlinkJobID}, true, nil
		}
		if len(unproven) > 0 {
			// A palink from before store ids submitted it for this job and
			// command, so this store's past or another copy's: adopting it
			// may take another copy's job, submitting again may run the job
			// twice. Neither without a person.
			a := newest(unproven)
			if a.Final() {
				return deployed{}, false, fmt.Errorf("%s %s, and it already ended (%s/%s): not adopted, and not submitting again in case it was this job's; resubmit the job if it should run",
					a.ID, claims[a.ID].Matched(x.s.storeID), a.State, a.FinalStatus)
			}
			return deployed{}, false, fmt.Errorf("%s %s: not adopted; adopt it explicitly with `palink adopt --cluster %s %s` if it is this job's",
				a.ID, claims[a.ID].Matched(x.s.storeID), cl.Name, a.ID)
		}
		if i == 0 {
			if err := sleepCtx(ctx, 2*x.s.opts.Poll); err != nil {
				return deployed{}, false, err
			}
		}
	}
	return deployed{}, false, nil
}

// recordedAppIDs are the application ids this store recorded for a
// command (its params p) and its job: what proves an application without
// a store tag this store's (clusters.ClaimOf).
func recordedAppIDs(ctx context.Context, st store.Store, jobID string, p model.CommandParams) ([]string, error) {
	var j model.Job
	err := st.View(ctx, func(tx store.ReadTx) error {
		var err error
		j, err = tx.Job(jobID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return []string{p.AppID, j.AppID}, nil
}

func newest(apps []yarn.Application) yarn.Application {
	best := apps[0]
	for _, a := range apps[1:] {
		if a.StartedTime > best.StartedTime {
			best = a
		}
	}
	return best
}

// refuseIfAlive fails when an application (or session job) of this job is
// still alive: the duplicate-job failure other platforms suffer. An
// application whose Flink job already ended (a per-job cluster shutting down
// after a pause) is waited for, not refused.
func (x *execution) refuseIfAlive(ctx context.Context, cl *clusters.Cluster, j model.Job, session bool) error {
	apps, err := cl.RM.Applications(ctx, yarn.AppFilter{ApplicationTags: []string{clusters.JobTag(j.ID)}, States: clusters.LiveStates})
	if err != nil {
		return fmt.Errorf("check for live applications of %s: %w", j.Name, err)
	}
	if j.AppID != "" && !j.Session {
		a, err := cl.RM.Application(ctx, j.AppID)
		switch {
		case errors.Is(err, yarn.ErrNotFound):
		case err != nil:
			return fmt.Errorf("check application %s of %s: %w", j.AppID, j.Name, err)
		case !a.Final() && !containsApp(apps, a.ID):
			apps = append(apps, a)
		}
	}
	var cmds []model.Command
	if len(apps) > 0 {
		if err := x.s.st.View(ctx, func(tx store.ReadTx) (err error) {
			cmds, err = tx.Commands(store.CommandFilter{JobID: j.ID})
			return err
		}); err != nil {
			return err
		}
	}
	for _, a := range apps {
		refuse := func(state string) error {
			return fmt.Errorf("refusing to start %s: its application %s is still %s; pause or kill it first", j.Name, a.ID, state)
		}
		if unrecordedLegacy(x.s.storeID, j, cmds, a) {
			// This store cannot pause or kill it (it did not submit it as
			// far as it knows): say what can.
			refuse = func(state string) error {
				return fmt.Errorf("refusing to start %s: application %s, which a palink from before store ids submitted for this job and whose id this store did not record (it may be another copy's), is still %s; adopt it with `palink adopt --cluster %s %s` if it is this job's, or stop it from the store that owns it",
					j.Name, a.ID, state, cl.Name, a.ID)
			}
		}
		if err := x.awaitEnding(ctx, cl, j, a, refuse); err != nil {
			return err
		}
	}
	if j.Session && j.FlinkJobID != "" && j.AppID != "" {
		a, err := cl.RM.Application(ctx, j.AppID)
		if err == nil && a.State == yarn.AppRunning {
			if f, err := cl.Flink(a); err == nil {
				st, err := f.JobStatus(ctx, j.FlinkJobID)
				if err == nil && !clusters.FlinkTerminal(st) {
					return fmt.Errorf("refusing to start %s: its Flink job %s is still %s in session %s; pause or kill it first", j.Name, j.FlinkJobID, st, a.ID)
				}
			}
		}
	}
	x.logf(ctx, "no live application of %s: submitting", j.Name)
	return nil
}

// unrecordedLegacy reports whether a is an application that a palink from
// before store ids submitted for job j and that no record of this store
// claims: neither the job nor any of its commands.
func unrecordedLegacy(storeID string, j model.Job, cmds []model.Command, a yarn.Application) bool {
	claim, _ := strongestClaim(storeID, j, cmds, a)
	return !claim.Ours() && a.ID != j.AppID && clusters.LegacyFor(a, j.ID)
}

// strongestClaim is the strongest claim that one of job j's deploy
// commands has on application a, and that command.
func strongestClaim(storeID string, j model.Job, cmds []model.Command, a yarn.Application) (clusters.Claim, model.Command) {
	best, by := clusters.NotSubmitted, model.Command{}
	for _, c := range cmds {
		if !c.Kind.Deploys() {
			continue
		}
		if claim := clusters.ClaimOf(a, storeID, j.ID, c.ID, c.Params.AppID, j.AppID); claim > best {
			best, by = claim, c
		}
	}
	return best, by
}

func containsApp(apps []yarn.Application, id string) bool {
	for _, a := range apps {
		if a.ID == id {
			return true
		}
	}
	return false
}

// awaitEnding refuses a live application whose Flink job still runs, and
// waits (bounded) for one whose job has ended to shut down. A restart or
// resubmit starts from a job palink saw end (FINISHED, KILLED, FAILED), yet
// its JobManager may report the job running for a moment longer: that is
// waited out for Options.EndingGrace, then refused.
func (x *execution) awaitEnding(ctx context.Context, cl *clusters.Cluster, j model.Job, a yarn.Application, refuse func(state string) error) error {
	ended := x.kind == model.CmdRestart || x.kind == model.CmdResubmit
	grace := time.Now().Add(x.s.opts.EndingGrace)
	wait := x.s.opts.Poll
	waiting := false
	for {
		cur, err := cl.RM.Application(ctx, a.ID)
		switch {
		case errors.Is(err, yarn.ErrNotFound):
			return nil
		case err != nil:
			return fmt.Errorf("%w (%v)", refuse(a.State), err)
		case cur.Final():
			return nil
		}
		if cur.State == yarn.AppRunning && allJobsEnded(ctx, cl, cur) {
			break
		}
		if !ended || time.Now().After(grace) {
			return refuse(cur.State)
		}
		if !waiting {
			waiting = true
			x.logf(ctx, "the JobManager of %s still lists a job as running although %s ended; waiting up to %s for it to catch up",
				a.ID, j.Name, x.s.opts.EndingGrace)
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return err
		}
		wait = min(2*wait, 2*time.Second)
	}
	x.logf(ctx, "application %s has no running job left; waiting for it to shut down", a.ID)
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if _, err := cl.RM.WaitFinal(wctx, a.ID); err != nil {
		return fmt.Errorf("%w (it did not shut down: %v)", refuse(yarn.AppRunning), err)
	}
	return nil
}

// allJobsEnded reports whether the application's JobManager runs no job.
func allJobsEnded(ctx context.Context, cl *clusters.Cluster, a yarn.Application) bool {
	f, err := cl.Flink(a)
	if err != nil {
		return false
	}
	jobs, err := f.Jobs(ctx)
	if err != nil {
		return false
	}
	for _, jo := range jobs {
		if !clusters.FlinkTerminal(jo.State) {
			return false
		}
	}
	return true
}

// deploySucceeded records the submission on the command at once (so that
// a crash from here on adopts it) and sets the outcome for the job.
func (x *execution) deploySucceeded(ctx context.Context, d deployed) error {
	if err := x.save(ctx, func(c *model.Command) {
		c.Params.AppID, c.Params.FlinkJobID = d.app.ID, d.jobID
	}); err != nil {
		return errLeaseLost
	}
	x.logf(ctx, "deployed: %s, Flink job %s", d.app.ID, orUnknown(d.jobID))
	x.outcome = func(tx store.Tx, j model.Job, c model.Command, runErr error, now time.Time) (model.Job, *model.Event, error) {
		if runErr != nil {
			return deployFailedOutcome(tx, j, c, runErr, now)
		}
		j.AppID, j.FlinkJobID, j.Session = d.app.ID, d.jobID, d.session
		j.TrackingURL, j.JMAddress = d.app.TrackingURL, d.app.AMRPCAddress
		j.RestoredFrom, j.FlinkState, j.Diagnostics, j.Drift = d.restore, "", "", nil
		j.Retention = model.RetentionUnknown // the new Flink job's: sync asks its JobManager
		j.StartedAt = time.Time{}
		j.SpecVersion = max(j.SpecVersion, c.Params.SpecVersion)
		if !c.Params.Auto {
			// A human deploy starts the restart policy's count afresh.
			j.PlatformRestarts, j.RestartWindow = 0, time.Time{}
		}
		j.NextRestart = time.Time{}
		return journal.Apply(tx, j, decide.EvDeployOK, fmt.Sprintf("%s #%d by %s: %s%s", c.Kind, c.Seq, c.Issuer, d.app.ID, restoreNote(d.restore)), c.ID, now)
	}
	return nil
}

func deployFailedOutcome(tx store.Tx, j model.Job, c model.Command, runErr error, now time.Time) (model.Job, *model.Event, error) {
	j.Diagnostics = runErr.Error()
	j.NextRestart = time.Time{}
	ev, err := journal.RestoreNotFound(tx, &j, c.Params.RestorePath, failureText(runErr), c.ID, now)
	if err != nil {
		return j, nil, err
	}
	if ev != nil && c.Params.Auto {
		// The restart policy's restore point is gone: it tries the next
		// one known to exist at once, or stops saying why (startDueRestarts).
		j.NextRestart = now
	}
	return journal.Apply(tx, j, decide.EvDeployFailed, fmt.Sprintf("%s #%d failed: %v", c.Kind, c.Seq, runErr), c.ID, now)
}

// failureText is an error's text with all the server said: a gateway's
// or JobManager's whole error list, where Flink names what it could not
// find, beyond the first line its message shows.
func failureText(err error) string {
	text := err.Error()
	var he *yarn.HTTPError
	if errors.As(err, &he) {
		text += "\n" + strings.Join(he.Errors, "\n")
	}
	return text
}

// awaitApp waits until the application tagged with this command appears on the RM.
func (x *execution) awaitApp(ctx context.Context, cl *clusters.Cluster) (yarn.Application, error) {
	ctx, cancel := context.WithTimeout(ctx, x.s.opts.DeployWait)
	defer cancel()
	wait := x.s.opts.Poll
	for {
		apps, err := cl.RM.Applications(ctx, yarn.AppFilter{ApplicationTags: []string{clusters.CmdTag(x.id)}})
		var own []yarn.Application
		for _, a := range apps {
			if clusters.ClaimOf(a, x.s.storeID, x.jobID, x.id, x.params().AppID).Ours() {
				own = append(own, a)
			}
		}
		if err == nil && len(own) > 0 {
			return newest(own), nil
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return yarn.Application{}, fmt.Errorf("no YARN application tagged %s appeared within %s", clusters.CmdTag(x.id), x.s.opts.DeployWait)
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// deployJarREST uploads the jar to the session cluster and runs it.
func (x *execution) deployJarREST(ctx context.Context, cl *clusters.Cluster, j model.Job, spec model.Spec, restore string) (deployed, error) {
	app, err := cl.RM.Application(ctx, cl.Cfg.Deploy.SessionApp)
	if err != nil {
		return deployed{}, fmt.Errorf("session cluster %s: %w", cl.Cfg.Deploy.SessionApp, err)
	}
	if app.State != yarn.AppRunning {
		return deployed{}, fmt.Errorf("session cluster %s is %s, not RUNNING", app.ID, app.State)
	}
	f, err := cl.Flink(app)
	if err != nil {
		return deployed{}, err
	}
	up, err := f.UploadJarFile(ctx, spec.JarPath)
	if err != nil {
		return deployed{}, fmt.Errorf("upload %s: %w", spec.JarPath, err)
	}
	x.logf(ctx, "uploaded %s to %s as %s", spec.JarPath, app.ID, up.ID)
	vars, err := x.resolveJobVars(ctx, j, spec)
	if err != nil {
		return deployed{}, err
	}
	args, config := substituted(vars, spec.Args, j.Config)
	conf := map[string]string{"pipeline.name": j.Name}
	for k, v := range config {
		conf[k] = v
	}
	jid := fixedJobID(x.id)
	if err := x.s.mayAct(); err != nil {
		return deployed{}, err
	}
	res, err := f.RunJar(ctx, up.ID, yarn.JarRunRequest{
		EntryClass: spec.EntryClass, ProgramArgsList: args, Parallelism: j.Parallelism,
		JobID: jid, SavepointPath: restore, FlinkConfiguration: conf,
		AllowNonRestoredState: restore != "" && x.params().AllowNonRestoredState, ClaimMode: x.claimMode(),
	})
	if err != nil {
		return deployed{}, vars.MaskErr(fmt.Errorf("run %s: %w", up.ID, err))
	}
	if res.JobID != "" {
		jid = res.JobID
	}
	return deployed{app: app, jobID: jid, session: true}, nil
}

func sqlQuote(s string) string { return strings.ReplaceAll(s, "'", "''") }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func orUnknown(id string) string {
	if id == "" {
		return "not known yet (sync reads it from the JobManager)"
	}
	return id
}
