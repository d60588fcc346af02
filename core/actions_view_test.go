package core_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// checkActions fails unless v says of every action what decide.CanAct
// decides for v's job and pending command: allowed, or refused with its
// reason.
func checkActions(t *testing.T, where string, v api.JobView) {
	t.Helper()
	if len(v.Actions) != len(model.CommandKinds()) {
		t.Errorf("%s: %s (%s) says %d actions, want all %d", where, v.Name, v.State, len(v.Actions), len(model.CommandKinds()))
	}
	for _, k := range model.CommandKinds() {
		err := decide.CanAct(v.Job, k, v.Pending)
		why, known := v.Refusal(k)
		var r *decide.ActionRefusedError
		switch {
		case !known:
			t.Errorf("%s: %s of %s (%s) is not said", where, k, v.Name, v.State)
		case err == nil && why != "":
			t.Errorf("%s: %s of %s (%s) refused %q; CanAct allows it", where, k, v.Name, v.State, why)
		case err != nil && (!errors.As(err, &r) || r.Reason != why):
			t.Errorf("%s: %s of %s (%s) refused %q; CanAct: %v", where, k, v.Name, v.State, why, err)
		}
	}
}

// TestListedJobsCarryCanAct: every job ListJobs hands out says, for every
// action, what decide.CanAct says of it — over every job state, with no
// pending command and with one of every kind waiting or running.
func TestListedJobsCarryCanAct(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	now := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	type combo struct {
		state   model.JobState
		pending *model.Command
	}
	want := map[string]combo{}
	err = st.Update(ctx, func(tx store.Tx) error {
		for _, s := range model.JobStates() {
			pendings := []*model.Command{nil}
			for _, k := range model.CommandKinds() {
				for _, cs := range []model.CommandState{model.CmdUndo, model.CmdDoing} {
					pendings = append(pendings, &model.Command{Kind: k, State: cs})
				}
			}
			for _, p := range pendings {
				j := model.Job{ID: fmt.Sprintf("j%03d", len(want)), Kind: model.KindSQL, Cluster: "c", State: s, SpecVersion: 1, CreatedAt: now}
				j.Name = "job-" + j.ID
				if err := tx.CreateJob(j); err != nil {
					return err
				}
				if p != nil {
					p.JobID, p.Issuer, p.CreatedAt = j.ID, "ops", now
					saved, err := tx.PutCommand(*p)
					if err != nil {
						return err
					}
					p = &saved
				}
				want[j.ID] = combo{s, p}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := core.NewLocal(core.Options{Store: st, User: "ops"})
	if err != nil {
		t.Fatal(err)
	}
	views, err := svc.ListJobs(ctx, api.JobFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(views) != len(want) || len(want) != len(model.JobStates())*(1+2*len(model.CommandKinds())) {
		t.Fatalf("listed %d jobs of %d", len(views), len(want))
	}
	for _, v := range views {
		c := want[v.ID]
		if v.State != c.state || (v.Pending == nil) != (c.pending == nil) || v.Pending != nil && v.Pending.ID != c.pending.ID {
			t.Fatalf("%s listed as %s with pending %+v, want %s with %+v", v.ID, v.State, v.Pending, c.state, c.pending)
		}
		checkActions(t, "ListJobs", v)
	}
}

// TestWatchedJobsCarryCanAct: the jobs Watch pushes while a job is
// created, submitted and runs say CanAct's answer for each action, as the
// job and its pending command are then. (Watch keeps only the newest change
// of a job when its reader is behind, so which states are seen varies; the
// pending commands are ListJobs' test, through the same view.)
func TestWatchedJobsCarryCanAct(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	ctx, cancel := context.WithTimeout(e.Ctx, time.Minute)
	defer cancel()
	watch, err := e.Svc.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	e.CreateSQL("watched")
	e.Act("watched", model.CmdSubmit, 0)
	seen := map[string]bool{}
	for !seen[model.StateRunning.String()+" -"] {
		select {
		case <-time.After(50 * time.Millisecond):
			if _, err := e.Svc.SyncOnce(ctx, 0); err != nil {
				t.Fatal(err)
			}
		case c := <-watch:
			if c.Kind != api.JobChanged || c.Job == nil {
				continue
			}
			pending := "-"
			if c.Job.Pending != nil {
				pending = c.Job.Pending.Kind.String()
			}
			seen[c.Job.State.String()+" "+pending] = true
			checkActions(t, "Watch", *c.Job)
		case <-ctx.Done():
			t.Fatalf("the job never ran; saw %v", seen)
		}
	}
}
