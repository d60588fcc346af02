package decide

import (
	"fmt"
	"time"

	"github.com/palink/palink/model"
)

// ResolveRestore turns a restore choice into the path a deploy restores
// from ("" for empty state). It fails, for people, when the chosen kind of
// restore point was never recorded.
func ResolveRestore(j model.Job, choice model.RestoreChoice, path string) (string, error) {
	switch choice {
	case model.RestoreLatest, 0:
		if rp := NewestRestorePoint(j); rp != nil {
			return rp.Path, nil
		}
		return "", nil
	case model.RestoreSavepoint:
		if j.LatestSavepoint == nil {
			return "", fmt.Errorf("job %s has no savepoint recorded; choose a checkpoint, a path or none", j.Name)
		}
		return j.LatestSavepoint.Path, nil
	case model.RestoreCheckpoint:
		if j.LatestCheckpoint == nil {
			return "", fmt.Errorf("job %s has no checkpoint recorded; choose a savepoint, a path or none", j.Name)
		}
		return j.LatestCheckpoint.Path, nil
	case model.RestoreNone:
		return "", nil
	case model.RestorePath:
		if path == "" {
			return "", fmt.Errorf("restore from a path: no path given")
		}
		return path, nil
	}
	return "", fmt.Errorf("unknown restore choice %v", choice)
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
// latest checkpoint, or the latest savepoint when no checkpoint was seen.
func PolicyRestore(j model.Job) (model.RestoreChoice, string) {
	if j.LatestCheckpoint != nil {
		return model.RestoreCheckpoint, j.LatestCheckpoint.Path
	}
	if j.LatestSavepoint != nil {
		return model.RestoreSavepoint, j.LatestSavepoint.Path
	}
	return model.RestoreNone, ""
}
