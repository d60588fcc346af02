package store

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/palink/palink/model"
)

func contractStoreIDs(t *testing.T, b backend) {
	open := b.fresh(t)
	s := open(t)
	id := s.ID()
	if !storeIDForm.MatchString(id) {
		t.Fatalf("store id %q, want 12 lowercase hex characters", id)
	}
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	s = reopen(t, s, open)
	if s.ID() != id {
		t.Errorf("store id %q after reopen, was %q", s.ID(), id)
	}
	other := b.fresh(t)(t)
	defer other.Close()
	if other.ID() == id {
		t.Errorf("two stores share the id %q", id)
	}
	var backup bytes.Buffer
	if _, err := s.Backup(context.Background(), &backup); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	restored := b.restore(t, backup.Bytes())(t)
	defer restored.Close()
	if restored.ID() != id {
		t.Errorf("restored store has id %q, its backup was of %q: a restore is the same store", restored.ID(), id)
	}
}

// twinCommands files the same three commands in s, as another team's
// palink with the same history would.
func twinCommands(t *testing.T, s Store) []model.Command {
	t.Helper()
	var out []model.Command
	update(t, s, func(tx Tx) error {
		if err := tx.CreateJob(sampleJob("j1", "orders")); err != nil {
			return err
		}
		for range 3 {
			c, err := tx.PutCommand(sampleCommand("j1", model.CmdSubmit, model.CmdSucceeded))
			if err != nil {
				return err
			}
			out = append(out, c)
		}
		return nil
	})
	return out
}

func contractCommandIDsAcrossStores(t *testing.T, b backend) {
	s1, s2 := b.fresh(t)(t), b.fresh(t)(t)
	defer s1.Close()
	defer s2.Close()
	a, c := twinCommands(t, s1), twinCommands(t, s2)
	for i := range a {
		if a[i].Seq != c[i].Seq {
			t.Fatalf("twin stores gave seqs %d and %d", a[i].Seq, c[i].Seq)
		}
		if a[i].ID == c[i].ID {
			t.Errorf("two stores both gave command #%d the id %s: a YARN tag could not tell them apart", a[i].Seq, a[i].ID)
		}
	}
	view(t, s2, func(tx ReadTx) error {
		_, err := tx.Command(a[0].ID)
		wantErr(t, err, ErrNotFound, a[0].ID)
		return nil
	})
}

// contractCommandIDsAcrossRestore: a store restored from a backup hands out
// again the seqs its original used after the backup; the commands that get
// them must not get the original's ids.
func contractCommandIDsAcrossRestore(t *testing.T, b backend) {
	s := b.fresh(t)(t)
	defer s.Close()
	twinCommands(t, s)
	var backup bytes.Buffer
	if _, err := s.Backup(context.Background(), &backup); err != nil {
		t.Fatal(err)
	}
	var lost, again model.Command
	update(t, s, func(tx Tx) (err error) {
		lost, err = tx.PutCommand(sampleCommand("j1", model.CmdKill, model.CmdUndo))
		return err
	})
	restored := b.restore(t, backup.Bytes())(t)
	defer restored.Close()
	update(t, restored, func(tx Tx) (err error) {
		again, err = tx.PutCommand(sampleCommand("j1", model.CmdKill, model.CmdUndo))
		return err
	})
	if again.Seq != lost.Seq {
		t.Fatalf("after the restore the next seq is %d, want %d (the test needs a reused seq)", again.Seq, lost.Seq)
	}
	wantNewID(t, again, lost.Seq)
	if again.ID == lost.ID {
		t.Errorf("command #%d has the id %s both before and after the restore", again.Seq, again.ID)
	}
	view(t, restored, func(tx ReadTx) error {
		got, err := tx.CommandBySeq(lost.Seq)
		if err == nil && got.ID != again.ID {
			t.Errorf("CommandBySeq(%d) = %s, want %s", lost.Seq, got.ID, again.ID)
		}
		return err
	})
}

func contractCommandReplace(t *testing.T, open opener) {
	s := open(t)
	defer s.Close()
	var c model.Command
	update(t, s, func(tx Tx) (err error) {
		if err := tx.CreateJob(sampleJob("j1", "a")); err != nil {
			return err
		}
		if err := tx.CreateJob(sampleJob("j2", "b")); err != nil {
			return err
		}
		c, err = tx.PutCommand(sampleCommand("j1", model.CmdPause, model.CmdUndo))
		return err
	})
	try := func(mod func(*model.Command)) error {
		m := c
		mod(&m)
		return s.Update(context.Background(), func(tx Tx) error { _, err := tx.PutCommand(m); return err })
	}
	wantErr(t, try(func(m *model.Command) { m.JobID = "j2" }), ErrInvalid, c.ID, "j2")
	wantErr(t, try(func(m *model.Command) { m.Kind = model.CmdKill }), ErrInvalid, c.ID, "KILL")
	wantErr(t, try(func(m *model.Command) { m.Seq = 7 }), ErrInvalid, c.ID)
	wantErr(t, try(func(m *model.Command) { m.ID = "c000000123" }), ErrNotFound, "c000000123")

	// Progress is kept: state, lease, log, trigger id.
	if err := try(func(m *model.Command) {
		m.Seq = 0 // a caller may leave Seq out; the stored one stays
		m.State, m.Attempts, m.LeaseOwner, m.LeaseUntil = model.CmdDoing, 1, "host-a", t0.Add(time.Minute)
		m.Params.TriggerID = "trig-1"
		m.Logf(t0, "stop-with-savepoint triggered: %s", "trig-1")
	}); err != nil {
		t.Fatal(err)
	}
	view(t, s, func(tx ReadTx) error {
		got, err := tx.Command(c.ID)
		if err != nil {
			return err
		}
		if got.Seq != c.Seq || got.State != model.CmdDoing || got.Params.TriggerID != "trig-1" ||
			len(got.Log) != 1 || got.LeaseOwner != "host-a" || !got.LeaseUntil.Equal(t0.Add(time.Minute)) {
			t.Errorf("replaced command = %+v", got)
		}
		return nil
	})
}

// commandWorld stores a history that exercises every filter: three jobs,
// every state, several kinds. It returns the commands as stored.
func commandWorld(t *testing.T, s Store) []model.Command {
	t.Helper()
	var all []model.Command
	update(t, s, func(tx Tx) error {
		for _, id := range []string{"j1", "j2", "j3"} {
			if err := tx.CreateJob(sampleJob(id, "job-"+id)); err != nil {
				return err
			}
		}
		plan := []struct {
			job   string
			kind  model.CommandKind
			state model.CommandState
		}{
			{"j1", model.CmdSubmit, model.CmdSucceeded},
			{"j2", model.CmdSubmit, model.CmdSucceeded},
			{"j1", model.CmdPause, model.CmdFailed},
			{"j3", model.CmdSubmit, model.CmdDoing},
			{"j1", model.CmdPause, model.CmdSucceeded},
			{"j2", model.CmdSavepoint, model.CmdUndo},
			{"j1", model.CmdRestart, model.CmdUndo},
			{"j2", model.CmdKill, model.CmdDoing},
			{"j1", model.CmdSavepoint, model.CmdSucceeded},
			{"j3", model.CmdKill, model.CmdUndo},
		}
		for _, p := range plan {
			c, err := tx.PutCommand(sampleCommand(p.job, p.kind, p.state))
			if err != nil {
				return err
			}
			all = append(all, c)
		}
		return nil
	})
	return all
}

// filterRef is the obvious, index-free reading of CommandFilter.
func filterRef(all []model.Command, f CommandFilter) []string {
	var ids []string
	for _, c := range all {
		if (f.JobID == "" || c.JobID == f.JobID) &&
			(len(f.States) == 0 || slices.Contains(f.States, c.State)) &&
			(len(f.Kinds) == 0 || slices.Contains(f.Kinds, c.Kind)) {
			ids = append(ids, c.ID)
		}
	}
	if f.Limit > 0 && len(ids) > f.Limit {
		ids = ids[len(ids)-f.Limit:]
	}
	return ids
}

func commandIDs(cs []model.Command) []string {
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return ids
}

func contractCommandFilters(t *testing.T, open opener) {
	s := open(t)
	all := commandWorld(t, s)
	undo, doing := []model.CommandState{model.CmdUndo}, []model.CommandState{model.CmdDoing}
	active := []model.CommandState{model.CmdDoing, model.CmdUndo}
	final := []model.CommandState{model.CmdSucceeded, model.CmdFailed}
	filters := []struct {
		name string
		f    CommandFilter
		want []int64 // seqs, spelled out for the cases a reader checks by eye
	}{
		{"all", CommandFilter{}, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{"undo", CommandFilter{States: undo}, []int64{6, 7, 10}},
		{"undo and doing", CommandFilter{States: active}, []int64{4, 6, 7, 8, 10}},
		{"state listed twice", CommandFilter{States: append(undo, undo...)}, []int64{6, 7, 10}},
		{"job", CommandFilter{JobID: "j1"}, []int64{1, 3, 5, 7, 9}},
		{"job and active", CommandFilter{JobID: "j2", States: active}, []int64{6, 8}},
		{"job and final", CommandFilter{JobID: "j1", States: final}, []int64{1, 3, 5, 9}},
		{"kind", CommandFilter{Kinds: []model.CommandKind{model.CmdPause, model.CmdKill}}, []int64{3, 5, 8, 10}},
		{"job, state and kind", CommandFilter{JobID: "j1", States: final, Kinds: []model.CommandKind{model.CmdPause}}, []int64{3, 5}},
		{"newest 3", CommandFilter{Limit: 3}, []int64{8, 9, 10}},
		{"newest 2 of job", CommandFilter{JobID: "j1", Limit: 2}, []int64{7, 9}},
		{"newest 2 active", CommandFilter{States: active, Limit: 2}, []int64{8, 10}},
		{"limit above count", CommandFilter{JobID: "j3", Limit: 50}, []int64{4, 10}},
		{"unknown job", CommandFilter{JobID: "ghost"}, nil},
	}
	run := func(stage string, all []model.Command, spelled bool) {
		t.Helper()
		view(t, s, func(tx ReadTx) error {
			for _, c := range filters {
				got, err := tx.Commands(c.f)
				if err != nil {
					t.Errorf("%s %s: %v", stage, c.name, err)
					continue
				}
				if got == nil {
					t.Errorf("%s %s: nil list, want empty", stage, c.name)
				}
				want := filterRef(all, c.f)
				if spelled {
					var spelledIDs []string
					for _, seq := range c.want {
						spelledIDs = append(spelledIDs, all[seq-1].ID)
					}
					if !slices.Equal(want, spelledIDs) {
						t.Fatalf("test bug: %s: reference gives %v, table says %v", c.name, want, spelledIDs)
					}
				}
				if ids := commandIDs(got); !slices.Equal(ids, want) {
					t.Errorf("%s %s: Commands(%+v) = %v, want %v", stage, c.name, c.f, ids, want)
				}
			}
			return nil
		})
	}
	run("initial", all, true)

	// The scheduler's moves: UNDO → DOING → SUCCEEDED, DOING → FAILED.
	// Each must leave the old state's index.
	move := func(seq int64, to model.CommandState) {
		update(t, s, func(tx Tx) error {
			c, err := tx.CommandBySeq(seq)
			if err != nil {
				return err
			}
			c.State = to
			all[seq-1], err = tx.PutCommand(c)
			return err
		})
	}
	move(6, model.CmdDoing)
	move(7, model.CmdDoing)
	move(7, model.CmdSucceeded)
	move(4, model.CmdFailed)
	run("after moves", all, false)
	view(t, s, func(tx ReadTx) error {
		got, err := tx.Commands(CommandFilter{States: undo})
		if ids := commandIDs(got); err != nil || !slices.Equal(ids, []string{all[9].ID}) {
			t.Errorf("UNDO after moves = %v, %v; want [c…10] alone", ids, err)
		}
		got, err = tx.Commands(CommandFilter{States: doing})
		if ids := commandIDs(got); err != nil || !slices.Equal(ids, []string{all[5].ID, all[7].ID}) {
			t.Errorf("DOING after moves = %v, %v; want c…6, c…8", ids, err)
		}
		return nil
	})
	s = reopen(t, s, open)
	defer s.Close()
	run("after reopen", all, false)

	err := s.View(context.Background(), func(tx ReadTx) error {
		_, err := tx.Commands(CommandFilter{Limit: -1})
		return err
	})
	wantErr(t, err, ErrInvalid, "-1")
	err = s.View(context.Background(), func(tx ReadTx) error {
		_, err := tx.Commands(CommandFilter{States: []model.CommandState{model.CmdUndo, 0}})
		return err
	})
	wantErr(t, err, ErrInvalid, "state 0")
}
