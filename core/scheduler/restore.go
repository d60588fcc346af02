package scheduler

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// clusterPoints is what a live JobManager says of the job's restore
// points: its newest completed checkpoint and savepoint, and the paths of
// checkpoints it has discarded (subsumed by newer ones, so gone from the
// file system).
type clusterPoints struct {
	latest    []*yarn.Checkpoint
	discarded map[string]bool
}

// askCluster reads the checkpoint statistics of the job's current Flink job
// while its JobManager still answers (bounded: a slow or dead JobManager
// must not hold up a kill or a deploy). ok is false when it could not.
func (s *Scheduler) askCluster(ctx context.Context, cl *clusters.Cluster, j model.Job, within time.Duration) (clusterPoints, bool, error) {
	if j.AppID == "" || j.FlinkJobID == "" {
		return clusterPoints{}, false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	app, err := cl.RM.Application(ctx, j.AppID)
	if err != nil || app.Final() {
		return clusterPoints{}, false, err
	}
	f, err := cl.Flink(app)
	if err != nil {
		return clusterPoints{}, false, err
	}
	stats, err := f.Checkpoints(ctx, j.FlinkJobID)
	if err != nil {
		if errors.Is(err, yarn.ErrNotFound) {
			err = nil
		}
		return clusterPoints{}, false, err
	}
	cp := clusterPoints{latest: []*yarn.Checkpoint{stats.Latest.Completed, stats.Latest.Savepoint}, discarded: map[string]bool{}}
	for _, h := range stats.History {
		if h.Discarded && h.ExternalPath != "" {
			cp.discarded[h.ExternalPath] = true
		}
	}
	return cp, true, nil
}

// checkRestore is the restore point a deploy uses, checked against the
// facts of now rather than those of when the command was accepted: for
// "latest" and "checkpoint" it asks the previous run's JobManager while it
// still answers, then takes the newest point recorded since (sync, or the
// kill that read the last checkpoint before and after it struck) among
// those known to exist (decide.Missing: a checkpoint only if its run's end
// and retention kept it), and never one the cluster reports as discarded.
// It says why in the command log. Explicit paths, savepoints and "none"
// are taken as given (Plan checked them).
func (x *execution) checkRestore(ctx context.Context, cl *clusters.Cluster, j model.Job) (string, error) {
	p := x.params()
	if p.Restore != model.RestoreLatest && p.Restore != model.RestoreCheckpoint {
		return p.RestorePath, nil
	}
	pts, ok, err := x.s.askCluster(ctx, cl, j, 10*time.Second)
	if err != nil {
		x.logf(ctx, "could not ask the JobManager of %s for its checkpoints (%v); using palink's records", j.AppID, err)
	}
	var (
		cur = j
		rps []model.RestorePoint
	)
	if err := x.s.st.Update(ctx, func(tx store.Tx) error {
		fresh, err := tx.Job(j.ID)
		if err != nil {
			return err
		}
		if ok {
			if err := journal.RecordPoints(tx, &fresh, pts.latest, "deploy check", cl.Retained(), x.s.now()); err != nil {
				return err
			}
			if err := tx.PutJob(fresh); err != nil {
				return err
			}
		}
		cur = fresh
		rps, err = tx.RestorePoints(j.ID)
		return err
	}); err != nil {
		return "", err
	}
	res, err := decide.ResolveRestore(cur, rps, p.Restore, "")
	if err != nil {
		return "", err
	}
	if res.Point != nil && pts.discarded[res.Path] {
		return "", fmt.Errorf("the restore point %s was discarded by the cluster (a newer checkpoint subsumed it); choose another with resubmit --restore", res.Path)
	}
	for _, why := range res.Passed {
		x.logf(ctx, "passed over a newer restore point: %s", why)
	}
	path := res.Path
	if path == "" && p.RestorePath != "" {
		// Accepted with a restore point that is gone now: starting from
		// empty state instead would drop the job's state unasked.
		why := "nothing recorded is known to exist any more"
		if rec := decide.RecordOf(cur, rps, p.RestorePath); rec != nil {
			if w := decide.Missing(cur, *rec); w != "" {
				why = w
			}
		}
		return "", fmt.Errorf("the restore point %s this command was accepted with is gone (%s), and no other is known to exist; choose one with resubmit --restore (a path, or none)", p.RestorePath, why)
	}
	switch {
	case path == p.RestorePath && ok:
		x.logf(ctx, "restore point checked with the JobManager of %s: %s is still the newest", j.AppID, orEmpty(path))
	case path == p.RestorePath:
		x.logf(ctx, "restore point %s: the newest palink recorded (the previous run's JobManager is gone, so it cannot be asked)", orEmpty(path))
	default:
		what := "no restore point is known to exist any more"
		if res.Point != nil {
			what = "a newer " + res.Point.Kind.String() + " was recorded after this command was accepted"
			if p.RestorePath != "" && decide.RecordOf(cur, rps, p.RestorePath) != nil {
				if why := decide.Missing(cur, *decide.RecordOf(cur, rps, p.RestorePath)); why != "" {
					what = why
				}
			}
		}
		x.logf(ctx, "restoring from %s instead of %s: %s", orEmpty(path), orEmpty(p.RestorePath), what)
		if err := x.save(ctx, func(c *model.Command) { c.Params.RestorePath = path }); err != nil {
			return "", errLeaseLost
		}
	}
	return path, nil
}

func orEmpty(path string) string {
	if path == "" {
		return "empty state"
	}
	return path
}
