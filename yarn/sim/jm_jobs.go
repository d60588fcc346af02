package sim

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The JobManager's job endpoints: listings, details, plan, cancel and the
// exception history.

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

func jmYarnStop(x *jmReq, j *job) jmAnswer { return x.terminate(j, "STOP") }

// terminate cancels j (mode CANCEL); the removed STOP mode redirects.
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

func jmExceptions(x *jmReq, j *job) jmAnswer {
	maxN := 10
	if s := x.r.URL.Query().Get("maxExceptions"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return badRequestFlink("Bad request, could not parse parameters: Conversion of query parameter maxExceptions failed for value " + s)
		}
		maxN = n
	}
	v1 := x.v1()
	info := func(e exception) map[string]any {
		m := map[string]any{"exceptionName": e.name, "stacktrace": e.trace, "timestamp": e.at.UnixMilli(),
			"failureLabels": map[string]string{}}
		if e.task != "" {
			m["taskName"] = e.task
			m["endpoint"] = e.endpoint
			m["taskManagerId"] = e.tm
			if v1 {
				m["location"] = e.endpoint // deprecated in 1.x, gone in 2.0
			}
		}
		return m
	}
	entries := []map[string]any{}
	for i, e := range j.exceptions {
		if i >= maxN {
			break
		}
		entry := info(e)
		conc := []map[string]any{}
		for _, c := range e.concurrent {
			conc = append(conc, info(c))
		}
		entry["concurrentExceptions"] = conc
		entries = append(entries, entry)
	}
	body := map[string]any{"exceptionHistory": map[string]any{"entries": entries, "truncated": len(j.exceptions) > maxN}}
	if v1 {
		// 1.x still serves the deprecated top-level fields.
		all := []map[string]any{}
		if len(j.exceptions) > 0 {
			newest := j.exceptions[0]
			body["root-exception"] = newest.trace
			body["timestamp"] = newest.at.UnixMilli()
			for _, e := range append([]exception{newest}, newest.concurrent...) {
				if e.task != "" {
					all = append(all, map[string]any{"exception": e.trace, "task": e.task, "location": e.endpoint,
						"endpoint": e.endpoint, "taskManagerId": e.tm, "timestamp": e.at.UnixMilli()})
				}
			}
		}
		body["all-exceptions"] = all
		body["truncated"] = false
	}
	return ok(body)
}
