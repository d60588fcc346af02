package core_test

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// BenchmarkSyncCycle measures one sync cycle over N running jobs on the
// simulator: time per cycle, and the calls it makes. The RM is listed once
// per cluster per cycle whatever N is; JobManager calls grow linearly.
func BenchmarkSyncCycle(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("jobs=%d", n), func(b *testing.B) {
			svc, stop := fleet(b, n)
			defer stop()
			ctx := context.Background()
			var last api.SyncStats
			var txns, calls int64
			cpu0 := cpuTime()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				st, err := svc.SyncOnce(ctx, 0)
				if err != nil {
					b.Fatal(err)
				}
				if st.Jobs != n || st.Errors != 0 {
					b.Fatalf("cycle synced %d of %d jobs with %d errors", st.Jobs, n, st.Errors)
				}
				last = st
				txns += int64(st.Transactions)
				calls += st.RMCalls + st.FlinkCalls
			}
			cpu := cpuTime() - cpu0
			b.ReportMetric(float64(txns)/float64(b.N), "txns/cycle")
			b.ReportMetric(float64(calls)/float64(b.N)/float64(n), "req/job")
			// The simulator runs in this process: its CPU is in the figure.
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N)/float64(n), "cpu-µs/job")
			b.ReportMetric(float64(last.RMCalls), "rm-calls/cycle")
			b.ReportMetric(float64(last.FlinkCalls)/float64(n), "jm-calls/job")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(n), "µs/job")
		})
	}
}

// cpuTime is the CPU time this process used so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// fleet starts a simulator with n running per-job applications and a store
// whose n jobs own them, as if palink had deployed them.
func fleet(b *testing.B, n int) (*core.Local, func()) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c, err := sim.New(sim.Options{Seed: 1, Speed: 600})
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Start(ctx, "127.0.0.1:0"); err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	st, err := store.Open(filepath.Join(dir, "palink.db"), store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	err = st.Update(ctx, func(tx store.Tx) error {
		for i := 0; i < n; i++ {
			id := fmt.Sprintf("j%06d", i)
			s, err := c.Submit(ctx, sim.SubmitRequest{Name: id, Tags: []string{"palink", "palink-job-" + id}})
			if err != nil {
				return err
			}
			j := model.Job{ID: id, Name: id, Kind: model.KindSQL, Cluster: "sim", SpecVersion: 1,
				State: model.StateRunning, AppID: s.AppID, FlinkJobID: s.JobID, CreatedAt: now, UpdatedAt: now}
			if err := tx.CreateJob(j); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	// Wait until every application runs its job.
	for deadline := time.Now().Add(2 * time.Minute); ; {
		running := 0
		for _, a := range c.Apps() {
			if a.State == "RUNNING" && len(a.Jobs) > 0 && a.Jobs[0].State == "RUNNING" {
				running++
			}
		}
		if running >= n {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d applications running", running, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	svc, err := core.NewLocal(core.Options{Store: st, Clusters: []clusters.Spec{{Name: "sim", RM: c.RMURLs(), SQLGateway: c.GatewayURL()}},
		SyncConcurrency: 16, NoJitter: true})
	if err != nil {
		b.Fatal(err)
	}
	// A first cycle records checkpoints, so that measured cycles persist
	// only what changes.
	if _, err := svc.SyncOnce(ctx, 0); err != nil {
		b.Fatal(err)
	}
	return svc, func() { cancel(); st.Close(); c.Close() }
}
