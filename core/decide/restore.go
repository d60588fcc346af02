package decide

import (
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/model"
)

// RetentionKey is Flink's configuration key of the externalized checkpoint
// retention; Flink 1.x and 2.x use the same name.
const RetentionKey = "execution.checkpointing.externalized-checkpoint-retention"

// RetentionOf is the checkpoint retention of the job's current (or last)
// Flink job: what its JobManager reported, else what the job's own
// configuration asks for, else not known (the cluster's flink-conf may set
// another default than Flink's).
func RetentionOf(j model.Job) model.CheckpointRetention {
	if j.Retention != model.RetentionUnknown {
		return j.Retention
	}
	if r, err := model.ParseCheckpointRetention(j.Config[RetentionKey]); err == nil {
		return r
	}
	return model.RetentionUnknown
}

// RetentionFromREST reads the retention from what GET
// /jobs/:id/checkpoints/config reports (CheckpointConfigHandler: enabled
// unless NEVER_RETAIN_AFTER_TERMINATION, delete_on_cancellation unless
// RETAIN_ON_CANCELLATION).
func RetentionFromREST(enabled, deleteOnCancellation bool) model.CheckpointRetention {
	switch {
	case !enabled:
		return model.RetainNever
	case deleteOnCancellation:
		return model.RetainOnFailure
	}
	return model.RetainOnCancellation
}

// CheckpointKept is Flink's CheckpointProperties.forCheckpoint table: whether
// a job that ended with end kept its retained checkpoints under retention r.
// Every retention deletes them when the job FINISHES (a pause is a
// stop-with-savepoint, so it FINISHES); RETAIN_ON_CANCELLATION keeps them
// after CANCELED, FAILED and SUSPENDED, DELETE_ON_CANCELLATION after FAILED
// only, NO_EXTERNALIZED_CHECKPOINTS never. A YARN kill runs no cleanup, so
// they stay. known is false when the answer hangs on a retention palink
// does not know, or on an end it did not see.
func CheckpointKept(end model.RunEnd, r model.CheckpointRetention) (kept, known bool) {
	switch end {
	case model.EndKilled:
		return true, true
	case model.EndFinished:
		return false, true
	case model.EndFailed:
		switch r {
		case model.RetainOnFailure, model.RetainOnCancellation:
			return true, true
		case model.RetainNever:
			return false, true
		}
	case model.EndCanceled, model.EndSuspended:
		switch r {
		case model.RetainOnCancellation:
			return true, true
		case model.RetainNever, model.RetainOnFailure:
			return false, true
		}
	}
	return false, false
}

// retentionKeeps says, for people, what a retention keeps.
func retentionKeeps(r model.CheckpointRetention) string {
	switch r {
	case model.RetainOnCancellation:
		return "keeps checkpoints only after cancel or failure"
	case model.RetainOnFailure:
		return "keeps checkpoints only after a failure"
	}
	return "keeps no checkpoint once the job ends"
}

// Missing says why palink cannot count on rp to exist now, or "" when it
// can: a savepoint palink recorded as completed and never disposed of
// exists (Flink never deletes one); a checkpoint exists while the Flink
// job that took it runs (a deploy asks its JobManager again), or, once that
// job ended, when the end and its retention kept it (CheckpointKept); a
// point a restore could not find is gone for good.
func Missing(j model.Job, rp model.RestorePoint) string {
	name := pointName(rp)
	switch rp.Status {
	case model.SavepointDisposed, model.SavepointDisposing:
		return fmt.Sprintf("the %s %s was disposed of (%s)", rp.Kind, rp.Path, rp.Status)
	case model.SavepointMissing:
		return fmt.Sprintf("the cluster could not find the %s %s when a job restored from it (%s)", rp.Kind, name, model.FirstLine(rp.Error))
	}
	if rp.Kind == model.Savepoint {
		return ""
	}
	if rp.RunEnd == model.EndUnknown {
		// The Flink job that took it still runs (a DEPLOYING job's Flink
		// job id is still the ended run's: the deploy has not started its
		// own yet).
		running := j.State == model.StateDeploySucceeded || j.State == model.StateRunning
		if rp.FlinkJobID != "" && rp.FlinkJobID == j.FlinkJobID && running {
			return ""
		}
		return fmt.Sprintf("palink did not see how the Flink job that took %s ended, so it cannot tell whether Flink kept it", name)
	}
	kept, known := CheckpointKept(rp.RunEnd, rp.Retention)
	switch {
	case !known:
		return fmt.Sprintf("the Flink job that took %s ended %s, and whether Flink kept it hangs on the job's checkpoint retention (%s), which palink never read",
			name, rp.RunEnd, RetentionKey)
	case !kept:
		return fmt.Sprintf("Flink discarded %s when the job %s (retention %s %s)", name, endedVerb(rp.RunEnd), rp.Retention, retentionKeeps(rp.Retention))
	}
	return ""
}

func endedVerb(e model.RunEnd) string {
	if e == model.EndSuspended {
		return "was SUSPENDED"
	}
	return e.String()
}

// pointName is the last element of a restore point's path (chk-44,
// savepoint-7f3a21-…): how people name it.
func pointName(rp model.RestorePoint) string {
	p := strings.TrimRight(rp.Path, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 && i < len(p)-1 {
		return p[i+1:]
	}
	return p
}

// Resolved is a restore choice turned into what a deploy restores from.
type Resolved struct {
	// Path is what the deploy restores from; "" for empty state.
	Path string
	// Point is palink's record of Path; nil for none or a path palink never recorded.
	Point *model.RestorePoint
	// Passed says why newer recorded points were passed over, for the plan.
	Passed []string
}

// ResolveRestore turns a restore choice into the point a deploy restores
// from, using only points known to exist (Missing). rps is the job's
// restore-point history. "latest" is the newest such point of the job's
// latest savepoint and latest checkpoint, else the newest of its history
// (saying what it passed over); "savepoint" and "checkpoint" are the
// latest of their kind and are refused, for people, when it is gone; an
// explicit path is taken as given (Plan checks it against palink's record).
func ResolveRestore(j model.Job, rps []model.RestorePoint, choice model.RestoreChoice, path string) (Resolved, error) {
	switch choice {
	case model.RestoreLatest, 0:
		return NewestValid(j, rps), nil
	case model.RestoreSavepoint:
		if j.LatestSavepoint == nil {
			return Resolved{}, fmt.Errorf("job %s has no savepoint recorded; choose a checkpoint, a path or none", j.Name)
		}
		rp := RecordOf(j, rps, j.LatestSavepoint.Path)
		if why := Missing(j, *rp); why != "" {
			return Resolved{}, fmt.Errorf("%s; %s", why, alternatives(j, rps, rp.Path))
		}
		return Resolved{Path: rp.Path, Point: rp}, nil
	case model.RestoreCheckpoint:
		if j.LatestCheckpoint == nil {
			return Resolved{}, fmt.Errorf("job %s has no checkpoint recorded; choose a savepoint, a path or none", j.Name)
		}
		rp := RecordOf(j, rps, j.LatestCheckpoint.Path)
		if why := Missing(j, *rp); why != "" {
			return Resolved{}, fmt.Errorf("%s; %s", why, alternatives(j, rps, rp.Path))
		}
		return Resolved{Path: rp.Path, Point: rp}, nil
	case model.RestoreNone:
		return Resolved{}, nil
	case model.RestorePath:
		if path == "" {
			return Resolved{}, fmt.Errorf("restore from a path: no path given")
		}
		return Resolved{Path: path, Point: RecordOf(j, rps, path)}, nil
	}
	return Resolved{}, fmt.Errorf("unknown restore choice %v", choice)
}

// alternatives says what a person may restore instead of the point at
// gone: the newest other point known to exist, or a path or none.
func alternatives(j model.Job, rps []model.RestorePoint, gone string) string {
	for _, rp := range newestFirst(j, rps) {
		if rp.Path != gone && Missing(j, rp) == "" {
			return fmt.Sprintf("restore the %s %s instead, or choose none", rp.Kind, rp.Path)
		}
	}
	return "no other savepoint or checkpoint is known to exist: give a path, or choose none"
}

// NewestValid is what "latest" restores: the newer of the job's latest
// savepoint and latest checkpoint (NewestRestorePoint) among those known to
// exist, else the newest point of the history known to exist, else empty
// state. Passed says why it passed over newer points.
func NewestValid(j model.Job, rps []model.RestorePoint) Resolved {
	var out Resolved
	var sp, cp *model.RestorePoint
	for _, latest := range []*model.RestorePoint{j.LatestSavepoint, j.LatestCheckpoint} {
		if latest == nil {
			continue
		}
		rp := RecordOf(j, rps, latest.Path)
		if why := Missing(j, *rp); why != "" {
			out.Passed = append(out.Passed, why)
			continue
		}
		if rp.Kind == model.Savepoint {
			sp = rp
		} else {
			cp = rp
		}
	}
	if rp := NewestRestorePoint(model.Job{LatestSavepoint: sp, LatestCheckpoint: cp}); rp != nil {
		out.Path, out.Point = rp.Path, rp
	} else {
		for _, rp := range newestFirst(j, rps) {
			if Missing(j, rp) == "" {
				out.Path, out.Point = rp.Path, &rp
				break
			}
		}
	}
	if naive := NewestRestorePoint(j); naive != nil && naive.Path == out.Path {
		// Only points newer than the one taken were passed over: a
		// checkpoint older than the pause's savepoint was never a choice.
		out.Passed = nil
	}
	return out
}

// newestFirst is the history newest first, by when palink saw each point
// (the store's order breaks ties, the newer record first).
func newestFirst(j model.Job, rps []model.RestorePoint) []model.RestorePoint {
	out := make([]model.RestorePoint, 0, len(rps))
	for i := len(rps) - 1; i >= 0; i-- {
		out = append(out, *RecordOf(j, rps, rps[i].Path))
	}
	for a := 1; a < len(out); a++ {
		for b := a; b > 0 && seen(&out[b]).After(seen(&out[b-1])); b-- {
			out[b], out[b-1] = out[b-1], out[b]
		}
	}
	return out
}

// RecordOf is palink's record of the restore point at path, nil for a
// path it never recorded: its record in the history, which says what
// became of it (disposed of, missing), with what the job's own copy of its
// latest savepoint or checkpoint learned since (its id, how its run ended).
func RecordOf(j model.Job, rps []model.RestorePoint, path string) *model.RestorePoint {
	if path == "" {
		return nil
	}
	var copyOf *model.RestorePoint
	for _, rp := range []*model.RestorePoint{j.LatestSavepoint, j.LatestCheckpoint} {
		if rp != nil && rp.Path == path {
			copyOf = rp
		}
	}
	for i := len(rps) - 1; i >= 0; i-- {
		if rps[i].Path != path {
			continue
		}
		rec := rps[i]
		if copyOf != nil {
			if rec.Status == model.SavepointCompleted {
				rec.Status, rec.Error = copyOf.Status, copyOf.Error
			}
			if rec.RunEnd == model.EndUnknown {
				rec.RunEnd, rec.Retention = copyOf.RunEnd, copyOf.Retention
			}
			if rec.CheckID == 0 {
				rec.CheckID = copyOf.CheckID
			}
			if rec.FlinkJobID == "" {
				rec.FlinkJobID = copyOf.FlinkJobID
			}
		}
		return &rec
	}
	if copyOf != nil {
		rec := *copyOf
		return &rec
	}
	return nil
}

// NewestRestorePoint is the newer of the job's latest savepoint and latest
// checkpoint: what a restart after pause or failure resumes from. Within one
// Flink job the checkpoint ids order them (savepoints share the counter);
// otherwise the order palink recorded them in does. Times from the cluster
// and from palink are never compared: their clocks may disagree.
func NewestRestorePoint(j model.Job) *model.RestorePoint {
	sp, cp := j.LatestSavepoint, j.LatestCheckpoint
	switch {
	case sp == nil:
		return cp
	case cp == nil:
		return sp
	case sp.FlinkJobID != "" && sp.FlinkJobID == cp.FlinkJobID && sp.CheckID > 0 && cp.CheckID > 0:
		if cp.CheckID > sp.CheckID {
			return cp
		}
		return sp
	case seen(cp).After(seen(sp)):
		return cp
	}
	return sp
}

func seen(rp *model.RestorePoint) time.Time {
	if !rp.SeenAt.IsZero() {
		return rp.SeenAt
	}
	return rp.Time
}

// PolicyRestore is the restore point of the platform's restart policy: the
// latest checkpoint when it is known to exist, else the newest point known
// to exist (a savepoint, an older run's kept checkpoint); empty state only
// when palink never recorded any point. When it recorded points and none is
// known to exist any more, ok is false and why says so: restarting from
// empty state would drop the job's state, so a person decides.
func PolicyRestore(j model.Job, rps []model.RestorePoint) (choice model.RestoreChoice, path string, why string, ok bool) {
	if j.LatestCheckpoint != nil && Missing(j, *RecordOf(j, rps, j.LatestCheckpoint.Path)) == "" {
		return model.RestoreCheckpoint, j.LatestCheckpoint.Path, "", true
	}
	r := NewestValid(j, rps)
	switch {
	case r.Point != nil && j.LatestSavepoint != nil && r.Path == j.LatestSavepoint.Path:
		return model.RestoreSavepoint, r.Path, strings.Join(r.Passed, "; "), true
	case r.Point != nil:
		return model.RestorePath, r.Path, strings.Join(r.Passed, "; "), true
	}
	if j.LatestCheckpoint == nil && j.LatestSavepoint == nil && len(rps) == 0 {
		return model.RestoreNone, "", "", true
	}
	why = "no savepoint or checkpoint of the job is known to exist any more"
	if len(r.Passed) > 0 {
		why += ": " + strings.Join(r.Passed, "; ")
	}
	return 0, "", why, false
}

// Flink's words when a job cannot find the savepoint or checkpoint it was
// told to restore (AbstractFsCheckpointStorageAccess.resolveCheckpointPointer),
// each followed by the path in quotes.
var missingPointPhrases = []string{
	"Cannot find checkpoint or savepoint file/directory '",
	"Cannot find meta data file '_metadata' in directory '",
}

// MissingRestorePath finds, in a failure's text (a root exception, YARN's
// diagnostics, a deploy's error), the restore path Flink says it cannot
// find; "" when the text says no such thing.
func MissingRestorePath(text string) string {
	for _, phrase := range missingPointPhrases {
		i := strings.Index(text, phrase)
		if i < 0 {
			continue
		}
		rest := text[i+len(phrase):]
		if end := strings.IndexByte(rest, '\''); end > 0 {
			return rest[:end]
		}
	}
	return ""
}

// SamePath reports whether two restore paths name the same directory.
func SamePath(a, b string) bool {
	return a != "" && strings.TrimRight(a, "/") == strings.TrimRight(b, "/")
}
