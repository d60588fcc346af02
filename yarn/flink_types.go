package yarn

import (
	"encoding/json"
	"time"
)

// Flink job statuses (JobStatus). Note CANCELLING with two L's but
// CANCELED with one.
const (
	JobInitializing = "INITIALIZING"
	JobCreated      = "CREATED"
	JobRunning      = "RUNNING"
	JobFailing      = "FAILING"
	JobFailed       = "FAILED"
	JobCancelling   = "CANCELLING"
	JobCanceled     = "CANCELED"
	JobFinished     = "FINISHED"
	JobRestarting   = "RESTARTING"
	JobSuspended    = "SUSPENDED"
	JobReconciling  = "RECONCILING"
)

// JobStatusGloballyTerminal reports whether a Flink job status is final
// for the whole cluster (FAILED, CANCELED, FINISHED). SUSPENDED is only
// locally terminal: another JobManager may resume the job.
func JobStatusGloballyTerminal(status string) bool {
	return status == JobFailed || status == JobCanceled || status == JobFinished
}

// DashboardConfig is GET /config.
type DashboardConfig struct {
	RefreshInterval int64  `json:"refresh-interval"`
	TimezoneName    string `json:"timezone-name"`
	TimezoneOffset  int64  `json:"timezone-offset"`
	FlinkVersion    string `json:"flink-version"`
	FlinkRevision   string `json:"flink-revision"`
	Features        struct {
		WebSubmit  bool `json:"web-submit"`
		WebCancel  bool `json:"web-cancel"`
		WebRescale bool `json:"web-rescale"`
		WebHistory bool `json:"web-history"`
	} `json:"features"`
}

// FlinkOverview is GET /overview (ClusterOverviewWithVersion).
type FlinkOverview struct {
	TaskManagers        int    `json:"taskmanagers"`
	TaskManagersBlocked int    `json:"taskmanagers-blocked"`
	SlotsTotal          int    `json:"slots-total"`
	SlotsAvailable      int    `json:"slots-available"`
	SlotsFreeAndBlocked int    `json:"slots-free-and-blocked"`
	JobsRunning         int    `json:"jobs-running"`
	JobsFinished        int    `json:"jobs-finished"`
	JobsCancelled       int    `json:"jobs-cancelled"`
	JobsFailed          int    `json:"jobs-failed"`
	FlinkVersion        string `json:"flink-version"`
	FlinkCommit         string `json:"flink-commit"`
}

// JobOverview is one job of GET /jobs/overview (JobDetails). PendingOperators
// is 2.0+, JobType and SchedulerType 2.3+; older servers leave them zero.
type JobOverview struct {
	ID               string         `json:"jid"`
	Name             string         `json:"name"`
	State            string         `json:"state"`
	StartTime        int64          `json:"start-time"`
	EndTime          int64          `json:"end-time"`
	Duration         int64          `json:"duration"`
	LastModification int64          `json:"last-modification"`
	Tasks            map[string]int `json:"tasks"`
	PendingOperators int            `json:"pending-operators"`
	JobType          string         `json:"jobType"`
	SchedulerType    string         `json:"schedulerType"`
}

// Started is StartTime as a time (zero when unset).
func (j JobOverview) Started() time.Time { return millis(j.StartTime) }

// JobDetails is GET /jobs/:id (JobDetailsInfo). Fields added after 1.16
// (job-type; pending-operators and stream-graph in 2.0; application-id and
// schedulerType in 2.3) stay zero on older servers. Raw is the body as
// served, for showing to users.
type JobDetails struct {
	ID               string           `json:"jid"`
	Name             string           `json:"name"`
	IsStoppable      bool             `json:"isStoppable"`
	State            string           `json:"state"`
	JobType          string           `json:"job-type"`
	StartTime        int64            `json:"start-time"`
	EndTime          int64            `json:"end-time"`
	Duration         int64            `json:"duration"`
	MaxParallelism   int64            `json:"maxParallelism"`
	Now              int64            `json:"now"`
	Timestamps       map[string]int64 `json:"timestamps"`
	Vertices         []JobVertex      `json:"vertices"`
	StatusCounts     map[string]int   `json:"status-counts"`
	Plan             json.RawMessage  `json:"plan,omitempty"`
	PendingOperators int              `json:"pending-operators"`
	StreamGraph      json.RawMessage  `json:"stream-graph,omitempty"`
	ApplicationID    string           `json:"application-id"`
	SchedulerType    string           `json:"schedulerType"`

	Raw json.RawMessage `json:"-"`
}

// Started is StartTime as a time (zero when unset).
func (j JobDetails) Started() time.Time { return millis(j.StartTime) }

// UnmarshalJSON reads application-id as Flink writes it (hex) or as the
// spec describes it (object).
func (j *JobDetails) UnmarshalJSON(b []byte) error {
	type plain JobDetails
	w := struct {
		*plain
		ApplicationID flexID `json:"application-id"`
	}{plain: (*plain)(j)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	j.ApplicationID = string(w.ApplicationID)
	return nil
}

// JobVertex is one vertex (operator chain) of a job.
type JobVertex struct {
	ID                 string         `json:"id"`
	Name               string         `json:"name"`
	Parallelism        int            `json:"parallelism"`
	MaxParallelism     int            `json:"maxParallelism"`
	Status             string         `json:"status"`
	StartTime          int64          `json:"start-time"`
	EndTime            int64          `json:"end-time"`
	Duration           int64          `json:"duration"`
	Tasks              map[string]int `json:"tasks"`
	Metrics            IOMetrics      `json:"metrics"`
	SlotSharingGroupID string         `json:"slotSharingGroupId"`
}

// UnmarshalJSON reads slotSharingGroupId as Flink writes it (hex) or as
// the spec describes it (object).
func (v *JobVertex) UnmarshalJSON(b []byte) error {
	type plain JobVertex
	w := struct {
		*plain
		SlotSharingGroupID flexID `json:"slotSharingGroupId"`
	}{plain: (*plain)(v)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	v.SlotSharingGroupID = string(w.SlotSharingGroupID)
	return nil
}

// IOMetrics are a vertex's accumulated I/O figures.
type IOMetrics struct {
	ReadBytes                    int64   `json:"read-bytes"`
	ReadBytesComplete            bool    `json:"read-bytes-complete"`
	WriteBytes                   int64   `json:"write-bytes"`
	WriteBytesComplete           bool    `json:"write-bytes-complete"`
	ReadRecords                  int64   `json:"read-records"`
	ReadRecordsComplete          bool    `json:"read-records-complete"`
	WriteRecords                 int64   `json:"write-records"`
	WriteRecordsComplete         bool    `json:"write-records-complete"`
	AccumulatedBackpressuredTime int64   `json:"accumulated-backpressured-time"`
	AccumulatedIdleTime          int64   `json:"accumulated-idle-time"`
	AccumulatedBusyTime          float64 `json:"accumulated-busy-time"`
}

// UnmarshalJSON accepts accumulated-busy-time as "NaN", which Jackson
// writes for a double that is not a number.
func (m *IOMetrics) UnmarshalJSON(b []byte) error {
	type plain IOMetrics
	w := struct {
		*plain
		Busy flexFloat `json:"accumulated-busy-time"`
	}{plain: (*plain)(m)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	m.AccumulatedBusyTime = float64(w.Busy)
	return nil
}

// CheckpointStats is GET /jobs/:id/checkpoints (CheckpointingStatistics).
type CheckpointStats struct {
	Counts  CheckpointCounts  `json:"counts"`
	Summary CheckpointSummary `json:"summary"`
	Latest  LatestCheckpoints `json:"latest"`
	History []Checkpoint      `json:"history"`
}

// CheckpointCounts counts checkpoints by outcome.
type CheckpointCounts struct {
	Restored   int64 `json:"restored"`
	Total      int64 `json:"total"`
	InProgress int64 `json:"in_progress"`
	Completed  int64 `json:"completed"`
	Failed     int64 `json:"failed"`
}

// CheckpointSummary summarises completed checkpoints.
type CheckpointSummary struct {
	CheckpointedSize  StatsSummary `json:"checkpointed_size"`
	StateSize         StatsSummary `json:"state_size"`
	EndToEndDuration  StatsSummary `json:"end_to_end_duration"`
	AlignmentBuffered StatsSummary `json:"alignment_buffered"`
	ProcessedData     StatsSummary `json:"processed_data"`
	PersistedData     StatsSummary `json:"persisted_data"`
}

// StatsSummary is a distribution (StatsSummaryDto).
type StatsSummary struct {
	Min  int64   `json:"min"`
	Max  int64   `json:"max"`
	Avg  int64   `json:"avg"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
}

// UnmarshalJSON accepts percentiles as "NaN" (no data yet).
func (s *StatsSummary) UnmarshalJSON(b []byte) error {
	type plain StatsSummary
	w := struct {
		*plain
		P50  flexFloat `json:"p50"`
		P90  flexFloat `json:"p90"`
		P95  flexFloat `json:"p95"`
		P99  flexFloat `json:"p99"`
		P999 flexFloat `json:"p999"`
	}{plain: (*plain)(s)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	s.P50, s.P90, s.P95, s.P99, s.P999 = float64(w.P50), float64(w.P90), float64(w.P95), float64(w.P99), float64(w.P999)
	return nil
}

// LatestCheckpoints are the newest checkpoint of each kind.
type LatestCheckpoints struct {
	Completed *Checkpoint         `json:"completed"`
	Savepoint *Checkpoint         `json:"savepoint"`
	Failed    *Checkpoint         `json:"failed"`
	Restored  *RestoredCheckpoint `json:"restored"`
}

// Checkpoint is one checkpoint or savepoint (CheckpointStatistics and its
// completed / failed / in_progress variants, told apart by ClassName).
type Checkpoint struct {
	ClassName               string                    `json:"className"`
	ID                      int64                     `json:"id"`
	Status                  string                    `json:"status"` // IN_PROGRESS, COMPLETED, FAILED
	IsSavepoint             bool                      `json:"is_savepoint"`
	SavepointFormat         string                    `json:"savepointFormat"`
	TriggerTimestamp        int64                     `json:"trigger_timestamp"`
	LatestAckTimestamp      int64                     `json:"latest_ack_timestamp"`
	CheckpointedSize        int64                     `json:"checkpointed_size"`
	StateSize               int64                     `json:"state_size"`
	EndToEndDuration        int64                     `json:"end_to_end_duration"`
	AlignmentBuffered       int64                     `json:"alignment_buffered"`
	ProcessedData           int64                     `json:"processed_data"`
	PersistedData           int64                     `json:"persisted_data"`
	NumSubtasks             int                       `json:"num_subtasks"`
	NumAcknowledgedSubtasks int                       `json:"num_acknowledged_subtasks"`
	CheckpointType          string                    `json:"checkpoint_type"`
	Tasks                   map[string]TaskCheckpoint `json:"tasks"`
	// Completed checkpoints.
	ExternalPath string `json:"external_path"`
	Discarded    bool   `json:"discarded"`
	// Failed checkpoints.
	FailureTimestamp int64  `json:"failure_timestamp"`
	FailureMessage   string `json:"failure_message"`
}

// Triggered is TriggerTimestamp as a time.
func (c Checkpoint) Triggered() time.Time { return millis(c.TriggerTimestamp) }

// TaskCheckpoint is one vertex's part of a checkpoint.
type TaskCheckpoint struct {
	ID                      int64  `json:"id"`
	Status                  string `json:"status"`
	LatestAckTimestamp      int64  `json:"latest_ack_timestamp"`
	CheckpointedSize        int64  `json:"checkpointed_size"`
	StateSize               int64  `json:"state_size"`
	EndToEndDuration        int64  `json:"end_to_end_duration"`
	AlignmentBuffered       int64  `json:"alignment_buffered"`
	ProcessedData           int64  `json:"processed_data"`
	PersistedData           int64  `json:"persisted_data"`
	NumSubtasks             int    `json:"num_subtasks"`
	NumAcknowledgedSubtasks int    `json:"num_acknowledged_subtasks"`
}

// RestoredCheckpoint is the checkpoint or savepoint the job restored from.
type RestoredCheckpoint struct {
	ID               int64  `json:"id"`
	RestoreTimestamp int64  `json:"restore_timestamp"`
	IsSavepoint      bool   `json:"is_savepoint"`
	ExternalPath     string `json:"external_path"`
}

// CheckpointConfig is GET /jobs/:id/checkpoints/config.
type CheckpointConfig struct {
	Mode            string `json:"mode"` // AT_LEAST_ONCE, EXACTLY_ONCE
	Interval        int64  `json:"interval"`
	Timeout         int64  `json:"timeout"`
	MinPause        int64  `json:"min_pause"`
	MaxConcurrent   int64  `json:"max_concurrent"`
	Externalization struct {
		Enabled              bool `json:"enabled"`
		DeleteOnCancellation bool `json:"delete_on_cancellation"`
	} `json:"externalization"`
	StateBackend                             string `json:"state_backend"`
	CheckpointStorage                        string `json:"checkpoint_storage"`
	UnalignedCheckpoints                     bool   `json:"unaligned_checkpoints"`
	TolerableFailedCheckpoints               int    `json:"tolerable_failed_checkpoints"`
	AlignedCheckpointTimeout                 int64  `json:"aligned_checkpoint_timeout"`
	CheckpointsAfterTasksFinish              bool   `json:"checkpoints_after_tasks_finish"`
	StateChangelogEnabled                    bool   `json:"state_changelog_enabled"`
	ChangelogPeriodicMaterializationInterval int64  `json:"changelog_periodic_materialization_interval"`
	ChangelogStorage                         string `json:"changelog_storage"`
}

// SavepointFormat values for savepoint requests.
const (
	FormatCanonical = "CANONICAL"
	FormatNative    = "NATIVE"
)

// SavepointRequest is the body of POST /jobs/:id/savepoints
// (SavepointTriggerRequestBody). Empty fields are not sent: Flink rejects
// unknown or null fields, and defaults what is missing.
type SavepointRequest struct {
	TargetDirectory string `json:"target-directory,omitempty"`
	CancelJob       bool   `json:"cancel-job,omitempty"`
	FormatType      string `json:"formatType,omitempty"`
	// TriggerID makes the trigger idempotent: Flink answers a repeated
	// trigger id with the same operation. 32 hex digits; see NewTriggerID.
	TriggerID string `json:"triggerId,omitempty"`
}

// StopRequest is the body of POST /jobs/:id/stop
// (StopWithSavepointRequestBody).
type StopRequest struct {
	TargetDirectory string `json:"targetDirectory,omitempty"`
	// Drain emits MAX_WATERMARK before stopping (end of stream).
	Drain      bool   `json:"drain,omitempty"`
	FormatType string `json:"formatType,omitempty"`
	TriggerID  string `json:"triggerId,omitempty"`
}

// Checkpoint types for TriggerCheckpoint.
const (
	CheckpointConfigured = "CONFIGURED"
	CheckpointFull       = "FULL"
)

// CheckpointRequest is the body of POST /jobs/:id/checkpoints.
type CheckpointRequest struct {
	CheckpointType string `json:"checkpointType,omitempty"`
	TriggerID      string `json:"triggerId,omitempty"`
}

// Operation is the state of an asynchronous operation (savepoint, stop,
// checkpoint) as its status endpoint reports it.
type Operation struct {
	Done bool // status COMPLETED: succeeded or failed
	// Location is the savepoint path of a successful savepoint or stop.
	Location string
	// CheckpointID is the id of a successful triggered checkpoint.
	CheckpointID int64
	// Failure is set when the operation failed.
	Failure *FailureCause
}

// FailureCause is Flink's serialized throwable (SerializedThrowable): the
// class and stack trace as text; the Java-serialized form is not kept.
type FailureCause struct {
	Class      string `json:"class"`
	StackTrace string `json:"stack-trace"`
}

// Message is the failure's first line, for people.
func (f *FailureCause) Message() string {
	if f == nil {
		return ""
	}
	if l := headline(f.StackTrace); l != "" {
		return l
	}
	return f.Class
}

// asyncResult is the wire form of AsynchronousOperationResult.
type asyncResult struct {
	Status struct {
		ID string `json:"id"` // IN_PROGRESS, COMPLETED
	} `json:"status"`
	Operation *struct {
		Location     string        `json:"location"`
		CheckpointID int64         `json:"checkpointId"`
		FailureCause *FailureCause `json:"failure-cause"`
		// The checkpoint variant spells it in camel case.
		FailureCauseCamel *FailureCause `json:"failureCause"`
	} `json:"operation"`
}

func (a asyncResult) operation() Operation {
	op := Operation{Done: a.Status.ID == "COMPLETED"}
	if a.Operation != nil {
		op.Location = a.Operation.Location
		op.CheckpointID = a.Operation.CheckpointID
		op.Failure = a.Operation.FailureCause
		if op.Failure == nil {
			op.Failure = a.Operation.FailureCauseCamel
		}
	}
	return op
}

// JobExceptions is GET /jobs/:id/exceptions. 2.x servers fill only
// History; 1.x servers also fill the deprecated RootException, Timestamp,
// AllExceptions and Truncated, and their history entries carry Location.
type JobExceptions struct {
	History struct {
		Entries   []RootException `json:"entries"`
		Truncated bool            `json:"truncated"`
	} `json:"exceptionHistory"`

	RootException string               `json:"root-exception"`
	Timestamp     int64                `json:"timestamp"`
	AllExceptions []ExecutionException `json:"all-exceptions"`
	Truncated     bool                 `json:"truncated"`
}

// ExceptionEntry is one failure (ExceptionInfo).
type ExceptionEntry struct {
	ExceptionName string            `json:"exceptionName"`
	Stacktrace    string            `json:"stacktrace"`
	Timestamp     int64             `json:"timestamp"`
	TaskName      string            `json:"taskName"`
	Endpoint      string            `json:"endpoint"`
	TaskManagerID string            `json:"taskManagerId"`
	FailureLabels map[string]string `json:"failureLabels"`
	Location      string            `json:"location"` // 1.x only
}

// RootException is a root failure with what failed with it.
type RootException struct {
	ExceptionEntry
	ConcurrentExceptions []ExceptionEntry `json:"concurrentExceptions"`
}

// ExecutionException is an entry of the 1.x `all-exceptions` list.
type ExecutionException struct {
	Exception     string `json:"exception"`
	Task          string `json:"task"`
	Location      string `json:"location"`
	Endpoint      string `json:"endpoint"`
	TaskManagerID string `json:"taskManagerId"`
	Timestamp     int64  `json:"timestamp"`
}

// Metric is one metric value. Flink sends values as strings and leaves
// Value out when it is null (and when listing available metrics).
type Metric struct {
	ID    string `json:"id"`
	Value string `json:"value,omitempty"`
}

// UnmarshalJSON accepts a numeric value too.
func (m *Metric) UnmarshalJSON(b []byte) error {
	var w struct {
		ID    string     `json:"id"`
		Value flexString `json:"value"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	m.ID, m.Value = w.ID, string(w.Value)
	return nil
}

// AggregatedMetric is one metric aggregated over subtasks; only the
// requested aggregations are set.
type AggregatedMetric struct {
	ID   string   `json:"id"`
	Min  *float64 `json:"min,omitempty"`
	Max  *float64 `json:"max,omitempty"`
	Avg  *float64 `json:"avg,omitempty"`
	Sum  *float64 `json:"sum,omitempty"`
	Skew *float64 `json:"skew,omitempty"`
}

// UnmarshalJSON accepts the aggregates as numbers or numeric strings.
func (m *AggregatedMetric) UnmarshalJSON(b []byte) error {
	var w struct {
		ID   string     `json:"id"`
		Min  *flexFloat `json:"min"`
		Max  *flexFloat `json:"max"`
		Avg  *flexFloat `json:"avg"`
		Sum  *flexFloat `json:"sum"`
		Skew *flexFloat `json:"skew"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	f := func(p *flexFloat) *float64 {
		if p == nil {
			return nil
		}
		v := float64(*p)
		return &v
	}
	*m = AggregatedMetric{ID: w.ID, Min: f(w.Min), Max: f(w.Max), Avg: f(w.Avg), Sum: f(w.Sum), Skew: f(w.Skew)}
	return nil
}

// Backpressure is GET /jobs/:id/vertices/:vid/backpressure.
type Backpressure struct {
	Status            string                `json:"status"` // deprecated | ok
	BackpressureLevel string                `json:"backpressureLevel"`
	EndTimestamp      int64                 `json:"end-timestamp"`
	Subtasks          []SubtaskBackpressure `json:"subtasks"`
}

// SubtaskBackpressure is one subtask's back pressure.
type SubtaskBackpressure struct {
	Subtask                 int                   `json:"subtask"`
	AttemptNumber           int                   `json:"attempt-number"`
	BackpressureLevel       string                `json:"backpressureLevel"`
	Ratio                   float64               `json:"ratio"`
	IdleRatio               float64               `json:"idleRatio"`
	BusyRatio               float64               `json:"busyRatio"`
	OtherConcurrentAttempts []SubtaskBackpressure `json:"other-concurrent-attempts"`
}

// MaxRatio is the worst subtask's back-pressure ratio (0..1).
func (b Backpressure) MaxRatio() float64 {
	var m float64
	for _, s := range b.Subtasks {
		m = max(m, s.Ratio)
	}
	return m
}

// TaskManager is one entry of GET /taskmanagers (TaskManagerInfo). On
// YARN, ID is the container id.
type TaskManager struct {
	ID                     string          `json:"id"`
	Path                   string          `json:"path"`
	DataPort               int             `json:"dataPort"`
	JMXPort                int             `json:"jmxPort"`
	TimeSinceLastHeartbeat int64           `json:"timeSinceLastHeartbeat"`
	SlotsNumber            int             `json:"slotsNumber"`
	FreeSlots              int             `json:"freeSlots"`
	TotalResource          ResourceProfile `json:"totalResource"`
	FreeResource           ResourceProfile `json:"freeResource"`
	Hardware               struct {
		CPUCores       int   `json:"cpuCores"`
		PhysicalMemory int64 `json:"physicalMemory"`
		FreeMemory     int64 `json:"freeMemory"`
		ManagedMemory  int64 `json:"managedMemory"`
	} `json:"hardware"`
	MemoryConfiguration map[string]int64 `json:"memoryConfiguration"`
	Blocked             bool             `json:"blocked"`
	AssignedTasks       int              `json:"assignedTasks"` // 2.3+
}

// ResourceProfile is a TaskManager's resources.
type ResourceProfile struct {
	CPUCores          float64            `json:"cpuCores"`
	TaskHeapMemory    int64              `json:"taskHeapMemory"`
	TaskOffHeapMemory int64              `json:"taskOffHeapMemory"`
	ManagedMemory     int64              `json:"managedMemory"`
	NetworkMemory     int64              `json:"networkMemory"`
	ExtendedResources map[string]float64 `json:"extendedResources"`
}

// LogInfo is one log file of a JobManager or TaskManager.
type LogInfo struct {
	Name  string `json:"name"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
}

// JarList is GET /jars.
type JarList struct {
	Address string    `json:"address"`
	Files   []JarFile `json:"files"`
}

// JarFile is an uploaded jar; its ID is what RunJar and DeleteJar take.
type JarFile struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Uploaded int64  `json:"uploaded"`
	Entry    []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"entry"`
}

// Claim modes for JarRunRequest.ClaimMode (RecoveryClaimMode, called
// RestoreMode before 1.20).
const (
	ClaimModeClaim   = "CLAIM"
	ClaimModeNoClaim = "NO_CLAIM"
	ClaimModeLegacy  = "LEGACY"
)

// JarRunRequest is the body of POST /jars/:id/run (JarRunRequestBody).
type JarRunRequest struct {
	EntryClass            string            `json:"entryClass,omitempty"`
	ProgramArgsList       []string          `json:"programArgsList,omitempty"`
	Parallelism           int               `json:"parallelism,omitempty"`
	JobID                 string            `json:"jobId,omitempty"`
	SavepointPath         string            `json:"savepointPath,omitempty"`
	AllowNonRestoredState bool              `json:"allowNonRestoredState,omitempty"`
	FlinkConfiguration    map[string]string `json:"flinkConfiguration,omitempty"`
	// ClaimMode is sent as `restoreMode`, the name every server from 1.15
	// to 2.4 accepts (`claimMode` exists from 1.20 only, and Flink rejects
	// fields it does not know).
	ClaimMode string `json:"restoreMode,omitempty"`
}

// JarRunResult is the answer to a jar run. ApplicationID is 2.3+.
type JarRunResult struct {
	JobID         string `json:"jobid"`
	ApplicationID string `json:"applicationId"`
}

// UnmarshalJSON reads applicationId as hex or as the spec's object.
func (r *JarRunResult) UnmarshalJSON(b []byte) error {
	var w struct {
		JobID         string `json:"jobid"`
		ApplicationID flexID `json:"applicationId"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	r.JobID, r.ApplicationID = w.JobID, string(w.ApplicationID)
	return nil
}

// JarUpload is the answer to a jar upload; ID is the jar id (the stored
// file's base name).
type JarUpload struct {
	Filename string `json:"filename"`
	Status   string `json:"status"`
	ID       string `json:"-"`
}

// ExecutionResult is GET /jobs/:id/execution-result once the job is
// globally terminal. Flink writes it with JobResultSerializer, whose field
// names (application-status, net-runtime, failure-cause, …) are not the
// spec's bean names; both are read. Done is false while the job runs.
type ExecutionResult struct {
	Done bool
	// JobID and Name identify the job (Name is 2.x).
	JobID string
	Name  string
	// ApplicationStatus is SUCCEEDED, FAILED, CANCELED or UNKNOWN.
	ApplicationStatus string
	NetRuntime        int64 // ms
	StartTime         int64 // 2.x
	EndTime           int64 // 2.x
	ApplicationID     string
	// Failure is the job's failure, when it failed.
	Failure *FailureCause
}

type executionResultWire struct {
	Status struct {
		ID string `json:"id"`
	} `json:"status"`
	Result *struct {
		ID                string        `json:"id"`
		JobID             string        `json:"jobId"`
		Name              string        `json:"name"`
		JobName           string        `json:"job-name"`
		ApplicationStatus string        `json:"application-status"`
		SpecStatus        string        `json:"applicationStatus"`
		JobStatus         string        `json:"jobStatus"`
		NetRuntime        int64         `json:"net-runtime"`
		SpecNetRuntime    int64         `json:"netRuntime"`
		StartTime         int64         `json:"start-time"`
		EndTime           int64         `json:"end-time"`
		ApplicationID     flexID        `json:"application-id"`
		FailureCause      *FailureCause `json:"failure-cause"`
	} `json:"job-execution-result"`
}

func (w executionResultWire) result() ExecutionResult {
	r := ExecutionResult{Done: w.Status.ID == "COMPLETED"}
	if x := w.Result; x != nil {
		r.JobID = firstSet(x.ID, x.JobID)
		r.Name = firstSet(x.Name, x.JobName)
		r.ApplicationStatus = firstSet(x.ApplicationStatus, x.SpecStatus, appStatusOf(x.JobStatus))
		r.NetRuntime = x.NetRuntime
		if r.NetRuntime == 0 {
			r.NetRuntime = x.SpecNetRuntime
		}
		r.StartTime, r.EndTime = x.StartTime, x.EndTime
		r.ApplicationID = string(x.ApplicationID)
		r.Failure = x.FailureCause
	}
	return r
}

// appStatusOf maps a terminal JobStatus to Flink's ApplicationStatus.
func appStatusOf(jobStatus string) string {
	switch jobStatus {
	case JobFinished:
		return "SUCCEEDED"
	case JobFailed:
		return "FAILED"
	case JobCanceled:
		return "CANCELED"
	case "":
		return ""
	}
	return "UNKNOWN"
}

func firstSet(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
