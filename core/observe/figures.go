package observe

import (
	"context"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/store"
)

// publishFigures hands the shown jobs' new figures to ListJobs and to
// watchers, with each job's current record and pending command, so that a
// figures update never rolls a row back to an older state.
func (o *Observer) publishFigures(ctx context.Context, ids []string, now time.Time) {
	if len(ids) == 0 {
		return
	}
	var views []api.JobView
	_ = o.st.View(ctx, func(tx store.ReadTx) error {
		for _, id := range ids {
			j, err := tx.Job(id)
			if err != nil || !measurable(j) {
				continue
			}
			o.mu.Lock()
			f, ok := o.figuresOf(id, now)
			o.mu.Unlock()
			if !ok {
				continue
			}
			pending, err := journal.Pending(tx, id)
			if err != nil {
				return err
			}
			o.fmu.Lock()
			o.figures[id] = f
			o.fmu.Unlock()
			views = append(views, journal.View(j, pending, f))
		}
		return nil
	})
	for i := range views {
		v := views[i]
		if v.Figures.CheckpointAge == 0 && v.LatestCheckpoint != nil {
			v.Figures.CheckpointAge = now.Sub(v.LatestCheckpoint.Time)
		}
		o.pub.Publish(api.Change{Kind: api.JobChanged, Job: &v})
	}
}

// pruneFigures drops the figures of jobs no client shows any more: hidden
// rows are not measured, and figures that stopped moving would mislead
// when the row comes back.
func (o *Observer) pruneFigures(now time.Time) {
	o.mu.Lock()
	stale := map[string]bool{}
	o.fmu.Lock()
	for id := range o.figures {
		if jm := o.jobs[id]; jm == nil || now.Sub(jm.shownAt) > o.ttl {
			stale[id] = true
		}
	}
	for id := range stale {
		delete(o.figures, id)
	}
	o.fmu.Unlock()
	o.mu.Unlock()
}

// forgetFigures drops a job's figures once it is not running: the jobs
// table shows none rather than the last ones of a job that stopped.
func (o *Observer) forgetFigures(id string) {
	o.fmu.Lock()
	delete(o.figures, id)
	o.fmu.Unlock()
}

// Figures are the job's latest headline figures, while a client shows it.
func (o *Observer) Figures(jobID string) (api.Figures, bool) {
	o.fmu.Lock()
	defer o.fmu.Unlock()
	f, ok := o.figures[jobID]
	return f, ok
}
