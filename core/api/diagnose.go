package api

import (
	"context"
	"fmt"
	"time"

	"github.com/palink/palink/model"
)

// DiagnoseService answers "where" once "what" is known: the job graph and
// its bottleneck, a vertex's subtasks and their skew, checkpoints down to
// the slow subtask, the TaskManagers, the configuration, flame graphs, and
// exceptions down to their innermost cause.
//
// Every call reads only the job asked for, through its application's
// JobManager (the RM proxy or amRPCAddress, as the cluster is set up),
// within the caller's ctx. A call that gets only part of what it asked for
// (a JobManager that times out halfway, a vertex whose metrics fail)
// returns that part, with Notes saying, one line each, what is missing;
// it fails only when it has nothing to show.
type DiagnoseService interface {
	// JobGraph is the job's graph (its plan) with each vertex's figures,
	// and the bottleneck.
	//palink:api role=viewer on=job(ref)
	JobGraph(ctx context.Context, ref string) (JobGraph, error)
	// Vertex is one vertex subtask by subtask, with its skew.
	//palink:api role=viewer on=job(r.JobRef)
	Vertex(ctx context.Context, r VertexRequest) (VertexDetail, error)
	// Checkpoints are the job's checkpoint counts, configuration and history.
	//palink:api role=viewer on=job(ref)
	Checkpoints(ctx context.Context, ref string) (CheckpointsView, error)
	// Checkpoint is one checkpoint operator by operator and subtask by
	// subtask, the slow ones marked.
	//palink:api role=viewer on=job(r.JobRef)
	Checkpoint(ctx context.Context, r CheckpointRequest) (CheckpointDetail, error)
	// TaskManagers lists the TaskManagers of the job's Flink cluster with
	// their slots, memory and garbage collection.
	//palink:api role=viewer on=job(ref)
	TaskManagers(ctx context.Context, ref string) (TaskManagerList, error)
	// TaskManager is one TaskManager in depth, with its thread dump when
	// asked for.
	//palink:api role=viewer on=job(r.JobRef)
	TaskManager(ctx context.Context, r TaskManagerRequest) (TaskManagerDetail, error)
	// FlinkConfig is the JobManager's configuration and the job's.
	//palink:api role=viewer on=job(ref)
	FlinkConfig(ctx context.Context, ref string) (FlinkConfig, error)
	// FlameGraph is a vertex's flame graph, or why there is none yet.
	//palink:api role=viewer on=job(r.JobRef)
	FlameGraph(ctx context.Context, r FlameGraphRequest) (FlameGraph, error)
	// Exceptions is the job's exception history, each entry's innermost
	// cause first: what the JobManager has, and what palink kept of it at
	// sync time, so that it outlives the application.
	//palink:api role=viewer on=job(ref)
	Exceptions(ctx context.Context, ref string) (ExceptionHistory, error)
	// ContainerLogs lists the YARN containers of a job's application and
	// their log files: from their NodeManagers while it runs, from the
	// log server (the RM's yarn.log.server.web-service.url) once it ended.
	// LogService's ReadLog, FindInLog and SaveLog read them with
	// LogRef.Container.
	//palink:api role=viewer on=job(ref)
	ContainerLogs(ctx context.Context, ref string) (ContainerLogList, error)
}

// JobGraph is a job's graph with each vertex's figures.
type JobGraph struct {
	JobID, JobName, FlinkJobID string
	FlinkState                 string
	FetchedAt                  time.Time
	// Vertices are in Flink's order (sources first for a graph without
	// cycles); Edges refer to them by index.
	Vertices []GraphVertex
	Edges    []GraphEdge
	// Bottleneck is the index of the vertex that holds the job back: the
	// busiest vertex that has backpressure upstream of it and none of its
	// own; -1 when none stands out. BottleneckWhy says why, for people.
	Bottleneck    int
	BottleneckWhy string
	// Cyclic reports feedback edges (an iteration): the graph is not a DAG.
	Cyclic bool
	Notes  []string
}

// GraphVertex is one vertex (operator chain) with its latest figures. A
// figure that could not be read is Unknown.
type GraphVertex struct {
	ID, Name    string
	Parallelism int
	State       string // RUNNING, FINISHED, …
	Source      bool   // nothing feeds it
	Sink        bool   // it feeds nothing
	// RecordsIn and RecordsOut are per second, summed over subtasks.
	RecordsIn, RecordsOut float64
	// Busy, Backpressure and Idle are the worst subtask's ratios (0..1).
	Busy, Backpressure, Idle float64
	// Watermark is the lowest input watermark (zero for sources and before
	// the first); WatermarkDelay is the JobManager's now minus it.
	Watermark      time.Time
	WatermarkDelay time.Duration
	// Measured reports whether the figures were read (else see Notes).
	Measured bool
}

// GraphEdge is one edge of the graph.
type GraphEdge struct {
	From, To int // indexes in JobGraph.Vertices
	// ShipStrategy is how records go: HASH, FORWARD, REBALANCE, RESCALE,
	// BROADCAST, GLOBAL, … as Flink names it (an unknown one is kept).
	ShipStrategy string
	// Feedback marks an edge back to an earlier vertex (an iteration).
	Feedback bool
}

// VertexRequest names one vertex of one job.
type VertexRequest struct {
	JobRef   string
	VertexID string
}

// VertexDetail is one vertex subtask by subtask.
type VertexDetail struct {
	JobID       string
	VertexID    string
	Name        string
	Parallelism int
	FetchedAt   time.Time
	Subtasks    []SubtaskRow
	// RateWindow is what the subtasks' rates are measured over: the time
	// between this read of their totals and the one before (the TUI reads
	// a vertex every few seconds); 0 when they are Flink's own per-second
	// meters, which average the last minute (a first read).
	RateWindow time.Duration
	// Skew is how uneven the subtasks' rates of records in are.
	Skew  Skew
	Notes []string
}

// Skew compares the busiest subtask with the others by their rates, never
// their totals (a subtask hot an hour ago is not hot now): Ratio is its
// records in per second (records out for a source) over the median of the
// other subtasks' (Median), 1 for an even vertex, 0 when unknown; Subtask
// is the busiest one's index.
type Skew struct {
	// Of names the figure with its unit: "records in/s" or "records out/s".
	Of      string
	Max     float64
	Median  float64
	Ratio   float64
	Subtask int
	// Window is the span of the rates, as VertexDetail.RateWindow.
	Window time.Duration
}

// SubtaskRow is one subtask's figures: totals since it started, and its
// latest rates and ratios (Unknown when not read).
type SubtaskRow struct {
	Index                 int
	State                 string
	Attempt               int
	RecordsIn, RecordsOut int64
	BytesIn, BytesOut     int64
	// RecordsInPerSec and RecordsOutPerSec are Unknown when not read.
	RecordsInPerSec, RecordsOutPerSec float64
	Busy, Backpressure, Idle          float64
	Watermark                         time.Time
	WatermarkDelay                    time.Duration
	TaskManager                       string // its id (on YARN, the container id)
	Host                              string
	Endpoint                          string
	Duration                          time.Duration // since its attempt started
	// Hot marks the subtask the skew points at.
	Hot bool
}

// CheckpointsView is a job's checkpoints: counts, configuration, history.
type CheckpointsView struct {
	JobID     string
	FetchedAt time.Time
	Counts    CheckpointCounts
	// Config is nil when it could not be read (see Notes).
	Config *CheckpointConfig
	// History is newest first, as Flink keeps it (web.checkpoints.history).
	History []CheckpointInfo
	// Latest is the newest completed checkpoint; Restored the one the job
	// started from, if any.
	Latest   *CheckpointInfo
	Restored *CheckpointInfo
	// LatestSavepoint is the newest savepoint, LatestFailed the newest
	// failed checkpoint (its Failure says why), when Flink has one.
	LatestSavepoint *CheckpointInfo `json:",omitempty"`
	LatestFailed    *CheckpointInfo `json:",omitempty"`
	// Summary is Flink's over the completed checkpoints it keeps
	// statistics of.
	Summary CheckpointSummary
	Notes   []string
}

// CheckpointSummary is Flink's summary of a job's completed checkpoints:
// how long they took end to end, the bytes each persisted (Checkpointed:
// an incremental checkpoint's increment), the full state (StateSize),
// and the in-flight data of unaligned checkpoints, processed and
// persisted during alignment. (Flink's alignment_buffered has been 0
// since unaligned checkpoints replaced it.)
type CheckpointSummary struct {
	EndToEnd                     DurationStats
	Checkpointed, StateSize      ByteStats
	ProcessedData, PersistedData ByteStats
}

// DurationStats are a duration's minimum, average, maximum and 99th
// percentile; P99 is negative when Flink has none (NaN).
type DurationStats struct{ Min, Avg, Max, P99 time.Duration }

// ByteStats are a size's minimum, average, maximum and 99th percentile;
// P99 is negative when Flink has none (NaN).
type ByteStats struct{ Min, Avg, Max, P99 int64 }

// CheckpointCounts count a job's checkpoints by outcome.
type CheckpointCounts struct {
	Total, InProgress, Completed, Failed, Restored int64
}

// CheckpointConfig is how a job checkpoints.
type CheckpointConfig struct {
	Mode          string // EXACTLY_ONCE or AT_LEAST_ONCE
	Interval      time.Duration
	Timeout       time.Duration
	MinPause      time.Duration
	MaxConcurrent int
	// Retention is RETAIN_ON_CANCELLATION, DELETE_ON_CANCELLATION or
	// NO_EXTERNALIZED_CHECKPOINTS.
	Retention         string
	Unaligned         bool
	AlignedTimeout    time.Duration
	TolerableFailures int
	StateBackend      string
	Storage           string
	Changelog         bool
}

// CheckpointRequest names one checkpoint of one job.
type CheckpointRequest struct {
	JobRef string
	ID     int64
}

// CheckpointDetail is one checkpoint operator by operator.
type CheckpointDetail struct {
	JobID      string
	FetchedAt  time.Time
	Checkpoint CheckpointInfo
	Operators  []CheckpointOperator
	// SlowOperator is the index of the operator whose slowest subtask the
	// checkpoint waited for; -1 when unknown.
	SlowOperator int
	// Gone, when set, says that the JobManager no longer has statistics
	// of the checkpoint, and brings what palink recorded of it instead;
	// Checkpoint then holds only its id.
	Gone  *CheckpointGone `json:",omitempty"`
	Notes []string
}

// CheckpointGone is a checkpoint the JobManager has rotated out of its
// history: it keeps statistics of its newest Kept checkpoints only
// (web.checkpoints.history, 10 by default), and answers "not found" for
// older ones.
type CheckpointGone struct {
	ID   int64
	Kept int
	// Recorded is palink's record of the checkpoint as a restore point;
	// nil when palink has none (it forgets checkpoints Flink subsumed).
	Recorded *model.RestorePoint `json:",omitempty"`
}

// Why is what became of the checkpoint, for a view that names it already:
// "no longer in the JobManager's history (it keeps 10)".
func (g CheckpointGone) Why() string {
	return fmt.Sprintf("no longer in the JobManager's history (it keeps %d)", g.Kept)
}

// String says it whole: "checkpoint 357 is no longer in the JobManager's
// history (it keeps 10)".
func (g CheckpointGone) String() string { return fmt.Sprintf("checkpoint %d is %s", g.ID, g.Why()) }

// CheckpointOperator is one vertex's part of a checkpoint.
type CheckpointOperator struct {
	VertexID, Name   string
	Parallelism      int
	Acknowledged     int
	Duration         time.Duration // its slowest subtask's, end to end
	Size             int64         // persisted (checkpointed) bytes
	StateSize        int64
	Subtasks         []CheckpointSubtask
	SlowSubtask      int // index in Subtasks of the slowest; -1 when none acknowledged
	Slow             bool
	ProcessedData    int64
	PersistedData    int64
	AlignmentBuffers int64
}

// CheckpointSubtask is one subtask's part of a checkpoint.
type CheckpointSubtask struct {
	Index        int
	Acknowledged bool
	AckedAt      time.Time
	Duration     time.Duration // end to end: from trigger to acknowledgement
	Sync, Async  time.Duration
	Alignment    time.Duration
	StartDelay   time.Duration
	Size         int64 // persisted bytes
	StateSize    int64
	Unaligned    bool
	Aborted      bool
	Slow         bool
}

// TaskManagerList is the TaskManagers of a job's Flink cluster.
type TaskManagerList struct {
	JobID, AppID          string
	FetchedAt             time.Time
	TaskManagers          []TaskManagerInfo
	SlotsTotal, SlotsFree int
	Notes                 []string
}

// TaskManagerInfo is one TaskManager as the list shows it. The memory and
// garbage collection figures come from its details: Detailed says whether
// they were read.
type TaskManagerInfo struct {
	ID               string // on YARN, its container id
	Host             string
	Slots, FreeSlots int
	CPUCores         int
	// Configured memory (bytes).
	HeapMax, ManagedMemory, NetworkMemory int64
	// Used memory and garbage collection, when Detailed.
	HeapUsed  int64
	GCCount   int64
	GCTime    time.Duration
	Heartbeat time.Time
	Blocked   bool
	Detailed  bool
}

// TaskManagerRequest names one TaskManager of a job's Flink cluster.
type TaskManagerRequest struct {
	JobRef string
	ID     string
	// ThreadDump asks for its thread dump too, read up to MaxThreadDump
	// bytes (0: 8 MiB).
	ThreadDump    bool
	MaxThreadDump int64
}

// TaskManagerDetail is one TaskManager in depth.
type TaskManagerDetail struct {
	TaskManagerInfo
	FetchedAt         time.Time
	NonHeapUsed       int64
	DirectUsed        int64
	NetworkUsed       int64
	NetworkTotal      int64
	GarbageCollectors []GarbageCollector
	// Memory is its memory configuration by component (bytes).
	Memory map[string]int64
	// Jobs are the Flink jobs with slots on it.
	Jobs       []string
	ThreadDump *ThreadDump
	Notes      []string
}

// GarbageCollector is one collector's totals.
type GarbageCollector struct {
	Name  string
	Count int64
	Time  time.Duration
}

// ThreadDump is a JVM's threads as Java prints them.
type ThreadDump struct {
	Threads []Thread
	// Truncated reports a dump longer than the cap: Threads are its start.
	Truncated bool
	Bytes     int64
}

// Thread is one thread: its name, state (RUNNABLE, WAITING, …) and stack.
type Thread struct {
	Name  string
	State string
	Text  string
}

// FlinkConfig is a job's configuration.
type FlinkConfig struct {
	JobID      string
	FetchedAt  time.Time
	JobManager []ConfigEntry // the JobManager's, secrets masked by Flink
	Job        JobExecutionConfig
	// FlameGraphs reports rest.flamegraph.enabled.
	FlameGraphs bool
	Notes       []string
}

// ConfigEntry is one configuration key.
type ConfigEntry struct {
	Key, Value string
}

// JobExecutionConfig is the job's execution configuration.
type JobExecutionConfig struct {
	Name            string
	Parallelism     int
	RestartStrategy string
	ObjectReuse     bool
	ExecutionMode   string // 1.x
	UserConfig      map[string]string
}

// Flame graph types.
const (
	FlameFull   = "FULL"
	FlameOnCPU  = "ON_CPU"
	FlameOffCPU = "OFF_CPU"
)

// Flame graph states.
const (
	FlameReady      = "ready"
	FlameDisabled   = "disabled"   // rest.flamegraph.enabled is off
	FlameWaiting    = "waiting"    // the first samples are being taken: ask again
	FlameTerminated = "terminated" // the vertex's tasks no longer run
)

// FlameGraphRequest asks for a vertex's flame graph.
type FlameGraphRequest struct {
	JobRef   string
	VertexID string
	// Type is FlameFull (default), FlameOnCPU or FlameOffCPU.
	Type string
	// Subtask selects one subtask; -1 (or any negative) all of them.
	Subtask int
}

// FlameGraph is a vertex's flame graph: Frames in pre-order, the root
// first, each with its depth and its parent's index.
type FlameGraph struct {
	JobID, VertexID, VertexName string
	Type                        string
	Subtask                     int
	// Status is FlameReady, FlameDisabled, FlameWaiting or FlameTerminated;
	// Message says what to do about a graph that is not ready.
	Status    string
	Message   string
	SampledAt time.Time
	Frames    []FlameFrame
	// HotPath is the indexes of the hottest path from the root, following
	// the child with the most samples at each step.
	HotPath []int
	// Truncated reports frames dropped by the caps; TruncatedWhy says which.
	Truncated    bool
	TruncatedWhy string
	Notes        []string
}

// FlameFrame is one frame: "class.method:line" and its samples.
type FlameFrame struct {
	Name string
	// Value is the samples through this frame; Self those that stopped in
	// it.
	Value, Self int64
	Depth       int
	Parent      int // -1 for the root
}

// ExceptionHistory is a job's failures, newest first.
type ExceptionHistory struct {
	JobID, JobName, FlinkJobID string
	FetchedAt                  time.Time
	// Live reports that the JobManager answered; otherwise Entries are
	// what palink kept at sync time.
	Live    bool
	Entries []ExceptionEntry
	// Truncated reports that the JobManager had more than it sent.
	Truncated bool
	Notes     []string
}

// ExceptionEntry is one failure: its innermost cause first, then the
// chain from the outermost exception down, and where it happened.
type ExceptionEntry struct {
	Time time.Time
	// RootCause is the innermost cause, "class: message": what failed.
	RootCause string
	// Chain is every exception of the trace, the outermost first (the
	// last is RootCause).
	Chain      []ExceptionCause
	Name       string // Flink's exceptionName
	Stacktrace string
	Task       string // the failing subtask, "Name (2/4)#1"; empty for a job-wide failure
	Endpoint   string // where it ran (host:port)
	// TaskManager is the failing TaskManager's id (on YARN, its container).
	TaskManager string
	Labels      map[string]string
	Concurrent  []ExceptionEntry
	// Stored reports an entry palink kept that the JobManager no longer
	// has (the application ended, or the history rolled over).
	Stored bool
}

// ExceptionCause is one exception of a chain.
type ExceptionCause struct {
	Class, Message string
}

// String reads "class: message".
func (c ExceptionCause) String() string {
	if c.Message == "" {
		return c.Class
	}
	return c.Class + ": " + c.Message
}
