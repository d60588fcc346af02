package core

import (
	"context"
	"slices"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// pager is Local's long lists a page at a time (ListJobsPage,
// CommandsPage), a part of its own: each page is one read transaction, so
// that a caller writing out 100,000 jobs holds one page of them at a time.
type pager struct{ l *Local }

// pageSize is the size a page asks for, within bounds.
func pageSize(p api.Page) int {
	switch {
	case p.Size <= 0:
		return api.DefaultPageSize
	case p.Size > api.MaxPageSize:
		return api.MaxPageSize
	}
	return p.Size
}

// ListJobsPage implements Service: ListJobs over the jobs from p.Cursor.
func (g pager) ListJobsPage(ctx context.Context, f api.JobFilter, p api.Page) (api.JobPage, error) {
	l := g.l
	out := api.JobPage{Jobs: []api.JobView{}}
	err := l.st.View(ctx, func(tx store.ReadTx) error {
		jobs, next, err := tx.JobsFrom(p.Cursor, pageSize(p))
		if err != nil {
			return err
		}
		out.Next = next
		byJob, err := pendingByJob(tx)
		if err != nil {
			return err
		}
		for _, j := range jobs {
			if jobSelected(f, j) {
				out.Jobs = append(out.Jobs, publisher{l}.view(j, byJob[j.ID]))
			}
		}
		return nil
	})
	return out, err
}

// jobSelected reports whether f selects j, as ListJobs selects.
func jobSelected(f api.JobFilter, j model.Job) bool {
	if f.Cluster != "" && j.Cluster != f.Cluster {
		return false
	}
	if len(f.States) > 0 && !slices.Contains(f.States, j.State) {
		return false
	}
	return f.Name == "" || strings.Contains(strings.ToLower(j.Name), strings.ToLower(f.Name))
}

// CommandsPage implements Service: Commands from p.Cursor.
func (g pager) CommandsPage(ctx context.Context, f api.CommandFilter, p api.Page) (api.CommandPage, error) {
	out := api.CommandPage{Commands: []model.Command{}}
	err := g.l.st.View(ctx, func(tx store.ReadTx) error {
		sf, err := storeCommandFilter(tx, f)
		if err != nil {
			return err
		}
		out.Commands, out.Next, err = tx.CommandsFrom(sf, p.Cursor, pageSize(p))
		return err
	})
	return out, err
}
