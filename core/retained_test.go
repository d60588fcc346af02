package core_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// retainedFleet is a simulator on a manual clock with one running
// application per job of a store that owns them, and a core over both.
type retainedFleet struct {
	clock *sim.ManualClock
	sim   *sim.Cluster
	st    store.Store
	svc   *core.Local
	ids   []string
}

func newRetainedFleet(t testing.TB, jobs int, conf map[string]string, edit func(*clusters.Spec), editCore ...func(*core.Options)) *retainedFleet {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	clock := sim.NewManualClock(time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC))
	c, err := sim.New(sim.Options{Seed: 3, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	f := &retainedFleet{clock: clock, sim: c, st: st}
	now := time.Now()
	err = st.Update(ctx, func(tx store.Tx) error {
		f.ids = f.ids[:0]
		for i := 0; i < jobs; i++ {
			id := fmt.Sprintf("r%05d", i)
			s, err := c.Submit(ctx, sim.SubmitRequest{Name: id, Tags: []string{"palink", "palink-job-" + id}, Config: conf})
			if err != nil {
				return err
			}
			j := model.Job{ID: id, Name: id, Kind: model.KindSQL, Cluster: "sim", SpecVersion: 1,
				State: model.StateRunning, AppID: s.AppID, FlinkJobID: s.JobID, CreatedAt: now, UpdatedAt: now}
			if err := tx.CreateJob(j); err != nil {
				return err
			}
			f.ids = append(f.ids, id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(30 * time.Second) // every application runs its job
	spec := clusters.Spec{Name: "sim", RM: c.RMURLs()}
	if edit != nil {
		edit(&spec)
	}
	// Checkpoints read every cycle, unless a test says otherwise.
	o := core.Options{Store: st, Clusters: []clusters.Spec{spec}, SyncConcurrency: 8, NoJitter: true, SyncCheckpointEvery: 1}
	for _, e := range editCore {
		e(&o)
	}
	f.svc, err = core.NewLocal(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); st.Close(); c.Close() })
	return f
}

// retained are the paths of the checkpoints the simulated HDFS still
// holds for the job, and its savepoints.
func (f *retainedFleet) retained(t testing.TB, jobID string) []string {
	t.Helper()
	var j model.Job
	if err := f.st.View(context.Background(), func(tx store.ReadTx) (err error) { j, err = tx.Job(jobID); return err }); err != nil {
		t.Fatal(err)
	}
	app, err := f.sim.App(j.AppID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, sj := range app.Jobs {
		out = append(out, sj.Retained...)
		out = append(out, sj.Savepoints...)
	}
	return out
}

func (f *retainedFleet) points(t testing.TB, jobID string) (model.Job, []model.RestorePoint) {
	t.Helper()
	var (
		j   model.Job
		rps []model.RestorePoint
	)
	err := f.st.View(context.Background(), func(tx store.ReadTx) (err error) {
		if j, err = tx.Job(jobID); err != nil {
			return err
		}
		rps, err = tx.RestorePoints(jobID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return j, rps
}

// TestSyncKeepsTheCheckpointsFlinkRetains: a job whose checkpoints move
// on 100 times keeps, as restore points, only the checkpoints its cluster
// retains (Flink's num-retained: 1 by default, or what the cluster's
// config says), each of which still exists on the cluster; and when the
// newest turns out missing, "latest" restores from nothing Flink deleted.
func TestSyncKeepsTheCheckpointsFlinkRetains(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	for _, n := range []int{1, 3} {
		t.Run(fmt.Sprintf("num-retained=%d", n), func(t *testing.T) {
			conf := map[string]string{"execution.checkpointing.interval": "10s", "state.checkpoints.num-retained": fmt.Sprint(n)}
			f := newRetainedFleet(t, 1, conf, func(s *clusters.Spec) { s.CheckpointsRetained = n })
			ctx := context.Background()
			id := f.ids[0]
			for i := 0; i < 100; i++ {
				f.clock.Advance(10 * time.Second)
				if _, err := f.svc.SyncOnce(ctx, 0); err != nil {
					t.Fatal(err)
				}
				j, rps := f.points(t, id)
				if len(rps) > n+1 {
					t.Fatalf("cycle %d: %d restore points kept, want at most %d (num-retained %d + the one restored from)", i, len(rps), n+1, n)
				}
				exist := f.retained(t, id)
				for _, rp := range rps {
					if !slices.Contains(exist, rp.Path) && !decide.SamePath(rp.Path, j.RestoredFrom) {
						t.Fatalf("cycle %d: restore point %s kept, but the cluster deleted it (it holds %v)", i, rp.Path, exist)
					}
				}
			}
			j, _ := f.points(t, id)
			if j.LatestCheckpoint == nil {
				t.Fatal("no checkpoint recorded after 100 cycles")
			}
			// The newest checkpoint turns out gone: "latest" must not fall
			// back on one Flink subsumed.
			err := f.st.Update(ctx, func(tx store.Tx) error {
				j, err := tx.Job(id)
				if err != nil {
					return err
				}
				if _, err := journal.MarkMissing(tx, &j, j.LatestCheckpoint.Path, "test: gone"); err != nil {
					return err
				}
				return tx.PutJob(j)
			})
			if err != nil {
				t.Fatal(err)
			}
			j, rps := f.points(t, id)
			exist := f.retained(t, id)
			if r := decide.NewestValid(j, rps); r.Path != "" && !slices.Contains(exist, r.Path) {
				t.Errorf("latest restores from %s, which the cluster deleted (it holds %v)", r.Path, exist)
			}
		})
	}
}

// BenchmarkStoreGrowth syncs N running jobs on the simulator for an hour
// of simulated time (checkpoints every 10 s; a cycle every 60 s at 100
// jobs, every 5 min at 1,000, so that the run stays short) and reports the store file's size after the hour as a multiple
// of its size after the first cycle: the store is bounded by the fleet,
// not by time (target ≤ 1.5×).
func BenchmarkStoreGrowth(b *testing.B) {
	for _, c := range []struct {
		jobs  int
		cycle time.Duration
	}{{100, time.Minute}, {1000, 5 * time.Minute}} {
		b.Run(fmt.Sprintf("jobs=%d", c.jobs), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f := newRetainedFleet(b, c.jobs, map[string]string{"execution.checkpointing.interval": "10s"}, nil)
				ctx := context.Background()
				size := func() int64 {
					fi, err := os.Stat(f.st.Path())
					if err != nil {
						b.Fatal(err)
					}
					return fi.Size()
				}
				if _, err := f.svc.SyncOnce(ctx, 0); err != nil {
					b.Fatal(err)
				}
				first := size()
				points := 0
				for t := time.Duration(0); t < time.Hour; t += c.cycle {
					f.clock.Advance(c.cycle)
					if _, err := f.svc.SyncOnce(ctx, 0); err != nil {
						b.Fatal(err)
					}
				}
				for _, id := range f.ids {
					_, rps := f.points(b, id)
					points += len(rps)
				}
				b.ReportMetric(float64(size())/float64(first), "growth-x")
				b.ReportMetric(float64(first)/1e6, "MB-first")
				b.ReportMetric(float64(size())/1e6, "MB-hour")
				b.ReportMetric(float64(points)/float64(c.jobs), "points/job")
			}
		})
	}
}
