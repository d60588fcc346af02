package tuitest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// diagPart is the fake's api.DiagnoseService: what core/diagnose would
// compute, by job id, as the warm demo shapes it. orders-enrich (j001)
// holds back at its lookup join, whose subtask 2 is hot and whose
// checkpoint 8810 waited on it; fraud-scoring (j005) failed of an
// OutOfMemoryError, its application gone; user-features (j004) restarts
// on async lookup timeouts. A job without data answers "not found", as a
// JobManager that is gone does.
type diagPart struct {
	f           *Fake
	graphs      map[string]api.JobGraph
	vertices    map[string]api.VertexDetail // job id + "/" + vertex id
	checkpoints map[string]api.CheckpointsView
	checkpoint  map[string]api.CheckpointDetail // job id + "/" + checkpoint id
	rotated     map[string]int                  // job id + "/" + checkpoint id: the history's size
	tms         map[string]api.TaskManagerList
	configs     map[string]api.FlinkConfig
	flames      map[string]api.FlameGraph // job id + "/" + vertex id + "/" + type
	exceptions  map[string]api.ExceptionHistory
	containers  map[string]api.ContainerLogList
}

var _ api.DiagnoseService = (*Fake)(nil)

func (p *diagPart) get(ctx context.Context, call, ref string, args ...any) (string, error) {
	if p == nil {
		return "", errors.New("this fake has no diagnostics")
	}
	f := p.f
	f.record("%s %s%s", call, ref, fmt.Sprint(args...))
	if err := f.wait(ctx); err != nil {
		return "", err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	i, err := f.find(ref)
	if err != nil {
		return "", err
	}
	return f.Jobs[i].ID, nil
}

func lookup[T any](p *diagPart, m map[string]T, key, what string) (T, error) {
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	v, ok := m[key]
	if !ok {
		var zero T
		return zero, fmt.Errorf("%s: not found", what)
	}
	return v, nil
}

// JobGraph implements api.DiagnoseService.
func (p *diagPart) JobGraph(ctx context.Context, ref string) (api.JobGraph, error) {
	id, err := p.get(ctx, "JobGraph", ref)
	if err != nil {
		return api.JobGraph{}, err
	}
	return lookup(p, p.graphs, id, "graph of job "+ref)
}

// Vertex implements api.DiagnoseService.
func (p *diagPart) Vertex(ctx context.Context, r api.VertexRequest) (api.VertexDetail, error) {
	id, err := p.get(ctx, "Vertex", r.JobRef, " "+r.VertexID)
	if err != nil {
		return api.VertexDetail{}, err
	}
	return lookup(p, p.vertices, id+"/"+r.VertexID, "vertex "+r.VertexID)
}

// Checkpoints implements api.DiagnoseService.
func (p *diagPart) Checkpoints(ctx context.Context, ref string) (api.CheckpointsView, error) {
	id, err := p.get(ctx, "Checkpoints", ref)
	if err != nil {
		return api.CheckpointsView{}, err
	}
	return lookup(p, p.checkpoints, id, "checkpoints of job "+ref)
}

// Checkpoint implements api.DiagnoseService.
func (p *diagPart) Checkpoint(ctx context.Context, r api.CheckpointRequest) (api.CheckpointDetail, error) {
	id, err := p.get(ctx, "Checkpoint", r.JobRef, fmt.Sprintf(" %d", r.ID))
	if err != nil {
		return api.CheckpointDetail{}, err
	}
	key := fmt.Sprintf("%s/%d", id, r.ID)
	if g, ok := p.gone(id, key, r.ID); ok {
		return api.CheckpointDetail{JobID: id, FetchedAt: Now, Checkpoint: api.CheckpointInfo{ID: r.ID}, SlowOperator: -1, Gone: g}, nil
	}
	return lookup(p, p.checkpoint, key, fmt.Sprintf("checkpoint %d", r.ID))
}

// gone is what core answers for a checkpoint RotateCheckpoint rotated out
// of the JobManager's history: its size, and palink's record of the
// checkpoint among the job's latest points and restore points.
func (p *diagPart) gone(jobID, key string, id int64) (*api.CheckpointGone, bool) {
	f := p.f
	f.Mu.Lock()
	defer f.Mu.Unlock()
	kept, ok := p.rotated[key]
	if !ok {
		return nil, false
	}
	g := &api.CheckpointGone{ID: id, Kept: kept}
	i, _ := f.find(jobID)
	j := f.Jobs[i]
	rps := []model.RestorePoint{}
	for _, rp := range []*model.RestorePoint{j.LatestSavepoint, j.LatestCheckpoint} {
		if rp != nil {
			rps = append(rps, *rp)
		}
	}
	for _, rp := range append(rps, f.details[jobID].RestorePoints...) {
		if rp.CheckID == id && rp.FlinkJobID == j.FlinkJobID {
			g.Recorded = &rp
			break
		}
	}
	return g, true
}

// RotateCheckpoint makes the JobManager no longer keep checkpoint id of
// a job, whose history keeps kept, as if newer ones had pushed it out.
func (p *diagPart) RotateCheckpoint(jobID string, id int64, kept int) {
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	p.rotated[fmt.Sprintf("%s/%d", jobID, id)] = kept
}

// TaskManagers implements api.DiagnoseService.
func (p *diagPart) TaskManagers(ctx context.Context, ref string) (api.TaskManagerList, error) {
	id, err := p.get(ctx, "TaskManagers", ref)
	if err != nil {
		return api.TaskManagerList{}, err
	}
	return lookup(p, p.tms, id, "TaskManagers of job "+ref)
}

// TaskManager implements api.DiagnoseService.
func (p *diagPart) TaskManager(ctx context.Context, r api.TaskManagerRequest) (api.TaskManagerDetail, error) {
	id, err := p.get(ctx, "TaskManager", r.JobRef, " "+r.ID)
	if err != nil {
		return api.TaskManagerDetail{}, err
	}
	l, err := lookup(p, p.tms, id, "TaskManagers of job "+r.JobRef)
	if err != nil {
		return api.TaskManagerDetail{}, err
	}
	i := slices.IndexFunc(l.TaskManagers, func(t api.TaskManagerInfo) bool { return t.ID == r.ID })
	if i < 0 {
		return api.TaskManagerDetail{}, fmt.Errorf("TaskManager %s: not found", r.ID)
	}
	tm := l.TaskManagers[i]
	d := api.TaskManagerDetail{
		TaskManagerInfo: tm, FetchedAt: Now, NonHeapUsed: 180 << 20, DirectUsed: 96 << 20, NetworkUsed: 40 << 20, NetworkTotal: tm.NetworkMemory,
		GarbageCollectors: []api.GarbageCollector{{Name: "G1 Young Generation", Count: tm.GCCount - 3, Time: tm.GCTime - 900*time.Millisecond}, {Name: "G1 Old Generation", Count: 3, Time: 900 * time.Millisecond}},
		Memory:            map[string]int64{"jvm heap": tm.HeapMax, "managed": tm.ManagedMemory, "network": tm.NetworkMemory, "jvm metaspace": 256 << 20, "jvm overhead": 192 << 20},
		Jobs:              []string{l.JobID},
	}
	if r.ThreadDump {
		d.ThreadDump = &api.ThreadDump{Threads: threadDump(tm.ID), Bytes: 4096}
	}
	return d, nil
}

// FlinkConfig implements api.DiagnoseService.
func (p *diagPart) FlinkConfig(ctx context.Context, ref string) (api.FlinkConfig, error) {
	id, err := p.get(ctx, "FlinkConfig", ref)
	if err != nil {
		return api.FlinkConfig{}, err
	}
	return lookup(p, p.configs, id, "configuration of job "+ref)
}

// FlameGraph implements api.DiagnoseService.
func (p *diagPart) FlameGraph(ctx context.Context, r api.FlameGraphRequest) (api.FlameGraph, error) {
	typ := r.Type
	if typ == "" {
		typ = api.FlameFull
	}
	id, err := p.get(ctx, "FlameGraph", r.JobRef, " "+r.VertexID+" "+typ)
	if err != nil {
		return api.FlameGraph{}, err
	}
	p.f.Mu.Lock()
	cfg, hasCfg := p.configs[id]
	p.f.Mu.Unlock()
	if hasCfg && !cfg.FlameGraphs {
		return api.FlameGraph{JobID: id, VertexID: r.VertexID, Type: typ, Subtask: -1, Status: api.FlameDisabled,
			Message: "rest.flamegraph.enabled is false in the JobManager's configuration"}, nil
	}
	return lookup(p, p.flames, id+"/"+r.VertexID+"/"+typ, "flame graph of vertex "+r.VertexID)
}

// Exceptions implements api.DiagnoseService.
func (p *diagPart) Exceptions(ctx context.Context, ref string) (api.ExceptionHistory, error) {
	id, err := p.get(ctx, "Exceptions", ref)
	if err != nil {
		return api.ExceptionHistory{}, err
	}
	return lookup(p, p.exceptions, id, "exceptions of job "+ref)
}

// ContainerLogs implements api.DiagnoseService.
func (p *diagPart) ContainerLogs(ctx context.Context, ref string) (api.ContainerLogList, error) {
	id, err := p.get(ctx, "ContainerLogs", ref)
	if err != nil {
		return api.ContainerLogList{}, err
	}
	return lookup(p, p.containers, id, "container logs of job "+ref)
}

// SetContainerLogs replaces what ContainerLogs answers for a job.
func (p *diagPart) SetContainerLogs(jobID string, l api.ContainerLogList) {
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	p.containers[jobID] = l
}

// ForgetContainerLogs makes ContainerLogs fail for a job, as when its
// ResourceManager does not answer.
func (p *diagPart) ForgetContainerLogs(jobID string) {
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	delete(p.containers, jobID)
}

// SetGraph replaces a job's graph (for big graphs in scale tests).
func (p *diagPart) SetGraph(jobID string, g api.JobGraph) {
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	p.graphs[jobID] = g
}

// SetVertex replaces one vertex's subtasks.
func (p *diagPart) SetVertex(jobID string, v api.VertexDetail) {
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	p.vertices[jobID+"/"+v.VertexID] = v
}

// SetFlameGraph replaces one vertex's flame graph of its type.
func (p *diagPart) SetFlameGraph(jobID string, g api.FlameGraph) {
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	p.flames[jobID+"/"+g.VertexID+"/"+g.Type] = g
}

// SetExceptions replaces a job's exception history.
func (p *diagPart) SetExceptions(jobID string, h api.ExceptionHistory) {
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	p.exceptions[jobID] = h
}

// ForgetExceptions drops what the fake knows of a job's failures, as for
// an application that died before palink kept them.
func (p *diagPart) ForgetExceptions(jobID string) {
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	delete(p.exceptions, jobID)
}

// SetFlameGraphs turns a job's rest.flamegraph.enabled on or off.
func (p *diagPart) SetFlameGraphs(jobID string, on bool) {
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	c := p.configs[jobID]
	c.FlameGraphs = on
	p.configs[jobID] = c
}

// The fixture's diagnostic ids.
const (
	// LookupVertex is orders-enrich's lookup join, its bottleneck.
	LookupVertex = "9dd63673dd41ea021b896d5203f3ba7c"
	// FraudTM is the container fraud-scoring's task failed in; FraudAM
	// its application master's, the JobManager's.
	FraudTM = "container_e01_1732000000000_0051_01_000004"
	FraudAM = "container_e01_1732000000000_0051_01_000001"
	// UsersTM is the TaskManager user-features' lookup timed out on.
	UsersTM = "container_e01_1730000000000_0003_01_000002"
)

// newDiagPart is the fixture's diagnostics.
func newDiagPart(f *Fake) *diagPart {
	ago := func(d time.Duration) time.Time { return Now.Add(-d) }
	p := &diagPart{f: f,
		graphs: map[string]api.JobGraph{}, vertices: map[string]api.VertexDetail{}, checkpoints: map[string]api.CheckpointsView{},
		checkpoint: map[string]api.CheckpointDetail{}, rotated: map[string]int{}, tms: map[string]api.TaskManagerList{}, configs: map[string]api.FlinkConfig{},
		flames: map[string]api.FlameGraph{}, exceptions: map[string]api.ExceptionHistory{}, containers: map[string]api.ContainerLogList{}}

	// orders-enrich: Kafka → Calc → async lookup join against users → sink.
	ids := []string{"bc764cd8ddf7a0cff126f51c16239658", "0a448493b4782967b150582570326227", LookupVertex, "ea632d67b7d595e5b851708ae9ad79d6"}
	p.graphs["j001"] = api.JobGraph{
		JobID: "j001", JobName: "orders-enrich", FlinkJobID: "3f9c0d1e2b3a4c5d6e7f8091a2b3a21e", FlinkState: "RUNNING", FetchedAt: ago(time.Second),
		Vertices: []api.GraphVertex{
			{ID: ids[0], Name: "Source: orders[1]", Parallelism: 4, State: "RUNNING", Source: true, RecordsOut: 12400, Busy: 0.21, Backpressure: 0.81, Measured: true},
			{ID: ids[1], Name: "Calc[2]", Parallelism: 4, State: "RUNNING", RecordsIn: 12400, RecordsOut: 12400, Busy: 0.34, Backpressure: 0.78,
				Watermark: ago(4 * time.Second), WatermarkDelay: 4100 * time.Millisecond, Measured: true},
			{ID: ids[2], Name: "LookupJoin[3](table=[default_catalog.default_database.users], joinType=[LeftOuterJoin], async=[true], lookup=[id=user_id])", Parallelism: 4, State: "RUNNING",
				RecordsIn: 12400, RecordsOut: 12380, Busy: 0.97, Watermark: ago(4 * time.Second), WatermarkDelay: 4300 * time.Millisecond, Measured: true},
			{ID: ids[3], Name: "Sink: enriched[4]", Parallelism: 4, State: "RUNNING", Sink: true, RecordsIn: 12380, Busy: 0.06, Idle: 0.9,
				Watermark: ago(5 * time.Second), WatermarkDelay: 4500 * time.Millisecond, Measured: true},
		},
		Edges:         []api.GraphEdge{{From: 0, To: 1, ShipStrategy: "FORWARD"}, {From: 1, To: 2, ShipStrategy: "HASH"}, {From: 2, To: 3, ShipStrategy: "FORWARD"}},
		Bottleneck:    2,
		BottleneckWhy: "busy 97% with backpressure upstream (81% at Source: orders[1]) and none of its own",
	}
	lookupName := p.graphs["j001"].Vertices[2].Name
	subs := make([]api.SubtaskRow, 4)
	for i := range subs {
		in := int64(3_100_000 + i*41_000)
		rate := 2400.0 + float64(i)*60
		busy, bp := 0.55+float64(i)*0.03, 0.0
		if i == 2 {
			in, rate, busy = 9_800_000, 7700, 0.97
		}
		tm := fmt.Sprintf("container_e01_1732000000000_0042_01_00000%d", 2+i/2)
		subs[i] = api.SubtaskRow{Index: i, State: "RUNNING", Attempt: 0, RecordsIn: in, RecordsOut: in - 2000, BytesIn: in * 118, BytesOut: in * 131,
			RecordsInPerSec: rate, RecordsOutPerSec: rate - 5, Busy: busy, Backpressure: bp, Idle: 1 - busy,
			Watermark: ago(4 * time.Second), WatermarkDelay: 4300 * time.Millisecond, TaskManager: tm, Host: fmt.Sprintf("node%d.prod", 7+i/2),
			Endpoint: fmt.Sprintf("node%d.prod:4123%d", 7+i/2, 3+i/2), Duration: 76 * time.Hour, Hot: i == 2}
	}
	p.vertices["j001/"+LookupVertex] = api.VertexDetail{JobID: "j001", VertexID: LookupVertex, Name: lookupName, Parallelism: 4, FetchedAt: ago(time.Second),
		Subtasks: subs, Skew: api.Skew{Of: "records in/s", Max: 7700, Median: 2460, Ratio: 3.13, Subtask: 2, Window: 5 * time.Second}}

	cfg := &api.CheckpointConfig{Mode: "EXACTLY_ONCE", Interval: time.Minute, Timeout: 10 * time.Minute, MinPause: 0, MaxConcurrent: 1,
		Retention: "RETAIN_ON_CANCELLATION", Unaligned: false, TolerableFailures: 3, StateBackend: "rocksdb", Storage: "hdfs:///flink/ck"}
	hist := []api.CheckpointInfo{
		{ID: 8812, Status: "COMPLETED", TriggeredAt: ago(12 * time.Second), Duration: 1200 * time.Millisecond, Size: 38 << 20, Path: "hdfs:///flink/ck/3f9c0d1e/chk-8812"},
		{ID: 8811, Status: "FAILED", TriggeredAt: ago(72 * time.Second), Duration: 60 * time.Second, Failure: "Checkpoint expired before completing"},
		{ID: 8810, Status: "COMPLETED", TriggeredAt: ago(132 * time.Second), Duration: 14800 * time.Millisecond, Size: 37 << 20, Path: "hdfs:///flink/ck/3f9c0d1e/chk-8810"},
		{ID: 8809, Status: "COMPLETED", TriggeredAt: ago(192 * time.Second), Duration: 1100 * time.Millisecond, Size: 37 << 20, Path: "hdfs:///flink/ck/3f9c0d1e/chk-8809"},
	}
	// It restored from the savepoint of PAUSE #40 76 hours ago; its
	// checkpoints are incremental: each persists ~37 MiB of 1.2 GiB.
	p.checkpoints["j001"] = api.CheckpointsView{JobID: "j001", FetchedAt: ago(time.Second), Config: cfg, History: hist, Latest: &hist[0],
		LatestFailed: &hist[1], Counts: api.CheckpointCounts{Total: 8812, Completed: 8790, Failed: 22, Restored: 1},
		Restored: &api.CheckpointInfo{ID: 8650, Status: "RESTORED", Savepoint: true, TriggeredAt: ago(76 * time.Hour), Path: "hdfs:///flink/sp/orders-enrich/savepoint-7f3a21"},
		Summary: api.CheckpointSummary{
			EndToEnd:     api.DurationStats{Min: 1100 * time.Millisecond, Avg: 1900 * time.Millisecond, Max: 14800 * time.Millisecond, P99: 14200 * time.Millisecond},
			Checkpointed: api.ByteStats{Min: 36 << 20, Avg: 37 << 20, Max: 38 << 20, P99: 38 << 20},
			StateSize:    api.ByteStats{Min: 1200 << 20, Avg: 1210 << 20, Max: 1230 << 20, P99: 1230 << 20},
		}}
	ops := make([]api.CheckpointOperator, 4)
	for o := range ops {
		sts := make([]api.CheckpointSubtask, 4)
		for i := range sts {
			d := time.Duration(700+o*90+i*30) * time.Millisecond
			sts[i] = api.CheckpointSubtask{Index: i, Acknowledged: true, AckedAt: ago(132*time.Second - d), Duration: d,
				Sync: 12 * time.Millisecond, Async: d - 400*time.Millisecond, Alignment: 180 * time.Millisecond, StartDelay: 150 * time.Millisecond,
				Size: 9 << 20, StateSize: 9 << 20}
		}
		op := api.CheckpointOperator{VertexID: ids[o], Name: p.graphs["j001"].Vertices[o].Name, Parallelism: 4, Acknowledged: 4,
			Subtasks: sts, SlowSubtask: 3, Size: 36 << 20, StateSize: 36 << 20}
		if o == 2 {
			sts[2].Duration, sts[2].Async, sts[2].Alignment, sts[2].StartDelay, sts[2].Slow = 14800*time.Millisecond, 2100*time.Millisecond, 160*time.Millisecond, 12400*time.Millisecond, true
			op.SlowSubtask, op.Slow = 2, true
		}
		op.Duration = slices.MaxFunc(sts, func(a, b api.CheckpointSubtask) int { return int(a.Duration - b.Duration) }).Duration
		ops[o] = op
	}
	p.checkpoint["j001/8810"] = api.CheckpointDetail{JobID: "j001", FetchedAt: ago(time.Second), Checkpoint: hist[2], Operators: ops, SlowOperator: 2}

	tm := func(n int, host string, free int, gc int64) api.TaskManagerInfo {
		return api.TaskManagerInfo{ID: fmt.Sprintf("container_e01_1732000000000_0042_01_00000%d", n), Host: host, Slots: 2, FreeSlots: free, CPUCores: 2,
			HeapMax: 1536 << 20, ManagedMemory: 512 << 20, NetworkMemory: 128 << 20, HeapUsed: 1100 << 20, GCCount: gc, GCTime: time.Duration(gc) * 9 * time.Millisecond,
			Heartbeat: ago(3 * time.Second), Detailed: true}
	}
	p.tms["j001"] = api.TaskManagerList{JobID: "j001", AppID: "application_1732000000000_0042", FetchedAt: ago(time.Second),
		TaskManagers: []api.TaskManagerInfo{tm(2, "node7.prod", 0, 4210), tm(3, "node8.prod", 0, 9984)}, SlotsTotal: 4, SlotsFree: 0}
	p.configs["j001"] = api.FlinkConfig{JobID: "j001", FetchedAt: ago(time.Second), FlameGraphs: true,
		JobManager: []api.ConfigEntry{{Key: "execution.checkpointing.interval", Value: "1 min"}, {Key: "jobmanager.memory.process.size", Value: "1600m"},
			{Key: "rest.flamegraph.enabled", Value: "true"}, {Key: "s3.secret-key", Value: "******"}, {Key: "state.backend.type", Value: "rocksdb"},
			{Key: "taskmanager.memory.process.size", Value: "2048m"}, {Key: "taskmanager.numberOfTaskSlots", Value: "2"}},
		Job: api.JobExecutionConfig{Name: "orders-enrich", Parallelism: 4, RestartStrategy: "fixed-delay (3 attempts, 10 s)",
			UserConfig: map[string]string{"table.exec.async-lookup.timeout": "3 min", "table.exec.async-lookup.buffer-capacity": "100"}}}
	for _, typ := range []string{api.FlameFull, api.FlameOnCPU, api.FlameOffCPU} {
		p.flames["j001/"+LookupVertex+"/"+typ] = LookupFlame(typ)
	}

	// fraud-scoring: its application is gone; palink kept the failure.
	fraud := api.ExceptionEntry{Time: ago(2 * time.Hour), RootCause: "java.lang.OutOfMemoryError: Java heap space",
		Chain: []api.ExceptionCause{
			{Class: "org.apache.flink.runtime.JobException", Message: "Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=10000)"},
			{Class: "java.lang.RuntimeException", Message: "scoring model failed on batch 40213"},
			{Class: "java.lang.OutOfMemoryError", Message: "Java heap space"}},
		Name: "org.apache.flink.runtime.JobException: Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=10000)",
		Stacktrace: "org.apache.flink.runtime.JobException: Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=10000)\n" +
			"\tat org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.handleFailure(ExecutionFailureHandler.java:180)\n" +
			"Caused by: java.lang.RuntimeException: scoring model failed on batch 40213\n\tat com.acme.fraud.Score.map(Score.java:77)\n" +
			"Caused by: java.lang.OutOfMemoryError: Java heap space\n\tat java.util.Arrays.copyOf(Arrays.java:3512)\n\tat com.acme.fraud.FeatureVector.grow(FeatureVector.java:41)",
		Task: "Score (3/4)#3", Endpoint: "node9.prod:40211", TaskManager: FraudTM, Stored: true}
	p.exceptions["j005"] = api.ExceptionHistory{JobID: "j005", JobName: "fraud-scoring", FetchedAt: Now, Entries: []api.ExceptionEntry{fraud},
		Notes: []string{"the JobManager is gone with application_1732000000000_0051: these are what palink kept at sync time"}}
	p.containers["j005"] = api.ContainerLogList{JobID: "j005", JobName: "fraud-scoring", AppID: "application_1732000000000_0051", FetchedAt: Now, Aggregated: true,
		Containers: []api.ContainerLog{{ID: FraudAM, Role: "JobManager", Attempt: 1, Node: "node3.prod:45454", Files: []api.LogSource{
			{Kind: api.LogContainer, Ref: api.LogRef{Container: FraudAM, Name: "jobmanager.log"}, Title: "JobManager " + FraudAM + " jobmanager.log", Size: int64(len(FraudJMLog)), MTime: ago(2 * time.Hour)},
			{Kind: api.LogContainer, Ref: api.LogRef{Container: FraudAM, Name: "jobmanager.out"}, Title: "JobManager " + FraudAM + " jobmanager.out", Size: 0, MTime: ago(2 * time.Hour)},
		}}, {ID: FraudTM, Role: "TaskManager", Attempt: 1, Node: "node9.prod:45454", Files: []api.LogSource{
			{Kind: api.LogContainer, Ref: api.LogRef{Container: FraudTM, Name: "taskmanager.out"}, Title: "TaskManager " + FraudTM + " taskmanager.out", Size: 0},
			{Kind: api.LogContainer, Ref: api.LogRef{Container: FraudTM, Name: "taskmanager.log"}, Title: "TaskManager " + FraudTM + " taskmanager.log", Size: int64(len(FraudLog))},
		}}}}

	// user-features: restarting; the async lookup times out.
	usersEx := func(d time.Duration, attempt int) api.ExceptionEntry {
		return api.ExceptionEntry{Time: ago(d), RootCause: "java.util.concurrent.TimeoutException: Async function call has timed out.",
			Chain: []api.ExceptionCause{
				{Class: "java.lang.Exception", Message: "Could not complete the stream element: Record @ 1741939923000 : +I[u-1841, 2026-03-14T08:12:03]."},
				{Class: "java.util.concurrent.TimeoutException", Message: "Async function call has timed out."}},
			Name:       "java.lang.Exception: Could not complete the stream element: Record @ 1741939923000 : +I[u-1841, 2026-03-14T08:12:03].",
			Stacktrace: "java.lang.Exception: Could not complete the stream element\n\tat org.apache.flink.streaming.api.operators.async.AsyncWaitOperator$ResultHandler.completeExceptionally(AsyncWaitOperator.java:383)\nCaused by: java.util.concurrent.TimeoutException: Async function call has timed out.\n\tat org.apache.flink.table.runtime.operators.join.lookup.AsyncLookupJoinRunner.timeout(AsyncLookupJoinRunner.java:130)",
			Task:       fmt.Sprintf("LookupJoin[3] (2/2)#%d", attempt), Endpoint: "node4.staging:38111", TaskManager: UsersTM}
	}
	p.exceptions["j004"] = api.ExceptionHistory{JobID: "j004", JobName: "user-features", FetchedAt: Now, Live: true,
		Entries: []api.ExceptionEntry{usersEx(40*time.Second, 4), usersEx(9*time.Minute, 3), usersEx(31*time.Minute, 2)}}

	// orders-enrich: its lookup timed out three hours ago; Kafka a day before.
	p.exceptions["j001"] = api.ExceptionHistory{JobID: "j001", JobName: "orders-enrich", FetchedAt: Now, Live: true, Entries: []api.ExceptionEntry{
		{Time: ago(3 * time.Hour), RootCause: "java.net.SocketTimeoutException: Read timed out", Name: "java.net.SocketTimeoutException: Read timed out",
			Chain:      []api.ExceptionCause{{Class: "java.net.SocketTimeoutException", Message: "Read timed out"}},
			Stacktrace: "java.net.SocketTimeoutException: Read timed out\n\tat java.net.SocketInputStream.read(SocketInputStream.java:171)\n\tat org.apache.flink.connector.jdbc.JdbcLookupFunction.eval(JdbcLookupFunction.java:88)",
			Task:       "LookupJoin (2/4)", Endpoint: "node7.prod:41233", TaskManager: TMID},
		{Time: ago(27 * time.Hour), RootCause: "org.apache.kafka.common.errors.TimeoutException", Name: "org.apache.kafka.common.errors.TimeoutException",
			Chain: []api.ExceptionCause{{Class: "org.apache.kafka.common.errors.TimeoutException"}}, Task: "Source: orders (1/4)"},
	}}

	f.setLogFile("j005", api.LogRef{Container: FraudTM, Name: "taskmanager.log"}, FraudLog)
	f.setLogFile("j005", api.LogRef{Container: FraudAM, Name: "jobmanager.log"}, FraudJMLog)
	f.setLogFile("j005", api.LogRef{Container: FraudAM, Name: "jobmanager.out"}, nil)
	f.setLogFile("j004", api.LogRef{TaskManager: UsersTM}, UsersLog)
	return p
}

// setLogFile installs a log that Logs does not list (a container's file,
// found through ContainerLogs).
func (f *Fake) setLogFile(jobID string, ref api.LogRef, data []byte) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.logs.files == nil {
		f.logs.files = map[logKey]*fakeLog{}
		f.logs.lists = map[string]api.LogList{}
	}
	f.logs.files[logKey{jobID, ref}] = &fakeLog{data: data}
}

// FraudLog is fraud-scoring's failed TaskManager's log: quiet lines, then
// the failure at 07:12:03, two hours before Now, as Flink logs it (the
// logger abbreviated, the cause on the lines after), then the shutdown.
var FraudLog = logAround(Now.Add(-2*time.Hour), "com.acme.fraud.Score",
	"2026-03-14 07:12:03,412 WARN  o.a.f.r.t.Task [] - Score (3/4)#3 switched from RUNNING to FAILED with failure cause:",
	"java.lang.OutOfMemoryError: Java heap space",
	"    at java.util.Arrays.copyOf(Arrays.java:3512)",
	"    at com.acme.fraud.FeatureVector.grow(FeatureVector.java:41)")

// FraudJMLog is fraud-scoring's JobManager's log: the job's end as the
// JobManager logged it, before YARN took its container away.
var FraudJMLog = logAround(Now.Add(-2*time.Hour), "org.apache.flink.runtime.checkpoint.CheckpointCoordinator",
	"2026-03-14 07:12:04,020 INFO  o.a.f.r.e.ExecutionGraph [] - Job fraud-scoring switched from state RUNNING to FAILED.",
	"org.apache.flink.runtime.JobException: Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=10000)")

// UsersLog is user-features' TaskManager's log around its last timeout.
var UsersLog = logAround(Now.Add(-40*time.Second), "org.apache.flink.table.runtime.operators.join.lookup.AsyncLookupJoinRunner",
	"2026-03-14 09:11:23,087 WARN  o.a.f.r.t.Task [] - LookupJoin[3] (2/2)#4 switched from RUNNING to FAILED with failure cause:",
	"java.util.concurrent.TimeoutException: Async function call has timed out.",
	"    at org.apache.flink.table.runtime.operators.join.lookup.AsyncLookupJoinRunner.timeout(AsyncLookupJoinRunner.java:130)")

// logAround is a log of INFO lines every 20 s for an hour before at, the
// failure's lines, and a few after.
func logAround(at time.Time, class string, failure ...string) []byte {
	var b []byte
	for t := at.Add(-time.Hour); t.Before(at); t = t.Add(20 * time.Second) {
		b = fmt.Appendf(b, "%s,000 INFO  %s [] - processed batch\n", t.Format(time.DateTime), class)
	}
	for _, l := range failure {
		b = append(b, l...)
		b = append(b, '\n')
	}
	for i := range 5 {
		b = fmt.Appendf(b, "%s,%03d INFO  o.a.f.r.taskexecutor.TaskExecutor [] - freeing slot %d\n", at.Format(time.DateTime), 500+i, i)
	}
	return b
}

// threadDump is a TaskManager's threads: the lookup join waiting on the
// database, the source blocked on backpressure.
func threadDump(tm string) []api.Thread {
	return []api.Thread{
		{Name: "LookupJoin[3] (3/4)#0", State: "RUNNABLE", Text: "\"LookupJoin[3] (3/4)#0\" Id=88 RUNNABLE\n\tat java.net.SocketInputStream.socketRead0(Native Method)\n\tat org.postgresql.core.PGStream.receiveChar(PGStream.java:453)\n\tat org.apache.flink.connector.jdbc.table.JdbcRowDataLookupFunction.eval(JdbcRowDataLookupFunction.java:171)\n\tat org.apache.flink.streaming.runtime.tasks.StreamTask.invoke(StreamTask.java:931)\n"},
		{Name: "Source: orders[1] (1/4)#0", State: "TIMED_WAITING", Text: "\"Source: orders[1] (1/4)#0\" Id=71 TIMED_WAITING on java.util.concurrent.CompletableFuture$Signaller@5b2c\n\tat java.base@17.0.9/jdk.internal.misc.Unsafe.park(Native Method)\n\tat org.apache.flink.runtime.io.network.buffer.LocalBufferPool.requestMemorySegmentBlocking(LocalBufferPool.java:336)\n"},
		{Name: "flink-pekko.actor.default-dispatcher-4", State: "WAITING", Text: "\"flink-pekko.actor.default-dispatcher-4\" Id=22 WAITING\n\tat java.base@17.0.9/jdk.internal.misc.Unsafe.park(Native Method)\n"},
		{Name: "Flink Netty Server (0) Thread 0", State: "RUNNABLE", Text: "\"Flink Netty Server (0) Thread 0\" Id=40 RUNNABLE (in native)\n\tat org.apache.flink.shaded.netty4.io.netty.channel.epoll.Native.epollWait(Native Method)\n"},
	}
}

// LookupFlame is orders-enrich's lookup join sampled as typ: on the CPU
// it decodes rows; off it waits for the database.
func LookupFlame(typ string) api.FlameGraph {
	type n struct {
		name string
		self int64
		kids []n
	}
	wait, cpu := int64(40), int64(6)
	switch typ {
	case api.FlameOnCPU:
		wait = 2
	case api.FlameOffCPU:
		cpu = 1
	}
	tree := n{"root", 0, []n{{"java.lang.Thread.run:840", 0, []n{
		{"org.apache.flink.runtime.taskmanager.Task.run:566", 0, []n{
			{"org.apache.flink.streaming.runtime.tasks.StreamTask.invoke:931", 0, []n{
				{"org.apache.flink.streaming.runtime.tasks.mailbox.MailboxProcessor.runMailboxLoop:231", 2, []n{
					{"org.apache.flink.streaming.api.operators.async.AsyncWaitOperator.processElement:219", 1, []n{
						{"org.apache.flink.table.runtime.operators.join.lookup.AsyncLookupJoinRunner.asyncInvoke:121", 1, []n{
							{"org.apache.flink.connector.jdbc.table.JdbcRowDataLookupFunction.eval:171", 1, []n{
								{"org.postgresql.jdbc.PgPreparedStatement.executeQuery:134", 0, []n{
									{"org.postgresql.core.PGStream.receiveChar:453", 0, []n{{"java.net.SocketInputStream.socketRead0", wait, nil}}},
									{"org.postgresql.core.v3.QueryExecutorImpl.processResults:2175", cpu * 3, nil},
								}},
								{"org.apache.flink.table.data.GenericRowData.of:232", cpu, nil},
							}},
						}},
					}},
					{"org.apache.flink.streaming.runtime.io.StreamTaskNetworkInput.emitNext:104", 0, []n{
						{"org.apache.flink.runtime.io.network.api.serialization.SpillingAdaptiveSpanningRecordDeserializer.readNextRecord:99", cpu * 2, nil}}},
				}},
			}},
		}},
	}}}}
	var frames []api.FlameFrame
	var walk func(x n, depth, parent int) int64
	walk = func(x n, depth, parent int) int64 {
		i := len(frames)
		frames = append(frames, api.FlameFrame{Name: x.name, Self: x.self, Depth: depth, Parent: parent})
		v := x.self
		for _, k := range x.kids {
			v += walk(k, depth+1, i)
		}
		frames[i].Value = v
		return v
	}
	walk(tree, 0, -1)
	return api.FlameGraph{JobID: "j001", VertexID: LookupVertex, VertexName: "LookupJoin[3]", Type: typ, Subtask: -1, Status: api.FlameReady,
		SampledAt: Now.Add(-3 * time.Second), Frames: frames, HotPath: HotPath(frames)}
}

// HotPath follows the child with the most samples from the root, as
// core/diagnose does.
func HotPath(frames []api.FlameFrame) []int {
	if len(frames) == 0 {
		return nil
	}
	best := map[int]int{}
	for i, fr := range frames {
		if fr.Parent >= 0 {
			if b, ok := best[fr.Parent]; !ok || fr.Value > frames[b].Value {
				best[fr.Parent] = i
			}
		}
	}
	path := []int{0}
	for {
		nx, ok := best[path[len(path)-1]]
		if !ok {
			return path
		}
		path = append(path, nx)
	}
}
