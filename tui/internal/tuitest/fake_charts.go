package tuitest

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// The fake's metric browser, charts and subtask history: what Flink would
// list and answer for the fixture's jobs, deterministic.

// fixtureJobMetrics are a job's metrics as Flink names them.
var fixtureJobMetrics = []string{"downtime", "fullRestarts", "lastCheckpointDuration", "lastCheckpointSize", "numRestarts",
	"numberOfCompletedCheckpoints", "numberOfFailedCheckpoints", "restartingTime", "uptime"}

// fixtureTaskMetrics are each subtask's metrics of a vertex.
var fixtureTaskMetrics = []string{"backPressuredTimeMsPerSecond", "busyTimeMsPerSecond", "currentInputWatermark", "idleTimeMsPerSecond",
	"numBytesInPerSecond", "numRecordsIn", "numRecordsInPerSecond", "numRecordsOut", "numRecordsOutPerSecond"}

// fixtureTMMetrics are a TaskManager's metrics.
var fixtureTMMetrics = []string{"Status.JVM.CPU.Load", "Status.JVM.GarbageCollector.G1_Young_Generation.Count",
	"Status.JVM.Memory.Heap.Max", "Status.JVM.Memory.Heap.Used", "Status.JVM.Threads.Count"}

// fixtureValues are what Flink would answer for the fixture's metrics, a
// subtask's of the lookup join (its subtask 2 hot), its job's (76 hours
// up, 22 failed checkpoints) and its TaskManagers'.
var fixtureValues = map[string]float64{
	"backPressuredTimeMsPerSecond": 0, "busyTimeMsPerSecond": 550, "idleTimeMsPerSecond": 450,
	"currentInputWatermark": float64(Now.Add(-4300 * time.Millisecond).UnixMilli()),
	"numBytesInPerSecond":   2400 * 118, "numRecordsIn": 3_100_000, "numRecordsInPerSecond": 2400,
	"numRecordsOut": 3_098_000, "numRecordsOutPerSecond": 2395,

	"downtime": 0, "fullRestarts": 0, "lastCheckpointDuration": 1200, "lastCheckpointSize": 38 << 20, "numRestarts": 0,
	"numberOfCompletedCheckpoints": 8790, "numberOfFailedCheckpoints": 22, "restartingTime": 0, "uptime": 76 * 3600 * 1000,

	"Status.JVM.CPU.Load": 0.42, "Status.JVM.GarbageCollector.G1_Young_Generation.Count": 1520,
	"Status.JVM.Memory.Heap.Max": 1.5 * (1 << 30), "Status.JVM.Memory.Heap.Used": 1.1 * (1 << 30), "Status.JVM.Threads.Count": 84,
}

// fixtureValue is a metric's value: of a subtask ("2.busyTimeMsPerSecond"),
// its share (subtask 2 takes three times the records and is 97% busy), or
// the metric's own.
func fixtureValue(name string) float64 {
	sub, base, ok := model.SubtaskMetric(name)
	v := fixtureValues[base]
	if !ok {
		return v
	}
	switch {
	case sub == 2 && base == "busyTimeMsPerSecond":
		return 970
	case sub == 2 && base == "idleTimeMsPerSecond":
		return 30
	case sub == 2 && strings.HasPrefix(base, "num"):
		return math.Round(v * 3.2)
	case strings.HasPrefix(base, "num"):
		return math.Round(v * (1 + 0.025*float64(sub)))
	}
	return v
}

// fixtureAggregates are a vertex metric's aggregates over its subtasks.
func fixtureAggregates(name string, parallelism int) api.MetricAggregates {
	a := api.MetricAggregates{Min: math.Inf(1), Max: math.Inf(-1)}
	for s := range parallelism {
		v := fixtureValue(strconv.Itoa(s) + "." + name)
		a.Sum += v
		a.Min, a.Max = math.Min(a.Min, v), math.Max(a.Max, v)
	}
	a.Avg = a.Sum / float64(max(parallelism, 1))
	return a
}

// FlinkMetrics implements api.Service.
func (p *metricsPart) FlinkMetrics(ctx context.Context, r api.FlinkMetricsRequest) (api.FlinkMetricList, error) {
	f := p.f
	f.record("FlinkMetrics %s %s%s%s %d", r.JobRef, r.Scope, r.VertexID, r.TaskManager, len(r.Get))
	if err := f.wait(ctx); err != nil {
		return api.FlinkMetricList{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	i, err := f.find(r.JobRef)
	if err != nil {
		return api.FlinkMetricList{}, err
	}
	j := f.Jobs[i]
	out := api.FlinkMetricList{JobID: j.ID, Scope: r.Scope, VertexID: r.VertexID, TaskManager: r.TaskManager, FetchedAt: f.now,
		Charts: slices.Clone(j.Charts)}
	var all []api.FlinkMetric
	switch r.Scope {
	case model.MetricScopeJob:
		for _, n := range fixtureJobMetrics {
			all = append(all, api.FlinkMetric{Name: n, Subtask: -1})
		}
	case model.MetricScopeVertex:
		out.VertexName, out.Parallelism = r.VertexID, 4
		if g, ok := f.diagPart.graphs[j.ID]; ok {
			k := slices.IndexFunc(g.Vertices, func(v api.GraphVertex) bool { return v.ID == r.VertexID })
			if k < 0 {
				return out, fmt.Errorf("metrics of vertex %s of job %s: the Flink job has no such vertex: %w", r.VertexID, j.Name, model.ErrNotFound)
			}
			out.VertexName, out.Parallelism = g.Vertices[k].Name, g.Vertices[k].Parallelism
		}
		for _, n := range fixtureTaskMetrics {
			all = append(all, api.FlinkMetric{Name: n, Subtask: -1})
		}
		for s := range out.Parallelism {
			for _, n := range fixtureTaskMetrics {
				all = append(all, api.FlinkMetric{Name: strconv.Itoa(s) + "." + n, Subtask: s})
			}
		}
	case model.MetricScopeTaskManager:
		for _, n := range fixtureTMMetrics {
			all = append(all, api.FlinkMetric{Name: n, Subtask: -1})
		}
	default:
		return out, fmt.Errorf("metrics of %s: unknown scope %q", r.JobRef, r.Scope)
	}
	if len(r.Get) == 0 {
		out.Metrics = all
		return out, nil
	}
	for _, n := range r.Get {
		k := slices.IndexFunc(all, func(m api.FlinkMetric) bool { return m.Name == n })
		if k < 0 {
			continue
		}
		m := all[k]
		if _, _, sub := model.SubtaskMetric(n); r.Scope == model.MetricScopeVertex && !sub {
			a := fixtureAggregates(n, out.Parallelism)
			m.Agg = &a
		} else {
			m.Value = strconv.FormatFloat(fixtureValue(n), 'f', -1, 64)
		}
		out.Metrics = append(out.Metrics, m)
	}
	return out, nil
}

// ChartMetric implements api.Service: it keeps the job's charts as core
// does, and tells the watchers.
func (p *metricsPart) ChartMetric(ctx context.Context, r api.ChartRequest) ([]model.MetricChart, error) {
	f := p.f
	verb := "add"
	if r.Remove {
		verb = "remove"
	}
	f.record("ChartMetric %s %s %s", r.JobRef, verb, r.Chart.Key())
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Viewer {
		return nil, fmt.Errorf("chart a metric: %w", model.ErrReadOnly)
	}
	i, err := f.find(r.JobRef)
	if err != nil {
		return nil, err
	}
	j := &f.Jobs[i]
	c := r.Chart
	k := slices.IndexFunc(j.Charts, func(x model.MetricChart) bool { return x.Key() == c.Key() })
	switch {
	case r.Remove && k < 0:
		return nil, fmt.Errorf("remove chart %s of %s: it is not charted: %w", c.Metric, j.Name, model.ErrNotFound)
	case r.Remove:
		j.Charts = slices.Delete(slices.Clone(j.Charts), k, k+1)
	case k >= 0:
		return slices.Clone(j.Charts), nil
	default:
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("chart %s of %s: %w", c.Metric, j.Name, err)
		}
		c.AddedBy, c.AddedAt = "ops", f.now
		j.Charts = append(slices.Clone(j.Charts), c)
	}
	v := *j
	f.emitLocked(api.Change{Kind: api.JobChanged, Job: &v})
	return slices.Clone(j.Charts), nil
}

// SubtaskHistory implements api.Service: for the lookup join of
// orders-enrich, five minutes of its four subtasks — a backpressure bump
// three minutes ago, and subtask 2's watermark falling behind while it was
// hot, then catching up — ending at what the vertex view's table shows.
func (p *metricsPart) SubtaskHistory(ctx context.Context, r api.VertexRequest) (api.SubtaskHistory, error) {
	f := p.f
	f.record("SubtaskHistory %s %s", r.JobRef, r.VertexID)
	if err := f.wait(ctx); err != nil {
		return api.SubtaskHistory{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	i, err := f.find(r.JobRef)
	if err != nil {
		return api.SubtaskHistory{}, err
	}
	out := api.SubtaskHistory{JobID: f.Jobs[i].ID, VertexID: r.VertexID, Interval: 5 * time.Second}
	if h, ok := f.Metrics.Histories[out.JobID+"/"+r.VertexID]; ok {
		return h, nil
	}
	v, ok := f.diagPart.vertices[out.JobID+"/"+r.VertexID]
	if !ok {
		return out, nil
	}
	for _, s := range v.Subtasks {
		ser := api.SubtaskSeries{Index: s.Index}
		for k := 59; k >= 0; k-- {
			x := float64(59-k) / 59
			bump := math.Max(0, math.Sin(math.Pi*(x-0.25)/0.3))
			if x < 0.25 || x > 0.55 {
				bump = 0
			}
			delay := s.WatermarkDelay
			if s.Index == 2 {
				delay += time.Duration(40*bump*float64(time.Second)) + time.Duration(float64(k)*0.2*float64(time.Second))
			}
			if k == 0 {
				delay = s.WatermarkDelay
			}
			bp := math.Min(1, s.Backpressure+0.6*bump*float64(1+s.Index%2)/2)
			if k == 0 {
				bp = s.Backpressure
			}
			ser.Samples = append(ser.Samples, api.SubtaskSample{At: f.now.Add(-time.Duration(k) * 5 * time.Second), Backpressure: bp, WatermarkDelay: delay})
		}
		out.Subtasks = append(out.Subtasks, ser)
	}
	return out, nil
}
