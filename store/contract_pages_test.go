package store

import (
	"fmt"
	"slices"
	"testing"

	"github.com/palink/palink/model"
)

// contractPages: a list read a page at a time (JobsFrom, CommandsFrom),
// each page from the Next of the one before, is the list read at once, in
// the same order, whatever the page size; a page holds at most its size.
func contractPages(t *testing.T, open opener) {
	s := open(t)
	all := commandWorld(t, s)
	update(t, s, func(tx Tx) error {
		for i := range 20 {
			id := fmt.Sprintf("j%02d", i)
			if err := tx.CreateJob(sampleJob(id, "page-"+id)); err != nil {
				return err
			}
		}
		return nil
	})
	active := []model.CommandState{model.CmdDoing, model.CmdUndo}
	final := []model.CommandState{model.CmdSucceeded, model.CmdFailed}
	filters := []CommandFilter{
		{}, {States: active}, {JobID: "j1"}, {JobID: "j1", States: final}, {JobID: "j2", States: active},
		{Kinds: []model.CommandKind{model.CmdPause, model.CmdKill}},
		{Limit: 3}, {Limit: 50}, {JobID: "j1", Limit: 2}, {States: active, Limit: 2}, {JobID: "ghost"},
	}
	view(t, s, func(tx ReadTx) error {
		jobs, err := tx.Jobs()
		if err != nil {
			return err
		}
		for _, size := range []int{1, 2, 3, 7, 100} {
			var got []string
			from := ""
			for pages := 0; ; pages++ {
				js, next, err := tx.JobsFrom(from, size)
				if err != nil {
					return err
				}
				if len(js) > size || pages > len(jobs) {
					t.Fatalf("JobsFrom(%q, %d) = %d jobs (page %d)", from, size, len(js), pages)
				}
				for _, j := range js {
					got = append(got, j.ID)
				}
				if next == "" {
					break
				}
				from = next
			}
			var want []string
			for _, j := range jobs {
				want = append(want, j.ID)
			}
			if !slices.Equal(got, want) {
				t.Errorf("jobs in pages of %d: %v, want %v", size, got, want)
			}
		}
		for _, f := range filters {
			want := filterRef(all, f)
			for _, size := range []int{1, 2, 4, 100} {
				var got []string
				from := ""
				for pages := 0; ; pages++ {
					cs, next, err := tx.CommandsFrom(f, from, size)
					if err != nil {
						return err
					}
					if len(cs) > size || pages > len(all) {
						t.Fatalf("CommandsFrom(%+v, %q, %d) = %d commands (page %d)", f, from, size, len(cs), pages)
					}
					got = append(got, commandIDs(cs)...)
					if next == "" {
						break
					}
					from = next
				}
				if !slices.Equal(got, want) {
					t.Errorf("commands %+v in pages of %d: %v, want %v", f, size, got, want)
				}
			}
		}
		if _, _, err := tx.JobsFrom("", 0); err == nil {
			t.Error("JobsFrom with a page of 0 succeeded")
		}
		_, _, err = tx.CommandsFrom(CommandFilter{}, "", -1)
		wantErr(t, err, ErrInvalid)
		return nil
	})
}
