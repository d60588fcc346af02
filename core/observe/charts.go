package observe

import (
	"context"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn"
)

// The charts people add to a job's Metrics tab (model.Job.Charts) are read
// with the job's own figures while a client shows it in depth: a job's
// metrics in the request that reads numRestarts, a vertex's aggregates in
// the request that reads its figures, subtask metrics in one request per
// vertex (with its subtasks' history when a client shows it), and a
// TaskManager's in one request each.

// chartsOf are the charts of scope, of the vertex or TaskManager of.
func chartsOf(cs []model.MetricChart, scope model.MetricScope, of string) []model.MetricChart {
	var out []model.MetricChart
	for _, c := range cs {
		if c.Scope != scope {
			continue
		}
		if (scope == model.MetricScopeVertex && c.VertexID != of) || (scope == model.MetricScopeTaskManager && c.TaskManager != of) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// withName adds n to names unless it is there.
func withName(names []string, n string) []string {
	if slices.Contains(names, n) {
		return names
	}
	return append(names, n)
}

// aggValue is a vertex metric's aggregate over its subtasks.
func aggValue(a yarn.AggregatedMetric, agg string) (float64, bool) {
	var p *float64
	switch agg {
	case model.AggSum:
		p = a.Sum
	case model.AggMax:
		p = a.Max
	case model.AggMin:
		p = a.Min
	case model.AggAvg:
		p = a.Avg
	}
	if p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) {
		return 0, false
	}
	return *p, true
}

// chartValue parses a metric's value as Flink sends it; a gauge that is
// no number (a string, a map) cannot be charted.
func chartValue(v string) (float64, bool) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// measureTaskManagerCharts reads the TaskManager metrics of charts, one
// request per TaskManager, into values. A TaskManager that does not answer
// (it was replaced) leaves its charts without a value; only the end of
// ctx fails the measure.
func (o *Observer) measureTaskManagerCharts(ctx context.Context, f *yarn.Flink, charts []model.MetricChart, m *measurement, values map[string]float64) error {
	var tms []string
	for _, c := range charts {
		if c.Scope == model.MetricScopeTaskManager && !slices.Contains(tms, c.TaskManager) {
			tms = append(tms, c.TaskManager)
		}
	}
	for _, tm := range tms {
		cs := chartsOf(charts, model.MetricScopeTaskManager, tm)
		var names []string
		for _, c := range cs {
			names = withName(names, c.Metric)
		}
		m.calls++
		ms, err := f.TaskManagerMetrics(ctx, tm, names...)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			continue
		}
		for _, x := range ms {
			for _, c := range cs {
				if v, ok := chartValue(x.Value); ok && c.Metric == x.ID {
					values[c.Key()] = v
				}
			}
		}
	}
	return nil
}

// measureSubtasks reads, per vertex, the subtask metrics that charts name
// and the subtasks a client shows (their backpressure and watermark), in
// the same requests: a hundred names each.
func (o *Observer) measureSubtasks(ctx context.Context, f *yarn.Flink, jid string, det yarn.JobDetails, at, jmNow time.Time,
	charts []model.MetricChart, shown map[string][]int, m *measurement, values map[string]float64) error {
	for vid := range shown {
		if !slices.ContainsFunc(det.Vertices, func(v yarn.JobVertex) bool { return v.ID == vid }) {
			if m.subtaskErrs == nil {
				m.subtaskErrs = map[string]string{}
			}
			m.subtaskErrs[vid] = "the Flink job has no vertex " + vid
		}
	}
	for _, v := range det.Vertices {
		var sc []model.MetricChart
		for _, c := range chartsOf(charts, model.MetricScopeVertex, v.ID) {
			if c.Agg == "" {
				sc = append(sc, c)
			}
		}
		subs := shown[v.ID]
		if len(sc) == 0 && len(subs) == 0 {
			continue
		}
		names := subtaskNames(subs)
		for _, c := range sc {
			names = withName(names, c.Metric)
		}
		read := map[string]string{}
		var failed error
		for b := range slices.Chunk(names, metricBatch) {
			m.calls++
			ms, err := f.VertexMetrics(ctx, jid, v.ID, b...)
			if err != nil {
				if ctx.Err() != nil {
					return err
				}
				failed = err
				break
			}
			for _, x := range ms {
				read[x.ID] = x.Value
			}
		}
		for _, c := range sc {
			if x, ok := chartValue(read[c.Metric]); ok {
				values[c.Key()] = x
			}
		}
		if len(subs) == 0 {
			continue
		}
		if failed != nil {
			if m.subtaskErrs == nil {
				m.subtaskErrs = map[string]string{}
			}
			m.subtaskErrs[v.ID] = failed.Error()
			continue
		}
		if m.subtasks == nil {
			m.subtasks = map[string][]subtaskReading{}
		}
		m.subtasks[v.ID] = subtaskReadings(subs, read, at, jmNow)
	}
	return nil
}
