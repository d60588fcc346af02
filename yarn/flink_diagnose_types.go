package yarn

import (
	"encoding/json"
	"strings"
)

// The types of the JobManager's diagnostic endpoints: the plan, a vertex
// and its subtasks, a checkpoint's parts, TaskManager details, and the
// configurations. Names follow the specs (yarn/testdata/reference); where
// Flink writes something else on the wire, the type reads the wire and
// says so.

// JobPlan is GET /jobs/:id/plan's "plan" (Plan in the 2.x specs, RawJson in
// 1.20 and 2.0, the same JSON): the job graph's vertices and the edges
// between them.
type JobPlan struct {
	JobID string     `json:"jid"`
	Name  string     `json:"name"`
	Type  string     `json:"type"`
	Nodes []PlanNode `json:"nodes"`
}

// PlanNode is one vertex of the plan. Its Inputs are the edges that feed it.
type PlanNode struct {
	ID                  string          `json:"id"`
	Parallelism         int             `json:"parallelism"`
	Operator            string          `json:"operator"`
	OperatorStrategy    string          `json:"operator_strategy"`
	Description         string          `json:"description"`
	Inputs              []PlanInput     `json:"inputs"`
	OptimizerProperties json.RawMessage `json:"optimizer_properties,omitempty"`
}

// PlanInput is one edge into a plan node: from vertex ID, shipped by
// ShipStrategy (HASH, FORWARD, REBALANCE, RESCALE, BROADCAST, GLOBAL, …).
type PlanInput struct {
	Num           int    `json:"num"`
	ID            string `json:"id"`
	ShipStrategy  string `json:"ship_strategy"`
	LocalStrategy string `json:"local_strategy"`
	Caching       string `json:"caching"`
	Exchange      string `json:"exchange"`
}

// ParsePlan reads the plan embedded in a job's details (JobDetails.Plan),
// which saves a request when the details were fetched anyway.
func ParsePlan(raw json.RawMessage) (JobPlan, error) {
	var p JobPlan
	if len(raw) == 0 || string(raw) == "null" {
		return p, nil
	}
	err := json.Unmarshal(raw, &p)
	return p, err
}

// VertexDetails is GET /jobs/:id/vertices/:vid (JobVertexDetailsInfo).
type VertexDetails struct {
	ID             string                `json:"id"`
	Name           string                `json:"name"`
	Parallelism    int                   `json:"parallelism"`
	MaxParallelism int                   `json:"maxParallelism"`
	Now            int64                 `json:"now"`
	Subtasks       []SubtaskDetails      `json:"subtasks"`
	Aggregated     AggregatedTaskDetails `json:"aggregated"`
}

// AggregatedTaskDetails are a vertex's metrics and state durations
// aggregated over its subtasks (min, max, avg, sum, median, p25, p75, p95).
type AggregatedTaskDetails struct {
	Metrics        map[string]map[string]int64 `json:"metrics"`
	StatusDuration map[string]map[string]int64 `json:"status-duration"`
}

// SubtaskDetails is one subtask's current attempt
// (SubtaskExecutionAttemptDetailsInfo). Host is 1.x only; 2.x servers say
// where in Endpoint alone.
type SubtaskDetails struct {
	Subtask                 int              `json:"subtask"`
	Status                  string           `json:"status"`
	Attempt                 int              `json:"attempt"`
	Endpoint                string           `json:"endpoint"`
	Host                    string           `json:"host"`
	StartTime               int64            `json:"start-time"`
	EndTime                 int64            `json:"end-time"`
	Duration                int64            `json:"duration"`
	Metrics                 IOMetrics        `json:"metrics"`
	TaskManagerID           string           `json:"taskmanager-id"`
	StatusDuration          map[string]int64 `json:"status-duration"`
	OtherConcurrentAttempts []SubtaskDetails `json:"other-concurrent-attempts"`
}

// HostName is the subtask's host: Host on 1.x servers, else Endpoint's host.
func (s SubtaskDetails) HostName() string {
	if s.Host != "" {
		return s.Host
	}
	return hostOf(s.Endpoint)
}

// hostOf strips the port of a host:port endpoint.
func hostOf(endpoint string) string {
	if i := strings.LastIndexByte(endpoint, ':'); i > 0 && !strings.Contains(endpoint[i:], "]") {
		return endpoint[:i]
	}
	return endpoint
}

// SubtaskTimes is GET /jobs/:id/vertices/:vid/subtasktimes
// (SubtasksTimesInfo): when each subtask entered each execution state.
type SubtaskTimes struct {
	ID       string        `json:"id"`
	Name     string        `json:"name"`
	Now      int64         `json:"now"`
	Subtasks []SubtaskTime `json:"subtasks"`
}

// SubtaskTime is one subtask's state timestamps (ms).
type SubtaskTime struct {
	Subtask    int              `json:"subtask"`
	Endpoint   string           `json:"endpoint"`
	Host       string           `json:"host"` // 1.x
	Duration   int64            `json:"duration"`
	Timestamps map[string]int64 `json:"timestamps"`
}

// VertexTaskManagers is GET /jobs/:id/vertices/:vid/taskmanagers
// (JobVertexTaskManagersInfo): a vertex's subtasks grouped by TaskManager.
type VertexTaskManagers struct {
	ID           string              `json:"id"`
	Name         string              `json:"name"`
	Now          int64               `json:"now"`
	TaskManagers []VertexTaskManager `json:"taskmanagers"`
}

// VertexTaskManager is one TaskManager's share of a vertex.
type VertexTaskManager struct {
	Endpoint      string                `json:"endpoint"`
	Host          string                `json:"host"` // 1.x
	Status        string                `json:"status"`
	StartTime     int64                 `json:"start-time"`
	EndTime       int64                 `json:"end-time"`
	Duration      int64                 `json:"duration"`
	Metrics       IOMetrics             `json:"metrics"`
	StatusCounts  map[string]int        `json:"status-counts"`
	TaskManagerID string                `json:"taskmanager-id"`
	Aggregated    AggregatedTaskDetails `json:"aggregated"`
}

// TaskCheckpointDetails is GET
// /jobs/:id/checkpoints/details/:cid/subtasks/:vid
// (TaskCheckpointStatisticsWithSubtaskDetails): one vertex's part of a
// checkpoint, subtask by subtask.
type TaskCheckpointDetails struct {
	ID                      int64                 `json:"id"`
	Status                  string                `json:"status"`
	LatestAckTimestamp      int64                 `json:"latest_ack_timestamp"`
	CheckpointedSize        int64                 `json:"checkpointed_size"`
	StateSize               int64                 `json:"state_size"`
	EndToEndDuration        int64                 `json:"end_to_end_duration"`
	AlignmentBuffered       int64                 `json:"alignment_buffered"`
	ProcessedData           int64                 `json:"processed_data"`
	PersistedData           int64                 `json:"persisted_data"`
	NumSubtasks             int                   `json:"num_subtasks"`
	NumAcknowledgedSubtasks int                   `json:"num_acknowledged_subtasks"`
	Summary                 TaskCheckpointSummary `json:"summary"`
	Subtasks                []SubtaskCheckpoint   `json:"subtasks"`
}

// TaskCheckpointSummary summarises a vertex's subtask checkpoint figures.
type TaskCheckpointSummary struct {
	CheckpointedSize   StatsSummary `json:"checkpointed_size"`
	StateSize          StatsSummary `json:"state_size"`
	EndToEndDuration   StatsSummary `json:"end_to_end_duration"`
	StartDelay         StatsSummary `json:"start_delay"`
	CheckpointDuration struct {
		Sync  StatsSummary `json:"sync"`
		Async StatsSummary `json:"async"`
	} `json:"checkpoint_duration"`
	Alignment struct {
		Buffered  StatsSummary `json:"buffered"`
		Processed StatsSummary `json:"processed"`
		Persisted StatsSummary `json:"persisted"`
		Duration  StatsSummary `json:"duration"`
	} `json:"alignment"`
}

// SubtaskCheckpoint is one subtask's part of a checkpoint
// (SubtaskCheckpointStatistics, "completed" or "pending" by ClassName; a
// pending one carries only Index and Status).
type SubtaskCheckpoint struct {
	ClassName        string `json:"className"`
	Index            int    `json:"index"`
	Status           string `json:"status"`
	AckTimestamp     int64  `json:"ack_timestamp"`
	EndToEndDuration int64  `json:"end_to_end_duration"`
	CheckpointedSize int64  `json:"checkpointed_size"`
	StateSize        int64  `json:"state_size"`
	Checkpoint       struct {
		Sync  int64 `json:"sync"`
		Async int64 `json:"async"`
	} `json:"checkpoint"`
	Alignment struct {
		Buffered  int64 `json:"buffered"`
		Processed int64 `json:"processed"`
		Persisted int64 `json:"persisted"`
		Duration  int64 `json:"duration"`
	} `json:"alignment"`
	StartDelay          int64 `json:"start_delay"`
	UnalignedCheckpoint bool  `json:"unaligned_checkpoint"`
	Aborted             bool  `json:"aborted"`
}

// Completed reports whether the subtask acknowledged the checkpoint.
func (s SubtaskCheckpoint) Completed() bool { return s.ClassName == "completed" }

// TaskManagerDetails is GET /taskmanagers/:id (TaskManagerDetailsInfo): a
// TaskManager with its slots and JVM figures.
type TaskManagerDetails struct {
	TaskManager
	AllocatedSlots []SlotInfo         `json:"allocatedSlots"`
	Metrics        TaskManagerMetrics `json:"metrics"`
}

// SlotInfo is one allocated slot. AssignedTasks is 2.3+.
type SlotInfo struct {
	JobID         string          `json:"jobId"`
	Resource      ResourceProfile `json:"resource"`
	AssignedTasks int             `json:"assignedTasks"`
}

// TaskManagerMetrics are a TaskManager's JVM and network memory figures
// (bytes) and its garbage collectors. The memorySegments pair is 1.x only.
type TaskManagerMetrics struct {
	HeapUsed                            int64              `json:"heapUsed"`
	HeapCommitted                       int64              `json:"heapCommitted"`
	HeapMax                             int64              `json:"heapMax"`
	NonHeapUsed                         int64              `json:"nonHeapUsed"`
	NonHeapCommitted                    int64              `json:"nonHeapCommitted"`
	NonHeapMax                          int64              `json:"nonHeapMax"`
	DirectCount                         int64              `json:"directCount"`
	DirectUsed                          int64              `json:"directUsed"`
	DirectMax                           int64              `json:"directMax"`
	MappedCount                         int64              `json:"mappedCount"`
	MappedUsed                          int64              `json:"mappedUsed"`
	MappedMax                           int64              `json:"mappedMax"`
	MemorySegmentsAvailable             int64              `json:"memorySegmentsAvailable"`
	MemorySegmentsTotal                 int64              `json:"memorySegmentsTotal"`
	NettyShuffleMemorySegmentsAvailable int64              `json:"nettyShuffleMemorySegmentsAvailable"`
	NettyShuffleMemorySegmentsUsed      int64              `json:"nettyShuffleMemorySegmentsUsed"`
	NettyShuffleMemorySegmentsTotal     int64              `json:"nettyShuffleMemorySegmentsTotal"`
	NettyShuffleMemoryAvailable         int64              `json:"nettyShuffleMemoryAvailable"`
	NettyShuffleMemoryUsed              int64              `json:"nettyShuffleMemoryUsed"`
	NettyShuffleMemoryTotal             int64              `json:"nettyShuffleMemoryTotal"`
	GarbageCollectors                   []GarbageCollector `json:"garbageCollectors"`
}

// GarbageCollector is one collector's totals since the JVM started.
type GarbageCollector struct {
	Name  string `json:"name"`
	Count int64  `json:"count"`
	Time  int64  `json:"time"` // ms
}

// Host is the TaskManager's host, read from its RPC path
// (pekko.tcp://flink@host:port/user/rpc/taskmanager_0).
func (t TaskManager) Host() string {
	p := t.Path
	if i := strings.Index(p, "@"); i >= 0 {
		p = p[i+1:]
	} else if i := strings.Index(p, "://"); i >= 0 {
		p = p[i+3:]
	}
	if i := strings.IndexByte(p, '/'); i >= 0 {
		p = p[:i]
	}
	return hostOf(p)
}

// ConfigEntry is one key of a configuration (ConfigurationInfoEntry).
type ConfigEntry struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// JobConfig is GET /jobs/:id/config. Flink writes it with
// JobConfigInfo.Serializer: "jid", "name" and "execution-config", not the
// spec's jobId, jobName and executionConfigInfo; both are read.
type JobConfig struct {
	JobID           string          `json:"jid"`
	Name            string          `json:"name"`
	ExecutionConfig ExecutionConfig `json:"execution-config"`
}

// ExecutionConfig is the job's ExecutionConfigInfo. ExecutionMode is 1.x.
type ExecutionConfig struct {
	ExecutionMode   string            `json:"execution-mode"`
	RestartStrategy string            `json:"restart-strategy"`
	JobParallelism  int               `json:"job-parallelism"`
	ObjectReuseMode bool              `json:"object-reuse-mode"`
	UserConfig      map[string]string `json:"user-config"`
}

// UnmarshalJSON reads the wire names and, failing those, the spec's.
func (c *JobConfig) UnmarshalJSON(b []byte) error {
	var w struct {
		JID      string           `json:"jid"`
		Name     string           `json:"name"`
		Exec     *ExecutionConfig `json:"execution-config"`
		SpecID   string           `json:"jobId"`
		SpecName string           `json:"jobName"`
		SpecExec *ExecutionConfig `json:"executionConfigInfo"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	c.JobID = firstSet(w.JID, w.SpecID)
	c.Name = firstSet(w.Name, w.SpecName)
	switch {
	case w.Exec != nil:
		c.ExecutionConfig = *w.Exec
	case w.SpecExec != nil:
		c.ExecutionConfig = *w.SpecExec
	}
	return nil
}
