package tuitest

import (
	"context"

	"github.com/palink/palink/core/api"
)

// ListJobsPage implements api.Service: ListJobs, in one page.
func (f *Fake) ListJobsPage(ctx context.Context, flt api.JobFilter, _ api.Page) (api.JobPage, error) {
	jobs, err := f.ListJobs(ctx, flt)
	if jobs == nil {
		jobs = []api.JobView{}
	}
	return api.JobPage{Jobs: jobs}, err
}

// CommandsPage implements api.Service: Commands, in one page.
func (f *Fake) CommandsPage(ctx context.Context, flt api.CommandFilter, _ api.Page) (api.CommandPage, error) {
	cs, err := f.Commands(ctx, flt)
	return api.CommandPage{Commands: cs}, err
}
