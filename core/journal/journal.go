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

// Pending returns the job's unfinished command, if any.
func Pending(tx store.CommandsReader, jobID string) (*model.Command, error) {
	cs, err := tx.Commands(store.CommandFilter{JobID: jobID, States: []model.CommandState{model.CmdUndo, model.CmdDoing}})
	if err != nil || len(cs) == 0 {
		return nil, err
	}
	return &cs[0], nil
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
// that took it) keeps its record.
func RecordFlinkPoint(tx store.Tx, j *model.Job, cp *yarn.Checkpoint, origin string, now time.Time) error {
	if cp == nil || cp.ExternalPath == "" || cp.Discarded {
		// A discarded checkpoint is gone from the file system: never a restore point.
		return nil
	}
	kind := model.Checkpoint
	if cp.IsSavepoint {
		kind = model.Savepoint
	}
	rp := model.RestorePoint{JobID: j.ID, Kind: kind, Path: cp.ExternalPath, FlinkJobID: j.FlinkJobID,
		CheckID: cp.ID, Time: time.UnixMilli(cp.LatestAckTimestamp), SeenAt: now, Origin: origin}
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
		if known.FlinkJobID == "" {
			known.FlinkJobID = j.FlinkJobID
		}
		*latest = &known
	}
	return nil
}

// Publisher tells watchers of changes a part committed. Job fills in the
// job's live figures; Publish sends a change as it is.
type Publisher interface {
	Job(j model.Job, pending *model.Command, ev *model.Event)
	Command(c model.Command)
	Publish(c api.Change)
}
