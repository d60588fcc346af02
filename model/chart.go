package model

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// MetricScope is where Flink exposes a metric: the job, one of its
// vertices (each subtask's, or aggregated over them), or a TaskManager of
// the job's cluster.
type MetricScope string

// Metric scopes, as Flink's REST API reaches them: /jobs/:id/metrics,
// /jobs/:id/vertices/:vid/metrics (and …/subtasks/metrics aggregated), and
// /taskmanagers/:tmid/metrics.
const (
	MetricScopeJob         MetricScope = "job"
	MetricScopeVertex      MetricScope = "vertex"
	MetricScopeTaskManager MetricScope = "taskmanager"
)

// Aggregations of a vertex's metric over its subtasks, as Flink's
// …/subtasks/metrics?agg= computes them.
const (
	AggSum = "sum"
	AggMax = "max"
	AggMin = "min"
	AggAvg = "avg"
)

// Aggs are the aggregations a chart may take, in the order a person
// cycles through them.
var Aggs = []string{AggSum, AggMax, AggMin, AggAvg}

// MaxMetricCharts bounds the metrics a job's Metrics tab charts besides its
// own: each is read at every collection round while the tab's job is
// shown in depth.
const MaxMetricCharts = 12

// MetricChart is a Flink metric a person added to a job's Metrics tab. It
// is kept with the job (Job.Charts), so that every palink sharing the store
// charts it, and after a restart.
type MetricChart struct {
	Scope MetricScope
	// VertexID is the vertex of a vertex metric; VertexName names it in
	// the chart's title, as it was named when the chart was added.
	VertexID   string `json:",omitempty"`
	VertexName string `json:",omitempty"`
	// TaskManager is the TaskManager of a TaskManager metric (on YARN,
	// its container id).
	TaskManager string `json:",omitempty"`
	// Metric is the name as Flink lists it: "numRestarts" of a job,
	// "2.numRecordsInPerSecond" of a vertex's subtask 2, or, with Agg,
	// "numRecordsInPerSecond" over all of a vertex's subtasks.
	Metric string
	// Agg is how a vertex metric without a subtask is aggregated over the
	// subtasks (AggSum, AggMax, AggMin or AggAvg); empty otherwise.
	Agg     string `json:",omitempty"`
	AddedBy string `json:",omitempty"`
	AddedAt time.Time
}

// Key identifies the chart among a job's: its scope, what it is of, its
// aggregation and its metric.
func (c MetricChart) Key() string {
	return string(c.Scope) + "|" + c.VertexID + c.TaskManager + "|" + c.Agg + "|" + c.Metric
}

// Validate says what is wrong with a chart as given.
func (c MetricChart) Validate() error {
	if strings.TrimSpace(c.Metric) == "" {
		return errors.New("no metric named")
	}
	if strings.Contains(c.Metric, ",") {
		// Flink's get= parameter is a comma list: such a name cannot be read.
		return fmt.Errorf("metric %q has a comma in its name, which Flink's REST API cannot be asked for", c.Metric)
	}
	switch c.Scope {
	case MetricScopeJob:
		if c.VertexID != "" || c.TaskManager != "" || c.Agg != "" {
			return errors.New("a job metric names no vertex, TaskManager or aggregation")
		}
	case MetricScopeVertex:
		if c.VertexID == "" || c.TaskManager != "" {
			return errors.New("a vertex metric names its vertex and no TaskManager")
		}
		_, _, subtask := SubtaskMetric(c.Metric)
		switch {
		case subtask && c.Agg != "":
			return fmt.Errorf("%s is one subtask's metric: it takes no aggregation", c.Metric)
		case !subtask && !validAgg(c.Agg):
			return fmt.Errorf("%s over the vertex's subtasks needs an aggregation: one of %s", c.Metric, strings.Join(Aggs, ", "))
		}
	case MetricScopeTaskManager:
		if c.TaskManager == "" || c.VertexID != "" || c.Agg != "" {
			return errors.New("a TaskManager metric names its TaskManager and no vertex or aggregation")
		}
	default:
		return fmt.Errorf("unknown metric scope %q (job, vertex or taskmanager)", c.Scope)
	}
	return nil
}

func validAgg(a string) bool {
	for _, x := range Aggs {
		if a == x {
			return true
		}
	}
	return false
}

// SubtaskMetric splits a vertex metric name as Flink lists it per subtask,
// "<subtask>.<metric>", into the subtask and the metric; ok is false for a
// name without that prefix (a metric aggregated over the subtasks).
func SubtaskMetric(name string) (subtask int, metric string, ok bool) {
	i, rest, found := strings.Cut(name, ".")
	if !found || rest == "" || i == "" {
		return 0, name, false
	}
	n, err := strconv.Atoi(i)
	if err != nil || n < 0 || strconv.Itoa(n) != i {
		return 0, name, false
	}
	return n, rest, true
}
