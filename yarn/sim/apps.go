package sim

import (
	"fmt"
	"math/rand/v2"
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

// Simulated durations of the application lifecycle. They are simulated
// time, so a fast clock shrinks them.
const (
	dNewSaving    = 200 * time.Millisecond
	dSubmitted    = 400 * time.Millisecond
	dAccepted     = 800 * time.Millisecond
	dAMRegistered = 3 * time.Second // ACCEPTED → RUNNING: container allocated, JM up
	dKill         = 1 * time.Second
	dShutdown     = 2 * time.Second  // job terminal → per-job cluster gone
	dResultGrace  = 60 * time.Second // longest a per-job JM waits for its stop result to be fetched
	dAfterFetch   = 1 * time.Second  // JM shutdown after the stop result was fetched
)

// yarnApps is the YARN side of the simulation: every application, in
// submission order, and its lifecycle (NEW … RUNNING, attempts, kill,
// deregistration, final states). Applications start and stop JobManagers
// and hand their jobs to the Flink side. It is guarded by the cluster lock.
type yarnApps struct {
	user   string             // the user of applications that name none
	nodes  int                // NodeManagers
	health map[int]nodeStatus // the nodes told not to be RUNNING (nodes.go)
	rng    *rand.Rand
	byID   map[string]*app
	order  []*app // by submission
	events *eventQueue
	ha     *rmHA // the active RM issues application ids
	flink  *flinkJobs
	jms    *jobManagers
	faults *injector
}

// add registers a.
func (y *yarnApps) add(a *app) {
	y.byID[a.id] = a
	y.order = append(y.order, a)
}

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
func (y *yarnApps) advance(a *app, now time.Time) {
	for len(a.events) > 0 && !a.events[0].at.After(now) {
		e := a.events[0]
		a.events = a.events[1:]
		for _, j := range a.jobs {
			y.flink.syncCheckpoints(j, e.at)
		}
		e.do(e.at)
	}
}

// get returns the app with id, advanced to now, or nil.
func (y *yarnApps) get(id string, now time.Time) *app {
	a := y.byID[id]
	if a != nil {
		y.advance(a, now)
	}
	return a
}

// newApp registers a NEW application and schedules its way to RUNNING.
func (y *yarnApps) newApp(now time.Time, r SubmitRequest) (*app, error) {
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
		return nil, fmt.Errorf("%w: submitted by user %s to unknown queue: %s", ErrInvalid, or(r.User, y.user), r.Queue)
	}
	rm := y.ha.activeRM()
	if rm == nil {
		return nil, fmt.Errorf("%w: no active ResourceManager", ErrState)
	}
	rm.appSeq++
	a := &app{
		seq:         rm.appSeq,
		id:          fmt.Sprintf("application_%d_%04d", rm.startMs, rm.appSeq),
		user:        or(r.User, y.user),
		queue:       r.Queue,
		appType:     or(r.Config["yarn.application.type"], "Apache Flink"),
		mode:        r.Mode,
		config:      map[string]string{},
		seed:        y.rng.Uint64(),
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
	y.add(a)
	y.events.schedule(a, now.Add(dNewSaving), func(time.Time) { a.state = yarnNewSaving })
	y.events.schedule(a, now.Add(dSubmitted), func(time.Time) { a.state = yarnSubmitted })
	y.events.schedule(a, now.Add(dAccepted), func(t time.Time) { y.startAttempt(a, t) })
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
func (y *yarnApps) startAttempt(a *app, now time.Time) {
	if yarnFinal(a.state) {
		return
	}
	n := len(a.attempts) + 1
	node := int(noise(a.seed, uint64(n))*float64(y.nodes)) % y.nodes
	at := &attempt{n: n, start: now, state: "SCHEDULED", node: node,
		container: containerID(a, n, 1)}
	a.attempts = append(a.attempts, at)
	a.state = yarnAccepted
	y.events.schedule(a, now.Add(dAMRegistered/3), func(time.Time) {
		if at.state == "SCHEDULED" {
			at.state = "LAUNCHED"
		}
	})
	y.events.schedule(a, now.Add(dAMRegistered), func(t time.Time) {
		if yarnFinal(a.state) || at.state != "LAUNCHED" || a.current() != at {
			return
		}
		at.state = "RUNNING"
		a.state = yarnRunning
		a.jmPending = true
		a.jars = nil
		y.flink.recoverJobs(a, t)
	})
}

func (a *app) current() *attempt {
	if len(a.attempts) == 0 {
		return nil
	}
	return a.attempts[len(a.attempts)-1]
}

// endApp moves the app to a final YARN state and takes its JM down.
func (y *yarnApps) endApp(a *app, now time.Time, state, final, diag string) {
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
			// recover it, but nobody will. Flink ran no cleanup (a YARN
			// kill or a dead AM gives it no chance), so the files of its
			// retained checkpoints stay whatever its retention says.
			j.setState(jobSuspended, now)
			j.end = now
		}
	}
	y.jms.stop(a)
}

// kill is YARN's kill: the app is KILLED a moment later, its JM gone.
func (y *yarnApps) kill(a *app, now time.Time) {
	if yarnFinal(a.state) || !a.killAt.IsZero() {
		return
	}
	a.killAt = now
	y.events.schedule(a, now.Add(dKill), func(t time.Time) {
		y.endApp(a, t, yarnKilled, finalKilled, "Application killed by user.")
	})
}

// failoverJM kills the current attempt's JobManager; YARN starts another
// attempt whose JobManager recovers the jobs (ZooKeeper HA).
func (y *yarnApps) failoverJM(a *app, now time.Time) error {
	at := a.current()
	if a.state != yarnRunning || at == nil {
		return fmt.Errorf("%w: application is %s, not RUNNING", ErrState, a.state)
	}
	at.state = "FAILED"
	y.jms.stop(a)
	for _, j := range a.jobs {
		if !flinkTerminal(j.state) {
			j.gen++ // cancels the job's pending transitions
		}
	}
	if len(a.attempts) >= a.maxAttempts {
		y.endApp(a, now, yarnFailed, finalFailed, fmt.Sprintf(
			"Application %s failed %d times due to AM Container for %s exited with  exitCode: 1\nFailing this attempt. Failing the application.",
			a.id, a.maxAttempts, attemptID(a, at.n)))
		return nil
	}
	a.diag = fmt.Sprintf("AM Container for %s exited with  exitCode: 1\nFailing this attempt.", attemptID(a, at.n))
	y.startAttempt(a, now)
	return nil
}

// shutdownAfterJob ends a per-job or application cluster once its job
// is terminal, the way Flink deregisters the AM. With waitForResult (the
// job ended by a stop or savepoint a client polls), the JobManager stays
// until the result was fetched (see resultFetched), at most dResultGrace.
func (y *yarnApps) shutdownAfterJob(a *app, now time.Time, waitForResult bool) {
	if a.mode == ModeSession {
		return
	}
	delay := dShutdown
	if waitForResult && !a.stopFetched {
		delay = dResultGrace
	}
	y.events.schedule(a, y.shutdownAt(a, now.Add(delay)), func(t time.Time) { y.deregister(a, t) })
}

// shutdownAt is when a per-job cluster deregisters, at the earliest at:
// with the stale-status fault its JobManager lingers (still listing the
// ended job as RUNNING) until that window has passed.
func (y *yarnApps) shutdownAt(a *app, at time.Time) time.Time {
	stale := y.faults.staleStatus()
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
func (y *yarnApps) deregister(a *app, now time.Time) {
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
	y.endApp(a, now, yarnFinished, final, diag)
}

// resultFetched is called when a client reads a completed operation that
// ends its job: the per-job cluster may go shortly after.
func (y *yarnApps) resultFetched(a *app, now time.Time) {
	if a.mode == ModeSession || a.stopFetched {
		return
	}
	a.stopFetched = true
	for _, j := range a.jobs {
		if !flinkTerminal(j.state) {
			return // it goes when the job ends (shutdownAfterJob)
		}
	}
	y.events.schedule(a, y.shutdownAt(a, now.Add(dAfterFetch)), func(t time.Time) { y.deregister(a, t) })
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

// pick returns a random app that satisfies ok, or nil.
func (y *yarnApps) pick(now time.Time, ok func(*app) bool) *app {
	var candidates []*app
	for _, a := range y.order {
		y.advance(a, now)
		if ok(a) {
			candidates = append(candidates, a)
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	return candidates[y.rng.IntN(len(candidates))]
}
