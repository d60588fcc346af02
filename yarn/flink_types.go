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
// Its "tasks" counts are not decoded: nothing shows them, and state sync
// reads this list for every job every cycle, where the map was more than
// half of its decoding.
type JobOverview struct {
	ID               string `json:"jid"`
	Name             string `json:"name"`
	State            string `json:"state"`
	StartTime        int64  `json:"start-time"`
	EndTime          int64  `json:"end-time"`
	Duration         int64  `json:"duration"`
	LastModification int64  `json:"last-modification"`
	PendingOperators int    `json:"pending-operators"`
	JobType          string `json:"jobType"`
	SchedulerType    string `json:"schedulerType"`
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
