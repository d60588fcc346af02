package journal

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// BenchmarkStoreGrowth records, for N running jobs, a new checkpoint per
// job per sync cycle for an hour of simulated time (a cycle every 10 s at
// 100 and 1,000 jobs, every 30 s at 10,000, to stay short), through
// RecordFlinkPoint as sync does, and reports the store file's size after
// the hour as a multiple of its size after the first cycle (target ≤
// 1.5×): the data it holds (growth-x, MB-*), and the file (file-growth-x,
// which moves in bbolt's steps: doubling up to 16 MB, then 16 MB at a
// time). keep=all records what palink kept before pruning (every
// checkpoint it saw, added as RecordFlinkPoint added it), for comparison.
func BenchmarkStoreGrowth(b *testing.B) {
	for _, c := range []struct {
		jobs  int
		cycle time.Duration
	}{{100, 10 * time.Second}, {1000, 10 * time.Second}, {10000, 30 * time.Second}} {
		for _, keep := range []int{1, 0} {
			name := "keep=1"
			if keep == 0 {
				name = "keep=all"
			}
			b.Run(fmt.Sprintf("jobs=%d/%s", c.jobs, name), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					first, last, points := storeHour(b, c.jobs, c.cycle, keep)
					b.ReportMetric(float64(last.inUse)/float64(first.inUse), "growth-x")
					b.ReportMetric(float64(last.file)/float64(first.file), "file-growth-x")
					b.ReportMetric(float64(first.inUse)/1e6, "MB-first")
					b.ReportMetric(float64(last.inUse)/1e6, "MB-hour")
					b.ReportMetric(points, "points/job")
				}
			})
		}
	}
}

type sizes struct{ file, inUse int64 }

// storeHour runs the hour and returns the file's size after the first
// cycle and after the hour, and the restore points kept per job.
func storeHour(b *testing.B, jobs int, cycle time.Duration, keep int) (first, last sizes, points float64) {
	path := filepath.Join(b.TempDir(), "palink.db")
	st, err := store.Open(path, store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	ids := make([]string, jobs)
	err = st.Update(ctx, func(tx store.Tx) error {
		for i := range ids {
			ids[i] = fmt.Sprintf("j%06d", i)
			j := model.Job{ID: ids[i], Name: ids[i], Kind: model.KindSQL, Cluster: "c", SpecVersion: 1, State: model.StateRunning,
				FlinkJobID: fmt.Sprintf("%032x", i), AppID: fmt.Sprintf("application_1_%06d", i), CreatedAt: t0}
			if err := tx.CreateJob(j); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	size := func() sizes {
		file, inUse, err := st.Size()
		if err != nil {
			b.Fatal(err)
		}
		return sizes{file, inUse}
	}
	n := 0
	for at := time.Duration(0); at <= time.Hour; at += cycle {
		n++
		now := t0.Add(at)
		// One transaction per 1,000 jobs, as a batched sync cycle writes.
		for from := 0; from < jobs; from += 1000 {
			err := st.Update(ctx, func(tx store.Tx) error {
				for _, id := range ids[from:min(from+1000, jobs)] {
					j, err := tx.Job(id)
					if err != nil {
						return err
					}
					cp := &yarn.Checkpoint{ID: int64(n), ExternalPath: fmt.Sprintf("hdfs:///flink/checkpoints/%s/chk-%d", j.FlinkJobID, n),
						LatestAckTimestamp: now.UnixMilli()}
					if keep > 0 {
						if err := RecordFlinkPoint(tx, &j, cp, "sync", keep, now); err != nil {
							return err
						}
					} else {
						rp := model.RestorePoint{JobID: j.ID, Kind: model.Checkpoint, Path: cp.ExternalPath, FlinkJobID: j.FlinkJobID,
							CheckID: cp.ID, Time: now, SeenAt: now, Origin: "sync"}
						if _, err := tx.AddRestorePoint(rp); err != nil {
							return err
						}
						j.LatestCheckpoint = &rp
					}
					j.SyncedAt = now
					if err := tx.PutJob(j); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		if n == 1 {
			first = size()
		}
	}
	var total int
	err = st.View(ctx, func(tx store.ReadTx) error {
		for _, id := range ids {
			rps, err := tx.RestorePoints(id)
			if err != nil {
				return err
			}
			total += len(rps)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return first, size(), float64(total) / float64(jobs)
}
