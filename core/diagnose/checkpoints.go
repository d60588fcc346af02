package diagnose

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/yarn"
)

// Checkpoints implements api.DiagnoseService: statistics and configuration,
// read together.
func (rd *Inspector) Checkpoints(ctx context.Context, ref string) (api.CheckpointsView, error) {
	t, err := rd.live(ctx, ref, "checkpoints")
	if err != nil {
		return api.CheckpointsView{}, err
	}
	out := api.CheckpointsView{JobID: t.job.ID, FetchedAt: rd.now()}
	var (
		stats    yarn.CheckpointStats
		conf     yarn.CheckpointConfig
		statsErr error
	)
	errs := rd.fanOut(ctx, 2, func(ctx context.Context, i int) error {
		if i == 0 {
			stats, statsErr = t.flink.Checkpoints(ctx, t.job.FlinkJobID)
			return statsErr
		}
		var err error
		conf, err = t.flink.CheckpointConfig(ctx, t.job.FlinkJobID)
		return err
	})
	if errs[0] != nil {
		return out, fmt.Errorf("checkpoints of job %s: %w", t.job.Name, errs[0])
	}
	if errs[1] != nil {
		out.Notes = append(out.Notes, "configuration: "+shortCause(errs[1]))
	} else {
		c := checkpointConfig(conf)
		out.Config = &c
	}
	c := stats.Counts
	out.Counts = api.CheckpointCounts{Total: c.Total, InProgress: c.InProgress, Completed: c.Completed, Failed: c.Failed, Restored: c.Restored}
	for _, h := range stats.History {
		out.History = append(out.History, CheckpointInfo(h))
	}
	if l := stats.Latest.Completed; l != nil {
		ci := CheckpointInfo(*l)
		out.Latest = &ci
	}
	if l := stats.Latest.Savepoint; l != nil {
		ci := CheckpointInfo(*l)
		out.LatestSavepoint = &ci
	}
	if l := stats.Latest.Failed; l != nil {
		ci := CheckpointInfo(*l)
		out.LatestFailed = &ci
	}
	out.Summary = checkpointSummary(stats.Summary)
	if r := stats.Latest.Restored; r != nil {
		out.Restored = &api.CheckpointInfo{ID: r.ID, Status: "RESTORED", Savepoint: r.IsSavepoint, TriggeredAt: ms(r.RestoreTimestamp), Path: r.ExternalPath}
	}
	return out, nil
}

// CheckpointInfo is one of Flink's checkpoint statistics for people.
func CheckpointInfo(c yarn.Checkpoint) api.CheckpointInfo {
	return api.CheckpointInfo{ID: c.ID, Status: c.Status, Savepoint: c.IsSavepoint, TriggeredAt: ms(c.TriggerTimestamp),
		Duration: time.Duration(c.EndToEndDuration) * time.Millisecond, Size: c.CheckpointedSize, Path: c.ExternalPath,
		Failure: c.FailureMessage, Kind: c.CheckpointType, Acknowledged: c.NumAcknowledgedSubtasks, Subtasks: c.NumSubtasks,
		StateSize: c.StateSize, ProcessedData: c.ProcessedData, PersistedData: c.PersistedData}
}

// checkpointSummary is Flink's summary in durations and bytes.
func checkpointSummary(s yarn.CheckpointSummary) api.CheckpointSummary {
	p99 := func(v float64) int64 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return -1
		}
		return int64(math.Round(v))
	}
	bytes := func(d yarn.StatsSummary) api.ByteStats {
		return api.ByteStats{Min: d.Min, Avg: d.Avg, Max: d.Max, P99: p99(float64(d.P99))}
	}
	e := s.EndToEndDuration
	msd := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
	dur := api.DurationStats{Min: msd(e.Min), Avg: msd(e.Avg), Max: msd(e.Max), P99: -1}
	if v := p99(float64(e.P99)); v >= 0 {
		dur.P99 = msd(v)
	}
	return api.CheckpointSummary{EndToEnd: dur, Checkpointed: bytes(s.CheckpointedSize), StateSize: bytes(s.StateSize),
		ProcessedData: bytes(s.ProcessedData), PersistedData: bytes(s.PersistedData)}
}

func checkpointConfig(c yarn.CheckpointConfig) api.CheckpointConfig {
	retention := "NO_EXTERNALIZED_CHECKPOINTS"
	if c.Externalization.Enabled {
		retention = "RETAIN_ON_CANCELLATION"
		if c.Externalization.DeleteOnCancellation {
			retention = "DELETE_ON_CANCELLATION"
		}
	}
	msd := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
	return api.CheckpointConfig{Mode: c.Mode, Interval: msd(c.Interval), Timeout: msd(c.Timeout), MinPause: msd(c.MinPause),
		MaxConcurrent: int(c.MaxConcurrent), Retention: retention, Unaligned: c.UnalignedCheckpoints,
		AlignedTimeout: msd(c.AlignedCheckpointTimeout), TolerableFailures: c.TolerableFailedCheckpoints,
		StateBackend: c.StateBackend, Storage: c.CheckpointStorage, Changelog: c.StateChangelogEnabled}
}

// Checkpoint implements api.DiagnoseService: the checkpoint's details, the
// job's vertices (for their names and order), then each vertex's part
// subtask by subtask.
func (rd *Inspector) Checkpoint(ctx context.Context, r api.CheckpointRequest) (api.CheckpointDetail, error) {
	t, err := rd.live(ctx, r.JobRef, "checkpoint")
	if err != nil {
		return api.CheckpointDetail{}, err
	}
	out := api.CheckpointDetail{JobID: t.job.ID, FetchedAt: rd.now(), SlowOperator: -1}
	var (
		cp  yarn.Checkpoint
		det yarn.JobDetails
	)
	errs := rd.fanOut(ctx, 2, func(ctx context.Context, i int) (err error) {
		if i == 0 {
			cp, err = t.flink.CheckpointDetails(ctx, t.job.FlinkJobID, r.ID)
		} else {
			det, err = t.flink.Job(ctx, t.job.FlinkJobID)
		}
		return err
	})
	if errs[0] != nil {
		if errors.Is(errs[0], yarn.ErrNotFound) {
			if g, notes, ok := rd.checkpointGone(ctx, t, r.ID); ok {
				out.Checkpoint, out.Gone, out.Notes = api.CheckpointInfo{ID: r.ID}, g, notes
				return out, nil
			}
		}
		return out, fmt.Errorf("checkpoint %d of job %s: %w", r.ID, t.job.Name, errs[0])
	}
	out.Checkpoint = CheckpointInfo(cp)
	type vertex struct{ id, name string }
	var vs []vertex
	if errs[1] == nil {
		for _, v := range det.Vertices {
			vs = append(vs, vertex{v.ID, v.Name})
		}
	} else {
		out.Notes = append(out.Notes, "vertex names: "+shortCause(errs[1]))
		for id := range cp.Tasks {
			vs = append(vs, vertex{id, id})
		}
		sort.Slice(vs, func(a, b int) bool { return vs[a].id < vs[b].id })
	}
	parts := make([]yarn.TaskCheckpointDetails, len(vs))
	var mu sync.Mutex
	errs = rd.fanOut(ctx, len(vs), func(ctx context.Context, i int) error {
		p, err := t.flink.CheckpointSubtasks(ctx, t.job.FlinkJobID, r.ID, vs[i].id)
		mu.Lock()
		parts[i] = p
		mu.Unlock()
		return err
	})
	out.Notes = append(out.Notes, failureNotes("subtasks", errs, func(i int) string { return vs[i].name })...)
	for i, v := range vs {
		op := api.CheckpointOperator{VertexID: v.id, Name: v.name, SlowSubtask: -1}
		task, ok := cp.Tasks[v.id]
		if ok {
			op.Parallelism, op.Acknowledged = task.NumSubtasks, task.NumAcknowledgedSubtasks
			op.Duration = time.Duration(task.EndToEndDuration) * time.Millisecond
			op.Size, op.StateSize = task.CheckpointedSize, task.StateSize
			op.ProcessedData, op.PersistedData, op.AlignmentBuffers = task.ProcessedData, task.PersistedData, task.AlignmentBuffered
		}
		if errs[i] == nil {
			op.Subtasks = checkpointSubtasks(parts[i])
		}
		out.Operators = append(out.Operators, op)
	}
	markSlow(&out)
	return out, nil
}

func checkpointSubtasks(p yarn.TaskCheckpointDetails) []api.CheckpointSubtask {
	d := func(v int64) time.Duration { return time.Duration(max(v, 0)) * time.Millisecond }
	out := make([]api.CheckpointSubtask, 0, len(p.Subtasks))
	for _, s := range p.Subtasks {
		cs := api.CheckpointSubtask{Index: s.Index, Acknowledged: s.Completed()}
		if cs.Acknowledged {
			cs.AckedAt = ms(s.AckTimestamp)
			cs.Duration, cs.Sync, cs.Async = d(s.EndToEndDuration), d(s.Checkpoint.Sync), d(s.Checkpoint.Async)
			cs.Alignment, cs.StartDelay = d(s.Alignment.Duration), d(s.StartDelay)
			cs.Size, cs.StateSize = s.CheckpointedSize, s.StateSize
			cs.Unaligned, cs.Aborted = s.UnalignedCheckpoint, s.Aborted
		}
		out = append(out, cs)
	}
	return out
}

// markSlow finds, in each operator, its slowest acknowledged subtask; the
// operator whose slowest subtask took longest is the one the checkpoint
// waited for, and that subtask is marked Slow.
func markSlow(d *api.CheckpointDetail) {
	var slowest time.Duration
	for i := range d.Operators {
		op := &d.Operators[i]
		for k, s := range op.Subtasks {
			if s.Acknowledged && (op.SlowSubtask < 0 || s.Duration > op.Subtasks[op.SlowSubtask].Duration) {
				op.SlowSubtask = k
			}
		}
		dur := op.Duration
		if op.SlowSubtask >= 0 {
			dur = max(dur, op.Subtasks[op.SlowSubtask].Duration)
		}
		if dur > 0 && (d.SlowOperator < 0 || dur > slowest) {
			d.SlowOperator, slowest = i, dur
		}
	}
	if d.SlowOperator < 0 {
		return
	}
	op := &d.Operators[d.SlowOperator]
	op.Slow = true
	if op.SlowSubtask >= 0 {
		op.Subtasks[op.SlowSubtask].Slow = true
	}
}
