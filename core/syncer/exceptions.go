package syncer

import (
	"strings"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn"
)

// storedExceptions are a JobManager's exception history as the store keeps
// it (1.x's root exception when its history is empty).
func storedExceptions(ex yarn.JobExceptions, j model.Job, flinkJobID string, now time.Time) []model.JobException {
	one := func(e yarn.ExceptionEntry) model.JobException {
		endpoint := e.Endpoint
		if endpoint == "" {
			endpoint = e.Location
		}
		return model.JobException{JobID: j.ID, FlinkJobID: flinkJobID, AppID: j.AppID, Time: time.UnixMilli(e.Timestamp),
			Name: e.ExceptionName, Stacktrace: e.Stacktrace, Task: e.TaskName, Endpoint: endpoint, TaskManager: e.TaskManagerID,
			Labels: e.FailureLabels, SeenAt: now}
	}
	var out []model.JobException
	for _, e := range ex.History.Entries {
		if e.Timestamp <= 0 {
			continue
		}
		se := one(e.ExceptionEntry)
		for _, c := range e.ConcurrentExceptions {
			se.Concurrent = append(se.Concurrent, one(c))
		}
		out = append(out, se)
	}
	if len(out) == 0 && ex.RootException != "" && ex.Timestamp > 0 {
		first := model.FirstLine(ex.RootException)
		name, _, _ := strings.Cut(first, ":")
		out = append(out, model.JobException{JobID: j.ID, FlinkJobID: flinkJobID, AppID: j.AppID, Time: time.UnixMilli(ex.Timestamp),
			Name: name, Stacktrace: ex.RootException, SeenAt: now})
	}
	return out
}

// rootCause is what the newest failure comes down to: the innermost cause
// of its trace, not the wrapper ("JobException: Recovery is suppressed…")
// that says only that Flink gave up.
func rootCause(ex yarn.JobExceptions) string {
	if len(ex.History.Entries) > 0 {
		e := ex.History.Entries[0]
		if e.Stacktrace != "" {
			return model.InnermostCause(e.Stacktrace)
		}
		return e.ExceptionName
	}
	return model.InnermostCause(ex.RootException)
}
