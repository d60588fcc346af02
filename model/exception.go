package model

import (
	"strings"
	"time"
)

// JobException is one failure of a job's Flink job as its JobManager
// reported it, kept by state sync so that it outlives the application.
// The store keeps a bounded number per job (MaxStoredExceptions), newest
// first, one per time and exception.
type JobException struct {
	JobID      string    `json:"job_id"`
	FlinkJobID string    `json:"flink_job_id,omitempty"`
	AppID      string    `json:"app_id,omitempty"`
	Time       time.Time `json:"time"`
	// Name is Flink's exceptionName (the outermost class); Stacktrace is
	// the whole trace, cut to MaxStoredTrace bytes.
	Name           string            `json:"name"`
	Stacktrace     string            `json:"stacktrace"`
	Task           string            `json:"task,omitempty"`
	Endpoint       string            `json:"endpoint,omitempty"`
	TaskManager    string            `json:"task_manager,omitempty"`
	Labels         map[string]string `json:"labels,omitempty"`
	Concurrent     []JobException    `json:"concurrent,omitempty"`
	SeenAt         time.Time         `json:"seen_at"`
	TraceTruncated bool              `json:"trace_truncated,omitempty"`
}

// Limits of the exception history the store keeps.
const (
	// MaxStoredExceptions is how many exceptions the store keeps per job.
	MaxStoredExceptions = 50
	// MaxStoredTrace bounds one stored stack trace (bytes).
	MaxStoredTrace = 32 << 10
	// MaxStoredConcurrent bounds the concurrent exceptions kept per entry.
	MaxStoredConcurrent = 8
)

// Key identifies an exception within its job: its time and its name, so
// that the same failure seen by two syncs is kept once.
func (e JobException) Key() string {
	return e.Time.UTC().Format("20060102T150405.000000000Z") + "/" + e.Name
}

// InnermostCause is the last "Caused by:" of a Java stack trace (what
// really failed, under the wrappers), else its first line.
func InnermostCause(trace string) string {
	cause := FirstLine(strings.TrimSpace(trace))
	for _, line := range strings.Split(trace, "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(line), "Caused by: "); ok {
			cause = c
		}
	}
	return cause
}
