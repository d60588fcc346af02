package sim

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// App is a snapshot of one YARN application and its Flink jobs.
type App struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Type        string   `json:"type"` // applicationType, "Apache Flink" for Flink
	User        string   `json:"user"`
	Queue       string   `json:"queue"`
	Tags        []string `json:"tags,omitempty"`
	State       string   `json:"state"`       // YARN state: NEW … ACCEPTED, RUNNING, FINISHED, FAILED, KILLED
	FinalStatus string   `json:"finalStatus"` // UNDEFINED, SUCCEEDED, FAILED, KILLED
	Diagnostics string   `json:"diagnostics,omitempty"`
	// Mode is ModePerJob, ModeApplication or ModeSession ("" for non-Flink apps).
	Mode string `json:"mode,omitempty"`
	// Attempt is the current application attempt number (1, 2 after a JM failover, …).
	Attempt int `json:"attempt"`
	// JMAddress is the JobManager REST host:port (YARN's amRPCAddress), ""
	// while no JobManager runs.
	JMAddress string `json:"jmAddress,omitempty"`
	// TrackingURL is the active RM's trackingUrl ("" while UNASSIGNED).
	TrackingURL string    `json:"trackingUrl,omitempty"`
	StartedAt   time.Time `json:"startedAt"`
	FinishedAt  time.Time `json:"finishedAt,omitzero"`
	Jobs        []Job     `json:"jobs,omitempty"`
	// Disposals are the savepoint disposals its dispatcher did, oldest first.
	Disposals []Disposal `json:"disposals,omitempty"`
}

// Job is a snapshot of one Flink job.
type Job struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	State string `json:"state"` // Flink JobStatus: INITIALIZING, CREATED, RUNNING, RESTARTING, FINISHED, …; SUSPENDED once its JobManager is gone
	// Restarts is Flink's numRestarts (of the current JobManager).
	Restarts int `json:"restarts"`
	// RestoredFrom is the path the job last restored from ("" for none).
	RestoredFrom string `json:"restoredFrom,omitempty"`
	// EntryClass is the program's main class (PythonDriver for PyFlink).
	EntryClass string `json:"entryClass,omitempty"`
	// Python is the PyFlink program a `flink run -py`/`-pym` submitted.
	Python *PythonProgram `json:"python,omitempty"`
	// CompletedCheckpoints counts completed checkpoints and savepoints of
	// the current JobManager (Flink's counts.completed).
	CompletedCheckpoints int64 `json:"completedCheckpoints"`
	// LatestCheckpoint is the external path of the newest completed checkpoint.
	LatestCheckpoint string `json:"latestCheckpoint,omitempty"`
	// Savepoints are the paths of the job's completed savepoints, oldest first.
	Savepoints []string `json:"savepoints,omitempty"`
	// Retained are the paths of the checkpoints Flink retains for the job
	// now, oldest first: what the simulated HDFS still holds of them (the
	// num-retained newest while it runs; after it ended, what its
	// retention kept).
	Retained  []string  `json:"retained,omitempty"`
	StartedAt time.Time `json:"startedAt"`
	EndedAt   time.Time `json:"endedAt,omitzero"`
}

// Deployment modes of SubmitRequest.Mode, named like Flink's execution.target.
const (
	ModePerJob      = "yarn-per-job"
	ModeApplication = "yarn-application"
	ModeSession     = "yarn-session"
)

// SubmitRequest starts an application the way `flink run -t yarn-per-job`
// (or -t yarn-application, or yarn-session.sh for Mode ModeSession) would.
type SubmitRequest struct {
	// Mode is ModePerJob (default), ModeApplication or ModeSession.
	Mode string `json:"mode,omitempty"`
	// Name is the YARN application name (yarn.application.name). Defaults to
	// JobName, then to Flink's own default for the mode.
	Name string `json:"name,omitempty"`
	// JobName is the Flink job name (pipeline.name). Defaults to Name, then
	// to the entry class. Ignored for sessions.
	JobName string   `json:"jobName,omitempty"`
	Queue   string   `json:"queue,omitempty"` // default "default"
	User    string   `json:"user,omitempty"`  // default Options.User
	Tags    []string `json:"tags,omitempty"`  // yarn.tags
	// SavepointPath makes the job restore from a savepoint or retained
	// checkpoint (execution.savepoint.path).
	SavepointPath         string   `json:"savepointPath,omitempty"`
	AllowNonRestoredState bool     `json:"allowNonRestoredState,omitempty"`
	Parallelism           int      `json:"parallelism,omitempty"`
	Jar                   string   `json:"jar,omitempty"`
	EntryClass            string   `json:"entryClass,omitempty"`
	Args                  []string `json:"args,omitempty"`
	// Python makes the job a PyFlink program (`flink run -py`/`-pym`):
	// Flink runs it through PythonDriver, Jar and EntryClass stay empty.
	Python *PythonProgram `json:"python,omitempty"`
	// Config holds any other Flink options; explicit fields above win.
	Config map[string]string `json:"config,omitempty"`
	// SessionApp submits the program into that running session cluster
	// instead of a new application (`flink run -t yarn-session
	// -Dyarn.application.id=…`: the client compiles the program and posts
	// the job graph to the session's JobManager). JobID is the job's fixed
	// id ($internal.pipeline.job-id), "" for a random one.
	SessionApp string `json:"sessionApp,omitempty"`
	JobID      string `json:"jobId,omitempty"`
}

// PythonDriver is the entry class Flink's client runs a PyFlink program with.
const PythonDriver = "org.apache.flink.client.python.PythonDriver"

// PythonProgram is what `flink run` was given for a PyFlink job: the entry
// script (-py) or module (-pym), and the options that become the python.*
// settings of the job.
type PythonProgram struct {
	Script       string   `json:"script,omitempty"` // -py: the entry script's file name
	Module       string   `json:"module,omitempty"` // -pym
	Files        []string `json:"files,omitempty"`  // -pyfs → python.files
	Requirements string   `json:"requirements,omitempty"`
	Archives     []string `json:"archives,omitempty"`
	Executable   string   `json:"executable,omitempty"`
}

// Submitted names what Submit created. JobID is "" for a session cluster.
type Submitted struct {
	AppID string `json:"appId"`
	JobID string `json:"jobId,omitempty"`
}

// Submit creates a new YARN application (and its Flink job unless Mode is
// ModeSession). The application goes NEW → … → ACCEPTED → RUNNING over the
// next simulated seconds; the ids are known at once, as `flink run` prints
// them.
func (c *Cluster) Submit(ctx context.Context, r SubmitRequest) (Submitted, error) {
	if err := ctx.Err(); err != nil {
		return Submitted{}, fmt.Errorf("submit %q: %w", r.Name, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return Submitted{}, fmt.Errorf("submit %q: %w", r.Name, ErrClosed)
	}
	now := c.clock.Now()
	conf := map[string]string{}
	for k, v := range r.Config {
		conf[k] = v
	}
	if py := r.Python; py != nil && (py.Script == "") == (py.Module == "") {
		return Submitted{}, fmt.Errorf("submit %q: %w: a python program needs one of a script (-py) or a module (-pym)", r.Name, ErrInvalid)
	}
	if r.SessionApp != "" {
		out, err := c.flink.submitToSession(r, conf, now)
		if err == nil {
			c.opts.Logf("sim: submitted job %s to session %s", out.JobID, out.AppID)
		}
		return out, err
	}
	var perr error
	if r.Python == nil && r.Jar != "" && r.Mode != ModeSession {
		perr = checkJarFile(r.Jar, r.EntryClass)
		if perr != nil && r.Mode != ModeApplication {
			return Submitted{}, perr // the client builds a per-job program: nothing is deployed
		}
	}
	a, err := c.yarn.newApp(now, r)
	if err != nil {
		return Submitted{}, fmt.Errorf("submit %q: %w", r.Name, err)
	}
	out := Submitted{AppID: a.id}
	if perr != nil {
		c.yarn.failApplication(a, now, perr)
		c.opts.Logf("sim: submitted %s (%s), whose program fails: %s", a.id, a.mode, strings.SplitN(perr.Error(), "\n", 2)[0])
		return out, nil
	}
	if a.mode != ModeSession {
		entry := r.EntryClass
		if py := r.Python; py != nil {
			entry = PythonDriver
			setPythonConfig(conf, py)
		}
		name := firstNonEmpty(r.JobName, conf["pipeline.name"], r.Name, entry[strings.LastIndex(entry, ".")+1:])
		j := c.flink.addJob(a, jobSpec{name: name, entryClass: entry, python: r.Python, parallelism: r.Parallelism, config: conf,
			restorePath:      firstNonEmpty(r.SavepointPath, conf["execution.state-recovery.path"], conf["execution.savepoint.path"]),
			allowNonRestored: r.AllowNonRestoredState}, now)
		out.JobID = j.id
	}
	c.opts.Logf("sim: submitted %s (%s) %s", a.id, a.mode, out.JobID)
	return out, nil
}

// setPythonConfig records a PyFlink program's options under the settings
// Flink's client turns them into (PythonOptions).
func setPythonConfig(conf map[string]string, py *PythonProgram) {
	if len(py.Files) > 0 {
		conf["python.files"] = strings.Join(py.Files, ",")
	}
	if py.Requirements != "" {
		conf["python.requirements"] = py.Requirements
	}
	if len(py.Archives) > 0 {
		conf["python.archives"] = strings.Join(py.Archives, ",")
	}
	if py.Executable != "" {
		conf["python.executable"] = py.Executable
	}
}

// Apps returns a snapshot of every application, oldest first.
func (c *Cluster) Apps() []App {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clock.Now()
	out := make([]App, 0, len(c.yarn.order))
	for _, a := range c.yarn.order {
		c.yarn.advance(a, now)
		out = append(out, c.snapshot(a, now))
	}
	return out
}

// App returns a snapshot of one application.
func (c *Cluster) App(id string) (App, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clock.Now()
	a := c.yarn.get(id, now)
	if a == nil {
		return App{}, fmt.Errorf("app %s: %w", id, ErrNotFound)
	}
	return c.snapshot(a, now), nil
}

func (c *Cluster) snapshot(a *app, now time.Time) App {
	out := App{ID: a.id, Name: a.name, Type: a.appType, User: a.user, Queue: a.queue,
		Tags: append([]string(nil), a.tags...), State: a.state, FinalStatus: a.final, Diagnostics: a.diag,
		Mode: a.mode, Attempt: len(a.attempts), StartedAt: a.submitted, FinishedAt: a.finished}
	if a.state == yarnRunning {
		if jm := c.jms.ensure(a); jm != nil {
			out.JMAddress = jm.addr
		}
		if rm := c.ha.activeRM(); rm != nil {
			out.TrackingURL = rm.url + "/proxy/" + a.id + "/"
		}
	} else if yarnFinal(a.state) {
		if rm := c.ha.activeRM(); rm != nil {
			out.TrackingURL = rm.url + "/cluster/app/" + a.id
		}
	}
	out.Disposals = c.flink.disposals.of(a.id)
	for _, j := range a.jobs {
		c.flink.syncCheckpoints(j, now)
		sj := Job{ID: j.id, Name: j.name, State: j.state, Restarts: j.restarts, RestoredFrom: j.restoredFrom,
			EntryClass: j.entryClass, Python: j.python,
			CompletedCheckpoints: j.ck.completed, Savepoints: append([]string(nil), j.savepoints...),
			StartedAt: j.start, EndedAt: j.end}
		if j.ck.latest != nil {
			sj.LatestCheckpoint = j.ck.latest.path
		}
		for _, cp := range j.ck.kept {
			sj.Retained = append(sj.Retained, cp.path)
		}
		out.Jobs = append(out.Jobs, sj)
	}
	return out
}

// resolveJob finds a job by Flink job id, or an app's newest live job.
func (c *Cluster) resolveJob(ref string, now time.Time) (*job, error) {
	if j, ok := c.flink.byID[ref]; ok {
		c.yarn.advance(j.app, now)
		return j, nil
	}
	a := c.yarn.get(ref, now)
	if a == nil {
		return nil, fmt.Errorf("%w: no application or job %s", ErrNotFound, ref)
	}
	for i := len(a.jobs) - 1; i >= 0; i-- {
		if !flinkTerminal(a.jobs[i].state) {
			return a.jobs[i], nil
		}
	}
	return nil, fmt.Errorf("%w: application %s has no live job", ErrState, ref)
}

// FailJob makes a Flink job fail for good: Flink restarts it (RESTARTING,
// numRestarts grows) until its restart strategy gives up
// (restart-strategy.fixed-delay.attempts, default 3), then the job is
// FAILED with its exceptions recorded and, in a per-job or application
// cluster, the YARN application ends: state FINISHED, final status FAILED,
// as when Flink deregisters after a failed job. ref is an application id
// (its newest live job) or a Flink job id.
func (c *Cluster) FailJob(ref string) error { return c.fail(ref, true, "fail job", "") }

// Failure says how FailJobAs fails a job.
type Failure struct {
	// Cause is "class: message" as Java prints it (e.g.
	// "java.util.concurrent.TimeoutException: Async function call has
	// timed out."), wrapped as Flink wraps it; "" for the sim's own.
	Cause string
	// OnlyAt fails the job only while its newest completed checkpoint is
	// At ("" for none): a story that fails a job at a checkpoint its
	// watcher has seen, so that it is not subsumed and deleted under it.
	OnlyAt bool
	At     string
}

// FailJobAs is FailJob as f says; false, and nothing done, when f.OnlyAt
// and a checkpoint newer than f.At completed.
func (c *Cluster) FailJobAs(ref string, f Failure) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clock.Now()
	j, err := c.resolveJob(ref, now)
	if err != nil {
		return false, fmt.Errorf("fail job %s: %w", ref, err)
	}
	c.flink.syncCheckpoints(j, now)
	if f.OnlyAt {
		cur := ""
		if j.ck.latest != nil {
			cur = j.ck.latest.path
		}
		if cur != f.At {
			return false, nil
		}
	}
	return true, failLocked(c, j, ref, now, true, "fail job", f.Cause)
}

// InterruptJob makes a Flink job fail once: it goes RESTARTING and recovers
// from its latest checkpoint. ref is as for FailJob.
func (c *Cluster) InterruptJob(ref string) error { return c.fail(ref, false, "interrupt job", "") }

// Strain is load on a job, as when its input outruns it.
type Strain struct {
	// Pressure in [0,1] is how hard the job's bottleneck is pushed at least:
	// near 1 it is busy all the time, the vertices upstream of it are
	// backpressured, its watermark falls behind and so do its Kafka sources.
	Pressure float64
	// Lag is records the Kafka sources fall behind besides, without
	// backpressure: a burst of input the job has not read yet.
	Lag float64
}

// StrainJob puts load on a running job (ref as for FailJob) until it ends;
// a zero Strain lifts it.
func (c *Cluster) StrainJob(ref string, s Strain) error {
	if s.Pressure < 0 || s.Pressure > 1 || s.Lag < 0 {
		return fmt.Errorf("strain job %s: pressure %g must be within 0..1 and lag %g not negative", ref, s.Pressure, s.Lag)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	j, err := c.resolveJob(ref, c.clock.Now())
	if err != nil {
		return fmt.Errorf("strain job %s: %w", ref, err)
	}
	j.strain = s
	return nil
}

func (c *Cluster) fail(ref string, fatal bool, op, cause string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clock.Now()
	j, err := c.resolveJob(ref, now)
	if err != nil {
		return fmt.Errorf("%s %s: %w", op, ref, err)
	}
	c.flink.syncCheckpoints(j, now)
	return failLocked(c, j, ref, now, fatal, op, cause)
}

// failLocked fails the running job j; c.mu is held.
func failLocked(c *Cluster, j *job, ref string, now time.Time, fatal bool, op, cause string) error {
	if j.state != jobRunning {
		return fmt.Errorf("%s %s: %w: job %s is %s, not RUNNING", op, ref, ErrState, j.id, j.state)
	}
	if fatal && cause != "" && j.failUntil > 0 {
		cause = "" // it already fails for good: with its own cause
	}
	c.flink.failJob(j, now, fatal, cause)
	return nil
}

// FailoverJM kills the application's JobManager: YARN starts a new
// attempt (the app is ACCEPTED meanwhile), whose JobManager listens on a
// new port (amRPCAddress changes) and recovers the jobs from their latest
// checkpoints. After yarn.application-attempts (default 10) the app FAILS.
func (c *Cluster) FailoverJM(appID string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clock.Now()
	a := c.yarn.get(appID, now)
	if a == nil {
		return fmt.Errorf("fail over JobManager of %s: %w", appID, ErrNotFound)
	}
	for _, j := range a.jobs {
		c.flink.syncCheckpoints(j, now)
	}
	if err := c.yarn.failoverJM(a, now); err != nil {
		return fmt.Errorf("fail over JobManager of %s: %w", appID, err)
	}
	return nil
}

// KillApp kills an application as `yarn application -kill` does: it is
// KILLED a simulated second later and its JobManager is gone.
func (c *Cluster) KillApp(appID string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clock.Now()
	a := c.yarn.get(appID, now)
	if a == nil {
		return fmt.Errorf("kill %s: %w", appID, ErrNotFound)
	}
	if yarnFinal(a.state) {
		return fmt.Errorf("kill %s: %w: application is already %s", appID, ErrState, a.state)
	}
	c.yarn.kill(a, now)
	return nil
}

// FailoverRM makes the next ResourceManager the active one and the others
// standbys, and returns its index. With a single RM it is a no-op.
func (c *Cluster) FailoverRM() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.ha.rms) < 2 {
		return c.ha.active
	}
	i := c.ha.failover()
	c.opts.Logf("sim: RM failover: rm%d is active", i+1)
	return i
}

// SetActiveRM makes RM i (0-based) active and the others standbys; -1
// leaves no RM active, as in the middle of a failover.
func (c *Cluster) SetActiveRM(i int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.ha.rms)
	if n == 0 {
		n = c.opts.RMs
	}
	if i < -1 || i >= n {
		return fmt.Errorf("set active RM %d: %w: have %d RMs", i, ErrInvalid, n)
	}
	c.ha.active = i
	return nil
}
