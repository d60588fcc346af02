package sim

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// The JobManager's checkpoint and savepoint endpoints: statistics,
// configuration, savepoint and stop-with-savepoint triggers and their
// asynchronous results.

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
	for _, cp := range x.history(j) {
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

// history is the ended checkpoints the JobManager keeps statistics of at
// now: its newest web.checkpoints.history, less one while a checkpoint is
// in progress, which takes its place in the history (CheckpointStatsHistory).
func (x *jmReq) history(j *job) []*checkpoint {
	h := j.ck.history
	if _, _, pending := j.inProgress(x.now); pending && len(h) >= j.history {
		h = h[:max(j.history-1, 0)]
	}
	return h
}

// findCheckpoint resolves the {checkpointid} path value: a checkpoint of
// the history, or the one in progress (nil cp, pending true).
func (x *jmReq) findCheckpoint(j *job) (cp *checkpoint, pending bool, errAns *jmAnswer) {
	id, err := strconv.ParseInt(x.r.PathValue("checkpointid"), 10, 64)
	if err != nil {
		a := badRequestFlink("Bad request, could not parse parameters: Conversion of path parameter checkpointid failed")
		return nil, false, &a
	}
	if pid, _, ok := j.inProgress(x.now); ok && pid == id {
		return nil, true, nil
	}
	for _, cp := range x.history(j) {
		if cp.id == id {
			return cp, false, nil
		}
	}
	a := notFound(fmt.Sprintf("Could not find checkpointing statistics for checkpoint %d.", id))
	return nil, false, &a
}

// jmCheckpointDetails is one checkpoint with its per-vertex figures
// (CheckpointStatistics with tasks, which the history leaves empty).
func jmCheckpointDetails(x *jmReq, j *job) jmAnswer {
	cp, pending, errAns := x.findCheckpoint(j)
	if errAns != nil {
		return *errAns
	}
	if pending {
		p := x.pendingJSON(j)
		tasks := map[string]any{}
		for _, v := range j.vertices {
			tasks[v.id] = map[string]any{"id": p["id"], "status": "IN_PROGRESS", "latest_ack_timestamp": p["trigger_timestamp"],
				"checkpointed_size": 0, "state_size": 0, "end_to_end_duration": p["end_to_end_duration"], "alignment_buffered": 0,
				"processed_data": 0, "persisted_data": 0, "num_subtasks": v.parallelism, "num_acknowledged_subtasks": 0}
		}
		p["tasks"] = tasks
		return ok(p)
	}
	m := checkpointJSON(cp)
	tasks := map[string]any{}
	for _, v := range j.vertices {
		t, _ := x.taskCheckpoint(j, cp, v)
		tasks[v.id] = t
	}
	m["tasks"] = tasks
	return ok(m)
}

// taskCheckpoint is one vertex's part of cp (TaskCheckpointStatistics) and
// its subtasks' (SubtaskCheckpointStatistics).
func (x *jmReq) taskCheckpoint(j *job, cp *checkpoint, v *vertex) (map[string]any, []map[string]any) {
	var subs []map[string]any
	var size, state, e2e, latest int64
	acked := 0
	for s := 0; s < v.parallelism; s++ {
		if !j.acknowledged(cp, v, s) {
			subs = append(subs, map[string]any{"className": "pending", "index": s, "status": "PENDING_OR_FAILED"})
			continue
		}
		p := j.checkpointPart(cp, v, s)
		acked++
		size, state = size+p.size, state+p.stateSize
		e2e, latest = max(e2e, p.e2e), max(latest, p.ack.UnixMilli())
		subs = append(subs, map[string]any{"className": "completed", "index": s, "status": "COMPLETED",
			"ack_timestamp": p.ack.UnixMilli(), "end_to_end_duration": p.e2e, "checkpointed_size": p.size,
			"state_size": p.stateSize, "checkpoint": map[string]int64{"sync": p.sync, "async": p.async},
			"alignment":   map[string]int64{"buffered": 0, "processed": 0, "persisted": 0, "duration": p.alignment},
			"start_delay": p.startDelay, "unaligned_checkpoint": false, "aborted": false})
	}
	status := cp.status
	if latest == 0 {
		latest = cp.trigger.UnixMilli()
	}
	return map[string]any{"id": cp.id, "status": status, "latest_ack_timestamp": latest, "checkpointed_size": size,
		"state_size": state, "end_to_end_duration": e2e, "alignment_buffered": 0, "processed_data": 0, "persisted_data": 0,
		"num_subtasks": v.parallelism, "num_acknowledged_subtasks": acked}, subs
}

// jmCheckpointSubtasks is GET /jobs/{jobid}/checkpoints/details/{cid}/subtasks/{vid}.
func jmCheckpointSubtasks(x *jmReq, j *job, v *vertex) jmAnswer {
	cp, pending, errAns := x.findCheckpoint(j)
	if errAns != nil {
		return *errAns
	}
	if pending {
		id, trig, _ := j.inProgress(x.now)
		subs := []map[string]any{}
		for s := 0; s < v.parallelism; s++ {
			subs = append(subs, map[string]any{"className": "pending", "index": s, "status": "PENDING_OR_FAILED"})
		}
		zero := summary(nil)
		return ok(map[string]any{"id": id, "status": "IN_PROGRESS", "latest_ack_timestamp": trig.UnixMilli(),
			"checkpointed_size": 0, "state_size": 0, "end_to_end_duration": x.now.Sub(trig).Milliseconds(), "alignment_buffered": 0,
			"processed_data": 0, "persisted_data": 0, "num_subtasks": v.parallelism, "num_acknowledged_subtasks": 0,
			"summary": map[string]any{"checkpointed_size": zero, "state_size": zero, "end_to_end_duration": zero, "start_delay": zero,
				"checkpoint_duration": map[string]any{"sync": zero, "async": zero},
				"alignment":           map[string]any{"buffered": zero, "processed": zero, "persisted": zero, "duration": zero}},
			"subtasks": subs})
	}
	task, subs := x.taskCheckpoint(j, cp, v)
	col := func(k string, inner string) []int64 {
		var out []int64
		for _, s := range subs {
			if s["className"] != "completed" {
				continue
			}
			if inner != "" {
				out = append(out, s[k].(map[string]int64)[inner])
			} else {
				out = append(out, s[k].(int64))
			}
		}
		return out
	}
	task["summary"] = map[string]any{
		"checkpointed_size": summary(col("checkpointed_size", "")), "state_size": summary(col("state_size", "")),
		"end_to_end_duration": summary(col("end_to_end_duration", "")), "start_delay": summary(col("start_delay", "")),
		"checkpoint_duration": map[string]any{"sync": summary(col("checkpoint", "sync")), "async": summary(col("checkpoint", "async"))},
		"alignment": map[string]any{"buffered": summary(col("alignment", "buffered")), "processed": summary(col("alignment", "processed")),
			"persisted": summary(col("alignment", "persisted")), "duration": summary(col("alignment", "duration"))},
	}
	if subs == nil {
		subs = []map[string]any{}
	}
	task["subtasks"] = subs
	return x.stalled(j, ok(task))
}

func jmCheckpointConfig(x *jmReq, j *job) jmAnswer {
	return ok(map[string]any{
		"mode": "EXACTLY_ONCE", "interval": j.interval.Milliseconds(), "timeout": 600000, "min_pause": 0,
		"max_concurrent": 1,
		// CheckpointConfigHandler: enabled unless NEVER_RETAIN_AFTER_TERMINATION,
		// delete_on_cancellation unless RETAIN_ON_CANCELLATION.
		"externalization": map[string]bool{"enabled": j.retention != retainNever, "delete_on_cancellation": j.retention != retainOnCancel},
		"state_backend":   "EmbeddedRocksDBStateBackend", "checkpoint_storage": "FileSystemCheckpointStorage",
		"unaligned_checkpoints": false, "tolerable_failed_checkpoints": 0, "aligned_checkpoint_timeout": 0,
		"checkpoints_after_tasks_finish": true, "state_changelog_enabled": false,
		"changelog_periodic_materialization_interval": 600000, "changelog_storage": "memory",
	})
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

// trigger starts a savepoint or stop-with-savepoint of j; a repeated
// trigger id is an idempotent retry.
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
