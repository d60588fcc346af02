package core

import (
	"fmt"

	"github.com/palink/palink/model"
)

// resolveRestore turns a restore choice into the path a deploy restores
// from ("" for empty state). It fails, for people, when the chosen kind of
// restore point was never recorded.
func resolveRestore(j model.Job, choice model.RestoreChoice, path string) (string, error) {
	switch choice {
	case model.RestoreLatest, 0:
		if rp := newestRestorePoint(j); rp != nil {
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

// newestRestorePoint is the newer of the job's latest savepoint and latest
// checkpoint: what a restart after pause or failure resumes from.
func newestRestorePoint(j model.Job) *model.RestorePoint {
	sp, cp := j.LatestSavepoint, j.LatestCheckpoint
	switch {
	case sp == nil:
		return cp
	case cp == nil:
		return sp
	case cp.Time.After(sp.Time):
		return cp
	}
	return sp
}

// policyRestore is the restore point of the platform's restart policy: the
// latest checkpoint, or the latest savepoint when no checkpoint was seen.
func policyRestore(j model.Job) (model.RestoreChoice, string) {
	if j.LatestCheckpoint != nil {
		return model.RestoreCheckpoint, j.LatestCheckpoint.Path
	}
	if j.LatestSavepoint != nil {
		return model.RestoreSavepoint, j.LatestSavepoint.Path
	}
	return model.RestoreNone, ""
}
