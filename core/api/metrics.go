package api

import (
	"context"
	"time"

	"github.com/palink/palink/model"
)

// MetricsService is the live-metrics and alerts part of Service.
//
// Metrics cost JobManager requests, so they are collected only for the
// jobs some client shows (SetInterest) and for the jobs metric alert rules
// watch. Figures reach the jobs table through Watch (JobChanged); the
// series behind the charts come from JobMetrics.
type MetricsService interface {
	// SetInterest declares the jobs one client shows now; it replaces
	// that client's previous interest. An interest expires unless it is
	// declared again within a few collection intervals, so a client that
	// went away stops costing requests.
	//palink:api role=viewer
	SetInterest(ctx context.Context, r InterestRequest) error
	// JobMetrics returns a job's recent metrics: the last five minutes at
	// the collection interval and the last hour in one-minute buckets. A job
	// nobody showed recently has none.
	//palink:api role=viewer on=job(ref)
	JobMetrics(ctx context.Context, ref string) (MetricsSeries, error)
	// FlinkMetrics is what Flink exposes of a job (r.Scope), one of its
	// vertices (each subtask's metrics, and the same aggregated over the
	// subtasks) or a TaskManager of its cluster: without r.Get, the names
	// of every metric (one request); with it, the values of those named
	// (a request per hundred names).
	//palink:api role=viewer on=job(r.JobRef)
	FlinkMetrics(ctx context.Context, r FlinkMetricsRequest) (FlinkMetricList, error)
	// ChartMetric adds a Flink metric to the charts of a job's Metrics tab,
	// or takes one away (r.Remove), and returns the job's charts. The job
	// keeps them (model.Job.Charts), so every palink sharing the store
	// charts them; JobMetrics has their series while a client shows the
	// job in depth.
	//palink:api role=operator writes what="chart a metric" caller=Issuer on=job(r.JobRef)
	ChartMetric(ctx context.Context, r ChartRequest) ([]model.MetricChart, error)
	// SubtaskHistory is the backpressure and watermark delay of a vertex's
	// subtasks over the last minutes, sampled every collection interval
	// while a client shows the vertex (InterestRequest.Vertex), for the
	// subtasks it shows. A vertex nobody showed recently has none.
	//palink:api role=viewer on=job(r.JobRef)
	SubtaskHistory(ctx context.Context, r VertexRequest) (SubtaskHistory, error)
	// Alerts lists alerts, firing ones first, newest first within each state.
	//palink:api role=viewer on=list
	Alerts(ctx context.Context, f AlertFilter) ([]model.Alert, error)
	// ActOnAlert acknowledges an alert's firing, or silences the webhook
	// messages of its rule and job for a while (or lifts the silence).
	//palink:api role=operator writes what="act on alert" caller=Issuer on=job(a.JobRef)
	ActOnAlert(ctx context.Context, a AlertAction) (model.Alert, error)
}

// AlertAction is what a person does to an alert: one of Ack, Silence
// (a duration), Unsilence and Undo.
type AlertAction struct {
	Rule   string // the rule's name
	JobRef string // a job id or name
	// Ack acknowledges the current firing.
	Ack bool
	// Silence holds the webhook messages of this rule and job back for
	// this long, across firings; Unsilence lifts it.
	Silence   time.Duration
	Unsilence bool
	// Undo takes back the issuer's own last acknowledgement or silence of
	// this alert, within AlertUndoWindow: the acknowledgement or the silence
	// is again what it was before. It is refused once someone changed it
	// since, or the window has passed.
	Undo bool
	// Issuer is who acts: the OS user (the agent sets it from its socket).
	Issuer string
}

// AlertUndoWindow is how long a client offers to undo an acknowledgement
// or a silence after the service answered it (AlertAction.Undo). The
// service allows a few seconds more, for the trip.
const AlertUndoWindow = 10 * time.Second

// AlertsChanged is the Change kind that says alerts fired or resolved:
// reload them with Alerts. It carries no payload. (Kinds declared outside
// api.go take values from 64 up, so that features add kinds without
// editing the shared list.)
const AlertsChanged ChangeKind = 64

// InterestRequest is what one client shows.
type InterestRequest struct {
	// Client identifies the client (one TUI) for as long as it runs.
	Client string
	// Jobs are the ids of the jobs on its screen.
	Jobs []string
	// Detail is the id of the job it shows in depth, if any.
	Detail string
	// Vertex is the vertex it shows subtask by subtask, if any.
	Vertex VertexInterest `json:",omitzero"`
}

// VertexInterest is a vertex a client shows subtask by subtask, and which
// of its subtasks are on screen: their backpressure and watermarks are
// sampled every collection interval (SubtaskHistory).
type VertexInterest struct {
	JobID, VertexID string
	// From and To bound the subtasks on screen by index, [From, To).
	From, To int
}

// IsZero reports no vertex.
func (v VertexInterest) IsZero() bool { return v.VertexID == "" }

// FlinkMetricsRequest asks what Flink exposes of a job, a vertex or a
// TaskManager (FlinkMetrics).
type FlinkMetricsRequest struct {
	JobRef string
	// Scope is model.MetricScopeJob, MetricScopeVertex (VertexID) or
	// MetricScopeTaskManager (TaskManager).
	Scope       model.MetricScope
	VertexID    string
	TaskManager string
	// Get names the metrics whose values to read, as the list names them;
	// empty lists every name, without values.
	Get []string
}

// FlinkMetricList is what Flink exposes of a job, a vertex or a
// TaskManager.
type FlinkMetricList struct {
	JobID       string
	Scope       model.MetricScope
	VertexID    string
	VertexName  string
	Parallelism int // the vertex's
	TaskManager string
	FetchedAt   time.Time
	// Metrics are every metric, by name (a list), or those asked for that
	// Flink answered (Get). A vertex's come twice: aggregated over its
	// subtasks ("numRecordsIn"), then each subtask's ("0.numRecordsIn").
	Metrics []FlinkMetric
	// Charts are the job's charts (model.Job.Charts), to mark the metrics
	// charted already.
	Charts []model.MetricChart `json:",omitempty"`
	Notes  []string            `json:",omitempty"`
}

// FlinkMetric is one metric as Flink names it, with its value when read.
type FlinkMetric struct {
	// Name is the name Flink lists: "numRestarts", "2.numRecordsIn" (a
	// vertex's subtask 2), "numRecordsIn" (a vertex's, aggregated).
	Name string
	// Subtask is the subtask of a subtask's metric; -1 for any other.
	Subtask int
	// Value is the value Flink sends, as it sends it, of a job's, a
	// subtask's or a TaskManager's metric; empty when not read.
	Value string `json:",omitempty"`
	// Agg are a vertex metric's aggregates over its subtasks, when read.
	Agg *MetricAggregates `json:",omitempty"`
}

// MetricAggregates are a vertex metric over its subtasks.
type MetricAggregates struct {
	Sum, Max, Min, Avg float64
}

// Of is the aggregate named agg (model.AggSum, …).
func (a MetricAggregates) Of(agg string) float64 {
	switch agg {
	case model.AggMax:
		return a.Max
	case model.AggMin:
		return a.Min
	case model.AggAvg:
		return a.Avg
	}
	return a.Sum
}

// ChartRequest adds a chart to a job's Metrics tab, or removes it.
type ChartRequest struct {
	JobRef string
	Chart  model.MetricChart
	// Remove takes the chart of Chart's key away instead.
	Remove bool
	// Issuer is who asks (the agent sets it from its socket).
	Issuer string
}

// SubtaskHistory is a vertex's subtasks over the last minutes.
type SubtaskHistory struct {
	JobID, VertexID string
	// Interval is the sampling step.
	Interval time.Duration
	// Subtasks are the subtasks sampled, by index.
	Subtasks []SubtaskSeries
	// LastError says why the latest sampling failed, if it did.
	LastError string `json:",omitempty"`
}

// SubtaskSeries is one subtask's samples, oldest first.
type SubtaskSeries struct {
	Index   int
	Samples []SubtaskSample
}

// SubtaskSample is one subtask at one instant. A figure Flink did not
// report is Unknown.
type SubtaskSample struct {
	At time.Time
	// Backpressure is the share of time it was backpressured (0..1).
	Backpressure float64
	// WatermarkDelay is the JobManager's now minus its input watermark;
	// Unknown for a source and before the first watermark.
	WatermarkDelay time.Duration
}

// AlertFilter narrows Alerts. Zero fields select everything.
type AlertFilter struct {
	JobRef string // a job id or name
	States []model.AlertState
}

// MetricsSeries is a job's recent metrics, for the detail's charts.
type MetricsSeries struct {
	JobID string
	// Interval is the collection interval: the step of Recent.
	Interval time.Duration
	// Recent is the last five minutes at full rate, oldest first.
	Recent []MetricPoint
	// Hour is the last hour in one-minute buckets (rates averaged, the
	// worst backpressure, busy time, delay and lag kept), oldest first.
	Hour []MetricPoint
	// Vertices are the latest figures of each vertex, in job graph order.
	Vertices []VertexMetrics
	// Cluster is the job's Flink cluster (TaskManagers and slots), measured
	// while some client shows the job in depth; nil otherwise.
	Cluster *FlinkCluster
	// LastError says why the latest collection failed, if it did.
	LastError   string
	LastErrorAt time.Time
	// Charts are the Flink metrics people added to the job's Metrics tab
	// (model.Job.Charts); the points' Charts hold their values.
	Charts []model.MetricChart `json:",omitempty"`
}

// Latest is the newest point (zero when there is none).
func (s MetricsSeries) Latest() MetricPoint {
	if len(s.Recent) == 0 {
		return MetricPoint{}
	}
	return s.Recent[len(s.Recent)-1]
}

// MetricPoint is a job's figures at one instant. Fields that Flink did not
// report are negative (Unknown) rather than zero, which would be a value.
type MetricPoint struct {
	At time.Time
	// RecordsIn is what the sources emit, RecordsOut what the sinks take,
	// per second.
	RecordsIn, RecordsOut float64
	// Backpressure and Busy are the worst vertex's ratios (0..1);
	// BackpressureVertex names it.
	Backpressure       float64
	BackpressureVertex string
	Busy               float64
	// WatermarkDelay is now − the lowest input watermark.
	WatermarkDelay time.Duration
	// Lag is the sources' consumer lag in records (Kafka's pendingRecords,
	// else records-lag-max).
	Lag float64
	// The latest completed checkpoint (Unknown age when there is none),
	// Flink's count of failed checkpoints, and how many of the newest
	// ones failed in a row.
	CheckpointDuration time.Duration
	CheckpointSize     int64
	CheckpointAge      time.Duration
	FailedCheckpoints  int64
	FailedInARow       int
	// Restarts is Flink's numRestarts of the current Flink job.
	Restarts int64
	// Charts are the values of the job's charts (model.Job.Charts) by
	// their Key, when the job was measured in depth; a chart without a
	// value here was not reported.
	Charts map[string]float64 `json:",omitempty"`
}

// Unknown marks a MetricPoint field that Flink did not report.
const Unknown = -1

// FlinkCluster is the JobManager's overview of its cluster.
type FlinkCluster struct {
	At                    time.Time
	TaskManagers          int
	SlotsTotal, SlotsFree int
	FlinkVersion          string
}

// VertexMetrics are one vertex's latest figures.
type VertexMetrics struct {
	ID, Name              string
	Parallelism           int
	Source, Sink          bool
	RecordsIn, RecordsOut float64 // per second, summed over subtasks
	Backpressure, Busy    float64 // the worst subtask's ratio (0..1)
	// WatermarkDelay is Unknown for sources, which have no input watermark.
	WatermarkDelay time.Duration
}
