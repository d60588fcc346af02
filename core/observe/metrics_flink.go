package observe

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn"
)

// The task metrics asked of every vertex, aggregated over its subtasks in
// one request (agg=sum,max,min): the request count per job is fixed, one
// per vertex plus three (details, checkpoints, restarts).
const (
	mRecordsIn    = "numRecordsInPerSecond"
	mRecordsOut   = "numRecordsOutPerSecond"
	mBusy         = "busyTimeMsPerSecond"
	mBackpressure = "backPressuredTimeMsPerSecond"
	mWatermark    = "currentInputWatermark"
	mRestarts     = "numRestarts"
)

var vertexMetricNames = []string{mRecordsIn, mRecordsOut, mBusy, mBackpressure, mWatermark}

// readBy names the metrics rounds' reads in the cluster's shared Reads.
const readBy = "metrics"

// measurement is what one collection learned of a job.
type measurement struct {
	point      api.MetricPoint
	vertices   []api.VertexMetrics
	cluster    *api.FlinkCluster // when measured in depth
	flinkState string
	// lagNames are the source vertices' lag metrics found this time
	// (vertex id → names; an empty list: the vertex reports none).
	lagNames map[string][]string
	// completed and failed are Flink's checkpoint counts, when
	// checkpointsOK says they were read.
	completed, failed int64
	checkpointsOK     bool
	calls             int
	// subtasks are the vertices' subtask samples read (vertex id →
	// samples), subtaskErrs why a vertex's could not be.
	subtasks    map[string][]subtaskReading
	subtaskErrs map[string]string
	// shape is the job's graph when its details were read.
	shape *jobShape
}

// measureWant is what a round asks of a job beyond its headline figures.
type measureWant struct {
	// lagNames are the lag metric names found earlier, so that they are
	// listed once per Flink job.
	lagNames map[string][]string
	// depth: a client shows the job in depth (the cluster overview, and
	// the job's charts).
	depth  bool
	charts []model.MetricChart
	// subtasks are the vertices a client shows subtask by subtask, with
	// the subtasks on screen.
	subtasks map[string][]int
	// shape is the Flink job's graph as an earlier measurement read it.
	shape *jobShape
}

// jobShape is what a Flink job's details say that does not move while it
// runs: its vertices, which are sources and sinks, and the JobManager's
// clock against this host's. A job only the alert rules watch is measured
// from it, without its details (kilobytes of plan a request), while state
// sync says the job runs; the details are read again after shapeTTL, and
// whenever a client shows the job in depth.
type jobShape struct {
	flinkJobID     string
	vertices       []yarn.JobVertex
	sources, sinks map[string]bool
	skew           time.Duration // the JobManager's clock minus this host's
	at             time.Time
}

const shapeTTL = 5 * time.Minute

// jobApplication rebuilds the job's YARN application from what state sync
// last recorded, so that measuring costs no ResourceManager request. The
// proxied tracking URL outlives JobManager failovers; amRPCAddress is
// refreshed by every sync cycle.
func jobApplication(j model.Job) yarn.Application {
	return yarn.Application{ID: j.AppID, State: yarn.AppRunning, TrackingUI: "ApplicationMaster",
		TrackingURL: j.TrackingURL, AMRPCAddress: j.JMAddress}
}

// measure asks a job's JobManager for its figures: the job details (state,
// vertices, plan, the JobManager's clock), the checkpoint statistics, the
// restart count, and per vertex the aggregated task metrics; in depth (the
// job a detail view shows), also the cluster overview (TaskManagers and
// slots) and the metrics the job's charts name; for a vertex a client
// shows subtask by subtask, the subtasks' backpressure and watermarks.
func (o *Observer) measure(ctx context.Context, cl *clusters.Cluster, j model.Job, want measureWant) (measurement, error) {
	var m measurement
	known, depth := want.lagNames, want.depth
	charts := want.charts
	if !depth {
		charts = nil
	}
	f, err := cl.Flink(jobApplication(j))
	if err != nil {
		return m, fmt.Errorf("measure %s: %w", j.Name, err)
	}
	var det yarn.JobDetails
	var sources, sinks map[string]bool
	// Watermarks and checkpoint times are the cluster's clock: measure
	// delays against it, not against this host's.
	jmNow := o.now()
	if sh := want.shape; !depth && sh != nil && sh.flinkJobID == j.FlinkJobID && j.FlinkState == yarn.JobRunning && o.now().Sub(sh.at) < shapeTTL {
		det = yarn.JobDetails{ID: j.FlinkJobID, State: yarn.JobRunning, Vertices: sh.vertices}
		sources, sinks = sh.sources, sh.sinks
		jmNow = jmNow.Add(sh.skew)
	} else {
		m.calls++
		det, err = f.Job(ctx, j.FlinkJobID)
		if err != nil {
			return m, fmt.Errorf("measure %s: %w", j.Name, err)
		}
		if det.Now > 0 {
			jmNow = time.UnixMilli(det.Now)
		}
		sources, sinks = graphEnds(det)
		vs := make([]yarn.JobVertex, len(det.Vertices))
		for i, v := range det.Vertices {
			vs[i] = yarn.JobVertex{ID: v.ID, Name: v.Name, Parallelism: v.Parallelism}
		}
		m.shape = &jobShape{flinkJobID: det.ID, vertices: vs, sources: sources, sinks: sinks, skew: jmNow.Sub(o.now()), at: o.now()}
	}
	m.flinkState = det.State
	p := api.MetricPoint{At: o.now(), WatermarkDelay: api.Unknown, Lag: api.Unknown, CheckpointAge: api.Unknown, Restarts: api.Unknown}
	if len(charts) > 0 {
		p.Charts = map[string]float64{}
	}

	cps, _, fresh := cl.Reads.Checkpoints(j.FlinkJobID, o.now().Add(-o.interval), readBy)
	var cerr error
	if !fresh {
		m.calls++
		if cps, cerr = f.Checkpoints(ctx, j.FlinkJobID); cerr == nil {
			cl.Reads.PutCheckpoints(j.FlinkJobID, cps, o.now(), readBy)
		}
	}
	if cerr == nil {
		if c := cps.Latest.Completed; c != nil {
			p.CheckpointDuration = time.Duration(c.EndToEndDuration) * time.Millisecond
			p.CheckpointSize = c.CheckpointedSize
			if c.LatestAckTimestamp > 0 {
				p.CheckpointAge = max(jmNow.Sub(time.UnixMilli(c.LatestAckTimestamp)), 0)
			}
		}
		p.FailedCheckpoints = cps.Counts.Failed
		p.FailedInARow = failedInARow(cps.History)
		m.completed, m.failed, m.checkpointsOK = cps.Counts.Completed, cps.Counts.Failed, true
	} else if ctx.Err() != nil {
		return m, fmt.Errorf("measure %s: %w", j.Name, cerr)
	}

	m.calls++
	jobCharts := chartsOf(charts, model.MetricScopeJob, "")
	jobNames := []string{mRestarts}
	for _, c := range jobCharts {
		jobNames = withName(jobNames, c.Metric)
	}
	if ms, err := f.JobMetrics(ctx, j.FlinkJobID, jobNames...); err == nil {
		for _, x := range ms {
			if n, err := strconv.ParseInt(x.Value, 10, 64); x.ID == mRestarts && err == nil {
				p.Restarts = n
			}
			for _, c := range jobCharts {
				if v, ok := chartValue(x.Value); ok && c.Metric == x.ID {
					p.Charts[c.Key()] = v
				}
			}
		}
	} else if ctx.Err() != nil {
		return m, fmt.Errorf("measure %s: %w", j.Name, err)
	}

	if depth {
		m.calls++
		if ov, err := f.Overview(ctx); err == nil {
			m.cluster = &api.FlinkCluster{At: p.At, TaskManagers: ov.TaskManagers, SlotsTotal: ov.SlotsTotal,
				SlotsFree: ov.SlotsAvailable, FlinkVersion: ov.FlinkVersion}
		} else if ctx.Err() != nil {
			return m, fmt.Errorf("measure %s: %w", j.Name, err)
		}
	}
	if err := o.measureTaskManagerCharts(ctx, f, charts, &m, p.Charts); err != nil {
		return m, fmt.Errorf("measure %s: %w", j.Name, err)
	}

	if det.State != yarn.JobRunning {
		// No task runs: rates are zero, watermarks and lag unknown.
		m.point = p
		return m, nil
	}
	m.lagNames = map[string][]string{}
	var lags, lagMax []float64
	for _, v := range det.Vertices {
		names := vertexMetricNames
		if sources[v.ID] {
			lag, ok := known[v.ID]
			if !ok {
				m.calls++
				all, err := f.SubtaskMetrics(ctx, j.FlinkJobID, v.ID, nil, nil)
				if err != nil {
					return m, fmt.Errorf("measure %s: list metrics of %s: %w", j.Name, v.Name, err)
				}
				lag = lagMetricNames(all)
			}
			m.lagNames[v.ID] = lag
			names = append(append([]string(nil), names...), lag...)
		}
		vcharts := chartsOf(charts, model.MetricScopeVertex, v.ID)
		aggs := []string{"sum", "max", "min"}
		for _, c := range vcharts {
			if c.Agg != "" {
				names = withName(slices.Clip(names), c.Metric)
				aggs = withName(aggs, c.Agg)
			}
		}
		m.calls++
		agg, err := f.SubtaskMetrics(ctx, j.FlinkJobID, v.ID, names, aggs)
		if err != nil {
			return m, fmt.Errorf("measure %s: metrics of %s: %w", j.Name, v.Name, err)
		}
		vm := api.VertexMetrics{ID: v.ID, Name: v.Name, Parallelism: v.Parallelism, Source: sources[v.ID],
			Sink: sinks[v.ID], WatermarkDelay: api.Unknown}
		for _, a := range agg {
			switch {
			case a.ID == mRecordsIn:
				vm.RecordsIn = finite(a.Sum)
			case a.ID == mRecordsOut:
				vm.RecordsOut = finite(a.Sum)
			case a.ID == mBusy:
				vm.Busy = clampRatio(finite(a.Max) / 1000)
			case a.ID == mBackpressure:
				vm.Backpressure = clampRatio(finite(a.Max) / 1000)
			case a.ID == mWatermark:
				// Long.MIN_VALUE (no watermark yet) and NaN are not watermarks.
				if wm := finite(a.Min); wm > 0 && !vm.Source {
					vm.WatermarkDelay = max(jmNow.Sub(time.UnixMilli(int64(wm))), 0)
				}
			case strings.HasSuffix(a.ID, "pendingRecords"):
				lags = append(lags, finite(a.Sum))
			case strings.HasSuffix(a.ID, "records-lag-max"):
				lagMax = append(lagMax, finite(a.Max))
			}
			for _, c := range vcharts {
				if v, ok := aggValue(a, c.Agg); ok && c.Agg != "" && c.Metric == a.ID {
					p.Charts[c.Key()] = v
				}
			}
		}
		m.vertices = append(m.vertices, vm)
	}
	if err := o.measureSubtasks(ctx, f, j.FlinkJobID, det, p.At, jmNow, charts, want.subtasks, &m, p.Charts); err != nil {
		return m, fmt.Errorf("measure %s: %w", j.Name, err)
	}
	p.RecordsIn, p.RecordsOut = 0, 0
	for _, vm := range m.vertices {
		if vm.Source {
			p.RecordsIn += vm.RecordsOut // what the sources emit is what the job takes in
		}
		if vm.Sink {
			p.RecordsOut += vm.RecordsIn
		}
		if vm.Backpressure > p.Backpressure || p.BackpressureVertex == "" {
			p.Backpressure, p.BackpressureVertex = vm.Backpressure, vm.Name
		}
		p.Busy = max(p.Busy, vm.Busy)
		p.WatermarkDelay = max(p.WatermarkDelay, vm.WatermarkDelay) // the lowest watermark is the largest delay
	}
	switch {
	case len(lags) > 0:
		p.Lag = metricSum(lags)
	case len(lagMax) > 0:
		p.Lag = metricMax(lagMax)
	}
	m.point = p
	return m, nil
}

// graphEnds finds the sources (vertices nothing feeds) and sinks (vertices
// that feed nothing) in the job's plan; without a plan, the first and last
// vertices, which Flink lists in topological order.
func graphEnds(det yarn.JobDetails) (sources, sinks map[string]bool) {
	sources, sinks = map[string]bool{}, map[string]bool{}
	var plan struct {
		Nodes []struct {
			ID     string `json:"id"`
			Inputs []struct {
				ID string `json:"id"`
			} `json:"inputs"`
		} `json:"nodes"`
	}
	if len(det.Plan) > 0 && json.Unmarshal(det.Plan, &plan) == nil && len(plan.Nodes) > 0 {
		fed := map[string]bool{}
		for _, n := range plan.Nodes {
			if len(n.Inputs) == 0 {
				sources[n.ID] = true
			}
			for _, in := range n.Inputs {
				fed[in.ID] = true
			}
		}
		for _, n := range plan.Nodes {
			if !fed[n.ID] {
				sinks[n.ID] = true
			}
		}
		return sources, sinks
	}
	if n := len(det.Vertices); n > 0 {
		sources[det.Vertices[0].ID] = true
		sinks[det.Vertices[n-1].ID] = true
	}
	return sources, sinks
}

// lagMetricNames picks the consumer-lag metrics among a source vertex's
// metric names: the FLIP-33 pendingRecords of new sources, and the Kafka
// consumer's records-lag-max.
func lagMetricNames(all []yarn.AggregatedMetric) []string {
	out := []string{}
	for _, a := range all {
		if strings.Contains(a.ID, ",") {
			continue // it could not be asked for in a get list
		}
		if strings.HasSuffix(a.ID, ".pendingRecords") || a.ID == "pendingRecords" || strings.HasSuffix(a.ID, "records-lag-max") {
			out = append(out, a.ID)
		}
	}
	return out
}

// failedInARow counts the newest checkpoints that failed, in-progress
// ones aside (history is newest first).
func failedInARow(history []yarn.Checkpoint) int {
	n := 0
	for _, c := range history {
		switch c.Status {
		case "FAILED":
			n++
		case "COMPLETED":
			return n
		}
	}
	return n
}

func finite(p *float64) float64 {
	if p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) {
		return 0
	}
	return *p
}

func clampRatio(r float64) float64 { return math.Min(math.Max(r, 0), 1) }

func metricSum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

func metricMax(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}
