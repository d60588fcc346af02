package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/model"
)

// Figures on the lead's machine go to BENCHMARKS.md; run with
//
//	go test ./store -run '^$' -bench . -benchtime 2s

func benchStore(b *testing.B, opts Options) *Bolt {
	b.Helper()
	s, err := Open(filepath.Join(b.TempDir(), "palink.db"), opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

func seedJobs(b *testing.B, s Store, n int) []string {
	b.Helper()
	ids := make([]string, n)
	// In transactions of 50 jobs: etcd takes 128 operations in one.
	for start := 0; start < n; start += 50 {
		update(b, s, func(tx Tx) error {
			for i := start; i < min(start+50, n); i++ {
				ids[i] = fmt.Sprintf("j%06d", i)
				j := sampleJob(ids[i], "job-"+ids[i])
				j.State, j.AppID = model.StateRunning, fmt.Sprintf("application_1732_%04d", i)
				j.LatestCheckpoint = &model.RestorePoint{JobID: ids[i], Kind: model.Checkpoint, Path: "hdfs:///ck/" + ids[i] + "/chk-1", Time: t0}
				if err := tx.CreateJob(j); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return ids
}

// BenchmarkUpdate is the scheduler's unit of work on each backend: a
// job's record and a new command for it, committed together, among 1,000
// jobs. The etcd members keep their data on disk here, as the file does
// ("fsync"), so that both pay for durability; "nosync" is bbolt's cost
// without the disk. Run with
//
//	go test ./store -run '^$' -bench Update -benchtime 2s
func BenchmarkUpdate(b *testing.B) {
	backends := []struct {
		name string
		open func(b *testing.B) Store
	}{
		{"bolt-fsync", func(b *testing.B) Store { return benchStore(b, Options{}) }},
		{"bolt-nosync", func(b *testing.B) Store { return benchStore(b, Options{NoSync: true}) }},
		{"etcd-1", func(b *testing.B) Store { return benchEtcd(b, 1) }},
		{"etcd-3", func(b *testing.B) Store { return benchEtcd(b, 3) }},
	}
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			s := be.open(b)
			ids := seedJobs(b, s, 1000)
			i := 0
			for b.Loop() {
				id := ids[i%len(ids)]
				i++
				err := s.Update(context.Background(), func(tx Tx) error {
					j, err := tx.Job(id)
					if err != nil {
						return err
					}
					j.PlatformRestarts++
					if err := tx.PutJob(j); err != nil {
						return err
					}
					_, err = tx.PutCommand(sampleCommand(id, model.CmdSavepoint, model.CmdUndo))
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			perSecond(b, b.N, "ops/s")
		})
	}
}

// benchEtcd is a store on n etcd members that keep their data on disk.
func benchEtcd(b *testing.B, n int) Store {
	c := etcdtest.Start(b, n, etcdtest.Options{OnDisk: true})
	e, err := OpenEtcd(EtcdScheme+strings.Join(c.Endpoints(), ",")+"/bench", Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.Close() })
	return e
}

func perSecond(b *testing.B, n int, unit string) {
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), unit)
}

// BenchmarkWriteStateChange is the syncer's unit of work: one job's state
// change and its event, committed together. "fsync" is what palink does;
// "nosync" shows bbolt's cost without the disk.
func BenchmarkWriteStateChange(b *testing.B) {
	for _, c := range []struct {
		name   string
		noSync bool
	}{{"fsync", false}, {"nosync", true}} {
		b.Run(c.name, func(b *testing.B) {
			s := benchStore(b, Options{NoSync: c.noSync})
			ids := seedJobs(b, s, 1000)
			i := 0
			for b.Loop() {
				id := ids[i%len(ids)]
				i++
				err := s.Update(context.Background(), func(tx Tx) error {
					j, err := tx.Job(id)
					if err != nil {
						return err
					}
					from := j.State
					j.State = model.StateFailed
					if from == model.StateFailed {
						j.State = model.StateRunning
					}
					if err := tx.PutJob(j); err != nil {
						return err
					}
					_, err = tx.AppendEvent(model.Event{JobID: id, Time: t0, From: from, To: j.State, Reason: "sync: YARN FAILED"})
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			perSecond(b, b.N, "ops/s")
		})
	}
}

// BenchmarkJobs10000 reads the jobs table of a large installation.
func BenchmarkJobs10000(b *testing.B) {
	s := benchStore(b, Options{NoSync: true})
	seedJobs(b, s, 10000)
	for b.Loop() {
		view(b, s, func(tx ReadTx) error {
			jobs, err := tx.Jobs()
			if err == nil && len(jobs) != 10000 {
				err = fmt.Errorf("Jobs() = %d jobs", len(jobs))
			}
			return err
		})
	}
	perSecond(b, b.N, "ops/s")
	perSecond(b, b.N*10000, "jobs/s")
}

// BenchmarkCommandsByState is the scheduler's poll for UNDO and DOING
// commands among a long history, and the commands screen's newest page.
func BenchmarkCommandsByState(b *testing.B) {
	s := benchStore(b, Options{NoSync: true})
	ids := seedJobs(b, s, 100)
	const history, active = 20000, 25
	update(b, s, func(tx Tx) error {
		for i := range history + active {
			state := model.CmdSucceeded
			switch {
			case i >= history+active-5:
				state = model.CmdDoing
			case i >= history:
				state = model.CmdUndo
			case i%10 == 0:
				state = model.CmdFailed
			}
			if _, err := tx.PutCommand(sampleCommand(ids[i%len(ids)], model.CmdSavepoint, state)); err != nil {
				return err
			}
		}
		return nil
	})
	for _, c := range []struct {
		name string
		f    CommandFilter
		want int
	}{
		{"undo+doing", CommandFilter{States: []model.CommandState{model.CmdUndo, model.CmdDoing}}, active},
		{"newest-50-succeeded", CommandFilter{States: []model.CommandState{model.CmdSucceeded}, Limit: 50}, 50},
		{"one-job", CommandFilter{JobID: ids[7]}, (history + active + len(ids) - 1 - 7) / len(ids)},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				view(b, s, func(tx ReadTx) error {
					got, err := tx.Commands(c.f)
					if err == nil && len(got) != c.want {
						err = fmt.Errorf("Commands(%+v) = %d, want %d", c.f, len(got), c.want)
					}
					return err
				})
			}
			perSecond(b, b.N, "ops/s")
		})
	}
}
