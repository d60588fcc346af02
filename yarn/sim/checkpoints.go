package sim

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// checkpoints are the checkpoint statistics of the current JobMaster, plus
// the id counter and the newest retained point, which survive failovers
// (they live in ZooKeeper and on HDFS).
type checkpoints struct {
	next            time.Time // trigger time of the next periodic checkpoint; zero while not scheduled
	lastID          int64
	completed       int64
	failed          int64
	restored        int64
	history         []*checkpoint // newest first, at most the job's history
	latest          *checkpoint   // newest completed checkpoint (not savepoint)
	latestSavepoint *checkpoint
	latestFailed    *checkpoint
	restore         *restoreInfo
	retained        *checkpoint // newest completed point of any kind, across JobMasters
	// kept are the completed checkpoints (not savepoints) Flink's
	// CompletedCheckpointStore retains, oldest first: at most the job's
	// num-retained, across JobMasters (they live in ZooKeeper and on HDFS).
	kept []*checkpoint
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

// restoreFrom records a restore from cp at t.
func (j *job) restoreFrom(cp *checkpoint, t time.Time) {
	j.ck.restored++
	j.ck.restore = &restoreInfo{id: cp.id, at: t, savepoint: cp.savepoint, path: cp.path}
	if cp.id > j.ck.lastID {
		j.ck.lastID = cp.id
	}
	j.restoredFrom = cp.path
}

// Flink's externalized checkpoint retention
// (execution.checkpointing.externalized-checkpoint-retention, one key in
// Flink 1.x and 2.x), by the names of its values.
const (
	// retainNever (NEVER_RETAIN_AFTER_TERMINATION) is Flink's default.
	retainNever = "NO_EXTERNALIZED_CHECKPOINTS"
	// retainOnFailure is RETAIN_ON_FAILURE inside Flink.
	retainOnFailure = "DELETE_ON_CANCELLATION"
	retainOnCancel  = "RETAIN_ON_CANCELLATION"
)

// parseRetention reads the retention a job runs with; Flink takes the
// enum's name in any case, and anything else leaves the default.
func parseRetention(s string) string {
	switch v := strings.ToUpper(strings.TrimSpace(s)); v {
	case retainOnFailure, retainOnCancel:
		return v
	}
	return retainNever
}

// keptOnEnd is CheckpointProperties.forCheckpoint's table: whether a job
// that ended in state end keeps its retained checkpoints under retention.
// Every retention discards them when the job FINISHES; RETAIN_ON_CANCELLATION
// keeps them after CANCELED, FAILED and SUSPENDED; DELETE_ON_CANCELLATION
// after FAILED only; NO_EXTERNALIZED_CHECKPOINTS never.
func keptOnEnd(retention, end string) bool {
	switch end {
	case jobFailed:
		return retention == retainOnFailure || retention == retainOnCancel
	case jobCanceled, jobSuspended:
		return retention == retainOnCancel
	}
	return false
}

// cleanUp is what Flink's checkpoint store does when j reaches a terminal
// state by Flink's own hand: it deletes the retained checkpoints its
// retention does not keep. A YARN kill (or an AM that died) runs no
// cleanup at all; that path never calls it, and the files stay.
func (f *flinkJobs) cleanUp(j *job) {
	if keptOnEnd(j.retention, j.state) {
		return
	}
	for _, cp := range j.ck.kept {
		f.points.discard(cp)
	}
	j.ck.kept = nil
}

// pointStore is every completed checkpoint and savepoint that can still
// be restored, by path: what the simulated HDFS holds.
type pointStore struct {
	byPath  map[string]*checkpoint
	lenient bool // Options.LenientRestore: any path restores
}

// add records a completed point.
func (s *pointStore) add(cp *checkpoint) { s.byPath[cp.path] = cp }

// discard marks a checkpoint deleted: it can no longer be restored.
func (s *pointStore) discard(cp *checkpoint) {
	cp.discarded = true
	delete(s.byPath, cp.path)
}

// lookup finds a restorable savepoint or checkpoint by path, or says why
// there is none, as Flink's failure would.
func (s *pointStore) lookup(path string) (*checkpoint, string) {
	p := strings.TrimRight(path, "/")
	if cp, ok := s.byPath[p]; ok && !cp.discarded {
		return cp, ""
	}
	if s.lenient {
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

// syncCheckpoints completes the periodic checkpoints due by t. Far behind
// (a fleet nobody looked at for hours), it skips to the last of its history,
// so its cost is bounded.
func (f *flinkJobs) syncCheckpoints(j *job, t time.Time) {
	if j.state != jobRunning || j.ck.next.IsZero() {
		return
	}
	for {
		trig := j.ck.next
		if behind := int64(t.Sub(trig) / j.interval); behind > int64(j.history)+2 {
			skip := behind - int64(j.history)
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
			f.failCheckpoint(j, id, trig, dur)
		} else {
			f.completeCheckpoint(j, id, trig, dur, "CHECKPOINT", fmt.Sprintf("%s/%s/chk-%d", j.checkpointDir, j.id, id))
		}
		j.ck.next = trig.Add(j.interval)
	}
}

func ckptDuration(j *job, id int64) time.Duration {
	d := time.Duration(150+noise(j.seed, uint64(id))*900) * time.Millisecond
	if j.diag != nil && j.diag.SlowCheckpoint > d {
		// The slow part (diagnose.go) is what the checkpoint waits for.
		d = j.diag.SlowCheckpoint + time.Duration(noise(j.seed, uint64(id)+9)*200)*time.Millisecond
	}
	return d
}

// ckptSize grows with the state and drops back at each (simulated)
// compaction, so long-running jobs keep plausible sizes.
func ckptSize(j *job, id int64) int64 {
	base := 2_000_000 + int64(noise(j.seed, 7)*80_000_000)
	return base + base*(id%500)/1000 + int64(noise(j.seed, uint64(id)+3)*float64(base)/10)
}

// completeCheckpoint records a completed checkpoint or savepoint.
func (f *flinkJobs) completeCheckpoint(j *job, id int64, trig time.Time, dur time.Duration, kind, path string) *checkpoint {
	cp := &checkpoint{id: id, jobID: j.id, savepoint: kind != "CHECKPOINT", kind: kind, status: "COMPLETED",
		trigger: trig, ack: trig.Add(dur), size: ckptSize(j, id), path: path, subtasks: j.subtasks()}
	j.ck.completed++
	if cp.savepoint {
		// Savepoints never enter the checkpoint store: nothing subsumes
		// them and Flink never deletes them.
		j.ck.latestSavepoint = cp
		j.savepoints = append(j.savepoints, path)
	} else {
		// Beyond num-retained the oldest is subsumed, its files deleted
		// (and forgotten here, so memory stays bounded).
		j.ck.kept = append(j.ck.kept, cp)
		for len(j.ck.kept) > j.numRetained {
			f.points.discard(j.ck.kept[0])
			j.ck.kept = j.ck.kept[1:]
		}
		j.ck.latest = cp
	}
	j.ck.retained = cp
	j.pushHistory(cp)
	f.points.add(cp)
	return cp
}

// failCheckpoint records checkpoint id as expired.
func (f *flinkJobs) failCheckpoint(j *job, id int64, trig time.Time, dur time.Duration) {
	cp := &checkpoint{id: id, jobID: j.id, kind: "CHECKPOINT", status: "FAILED", trigger: trig, ack: trig.Add(dur),
		failure: "Checkpoint expired before completing.", subtasks: j.subtasks()}
	j.ck.failed++
	j.ck.latestFailed = cp
	j.pushHistory(cp)
}

func (j *job) pushHistory(cp *checkpoint) {
	j.ck.history = append([]*checkpoint{cp}, j.ck.history...)
	if len(j.ck.history) > j.history {
		j.ck.history = j.ck.history[:j.history]
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
func (f *flinkJobs) triggerSavepoint(j *job, now time.Time, dir string, stop, cancel bool) *operation {
	op := &operation{id: hex32(f.rng), kind: "savepoint", endsJob: stop || cancel}
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
		f.events.schedule(j.app, now.Add(100*time.Millisecond), func(time.Time) {
			op.done = true
			op.failure = fmt.Sprintf("org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint triggering task %s of job %s is not being executed at the moment (job status %s). Aborting checkpoint. Failure reason: Not all required tasks are currently running.",
				j.vertices[0].name+" (1/"+strconv.Itoa(j.vertices[0].parallelism)+")", j.id, state)
		})
		return op
	}
	g := j.gen
	f.events.schedule(j.app, now.Add(dSavepoint), func(t time.Time) {
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
		path := fmt.Sprintf("%s/savepoint-%s-%s", dir, j.id[:6], hex32(f.rng)[:12])
		f.completeCheckpoint(j, j.ck.lastID, now, t.Sub(now), kind, path)
		op.done, op.location = true, path
		switch {
		case stop:
			j.gen++
			j.setState(jobFinished, t)
			j.end = t
			f.cleanUp(j)
			f.yarn.shutdownAfterJob(j.app, t, true)
		case cancel:
			f.cancelJob(j, t, true)
		}
	})
	return op
}
