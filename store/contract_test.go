package store

// The contract every Store backend must meet. A backend's test calls
// runContract with a constructor; nothing here knows about bbolt.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/model"
)

// opener opens the store under test. Called again after the store was
// closed, it reopens the same data, for close-and-reopen checks.
type opener func(t *testing.T) Store

// backend makes the stores of the contract tests.
type backend struct {
	// fresh prepares one new, empty store for a test and returns its opener.
	fresh func(t *testing.T) opener
	// restore makes a new store from what a store's Backup wrote, the way
	// the backend restores backups, and returns its opener.
	restore func(t *testing.T, backup []byte) opener
}

// t0 is the fixed clock of the tests: stored times must come back Equal
// and, in UTC, DeepEqual.
var t0 = time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC)

func runContract(t *testing.T, b backend) {
	cases := []struct {
		name string
		fn   func(t *testing.T, open opener)
	}{
		{"JobsRoundTripAndOrder", contractJobs},
		{"UniqueIDsAndNames", contractUniqueNames},
		{"RenameCollisions", contractRename},
		{"SpecVersions", contractSpecs},
		{"CommandSeqAndIDs", contractCommandSeq},
		{"CommandReplaceRules", contractCommandReplace},
		{"CommandFilters", contractCommandFilters},
		{"EventsAppendOnlyPerJobSeq", contractEvents},
		{"RestorePointDedup", contractRestorePoints},
		{"AuditOrder", contractAudit},
		{"AtomicUpdate", contractAtomic},
		{"InvalidRecordsRefused", contractInvalid},
		{"CancelledContext", contractContext},
		{"ReturnedValuesAreCopies", contractCopies},
		{"ConcurrentUpdates", contractConcurrent},
		{"AlertsPerRuleAndJob", contractAlerts},
		{"ExceptionsBoundedAndDeduplicated", contractExceptions},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.fn(t, b.fresh(t)) })
	}
	// Cases about more than one store.
	for _, c := range []struct {
		name string
		fn   func(t *testing.T, b backend)
	}{
		{"StoreIDs", contractStoreIDs},
		{"CommandIDsUniqueAcrossStores", contractCommandIDsAcrossStores},
		{"CommandIDsUniqueAcrossRestore", contractCommandIDsAcrossRestore},
	} {
		t.Run(c.name, func(t *testing.T) { c.fn(t, b) })
	}
}

// update runs fn in an Update that must succeed.
func update(t testing.TB, s Store, fn func(Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatalf("update: %v", err)
	}
}

// view runs fn in a View that must succeed.
func view(t testing.TB, s Store, fn func(ReadTx) error) {
	t.Helper()
	if err := s.View(context.Background(), fn); err != nil {
		t.Fatalf("view: %v", err)
	}
}

// reopen closes s and opens the same store again.
func reopen(t *testing.T, s Store, open opener) Store {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	return open(t)
}

// wantErr fails unless err matches target and its text names every entity.
func wantErr(t testing.TB, err, target error, names ...string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error = %v, want %v", err, target)
	}
	for _, n := range names {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not name %q", err, n)
		}
	}
}

func sampleJob(id, name string) model.Job {
	return model.Job{
		ID: id, Name: name, Kind: model.KindSQL, Cluster: "prod", SpecVersion: 1,
		Parallelism: 4, Config: map[string]string{"state.backend": "rocksdb"},
		CreatedAt: t0, UpdatedAt: t0,
	}
}

func sampleCommand(jobID string, kind model.CommandKind, state model.CommandState) model.Command {
	return model.Command{
		JobID: jobID, Kind: kind, State: state, Issuer: "ops", CreatedAt: t0,
		Params: model.CommandParams{Restore: model.RestoreLatest},
	}
}

func contractJobs(t *testing.T, open opener) {
	s := open(t)
	full := sampleJob("j2", "orders-enrich")
	full.Kind, full.State = model.KindJAR, model.StateRunning
	full.Drift = &model.Drift{Expected: "RUNNING", Observed: "YARN application_1_0042 not found", Since: t0}
	full.AppID, full.FlinkJobID, full.Session = "application_1732_0042", "3f9ca21e", true
	full.LatestCheckpoint = &model.RestorePoint{JobID: "j2", Kind: model.Checkpoint, Path: "hdfs:///ck/chk-7", Time: t0, CheckID: 7}
	full.LatestSavepoint = &model.RestorePoint{JobID: "j2", Kind: model.Savepoint, Path: "hdfs:///sp/sp-1", Time: t0, Origin: "PAUSE #40"}
	full.RestartWindow, full.NextRestart = t0.Add(time.Minute), t0.Add(2*time.Minute)
	update(t, s, func(tx Tx) error {
		if err := tx.CreateJob(full); err != nil {
			return err
		}
		return tx.CreateJob(sampleJob("j1", "clicks"))
	})

	check := func(s Store) {
		t.Helper()
		view(t, s, func(tx ReadTx) error {
			got, err := tx.Job("j2")
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(got, full) {
				t.Errorf("Job(j2) =\n%+v\nwant\n%+v", got, full)
			}
			byName, err := tx.JobByName("orders-enrich")
			if err != nil || byName.ID != "j2" {
				t.Errorf("JobByName(orders-enrich) = %s, %v", byName.ID, err)
			}
			jobs, err := tx.Jobs()
			if err != nil {
				return err
			}
			if ids := jobIDs(jobs); !slices.Equal(ids, []string{"j1", "j2"}) {
				t.Errorf("Jobs() ids = %v, want [j1 j2]", ids)
			}
			return nil
		})
	}
	check(s)
	s = reopen(t, s, open)
	check(s)

	full.State, full.UpdatedAt = model.StateFailed, t0.Add(time.Hour)
	full.Drift = nil
	update(t, s, func(tx Tx) error { return tx.PutJob(full) })
	s = reopen(t, s, open)
	check(s)

	view(t, s, func(tx ReadTx) error {
		_, err := tx.Job("nope")
		wantErr(t, err, ErrNotFound, "job", "nope")
		_, err = tx.JobByName("ghost")
		wantErr(t, err, ErrNotFound, "ghost")
		return nil
	})
	err := s.Update(context.Background(), func(tx Tx) error { return tx.PutJob(sampleJob("j9", "new")) })
	wantErr(t, err, ErrNotFound, "j9")
	_ = s.Close()
}

func jobIDs(jobs []model.Job) []string {
	var ids []string
	for _, j := range jobs {
		ids = append(ids, j.ID)
	}
	return ids
}

func contractUniqueNames(t *testing.T, open opener) {
	s := open(t)
	defer s.Close()
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "orders")) })

	err := s.Update(context.Background(), func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "other")) })
	wantErr(t, err, ErrExists, "j1")
	err = s.Update(context.Background(), func(tx Tx) error { return tx.CreateJob(sampleJob("j2", "orders")) })
	wantErr(t, err, ErrExists, `"orders"`, "j1")

	view(t, s, func(tx ReadTx) error {
		jobs, err := tx.Jobs()
		if len(jobs) != 1 || err != nil {
			t.Errorf("after refused creates, Jobs() = %v, %v; want j1 alone", jobIDs(jobs), err)
		}
		if _, err := tx.JobByName("other"); !errors.Is(err, ErrNotFound) {
			t.Errorf("refused create left name %q indexed: %v", "other", err)
		}
		return nil
	})
}

func contractRename(t *testing.T, open opener) {
	s := open(t)
	update(t, s, func(tx Tx) error {
		if err := tx.CreateJob(sampleJob("j1", "orders")); err != nil {
			return err
		}
		return tx.CreateJob(sampleJob("j2", "clicks"))
	})

	// A rename onto a taken name fails and changes nothing, even if the
	// caller carries on in the same transaction.
	update(t, s, func(tx Tx) error {
		j, err := tx.Job("j1")
		if err != nil {
			return err
		}
		j.Name, j.Parallelism = "clicks", 99
		wantErr(t, tx.PutJob(j), ErrExists, "j1", "clicks", "j2")
		if got, _ := tx.Job("j1"); got.Name != "orders" || got.Parallelism != 4 {
			t.Errorf("failed rename changed job j1 to %q, parallelism %d", got.Name, got.Parallelism)
		}
		return nil
	})

	update(t, s, func(tx Tx) error {
		j, err := tx.Job("j1")
		if err != nil {
			return err
		}
		j.Name = "orders-v2"
		if err := tx.PutJob(j); err != nil {
			return err
		}
		// The old name is free at once, in the same transaction.
		return tx.CreateJob(sampleJob("j3", "orders"))
	})
	s = reopen(t, s, open)
	defer s.Close()
	view(t, s, func(tx ReadTx) error {
		for name, id := range map[string]string{"orders-v2": "j1", "orders": "j3", "clicks": "j2"} {
			if j, err := tx.JobByName(name); err != nil || j.ID != id {
				t.Errorf("JobByName(%q) = %q, %v; want %s", name, j.ID, err, id)
			}
		}
		return nil
	})
	// Putting a job under its own name is not a collision.
	update(t, s, func(tx Tx) error {
		j, err := tx.Job("j2")
		if err != nil {
			return err
		}
		j.State = model.StateDeploying
		return tx.PutJob(j)
	})
}

func contractSpecs(t *testing.T, open opener) {
	s := open(t)
	update(t, s, func(tx Tx) error {
		for _, id := range []string{"j1", "j2"} {
			if err := tx.CreateJob(sampleJob(id, "job-"+id)); err != nil {
				return err
			}
		}
		for i, sql := range []string{"SELECT 1", "SELECT 2", "SELECT 3"} {
			got, err := tx.AddSpec(model.Spec{JobID: "j1", Version: 42, SQL: sql, Author: "ops", CreatedAt: t0})
			if err != nil {
				return err
			}
			if got.Version != i+1 {
				t.Errorf("AddSpec #%d got version %d, want %d (the caller's 42 is ignored)", i+1, got.Version, i+1)
			}
		}
		got, err := tx.AddSpec(model.Spec{JobID: "j2", JarPath: "/jars/a.jar", EntryClass: "a.Main", Args: []string{"--x", "1"}})
		if err != nil || got.Version != 1 {
			t.Errorf("first spec of j2 = v%d, %v; want v1 (versions are per job)", got.Version, err)
		}
		return nil
	})
	s = reopen(t, s, open)
	defer s.Close()
	update(t, s, func(tx Tx) error {
		got, err := tx.AddSpec(model.Spec{JobID: "j1", SQL: "SELECT 4"})
		if err != nil || got.Version != 4 {
			t.Errorf("spec after reopen = v%d, %v; want v4", got.Version, err)
		}
		_, err = tx.AddSpec(model.Spec{JobID: "ghost", SQL: "x"})
		wantErr(t, err, ErrNotFound, "ghost")
		return nil
	})
	view(t, s, func(tx ReadTx) error {
		specs, err := tx.Specs("j1")
		if err != nil {
			return err
		}
		var sqls []string
		for i, sp := range specs {
			sqls = append(sqls, sp.SQL)
			if sp.Version != i+1 || sp.JobID != "j1" {
				t.Errorf("Specs(j1)[%d] = v%d of %s", i, sp.Version, sp.JobID)
			}
		}
		if !slices.Equal(sqls, []string{"SELECT 1", "SELECT 2", "SELECT 3", "SELECT 4"}) {
			t.Errorf("Specs(j1) = %q, want oldest first", sqls)
		}
		sp, err := tx.Spec("j1", 2)
		if err != nil || sp.SQL != "SELECT 2" || !sp.CreatedAt.Equal(t0) || sp.Author != "ops" {
			t.Errorf("Spec(j1, 2) = %+v, %v", sp, err)
		}
		jar, err := tx.Spec("j2", 1)
		if err != nil || !slices.Equal(jar.Args, []string{"--x", "1"}) || jar.EntryClass != "a.Main" {
			t.Errorf("Spec(j2, 1) = %+v, %v", jar, err)
		}
		_, err = tx.Spec("j1", 9)
		wantErr(t, err, ErrNotFound, "v9", "j1")
		_, err = tx.Specs("ghost")
		wantErr(t, err, ErrNotFound, "ghost")
		return nil
	})
}

// newCommandIDForm is the form of a new command's id: CommandID(seq), "-",
// 12 random lowercase hex characters.
var newCommandIDForm = regexp.MustCompile(`^c[0-9]{9}-[0-9a-f]{12}$`)

// wantNewID fails unless c has seq and an id of the new form for it.
func wantNewID(t *testing.T, c model.Command, seq int64) {
	t.Helper()
	if c.Seq != seq || !newCommandIDForm.MatchString(c.ID) || !strings.HasPrefix(c.ID, CommandID(seq)+"-") {
		t.Errorf("command got seq %d id %q, want seq %d and id %s-<12 hex>", c.Seq, c.ID, seq, CommandID(seq))
	}
}

func contractCommandSeq(t *testing.T, open opener) {
	s := open(t)
	var first []model.Command
	update(t, s, func(tx Tx) error {
		for _, id := range []string{"j1", "j2"} {
			if err := tx.CreateJob(sampleJob(id, "job-"+id)); err != nil {
				return err
			}
		}
		for i, job := range []string{"j1", "j2", "j1"} {
			c, err := tx.PutCommand(sampleCommand(job, model.CmdSubmit, model.CmdUndo))
			if err != nil {
				return err
			}
			wantNewID(t, c, int64(i+1)) // seq is store-wide
			first = append(first, c)
		}
		return nil
	})
	s = reopen(t, s, open)
	defer s.Close()
	var c4 model.Command
	update(t, s, func(tx Tx) (err error) {
		c4, err = tx.PutCommand(sampleCommand("j2", model.CmdPause, model.CmdUndo))
		return err
	})
	wantNewID(t, c4, 4)
	view(t, s, func(tx ReadTx) error {
		got, err := tx.Command(c4.ID)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, c4) {
			t.Errorf("Command(%s) = %+v, want %+v", c4.ID, got, c4)
		}
		// Users name commands by seq.
		for _, c := range append(first, c4) {
			got, err := tx.CommandBySeq(c.Seq)
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(got, c) {
				t.Errorf("CommandBySeq(%d) = %+v, want %+v", c.Seq, got, c)
			}
		}
		for _, seq := range []int64{0, -1, 5, 40} {
			_, err = tx.CommandBySeq(seq)
			wantErr(t, err, ErrNotFound, fmt.Sprintf("#%d", seq))
		}
		// The seq alone is no id.
		_, err = tx.Command(CommandID(4))
		wantErr(t, err, ErrNotFound, CommandID(4))
		_, err = tx.Command("c000000099")
		wantErr(t, err, ErrNotFound, "c000000099")
		return nil
	})
	err := s.Update(context.Background(), func(tx Tx) error {
		_, err := tx.PutCommand(sampleCommand("ghost", model.CmdKill, model.CmdUndo))
		return err
	})
	wantErr(t, err, ErrNotFound, "ghost")
}

// storeIDForm is the form of a store id.
var storeIDForm = regexp.MustCompile(`^[0-9a-f]{12}$`)

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
}

func contractConcurrent(t *testing.T, open opener) {
	s := open(t)
	defer s.Close()
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	const writers, each = 6, 25
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers*each)
	for w := range writers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range each {
				errs <- s.Update(context.Background(), func(tx Tx) error {
					j, err := tx.Job("j1")
					if err != nil {
						return err
					}
					j.PlatformRestarts++
					if err := tx.PutJob(j); err != nil {
						return err
					}
					_, err = tx.AppendEvent(model.Event{JobID: "j1", To: model.StateRunning, Reason: fmt.Sprint("writer ", w)})
					return err
				})
			}
		}()
		go func() {
			defer wg.Done()
			for range each {
				errs <- s.View(context.Background(), func(tx ReadTx) error {
					j, err := tx.Job("j1")
					if err != nil {
						return err
					}
					evs, err := tx.Events("j1", 0, 0)
					if err == nil && len(evs) != j.PlatformRestarts {
						err = fmt.Errorf("a reader saw %d events for counter %d: not one snapshot", len(evs), j.PlatformRestarts)
					}
					return err
				})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	view(t, s, func(tx ReadTx) error {
		j, _ := tx.Job("j1")
		evs, err := tx.Events("j1", 0, 0)
		if err != nil || j.PlatformRestarts != writers*each || len(evs) != writers*each {
			t.Errorf("after %d updates: counter %d, %d events, %v", writers*each, j.PlatformRestarts, len(evs), err)
		}
		for i, e := range evs {
			if e.Seq != int64(i+1) {
				t.Fatalf("event %d has seq %d: seqs must be dense under concurrency", i, e.Seq)
			}
		}
		return nil
	})
}

// storeDump is everything a store holds, as read through ReadTx alone, so
// that two stores (or one before and after a migration or a restore) can be
// compared whatever the backend.
type storeDump struct {
	Jobs          []model.Job
	Specs         map[string][]model.Spec
	Events        map[string][]model.Event
	RestorePoints map[string][]model.RestorePoint
	Commands      []model.Command
	Audit         []model.AuditEntry
	Alerts        []model.Alert `json:",omitempty"` // schema 2
	// Exceptions by job, schema 4.
	Exceptions map[string][]model.JobException `json:",omitempty"`
	// StoreID is the store's id, in fixtures from schema 3 on; dump leaves
	// it empty (stores with one history but two ids compare equal).
	StoreID string `json:",omitempty"`
}

func dump(t testing.TB, s Store) storeDump {
	t.Helper()
	d := storeDump{
		Specs:         map[string][]model.Spec{},
		Events:        map[string][]model.Event{},
		RestorePoints: map[string][]model.RestorePoint{},
	}
	view(t, s, func(tx ReadTx) (err error) {
		if d.Jobs, err = tx.Jobs(); err != nil {
			return err
		}
		for _, j := range d.Jobs {
			byName, err := tx.JobByName(j.Name)
			if err != nil || byName.ID != j.ID {
				return fmt.Errorf("name %q does not find job %s: %v", j.Name, j.ID, err)
			}
			if d.Specs[j.ID], err = tx.Specs(j.ID); err != nil {
				return err
			}
			if d.Events[j.ID], err = tx.Events(j.ID, 0, 0); err != nil {
				return err
			}
			if d.RestorePoints[j.ID], err = tx.RestorePoints(j.ID); err != nil {
				return err
			}
			es, err := tx.Exceptions(j.ID)
			if err != nil {
				return err
			}
			if len(es) > 0 {
				if d.Exceptions == nil {
					d.Exceptions = map[string][]model.JobException{}
				}
				d.Exceptions[j.ID] = es
			}
		}
		if d.Commands, err = tx.Commands(CommandFilter{}); err != nil {
			return err
		}
		if d.Audit, err = tx.Audit(0, 0); err != nil {
			return err
		}
		as, err := tx.Alerts()
		if len(as) > 0 {
			d.Alerts = as
		}
		return err
	})
	return d
}

// sameDump fails with the first differing line when two dumps differ.
func sameDump(t testing.TB, what string, got, want storeDump) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	g, _ := json.MarshalIndent(got, "", " ")
	w, _ := json.MarshalIndent(want, "", " ")
	gl, wl := strings.Split(string(g), "\n"), strings.Split(string(w), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Fatalf("%s: contents differ at line %d of the JSON dump:\n got: %s\nwant: %s", what, i+1, gl[i], wl[i])
		}
	}
	t.Fatalf("%s: contents differ: dump has %d lines, want %d (or only in what JSON does not show)", what, len(gl), len(wl))
}

func contractAlerts(t *testing.T, open opener) {
	s := open(t)
	defer func() { s.Close() }()
	firing := model.Alert{Rule: "lag", Kind: "lag", JobID: "j2", JobName: "b", State: model.AlertFiring,
		Since: t0, Value: "120000 records", Notified: []string{"ops"}, UpdatedAt: t0}
	update(t, s, func(tx Tx) error {
		for _, a := range []model.Alert{
			firing,
			{Rule: "job-failed", JobID: "j9", State: model.AlertFiring, Since: t0},
			{Rule: "lag", JobID: "j1", State: model.AlertResolved, Since: t0, ResolvedAt: t0.Add(time.Minute)},
		} {
			if err := tx.PutAlert(a); err != nil {
				return err
			}
		}
		return nil
	})
	keys := func(as []model.Alert) string {
		var ks []string
		for _, a := range as {
			ks = append(ks, a.Key())
		}
		return strings.Join(ks, " ")
	}
	view(t, s, func(tx ReadTx) error {
		as, err := tx.Alerts()
		if got := keys(as); err != nil || got != "job-failed/j9 lag/j1 lag/j2" {
			t.Errorf("Alerts() = %q, %v; want ordered by rule then job", got, err)
		}
		return nil
	})
	// One record per rule and job: a resolve replaces the firing.
	resolved := firing
	resolved.State, resolved.ResolvedAt, resolved.ResolveNotified = model.AlertResolved, t0.Add(2*time.Minute), []string{"ops"}
	update(t, s, func(tx Tx) error {
		if err := tx.PutAlert(resolved); err != nil {
			return err
		}
		if err := tx.DeleteAlert("job-failed", "j9"); err != nil {
			return err
		}
		return tx.DeleteAlert("job-failed", "never-there")
	})
	s = reopen(t, s, open)
	view(t, s, func(tx ReadTx) error {
		as, err := tx.Alerts()
		if err != nil || keys(as) != "lag/j1 lag/j2" {
			t.Fatalf("after replace, delete and reopen: %q, %v", keys(as), err)
		}
		if !reflect.DeepEqual(as[1], resolved) {
			t.Errorf("stored alert\n got %+v\nwant %+v", as[1], resolved)
		}
		return nil
	})
	for _, bad := range []model.Alert{
		{JobID: "j1", State: model.AlertFiring},
		{Rule: "lag", State: model.AlertFiring},
		{Rule: "a/b", JobID: "j1", State: model.AlertFiring},
		{Rule: "lag", JobID: "j1"},
	} {
		err := s.Update(context.Background(), func(tx Tx) error { return tx.PutAlert(bad) })
		wantErr(t, err, ErrInvalid)
	}
	if err := s.View(context.Background(), func(tx ReadTx) error {
		if w, ok := tx.(Tx); ok {
			return w.PutAlert(firing)
		}
		return errors.New("a ReadTx cannot write")
	}); err == nil {
		t.Error("PutAlert in a View succeeded")
	}
}
