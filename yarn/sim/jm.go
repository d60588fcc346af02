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
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// jmReq is one request to a JobManager, handled under the cluster lock.
type jmReq struct {
	m   *jobManagers
	jm  *jobManager
	a   *app
	now time.Time
	r   *http.Request
}

// jmAnswer is what a handler answers; it is written after the lock is released.
type jmAnswer struct {
	status int
	body   any
	header map[string]string
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
	handle("GET", "/taskmanagers", jmTaskManagers)
	handle("GET", "/taskmanagers/{tmid}/logs", withTM(func(x *jmReq, tm string) jmAnswer { return ok(logList(x, "taskmanager")) }))
	handle("GET", "/jobmanager/config", jmJobManagerConfig)
	handle("GET", "/jobmanager/logs", func(x *jmReq) jmAnswer { return ok(logList(x, "jobmanager")) })
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

func jmJobs(x *jmReq) jmAnswer {
	out := []map[string]string{}
	for _, j := range x.a.jobs {
		out = append(out, map[string]string{"id": j.id, "status": x.reported(j)})
	}
	return ok(map[string]any{"jobs": out})
}

// reported is the status the JobManager's listings give for j: its state,
// except that with the stale-status fault a job that ended moments ago
// still reads RUNNING.
func (x *jmReq) reported(j *job) string {
	if d := x.m.faults.staleStatus(); d > 0 && flinkTerminal(j.state) && !j.end.IsZero() && x.now.Sub(j.end) < d {
		return jobRunning
	}
	return j.state
}

var executionStates = []string{"CREATED", "SCHEDULED", "DEPLOYING", "RUNNING", "FINISHED", "CANCELING", "CANCELED", "FAILED", "RECONCILING", "INITIALIZING"}

var jobStates = []string{jobInitializing, jobCreated, jobRunning, jobFailing, jobFailed, jobCancelling, jobCanceled, jobFinished, jobRestarting, jobSuspended, "RECONCILING"}

// vertexState is the execution state of a job's tasks given its status.
func vertexState(jobState string) string {
	switch jobState {
	case jobRunning:
		return "RUNNING"
	case jobFinished:
		return "FINISHED"
	case jobCanceled, jobSuspended:
		return "CANCELED"
	case jobCancelling:
		return "CANCELING"
	case jobFailed:
		return "FAILED"
	case jobFailing:
		return "CANCELING"
	case jobRestarting:
		return "SCHEDULED"
	}
	return "CREATED"
}

func (j *job) duration(now time.Time) int64 {
	end := now
	if !j.end.IsZero() {
		end = j.end
	}
	return end.Sub(j.start).Milliseconds()
}

func (j *job) endMs() int64 {
	if j.end.IsZero() {
		return -1
	}
	return j.end.UnixMilli()
}

func (j *job) lastModification() int64 {
	var m int64
	for _, t := range j.timestamps {
		m = max(m, t)
	}
	return m
}

// jobTasks is the per-job task count map of JobDetails (lower-case keys).
func (j *job) jobTasks() map[string]int {
	m := map[string]int{}
	for _, s := range executionStates {
		m[strings.ToLower(s)] = 0
	}
	n := 0
	if j.state != jobInitializing {
		n = j.subtasks()
		m[strings.ToLower(vertexState(j.state))] = n
	}
	m["total"] = n
	return m
}

func jobOverviewJSON(j *job, now time.Time) map[string]any {
	return map[string]any{
		"jid": j.id, "name": j.name, "state": j.state, "start-time": j.start.UnixMilli(), "end-time": j.endMs(),
		"duration": j.duration(now), "last-modification": j.lastModification(), "tasks": j.jobTasks(),
		"pending-operators": 0,
	}
}

func jmJobsOverview(x *jmReq) jmAnswer {
	out := []map[string]any{}
	for _, j := range x.a.jobs {
		o := jobOverviewJSON(j, x.now)
		o["state"] = x.reported(j)
		out = append(out, o)
	}
	return ok(map[string]any{"jobs": out})
}

func stateCounts(state string, n int) map[string]int {
	m := map[string]int{}
	for _, s := range executionStates {
		m[s] = 0
	}
	m[state] = n
	return m
}

func planJSON(j *job) map[string]any {
	nodes := []map[string]any{}
	for i, v := range j.vertices {
		n := map[string]any{"id": v.id, "parallelism": v.parallelism, "operator": "", "operator_strategy": "",
			"description": strings.ReplaceAll(v.name, " -> ", "<br/>+- "), "optimizer_properties": map[string]any{}}
		if i > 0 {
			n["inputs"] = []map[string]any{{"num": 0, "id": j.vertices[i-1].id, "ship_strategy": "HASH", "exchange": "pipelined_bounded"}}
		}
		nodes = append(nodes, n)
	}
	return map[string]any{"jid": j.id, "name": j.name, "type": "STREAMING", "nodes": nodes}
}

func (x *jmReq) ioMetrics(j *job, v *vertex) map[string]any {
	var in, out float64
	if j.state == jobRunning {
		for s := 0; s < v.parallelism; s++ {
			f := j.figures(v, s, x.now)
			in += f.inTotal
			out += f.outTotal
		}
	}
	return map[string]any{
		"read-bytes": int64(in * 180), "read-bytes-complete": true, "write-bytes": int64(out * 180), "write-bytes-complete": true,
		"read-records": int64(in), "read-records-complete": true, "write-records": int64(out), "write-records-complete": true,
		"accumulated-backpressured-time": 0, "accumulated-idle-time": 0, "accumulated-busy-time": 0.0,
	}
}

func jmJobDetails(x *jmReq, j *job) jmAnswer {
	vs := []map[string]any{}
	vstate := vertexState(j.state)
	counts := stateCounts(vstate, 0)
	if j.state != jobInitializing {
		for _, v := range j.vertices {
			vs = append(vs, map[string]any{
				"id": v.id, "name": v.name, "maxParallelism": j.maxParallelism, "parallelism": v.parallelism,
				"status": vstate, "start-time": j.start.UnixMilli(), "end-time": j.endMs(), "duration": j.duration(x.now),
				"tasks": stateCounts(vstate, v.parallelism), "metrics": x.ioMetrics(j, v),
			})
			counts[vstate]++
		}
	}
	ts := map[string]int64{}
	for _, s := range jobStates {
		ts[s] = j.timestamps[s]
	}
	body := map[string]any{
		"jid": j.id, "name": j.name, "isStoppable": false, "state": j.state, "job-type": "STREAMING",
		"start-time": j.start.UnixMilli(), "end-time": j.endMs(), "duration": j.duration(x.now),
		"maxParallelism": -1, "now": x.now.UnixMilli(), "timestamps": ts, "vertices": vs,
		"status-counts": counts, "plan": planJSON(j),
	}
	if !strings.HasPrefix(x.m.flinkVersion, "1.") {
		body["pending-operators"] = 0
	}
	return ok(body)
}

// jmCancel is PATCH /jobs/{jobid}?mode=cancel (JobCancellationHandler).
func jmCancel(x *jmReq, j *job) jmAnswer {
	mode := strings.ToUpper(x.r.URL.Query().Get("mode"))
	if mode == "" {
		mode = "CANCEL"
	}
	return x.terminate(j, mode)
}

func jmYarnCancel(x *jmReq, j *job) jmAnswer { return x.terminate(j, "CANCEL") }
func jmYarnStop(x *jmReq, j *job) jmAnswer   { return x.terminate(j, "STOP") }

func (x *jmReq) terminate(j *job, mode string) jmAnswer {
	switch mode {
	case "CANCEL":
	case "STOP":
		return restError(http.StatusPermanentRedirect, "org.apache.flink.runtime.rest.handler.RestHandlerException",
			`The termination mode "stop" has been removed. For an ungraceful shutdown, please use "cancel" instead. For a graceful shutdown, please use "jobs/:jobId/stop" instead.`)
	default:
		return badRequestFlink("Bad request, could not parse parameters: Conversion of query parameter mode failed for value " + mode)
	}
	if flinkTerminal(j.state) {
		return restError(http.StatusConflict, "org.apache.flink.runtime.rest.handler.RestHandlerException",
			fmt.Sprintf("Job cancellation failed because the job has already reached another terminal state (%s).", j.state))
	}
	if j.state != jobCancelling {
		x.m.flink.cancelJob(j, x.now, false)
	}
	return jmAnswer{status: http.StatusAccepted}
}

func checkpointJSON(cp *checkpoint) map[string]any {
	m := map[string]any{
		"className": "completed", "id": cp.id, "status": cp.status, "is_savepoint": cp.savepoint,
		"savepointFormat": nil, "trigger_timestamp": cp.trigger.UnixMilli(), "latest_ack_timestamp": cp.ack.UnixMilli(),
		"checkpointed_size": cp.size, "state_size": cp.size, "end_to_end_duration": cp.ack.Sub(cp.trigger).Milliseconds(),
		"alignment_buffered": 0, "processed_data": 0, "persisted_data": 0, "num_subtasks": cp.subtasks,
		"num_acknowledged_subtasks": cp.subtasks, "checkpoint_type": cp.kind, "tasks": map[string]any{},
	}
	if cp.savepoint {
		m["savepointFormat"] = "CANONICAL"
	} else {
		delete(m, "savepointFormat")
	}
	switch cp.status {
	case "COMPLETED":
		m["external_path"] = cp.path
		m["discarded"] = cp.discarded
	case "FAILED":
		m["className"] = "failed"
		m["failure_timestamp"] = cp.ack.UnixMilli()
		m["failure_message"] = cp.failure
		m["num_acknowledged_subtasks"] = cp.subtasks / 2
		m["checkpointed_size"], m["state_size"] = 0, 0
	}
	return m
}

func summary(vals []int64) map[string]any {
	if len(vals) == 0 {
		return map[string]any{"min": 0, "max": 0, "avg": 0, "p50": 0.0, "p90": 0.0, "p95": 0.0, "p99": 0.0, "p999": 0.0}
	}
	s := append([]int64(nil), vals...)
	sort.Slice(s, func(i, k int) bool { return s[i] < s[k] })
	var sum int64
	for _, v := range s {
		sum += v
	}
	q := func(p float64) float64 { return float64(s[int(p*float64(len(s)-1))]) }
	return map[string]any{"min": s[0], "max": s[len(s)-1], "avg": sum / int64(len(s)),
		"p50": q(.5), "p90": q(.9), "p95": q(.95), "p99": q(.99), "p999": q(.999)}
}

func jmCheckpoints(x *jmReq, j *job) jmAnswer {
	hist := []map[string]any{}
	var sizes, durs []int64
	inProg := 0
	if p := x.pendingJSON(j); p != nil {
		inProg = 1
		hist = append(hist, p)
	}
	for _, cp := range j.ck.history {
		hist = append(hist, checkpointJSON(cp))
		if cp.status == "COMPLETED" {
			sizes = append(sizes, cp.size)
			durs = append(durs, cp.ack.Sub(cp.trigger).Milliseconds())
		}
	}
	latest := map[string]any{}
	if j.ck.latest != nil {
		latest["completed"] = checkpointJSON(j.ck.latest)
	}
	if j.ck.latestSavepoint != nil {
		latest["savepoint"] = checkpointJSON(j.ck.latestSavepoint)
	}
	if j.ck.latestFailed != nil {
		latest["failed"] = checkpointJSON(j.ck.latestFailed)
	}
	if r := j.ck.restore; r != nil {
		latest["restored"] = map[string]any{"id": r.id, "restore_timestamp": r.at.UnixMilli(),
			"is_savepoint": r.savepoint, "external_path": r.path}
	}
	zero := summary(nil)
	return ok(map[string]any{
		"counts": map[string]any{"restored": j.ck.restored, "total": j.ck.completed + j.ck.failed + int64(inProg),
			"in_progress": inProg, "completed": j.ck.completed, "failed": j.ck.failed},
		"summary": map[string]any{"checkpointed_size": summary(sizes), "state_size": summary(sizes),
			"end_to_end_duration": summary(durs), "alignment_buffered": zero, "processed_data": zero, "persisted_data": zero},
		"latest":  latest,
		"history": hist,
	})
}

// pendingJSON is the checkpoint in progress, if any (PendingCheckpointStatistics).
func (x *jmReq) pendingJSON(j *job) map[string]any {
	id, trig, ok := j.inProgress(x.now)
	if !ok {
		return nil
	}
	return map[string]any{"className": "in_progress", "id": id, "status": "IN_PROGRESS",
		"is_savepoint": false, "trigger_timestamp": trig.UnixMilli(), "latest_ack_timestamp": trig.UnixMilli(),
		"checkpointed_size": 0, "state_size": 0, "end_to_end_duration": x.now.Sub(trig).Milliseconds(),
		"alignment_buffered": 0, "processed_data": 0, "persisted_data": 0, "num_subtasks": j.subtasks(),
		"num_acknowledged_subtasks": 0, "checkpoint_type": "CHECKPOINT", "tasks": map[string]any{}}
}

func jmCheckpointDetails(x *jmReq, j *job) jmAnswer {
	id, err := strconv.ParseInt(x.r.PathValue("checkpointid"), 10, 64)
	if err != nil {
		return badRequestFlink("Bad request, could not parse parameters: Conversion of path parameter checkpointid failed")
	}
	if p := x.pendingJSON(j); p != nil && p["id"] == id {
		return ok(p)
	}
	for _, cp := range j.ck.history {
		if cp.id == id {
			return ok(checkpointJSON(cp))
		}
	}
	return notFound(fmt.Sprintf("Could not find checkpointing statistics for checkpoint %d.", id))
}

func jmCheckpointConfig(x *jmReq, j *job) jmAnswer {
	return ok(map[string]any{
		"mode": "EXACTLY_ONCE", "interval": j.interval.Milliseconds(), "timeout": 600000, "min_pause": 0,
		"max_concurrent": 1, "externalization": map[string]bool{"enabled": true, "delete_on_cancellation": false},
		"state_backend": "EmbeddedRocksDBStateBackend", "checkpoint_storage": "FileSystemCheckpointStorage",
		"unaligned_checkpoints": false, "tolerable_failed_checkpoints": 0, "aligned_checkpoint_timeout": 0,
		"checkpoints_after_tasks_finish": true, "state_changelog_enabled": false,
		"changelog_periodic_materialization_interval": 600000, "changelog_storage": "memory",
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

func jmTriggerSavepoint(x *jmReq, j *job) jmAnswer {
	var body struct {
		TargetDirectory string `json:"target-directory"`
		CancelJob       bool   `json:"cancel-job"`
		FormatType      string `json:"formatType"`
		TriggerID       string `json:"triggerId"`
	}
	if err := decodeBody(x.r, &body); err != nil {
		return badRequestFlink("Request did not match expected format SavepointTriggerRequestBody: " + err.Error())
	}
	return x.trigger(j, body.TargetDirectory, body.TriggerID, false, body.CancelJob)
}

func jmStop(x *jmReq, j *job) jmAnswer {
	var body struct {
		TargetDirectory string `json:"targetDirectory"`
		Drain           bool   `json:"drain"`
		FormatType      string `json:"formatType"`
		TriggerID       string `json:"triggerId"`
	}
	if err := decodeBody(x.r, &body); err != nil {
		return badRequestFlink("Request did not match expected format StopWithSavepointRequestBody: " + err.Error())
	}
	// drain only decides whether Flink emits a final MAX_WATERMARK; the job
	// ends FINISHED either way, which is all the simulation shows.
	return x.trigger(j, body.TargetDirectory, body.TriggerID, true, false)
}

func (x *jmReq) trigger(j *job, dir, triggerID string, stop, cancel bool) jmAnswer {
	if triggerID != "" {
		if !reHex32.MatchString(triggerID) {
			return badRequestFlink("Request did not match expected format: triggerId is not a 32-character hex string")
		}
		if _, ok := j.ops[triggerID]; ok {
			// An idempotent retry of the same trigger.
			return jmAnswer{status: http.StatusAccepted, body: map[string]string{"request-id": triggerID}}
		}
	}
	op := x.m.flink.triggerSavepoint(j, x.now, dir, stop, cancel)
	if triggerID != "" {
		delete(j.ops, op.id)
		op.id = triggerID
		j.ops[triggerID] = op
	}
	return jmAnswer{status: http.StatusAccepted, body: map[string]string{"request-id": op.id}}
}

func jmSavepointStatus(x *jmReq, j *job) jmAnswer {
	tid := x.r.PathValue("triggerid")
	op, found := j.ops[tid]
	if !found {
		return notFound("Operation not found under key: AsynchronousJobOperationKey{triggerId=" + tid + ", jobId=" + j.id + "}")
	}
	if !op.done {
		return ok(map[string]any{"status": map[string]string{"id": "IN_PROGRESS"}})
	}
	var operation map[string]any
	if op.failure != "" {
		operation = map[string]any{"failure-cause": failureCause(op.failure)}
	} else {
		operation = map[string]any{"location": op.location}
		if op.endsJob {
			x.m.yarn.resultFetched(x.a, x.now)
		}
	}
	return ok(map[string]any{"status": map[string]string{"id": "COMPLETED"}, "operation": operation})
}

// failureCause is a SerializedThrowable as Flink's serializer writes it.
func failureCause(msg string) map[string]string {
	class := msg
	if i := strings.Index(msg, ":"); i > 0 {
		class = msg[:i]
	}
	return map[string]string{"class": class, "stack-trace": msg + "\n\tat org.apache.flink.runtime.checkpoint.CheckpointCoordinator.triggerCheckpoint(CheckpointCoordinator.java:560)\n",
		"serialized-throwable": "rO0ABXNyAC1zaW0="}
}

func jmExceptions(x *jmReq, j *job) jmAnswer {
	maxN := 10
	if s := x.r.URL.Query().Get("maxExceptions"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return badRequestFlink("Bad request, could not parse parameters: Conversion of query parameter maxExceptions failed for value " + s)
		}
		maxN = n
	}
	entries := []map[string]any{}
	for i, e := range j.exceptions {
		if i >= maxN {
			break
		}
		entry := map[string]any{"exceptionName": e.name, "stacktrace": e.trace, "timestamp": e.at.UnixMilli(),
			"failureLabels": map[string]string{}, "concurrentExceptions": []any{}}
		if e.task != "" {
			entry["taskName"] = e.task
			entry["endpoint"] = e.endpoint
			entry["taskManagerId"] = e.tm
		}
		entries = append(entries, entry)
	}
	body := map[string]any{"exceptionHistory": map[string]any{"entries": entries, "truncated": len(j.exceptions) > maxN}}
	if strings.HasPrefix(x.m.flinkVersion, "1.") {
		// 1.x still serves the deprecated top-level fields.
		body["all-exceptions"] = []any{}
		body["truncated"] = false
		if len(j.exceptions) > 0 {
			body["root-exception"] = j.exceptions[0].trace
			body["timestamp"] = j.exceptions[0].at.UnixMilli()
		}
	}
	return ok(body)
}

// jobMetrics are the job-scope metrics of a job.
func (x *jmReq) jobMetrics(j *job) map[string]string {
	up := int64(-1)
	if j.state == jobRunning {
		up = x.now.Sub(j.running).Milliseconds()
	}
	m := map[string]string{
		"uptime": strconv.FormatInt(max(up, 0), 10), "downtime": "0", "restartingTime": "0",
		"numRestarts": strconv.Itoa(j.restarts), "fullRestarts": strconv.Itoa(j.restarts),
		"numberOfCompletedCheckpoints":  strconv.FormatInt(j.ck.completed, 10),
		"numberOfFailedCheckpoints":     strconv.FormatInt(j.ck.failed, 10),
		"numberOfInProgressCheckpoints": "0",
		"totalNumberOfCheckpoints":      strconv.FormatInt(j.ck.completed+j.ck.failed, 10),
		"lastCheckpointDuration":        "-1", "lastCheckpointSize": "-1", "lastCheckpointFullSize": "-1",
		"lastCheckpointExternalPath": "n/a", "lastCheckpointRestoreTimestamp": "-1",
	}
	if _, _, ok := j.inProgress(x.now); ok {
		m["numberOfInProgressCheckpoints"] = "1"
	}
	if cp := j.ck.latest; cp != nil {
		m["lastCheckpointDuration"] = strconv.FormatInt(cp.ack.Sub(cp.trigger).Milliseconds(), 10)
		m["lastCheckpointSize"] = strconv.FormatInt(cp.size, 10)
		m["lastCheckpointFullSize"] = strconv.FormatInt(cp.size, 10)
		m["lastCheckpointExternalPath"] = cp.path
	}
	if r := j.ck.restore; r != nil {
		m["lastCheckpointRestoreTimestamp"] = strconv.FormatInt(r.at.UnixMilli(), 10)
	}
	return m
}

// jmJobMetrics answers with a bare JSON array (reference README §4.1).
func jmJobMetrics(x *jmReq, j *job) jmAnswer {
	return ok(selectMetrics(x.jobMetrics(j), x.r.URL.Query().Get("get")))
}

// jmJobsMetrics aggregates job metrics over this cluster's jobs.
func jmJobsMetrics(x *jmReq) jmAnswer {
	q := x.r.URL.Query()
	want := map[string]bool{}
	for _, id := range splitList(q.Get("jobs")) {
		want[id] = true
	}
	values := map[string][]float64{}
	for _, j := range x.a.jobs {
		if len(want) > 0 && !want[j.id] {
			continue
		}
		for k, v := range x.jobMetrics(j) {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				values[k] = append(values[k], f)
			}
		}
	}
	return ok(aggregate(values, q.Get("get"), splitList(q.Get("agg"))))
}

func jmVertex(x *jmReq, j *job, v *vertex) jmAnswer {
	subs := []map[string]any{}
	state := vertexState(j.state)
	for s := 0; s < v.parallelism; s++ {
		subs = append(subs, map[string]any{"subtask": s, "status": state, "attempt": j.restarts,
			"endpoint": x.jm.addr, "start-time": j.start.UnixMilli(), "end-time": j.endMs(),
			"duration": j.duration(x.now), "metrics": x.ioMetrics(j, v),
			"taskmanager-id": x.tmFor(s), "status-counts": stateCounts(state, 0), "start_time": j.start.UnixMilli()})
	}
	return ok(map[string]any{"id": v.id, "name": v.name, "maxParallelism": j.maxParallelism,
		"parallelism": v.parallelism, "now": x.now.UnixMilli(), "subtasks": subs})
}

// vertexMetricValues returns every subtask metric of v, keyed "i.name".
func (x *jmReq) vertexMetricValues(j *job, v *vertex) map[string]string {
	m := map[string]string{}
	if j.state != jobRunning {
		return m
	}
	for s := 0; s < v.parallelism; s++ {
		for k, val := range j.subtaskMetrics(v, s, x.now) {
			if k == "currentInputWatermark" && v.role == roleSource {
				continue
			}
			m[strconv.Itoa(s)+"."+k] = formatMetric(val)
		}
	}
	return m
}

func jmVertexMetrics(x *jmReq, j *job, v *vertex) jmAnswer {
	return ok(selectMetrics(x.vertexMetricValues(j, v), x.r.URL.Query().Get("get")))
}

func jmSubtaskMetrics(x *jmReq, j *job, v *vertex) jmAnswer {
	q := x.r.URL.Query()
	values := map[string][]float64{}
	if j.state == jobRunning {
		want := map[int]bool{}
		for _, s := range splitList(q.Get("subtasks")) {
			if n, err := strconv.Atoi(s); err == nil {
				want[n] = true
			}
		}
		for s := 0; s < v.parallelism; s++ {
			if len(want) > 0 && !want[s] {
				continue
			}
			for k, val := range j.subtaskMetrics(v, s, x.now) {
				if k == "currentInputWatermark" && v.role == roleSource {
					continue
				}
				values[k] = append(values[k], val)
			}
		}
	}
	return ok(aggregate(values, q.Get("get"), splitList(q.Get("agg"))))
}

func bpLevel(ratio float64) string {
	switch {
	case ratio <= 0.10:
		return "ok"
	case ratio <= 0.5:
		return "low"
	}
	return "high"
}

func jmBackpressure(x *jmReq, j *job, v *vertex) jmAnswer {
	if j.state != jobRunning {
		return ok(map[string]any{"status": "deprecated"})
	}
	subs := []map[string]any{}
	worst := 0.0
	for s := 0; s < v.parallelism; s++ {
		f := j.figures(v, s, x.now)
		ratio := round2(f.backpressured / 1000)
		worst = max(worst, ratio)
		subs = append(subs, map[string]any{"subtask": s, "attempt-number": j.restarts, "backpressureLevel": bpLevel(ratio),
			"ratio": ratio, "idleRatio": round2(f.idle / 1000), "busyRatio": round2(f.busy / 1000)})
	}
	return ok(map[string]any{"status": "ok", "backpressureLevel": bpLevel(worst), "end-timestamp": x.now.UnixMilli(), "subtasks": subs})
}

func round2(f float64) float64 { return float64(int64(f*100+0.5)) / 100 }

// jmWatermarks is GET …/watermarks: a bare metric array of currentInputWatermark per subtask.
func jmWatermarks(x *jmReq, j *job, v *vertex) jmAnswer {
	out := []metricEntry{}
	if j.state == jobRunning {
		for s := 0; s < v.parallelism; s++ {
			val := strconv.FormatInt(j.figures(v, s, x.now).watermark, 10)
			out = append(out, metricEntry{ID: strconv.Itoa(s) + ".currentInputWatermark", Value: &val})
		}
	}
	return ok(out)
}

// taskManagerIDs are the container ids of the app's TaskManagers.
func (x *jmReq) taskManagerIDs() []string {
	n := x.a.containers() - 1
	ids := make([]string, 0, n)
	for i := 0; i < n; i++ {
		ids = append(ids, containerID(x.a, len(x.a.attempts), i+2))
	}
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
	used := 0
	for _, j := range x.a.jobs {
		if !flinkTerminal(j.state) {
			used += j.parallelism
		}
	}
	tms := []map[string]any{}
	for i, id := range x.taskManagerIDs() {
		free := slotsPerTM - min(max(used-i*slotsPerTM, 0), slotsPerTM)
		res := func(slots int) map[string]any {
			return map[string]any{"cpuCores": float64(slots), "taskHeapMemory": 383 * slots, "taskOffHeapMemory": 0,
				"managedMemory": 512 * slots, "networkMemory": 128 * slots, "extendedResources": map[string]float64{}}
		}
		tms = append(tms, map[string]any{
			"id": id, "path": fmt.Sprintf("pekko.tcp://flink@%s:%d/user/rpc/taskmanager_0", x.m.host, 35000+i),
			"dataPort": 36000 + i, "jmxPort": -1, "timeSinceLastHeartbeat": x.now.UnixMilli() - 1200,
			"slotsNumber": slotsPerTM, "freeSlots": free, "totalResource": res(slotsPerTM), "freeResource": res(free),
			"hardware": map[string]any{"cpuCores": nodeVCores, "physicalMemory": int64(nodeMB) << 20,
				"freeMemory": int64(1536) << 20, "managedMemory": int64(1024) << 20},
			"memoryConfiguration": map[string]any{"frameworkHeap": 134217728, "taskHeap": 803209216,
				"frameworkOffHeap": 134217728, "taskOffHeap": 0, "networkMemory": 268435460, "managedMemory": 1073741824,
				"jvmMetaspace": 268435456, "jvmOverhead": 429496736, "totalFlinkMemory": 3221225472, "totalProcessMemory": 4294967296},
			"blocked": false,
		})
	}
	return ok(map[string]any{"taskmanagers": tms})
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

func jmKind(*http.Request) Kind { return KindJM }
