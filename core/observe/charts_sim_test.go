package observe

import (
	"context"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// shownJob is a running job of a small fleet with its Flink job's vertices
// and TaskManagers, read through the uncounted path.
func shownJob(t *testing.T, f *fleetEnv) (model.Job, yarn.JobDetails, []yarn.TaskManager) {
	t.Helper()
	ctx := context.Background()
	j := f.jobs[firstRunning(f, f.page(0, len(f.jobs)))]
	fl, err := f.svc.clusters["sim"].Flink(jobApplication(j))
	if err != nil {
		t.Fatal(err)
	}
	det, err := fl.Job(ctx, j.FlinkJobID)
	if err != nil {
		t.Fatal(err)
	}
	tms, err := fl.TaskManagers(ctx)
	if err != nil || len(tms) == 0 || len(det.Vertices) < 3 {
		t.Fatalf("job %s: %d vertices, TaskManagers %v (%v)", j.Name, len(det.Vertices), tms, err)
	}
	f.counter.take()
	return j, det, tms
}

func setCharts(t *testing.T, f *fleetEnv, id string, cs []model.MetricChart) {
	t.Helper()
	err := f.st.Update(context.Background(), func(tx store.Tx) error {
		j, err := tx.Job(id)
		if err != nil {
			return err
		}
		j.Charts = cs
		return tx.PutJob(j)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestChartsAreReadWhileTheJobIsShownInDepth: the metrics people charted
// are read with the job's own figures while a client shows it in depth — a
// job's and a vertex's aggregates in the requests made anyway, a subtask's
// in one more request for its vertex, a TaskManager's in one for it — and
// not at all while the job is only a row of the table.
func TestChartsAreReadWhileTheJobIsShownInDepth(t *testing.T) {
	f := newFleet(t, 20, nil)
	ctx := context.Background()
	j, det, tms := shownJob(t, f)
	src, sink := det.Vertices[0], det.Vertices[len(det.Vertices)-1]
	charts := []model.MetricChart{
		{Scope: model.MetricScopeJob, Metric: "numberOfCompletedCheckpoints"},
		{Scope: model.MetricScopeVertex, VertexID: src.ID, VertexName: src.Name, Metric: "numRecordsOutPerSecond", Agg: model.AggSum},
		{Scope: model.MetricScopeVertex, VertexID: sink.ID, VertexName: sink.Name, Metric: "1.busyTimeMsPerSecond"},
		{Scope: model.MetricScopeTaskManager, TaskManager: tms[0].ID, Metric: "Status.JVM.Memory.Heap.Used"},
	}
	setCharts(t, f, j.ID, charts)

	// Only a row of the table: what every row costs, no chart read.
	if err := f.svc.SetInterest(ctx, api.InterestRequest{Client: "tui", Jobs: []string{j.ID}}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.collectOnce(ctx, true); err != nil {
		t.Fatal(err)
	}
	if _, all := f.counter.take(); all != 6+1 { // + the listing of the source's metric names
		t.Fatalf("a row: %d requests, want 7", all)
	}
	f.clock.advance(5 * time.Second)

	// In depth: the overview, one request for the sink's subtask metric,
	// one for the TaskManager.
	if err := f.svc.SetInterest(ctx, api.InterestRequest{Client: "tui", Detail: j.ID}); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 2; round++ {
		if _, err := f.svc.collectOnce(ctx, true); err != nil {
			t.Fatal(err)
		}
		if _, all := f.counter.take(); all != 6+1+1+1 {
			t.Fatalf("round %d in depth: %d requests, want 9", round+1, all)
		}
		f.clock.advance(5 * time.Second)
	}
	s, err := f.svc.JobMetrics(ctx, j.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Charts) != len(charts) {
		t.Fatalf("series names %d charts, want %d", len(s.Charts), len(charts))
	}
	p := s.Latest()
	for _, c := range charts {
		if _, ok := p.Charts[c.Key()]; !ok {
			t.Errorf("no value of %s in the latest point %v", c.Key(), p.Charts)
		}
	}
	if got, want := p.Charts[charts[1].Key()], s.Vertices[0].RecordsOut; got != want || got <= 0 {
		t.Errorf("the source's records out summed: chart %v, the vertex's own figure %v", got, want)
	}
	if v := p.Charts[charts[0].Key()]; v < 1 {
		t.Errorf("completed checkpoints %v", v)
	}
	if v := p.Charts[charts[2].Key()]; v <= 0 || v > 1000 {
		t.Errorf("subtask 1's busy time %v ms/s", v)
	}
	if v := p.Charts[charts[3].Key()]; v <= 0 {
		t.Errorf("heap used %v", v)
	}
	// The points of the round in the table alone have no chart values.
	if len(s.Recent) != 3 || len(s.Recent[0].Charts) != 0 {
		t.Errorf("%d points; the first (a row only) has chart values %v", len(s.Recent), s.Recent[0].Charts)
	}
}

// TestSubtaskHistoryFollowsTheVertexOnScreen: while a client shows a
// vertex, each round samples the backpressure and watermark of the
// subtasks on its screen, in one more request; once it stops, no request
// is made for them, and the history goes after its span.
func TestSubtaskHistoryFollowsTheVertexOnScreen(t *testing.T) {
	f := newFleet(t, 20, nil)
	ctx := context.Background()
	j, det, _ := shownJob(t, f)
	mid := det.Vertices[1]
	if mid.Parallelism < 2 {
		t.Fatalf("vertex %s has parallelism %d", mid.Name, mid.Parallelism)
	}
	shown := api.InterestRequest{Client: "tui", Detail: j.ID, Vertex: api.VertexInterest{JobID: j.ID, VertexID: mid.ID, From: 0, To: 2}}
	const base = 6 + 1 // a job in depth
	for round := 0; round < 3; round++ {
		if err := f.svc.SetInterest(ctx, shown); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.collectOnce(ctx, true); err != nil {
			t.Fatal(err)
		}
		want := base + 1
		if round == 0 {
			want++ // the source's metric names, once
		}
		if _, all := f.counter.take(); all != want {
			t.Fatalf("round %d: %d requests, want %d", round+1, all, want)
		}
		f.clock.advance(5 * time.Second)
	}
	h, err := f.svc.SubtaskHistory(ctx, api.VertexRequest{JobRef: j.Name, VertexID: mid.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Subtasks) != 2 || h.Subtasks[0].Index != 0 || h.Subtasks[1].Index != 1 || h.LastError != "" {
		t.Fatalf("history: %+v", h)
	}
	for _, st := range h.Subtasks {
		if len(st.Samples) != 3 {
			t.Fatalf("subtask %d: %d samples, want 3", st.Index, len(st.Samples))
		}
		for _, x := range st.Samples {
			if x.Backpressure < 0 || x.Backpressure > 1 || x.WatermarkDelay < time.Second || x.WatermarkDelay > 3*time.Minute {
				t.Errorf("subtask %d at %s: backpressure %v, watermark delay %v", st.Index, x.At, x.Backpressure, x.WatermarkDelay)
			}
		}
	}

	// The view closed (the detail stays): no request for the subtasks.
	if err := f.svc.SetInterest(ctx, api.InterestRequest{Client: "tui", Detail: j.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.collectOnce(ctx, true); err != nil {
		t.Fatal(err)
	}
	if _, all := f.counter.take(); all != base {
		t.Fatalf("the vertex closed: %d requests, want %d", all, base)
	}
	f.clock.advance(recentSpan)
	if err := f.svc.SetInterest(ctx, api.InterestRequest{Client: "tui", Detail: j.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.collectOnce(ctx, true); err != nil {
		t.Fatal(err)
	}
	if h, _ := f.svc.SubtaskHistory(ctx, api.VertexRequest{JobRef: j.ID, VertexID: mid.ID}); len(h.Subtasks) != 0 {
		t.Errorf("%s after the vertex closed, its history is still kept: %+v", recentSpan, h.Subtasks)
	}
}
