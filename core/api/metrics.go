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
