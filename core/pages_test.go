package core_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// TestPagesAreTheListInParts: ListJobsPage and CommandsPage, page after
// page from each page's Next, give what ListJobs and Commands give at
// once, for every filter and page size, with a pending command's badge.
func TestPagesAreTheListInParts(t *testing.T) {
	// No scheduler runs: the UNDO commands stay as they are between reads.
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc, err := core.NewLocal(core.Options{Store: st, User: "tester"})
	if err != nil {
		t.Fatal(err)
	}
	err = st.Update(ctx, func(tx store.Tx) error {
		for i := range 23 {
			j := model.Job{ID: fmt.Sprintf("j-%02d", i), Name: fmt.Sprintf("job-%02d", i), Kind: model.KindSQL, Cluster: "sim",
				SpecVersion: 1, State: model.StateRunning, CreatedAt: time.Unix(1e9, 0)}
			if i%3 == 0 {
				j.State = model.StateFailed
			}
			if err := tx.CreateJob(j); err != nil {
				return err
			}
			for k := range i % 4 {
				state := model.CmdSucceeded
				if k == 2 {
					state = model.CmdUndo
				}
				if _, err := tx.PutCommand(model.Command{JobID: j.ID, Kind: model.CmdSavepoint, State: state, Issuer: "ops", CreatedAt: time.Unix(1e9, 0)}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []api.JobFilter{{}, {States: []model.JobState{model.StateFailed}}, {Name: "JOB-1"}, {Cluster: "elsewhere"}} {
		want, err := svc.ListJobs(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 4, 0} {
			var got []api.JobView
			for p := (api.Page{Size: size}); ; {
				pg, err := svc.ListJobsPage(ctx, f, p)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, pg.Jobs...)
				if p.Cursor = pg.Next; p.Cursor == "" {
					break
				}
			}
			if !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
				t.Errorf("jobs %+v in pages of %d: %d jobs, differ from ListJobs' %d", f, size, len(got), len(want))
			}
		}
	}
	for _, f := range []api.CommandFilter{{}, {JobRef: "job-07"}, {Limit: 5}, {States: []model.CommandState{model.CmdUndo}}, {JobRef: "job-11", Limit: 1}} {
		want, err := svc.Commands(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 3, 0} {
			var got []model.Command
			for p := (api.Page{Size: size}); ; {
				pg, err := svc.CommandsPage(ctx, f, p)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, pg.Commands...)
				if p.Cursor = pg.Next; p.Cursor == "" {
					break
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("commands %+v in pages of %d: %d commands, differ from Commands' %d", f, size, len(got), len(want))
			}
		}
	}
	if _, err := svc.CommandsPage(ctx, api.CommandFilter{JobRef: "ghost"}, api.Page{}); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("commands of a job that does not exist: %v, want not found", err)
	}
}
