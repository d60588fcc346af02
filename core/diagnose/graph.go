package diagnose

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/yarn"
)

// The task metrics a graph reads per vertex, aggregated over its subtasks
// in one request (agg=sum,max,min).
const (
	mRecordsIn    = "numRecordsInPerSecond"
	mRecordsOut   = "numRecordsOutPerSecond"
	mBusy         = "busyTimeMsPerSecond"
	mBackpressure = "backPressuredTimeMsPerSecond"
	mIdle         = "idleTimeMsPerSecond"
	mWatermark    = "currentInputWatermark"
)

var graphMetrics = []string{mRecordsIn, mRecordsOut, mBusy, mBackpressure, mIdle, mWatermark}

// Thresholds of Flink's back pressure levels (ok ≤ 10% < low ≤ 50% < high).
const backpressured = 0.1

// saturated is the busy ratio from which a vertex is the bottleneck even
// with no back pressure upstream of it yet.
const saturated = 0.9

// MaxGraphVertices caps the vertices whose figures one graph reads.
const MaxGraphVertices = 500

// JobGraph implements api.DiagnoseService.
func (rd *Inspector) JobGraph(ctx context.Context, ref string) (api.JobGraph, error) {
	t, err := rd.live(ctx, ref, "job graph")
	if err != nil {
		return api.JobGraph{}, err
	}
	g := api.JobGraph{JobID: t.job.ID, JobName: t.job.Name, FlinkJobID: t.job.FlinkJobID, FetchedAt: rd.now(), Bottleneck: -1}
	det, err := t.flink.Job(ctx, t.job.FlinkJobID)
	if err != nil {
		return g, fmt.Errorf("job graph of %s: %w", t.job.Name, err)
	}
	g.FlinkState = det.State
	plan, err := yarn.ParsePlan(det.Plan)
	if err != nil || len(plan.Nodes) == 0 {
		// Older servers, or a plan the details did not carry: ask for it.
		if plan, err = t.flink.Plan(ctx, t.job.FlinkJobID); err != nil {
			g.Notes = append(g.Notes, "plan: "+shortCause(err)+": the edges are not known")
		}
	}
	figures := make([]*vertexFigures, len(det.Vertices))
	if det.State == yarn.JobRunning {
		n := min(len(det.Vertices), MaxGraphVertices)
		errs := rd.fanOut(ctx, n, func(ctx context.Context, i int) error {
			agg, err := t.flink.SubtaskMetrics(ctx, t.job.FlinkJobID, det.Vertices[i].ID, graphMetrics, []string{"sum", "max", "min"})
			if err != nil {
				return err
			}
			figures[i] = readFigures(agg)
			return nil
		})
		g.Notes = append(g.Notes, failureNotes("figures", errs, func(i int) string { return det.Vertices[i].Name })...)
		if len(det.Vertices) > n {
			g.Notes = append(g.Notes, fmt.Sprintf("figures of %d vertices beyond the first %d not read", len(det.Vertices)-n, n))
		}
	} else {
		g.Notes = append(g.Notes, "the job is "+det.State+": no task runs, so no figures")
	}
	jmNow := rd.now()
	if det.Now > 0 {
		jmNow = time.UnixMilli(det.Now)
	}
	buildGraph(&g, det, plan, figures, jmNow)
	return g, nil
}

// vertexFigures are one vertex's aggregated task metrics.
type vertexFigures struct {
	in, out, busy, bp, idle float64
	watermark               float64 // the lowest; NaN for none
}

func readFigures(agg []yarn.AggregatedMetric) *vertexFigures {
	f := &vertexFigures{in: api.Unknown, out: api.Unknown, busy: api.Unknown, bp: api.Unknown, idle: api.Unknown, watermark: math.NaN()}
	for _, a := range agg {
		switch a.ID {
		case mRecordsIn:
			f.in = finite(a.Sum, api.Unknown)
		case mRecordsOut:
			f.out = finite(a.Sum, api.Unknown)
		case mBusy:
			f.busy = ratio(a.Max)
		case mBackpressure:
			f.bp = ratio(a.Max)
		case mIdle:
			f.idle = ratio(a.Max)
		case mWatermark:
			f.watermark = finite(a.Min, math.NaN())
		}
	}
	return f
}

func finite(p *float64, otherwise float64) float64 {
	if p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) {
		return otherwise
	}
	return *p
}

// ratio turns ms per second into 0..1 (Unknown when missing).
func ratio(p *float64) float64 {
	v := finite(p, api.Unknown)
	if v < 0 {
		return api.Unknown
	}
	return math.Min(v/1000, 1)
}

// buildGraph fills g's vertices, edges and bottleneck from the job's
// details, its plan and the figures read (nil for a vertex not measured).
// Vertices follow the details' order; the plan's edges that refer to no
// listed vertex are dropped with a note.
func buildGraph(g *api.JobGraph, det yarn.JobDetails, plan yarn.JobPlan, figures []*vertexFigures, jmNow time.Time) {
	index := map[string]int{}
	for i, v := range det.Vertices {
		index[v.ID] = i
		gv := api.GraphVertex{ID: v.ID, Name: v.Name, Parallelism: v.Parallelism, State: v.Status,
			RecordsIn: api.Unknown, RecordsOut: api.Unknown, Busy: api.Unknown, Backpressure: api.Unknown, Idle: api.Unknown,
			WatermarkDelay: api.Unknown}
		if i < len(figures) && figures[i] != nil {
			f := figures[i]
			gv.Measured = true
			gv.RecordsIn, gv.RecordsOut, gv.Busy, gv.Backpressure, gv.Idle = f.in, f.out, f.busy, f.bp, f.idle
			// Long.MIN_VALUE (no watermark yet) and NaN are not watermarks.
			if f.watermark > 0 {
				gv.Watermark = time.UnixMilli(int64(f.watermark))
				gv.WatermarkDelay = max(jmNow.Sub(gv.Watermark), 0)
			}
		}
		g.Vertices = append(g.Vertices, gv)
	}
	fed, feeds := make([]bool, len(det.Vertices)), make([]bool, len(det.Vertices))
	dropped := 0
	for _, n := range plan.Nodes {
		to, ok := index[n.ID]
		if !ok {
			dropped += len(n.Inputs)
			continue
		}
		for _, in := range n.Inputs {
			from, ok := index[in.ID]
			if !ok {
				dropped++
				continue
			}
			e := api.GraphEdge{From: from, To: to, ShipStrategy: in.ShipStrategy, Feedback: from >= to}
			g.Cyclic = g.Cyclic || e.Feedback
			g.Edges = append(g.Edges, e)
			// A vertex that only feeds back (an iteration's tail) is no
			// sink; one fed only by feedback is still a source.
			feeds[from] = true
			if !e.Feedback {
				fed[to] = true
			}
		}
	}
	if dropped > 0 {
		g.Notes = append(g.Notes, fmt.Sprintf("%d edges of the plan refer to vertices the job does not list", dropped))
	}
	haveEdges := len(g.Edges) > 0
	for i := range g.Vertices {
		if haveEdges {
			g.Vertices[i].Source, g.Vertices[i].Sink = !fed[i], !feeds[i]
		} else { // no plan: Flink lists vertices in topological order
			g.Vertices[i].Source, g.Vertices[i].Sink = i == 0, i == len(g.Vertices)-1
		}
	}
	g.Bottleneck, g.BottleneckWhy = bottleneck(g.Vertices, g.Edges)
}

// bottleneck finds the vertex that holds the job back: among the vertices
// not backpressured themselves that read from a backpressured one (the
// place where back pressure stops), the busiest. Without one, a sink that
// is backpressured itself (its external system is slow). -1 when nothing
// is backpressured.
func bottleneck(vs []api.GraphVertex, es []api.GraphEdge) (int, string) {
	pressed := func(i int) bool { return vs[i].Measured && vs[i].Backpressure >= backpressured }
	best, bestFrom := -1, -1
	for _, e := range es {
		to := e.To
		if !pressed(e.From) || !vs[to].Measured || pressed(to) {
			continue
		}
		if best < 0 || vs[to].Busy > vs[best].Busy || vs[to].Busy == vs[best].Busy && vs[e.From].Backpressure > vs[bestFrom].Backpressure {
			best, bestFrom = to, e.From
		}
	}
	if best >= 0 {
		return best, fmt.Sprintf("%s is busy %s of the time and %s upstream of it is backpressured %s",
			vs[best].Name, pct(vs[best].Busy), vs[bestFrom].Name, pct(vs[bestFrom].Backpressure))
	}
	for i := range vs {
		if pressed(i) && vs[i].Sink {
			return i, fmt.Sprintf("%s is backpressured %s with nothing downstream of it: what it writes to does not keep up",
				vs[i].Name, pct(vs[i].Backpressure))
		}
	}
	// A vertex busy nearly all the time sets the job's pace before any
	// back pressure has built up upstream of it (or where Flink cannot
	// see it, as in a chained source).
	busiest := -1
	for i, v := range vs {
		if v.Measured && v.Busy >= saturated && !pressed(i) && (busiest < 0 || v.Busy > vs[busiest].Busy) {
			busiest = i
		}
	}
	if busiest >= 0 {
		return busiest, fmt.Sprintf("%s is busy %s: the job runs at this vertex's speed", vs[busiest].Name, pct(vs[busiest].Busy))
	}
	for i := range vs {
		if pressed(i) {
			return -1, "back pressure without a vertex that stops it (the graph's edges are not known)"
		}
	}
	return -1, "no vertex is backpressured, and none is busy 90% of the time"
}

func pct(r float64) string {
	if r < 0 {
		return "?"
	}
	return fmt.Sprintf("%.0f%%", r*100)
}
