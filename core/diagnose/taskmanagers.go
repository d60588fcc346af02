package diagnose

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/yarn"
)

// MaxDetailedTaskManagers caps the TaskManagers whose details (memory,
// garbage collection) one list reads.
const MaxDetailedTaskManagers = 256

// flinkOf resolves a job whose application's JobManager must answer,
// whether or not the job itself has a Flink job id yet (a TaskManager
// list needs only the cluster).
func (rd *Inspector) flinkOf(ctx context.Context, ref, what string) (target, error) {
	t, err := rd.resolve(ctx, ref, what)
	if err != nil {
		return t, err
	}
	if t.flink == nil {
		state := "not running"
		if t.app != nil {
			state = t.app.State
		}
		return t, fmt.Errorf("%s of job %s: its application is %s: its Flink cluster is gone", what, t.job.Name, state)
	}
	return t, nil
}

// TaskManagers implements api.DiagnoseService: the list, then each
// TaskManager's details for its memory and garbage collection.
func (rd *Inspector) TaskManagers(ctx context.Context, ref string) (api.TaskManagerList, error) {
	t, err := rd.flinkOf(ctx, ref, "TaskManagers")
	if err != nil {
		return api.TaskManagerList{}, err
	}
	out := api.TaskManagerList{JobID: t.job.ID, AppID: t.job.AppID, FetchedAt: rd.now()}
	tms, err := t.flink.TaskManagers(ctx)
	if err != nil {
		return out, fmt.Errorf("TaskManagers of job %s: %w", t.job.Name, err)
	}
	sort.Slice(tms, func(a, b int) bool { return tms[a].ID < tms[b].ID })
	n := min(len(tms), MaxDetailedTaskManagers)
	details := make([]yarn.TaskManagerDetails, n)
	errs := rd.fanOut(ctx, n, func(ctx context.Context, i int) (err error) {
		details[i], err = t.flink.TaskManager(ctx, tms[i].ID)
		return err
	})
	out.Notes = append(out.Notes, failureNotes("memory and GC", errs, func(i int) string { return tms[i].ID })...)
	if len(tms) > n {
		out.Notes = append(out.Notes, fmt.Sprintf("memory and GC of %d TaskManagers beyond the first %d not read", len(tms)-n, n))
	}
	for i, tm := range tms {
		info := taskManagerInfo(tm)
		if i < n && errs[i] == nil {
			addDetails(&info, details[i])
		}
		out.SlotsTotal += tm.SlotsNumber
		out.SlotsFree += tm.FreeSlots
		out.TaskManagers = append(out.TaskManagers, info)
	}
	return out, nil
}

func taskManagerInfo(tm yarn.TaskManager) api.TaskManagerInfo {
	mem := tm.MemoryConfiguration
	return api.TaskManagerInfo{ID: tm.ID, Host: tm.Host(), Slots: tm.SlotsNumber, FreeSlots: tm.FreeSlots,
		CPUCores: tm.Hardware.CPUCores, HeapMax: mem["frameworkHeap"] + mem["taskHeap"], ManagedMemory: mem["managedMemory"],
		NetworkMemory: mem["networkMemory"], Heartbeat: ms(tm.TimeSinceLastHeartbeat), Blocked: tm.Blocked}
}

func addDetails(info *api.TaskManagerInfo, d yarn.TaskManagerDetails) {
	info.Detailed = true
	info.HeapUsed = d.Metrics.HeapUsed
	if d.Metrics.HeapMax > 0 {
		info.HeapMax = d.Metrics.HeapMax
	}
	for _, gc := range d.Metrics.GarbageCollectors {
		info.GCCount += gc.Count
		info.GCTime += time.Duration(gc.Time) * time.Millisecond
	}
}

// TaskManager implements api.DiagnoseService.
func (rd *Inspector) TaskManager(ctx context.Context, r api.TaskManagerRequest) (api.TaskManagerDetail, error) {
	t, err := rd.flinkOf(ctx, r.JobRef, "TaskManager")
	if err != nil {
		return api.TaskManagerDetail{}, err
	}
	out := api.TaskManagerDetail{FetchedAt: rd.now()}
	var (
		d  yarn.TaskManagerDetails
		td yarn.ThreadDump
	)
	n := 1
	if r.ThreadDump {
		n = 2
	}
	errs := rd.fanOut(ctx, n, func(ctx context.Context, i int) (err error) {
		if i == 0 {
			d, err = t.flink.TaskManager(ctx, r.ID)
			return err
		}
		ctx, cancel := context.WithTimeout(ctx, rd.opts.StreamBudget)
		defer cancel()
		td, err = t.flink.ThreadDump(ctx, r.ID, r.MaxThreadDump)
		return err
	})
	if errs[0] != nil {
		return out, fmt.Errorf("TaskManager %s of job %s: %w", r.ID, t.job.Name, errs[0])
	}
	out.TaskManagerInfo = taskManagerInfo(d.TaskManager)
	addDetails(&out.TaskManagerInfo, d)
	m := d.Metrics
	out.NonHeapUsed, out.DirectUsed, out.NetworkUsed, out.NetworkTotal = m.NonHeapUsed, m.DirectUsed, m.NettyShuffleMemoryUsed, m.NettyShuffleMemoryTotal
	for _, gc := range m.GarbageCollectors {
		out.GarbageCollectors = append(out.GarbageCollectors, api.GarbageCollector{Name: gc.Name, Count: gc.Count,
			Time: time.Duration(gc.Time) * time.Millisecond})
	}
	out.Memory = d.MemoryConfiguration
	seen := map[string]bool{}
	for _, s := range d.AllocatedSlots {
		if s.JobID != "" && !seen[s.JobID] {
			seen[s.JobID] = true
			out.Jobs = append(out.Jobs, s.JobID)
		}
	}
	if r.ThreadDump {
		if errs[1] != nil {
			out.Notes = append(out.Notes, "thread dump: "+shortCause(errs[1]))
		} else {
			out.ThreadDump = threadDump(td)
		}
	}
	return out, nil
}

func threadDump(td yarn.ThreadDump) *api.ThreadDump {
	out := &api.ThreadDump{Truncated: td.Truncated, Bytes: td.Bytes, Threads: make([]api.Thread, 0, len(td.Threads))}
	for _, th := range td.Threads {
		out.Threads = append(out.Threads, api.Thread{Name: th.ThreadName, State: threadState(th.StringifiedThreadInfo),
			Text: th.StringifiedThreadInfo})
	}
	return out
}

// threadState reads the state Java prints after the thread's name and id:
// "\"name\" Id=87 WAITING on …" is WAITING.
func threadState(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	i := strings.Index(line, " Id=")
	if i < 0 {
		return ""
	}
	fields := strings.Fields(line[i+1:])
	if len(fields) < 2 {
		return ""
	}
	return fields[1]
}

// FlinkConfig implements api.DiagnoseService.
func (rd *Inspector) FlinkConfig(ctx context.Context, ref string) (api.FlinkConfig, error) {
	t, err := rd.flinkOf(ctx, ref, "configuration")
	if err != nil {
		return api.FlinkConfig{}, err
	}
	out := api.FlinkConfig{JobID: t.job.ID, FetchedAt: rd.now()}
	var (
		jm []yarn.ConfigEntry
		jc yarn.JobConfig
	)
	n := 1
	if t.job.FlinkJobID != "" {
		n = 2
	}
	errs := rd.fanOut(ctx, n, func(ctx context.Context, i int) (err error) {
		if i == 0 {
			jm, err = t.flink.JobManagerConfig(ctx)
		} else {
			jc, err = t.flink.JobConfig(ctx, t.job.FlinkJobID)
		}
		return err
	})
	if errs[0] != nil && (n == 1 || errs[1] != nil) {
		return out, fmt.Errorf("configuration of job %s: %w", t.job.Name, errs[0])
	}
	if errs[0] != nil {
		out.Notes = append(out.Notes, "JobManager configuration: "+shortCause(errs[0]))
	}
	for _, e := range jm {
		out.JobManager = append(out.JobManager, api.ConfigEntry{Key: e.Key, Value: e.Value})
		if e.Key == "rest.flamegraph.enabled" {
			out.FlameGraphs = strings.EqualFold(e.Value, "true")
		}
	}
	switch {
	case n == 1:
		out.Notes = append(out.Notes, "job configuration: its Flink job id is not known yet")
	case errs[1] != nil:
		out.Notes = append(out.Notes, "job configuration: "+shortCause(errs[1]))
	default:
		e := jc.ExecutionConfig
		out.Job = api.JobExecutionConfig{Name: jc.Name, Parallelism: e.JobParallelism, RestartStrategy: e.RestartStrategy,
			ObjectReuse: e.ObjectReuseMode, ExecutionMode: e.ExecutionMode, UserConfig: e.UserConfig}
	}
	return out, nil
}
