package store

import (
	"time"

	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/palink/palink/model"
)

func contractEvents(t *testing.T, open opener) {
	s := open(t)
	ev := func(job string, from, to model.JobState) model.Event {
		return model.Event{JobID: job, Time: t0, From: from, To: to, Reason: fmt.Sprintf("%s→%s", from, to), CommandID: "c000000001"}
	}
	update(t, s, func(tx Tx) error {
		for _, id := range []string{"j1", "j2", "quiet"} {
			if err := tx.CreateJob(sampleJob(id, "job-"+id)); err != nil {
				return err
			}
		}
		for _, e := range []model.Event{
			ev("j1", model.StateNone, model.StateDeploying),
			ev("j2", model.StateNone, model.StateDeploying),
			ev("j1", model.StateDeploying, model.StateDeploySucceeded),
			ev("j1", model.StateDeploySucceeded, model.StateRunning),
		} {
			if _, err := tx.AppendEvent(e); err != nil {
				return err
			}
		}
		return nil
	})
	s = reopen(t, s, open)
	defer s.Close()
	update(t, s, func(tx Tx) error {
		e, err := tx.AppendEvent(ev("j1", model.StateRunning, model.StateFinished))
		if err != nil || e.Seq != 4 {
			t.Errorf("event after reopen = seq %d, %v; want 4", e.Seq, err)
		}
		_, err = tx.AppendEvent(ev("ghost", model.StateNone, model.StateDeploying))
		wantErr(t, err, ErrNotFound, "ghost")
		return nil
	})
	seqs := func(es []model.Event) []int64 {
		var out []int64
		for _, e := range es {
			out = append(out, e.Seq)
		}
		return out
	}
	view(t, s, func(tx ReadTx) error {
		for _, c := range []struct {
			job          string
			after, limit int
			want         []int64
		}{
			{"j1", 0, 0, []int64{1, 2, 3, 4}},
			{"j1", 2, 0, []int64{3, 4}},
			{"j1", 0, 2, []int64{1, 2}},
			{"j1", 1, 2, []int64{2, 3}},
			{"j1", 4, 0, nil},
			{"j1", -5, 1, []int64{1}},
			{"j2", 0, 0, []int64{1}},
			{"quiet", 0, 0, nil},
		} {
			got, err := tx.Events(c.job, int64(c.after), c.limit)
			if err != nil {
				t.Errorf("Events(%s, %d, %d): %v", c.job, c.after, c.limit, err)
				continue
			}
			if got == nil || !slices.Equal(seqs(got), c.want) {
				t.Errorf("Events(%s, %d, %d) seqs = %v (nil %t), want %v", c.job, c.after, c.limit, seqs(got), got == nil, c.want)
			}
		}
		all, _ := tx.Events("j1", 0, 0)
		last := all[len(all)-1]
		if last.From != model.StateRunning || last.To != model.StateFinished || last.JobID != "j1" ||
			!last.Time.Equal(t0) || last.Reason != "RUNNING→FINISHED" || last.CommandID != "c000000001" {
			t.Errorf("last event = %+v", last)
		}
		_, err := tx.Events("ghost", 0, 0)
		wantErr(t, err, ErrNotFound, "ghost")
		return nil
	})
}

func contractRestorePoints(t *testing.T, open opener) {
	s := open(t)
	rp := func(job, path string, kind model.RestorePointKind) model.RestorePoint {
		return model.RestorePoint{JobID: job, Kind: kind, Path: path, Time: t0, FlinkJobID: "f1", Origin: "sync"}
	}
	update(t, s, func(tx Tx) error {
		for _, id := range []string{"j1", "j2"} {
			if err := tx.CreateJob(sampleJob(id, "job-"+id)); err != nil {
				return err
			}
		}
		for _, c := range []struct {
			rp   model.RestorePoint
			want bool
		}{
			{rp("j1", "hdfs:///ck/chk-1", model.Checkpoint), true},
			{rp("j1", "hdfs:///sp/sp-1", model.Savepoint), true},
			{rp("j1", "hdfs:///ck/chk-1", model.Checkpoint), false},
			{rp("j2", "hdfs:///ck/chk-1", model.Checkpoint), true}, // dedup is per job
		} {
			added, err := tx.AddRestorePoint(c.rp)
			if err != nil {
				return err
			}
			if added != c.want {
				t.Errorf("AddRestorePoint(%s, %s) = %t, want %t", c.rp.JobID, c.rp.Path, added, c.want)
			}
		}
		return nil
	})
	s = reopen(t, s, open)
	defer s.Close()
	update(t, s, func(tx Tx) error {
		if added, err := tx.AddRestorePoint(rp("j1", "hdfs:///sp/sp-1", model.Savepoint)); added || err != nil {
			t.Errorf("re-adding a known path after reopen = %t, %v; want false", added, err)
		}
		if added, err := tx.AddRestorePoint(rp("j1", "hdfs:///ck/chk-2", model.Checkpoint)); !added || err != nil {
			t.Errorf("adding a new path after reopen = %t, %v; want true", added, err)
		}
		_, err := tx.AddRestorePoint(rp("ghost", "hdfs:///x", model.Savepoint))
		wantErr(t, err, ErrNotFound, "ghost")
		return nil
	})
	view(t, s, func(tx ReadTx) error {
		got, err := tx.RestorePoints("j1")
		if err != nil {
			return err
		}
		var paths []string
		for _, r := range got {
			paths = append(paths, r.Path)
		}
		if want := []string{"hdfs:///ck/chk-1", "hdfs:///sp/sp-1", "hdfs:///ck/chk-2"}; !slices.Equal(paths, want) {
			t.Errorf("RestorePoints(j1) = %v, want %v", paths, want)
		}
		if got[1] != rp("j1", "hdfs:///sp/sp-1", model.Savepoint) {
			t.Errorf("RestorePoints(j1)[1] = %+v", got[1])
		}
		_, err = tx.RestorePoints("ghost")
		wantErr(t, err, ErrNotFound, "ghost")
		return nil
	})
}

func contractAudit(t *testing.T, open opener) {
	s := open(t)
	update(t, s, func(tx Tx) error {
		for i, action := range []string{"create", "submit", "kill"} {
			a, err := tx.AppendAudit(model.AuditEntry{Time: t0, User: "ops", Action: action, JobID: "j1", Outcome: "accepted"})
			if err != nil {
				return err
			}
			if a.Seq != int64(i+1) {
				t.Errorf("audit %s got seq %d, want %d", action, a.Seq, i+1)
			}
		}
		return nil
	})
	s = reopen(t, s, open)
	defer s.Close()
	update(t, s, func(tx Tx) error {
		// Refusals of unknown jobs are audited too.
		_, err := tx.AppendAudit(model.AuditEntry{Time: t0, User: "eve", Action: "kill", JobID: "ghost", Outcome: "refused: no such job"})
		return err
	})
	view(t, s, func(tx ReadTx) error {
		actions := func(after int64, limit int) []string {
			got, err := tx.Audit(after, limit)
			if err != nil {
				t.Fatalf("Audit(%d, %d): %v", after, limit, err)
			}
			var out []string
			for _, a := range got {
				out = append(out, fmt.Sprintf("%d:%s", a.Seq, a.Action))
			}
			return out
		}
		for _, c := range []struct {
			after int64
			limit int
			want  []string
		}{
			{0, 0, []string{"1:create", "2:submit", "3:kill", "4:kill"}},
			{2, 0, []string{"3:kill", "4:kill"}},
			{0, 2, []string{"1:create", "2:submit"}},
			{4, 0, nil},
		} {
			if got := actions(c.after, c.limit); !slices.Equal(got, c.want) {
				t.Errorf("Audit(%d, %d) = %v, want %v", c.after, c.limit, got, c.want)
			}
		}
		return nil
	})
	update(t, s, func(tx Tx) error {
		// An entry that names its host keeps it.
		_, err := tx.AppendAudit(model.AuditEntry{Time: t0, User: "ops", Host: "ops3", Action: "pause", JobID: "j1", Outcome: "accepted"})
		return err
	})
	view(t, s, func(tx ReadTx) error {
		// Every entry says on which host its action was taken.
		host, _ := os.Hostname()
		all, err := tx.Audit(0, 0)
		for _, a := range all {
			want := host
			if a.Action == "pause" {
				want = "ops3"
			}
			if a.Host != want {
				t.Errorf("audit %d (%s) was taken on host %q, want %q", a.Seq, a.Action, a.Host, want)
			}
		}
		return err
	})
}

func contractAtomic(t *testing.T, open opener) {
	s := open(t)
	defer s.Close()
	boom := errors.New("boom")

	// A new job and its first event, then a failure: neither stays.
	err := s.Update(context.Background(), func(tx Tx) error {
		if err := tx.CreateJob(sampleJob("j1", "orders")); err != nil {
			return err
		}
		if _, err := tx.AppendEvent(model.Event{JobID: "j1", From: model.StateNone, To: model.StateDeploying}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update = %v, want fn's error", err)
	}
	view(t, s, func(tx ReadTx) error {
		_, err := tx.Job("j1")
		wantErr(t, err, ErrNotFound, "j1")
		_, err = tx.JobByName("orders")
		wantErr(t, err, ErrNotFound, "orders")
		return nil
	})

	// A state change with its event and command, then a failure: the job
	// keeps its state, and no seq was used up.
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "orders")) })
	err = s.Update(context.Background(), func(tx Tx) error {
		j, _ := tx.Job("j1")
		j.State = model.StateDeploying
		if err := tx.PutJob(j); err != nil {
			return err
		}
		if _, err := tx.AppendEvent(model.Event{JobID: "j1", From: model.StateNone, To: model.StateDeploying}); err != nil {
			return err
		}
		if _, err := tx.PutCommand(sampleCommand("j1", model.CmdSubmit, model.CmdUndo)); err != nil {
			return err
		}
		if _, err := tx.AddRestorePoint(model.RestorePoint{JobID: "j1", Kind: model.Savepoint, Path: "hdfs:///sp/1"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update = %v, want fn's error", err)
	}
	update(t, s, func(tx Tx) error {
		j, err := tx.Job("j1")
		if err != nil || j.State != model.StateNone {
			t.Errorf("job after rolled back change = %s, %v; want CREATED", j.State, err)
		}
		evs, _ := tx.Events("j1", 0, 0)
		cmds, _ := tx.Commands(CommandFilter{})
		rps, _ := tx.RestorePoints("j1")
		if len(evs)+len(cmds)+len(rps) != 0 {
			t.Errorf("rolled back update left %d events, %d commands, %d restore points", len(evs), len(cmds), len(rps))
		}
		e, err := tx.AppendEvent(model.Event{JobID: "j1", From: model.StateNone, To: model.StateDeploying})
		c, err2 := tx.PutCommand(sampleCommand("j1", model.CmdSubmit, model.CmdUndo))
		if err != nil || err2 != nil || e.Seq != 1 || c.Seq != 1 {
			t.Errorf("after rollback, next event seq %d (%v), command seq %d (%v); want 1 and 1", e.Seq, err, c.Seq, err2)
		}
		added, err := tx.AddRestorePoint(model.RestorePoint{JobID: "j1", Kind: model.Savepoint, Path: "hdfs:///sp/1"})
		if !added || err != nil {
			t.Errorf("restore point of a rolled back update is still indexed: added %t, %v", added, err)
		}
		return nil
	})
}

func contractInvalid(t *testing.T, open opener) {
	s := open(t)
	defer s.Close()
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	bad := map[string]func(Tx) error{
		"job without id":   func(tx Tx) error { return tx.CreateJob(sampleJob("", "x")) },
		"job without name": func(tx Tx) error { return tx.CreateJob(sampleJob("j2", "")) },
		"job without kind": func(tx Tx) error { j := sampleJob("j2", "b"); j.Kind = 0; return tx.CreateJob(j) },
		"put job with bad state": func(tx Tx) error {
			j := sampleJob("j1", "a")
			j.State = 99
			return tx.PutJob(j)
		},
		"checkpoint without kind": func(tx Tx) error {
			j := sampleJob("j1", "a")
			j.LatestCheckpoint = &model.RestorePoint{Path: "x"}
			return tx.PutJob(j)
		},
		"command without state": func(tx Tx) error {
			_, err := tx.PutCommand(sampleCommand("j1", model.CmdKill, 0))
			return err
		},
		"command without kind": func(tx Tx) error {
			_, err := tx.PutCommand(sampleCommand("j1", 0, model.CmdUndo))
			return err
		},
		"event with bad state": func(tx Tx) error {
			_, err := tx.AppendEvent(model.Event{JobID: "j1", To: 42})
			return err
		},
		"restore point without path": func(tx Tx) error {
			_, err := tx.AddRestorePoint(model.RestorePoint{JobID: "j1", Kind: model.Savepoint})
			return err
		},
		"restore point without kind": func(tx Tx) error {
			_, err := tx.AddRestorePoint(model.RestorePoint{JobID: "j1", Path: "x"})
			return err
		},
	}
	for name, fn := range bad {
		err := s.Update(context.Background(), fn)
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: error = %v, want ErrInvalid", name, err)
		}
	}
	// Nothing unreadable got in: every list still decodes.
	view(t, s, func(tx ReadTx) error {
		if jobs, err := tx.Jobs(); err != nil || len(jobs) != 1 {
			t.Errorf("Jobs() = %d, %v after refused writes", len(jobs), err)
		}
		if cmds, err := tx.Commands(CommandFilter{}); err != nil || len(cmds) != 0 {
			t.Errorf("Commands() = %d, %v after refused writes", len(cmds), err)
		}
		return nil
	})
}

func contractContext(t *testing.T, open opener) {
	s := open(t)
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	err := s.Update(ctx, func(tx Tx) error { ran = true; return tx.CreateJob(sampleJob("j1", "a")) })
	if !errors.Is(err, context.Canceled) || ran {
		t.Errorf("Update with a cancelled ctx = %v (fn ran: %t), want context.Canceled before fn", err, ran)
	}
	if err := s.View(ctx, func(ReadTx) error { ran = true; return nil }); !errors.Is(err, context.Canceled) || ran {
		t.Errorf("View with a cancelled ctx = %v (fn ran: %t), want context.Canceled", err, ran)
	}

	// Cancelled while fn runs: nothing is committed.
	ctx, cancel = context.WithCancel(context.Background())
	err = s.Update(ctx, func(tx Tx) error {
		defer cancel()
		return tx.CreateJob(sampleJob("j1", "a"))
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Update cancelled during fn = %v, want context.Canceled", err)
	}
	view(t, s, func(tx ReadTx) error {
		if _, err := tx.Job("j1"); !errors.Is(err, ErrNotFound) {
			t.Errorf("a cancelled Update was committed: %v", err)
		}
		return nil
	})
}

func contractCopies(t *testing.T, open opener) {
	s := open(t)
	defer s.Close()
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	var kept model.Job
	view(t, s, func(tx ReadTx) (err error) { kept, err = tx.Job("j1"); return err })
	kept.Config["state.backend"] = "hashmap"
	// Other transactions reuse the pages the first one read.
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j2", "b")) })
	view(t, s, func(tx ReadTx) error {
		j, err := tx.Job("j1")
		if err != nil || j.Config["state.backend"] != "rocksdb" {
			t.Errorf("changing a returned job changed the stored one: %v, %v", j.Config, err)
		}
		return nil
	})
	if kept.Name != "a" || kept.Config["state.backend"] != "hashmap" {
		t.Errorf("a job kept after its transaction changed under us: %+v", kept)
	}

	// A store keeps the jobs it decoded while their bytes stay the same:
	// what a caller does to one it got, read once or many times, through
	// Job or Jobs, changes nothing of what the next caller gets, and a
	// write is read at once.
	full := sampleJob("j3", "c")
	full.Drift = &model.Drift{Observed: "RUNNING"}
	full.LatestCheckpoint = &model.RestorePoint{JobID: "j3", Kind: model.Checkpoint, Path: "hdfs:///c/chk-1", Time: t0}
	full.LatestSavepoint = &model.RestorePoint{JobID: "j3", Kind: model.Savepoint, Path: "hdfs:///s/1", Time: t0}
	full.CrashLoop = &model.CrashLoop{Count: 3}
	full.Charts = []model.MetricChart{{Metric: "numRecordsIn"}}
	update(t, s, func(tx Tx) error { return tx.CreateJob(full) })
	for round := range 3 {
		view(t, s, func(tx ReadTx) error {
			jobs, err := tx.Jobs()
			if err != nil {
				return err
			}
			one, err := tx.Job("j3")
			if err != nil {
				return err
			}
			for _, j := range append(jobs, one) {
				if j.ID != "j3" {
					continue
				}
				if j.Config["state.backend"] != "rocksdb" || j.Drift.Observed != "RUNNING" || j.LatestCheckpoint.Path != "hdfs:///c/chk-1" ||
					j.LatestSavepoint.Path != "hdfs:///s/1" || j.CrashLoop.Count != 3 || j.Charts[0].Metric != "numRecordsIn" {
					t.Errorf("read %d: a caller's changes to a job it read show in the next read: %+v", round, j)
				}
				j.Config["state.backend"] = "hashmap"
				j.Drift.Observed, j.LatestCheckpoint.Path, j.LatestSavepoint.Path = "x", "x", "x"
				j.CrashLoop.Count, j.Charts[0].Metric = 9, "x"
			}
			return nil
		})
	}
	full.LatestCheckpoint.Path = "hdfs:///c/chk-2"
	update(t, s, func(tx Tx) error { return tx.PutJob(full) })
	view(t, s, func(tx ReadTx) error {
		jobs, err := tx.Jobs()
		if err != nil || len(jobs) != 3 || jobs[2].LatestCheckpoint == nil || jobs[2].LatestCheckpoint.Path != "hdfs:///c/chk-2" {
			t.Errorf("after a write, Jobs() = %+v, %v; want j3 at chk-2", jobs, err)
		}
		return nil
	})
}

// contractRestorePointStatus: a disposal's status replaces the record in its
// place, survives a reopen, and an unknown path or a status out of range is
// refused.
func contractRestorePointStatus(t *testing.T, open opener) {
	s := open(t)
	sp := func(path string) model.RestorePoint {
		return model.RestorePoint{JobID: "j1", Kind: model.Savepoint, Path: path, Time: t0, Origin: "SAVEPOINT #1"}
	}
	update(t, s, func(tx Tx) error {
		if err := tx.CreateJob(sampleJob("j1", "job-j1")); err != nil {
			return err
		}
		for _, p := range []string{"hdfs:///sp/1", "hdfs:///sp/2"} {
			if _, err := tx.AddRestorePoint(sp(p)); err != nil {
				return err
			}
		}
		done := sp("hdfs:///sp/1")
		done.Status, done.DisposedAt = model.SavepointDisposed, t0.Add(time.Hour)
		if err := tx.PutRestorePoint(done); err != nil {
			return err
		}
		wantErr(t, tx.PutRestorePoint(sp("hdfs:///sp/none")), ErrNotFound, "hdfs:///sp/none")
		bad := sp("hdfs:///sp/2")
		bad.Status = model.SavepointStatus(42)
		wantErr(t, tx.PutRestorePoint(bad), ErrInvalid, "status")
		return nil
	})
	s = reopen(t, s, open)
	defer s.Close()
	view(t, s, func(tx ReadTx) error {
		got, err := tx.RestorePoints("j1")
		if err != nil {
			return err
		}
		if len(got) != 2 || got[0].Path != "hdfs:///sp/1" || got[0].Status != model.SavepointDisposed ||
			!got[0].DisposedAt.Equal(t0.Add(time.Hour)) || got[1].Status != model.SavepointCompleted {
			t.Errorf("after PutRestorePoint and reopen: %+v", got)
		}
		return nil
	})
}

// contractProjects: a project is replaced by name; its artifacts get
// versions 1, 2, … that survive a reopen; an artifact of no project, and a
// project without its build command, are refused.
func contractProjects(t *testing.T, open opener) {
	s := open(t)
	p := model.Project{Name: "dedup", Repo: "/srv/git/dedup.git", Build: "./build.sh", Artifact: "out/*.jar", CreatedAt: t0}
	update(t, s, func(tx Tx) error {
		if err := tx.PutProject(p); err != nil {
			return err
		}
		p.Ref = "main"
		if err := tx.PutProject(p); err != nil {
			return err
		}
		for i := 1; i <= 2; i++ {
			a, err := tx.AddArtifact(model.Artifact{Project: "dedup", Commit: fmt.Sprint(i), SHA256: "ab", Path: "/x", BuiltAt: t0})
			if err != nil {
				return err
			}
			if a.Version != i {
				t.Errorf("artifact %d got version %d", i, a.Version)
			}
		}
		_, err := tx.AddArtifact(model.Artifact{Project: "ghost", SHA256: "ab", Path: "/x"})
		wantErr(t, err, ErrNotFound, "ghost")
		bad := p
		bad.Name, bad.Build = "nobuild", ""
		wantErr(t, tx.PutProject(bad), ErrInvalid, "nobuild")
		return nil
	})
	s = reopen(t, s, open)
	defer s.Close()
	view(t, s, func(tx ReadTx) error {
		ps, err := tx.Projects()
		if err != nil || len(ps) != 1 || ps[0].Ref != "main" {
			t.Errorf("projects %+v %v", ps, err)
		}
		arts, err := tx.Artifacts("dedup")
		if err != nil || len(arts) != 2 || arts[1].Version != 2 || arts[1].Commit != "2" {
			t.Errorf("artifacts %+v %v", arts, err)
		}
		_, err = tx.Project("ghost")
		wantErr(t, err, ErrNotFound, "ghost")
		return nil
	})
}

// contractPruneCheckpoints: pruning keeps the newest checkpoints and the
// pinned ones, never a savepoint, and its indexes agree afterwards: a
// pruned path can be recorded again.
func contractPruneCheckpoints(t *testing.T, open opener) {
	s := open(t)
	defer s.Close()
	rp := func(path string, kind model.RestorePointKind) model.RestorePoint {
		return model.RestorePoint{JobID: "j1", Kind: kind, Path: path, Time: t0, FlinkJobID: "f1", Origin: "sync"}
	}
	update(t, s, func(tx Tx) error {
		if err := tx.CreateJob(sampleJob("j1", "job-j1")); err != nil {
			return err
		}
		for i := 1; i <= 6; i++ {
			if _, err := tx.AddRestorePoint(rp(fmt.Sprintf("hdfs:///ck/chk-%d", i), model.Checkpoint)); err != nil {
				return err
			}
			if i == 3 {
				if _, err := tx.AddRestorePoint(rp("hdfs:///sp/sp-1", model.Savepoint)); err != nil {
					return err
				}
			}
		}
		n, err := tx.PruneCheckpoints("j1", 2, "hdfs:///ck/chk-2")
		if err != nil {
			return err
		}
		if n != 3 {
			t.Errorf("PruneCheckpoints forgot %d, want 3 (chk-1, chk-3, chk-4)", n)
		}
		_, err = tx.PruneCheckpoints("ghost", 1)
		wantErr(t, err, ErrNotFound, "ghost")
		return nil
	})
	view(t, s, func(tx ReadTx) error {
		got, err := tx.RestorePoints("j1")
		if err != nil {
			return err
		}
		var paths []string
		for _, r := range got {
			paths = append(paths, r.Path)
		}
		if want := []string{"hdfs:///ck/chk-2", "hdfs:///sp/sp-1", "hdfs:///ck/chk-5", "hdfs:///ck/chk-6"}; !slices.Equal(paths, want) {
			t.Errorf("after pruning, RestorePoints(j1) = %v, want %v", paths, want)
		}
		return nil
	})
	update(t, s, func(tx Tx) error {
		if added, err := tx.AddRestorePoint(rp("hdfs:///ck/chk-1", model.Checkpoint)); !added || err != nil {
			t.Errorf("recording a pruned path again = %t, %v; want true", added, err)
		}
		return nil
	})
}
