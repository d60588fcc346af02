package journal

import (
	"slices"
	"time"

	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// crashLoopRuns bounds the runs read back for a crash loop: the deploys
// that started them (each a command) and their exceptions.
const crashLoopRuns = 10

// crashLoopTx is what CrashLoop reads.
type crashLoopTx interface {
	store.JobsReader
	store.CommandsReader
	store.RestorePointsReader
}

// CrashLoop is the crash loop job j is in now that its current run has
// failed, from what the store kept of its recent runs: each deploy that
// started one (its command says where it restored from, and which
// application and Flink job it made) and the newest exception that run
// reported (what it died of, and on which record). cause is the current
// run's innermost cause as sync read it at now, for a run whose
// exceptions the store does not hold. A run older than the current one counts as
// failed when its newest exception is the loop's cause: it was started
// again from the same point, which a healthy run would have checkpointed
// past. j.CrashLoop is the loop as it stood before this failure.
func CrashLoop(tx crashLoopTx, j model.Job, cause string, now time.Time) (*model.CrashLoop, error) {
	cmds, err := tx.Commands(store.CommandFilter{JobID: j.ID, States: []model.CommandState{model.CmdSucceeded},
		Kinds: []model.CommandKind{model.CmdSubmit, model.CmdRestart, model.CmdResubmit}, Limit: crashLoopRuns})
	if err != nil {
		return nil, err
	}
	exs, err := tx.Exceptions(j.ID)
	if err != nil {
		return nil, err
	}
	// newest is the newest exception of a run, by its Flink job where both
	// know it (a session cluster runs many under one application).
	newest := func(appID, flinkJobID string) *model.JobException {
		for i := range exs { // newest first
			e := &exs[i]
			if flinkJobID != "" && e.FlinkJobID != "" {
				if e.FlinkJobID == flinkJobID {
					return e
				}
			} else if appID != "" && e.AppID == appID {
				return e
			}
		}
		return nil
	}
	run := func(appID, flinkJobID, restored string, version int) decide.FailedRun {
		r := decide.FailedRun{RestorePoint: restored, SpecVersion: version}
		if e := newest(appID, flinkJobID); e != nil {
			r.Cause, r.Record, r.At = model.InnermostCause(e.Stacktrace), model.FailingRecord(e.Stacktrace), e.Time
			if r.Cause == "" {
				r.Cause = e.Name
			}
		}
		return r
	}
	var runs []decide.FailedRun
	slices.Reverse(cmds) // newest first
	if len(cmds) == 0 || cmds[0].Params.AppID != j.AppID {
		// The current run was not deployed by a command palink kept (an
		// adopted job): it restored from what its JobManager said.
		runs = append(runs, run(j.AppID, j.FlinkJobID, j.RestoredFrom, j.SpecVersion))
	}
	for i, c := range cmds {
		if c.Params.AppID == "" {
			continue
		}
		flinkJobID := c.Params.FlinkJobID
		if i == 0 && flinkJobID == "" && c.Params.AppID == j.AppID {
			flinkJobID = j.FlinkJobID // a SQL deploy learns it after the command ended
		}
		runs = append(runs, run(c.Params.AppID, flinkJobID, c.Params.RestorePath, c.Params.SpecVersion))
	}
	if len(runs) > 0 && runs[0].Cause == "" {
		runs[0].Cause, runs[0].At = cause, now
	}
	loop := decide.CrashLoop(j.CrashLoop, runs)
	if loop == nil {
		return nil, nil
	}
	rps, err := tx.RestorePoints(j.ID)
	if err != nil {
		return nil, err
	}
	for _, rp := range rps {
		if rp.Path == loop.RestorePoint {
			loop.RestoreTime = rp.Time
		}
	}
	return loop, nil
}
