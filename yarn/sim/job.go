package sim

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"time"
)

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

// Simulated durations of the job lifecycle, and Flink defaults.
const (
	dJobCreated     = 1 * time.Second // INITIALIZING → CREATED
	dJobRunning     = 1 * time.Second // CREATED → RUNNING
	dCancel         = 500 * time.Millisecond
	dSavepoint      = 1200 * time.Millisecond
	dRestartDelay   = 1 * time.Second
	dRefail         = 2 * time.Second // a fatally failing job fails again this long after a restart
	dFailing        = 300 * time.Millisecond
	historySize     = 10 // web.checkpoints.history's default
	defaultAttempts = 3  // restart-strategy.fixed-delay.attempts
)

// flinkJobs is the Flink side of the simulation: every job by id and its
// state machine (INITIALIZING … RUNNING, restarts, failure, cancel, stop
// with savepoint), its checkpoints, and the store of restorable points. A
// job that ends asks its application to deregister. It is guarded by the
// cluster lock.
type flinkJobs struct {
	interval  time.Duration // checkpoint interval of jobs that set none
	rng       *rand.Rand
	byID      map[string]*job
	points    pointStore
	disposals disposals
	events    *eventQueue
	yarn      *yarnApps
}

// job is one Flink job, in a per-job/application cluster or a session.
type job struct {
	app        *app
	id         string
	name       string
	sql        string         // for SQL jobs
	entryClass string         // for JAR jobs
	python     *PythonProgram // for PyFlink jobs
	config     map[string]string
	seed       uint64

	parallelism    int
	maxParallelism int
	vertices       []*vertex
	interval       time.Duration
	// retention and numRetained are the job's checkpoint retention and
	// state.checkpoints.num-retained, from its configuration.
	retention   string
	numRetained int
	// history is how many checkpoints the JobManager keeps statistics of
	// (web.checkpoints.history, a setting of the cluster's).
	history       int
	checkpointDir string
	savepointDir  string

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

	// strain is the load StrainJob put on it.
	strain Strain
	// diag is the shape a test or demo gave the job (graph.go); bottleneck
	// and upstream are derived from the graph by layout.
	diag       *Diagnosis
	bottleneck int
	upstream   []bool
	// flow is each vertex's records in and out (flows.go), made again
	// after a layout; inputSum keeps the job's input summed over time.
	flow     []flow
	inputSum inputSum
	// pastUntil is the simulation's start for a job backdated to before it
	// (populate): input sums that past in coarse buckets.
	pastUntil time.Time
	// flameAsked is when each flame graph (vertex/type/subtask) was first
	// asked for: its sampling started then.
	flameAsked map[string]time.Time

	ck         checkpoints
	ops        map[string]*operation
	exceptions []exception // newest first
	savepoints []string
}

type exception struct {
	at         time.Time
	name       string
	trace      string
	task       string
	endpoint   string
	tm         string
	concurrent []exception // other tasks that failed with it
}

// jobSpec is what a submission says about a new job.
type jobSpec struct {
	name             string
	sql              string
	entryClass       string
	python           *PythonProgram
	parallelism      int
	config           map[string]string
	restorePath      string
	allowNonRestored bool
	kafkaTables      map[string]bool // source tables with a Kafka-like connector
}

// addJob creates a job in app a. If the app's JobManager is up the job
// starts at once; otherwise it starts when the JobManager comes up.
func (f *flinkJobs) addJob(a *app, s jobSpec, now time.Time) *job {
	j := &job{
		app:              a,
		id:               hex32(f.rng),
		name:             s.name,
		sql:              s.sql,
		entryClass:       s.entryClass,
		python:           s.python,
		config:           s.config,
		seed:             f.rng.Uint64(),
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
	j.interval = f.interval
	if d, ok := parseFlinkDuration(firstNonEmpty(j.config["execution.checkpointing.interval"], a.config["execution.checkpointing.interval"])); ok && d > 0 {
		j.interval = d
	}
	j.retention = parseRetention(firstNonEmpty(j.config["execution.checkpointing.externalized-checkpoint-retention"],
		a.config["execution.checkpointing.externalized-checkpoint-retention"]))
	j.numRetained = 1
	// Flink 1.20 renamed state.checkpoints.num-retained; 2.x still reads the old name.
	if n, err := strconv.Atoi(firstNonEmpty(j.config["execution.checkpointing.num-retained"], j.config["state.checkpoints.num-retained"],
		a.config["execution.checkpointing.num-retained"], a.config["state.checkpoints.num-retained"])); err == nil && n > 0 {
		j.numRetained = n
	}
	j.history = historySize
	if n, err := strconv.Atoi(strings.TrimSpace(a.config["web.checkpoints.history"])); err == nil && n >= 0 {
		j.history = n
	}
	j.checkpointDir = strings.TrimRight(firstNonEmpty(j.config["execution.checkpointing.dir"], j.config["state.checkpoints.dir"],
		a.config["execution.checkpointing.dir"], a.config["state.checkpoints.dir"], "hdfs:///flink/checkpoints"), "/")
	j.savepointDir = strings.TrimRight(firstNonEmpty(j.config["execution.checkpointing.savepoint-dir"], j.config["state.savepoints.dir"],
		a.config["execution.checkpointing.savepoint-dir"], a.config["state.savepoints.dir"], "hdfs:///flink/savepoints"), "/")
	if j.name == "" {
		j.name = "Flink Streaming Job"
	}
	j.vertices = f.planVertices(j, s.kafkaTables)
	j.layout()
	a.jobs = append(a.jobs, j)
	f.byID[j.id] = j
	if a.state == yarnRunning && a.jmPending {
		f.startJob(j, now)
	}
	return j
}

// recoverJobs starts every live job of a on the JobManager that just came
// up: the first start of a per-job cluster, or HA recovery after a JM failover.
func (f *flinkJobs) recoverJobs(a *app, now time.Time) {
	for _, j := range a.jobs {
		if !flinkTerminal(j.state) {
			f.startJob(j, now)
		}
	}
}

// startJob runs a job on the current JobManager: INITIALIZING → CREATED →
// RUNNING, restored from the newest retained point it has, or from the
// path it was submitted with.
func (f *flinkJobs) startJob(j *job, now time.Time) {
	j.gen++
	g := j.gen
	j.start, j.end = now, time.Time{}
	j.restarts = 0
	j.timestamps = map[string]int64{}
	j.ck = checkpoints{lastID: j.ck.lastID, retained: j.ck.retained, kept: j.ck.kept}
	j.exceptions = nil
	j.ops = map[string]*operation{} // a new JobManager has a new operation cache
	j.setState(jobInitializing, now)

	var from *checkpoint
	var failure string
	switch {
	case j.ck.retained != nil:
		from = j.ck.retained
	case j.restorePath != "":
		from, failure = f.points.lookup(j.restorePath)
	}
	f.events.schedule(j.app, now.Add(dJobCreated), func(t time.Time) {
		if j.gen != g {
			return
		}
		if failure != "" {
			j.record(t, "java.io.FileNotFoundException: "+failure, "", "")
			j.setState(jobFailed, t)
			j.end = t
			f.cleanUp(j)
			f.yarn.shutdownAfterJob(j.app, t, false)
			return
		}
		if from != nil {
			j.restoreFrom(from, t)
		}
		j.setState(jobCreated, t)
	})
	f.events.schedule(j.app, now.Add(dJobCreated+dJobRunning), func(t time.Time) {
		if j.gen != g || j.state != jobCreated {
			return
		}
		f.enterRunning(j, t)
	})
}

// enterRunning makes j RUNNING at t and schedules its checkpoints, and
// its next failure while it fails fatally.
func (f *flinkJobs) enterRunning(j *job, t time.Time) {
	j.setState(jobRunning, t)
	j.running = t
	j.ck.next = t.Add(j.interval)
	if j.failUntil > 0 {
		g := j.gen
		f.events.schedule(j.app, t.Add(dRefail), func(t time.Time) {
			if j.gen == g && j.state == jobRunning {
				f.failJob(j, t, true, j.failMessage)
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

func (j *job) subtasks() int {
	n := 0
	for _, v := range j.vertices {
		n += v.parallelism
	}
	return n
}

// cancelJob cancels a live job: CANCELLING, then CANCELED. waitForResult
// is for a cancel that ends a savepoint a client polls.
func (f *flinkJobs) cancelJob(j *job, now time.Time, waitForResult bool) {
	j.gen++
	g := j.gen
	j.failUntil = 0
	j.setState(jobCancelling, now)
	f.events.schedule(j.app, now.Add(dCancel), func(t time.Time) {
		if j.gen != g {
			return
		}
		j.setState(jobCanceled, t)
		j.end = t
		f.cleanUp(j)
		f.yarn.shutdownAfterJob(j.app, t, waitForResult)
	})
}

// failJob makes a running job fail. A fatal failure repeats after every
// restart until the restart strategy gives up; a transient one recovers.
func (f *flinkJobs) failJob(j *job, now time.Time, fatal bool, msg string) {
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
	v := j.failingVertex(msg)
	j.recordTask(now, msg, v, int(noise(j.seed, uint64(j.totalRestarts)+6)*float64(v.parallelism)))
	if j.failUntil > 0 && j.restarts >= j.failUntil {
		j.failUntil = 0
		// The scheduler gives up just after the task failed.
		j.record(now.Add(time.Millisecond), "org.apache.flink.runtime.JobException: Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts="+
			strconv.Itoa(j.restarts)+", backoffTimeMS=1000)", suppressedTrace(j.restarts, failureTrace(msg)), "")
		j.setState(jobFailing, now)
		f.events.schedule(j.app, now.Add(dFailing), func(t time.Time) {
			if j.gen != g {
				return
			}
			j.setState(jobFailed, t)
			j.end = t
			f.cleanUp(j)
			f.yarn.shutdownAfterJob(j.app, t, false)
		})
		return
	}
	j.restarts++
	j.totalRestarts++
	j.setState(jobRestarting, now)
	f.events.schedule(j.app, now.Add(dRestartDelay), func(t time.Time) {
		if j.gen != g {
			return
		}
		// Region failover restarts from the newest completed checkpoint.
		if cp := j.ck.retained; cp != nil && !cp.discarded {
			j.restoreFrom(cp, t)
		}
		f.enterRunning(j, t)
	})
}

var failureMessages = []string{
	"org.apache.kafka.common.errors.TimeoutException: Timeout of 60000ms expired before the position for partition orders-3 could be determined",
	"java.io.IOException: Connection reset by peer",
	"java.util.concurrent.TimeoutException: Async function call has timed out.",
	"org.apache.flink.util.FlinkRuntimeException: Exceeded checkpoint tolerable failure threshold.",
	"java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"key\" is null",
}

// record adds an entry to the job's exception history; an empty trace is
// msg's, wrapped as Flink and the connectors wrap it (failures.go).
func (j *job) record(t time.Time, msg, trace, task string) {
	name := msg
	if i := strings.Index(msg, ":"); i > 0 {
		name = msg[:i]
	}
	if trace == "" {
		trace = failureTrace(msg)
	}
	e := exception{at: t, name: name, trace: trace, task: task}
	if task != "" && j.app.jm != nil {
		host := j.app.jm.addr[:strings.LastIndexByte(j.app.jm.addr, ':')]
		e.endpoint = host + ":36000"
		e.tm = containerID(j.app, len(j.app.attempts), 2)
	}
	j.push(e)
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
func (f *flinkJobs) planVertices(j *job, kafkaTables map[string]bool) []*vertex {
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
	// A keyed exchange into the join or aggregation, a rebalance into the
	// sink: the reasons Flink does not chain them.
	vs := []*vertex{
		{name: srcName, parallelism: p, kafka: kafka, opScope: metricScope("Source: " + src + "[1]")},
		{name: mid, parallelism: p, lookup: lookup != "", inputs: []edge{{from: 0, strategy: "HASH"}}},
		{name: "Sink: " + sink + "[5]", parallelism: p, opScope: metricScope("Sink: " + sink + "[5]"),
			inputs: []edge{{from: 1, strategy: "REBALANCE"}}},
	}
	for i, v := range vs {
		v.id = hex32(f.rng)
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
