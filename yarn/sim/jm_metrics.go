package sim

import "strconv"

// The JobManager's metric endpoints: job and vertex metrics, aggregated
// subtask metrics, back pressure and watermarks. The figures come from
// metrics.go.

// ioMetrics are a vertex's accumulated I/O figures (IOMetricsInfo).
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
	return x.stalled(j, ok(selectMetrics(x.vertexMetricValues(j, v), x.r.URL.Query().Get("get"))))
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
	return x.stalled(j, ok(aggregate(values, q.Get("get"), splitList(q.Get("agg")))))
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
	return x.stalled(j, ok(map[string]any{"status": "ok", "backpressureLevel": bpLevel(worst), "end-timestamp": x.now.UnixMilli(), "subtasks": subs}))
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
	return x.stalled(j, ok(out))
}
