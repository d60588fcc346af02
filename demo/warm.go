package demo

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// The demo opens on a fleet that has lived an hour: the simulator and
// palink both run on a clock that starts an hour behind the wall clock
// and catches up in about a second. Everything in that hour is real — the
// jobs are submitted through the SQL Gateway, paused and killed by
// commands, failed inside Flink — and palink measures them as the clock
// steps through it, so the charts hold the hour the cluster went through.
const (
	past = time.Hour
	// warmJobs is how many of the fleet's jobs live the hour; the rest of
	// a large --managed fleet is created afterwards, in the background.
	warmJobs = 24
)

// createRest creates the jobs of a --managed fleet beyond the warm ones,
// the hour over: in batches, a transaction each, so that the whole fleet
// is listed at once. (Created while the hour is lived, thousands of jobs
// would make every read of the fleet in it slow.)
func (d *World) createRest(ctx context.Context, n int) []model.Job {
	if n <= warmJobs {
		return nil
	}
	start := time.Now()
	rs := make([]api.CreateJobRequest, 0, n-warmJobs)
	for i := warmJobs; i < n; i++ {
		rs = append(rs, jobRequest(i))
	}
	jobs, err := d.svc.CreateJobs(ctx, rs)
	if err != nil && ctx.Err() == nil {
		d.log.Error("demo: create the fleet", "err", err)
	}
	d.log.Info("demo: fleet created", "jobs", len(jobs), "took", time.Since(start).Round(time.Millisecond))
	return jobs
}

// deployRest queues the submissions of the jobs createRest created (the
// fleet's from warmJobs on, in order): all but the fleet's last job of n,
// which stays a draft.
func (d *World) deployRest(ctx context.Context, jobs []model.Job, n int) {
	for i, j := range jobs {
		if warmJobs+i == n-1 || ctx.Err() != nil {
			return
		}
		if _, err := d.svc.Act(ctx, api.ActionRequest{JobRef: j.ID, Kind: model.CmdSubmit, Issuer: "demo"}); err != nil && ctx.Err() == nil {
			d.log.Error("demo: deploy the fleet", "job", j.Name, "err", err)
			return
		}
	}
}

// event is what happens to whom in the hour, by job name, and when (how
// long before now).
type event struct {
	job    string
	before time.Duration
	what   string // pause, kill, savepoint, interrupt, fail, flap, strain, lag, diagnose; table (job: the catalog table)
}

// plan is the hour's events, in time order.
var plan = []event{
	// Two lookup joins with a cause to find (diagnoses).
	{"orders-enrich", 59 * time.Minute, "diagnose"},
	{"orders-enrich-2", 59 * time.Minute, "diagnose"},
	{"fraud-scoring", 58 * time.Minute, "strain"},
	{"payments-dedup-2", 57 * time.Minute, "lag"},
	// Four failures in a row: the policy restarts it three times within
	// its window, then gives up, and the job stays FAILED with Flink's
	// exceptions for someone to look at.
	{"orders-enrich-3", 55 * time.Minute, "flap"},
	{"payments-dedup", 50 * time.Minute, "pause"},
	{"clicks-to-hudi-2", 45 * time.Minute, "kill"},
	// The users table of the catalog gets its lookup cache: the jobs that
	// use it deploy it at their next restart.
	{"users", 40 * time.Minute, "table"},
	{"orders-enrich", 38 * time.Minute, "savepoint"},
	{"inventory-sync-2", 35 * time.Minute, "pause"},
	{"orders-enrich-2", 28 * time.Minute, "interrupt"},
	{"fraud-scoring-3", 25 * time.Minute, "kill"},
	{"inventory-sync", 15 * time.Minute, "interrupt"},
	{"user-features", 2 * time.Minute, "fail"},
}

// failing are the jobs that fail again after each policy restart once
// the demo is open, until the restart policy gives up on them.
var failing = map[string]bool{"user-features": true}

// timeoutException is what the demo's failing lookup join dies of.
const timeoutException = "java.util.concurrent.TimeoutException: Async function call has timed out."

// diagnoses give two lookup-join jobs of the demo a cause to find: a
// join that holds the source back, one hot key, a slow checkpoint part,
// and flame graphs to look at (vertex 1 is the join).
var diagnoses = map[string]sim.Diagnosis{
	"orders-enrich": {Bottleneck: 1, Pressure: 0.85, FlameGraphs: true},
	"orders-enrich-2": {Bottleneck: 1, Pressure: 0.7, SkewVertex: 1, SkewSubtask: 0, SkewFactor: 5,
		SlowVertex: 1, SlowSubtask: 2, SlowCheckpoint: 4 * time.Second, FlameGraphs: true},
}

// warm lives the fleet's hour: it creates and deploys the first jobs,
// then steps the clock to now, playing plan on the way and measuring
// every job at each step. It returns when the clock has caught up.
func (d *World) warm(ctx context.Context, n int) error {
	svc, clock := d.svc, d.clock
	start := time.Now()
	// The catalog, variables and UDF come first: jobs of the fleet use them.
	d.seedAssets(ctx, d.dir)
	warm := min(n, warmJobs)
	ids := make([]string, 0, warm)
	var submits []string
	for i := 0; i < warm; i++ {
		j, cmd, err := createJob(ctx, svc, i, i < n-1)
		if err != nil {
			return err
		}
		ids = append(ids, j.ID)
		if cmd != "" {
			submits = append(submits, cmd)
		}
	}
	// Deploys take the cluster some seconds: its clock moves two seconds
	// every few milliseconds until they are done.
	if err := d.whileRunning(ctx, 2*time.Second, func() error { return waitCommands(ctx, svc, submits) }); err != nil {
		return err
	}
	deployed := time.Since(start)
	// State sync takes the deployed jobs to RUNNING before the hour's
	// events look for running jobs.
	if _, err := svc.SyncOnce(ctx, 0); err != nil {
		return err
	}

	// The hour: a point every 90s (close enough for the charts to join
	// them at any width), then every 10s for the last three minutes (the
	// jobs table's sparklines show ten). While a command runs the clock moves two seconds at a
	// time, so that its steps take the time they would. State sync runs
	// while something happens (and now and then): it is what costs, and
	// nothing else changes a job.
	const client = "demo-warm-up"
	var (
		inflight sync.WaitGroup
		watching atomic.Int32 // events that wait on what state sync sees
	)
	defer inflight.Wait()
	todo := plan
	due := clock.Behind()
	for i := 0; clock.Behind() > 0 && ctx.Err() == nil; i++ {
		behind := clock.Behind()
		for len(todo) > 0 && todo[0].before >= behind {
			e := todo[0]
			todo = todo[1:]
			if e.what != "flap" {
				if err := d.play(ctx, e); err != nil && ctx.Err() == nil {
					d.log.Warn("demo: "+e.what, "job", e.job, "err", err)
				}
				continue
			}
			inflight.Add(1)
			watching.Add(1)
			go func() {
				defer inflight.Done()
				defer watching.Add(-1)
				if err := d.flap(ctx, e.job, 4); err != nil && ctx.Err() == nil {
					d.log.Warn("demo: flap", "job", e.job, "err", err)
				}
			}()
		}
		active := d.commandsRunning(ctx)
		switch {
		case behind <= due:
			if err := d.measure(ctx, client, ids, active || watching.Load() > 0 || i%10 == 0); err != nil {
				return err
			}
			every := 90 * time.Second
			if behind <= 3*time.Minute {
				every = 10 * time.Second
			}
			due = behind - every
		case active && i%5 == 0:
			if _, err := svc.SyncOnce(ctx, 0); err != nil && ctx.Err() == nil {
				d.log.Warn("demo: sync", "err", err)
			}
		}
		step := behind - due
		if active {
			step = min(step, 2*time.Second)
			time.Sleep(2 * time.Millisecond)
		}
		clock.Forward(step)
	}
	inflight.Wait()
	err := d.measure(ctx, client, ids, true)
	_ = svc.SetInterest(ctx, api.InterestRequest{Client: client})
	d.log.Info("demo: warm", "jobs", warm, "deployed", deployed.Round(time.Millisecond), "took", time.Since(start).Round(time.Millisecond))
	return err
}

// commandsRunning says whether a command is queued or running (a policy
// restart, say): state sync follows what it does.
func (d *World) commandsRunning(ctx context.Context) bool {
	cs, err := d.svc.Commands(ctx, api.CommandFilter{States: []model.CommandState{model.CmdUndo, model.CmdDoing, model.CmdUnknown}, Limit: 1})
	return err == nil && len(cs) > 0
}

// whileRunning moves the clock step every few milliseconds while f runs.
func (d *World) whileRunning(ctx context.Context, step time.Duration, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	for {
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
			d.clock.Forward(step)
		}
	}
}

// measure syncs every job, then measures the ones in ids as a client that
// shows them would have them measured, and judges the alert rules.
func (d *World) measure(ctx context.Context, client string, ids []string, sync bool) error {
	if !sync {
		return d.measureOnly(ctx, client, ids)
	}
	if _, err := d.svc.SyncOnce(ctx, 0); err != nil && ctx.Err() == nil {
		d.log.Warn("demo: sync", "err", err)
	}
	return d.measureOnly(ctx, client, ids)
}

func (d *World) measureOnly(ctx context.Context, client string, ids []string) error {
	if err := d.svc.SetInterest(ctx, api.InterestRequest{Client: client, Jobs: ids}); err != nil {
		return err
	}
	if _, err := d.svc.MeasureNow(ctx); err != nil && ctx.Err() == nil {
		d.log.Warn("demo: measure", "err", err)
	}
	return ctx.Err()
}

// jobRequest is the fleet's i-th job.
func jobRequest(i int) api.CreateJobRequest {
	t := fleet[i%len(fleet)]
	name := t.name
	if i >= len(fleet) {
		name = fmt.Sprintf("%s-%d", t.name, i/len(fleet)+1)
	}
	// Retained checkpoints, as production jobs keep them: a failed job's
	// newest checkpoints outlive it, so the restart policy restarts from
	// the newest palink saw, even when the job completed one or two more
	// before it died (they subsume older ones only beyond three).
	conf := map[string]string{"execution.checkpointing.externalized-checkpoint-retention": "RETAIN_ON_CANCELLATION",
		"execution.checkpointing.num-retained": "3"}
	return api.CreateJobRequest{Name: name, Cluster: Cluster, Kind: model.KindSQL,
		Spec: model.Spec{SQL: t.sql, Note: "demo"}, Parallelism: 1 + i%4, Config: conf}
}

// createJob creates the fleet's i-th job and, if submit, queues its
// submission (returning the command id).
func createJob(ctx context.Context, svc *core.Local, i int, submit bool) (model.Job, string, error) {
	j, err := svc.CreateJob(ctx, jobRequest(i))
	if err != nil || !submit {
		return j, "", err
	}
	cmd, err := svc.Act(ctx, api.ActionRequest{JobRef: j.ID, Kind: model.CmdSubmit, Issuer: "demo"})
	return j, cmd.ID, err
}

func waitCommands(ctx context.Context, svc *core.Local, ids []string) error {
	var errs []error
	for _, id := range ids {
		c, err := svc.WaitCommand(ctx, id)
		if err != nil {
			return err
		}
		if c.State != model.CmdSucceeded {
			errs = append(errs, fmt.Errorf("%s %s: %s", c.Kind, c.JobID, c.Error))
		}
	}
	return errors.Join(errs...)
}

// play makes one event of the hour happen, the way it would: commands
// through palink (queued, not waited for), failures and load inside the
// cluster.
func (d *World) play(ctx context.Context, e event) error {
	svc, c := d.svc, d.c
	if e.what == "table" {
		return d.putTable(ctx, tableEdit, false)
	}
	j, err := jobNamed(ctx, svc, e.job)
	if err != nil {
		return err
	}
	if j.State != model.StateRunning || j.AppID == "" {
		return fmt.Errorf("is %s, not running", j.State)
	}
	kind := map[string]model.CommandKind{"pause": model.CmdPause, "kill": model.CmdKill, "savepoint": model.CmdSavepoint}
	switch e.what {
	case "interrupt":
		return c.InterruptJob(j.AppID)
	case "fail":
		_, err := c.FailJobAs(j.AppID, sim.Failure{Cause: timeoutException})
		return err
	case "diagnose":
		return c.Diagnose(j.AppID, diagnoses[e.job])
	case "strain":
		return c.StrainJob(j.AppID, sim.Strain{Pressure: 0.97})
	case "lag":
		return c.StrainJob(j.AppID, sim.Strain{Lag: 4_000_000})
	}
	// The command runs in the background; the hour's loop sees it and
	// lets the clock move in small steps until it is done.
	_, err = svc.Act(ctx, api.ActionRequest{JobRef: j.ID, Kind: kind[e.what], Issuer: "demo"})
	return err
}

// jobNamed is the fleet's job called name.
func jobNamed(ctx context.Context, svc *core.Local, name string) (api.JobView, error) {
	jobs, err := svc.ListJobs(ctx, api.JobFilter{Name: name})
	if err != nil {
		return api.JobView{}, err
	}
	for _, j := range jobs {
		if j.Name == name {
			return j, nil
		}
	}
	return api.JobView{}, fmt.Errorf("no job %s", name)
}

// flap fails a job n times, each time the policy has it running again, or
// until the hour is over.
func (d *World) flap(ctx context.Context, name string, n int) error {
	var j api.JobView
	tries := 0
	for app := ""; n > 0; {
		for j.State != model.StateRunning || j.AppID == app {
			if d.clock.Behind() == 0 {
				return fmt.Errorf("%d failures left when the hour ended (it is %s)", n, j.State)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(10 * time.Millisecond):
			}
			var err error
			if j, err = jobNamed(ctx, d.svc, name); err != nil {
				return err
			}
		}
		// At the checkpoint palink knows of, so that the policy's restart
		// finds it (a newer one would subsume and delete it as the job
		// dies); once palink's sync has trailed the simulator's
		// checkpoints for a while, at whatever the job has.
		known := ""
		if j.LatestCheckpoint != nil {
			known = j.LatestCheckpoint.Path
		}
		failed, err := d.c.FailJobAs(j.AppID, sim.Failure{OnlyAt: true, At: known})
		if err != nil {
			return err
		}
		if !failed && tries < 50 {
			// palink's sync has not seen the newest checkpoint yet: a
			// cycle now, then the job as it has it.
			tries++
			if _, err := d.svc.SyncOnce(ctx, 0); err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			if j, err = jobNamed(ctx, d.svc, name); err != nil {
				return err
			}
			continue
		}
		if !failed {
			if err := d.c.FailJob(j.AppID); err != nil {
				return err
			}
		}
		app, tries = j.AppID, 0
		n--
	}
	return nil
}
