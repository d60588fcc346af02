package sim

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// job is one Flink job, in a per-job/application cluster or a session.
type job struct {
	app        *app
	id         string
	name       string
	sql        string // for SQL jobs
	entryClass string // for JAR jobs
	config     map[string]string
	seed       uint64

	parallelism    int
	maxParallelism int
	vertices       []*vertex
	interval       time.Duration
	checkpointDir  string
	savepointDir   string

	state         string
	gen           int // bumped to cancel the job's pending transitions
	submitted     time.Time
	start         time.Time // start-time of the current JobMaster
	end           time.Time
	timestamps    map[string]int64
	running       time.Time // when it last entered RUNNING
	restarts      int       // numRestarts of the current JobMaster
	totalRestarts int
	// failUntil > 0 while the job fails fatally: it fails again after each
	// restart until restarts reaches it.
	failUntil   int
	failMessage string

	// restorePath is the savepoint or checkpoint the job was submitted to
	// start from; HA recovery later prefers newer checkpoints.
	restorePath      string
	allowNonRestored bool
	restoredFrom     string

	ck         checkpoints
	ops        map[string]*operation
	exceptions []exception // newest first
	savepoints []string
}

// checkpoints are the checkpoint statistics of the current JobMaster, plus
// the id counter and the newest retained point, which survive failovers
// (they live in ZooKeeper and on HDFS).
type checkpoints struct {
	next            time.Time // trigger time of the next periodic checkpoint; zero while not scheduled
	lastID          int64
	completed       int64
	failed          int64
	restored        int64
	history         []*checkpoint // newest first, at most historySize
	latest          *checkpoint   // newest completed checkpoint (not savepoint)
	latestSavepoint *checkpoint
	latestFailed    *checkpoint
	restore         *restoreInfo
	retained        *checkpoint // newest completed point of any kind, across JobMasters
}

type checkpoint struct {
	id        int64
	jobID     string
	savepoint bool
	kind      string // CHECKPOINT, SAVEPOINT, SYNC_SAVEPOINT
	status    string // COMPLETED, FAILED
	trigger   time.Time
	ack       time.Time
	size      int64
	path      string
	discarded bool
	failure   string
	subtasks  int
}

type restoreInfo struct {
	id        int64
	at        time.Time
	savepoint bool
	path      string
}

// operation is an asynchronous savepoint, stop or checkpoint trigger.
type operation struct {
	id       string
	kind     string // "savepoint", "stop"
	done     bool
	location string
	failure  string
	endsJob  bool
}

type exception struct {
	at       time.Time
	name     string
	trace    string
	task     string
	endpoint string
	tm       string
}

// jobSpec is what a submission says about a new job.
type jobSpec struct {
	name             string
	sql              string
	entryClass       string
	parallelism      int
	config           map[string]string
	restorePath      string
	allowNonRestored bool
	kafkaTables      map[string]bool // source tables with a Kafka-like connector
}

// addJob creates a job in app a. If the app's JobManager is up the job
// starts at once; otherwise it starts when the JobManager comes up.
func (c *Cluster) addJob(a *app, s jobSpec, now time.Time) *job {
	j := &job{
		app:              a,
		id:               c.hex32(),
		name:             s.name,
		sql:              s.sql,
		entryClass:       s.entryClass,
		config:           s.config,
		seed:             c.rng.Uint64(),
		parallelism:      s.parallelism,
		restorePath:      s.restorePath,
		allowNonRestored: s.allowNonRestored,
		submitted:        now,
		timestamps:       map[string]int64{},
		ops:              map[string]*operation{},
	}
	if j.config == nil {
		j.config = map[string]string{}
	}
	if j.parallelism <= 0 {
		if p, err := strconv.Atoi(j.config["parallelism.default"]); err == nil && p > 0 {
			j.parallelism = p
		} else {
			j.parallelism = 2
		}
	}
	j.maxParallelism = 128
	j.interval = c.opts.CheckpointInterval
	if d, ok := parseFlinkDuration(firstNonEmpty(j.config["execution.checkpointing.interval"], a.config["execution.checkpointing.interval"])); ok && d > 0 {
		j.interval = d
	}
	j.checkpointDir = strings.TrimRight(firstNonEmpty(j.config["execution.checkpointing.dir"], j.config["state.checkpoints.dir"],
		a.config["execution.checkpointing.dir"], a.config["state.checkpoints.dir"], "hdfs:///flink/checkpoints"), "/")
	j.savepointDir = strings.TrimRight(firstNonEmpty(j.config["execution.checkpointing.savepoint-dir"], j.config["state.savepoints.dir"],
		a.config["execution.checkpointing.savepoint-dir"], a.config["state.savepoints.dir"], "hdfs:///flink/savepoints"), "/")
	if j.name == "" {
		j.name = "Flink Streaming Job"
	}
	j.vertices = c.planVertices(j, s.kafkaTables)
	a.jobs = append(a.jobs, j)
	c.jobs[j.id] = j
	if a.state == yarnRunning && a.jmPending {
		c.startJob(j, now)
	}
	return j
}

// recoverJobs starts every live job of a on the JobManager that just came
// up: the first start of a per-job cluster, or HA recovery after a JM failover.
func (c *Cluster) recoverJobs(a *app, now time.Time) {
	for _, j := range a.jobs {
		if !flinkTerminal(j.state) {
			c.startJob(j, now)
		}
	}
}

// startJob runs a job on the current JobManager: INITIALIZING → CREATED →
// RUNNING, restored from the newest retained point it has, or from the
// path it was submitted with.
func (c *Cluster) startJob(j *job, now time.Time) {
	j.gen++
	g := j.gen
	j.start, j.end = now, time.Time{}
	j.restarts = 0
	j.timestamps = map[string]int64{}
	j.ck = checkpoints{lastID: j.ck.lastID, retained: j.ck.retained}
	j.exceptions = nil
	j.ops = map[string]*operation{} // a new JobManager has a new operation cache
	j.setState(jobInitializing, now)

	var from *checkpoint
	var failure string
	switch {
	case j.ck.retained != nil:
		from = j.ck.retained
	case j.restorePath != "":
		from, failure = c.lookupPoint(j.restorePath)
	}
	c.events.schedule(j.app, now.Add(dJobCreated), func(t time.Time) {
		if j.gen != g {
			return
		}
		if failure != "" {
			j.record(t, "java.io.FileNotFoundException: "+failure, "", "")
			j.setState(jobFailed, t)
			j.end = t
			c.appShutdownAfterJob(j.app, t, false)
			return
		}
		if from != nil {
			j.restoreFrom(from, t)
		}
		j.setState(jobCreated, t)
	})
	c.events.schedule(j.app, now.Add(dJobCreated+dJobRunning), func(t time.Time) {
		if j.gen != g || j.state != jobCreated {
			return
		}
		c.enterRunning(j, t)
	})
}

// restoreFrom records a restore from cp at t.
func (j *job) restoreFrom(cp *checkpoint, t time.Time) {
	j.ck.restored++
	j.ck.restore = &restoreInfo{id: cp.id, at: t, savepoint: cp.savepoint, path: cp.path}
	if cp.id > j.ck.lastID {
		j.ck.lastID = cp.id
	}
	j.restoredFrom = cp.path
}

// lookupPoint finds a restorable savepoint or checkpoint by path.
func (c *Cluster) lookupPoint(path string) (*checkpoint, string) {
	p := strings.TrimRight(path, "/")
	if cp, ok := c.points[p]; ok && !cp.discarded {
		return cp, ""
	}
	if c.opts.LenientRestore {
		cp := &checkpoint{path: p, savepoint: strings.Contains(p, "savepoint"), kind: "SAVEPOINT", status: "COMPLETED"}
		if i := strings.LastIndex(p, "chk-"); i >= 0 {
			cp.id, _ = strconv.ParseInt(p[i+4:], 10, 64)
			cp.kind = "CHECKPOINT"
		}
		return cp, ""
	}
	scheme := "hdfs"
	if i := strings.Index(p, "://"); i > 0 {
		scheme = p[:i]
	} else if strings.HasPrefix(p, "/") {
		scheme = "file"
	}
	return nil, fmt.Sprintf("Cannot find checkpoint or savepoint file/directory '%s' on file system '%s'.", path, scheme)
}

func (c *Cluster) enterRunning(j *job, t time.Time) {
	j.setState(jobRunning, t)
	j.running = t
	j.ck.next = t.Add(j.interval)
	if j.failUntil > 0 {
		g := j.gen
		c.events.schedule(j.app, t.Add(dRefail), func(t time.Time) {
			if j.gen == g && j.state == jobRunning {
				c.failJob(j, t, true, j.failMessage)
			}
		})
	}
}

func (j *job) setState(s string, t time.Time) {
	j.state = s
	j.timestamps[s] = t.UnixMilli()
	if s != jobRunning {
		j.ck.next = time.Time{}
	}
}

// syncCheckpoints completes the periodic checkpoints due by t. Far behind
// (a fleet nobody looked at for hours), it skips to the last historySize,
// so its cost is bounded.
func (c *Cluster) syncCheckpoints(j *job, t time.Time) {
	if j.state != jobRunning || j.ck.next.IsZero() {
		return
	}
	for {
		trig := j.ck.next
		if behind := int64(t.Sub(trig) / j.interval); behind > historySize+2 {
			skip := behind - historySize
			j.ck.lastID += skip
			j.ck.failed += skip / 40
			j.ck.completed += skip - skip/40
			j.ck.next = trig.Add(time.Duration(skip) * j.interval)
			continue
		}
		id := j.ck.lastID + 1
		dur := ckptDuration(j, id)
		if trig.Add(dur).After(t) {
			return
		}
		j.ck.lastID = id
		if noise(j.seed, uint64(id)^0xfa11) < 0.025 {
			c.failCheckpoint(j, id, trig, dur)
		} else {
			c.completeCheckpoint(j, id, trig, dur, "CHECKPOINT", fmt.Sprintf("%s/%s/chk-%d", j.checkpointDir, j.id, id))
		}
		j.ck.next = trig.Add(j.interval)
	}
}

func ckptDuration(j *job, id int64) time.Duration {
	return time.Duration(150+noise(j.seed, uint64(id))*900) * time.Millisecond
}

// ckptSize grows with the state and drops back at each (simulated)
// compaction, so long-running jobs keep plausible sizes.
func ckptSize(j *job, id int64) int64 {
	base := 2_000_000 + int64(noise(j.seed, 7)*80_000_000)
	return base + base*(id%500)/1000 + int64(noise(j.seed, uint64(id)+3)*float64(base)/10)
}

func (j *job) subtasks() int {
	n := 0
	for _, v := range j.vertices {
		n += v.parallelism
	}
	return n
}

// completeCheckpoint records a completed checkpoint or savepoint.
func (c *Cluster) completeCheckpoint(j *job, id int64, trig time.Time, dur time.Duration, kind, path string) *checkpoint {
	cp := &checkpoint{id: id, jobID: j.id, savepoint: kind != "CHECKPOINT", kind: kind, status: "COMPLETED",
		trigger: trig, ack: trig.Add(dur), size: ckptSize(j, id), path: path, subtasks: j.subtasks()}
	j.ck.completed++
	if cp.savepoint {
		j.ck.latestSavepoint = cp
		j.savepoints = append(j.savepoints, path)
	} else {
		// state.checkpoints.num-retained = 1: the previous one is subsumed,
		// its files deleted (and forgotten here, so memory stays bounded).
		if prev := j.ck.retained; prev != nil && !prev.savepoint {
			c.discard(prev)
		}
		j.ck.latest = cp
	}
	j.ck.retained = cp
	j.pushHistory(cp)
	c.points[path] = cp
	return cp
}

// discard marks a checkpoint deleted: it can no longer be restored.
func (c *Cluster) discard(cp *checkpoint) {
	cp.discarded = true
	delete(c.points, cp.path)
}

func (c *Cluster) failCheckpoint(j *job, id int64, trig time.Time, dur time.Duration) {
	cp := &checkpoint{id: id, jobID: j.id, kind: "CHECKPOINT", status: "FAILED", trigger: trig, ack: trig.Add(dur),
		failure: "Checkpoint expired before completing.", subtasks: j.subtasks()}
	j.ck.failed++
	j.ck.latestFailed = cp
	j.pushHistory(cp)
}

func (j *job) pushHistory(cp *checkpoint) {
	j.ck.history = append([]*checkpoint{cp}, j.ck.history...)
	if len(j.ck.history) > historySize {
		j.ck.history = j.ck.history[:historySize]
	}
}

// inProgress reports the checkpoint running at now, if any.
func (j *job) inProgress(now time.Time) (int64, time.Time, bool) {
	if j.state != jobRunning || j.ck.next.IsZero() || j.ck.next.After(now) {
		return 0, time.Time{}, false
	}
	return j.ck.lastID + 1, j.ck.next, true
}

// triggerSavepoint starts an asynchronous savepoint; stop ends the job
// (stop-with-savepoint), cancel cancels it after the savepoint.
func (c *Cluster) triggerSavepoint(j *job, now time.Time, dir string, stop, cancel bool) *operation {
	op := &operation{id: c.hex32(), kind: "savepoint", endsJob: stop || cancel}
	if stop {
		op.kind = "stop"
	}
	j.ops[op.id] = op
	if dir == "" {
		dir = j.savepointDir
	}
	dir = strings.TrimRight(dir, "/")
	if j.state != jobRunning {
		state := j.state
		c.events.schedule(j.app, now.Add(100*time.Millisecond), func(time.Time) {
			op.done = true
			op.failure = fmt.Sprintf("org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint triggering task %s of job %s is not being executed at the moment (job status %s). Aborting checkpoint. Failure reason: Not all required tasks are currently running.",
				j.vertices[0].name+" (1/"+strconv.Itoa(j.vertices[0].parallelism)+")", j.id, state)
		})
		return op
	}
	g := j.gen
	c.events.schedule(j.app, now.Add(dSavepoint), func(t time.Time) {
		if j.gen != g || j.state != jobRunning {
			op.done = true
			op.failure = "org.apache.flink.runtime.checkpoint.CheckpointException: Task has failed. Failure reason: The job failed or was canceled while the savepoint was in progress."
			return
		}
		j.ck.lastID++
		kind := "SAVEPOINT"
		if stop {
			kind = "SYNC_SAVEPOINT"
		}
		path := fmt.Sprintf("%s/savepoint-%s-%s", dir, j.id[:6], c.hex32()[:12])
		c.completeCheckpoint(j, j.ck.lastID, now, t.Sub(now), kind, path)
		op.done, op.location = true, path
		switch {
		case stop:
			j.gen++
			j.setState(jobFinished, t)
			j.end = t
			if j.ck.latest != nil {
				// Retained checkpoints are discarded when a job finishes
				// (RETAIN_ON_CANCELLATION keeps them on cancel and failure only).
				c.discard(j.ck.latest)
			}
			c.appShutdownAfterJob(j.app, t, true)
		case cancel:
			c.cancelJob(j, t, true)
		}
	})
	return op
}

// cancelJob cancels a live job: CANCELLING, then CANCELED. waitForResult
// is for a cancel that ends a savepoint a client polls.
func (c *Cluster) cancelJob(j *job, now time.Time, waitForResult bool) {
	j.gen++
	g := j.gen
	j.failUntil = 0
	j.setState(jobCancelling, now)
	c.events.schedule(j.app, now.Add(dCancel), func(t time.Time) {
		if j.gen != g {
			return
		}
		j.setState(jobCanceled, t)
		j.end = t
		c.appShutdownAfterJob(j.app, t, waitForResult)
	})
}

// failJob makes a running job fail. A fatal failure repeats after every
// restart until the restart strategy gives up; a transient one recovers.
func (c *Cluster) failJob(j *job, now time.Time, fatal bool, msg string) {
	if msg == "" {
		msg = failureMessages[int(noise(j.seed, uint64(j.totalRestarts)+11)*float64(len(failureMessages)))]
	}
	if fatal && j.failUntil == 0 {
		attempts := defaultAttempts
		if n, err := strconv.Atoi(j.config["restart-strategy.fixed-delay.attempts"]); err == nil && n >= 0 {
			attempts = n
		}
		j.failUntil = j.restarts + attempts
		j.failMessage = msg
	}
	j.gen++
	g := j.gen
	v := j.vertices[int(noise(j.seed, uint64(j.totalRestarts)+5)*float64(len(j.vertices)))]
	j.record(now, msg, "", v.name+" (1/"+strconv.Itoa(v.parallelism)+")#"+strconv.Itoa(j.restarts))
	if j.failUntil > 0 && j.restarts >= j.failUntil {
		j.failUntil = 0
		j.record(now, "org.apache.flink.runtime.JobException: Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts="+
			strconv.Itoa(j.restarts)+", backoffTimeMS=1000)", "", "")
		j.setState(jobFailing, now)
		c.events.schedule(j.app, now.Add(dFailing), func(t time.Time) {
			if j.gen != g {
				return
			}
			j.setState(jobFailed, t)
			j.end = t
			c.appShutdownAfterJob(j.app, t, false)
		})
		return
	}
	j.restarts++
	j.totalRestarts++
	j.setState(jobRestarting, now)
	c.events.schedule(j.app, now.Add(dRestartDelay), func(t time.Time) {
		if j.gen != g {
			return
		}
		// Region failover restarts from the newest completed checkpoint.
		if cp := j.ck.retained; cp != nil && !cp.discarded {
			j.restoreFrom(cp, t)
		}
		c.enterRunning(j, t)
	})
}

var failureMessages = []string{
	"org.apache.kafka.common.errors.TimeoutException: Timeout of 60000ms expired before the position for partition orders-3 could be determined",
	"java.io.IOException: Connection reset by peer",
	"java.util.concurrent.TimeoutException: Async function call has timed out.",
	"org.apache.flink.util.FlinkRuntimeException: Exceeded checkpoint tolerable failure threshold.",
	"java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"key\" is null",
}

// record adds an entry to the job's exception history.
func (j *job) record(t time.Time, msg, trace, task string) {
	name := msg
	if i := strings.Index(msg, ":"); i > 0 {
		name = msg[:i]
	}
	if trace == "" {
		trace = msg + "\n\tat org.apache.flink.streaming.runtime.tasks.StreamTask.invoke(StreamTask.java:810)\n\tat org.apache.flink.runtime.taskmanager.Task.doRun(Task.java:953)\n\tat org.apache.flink.runtime.taskmanager.Task.run(Task.java:566)\n\tat java.base/java.lang.Thread.run(Thread.java:829)\n"
	}
	e := exception{at: t, name: name, trace: trace, task: task}
	if task != "" && j.app.jm != nil {
		e.endpoint = j.app.jm.addr
		e.tm = containerID(j.app, len(j.app.attempts), 2)
	}
	j.exceptions = append([]exception{e}, j.exceptions...)
	if len(j.exceptions) > 16 {
		j.exceptions = j.exceptions[:16]
	}
}

// rootCause is the newest exception's first line, for YARN diagnostics.
func (j *job) rootCause() string {
	if len(j.exceptions) == 0 {
		return ""
	}
	return strings.SplitN(j.exceptions[0].trace, "\n", 2)[0]
}

var (
	reSink   = regexp.MustCompile("(?is)\\bINSERT\\s+(?:INTO|OVERWRITE)\\s+(?:TABLE\\s+)?([\\w.`]+)")
	reFrom   = regexp.MustCompile("(?is)\\bFROM\\s+([\\w.`]+)")
	reLookup = regexp.MustCompile("(?is)\\bJOIN\\s+([\\w.`]+)(?:\\s+(?:AS\\s+)?\\w+)?\\s+FOR\\s+SYSTEM_TIME")
)

// planVertices makes a plausible job graph: Source → Calc or LookupJoin → Sink.
func (c *Cluster) planVertices(j *job, kafkaTables map[string]bool) []*vertex {
	src, sink, lookup := "", "", ""
	if m := reFrom.FindStringSubmatch(j.sql); m != nil {
		src = unquoteIdent(m[1])
	}
	if m := reSink.FindStringSubmatch(j.sql); m != nil {
		sink = unquoteIdent(m[1])
	}
	if m := reLookup.FindStringSubmatch(j.sql); m != nil {
		lookup = unquoteIdent(m[1])
	}
	kafka := kafkaTables[strings.ToLower(src)]
	if j.sql == "" {
		names := []string{"orders", "clicks", "payments", "shipments", "sensor_readings", "user_events"}
		src = names[int(noise(j.seed, 1)*float64(len(names)))]
		sink = src + "_enriched"
		kafka = noise(j.seed, 2) < 0.8
		if noise(j.seed, 3) < 0.5 {
			lookup = "dim_" + strings.TrimSuffix(src, "s")
		}
	}
	src, sink = or(src, "source"), or(sink, "sink")
	p := j.parallelism
	mid := "Calc[3]"
	if lookup != "" {
		mid = "LookupJoin[3] -> Calc[4]"
	}
	srcName := "Source: " + src + "[1] -> Calc[2]"
	vs := []*vertex{
		{name: srcName, parallelism: p, role: roleSource, kafka: kafka, opScope: metricScope("Source: " + src + "[1]")},
		{name: mid, parallelism: p, role: roleMiddle, lookup: lookup != ""},
		{name: "Sink: " + sink + "[5]", parallelism: p, role: roleSink, opScope: metricScope("Sink: " + sink + "[5]")},
	}
	for i, v := range vs {
		v.id = c.hex32()
		v.base = 200 + noise(j.seed, uint64(40+i))*4800
	}
	return vs
}

func unquoteIdent(s string) string {
	s = strings.ReplaceAll(s, "`", "")
	if i := strings.LastIndex(s, "."); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// metricScope is how Flink turns an operator name into a metric scope component.
func metricScope(name string) string {
	return strings.NewReplacer(" ", "_", ":", "_", ".", "_").Replace(name)
}

// parseFlinkDuration reads Flink's duration syntax: "10s", "1 min",
// "500 ms", or a bare number of milliseconds.
func parseFlinkDuration(s string) (time.Duration, bool) {
	s = strings.TrimSpace(strings.ToLower(s))
	if s == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.Duration(n) * time.Millisecond, true
	}
	if d, err := time.ParseDuration(strings.ReplaceAll(s, " ", "")); err == nil {
		return d, true
	}
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if i <= 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, false
	}
	units := map[string]time.Duration{"ms": time.Millisecond, "milli": time.Millisecond, "millis": time.Millisecond,
		"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
		"min": time.Minute, "mins": time.Minute, "minute": time.Minute, "minutes": time.Minute,
		"h": time.Hour, "hour": time.Hour, "hours": time.Hour, "d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour}
	u, ok := units[strings.TrimSpace(s[i:])]
	if !ok {
		return 0, false
	}
	return time.Duration(n) * u, true
}
