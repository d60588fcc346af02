package core

import (
	"context"
	"fmt"
	"slices"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// charts is Local's part for the metric browser and the vertex view: the
// charts people add to jobs' Metrics tabs, and the subtasks' history.
type charts struct{ l *Local }

// ChartMetric implements api.Service: the job's record keeps its charts,
// so that they outlive this process and every palink on the store shows
// them; the observer reads them from there at each round (observe).
func (ch charts) ChartMetric(ctx context.Context, r api.ChartRequest) ([]model.MetricChart, error) {
	l := ch.l
	if l.readOnly {
		return nil, api.ReadOnly("chart a metric")
	}
	if r.Issuer == "" {
		r.Issuer = l.user
	}
	c := r.Chart
	verb := "chart"
	if r.Remove {
		verb = "remove chart"
	}
	name := chartName(c)
	if !r.Remove {
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("%s %s of %s: %w", verb, name, r.JobRef, err)
		}
	}
	var (
		j       model.Job
		pending *model.Command
		changed bool
	)
	err := l.st.Update(ctx, func(tx store.Tx) error {
		var err error
		changed = false
		if j, err = journal.FindJob(tx, r.JobRef); err != nil {
			return fmt.Errorf("%s %s: %w", verb, name, err)
		}
		i := slices.IndexFunc(j.Charts, func(x model.MetricChart) bool { return x.Key() == c.Key() })
		switch {
		case r.Remove && i < 0:
			return fmt.Errorf("%s %s of %s: it is not charted: %w", verb, name, j.Name, model.ErrNotFound)
		case r.Remove:
			j.Charts = slices.Delete(slices.Clone(j.Charts), i, i+1)
		case i >= 0:
			return nil // charted already: nothing to write
		case len(j.Charts) >= model.MaxMetricCharts:
			return fmt.Errorf("%s %s of %s: it charts %d metrics, the most a job may: remove one first: %w",
				verb, name, j.Name, len(j.Charts), model.ErrRefused)
		default:
			c.AddedBy, c.AddedAt = r.Issuer, l.now()
			j.Charts = append(slices.Clone(j.Charts), c)
		}
		changed = true
		j.UpdatedAt = l.now()
		if err := tx.PutJob(j); err != nil {
			return err
		}
		if _, err := tx.AppendAudit(model.AuditEntry{Time: l.now(), User: r.Issuer, Action: verb + " " + name, JobID: j.ID, Outcome: "succeeded"}); err != nil {
			return err
		}
		pending, err = journal.Pending(tx, j.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	if changed {
		publisher{l}.Job(j, pending, nil)
	}
	return j.Charts, nil
}

// chartName names a chart in messages and the audit log:
// "numRecordsInPerSecond (sum) of vertex 90bea66d…".
func chartName(c model.MetricChart) string {
	switch c.Scope {
	case model.MetricScopeVertex:
		of := c.VertexName
		if of == "" {
			of = c.VertexID
		}
		if c.Agg != "" {
			return fmt.Sprintf("%s (%s) of vertex %s", c.Metric, c.Agg, of)
		}
		return fmt.Sprintf("%s of vertex %s", c.Metric, of)
	case model.MetricScopeTaskManager:
		return fmt.Sprintf("%s of TaskManager %s", c.Metric, c.TaskManager)
	}
	return c.Metric
}

// SubtaskHistory implements api.Service.
func (ch charts) SubtaskHistory(ctx context.Context, r api.VertexRequest) (api.SubtaskHistory, error) {
	return ch.l.obs.SubtaskHistory(ctx, r)
}
