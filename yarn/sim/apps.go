package sim

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// YARN application states (YarnApplicationState) and final statuses.
const (
	yarnNew       = "NEW"
	yarnNewSaving = "NEW_SAVING"
	yarnSubmitted = "SUBMITTED"
	yarnAccepted  = "ACCEPTED"
	yarnRunning   = "RUNNING"
	yarnFinished  = "FINISHED"
	yarnFailed    = "FAILED"
	yarnKilled    = "KILLED"

	finalUndefined = "UNDEFINED"
	finalSucceeded = "SUCCEEDED"
	finalFailed    = "FAILED"
	finalKilled    = "KILLED"
)

var yarnStates = []string{yarnNew, yarnNewSaving, yarnSubmitted, yarnAccepted, yarnRunning, yarnFinished, yarnFailed, yarnKilled}

func yarnFinal(s string) bool { return s == yarnFinished || s == yarnFailed || s == yarnKilled }

// Flink job states (JobStatus).
const (
	jobInitializing = "INITIALIZING"
	jobCreated      = "CREATED"
	jobRunning      = "RUNNING"
	jobFailing      = "FAILING"
	jobFailed       = "FAILED"
	jobCancelling   = "CANCELLING"
	jobCanceled     = "CANCELED"
	jobFinished     = "FINISHED"
	jobRestarting   = "RESTARTING"
	jobSuspended    = "SUSPENDED"
)

// flinkTerminal reports a globally terminal job state.
func flinkTerminal(s string) bool { return s == jobFailed || s == jobCanceled || s == jobFinished }

// Simulated durations of the lifecycle. They are simulated time, so a fast
// clock shrinks them.
const (
	dNewSaving      = 200 * time.Millisecond
	dSubmitted      = 400 * time.Millisecond
	dAccepted       = 800 * time.Millisecond
	dAMRegistered   = 3 * time.Second // ACCEPTED → RUNNING: container allocated, JM up
	dJobCreated     = 1 * time.Second // INITIALIZING → CREATED
	dJobRunning     = 1 * time.Second // CREATED → RUNNING
	dCancel         = 500 * time.Millisecond
	dSavepoint      = 1200 * time.Millisecond
	dRestartDelay   = 1 * time.Second
	dRefail         = 2 * time.Second // a fatally failing job fails again this long after a restart
	dFailing        = 300 * time.Millisecond
	dKill           = 1 * time.Second
	dShutdown       = 2 * time.Second  // job terminal → per-job cluster gone
	dResultGrace    = 60 * time.Second // longest a per-job JM waits for its stop result to be fetched
	dAfterFetch     = 1 * time.Second  // JM shutdown after the stop result was fetched
	historySize     = 10               // web.checkpoints.history
	defaultAttempts = 3                // restart-strategy.fixed-delay.attempts
)

// app is one YARN application.
type app struct {
	id      string
	seq     int
	name    string
	user    string
	queue   string
	appType string
	tags    []string
	mode    string // ModePerJob, ModeApplication or ModeSession
	config  map[string]string
	seed    uint64

	state       string
	final       string
	diag        string
	submitted   time.Time // startedTime
	finished    time.Time
	maxAttempts int
	attempts    []*attempt
	jm          *jobManager // nil while no JobManager runs
	jmPending   bool        // a JobManager should run but its listener is not open yet (lazy)
	jobs        []*job
	jars        []*jar
	events      []*event // pending, ordered by time
	killAt      time.Time
	// stopFetchedAt is when a client first read a completed stop/cancel
	// result of a per-job cluster; its JM then shuts down shortly after.
	stopFetched bool
}

type attempt struct {
	n         int
	start     time.Time
	state     string // RMAppAttemptState
	node      int
	container string
}

// advance applies the app's events due at now, in order. Checkpoints of
// running jobs are brought up to each event's time first, so that an event
// sees the checkpoints that completed before it.
func (c *Cluster) advance(a *app, now time.Time) {
	for len(a.events) > 0 && !a.events[0].at.After(now) {
		e := a.events[0]
		a.events = a.events[1:]
		for _, j := range a.jobs {
			c.syncCheckpoints(j, e.at)
		}
		e.do(e.at)
	}
}

// tick runs due events of every app and the periodic faults. The
// scheduler goroutine calls it; it is the only per-tick work, and it is
// proportional to the events due, not to the number of apps.
func (c *Cluster) tick() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	now := c.clock.Now()
	for a := c.events.next(now); a != nil; a = c.events.next(now) {
		c.advance(a, now)
	}
	c.periodicFaults(now)
	if now.Sub(c.lastSweep) > time.Minute {
		// Sessions nobody closed expire like the gateway's idle timeout.
		c.lastSweep = now
		for h, s := range c.sessions {
			if now.Sub(s.lastAccess) > sessionIdle {
				delete(c.sessions, h)
			}
		}
	}
}

// scheduler drives time forward for apps nobody reads.
func (c *Cluster) scheduler() {
	defer c.wg.Done()
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
			c.tick()
		}
	}
}

// appLocked returns the app with id, advanced to now.
func (c *Cluster) appLocked(id string, now time.Time) *app {
	a := c.apps[id]
	if a != nil {
		c.advance(a, now)
	}
	return a
}

// newApp registers a NEW application and schedules its way to RUNNING.
func (c *Cluster) newApp(now time.Time, r SubmitRequest) (*app, error) {
	if r.Mode == "" {
		r.Mode = ModePerJob
	}
	switch r.Mode {
	case ModePerJob, ModeApplication, ModeSession:
	default:
		return nil, fmt.Errorf("%w: deployment mode %q (want %s, %s or %s)", ErrInvalid, r.Mode, ModePerJob, ModeApplication, ModeSession)
	}
	if r.Queue == "" {
		r.Queue = "default"
	}
	if !leafQueue(r.Queue) {
		return nil, fmt.Errorf("%w: submitted by user %s to unknown queue: %s", ErrInvalid, or(r.User, c.opts.User), r.Queue)
	}
	rm := c.ha.activeRM()
	if rm == nil {
		return nil, fmt.Errorf("%w: no active ResourceManager", ErrState)
	}
	rm.appSeq++
	a := &app{
		seq:         rm.appSeq,
		id:          fmt.Sprintf("application_%d_%04d", rm.startMs, rm.appSeq),
		user:        or(r.User, c.opts.User),
		queue:       r.Queue,
		appType:     or(r.Config["yarn.application.type"], "Apache Flink"),
		mode:        r.Mode,
		config:      map[string]string{},
		seed:        c.rng.Uint64(),
		state:       yarnNew,
		final:       finalUndefined,
		submitted:   now,
		maxAttempts: 10,
	}
	for k, v := range r.Config {
		a.config[k] = v
	}
	if n, err := strconv.Atoi(a.config["yarn.application-attempts"]); err == nil && n > 0 {
		a.maxAttempts = n
	}
	a.name = firstNonEmpty(r.Name, r.JobName, defaultAppName(r.Mode))
	// YARN lower-cases tags at submission (ApplicationSubmissionContext).
	for _, t := range r.Tags {
		if t = strings.ToLower(strings.TrimSpace(t)); t != "" {
			a.tags = append(a.tags, t)
		}
	}
	c.apps[a.id] = a
	c.order = append(c.order, a)
	c.events.schedule(a, now.Add(dNewSaving), func(time.Time) { a.state = yarnNewSaving })
	c.events.schedule(a, now.Add(dSubmitted), func(time.Time) { a.state = yarnSubmitted })
	c.events.schedule(a, now.Add(dAccepted), func(t time.Time) { c.startAttempt(a, t) })
	return a, nil
}

func defaultAppName(mode string) string {
	switch mode {
	case ModeSession:
		return "Flink session cluster"
	case ModeApplication:
		return "Flink Application Cluster"
	}
	return "Flink per-job cluster"
}

// startAttempt makes a new attempt: the app is ACCEPTED until the AM (the
// JobManager) registers, then RUNNING.
func (c *Cluster) startAttempt(a *app, now time.Time) {
	if yarnFinal(a.state) {
		return
	}
	n := len(a.attempts) + 1
	node := int(noise(a.seed, uint64(n))*float64(c.nodes)) % c.nodes
	at := &attempt{n: n, start: now, state: "SCHEDULED", node: node,
		container: containerID(a, n, 1)}
	a.attempts = append(a.attempts, at)
	a.state = yarnAccepted
	c.events.schedule(a, now.Add(dAMRegistered/3), func(time.Time) {
		if at.state == "SCHEDULED" {
			at.state = "LAUNCHED"
		}
	})
	c.events.schedule(a, now.Add(dAMRegistered), func(t time.Time) {
		if yarnFinal(a.state) || at.state != "LAUNCHED" || a.current() != at {
			return
		}
		at.state = "RUNNING"
		a.state = yarnRunning
		a.jmPending = true
		a.jars = nil
		c.recoverJobs(a, t)
	})
}

func (a *app) current() *attempt {
	if len(a.attempts) == 0 {
		return nil
	}
	return a.attempts[len(a.attempts)-1]
}

func containerID(a *app, attempt, n int) string {
	ts := strings.TrimPrefix(a.id, "application_")
	parts := strings.SplitN(ts, "_", 2)
	return fmt.Sprintf("container_e%02d_%s_%s_%02d_%06d", 1, parts[0], parts[1], attempt, n)
}

// endApp moves the app to a final YARN state and takes its JM down.
func (c *Cluster) endApp(a *app, now time.Time, state, final, diag string) {
	if yarnFinal(a.state) {
		return
	}
	a.state, a.final, a.finished = state, final, now
	if diag != "" {
		a.diag = diag
	}
	if at := a.current(); at != nil {
		switch state {
		case yarnKilled:
			at.state = "KILLED"
		case yarnFailed:
			at.state = "FAILED"
		default:
			at.state = "FINISHED"
		}
	}
	for _, j := range a.jobs {
		if !flinkTerminal(j.state) {
			// The JobManager is gone with the job still live: HA would
			// recover it, but nobody will.
			j.setState(jobSuspended, now)
			j.end = now
		}
	}
	c.jms.stop(a)
}

// kill is YARN's kill: the app is KILLED a moment later, its JM gone.
func (c *Cluster) kill(a *app, now time.Time) {
	if yarnFinal(a.state) || !a.killAt.IsZero() {
		return
	}
	a.killAt = now
	c.events.schedule(a, now.Add(dKill), func(t time.Time) {
		c.endApp(a, t, yarnKilled, finalKilled, "Application killed by user.")
	})
}

// failoverJM kills the current attempt's JobManager; YARN starts another
// attempt whose JobManager recovers the jobs (ZooKeeper HA).
func (c *Cluster) failoverJM(a *app, now time.Time) error {
	at := a.current()
	if a.state != yarnRunning || at == nil {
		return fmt.Errorf("%w: application is %s, not RUNNING", ErrState, a.state)
	}
	at.state = "FAILED"
	c.jms.stop(a)
	for _, j := range a.jobs {
		if !flinkTerminal(j.state) {
			j.gen++ // cancels the job's pending transitions
		}
	}
	if len(a.attempts) >= a.maxAttempts {
		c.endApp(a, now, yarnFailed, finalFailed, fmt.Sprintf(
			"Application %s failed %d times due to AM Container for %s exited with  exitCode: 1\nFailing this attempt. Failing the application.",
			a.id, a.maxAttempts, attemptID(a, at.n)))
		return nil
	}
	a.diag = fmt.Sprintf("AM Container for %s exited with  exitCode: 1\nFailing this attempt.", attemptID(a, at.n))
	c.startAttempt(a, now)
	return nil
}

func attemptID(a *app, n int) string {
	return fmt.Sprintf("appattempt_%s_%06d", strings.TrimPrefix(a.id, "application_"), n)
}

// appShutdownAfterJob ends a per-job or application cluster once its job
// is terminal, the way Flink deregisters the AM. With waitForResult (the
// job ended by a stop or savepoint a client polls), the JobManager stays
// until the result was fetched (see resultFetched), at most dResultGrace.
func (c *Cluster) appShutdownAfterJob(a *app, now time.Time, waitForResult bool) {
	if a.mode == ModeSession {
		return
	}
	delay := dShutdown
	if waitForResult && !a.stopFetched {
		delay = dResultGrace
	}
	c.events.schedule(a, c.shutdownAt(a, now.Add(delay)), func(t time.Time) { c.deregister(a, t) })
}

// shutdownAt is when a per-job cluster deregisters, at the earliest at:
// with the stale-status fault its JobManager lingers (still listing the
// ended job as RUNNING) until that window has passed.
func (c *Cluster) shutdownAt(a *app, at time.Time) time.Time {
	stale := c.faults.staleStatus()
	if stale <= 0 {
		return at
	}
	for _, j := range a.jobs {
		if !j.end.IsZero() && j.end.Add(stale).After(at) {
			at = j.end.Add(stale)
		}
	}
	return at
}

// deregister ends the app with the final status its jobs call for.
func (c *Cluster) deregister(a *app, now time.Time) {
	final, diag := finalSucceeded, ""
	for _, j := range a.jobs {
		switch j.state {
		case jobCanceled:
			final = finalKilled
		case jobFailed:
			final = finalFailed
			diag = "Flink job " + j.id + " reached state FAILED.\n" + j.rootCause()
		}
	}
	c.endApp(a, now, yarnFinished, final, diag)
}

// resultFetched is called when a client reads a completed operation that
// ends its job: the per-job cluster may go shortly after.
func (c *Cluster) resultFetched(a *app, now time.Time) {
	if a.mode == ModeSession || a.stopFetched {
		return
	}
	a.stopFetched = true
	for _, j := range a.jobs {
		if !flinkTerminal(j.state) {
			return // it goes when the job ends (appShutdownAfterJob)
		}
	}
	c.events.schedule(a, c.shutdownAt(a, now.Add(dAfterFetch)), func(t time.Time) { c.deregister(a, t) })
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// hex32 returns a new 32-hex-digit id (Flink's JobID, TriggerId, JobVertexID).
func (c *Cluster) hex32() string {
	return fmt.Sprintf("%016x%016x", c.rng.Uint64(), c.rng.Uint64())
}
