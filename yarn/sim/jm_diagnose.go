package sim

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The JobManager's diagnostic endpoints: a vertex's subtasks (details,
// times, TaskManagers, metrics), checkpoint parts, TaskManager details and
// thread dumps, the job's configuration and flame graphs. The figures come
// from metrics.go and diagnose.go.

// tmIndex is the index of the TaskManager that runs a subtask (slot
// sharing: slot k of every vertex shares TaskManager k/slotsPerTM).
func (x *jmReq) tmIndex(subtask int) int {
	n := max(len(x.taskManagerIDs()), 1)
	return (subtask / slotsPerTM) % n
}

// tmEndpoint is the data address of TaskManager i (what Flink shows as a
// subtask's endpoint).
func (x *jmReq) tmEndpoint(i int) string { return fmt.Sprintf("%s:%d", x.m.host, 36000+i) }

func (x *jmReq) v1() bool { return strings.HasPrefix(x.m.flinkVersion, "1.") }

// atLeast reports whether a version "major.minor[.patch]" is at least
// major.minor.
func atLeast(version string, major, minor int) bool {
	parts := strings.SplitN(version, ".", 3)
	ma, _ := strconv.Atoi(parts[0])
	mi := 0
	if len(parts) > 1 {
		mi, _ = strconv.Atoi(parts[1])
	}
	return ma > major || ma == major && mi >= minor
}

// subtaskIO is a subtask's IOMetricsInfo at now.
func (x *jmReq) subtaskIO(j *job, v *vertex, s int) map[string]any {
	var f vertexFigures
	if j.state == jobRunning {
		f = j.figures(v, s, x.now)
	}
	up := float64(max(x.now.Sub(j.running).Milliseconds(), 0))
	if j.state != jobRunning {
		up = 0
	}
	return map[string]any{
		"read-bytes": int64(f.inTotal * 180), "read-bytes-complete": true, "write-bytes": int64(f.outTotal * 180),
		"write-bytes-complete": true, "read-records": int64(f.inTotal), "read-records-complete": true,
		"write-records": int64(f.outTotal), "write-records-complete": true,
		"accumulated-backpressured-time": int64(f.backpressured / 1000 * up), "accumulated-idle-time": int64(f.idle / 1000 * up),
		"accumulated-busy-time": math.Round(f.busy / 1000 * up),
	}
}

// statusDuration is how long a subtask spent in each state of its attempt.
func (x *jmReq) statusDuration(j *job) map[string]int64 {
	running := int64(0)
	if j.state == jobRunning {
		running = max(x.now.Sub(j.running).Milliseconds(), 0)
	}
	return map[string]int64{"CREATED": 3, "SCHEDULED": 12, "DEPLOYING": 140, "INITIALIZING": 650, "RUNNING": running}
}

// aggregate5 summarises values as AggregatedTaskDetailsInfo does.
func aggregate5(vals []int64) map[string]int64 {
	if len(vals) == 0 {
		return map[string]int64{"min": 0, "max": 0, "avg": 0, "sum": 0, "median": 0, "p25": 0, "p75": 0, "p95": 0}
	}
	s := append([]int64(nil), vals...)
	sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
	var sum int64
	for _, v := range s {
		sum += v
	}
	q := func(p float64) int64 { return s[int(p*float64(len(s)-1))] }
	return map[string]int64{"min": s[0], "max": s[len(s)-1], "avg": sum / int64(len(s)), "sum": sum,
		"median": q(.5), "p25": q(.25), "p75": q(.75), "p95": q(.95)}
}

// aggregated is AggregatedTaskDetailsInfo over the given IO metrics and
// status durations.
func aggregated(ios []map[string]any, durs []map[string]int64) map[string]any {
	metrics := map[string]map[string]int64{}
	for _, k := range []string{"read-bytes", "write-bytes", "read-records", "write-records",
		"accumulated-backpressured-time", "accumulated-idle-time", "accumulated-busy-time"} {
		var vals []int64
		for _, io := range ios {
			switch n := io[k].(type) {
			case int64:
				vals = append(vals, n)
			case float64:
				vals = append(vals, int64(n))
			}
		}
		metrics[k] = aggregate5(vals)
	}
	status := map[string]map[string]int64{}
	for _, st := range []string{"CREATED", "SCHEDULED", "DEPLOYING", "INITIALIZING", "RUNNING"} {
		var vals []int64
		for _, d := range durs {
			vals = append(vals, d[st])
		}
		status[st] = aggregate5(vals)
	}
	return map[string]any{"metrics": metrics, "status-duration": status}
}

func jmVertex(x *jmReq, j *job, v *vertex) jmAnswer {
	subs := []map[string]any{}
	state := vertexState(j.state)
	var ios []map[string]any
	var durs []map[string]int64
	for s := 0; s < v.parallelism; s++ {
		io, dur := x.subtaskIO(j, v, s), x.statusDuration(j)
		ios, durs = append(ios, io), append(durs, dur)
		tm := x.tmIndex(s)
		sub := map[string]any{"subtask": s, "status": state, "attempt": j.restarts,
			"endpoint": x.tmEndpoint(tm), "start-time": j.start.UnixMilli(), "end-time": j.endMs(),
			"duration": j.duration(x.now), "metrics": io, "taskmanager-id": x.tmFor(s), "status-duration": dur}
		if x.v1() {
			sub["host"] = x.m.host
		}
		subs = append(subs, sub)
	}
	return x.stalled(j, ok(map[string]any{"id": v.id, "name": v.name, "maxParallelism": j.maxParallelism,
		"parallelism": v.parallelism, "now": x.now.UnixMilli(), "subtasks": subs, "aggregated": aggregated(ios, durs)}))
}

func jmSubtaskTimes(x *jmReq, j *job, v *vertex) jmAnswer {
	subs := []map[string]any{}
	for s := 0; s < v.parallelism; s++ {
		ts := map[string]int64{}
		at := j.start.UnixMilli()
		for _, st := range []string{"CREATED", "SCHEDULED", "DEPLOYING", "INITIALIZING", "RUNNING"} {
			ts[st] = at
			at += x.statusDuration(j)[st]
			if st == "INITIALIZING" && j.state == jobRunning {
				at = j.running.UnixMilli()
			}
		}
		sub := map[string]any{"subtask": s, "endpoint": x.tmEndpoint(x.tmIndex(s)), "duration": j.duration(x.now), "timestamps": ts}
		if x.v1() {
			sub["host"] = x.m.host
		}
		subs = append(subs, sub)
	}
	return x.stalled(j, ok(map[string]any{"id": v.id, "name": v.name, "now": x.now.UnixMilli(), "subtasks": subs}))
}

func jmVertexTaskManagers(x *jmReq, j *job, v *vertex) jmAnswer {
	state := vertexState(j.state)
	byTM := map[int][]int{}
	for s := 0; s < v.parallelism; s++ {
		byTM[x.tmIndex(s)] = append(byTM[x.tmIndex(s)], s)
	}
	tms := []map[string]any{}
	ids := x.taskManagerIDs()
	for i := 0; i < len(ids); i++ {
		subs := byTM[i]
		if len(subs) == 0 {
			continue
		}
		var ios []map[string]any
		var durs []map[string]int64
		sum := map[string]any{}
		for _, s := range subs {
			io := x.subtaskIO(j, v, s)
			ios, durs = append(ios, io), append(durs, x.statusDuration(j))
			for k, val := range io {
				switch n := val.(type) {
				case int64:
					prev, _ := sum[k].(int64)
					sum[k] = prev + n
				case float64:
					prev, _ := sum[k].(float64)
					sum[k] = prev + n
				case bool:
					sum[k] = n
				}
			}
		}
		tm := map[string]any{"endpoint": x.tmEndpoint(i), "status": state, "start-time": j.start.UnixMilli(),
			"end-time": j.endMs(), "duration": j.duration(x.now), "metrics": sum,
			"status-counts": stateCounts(state, len(subs)), "taskmanager-id": ids[i], "aggregated": aggregated(ios, durs)}
		if x.v1() {
			tm["host"] = x.m.host
		}
		tms = append(tms, tm)
	}
	return x.stalled(j, ok(map[string]any{"id": v.id, "name": v.name, "now": x.now.UnixMilli(), "taskmanagers": tms}))
}

// jmOneSubtaskMetrics is GET …/subtasks/{subtaskindex}/metrics: a bare
// metric array of that subtask's metrics.
func jmOneSubtaskMetrics(x *jmReq, j *job, v *vertex) jmAnswer {
	s, err := strconv.Atoi(x.r.PathValue("subtaskindex"))
	if err != nil || s < 0 || s >= v.parallelism {
		return badRequestFlink("Invalid subtask index for vertex " + v.id + ": " + x.r.PathValue("subtaskindex"))
	}
	all := map[string]string{}
	if j.state == jobRunning {
		for k, val := range j.subtaskMetrics(v, s, x.now) {
			if k == "currentInputWatermark" && v.role == roleSource {
				continue
			}
			all[k] = formatMetric(val)
		}
	}
	return x.stalled(j, ok(selectMetrics(all, x.r.URL.Query().Get("get"))))
}

// jmFlameGraph is GET …/flamegraph: Flink answers 200 whatever happens,
// with endTimestamp -2 while rest.flamegraph.enabled is off, -3 while the
// first samples are taken, -1 for a vertex whose tasks ended.
func jmFlameGraph(x *jmReq, j *job, v *vertex) jmAnswer {
	if !x.flameGraphsEnabled(j) {
		return ok(map[string]int64{"endTimestamp": -2})
	}
	typ := strings.ToUpper(x.r.URL.Query().Get("type"))
	switch typ {
	case "":
		typ = "FULL"
	case "FULL", "ON_CPU", "OFF_CPU":
	default:
		return badRequestFlink("Bad request, could not parse parameters: Conversion of query parameter type failed for value " + typ)
	}
	sub := -1
	if s := x.r.URL.Query().Get("subtaskindex"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n >= v.parallelism {
			return badRequestFlink("Invalid subtask index for vertex " + v.id + ": " + s)
		}
		sub = n
	}
	if j.state != jobRunning {
		return ok(map[string]int64{"endTimestamp": -1})
	}
	key := v.id + "/" + typ + "/" + strconv.Itoa(sub)
	if j.flameAsked == nil {
		j.flameAsked = map[string]time.Time{}
	}
	asked, seen := j.flameAsked[key]
	if !seen || asked.Before(j.running) {
		j.flameAsked[key] = x.now
		return ok(map[string]int64{"endTimestamp": -3})
	}
	if x.now.Sub(asked) < dFlameSample {
		return ok(map[string]int64{"endTimestamp": -3})
	}
	at := asked.Add(dFlameSample)
	return x.stalled(j, ok(map[string]any{"endTimestamp": at.UnixMilli(), "data": j.flameGraph(v, typ, sub, at)}))
}

func (x *jmReq) flameGraphsEnabled(j *job) bool {
	if d := j.diag; d != nil && d.FlameGraphs {
		return true
	}
	return strings.EqualFold(firstNonEmpty(j.config["rest.flamegraph.enabled"], x.a.config["rest.flamegraph.enabled"]), "true")
}

func jmTaskManager(x *jmReq, id string) jmAnswer {
	var entry map[string]any
	idx := -1
	for i, tm := range x.taskManagerIDs() {
		if tm == id {
			entry, idx = x.taskManagerJSON(i), i
		}
	}
	f := x.tmFigures(idx, id)
	slots := []map[string]any{}
	for _, j := range x.a.jobs {
		if flinkTerminal(j.state) {
			continue
		}
		n := 0
		for s := 0; s < j.parallelism; s++ {
			if x.tmFor(s) == id {
				n++
			}
		}
		for k := 0; k < n; k++ {
			slot := map[string]any{"jobId": j.id, "resource": resourceJSON(1)}
			if atLeast(x.m.flinkVersion, 2, 3) {
				slot["assignedTasks"] = len(j.vertices)
			}
			slots = append(slots, slot)
		}
	}
	entry["allocatedSlots"] = slots
	entry["metrics"] = map[string]any{
		"heapUsed": f.heapUsed, "heapCommitted": f.heapMax, "heapMax": f.heapMax,
		"nonHeapUsed": f.nonHeapUsed, "nonHeapCommitted": f.nonHeapUsed + 8<<20, "nonHeapMax": int64(780140544),
		"directCount": 42, "directUsed": f.directUsed, "directMax": f.directUsed,
		"mappedCount": 0, "mappedUsed": 0, "mappedMax": 0,
		"nettyShuffleMemorySegmentsAvailable": 6000, "nettyShuffleMemorySegmentsUsed": 2192, "nettyShuffleMemorySegmentsTotal": 8192,
		"nettyShuffleMemoryAvailable": int64(6000) << 15, "nettyShuffleMemoryUsed": int64(2192) << 15, "nettyShuffleMemoryTotal": int64(8192) << 15,
		"garbageCollectors": []map[string]any{
			{"name": "G1_Young_Generation", "count": f.youngCount, "time": f.youngTime},
			{"name": "G1_Old_Generation", "count": f.oldCount, "time": f.oldTime},
		},
	}
	if x.v1() {
		m := entry["metrics"].(map[string]any)
		m["memorySegmentsAvailable"], m["memorySegmentsTotal"] = 6000, 8192
	}
	return ok(entry)
}

// tmMetrics are a TaskManager's metrics as its metric group names them
// (Status.JVM.*, Status.Shuffle.Netty.*, Status.Flink.Memory.*): the same
// figures /taskmanagers/{tmid} reports in its "metrics".
func (x *jmReq) tmMetrics(id string) map[string]string {
	idx := -1
	for i, tm := range x.taskManagerIDs() {
		if tm == id {
			idx = i
		}
	}
	f := x.tmFigures(idx, id)
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	up := max(x.now.Sub(x.a.submitted).Milliseconds(), 1)
	return map[string]string{
		"Status.JVM.CPU.Load":                                   formatMetric(math.Round(f.cpuLoad*1000) / 1000),
		"Status.JVM.CPU.Time":                                   n(int64(float64(up) * 1e6 * f.cpuLoad)),
		"Status.JVM.Memory.Heap.Used":                           n(f.heapUsed),
		"Status.JVM.Memory.Heap.Committed":                      n(f.heapMax),
		"Status.JVM.Memory.Heap.Max":                            n(f.heapMax),
		"Status.JVM.Memory.NonHeap.Used":                        n(f.nonHeapUsed),
		"Status.JVM.Memory.NonHeap.Committed":                   n(f.nonHeapUsed + 8<<20),
		"Status.JVM.Memory.NonHeap.Max":                         n(780140544),
		"Status.JVM.Memory.Direct.Count":                        "42",
		"Status.JVM.Memory.Direct.MemoryUsed":                   n(f.directUsed),
		"Status.JVM.Memory.Direct.TotalCapacity":                n(f.directUsed),
		"Status.JVM.Memory.Mapped.Count":                        "0",
		"Status.JVM.Memory.Mapped.MemoryUsed":                   "0",
		"Status.JVM.Memory.Mapped.TotalCapacity":                "0",
		"Status.JVM.GarbageCollector.G1_Young_Generation.Count": n(f.youngCount),
		"Status.JVM.GarbageCollector.G1_Young_Generation.Time":  n(f.youngTime),
		"Status.JVM.GarbageCollector.G1_Old_Generation.Count":   n(f.oldCount),
		"Status.JVM.GarbageCollector.G1_Old_Generation.Time":    n(f.oldTime),
		"Status.JVM.Threads.Count":                              n(60 + int64(idx+1)*4),
		"Status.JVM.ClassLoader.ClassesLoaded":                  "14823",
		"Status.JVM.ClassLoader.ClassesUnloaded":                "12",
		"Status.Shuffle.Netty.AvailableMemorySegments":          "6000",
		"Status.Shuffle.Netty.UsedMemorySegments":               "2192",
		"Status.Shuffle.Netty.TotalMemorySegments":              "8192",
		"Status.Shuffle.Netty.AvailableMemory":                  n(6000 << 15),
		"Status.Shuffle.Netty.UsedMemory":                       n(2192 << 15),
		"Status.Shuffle.Netty.TotalMemory":                      n(8192 << 15),
		"Status.Flink.Memory.Managed.Used":                      "0",
		"Status.Flink.Memory.Managed.Total":                     n(536870920),
	}
}

// jmTaskManagerMetrics is GET /taskmanagers/{tmid}/metrics: a bare metric
// array, the names without get, their values with it.
func jmTaskManagerMetrics(x *jmReq, id string) jmAnswer {
	return ok(selectMetrics(x.tmMetrics(id), x.r.URL.Query().Get("get")))
}

func jmThreadDump(x *jmReq, id string) jmAnswer {
	if m := x.r.URL.Query().Get("mode"); m != "" && m != "LITE" && m != "FULL" {
		return badRequestFlink("Bad request, could not parse parameters: Conversion of query parameter mode failed for value " + m)
	}
	return ok(map[string]any{"threadInfos": x.threadDump(id)})
}

// jmJobConfig is GET /jobs/{jobid}/config as JobConfigInfo.Serializer
// writes it: "jid", "name" and "execution-config", not the spec's names.
func jmJobConfig(x *jmReq, j *job) jmAnswer {
	user := map[string]string{}
	for k, v := range j.config {
		if strings.HasPrefix(k, "pipeline.global-job-parameters.") {
			user[strings.TrimPrefix(k, "pipeline.global-job-parameters.")] = v
		}
	}
	attempts := defaultAttempts
	if n, err := strconv.Atoi(j.config["restart-strategy.fixed-delay.attempts"]); err == nil {
		attempts = n
	}
	exec := map[string]any{
		"restart-strategy": fmt.Sprintf("Restart with fixed delay (1000 ms). #%d restart attempts.", attempts),
		"job-parallelism":  j.parallelism, "object-reuse-mode": j.config["pipeline.object-reuse"] == "true", "user-config": user,
	}
	if x.v1() {
		exec["execution-mode"] = "PIPELINED"
	}
	return ok(map[string]any{"jid": j.id, "name": j.name, "execution-config": exec})
}

// stalled makes a diagnostic answer of a job whose Diagnosis asks for a
// slow JobManager come late, half of it first.
func (x *jmReq) stalled(j *job, a jmAnswer) jmAnswer {
	if d := j.diag; d != nil && d.JobManagerStall > 0 {
		a.stall = d.JobManagerStall
	}
	return a
}
