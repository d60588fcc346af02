package journal

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// Apply steps the job with ev and appends the event, inside tx.
func Apply(tx store.JobsTx, j model.Job, evk decide.JobEvent, reason, cmdID string, now time.Time) (model.Job, *model.Event, error) {
	to, changed, err := decide.StepJob(j.State, evk)
	if err != nil {
		return j, nil, fmt.Errorf("job %s: %w", j.Name, err)
	}
	e := model.Event{JobID: j.ID, Time: now, From: j.State, To: to, Reason: reason, CommandID: cmdID}
	if !changed {
		j.UpdatedAt = now
		return j, nil, tx.PutJob(j)
	}
	saved, err := tx.AppendEvent(e)
	if err != nil {
		return j, nil, err
	}
	j.State, j.UpdatedAt = to, now
	return j, &saved, tx.PutJob(j)
}

// Note appends an event that records a fact without a state change
// (a savepoint, a drift, the restart policy's decision).
func Note(tx store.JobsTx, j model.Job, reason, cmdID string, now time.Time) (*model.Event, error) {
	e, err := tx.AppendEvent(model.Event{JobID: j.ID, Time: now, From: j.State, To: j.State, Reason: reason, CommandID: cmdID})
	if err != nil {
		return nil, err
	}
	return &e, nil
}

// FindJob resolves a job id or unique name inside a transaction.
func FindJob(tx store.JobsReader, ref string) (model.Job, error) {
	j, err := tx.Job(ref)
	if err == nil {
		return j, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return j, err
	}
	j, err = tx.JobByName(ref)
	if errors.Is(err, store.ErrNotFound) {
		return j, fmt.Errorf("job %q: %w (give a job id or its exact name; `palink jobs` lists them)", ref, store.ErrNotFound)
	}
	return j, err
}

// Pending returns the job's unfinished command, if any: one queued or
// running first, else one UNKNOWN (a kill may run alongside that one).
func Pending(tx store.CommandsReader, jobID string) (*model.Command, error) {
	cs, err := tx.Commands(store.CommandFilter{JobID: jobID, States: []model.CommandState{model.CmdUndo, model.CmdDoing}})
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		if cs, err = tx.Commands(store.CommandFilter{JobID: jobID, States: []model.CommandState{model.CmdUnknown}}); err != nil || len(cs) == 0 {
			return nil, err
		}
	}
	return &cs[0], nil
}

// EndRun records how the job's current Flink job ended, with the
// retention it ran with, on the newest checkpoint palink knows of that
// Flink job (the job's latest checkpoint, and its record in the history):
// what decides whether Flink kept it (decide.Missing). Older checkpoints of
// the run get nothing: they were subsumed while it ran. A checkpoint of an
// earlier run keeps the end of its own run.
func EndRun(tx store.Tx, j *model.Job, end model.RunEnd) error {
	cp := j.LatestCheckpoint
	if cp == nil || cp.RunEnd != model.EndUnknown || (cp.FlinkJobID != "" && cp.FlinkJobID != j.FlinkJobID) {
		return nil
	}
	stamped := *cp
	stamped.RunEnd, stamped.Retention = end, decide.RetentionOf(*j)
	j.LatestCheckpoint = &stamped
	return putRecorded(tx, stamped)
}

// putRecorded rewrites the history's record of rp, when it has one.
func putRecorded(tx store.Tx, rp model.RestorePoint) error {
	err := tx.PutRestorePoint(rp)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}

// MarkMissing records that a restore from path failed because the cluster
// could not find it (why is the cluster's message): never offered again.
// It reports whether palink had recorded the path.
func MarkMissing(tx store.Tx, j *model.Job, path, why string) (bool, error) {
	rps, err := tx.RestorePoints(j.ID)
	if err != nil {
		return false, err
	}
	rec := decide.RecordOf(*j, rps, path)
	if rec == nil || rec.Status == model.SavepointMissing {
		return false, nil
	}
	gone := *rec
	gone.Status, gone.Error = model.SavepointMissing, why
	for _, latest := range []**model.RestorePoint{&j.LatestCheckpoint, &j.LatestSavepoint} {
		if *latest != nil && (*latest).Path == path {
			*latest = &gone
		}
	}
	return true, putRecorded(tx, gone)
}

// FindCommand resolves a command's full id, or the number users see
// ("42", "#42", "c000000042").
func FindCommand(tx store.CommandsReader, ref string) (model.Command, error) {
	if !strings.Contains(ref, "-") {
		if seq, err := store.ParseCommandID(ref); err == nil {
			return tx.CommandBySeq(seq)
		}
	}
	return tx.Command(ref)
}

// RecordFlinkPoint records a completed checkpoint or savepoint that the
// JobManager reported for the job's current Flink job, and makes it the
// job's latest of its kind. A savepoint already recorded (by the command
// that took it) keeps its record. A new checkpoint subsumes older ones:
// Flink keeps the newest retained (its num-retained, the cluster's
// clusters.Spec.CheckpointsRetained) and deletes the files of the others,
// so palink forgets their records in the same transaction (PruneFor),
// and the store holds, per job, what can still be restored rather than
// every checkpoint it ever saw.
func RecordFlinkPoint(tx store.Tx, j *model.Job, cp *yarn.Checkpoint, origin string, retained int, now time.Time) error {
	if cp == nil || cp.ExternalPath == "" || cp.Discarded {
		// A discarded checkpoint is gone from the file system: never a restore point.
		return nil
	}
	kind := model.Checkpoint
	if cp.IsSavepoint {
		kind = model.Savepoint
	}
	rp := model.RestorePoint{JobID: j.ID, Kind: kind, Path: cp.ExternalPath, FlinkJobID: j.FlinkJobID,
		CheckID: cp.ID, Time: time.UnixMilli(cp.LatestAckTimestamp), SeenAt: now, Origin: origin, Size: pointSize(cp)}
	if cp.LatestAckTimestamp == 0 {
		rp.Time = now
	}
	added, err := tx.AddRestorePoint(rp)
	if err != nil {
		return err
	}
	latest := &j.LatestCheckpoint
	if kind == model.Savepoint {
		latest = &j.LatestSavepoint
	}
	switch cur := *latest; {
	case cur == nil || cur.Path != rp.Path:
		// A savepoint seen again (one recorded before) is not the latest.
		if kind == model.Checkpoint || added {
			*latest = &rp
		}
	case cur.CheckID == 0 && cp.ID > 0:
		// The same point, recorded before its id was known (a savepoint
		// taken by a command reads only its path): the id orders it
		// against checkpoints of the same Flink job.
		known := *cur
		known.CheckID = cp.ID
		if known.Size == 0 {
			known.Size = pointSize(cp)
		}
		if known.FlinkJobID == "" {
			known.FlinkJobID = j.FlinkJobID
		}
		*latest = &known
	}
	if added && kind == model.Checkpoint {
		return PruneFor(tx, *j, retained)
	}
	return nil
}

// pointSize is the bytes of a point's whole state: its state_size (an
// incremental checkpoint's checkpointed size is only what it added), or
// its checkpointed size where the JobManager reported no state size.
func pointSize(cp *yarn.Checkpoint) int64 {
	if cp.StateSize > 0 {
		return cp.StateSize
	}
	return cp.CheckpointedSize
}

// PruneFor forgets the job's checkpoint records beyond the newest
// retained, but the one its current run restored from and its latest
// checkpoint: the checkpoints Flink subsumed and deleted. Restoring from
// one of them would fail, and keeping them grew the store with time.
func PruneFor(tx store.Tx, j model.Job, retained int) error {
	_, err := tx.PruneCheckpoints(j.ID, retained, store.PinnedPaths(j)...)
	return err
}

// RestoreNotFound marks the restore point at path missing when text (a
// failure's root exception, YARN's diagnostics, a deploy's error) is Flink
// saying it cannot find it, and notes that on the job's timeline: a
// restore that failed so is never tried again with the same path.
func RestoreNotFound(tx store.Tx, j *model.Job, path, text, cmdID string, now time.Time) (*model.Event, error) {
	if !decide.SamePath(decide.MissingRestorePath(text), path) {
		return nil, nil
	}
	why := text
	for _, line := range strings.Split(text, "\n") {
		if decide.MissingRestorePath(line) != "" {
			why = strings.TrimSpace(line)
			break
		}
	}
	if _, err := MarkMissing(tx, j, path, why); err != nil {
		return nil, err
	}
	return Note(tx, *j, fmt.Sprintf("restore from %s failed: the cluster cannot find it; palink will not offer it again", path), cmdID, now)
}

// RecordPoints records what a JobManager reported of the job's current
// Flink job (RecordFlinkPoint for each point). When palink had already
// seen that run end, its end moves from the checkpoint it was recorded on
// to the newer one just learned of: that one is the newest the run left,
// and it subsumed the other.
func RecordPoints(tx store.Tx, j *model.Job, cps []*yarn.Checkpoint, origin string, retained int, now time.Time) error {
	prev := j.LatestCheckpoint
	for _, cp := range cps {
		if err := RecordFlinkPoint(tx, j, cp, origin, retained, now); err != nil {
			return err
		}
	}
	cur := j.LatestCheckpoint
	if prev == nil || prev.RunEnd == model.EndUnknown || cur == nil || cur.Path == prev.Path || cur.FlinkJobID != prev.FlinkJobID {
		return nil
	}
	old := *prev
	old.RunEnd, old.Retention = model.EndUnknown, model.RetentionUnknown
	if err := putRecorded(tx, old); err != nil {
		return err
	}
	moved := *cur
	moved.RunEnd, moved.Retention = prev.RunEnd, prev.Retention
	j.LatestCheckpoint = &moved
	return putRecorded(tx, moved)
}

// Publisher tells watchers of changes a part committed. Job fills in the
// job's live figures; Publish sends a change as it is.
type Publisher interface {
	Job(j model.Job, pending *model.Command, ev *model.Event)
	Command(c model.Command)
	Publish(c api.Change)
}
