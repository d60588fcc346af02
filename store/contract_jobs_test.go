package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
)

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
