package diagnose

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn"
)

// maxListedMetrics caps the names one list holds: a vertex of parallelism
// 1,000 with a hundred metrics a subtask lists 100,000.
const maxListedMetrics = 20_000

// FlinkMetrics implements api.Service: what Flink exposes of a job, one of
// its vertices or a TaskManager — every name in one request, or the
// values of the names asked for, a hundred a request.
func (rd *Inspector) FlinkMetrics(ctx context.Context, r api.FlinkMetricsRequest) (api.FlinkMetricList, error) {
	what := "metrics"
	switch r.Scope {
	case model.MetricScopeVertex:
		what = "metrics of vertex " + r.VertexID
		if r.VertexID == "" {
			return api.FlinkMetricList{}, fmt.Errorf("metrics of a vertex of %s: no vertex named", r.JobRef)
		}
	case model.MetricScopeTaskManager:
		what = "metrics of TaskManager " + r.TaskManager
		if r.TaskManager == "" {
			return api.FlinkMetricList{}, fmt.Errorf("metrics of a TaskManager of %s: no TaskManager named", r.JobRef)
		}
	case model.MetricScopeJob:
	default:
		return api.FlinkMetricList{}, fmt.Errorf("metrics of %s: unknown scope %q (job, vertex or taskmanager)", r.JobRef, r.Scope)
	}
	t, err := rd.live(ctx, r.JobRef, what)
	if err != nil {
		return api.FlinkMetricList{}, err
	}
	out := api.FlinkMetricList{JobID: t.job.ID, Scope: r.Scope, VertexID: r.VertexID, TaskManager: r.TaskManager,
		FetchedAt: rd.now(), Charts: slices.Clone(t.job.Charts)}
	jid := t.job.FlinkJobID
	fail := func(err error) (api.FlinkMetricList, error) {
		return out, fmt.Errorf("%s of job %s: %w", what, t.job.Name, err)
	}
	if r.Scope == model.MetricScopeVertex && len(r.Get) == 0 {
		// The list names the vertex, and says it is the job's.
		det, err := t.flink.Job(ctx, jid)
		if err != nil {
			return fail(err)
		}
		i := slices.IndexFunc(det.Vertices, func(v yarn.JobVertex) bool { return v.ID == r.VertexID })
		if i < 0 {
			return fail(fmt.Errorf("the Flink job has no such vertex: %w", model.ErrNotFound))
		}
		out.VertexName, out.Parallelism = det.Vertices[i].Name, det.Vertices[i].Parallelism
	}

	if len(r.Get) == 0 {
		var ms []yarn.Metric
		switch r.Scope {
		case model.MetricScopeJob:
			ms, err = t.flink.JobMetrics(ctx, jid)
		case model.MetricScopeVertex:
			ms, err = t.flink.VertexMetrics(ctx, jid, r.VertexID)
		case model.MetricScopeTaskManager:
			ms, err = t.flink.TaskManagerMetrics(ctx, r.TaskManager)
		}
		if err != nil {
			return fail(err)
		}
		names := make([]string, 0, len(ms))
		for _, m := range ms {
			names = append(names, m.ID)
		}
		out.Metrics = listMetrics(r.Scope, names)
		if len(out.Metrics) > maxListedMetrics {
			out.Notes = append(out.Notes, fmt.Sprintf("%d metrics: the first %d listed", len(out.Metrics), maxListedMetrics))
			out.Metrics = out.Metrics[:maxListedMetrics]
		}
		return out, nil
	}

	// Values: a subtask's metric and a vertex's aggregate are read from
	// two endpoints; each request asks for at most rateBatch names.
	var plain, agg []string
	for _, n := range r.Get {
		if _, _, sub := model.SubtaskMetric(n); r.Scope == model.MetricScopeVertex && !sub {
			agg = append(agg, n)
		} else {
			plain = append(plain, n)
		}
	}
	type batch struct {
		names []string
		agg   bool
	}
	var batches []batch
	for _, b := range slices.Collect(slices.Chunk(plain, rateBatch)) {
		batches = append(batches, batch{names: b})
	}
	for _, b := range slices.Collect(slices.Chunk(agg, rateBatch)) {
		batches = append(batches, batch{names: b, agg: true})
	}
	got := make([][]api.FlinkMetric, len(batches))
	errs := rd.fanOut(ctx, len(batches), func(ctx context.Context, i int) error {
		b := batches[i]
		if b.agg {
			ams, err := t.flink.SubtaskMetrics(ctx, jid, r.VertexID, b.names, []string{model.AggSum, model.AggMax, model.AggMin, model.AggAvg})
			for _, a := range ams {
				got[i] = append(got[i], api.FlinkMetric{Name: a.ID, Subtask: -1, Agg: &api.MetricAggregates{
					Sum: finite(a.Sum, 0), Max: finite(a.Max, 0), Min: finite(a.Min, 0), Avg: finite(a.Avg, 0)}})
			}
			return err
		}
		var ms []yarn.Metric
		var err error
		switch r.Scope {
		case model.MetricScopeJob:
			ms, err = t.flink.JobMetrics(ctx, jid, b.names...)
		case model.MetricScopeVertex:
			ms, err = t.flink.VertexMetrics(ctx, jid, r.VertexID, b.names...)
		case model.MetricScopeTaskManager:
			ms, err = t.flink.TaskManagerMetrics(ctx, r.TaskManager, b.names...)
		}
		for _, m := range ms {
			sub := -1
			if n, _, ok := model.SubtaskMetric(m.ID); ok && r.Scope == model.MetricScopeVertex {
				sub = n
			}
			got[i] = append(got[i], api.FlinkMetric{Name: m.ID, Subtask: sub, Value: m.Value})
		}
		return err
	})
	failed := 0
	for _, err := range errs {
		if err != nil {
			failed++
		}
	}
	if failed == len(batches) && failed > 0 {
		for _, err := range errs {
			if err != nil {
				return fail(err)
			}
		}
	}
	out.Notes = append(out.Notes, failureNotes("values", errs, func(i int) string {
		return fmt.Sprintf("%s…", batches[i].names[0])
	})...)
	// In the order asked, whatever order Flink answered in.
	byName := map[string]api.FlinkMetric{}
	for _, ms := range got {
		for _, m := range ms {
			byName[m.Name] = m
		}
	}
	for _, n := range r.Get {
		if m, ok := byName[n]; ok {
			out.Metrics = append(out.Metrics, m)
			delete(byName, n)
		}
	}
	return out, nil
}

// listMetrics turns Flink's list of names into the browser's: a vertex's
// metrics aggregated over its subtasks first (the names without the
// "<subtask>." prefix, which …/subtasks/metrics answers for), then each
// subtask's by subtask; everything else by name.
func listMetrics(scope model.MetricScope, names []string) []api.FlinkMetric {
	type entry struct {
		m    api.FlinkMetric
		base string
	}
	var es []entry
	aggs := map[string]bool{}
	for _, n := range names {
		sub, base, ok := model.SubtaskMetric(n)
		if scope != model.MetricScopeVertex || !ok {
			es = append(es, entry{m: api.FlinkMetric{Name: n, Subtask: -1}, base: n})
			continue
		}
		es = append(es, entry{m: api.FlinkMetric{Name: n, Subtask: sub}, base: base})
		aggs[base] = true
	}
	for base := range aggs {
		es = append(es, entry{m: api.FlinkMetric{Name: base, Subtask: -1}, base: base})
	}
	sort.Slice(es, func(a, b int) bool {
		x, y := es[a], es[b]
		if x.m.Subtask != y.m.Subtask {
			return x.m.Subtask < y.m.Subtask // -1, the aggregates, first
		}
		return x.base < y.base
	})
	out := make([]api.FlinkMetric, 0, len(es))
	for i, e := range es {
		if i > 0 && es[i-1].m.Name == e.m.Name {
			continue
		}
		out = append(out, e.m)
	}
	return out
}
