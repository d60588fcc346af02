package decide

import (
	"time"

	"github.com/palink/palink/model"
)

// CrashLoopMin is how many runs in a row, restored from one point and
// failed with one cause, make a crash loop: the second such failure is
// the first that says restoring that point again replays it.
const CrashLoopMin = 2

// FailedRun is one run of a job that failed: the point it restored from
// ("" for empty state) and what it died of.
type FailedRun struct {
	RestorePoint string
	SpecVersion  int
	// Cause is the innermost cause of its failure ("" when palink never
	// saw it); Record the record its trace names, if any.
	Cause, Record string
	At            time.Time
}

// CrashLoop is the loop a job's failed runs (newest first) make: the
// newest runs that restored from the newest's restore point and failed
// with its cause, when there are CrashLoopMin of them; nil otherwise. A
// run from empty state, or whose cause is not known, is no loop: nothing
// says the next one would fail the same way. The record is named when
// the runs that name one agree on it. prev is the loop the job was in
// before its newest run failed: a run that continues it counts on from
// it, since the store may no longer hold what its oldest runs died of.
func CrashLoop(prev *model.CrashLoop, runs []FailedRun) *model.CrashLoop {
	if len(runs) == 0 || runs[0].Cause == "" || runs[0].RestorePoint == "" {
		return nil
	}
	if prev != nil && (prev.RestorePoint != runs[0].RestorePoint || prev.Cause != runs[0].Cause) {
		prev = nil
	}
	first := runs[0]
	loop := &model.CrashLoop{Cause: first.Cause, RestorePoint: first.RestorePoint, SpecVersion: first.SpecVersion,
		Last: first.At, Since: first.At}
	mixed := false
	for _, r := range runs {
		if r.RestorePoint != first.RestorePoint || r.Cause != first.Cause {
			break
		}
		loop.Count++
		loop.Since = r.At
		switch {
		case r.Record == "" || r.Record == loop.Record:
		case loop.Record == "":
			loop.Record = r.Record
		default:
			mixed = true
		}
	}
	if prev != nil && prev.Count+1 > loop.Count {
		loop.Count, loop.Since = prev.Count+1, prev.Since
		if prev.Record != loop.Record && prev.Record != "" {
			mixed = mixed || loop.Record != ""
			if loop.Record == "" {
				loop.Record = prev.Record
			}
		}
	}
	if loop.Count < CrashLoopMin {
		return nil
	}
	if mixed {
		loop.Record = ""
	}
	return loop
}

// CrashLoopOver reports whether job j got past its crash loop: it
// completed a checkpoint or savepoint other than the loop's restore point
// after the loop's last failure, so a start no longer replays it.
func CrashLoopOver(j model.Job) bool {
	loop := j.CrashLoop
	if loop == nil {
		return false
	}
	for _, rp := range []*model.RestorePoint{j.LatestCheckpoint, j.LatestSavepoint} {
		if rp != nil && rp.Path != loop.RestorePoint && rp.Time.After(loop.Last) {
			return true
		}
	}
	return false
}
