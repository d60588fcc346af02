package yarn

import (
	"encoding/json"
	"time"
)

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
	Min  int64      `json:"min"`
	Max  int64      `json:"max"`
	Avg  int64      `json:"avg"`
	P50  Percentile `json:"p50"`
	P90  Percentile `json:"p90"`
	P95  Percentile `json:"p95"`
	P99  Percentile `json:"p99"`
	P999 Percentile `json:"p999"`
}

// Percentile is a distribution's percentile, which Flink sends as "NaN"
// while it has no data. It decodes itself, where a method on the whole
// summary had encoding/json scan each summary twice.
type Percentile float64

// UnmarshalJSON accepts a number or a numeric string ("NaN").
func (p *Percentile) UnmarshalJSON(b []byte) error {
	var f flexFloat
	if err := f.UnmarshalJSON(b); err != nil {
		return err
	}
	*p = Percentile(f)
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

// notAddressable is the external path Flink reports for a checkpoint that
// has no file to name (NonPersistentMetadataCheckpointStorageLocation: a
// job without a checkpoint directory keeps its checkpoints in the
// JobManager's memory, and they die with it).
const notAddressable = "<checkpoint-not-externally-addressable>"

// addressable reads a checkpoint that no restore can name as one without
// an external path, so that it is never taken for a restore point. The
// responses that hold checkpoints call it after decoding (decodeBody), not
// an UnmarshalJSON of Checkpoint's: that made encoding/json scan each of a
// history's checkpoints twice, for every job whose checkpoints sync reads.
func (c *Checkpoint) addressable() {
	if c != nil && c.ExternalPath == notAddressable {
		c.ExternalPath = ""
	}
}

// decodeBody decodes one checkpoint (its details).
func (c *Checkpoint) decodeBody(body []byte) error {
	if err := json.Unmarshal(body, c); err != nil {
		return err
	}
	c.addressable()
	return nil
}

// decodeBody decodes the statistics and their checkpoints.
func (s *CheckpointStats) decodeBody(body []byte) error {
	if err := json.Unmarshal(body, s); err != nil {
		return err
	}
	s.Latest.Completed.addressable()
	s.Latest.Savepoint.addressable()
	s.Latest.Failed.addressable()
	for i := range s.History {
		s.History[i].addressable()
	}
	return nil
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
