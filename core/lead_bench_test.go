package core_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// BenchmarkLeaderStore compares, at 1,000 running jobs, what the leader
// does on a store on etcd with the same on a bbolt file: a state sync cycle
// (every job's state read from the simulator, what changed written) and an
// action's latency (Plan and Act: the checks and the transaction that
// records the command, what a person waits for before "queued"). On etcd
// the writes go through a store fenced by an election key, as a leader's
// do (core/leader), mirrored in memory as the agent's is (store.EtcdOptions
// Mirror); the members keep their data on disk, as the file does.
func BenchmarkLeaderStore(b *testing.B) {
	const n = 1000
	backends := []struct {
		name string
		open func(b *testing.B) store.Store
	}{
		{"bbolt", func(b *testing.B) store.Store {
			st, err := store.Open(filepath.Join(b.TempDir(), "palink.db"), store.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { st.Close() })
			return st
		}},
		// One member: what a commit costs without a quorum's fsyncs on
		// the one disk the three members share here.
		{"etcd-1-fenced", func(b *testing.B) store.Store { return fencedEtcd(b, 1) }},
		{"etcd-3-fenced", func(b *testing.B) store.Store { return fencedEtcd(b, 3) }},
	}
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			st := be.open(b)
			svc, stop := fleetOn(b, st, n)
			defer stop()
			ctx := context.Background()
			b.Run("sync", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					st, err := svc.SyncOnce(ctx, 0)
					if err != nil {
						b.Fatal(err)
					}
					if st.Jobs != n || st.Errors != 0 {
						b.Fatalf("cycle synced %d of %d jobs with %d errors", st.Jobs, n, st.Errors)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/cycle")
			})
			b.Run("act", func(b *testing.B) {
				const acts = 100
				var took time.Duration
				// The requests of every action but each iteration's first
				// (etcd only): what Plan and Act ask of etcd.
				var before, sent int64
				requests := func() int64 {
					if e, ok := st.(interface{ Stats() store.EtcdStats }); ok {
						return e.Stats().Requests
					}
					return 0
				}
				for i := 0; i < b.N; i++ {
					var ids []string
					for k := range acts {
						id := fmt.Sprintf("j%06d", (i*acts+k)%n)
						start := time.Now()
						req := api.ActionRequest{JobRef: id, Kind: model.CmdSavepoint}
						if p, err := svc.Plan(ctx, req); err != nil || !p.Allowed {
							b.Fatalf("plan a savepoint of %s: %v %+v", id, err, p)
						}
						cmd, err := svc.Act(ctx, req)
						if err != nil {
							b.Fatal(err)
						}
						took += time.Since(start)
						if k == 0 {
							before = requests()
						}
						ids = append(ids, cmd.ID)
					}
					sent += requests() - before
					// Not measured: the commands end, so that their jobs
					// take another.
					b.StopTimer()
					endCommands(b, svc, st, ids)
					b.StartTimer()
				}
				b.ReportMetric(float64(took.Microseconds())/float64(b.N*acts)/1000, "ms/act")
				b.ReportMetric(float64(sent)/float64(b.N*(acts-1)), "etcd-requests/act")
			})
		})
	}
}

// fencedEtcd is a store on n etcd members on disk, fenced by a key this
// benchmark holds, as a leader's store is by its election key.
func fencedEtcd(b *testing.B, n int) store.Store {
	c := etcdtest.Start(b, n, etcdtest.Options{OnDisk: true})
	e, err := store.OpenEtcd(store.EtcdScheme+strings.Join(c.Endpoints(), ",")+"/bench", store.Options{Etcd: store.EtcdOptions{Mirror: true}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.Close() })
	resp, err := e.Client().Put(context.Background(), e.KeyPrefix()+"election/bench", "{}")
	if err != nil {
		b.Fatal(err)
	}
	return e.Fenced(store.Fence{Key: e.KeyPrefix() + "election/bench", CreateRevision: resp.Header.Revision})
}

// endCommands ends the commands ids as succeeded, through the store.
func endCommands(b *testing.B, svc *core.Local, st store.Store, ids []string) {
	b.Helper()
	ctx := context.Background()
	for _, id := range ids {
		c, err := svc.Command(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		c.State, c.EndedAt = model.CmdSucceeded, time.Now()
		if err := st.Update(ctx, func(tx store.Tx) error { _, err := tx.PutCommand(c); return err }); err != nil {
			b.Fatal(err)
		}
	}
}

// fleetOn is fleet on the store st: a simulator with n running per-job
// applications and n jobs that own them, written in transactions of 50
// (etcd takes 128 operations in one).
func fleetOn(b *testing.B, st store.Store, n int) (*core.Local, func()) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c, err := sim.New(sim.Options{Seed: 1, Speed: 600})
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Start(ctx, "127.0.0.1:0"); err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	for start := 0; start < n; start += 50 {
		err = st.Update(ctx, func(tx store.Tx) error {
			for i := start; i < min(start+50, n); i++ {
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
	}
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
	if _, err := svc.SyncOnce(ctx, 0); err != nil {
		b.Fatal(err)
	}
	return svc, func() { cancel(); c.Close() }
}
