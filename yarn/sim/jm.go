package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// jobManagers runs the JobManager REST servers: one listener per running
// application, which is its amRPCAddress, opened lazily and closed when the
// JobManager dies, and one router that all of them share. It is guarded by
// the cluster lock.
type jobManagers struct {
	mu           *sync.Mutex // the cluster lock
	clock        Clock
	host         string
	flinkVersion string
	logSize      int64
	logf         func(format string, args ...any)
	serve        func(*http.Server, net.Listener) // runs a listener until the cluster closes
	faults       *injector
	rng          *rand.Rand // jar ids
	yarn         *yarnApps
	flink        *flinkJobs
	mux          http.Handler // routes the requests of every JobManager listener
	closed       bool         // the cluster closed: no listener opens any more
}

// jobManager is one JobManager REST server (one per attempt).
type jobManager struct {
	app     *app
	attempt int
	addr    string // host:port
	srv     *http.Server
	started time.Time
}

// ensure opens the app's JobManager listener if it should run and does
// not yet. Listeners are opened lazily, when an address is first needed,
// so that a large fleet costs nothing until it is looked at.
func (m *jobManagers) ensure(a *app) *jobManager {
	if !a.jmPending || a.jm != nil || m.closed {
		return a.jm
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(m.host, "0"))
	if err != nil {
		m.logf("sim: %s: open JobManager listener: %v", a.id, err)
		return nil
	}
	jm := &jobManager{app: a, attempt: len(a.attempts), addr: ln.Addr().String(), started: m.clock.Now()}
	jm.srv = &http.Server{Handler: m.faults.wrap(jmKind, jmEntry{m: m, jm: jm}),
		ReadHeaderTimeout: 10 * time.Second}
	a.jm = jm
	m.serve(jm.srv, ln)
	return jm
}

// stop takes the app's JobManager down: its port stops answering.
func (m *jobManagers) stop(a *app) {
	a.jmPending = false
	jm := a.jm
	a.jm = nil
	if jm == nil {
		return
	}
	// Close (not Shutdown): a dead process does not finish its answers,
	// and its port refuses connections from now on. Close does not wait
	// for handlers, so calling it under the cluster lock cannot deadlock.
	_ = jm.srv.Close()
}

// closeAll closes the JobManagers of apps for good: the cluster is closing.
func (m *jobManagers) closeAll(apps []*app) {
	m.closed = true
	for _, a := range apps {
		if a.jm != nil {
			_ = a.jm.srv.Close()
			a.jm = nil
		}
	}
}

// jmKind is the fault kind of every JobManager request.
func jmKind(*http.Request) Kind { return KindJM }

// jmReq is one request to a JobManager, handled under the cluster lock.
type jmReq struct {
	m   *jobManagers
	jm  *jobManager
	a   *app
	now time.Time
	r   *http.Request
	// tms caches taskManagerIDs for the request: a view of a large graph
	// asks for them once per subtask.
	tms []string
}

// jmAnswer is what a handler answers; it is written after the lock is released.
type jmAnswer struct {
	status int
	body   any
	header map[string]string
	// stall makes the JobManager send the first half of the body, then
	// nothing for this long (a JobManager that times out halfway).
	stall time.Duration
}

func ok(body any) jmAnswer { return jmAnswer{status: http.StatusOK, body: body} }

// restError answers like Flink's AbstractHandler for a RestHandlerException:
// a single string, the exception with its stack trace.
func restError(status int, class, msg string) jmAnswer {
	return jmAnswer{status: status, body: flinkErrors{Errors: []string{
		class + ": " + msg + "\n\tat org.apache.flink.runtime.rest.handler.AbstractRestHandler.respondToRequest(AbstractRestHandler.java:83)\n"}}}
}

func notFound(msg string) jmAnswer {
	return restError(http.StatusNotFound, "org.apache.flink.runtime.rest.NotFoundException", msg)
}

func badRequestFlink(msg string) jmAnswer {
	return restError(http.StatusBadRequest, "org.apache.flink.runtime.rest.handler.RestHandlerException", msg)
}

var reHex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)

// jmKey carries the JobManager a request reached, from its listener to the
// shared router (unexported: nothing outside this file can set or read it).
type jmKey struct{}

// jmEntry is the handler of one JobManager's listener: it tags requests
// with their JobManager and hands them to the router all JobManagers share,
// so that a JobManager costs a listener, not a router of its own.
type jmEntry struct {
	m  *jobManagers
	jm *jobManager
}

func (e jmEntry) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e.m.mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), jmKey{}, e.jm)))
}

func jmOf(r *http.Request) *jobManager { return r.Context().Value(jmKey{}).(*jobManager) }

// router routes the JobManager REST API, at / and at /v1.
func (m *jobManagers) router() http.Handler {
	mux := http.NewServeMux()
	handle := func(method, path string, fn func(x *jmReq) jmAnswer) {
		h := m.handler(fn)
		mux.Handle(method+" "+path, h)
		mux.Handle(method+" /v1"+path, h)
	}
	handle("GET", "/config", jmConfig)
	handle("GET", "/overview", jmOverview)
	handle("GET", "/jobs", jmJobs)
	handle("GET", "/jobs/overview", jmJobsOverview)
	handle("GET", "/jobs/metrics", jmJobsMetrics)
	handle("GET", "/jobs/{jobid}", withJob(jmJobDetails))
	handle("PATCH", "/jobs/{jobid}", withJob(jmCancel))
	handle("GET", "/jobs/{jobid}/yarn-cancel", withJob(jmYarnCancel))
	handle("GET", "/jobs/{jobid}/yarn-stop", withJob(jmYarnStop))
	handle("GET", "/jobs/{jobid}/status", withJob(func(x *jmReq, j *job) jmAnswer {
		return ok(map[string]string{"status": x.reported(j)})
	}))
	handle("GET", "/jobs/{jobid}/plan", withJob(func(x *jmReq, j *job) jmAnswer {
		return ok(map[string]any{"plan": planJSON(j)})
	}))
	handle("GET", "/jobs/{jobid}/checkpoints", withJob(jmCheckpoints))
	handle("GET", "/jobs/{jobid}/checkpoints/config", withJob(jmCheckpointConfig))
	handle("GET", "/jobs/{jobid}/checkpoints/details/{checkpointid}", withJob(jmCheckpointDetails))
	handle("POST", "/jobs/{jobid}/savepoints", withJob(jmTriggerSavepoint))
	handle("POST", "/jobs/{jobid}/stop", withJob(jmStop))
	handle("GET", "/jobs/{jobid}/savepoints/{triggerid}", withJob(jmSavepointStatus))
	handle("GET", "/jobs/{jobid}/exceptions", withJob(jmExceptions))
	handle("GET", "/jobs/{jobid}/metrics", withJob(jmJobMetrics))
	handle("GET", "/jobs/{jobid}/vertices/{vertexid}", withVertex(jmVertex))
	handle("GET", "/jobs/{jobid}/vertices/{vertexid}/metrics", withVertex(jmVertexMetrics))
	handle("GET", "/jobs/{jobid}/vertices/{vertexid}/subtasks/metrics", withVertex(jmSubtaskMetrics))
	handle("GET", "/jobs/{jobid}/vertices/{vertexid}/backpressure", withVertex(jmBackpressure))
	handle("GET", "/jobs/{jobid}/vertices/{vertexid}/watermarks", withVertex(jmWatermarks))
	handle("GET", "/jobs/{jobid}/vertices/{vertexid}/subtasktimes", withVertex(jmSubtaskTimes))
	handle("GET", "/jobs/{jobid}/vertices/{vertexid}/taskmanagers", withVertex(jmVertexTaskManagers))
	handle("GET", "/jobs/{jobid}/vertices/{vertexid}/subtasks/{subtaskindex}/metrics", withVertex(jmOneSubtaskMetrics))
	handle("GET", "/jobs/{jobid}/vertices/{vertexid}/flamegraph", withVertex(jmFlameGraph))
	handle("GET", "/jobs/{jobid}/checkpoints/details/{checkpointid}/subtasks/{vertexid}", withVertex(jmCheckpointSubtasks))
	handle("GET", "/jobs/{jobid}/config", withJob(jmJobConfig))
	handle("GET", "/taskmanagers", jmTaskManagers)
	handle("GET", "/taskmanagers/{tmid}", withTM(jmTaskManager))
	handle("GET", "/taskmanagers/{tmid}/thread-dump", withTM(jmThreadDump))
	handle("GET", "/taskmanagers/{tmid}/metrics", withTM(jmTaskManagerMetrics))
	handle("GET", "/taskmanagers/{tmid}/logs", withTM(func(x *jmReq, tm string) jmAnswer { return ok(logList(x, "taskmanager")) }))
	handle("GET", "/jobmanager/config", jmJobManagerConfig)
	handle("GET", "/jobmanager/logs", func(x *jmReq) jmAnswer { return ok(logList(x, "jobmanager")) })
	handle("POST", "/savepoint-disposal", jmTriggerDisposal)
	handle("GET", "/savepoint-disposal/{triggerid}", jmDisposalStatus)
	handle("GET", "/jars", jmJars)
	handle("DELETE", "/jars/{jarid}", jmDeleteJar)
	handle("POST", "/jars/{jarid}/run", jmRunJar)
	// Upload and log files are not JSON handlers: they stream.
	for _, p := range []string{"", "/v1"} {
		mux.Handle("POST "+p+"/jars/upload", m.upload())
		mux.Handle("GET "+p+"/jobmanager/log", m.logFile("jobmanager", "", "jobmanager.log"))
		mux.Handle("GET "+p+"/jobmanager/stdout", m.logFile("jobmanager", "", "jobmanager.out"))
		mux.Handle("GET "+p+"/jobmanager/logs/{name}", m.logFile("jobmanager", "", ""))
		mux.Handle("GET "+p+"/taskmanagers/{tmid}/log", m.logFile("taskmanager", "{tmid}", "taskmanager.log"))
		mux.Handle("GET "+p+"/taskmanagers/{tmid}/stdout", m.logFile("taskmanager", "{tmid}", "taskmanager.out"))
		mux.Handle("GET "+p+"/taskmanagers/{tmid}/logs/{name}", m.logFile("taskmanager", "{tmid}", ""))
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		// Flink's router answers unknown routes (and known paths with an
		// unknown method) this way.
		writeFlinkError(w, http.StatusNotFound, "Not found: "+r.URL.Path)
	})
	return mux
}

// handler runs fn under the cluster lock, for a JobManager that is still
// alive; a request to a JobManager that died gets its connection reset.
func (m *jobManagers) handler(fn func(x *jmReq) jmAnswer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		jm := jmOf(r)
		m.mu.Lock()
		now := m.clock.Now()
		a := jm.app
		m.yarn.advance(a, now)
		if a.jm != jm {
			m.mu.Unlock()
			resetConn(w)
			return
		}
		for _, j := range a.jobs {
			m.flink.syncCheckpoints(j, now)
		}
		ans := fn(&jmReq{m: m, jm: jm, a: a, now: now, r: r})
		m.mu.Unlock()
		for k, v := range ans.header {
			w.Header().Set(k, v)
		}
		if ans.body == nil {
			w.Header().Set("Content-Type", "application/json; charset=UTF-8")
			w.WriteHeader(ans.status)
			_, _ = w.Write([]byte("{}"))
			return
		}
		if ans.stall > 0 {
			writeStalled(w, r, ans)
			return
		}
		writeJSON(w, ans.status, ans.body)
	})
}

// findJob resolves the {jobid} path value.
func (x *jmReq) findJob() (*job, *jmAnswer) {
	id := x.r.PathValue("jobid")
	if !reHex32.MatchString(id) {
		a := badRequestFlink("Bad request, could not parse parameters: Conversion of path parameter jobid failed for value " +
			id + ": Cannot convert hex string of length " + strconv.Itoa(len(id)) + " into JobID.")
		return nil, &a
	}
	for _, j := range x.a.jobs {
		if j.id == id {
			return j, nil
		}
	}
	a := notFound("Job " + id + " not found")
	return nil, &a
}

func withJob(fn func(x *jmReq, j *job) jmAnswer) func(x *jmReq) jmAnswer {
	return func(x *jmReq) jmAnswer {
		j, errAns := x.findJob()
		if errAns != nil {
			return *errAns
		}
		return fn(x, j)
	}
}

func withVertex(fn func(x *jmReq, j *job, v *vertex) jmAnswer) func(x *jmReq) jmAnswer {
	return withJob(func(x *jmReq, j *job) jmAnswer {
		id := x.r.PathValue("vertexid")
		for _, v := range j.vertices {
			if v.id == id {
				return fn(x, j, v)
			}
		}
		if !reHex32.MatchString(id) {
			return badRequestFlink("Bad request, could not parse parameters: Conversion of path parameter vertexid failed for value " + id)
		}
		return notFound("JobVertexID not found: " + id)
	})
}

func withTM(fn func(x *jmReq, tm string) jmAnswer) func(x *jmReq) jmAnswer {
	return func(x *jmReq) jmAnswer {
		id := x.r.PathValue("tmid")
		for _, tm := range x.taskManagerIDs() {
			if tm == id {
				return fn(x, tm)
			}
		}
		return notFound("Could not find TaskExecutor " + id + ".")
	}
}

func jmConfig(x *jmReq) jmAnswer {
	_, offset := x.now.Zone()
	session := x.a.mode == ModeSession
	return ok(map[string]any{
		"refresh-interval": 3000,
		"timezone-name":    "Coordinated Universal Time",
		"timezone-offset":  offset * 1000,
		"flink-version":    x.m.flinkVersion,
		"flink-revision":   "a1b2c3d @ 2025-07-01T12:00:00+02:00",
		"features": map[string]bool{"web-submit": session, "web-cancel": true, "web-rescale": false,
			"web-history": false},
	})
}

func jobCounts(a *app) (running, finished, canceled, failed int) {
	for _, j := range a.jobs {
		switch j.state {
		case jobFinished:
			finished++
		case jobCanceled:
			canceled++
		case jobFailed:
			failed++
		case jobSuspended:
		default:
			running++
		}
	}
	return
}

func jmOverview(x *jmReq) jmAnswer {
	tms := len(x.taskManagerIDs())
	used := 0
	for _, j := range x.a.jobs {
		if !flinkTerminal(j.state) {
			used += j.parallelism
		}
	}
	total := tms * slotsPerTM
	if used > total {
		used = total
	}
	running, finished, canceled, failed := jobCounts(x.a)
	return ok(map[string]any{
		"taskmanagers": tms, "taskmanagers-blocked": 0, "slots-total": total, "slots-available": total - used,
		"slots-free-and-blocked": 0, "jobs-running": running, "jobs-finished": finished,
		"jobs-cancelled": canceled, "jobs-failed": failed, "flink-version": x.m.flinkVersion,
		"flink-commit": "a1b2c3d",
	})
}

// decodeBody reads an optional JSON request body.
func decodeBody(r *http.Request, into any) error {
	b, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return err
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		return nil
	}
	return json.Unmarshal(b, into)
}

// taskManagerIDs are the container ids of the app's TaskManagers.
func (x *jmReq) taskManagerIDs() []string {
	if x.tms != nil {
		return x.tms
	}
	n := x.a.containers() - 1
	ids := make([]string, 0, n)
	for i := 0; i < n; i++ {
		ids = append(ids, containerID(x.a, len(x.a.attempts), i+2))
	}
	x.tms = ids
	return ids
}

func (x *jmReq) tmFor(subtask int) string {
	ids := x.taskManagerIDs()
	if len(ids) == 0 {
		return ""
	}
	return ids[(subtask/slotsPerTM)%len(ids)]
}

func jmTaskManagers(x *jmReq) jmAnswer {
	tms := []map[string]any{}
	for i := range x.taskManagerIDs() {
		tms = append(tms, x.taskManagerJSON(i))
	}
	return ok(map[string]any{"taskmanagers": tms})
}

// resourceJSON is a ResourceProfileInfo of the given slots.
func resourceJSON(slots int) map[string]any {
	return map[string]any{"cpuCores": float64(slots), "taskHeapMemory": 383 * slots, "taskOffHeapMemory": 0,
		"managedMemory": 512 * slots, "networkMemory": 128 * slots, "extendedResources": map[string]float64{}}
}

// taskManagerJSON is TaskManager i as GET /taskmanagers lists it.
func (x *jmReq) taskManagerJSON(i int) map[string]any {
	used := 0
	for _, j := range x.a.jobs {
		if !flinkTerminal(j.state) {
			used += j.parallelism
		}
	}
	free := slotsPerTM - min(max(used-i*slotsPerTM, 0), slotsPerTM)
	tm := map[string]any{
		"id": x.taskManagerIDs()[i], "path": fmt.Sprintf("pekko.tcp://flink@%s:%d/user/rpc/taskmanager_0", x.m.host, 35000+i),
		"dataPort": 36000 + i, "jmxPort": -1, "timeSinceLastHeartbeat": x.now.UnixMilli() - 1200,
		"slotsNumber": slotsPerTM, "freeSlots": free, "totalResource": resourceJSON(slotsPerTM), "freeResource": resourceJSON(free),
		"hardware": map[string]any{"cpuCores": nodeVCores, "physicalMemory": int64(nodeMB) << 20,
			"freeMemory": int64(1536) << 20, "managedMemory": int64(1024) << 20},
		"memoryConfiguration": map[string]any{"frameworkHeap": 134217728, "taskHeap": 803209216,
			"frameworkOffHeap": 134217728, "taskOffHeap": 0, "networkMemory": 268435460, "managedMemory": 1073741824,
			"jvmMetaspace": 268435456, "jvmOverhead": 429496736, "totalFlinkMemory": 3221225472, "totalProcessMemory": 4294967296},
		"blocked": false,
	}
	if atLeast(x.m.flinkVersion, 2, 3) {
		tm["assignedTasks"] = (slotsPerTM - free) * 3
	}
	return tm
}

func jmJobManagerConfig(x *jmReq) jmAnswer {
	conf := map[string]string{
		"jobmanager.rpc.address": x.m.host, "rest.address": x.m.host,
		"rest.bind-port": strings.SplitN(x.jm.addr, ":", 2)[1], "execution.target": x.a.mode,
		"high-availability.type": "zookeeper", "high-availability.cluster-id": x.a.id,
		"yarn.application.id": x.a.id, "yarn.application.name": x.a.name, "yarn.application.queue": x.a.queue,
		"yarn.tags": strings.Join(x.a.tags, ","), "taskmanager.numberOfTaskSlots": strconv.Itoa(slotsPerTM),
		"state.checkpoints.dir": "hdfs:///flink/checkpoints", "state.savepoints.dir": "hdfs:///flink/savepoints",
		"jobmanager.memory.process.size": "2048m", "taskmanager.memory.process.size": "4096m",
	}
	for k, v := range x.a.config {
		conf[k] = v
	}
	out := []map[string]string{}
	for _, k := range sortedKeys(conf) {
		out = append(out, map[string]string{"key": k, "value": conf[k]})
	}
	return ok(out)
}
