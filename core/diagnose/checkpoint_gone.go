package diagnose

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// defaultHistory is how many checkpoints a JobManager keeps statistics
// of when its configuration does not say (web.checkpoints.history).
const defaultHistory = 10

// checkpointGone explains a checkpoint the JobManager answered "not
// found" for: when it is no newer than the newest the JobManager knows,
// its history has rotated it out. It reports false for an id the
// JobManager never reached, or when it cannot tell (its statistics could
// not be read), and then the 404 stands.
func (rd *Inspector) checkpointGone(ctx context.Context, t target, id int64) (*api.CheckpointGone, []string, bool) {
	var (
		stats yarn.CheckpointStats
		conf  []yarn.ConfigEntry
	)
	errs := rd.fanOut(ctx, 2, func(ctx context.Context, i int) (err error) {
		if i == 0 {
			stats, err = t.flink.Checkpoints(ctx, t.job.FlinkJobID)
		} else {
			conf, err = t.flink.JobManagerConfig(ctx)
		}
		return err
	})
	if errs[0] != nil || id > newestCheckpoint(stats) {
		return nil, nil, false
	}
	kept, known := historySize(conf, stats)
	var notes []string
	if errs[1] != nil && !known {
		notes = append(notes, fmt.Sprintf("history size: JobManager configuration not read (%s); Flink's default assumed", shortCause(errs[1])))
	}
	g := &api.CheckpointGone{ID: id, Kept: kept}
	var rps []model.RestorePoint
	err := rd.st.View(ctx, func(tx store.ReadTx) (err error) {
		rps, err = tx.RestorePoints(t.job.ID)
		return err
	})
	if err != nil && !errors.Is(err, model.ErrNotFound) {
		notes = append(notes, "palink's record of it: "+shortCause(err))
	}
	g.Recorded = RecordedCheckpoint(t.job, rps, id)
	return g, notes, true
}

// newestCheckpoint is the newest checkpoint id the statistics name: in
// the history, among the latest of each kind, or the one restored from.
func newestCheckpoint(s yarn.CheckpointStats) int64 {
	var n int64
	for _, h := range s.History {
		n = max(n, h.ID)
	}
	for _, c := range []*yarn.Checkpoint{s.Latest.Completed, s.Latest.Savepoint, s.Latest.Failed} {
		if c != nil {
			n = max(n, c.ID)
		}
	}
	if r := s.Latest.Restored; r != nil {
		n = max(n, r.ID)
	}
	return n
}

// historySize is how many checkpoints the JobManager keeps statistics of:
// its web.checkpoints.history; else, once it has counted more than its
// history holds, the length of its history; else Flink's default. known
// is false for the default.
func historySize(conf []yarn.ConfigEntry, s yarn.CheckpointStats) (n int, known bool) {
	for _, c := range conf {
		if c.Key == "web.checkpoints.history" {
			if v, err := strconv.Atoi(strings.TrimSpace(c.Value)); err == nil && v >= 0 {
				return v, true
			}
		}
	}
	if l := len(s.History); l > 0 && s.Counts.Total > int64(l) {
		return l, true
	}
	return defaultHistory, false
}

// RecordedCheckpoint is palink's record of checkpoint id of the job's
// current Flink job, from the job's latest points and its restore point
// history (rps), or nil: a record of the same id from another Flink job
// is another checkpoint.
func RecordedCheckpoint(j model.Job, rps []model.RestorePoint, id int64) *model.RestorePoint {
	if j.FlinkJobID == "" {
		return nil
	}
	chk := "/" + j.FlinkJobID + "/chk-" + strconv.FormatInt(id, 10)
	is := func(rp *model.RestorePoint) bool {
		return rp != nil && ((rp.CheckID == id && rp.FlinkJobID == j.FlinkJobID) || strings.HasSuffix(strings.TrimRight(rp.Path, "/"), chk))
	}
	for _, rp := range []*model.RestorePoint{j.LatestSavepoint, j.LatestCheckpoint} {
		if is(rp) {
			c := *rp
			return &c
		}
	}
	for i := range rps {
		if is(&rps[i]) {
			c := rps[i]
			return &c
		}
	}
	return nil
}
