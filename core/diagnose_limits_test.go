package core_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/diagnose"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// Vertices by the hundred with an iteration and strategies nobody knows,
// one vertex of parallelism 1,000 on 500 TaskManagers, a 50k-frame flame
// graph and a 20 MB thread dump: every view answers, bounded, and says
// what it left out.
func TestDiagnoseAtTheLimits(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	e.CreateSQL("big")
	if c := e.Act("big", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	j := e.SyncUntil("big", "RUNNING with a Flink job id", func(j model.Job) bool { return coretest.Running(j) && j.FlinkJobID != "" })
	g := sim.Graph{}
	const n = 200
	for i := 0; i < n; i++ {
		v := sim.GraphVertex{Name: fmt.Sprintf("Map[%d]", i+1), Parallelism: 2}
		if i > 0 {
			v.Inputs = []sim.GraphInput{{From: (i - 1) / 2, ShipStrategy: []string{"HASH", "FORWARD", "PARTIAL_RANDOM_SHUFFLE"}[i%3]}}
		}
		g.Vertices = append(g.Vertices, v)
	}
	g.Vertices[10].Inputs = append(g.Vertices[10].Inputs, sim.GraphInput{From: 40, ShipStrategy: "FEEDBACK"})
	g.Vertices[150].Parallelism = 1000
	if err := e.Sim.SetJobGraph(j.FlinkJobID, g); err != nil {
		t.Fatal(err)
	}
	if err := e.Sim.Diagnose(j.FlinkJobID, sim.Diagnosis{FlameGraphs: true, FlameFrames: 50_000, ThreadDumpBytes: 20 << 20}); err != nil {
		t.Fatal(err)
	}
	ctx := e.Ctx
	svc := e.Svc

	start := time.Now()
	gr, err := svc.JobGraph(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	measured := 0
	for _, v := range gr.Vertices {
		if v.Measured {
			measured++
		}
	}
	if len(gr.Vertices) != n || len(gr.Edges) != n || !gr.Cyclic || measured != n || len(gr.Notes) != 0 {
		t.Fatalf("graph of %d vertices: %d vertices, %d edges, cyclic %v, %d measured, notes %q", n, len(gr.Vertices), len(gr.Edges), gr.Cyclic, measured, gr.Notes)
	}
	if gr.Edges[len(gr.Edges)-1].ShipStrategy == "" {
		t.Error("an unknown strategy is dropped")
	}
	t.Logf("graph of %d vertices in %s", n, time.Since(start).Round(time.Millisecond))

	start = time.Now()
	v, err := svc.Vertex(ctx, api.VertexRequest{JobRef: "big", VertexID: gr.Vertices[150].ID})
	if err != nil {
		t.Fatal(err)
	}
	rates := 0
	for _, s := range v.Subtasks {
		if s.RecordsInPerSec != api.Unknown {
			rates++
		}
	}
	if len(v.Subtasks) != 1000 || rates != 1000 || v.Subtasks[999].TaskManager == "" || len(v.Notes) != 0 {
		t.Fatalf("a vertex of parallelism 1000: %d subtasks, %d with rates, notes %q", len(v.Subtasks), rates, v.Notes)
	}
	t.Logf("vertex of parallelism 1000 in %s", time.Since(start).Round(time.Millisecond))

	tms, err := svc.TaskManagers(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	detailed := 0
	for _, tm := range tms.TaskManagers {
		if tm.Detailed {
			detailed++
		}
	}
	if len(tms.TaskManagers) != 500 || detailed != diagnose.MaxDetailedTaskManagers || len(tms.Notes) != 1 ||
		!strings.Contains(tms.Notes[0], "beyond the first 256") {
		t.Fatalf("500 TaskManagers: %d listed, %d detailed, notes %q", len(tms.TaskManagers), detailed, tms.Notes)
	}

	var fg api.FlameGraph
	eventually(t, "a 50k-frame flame graph", func() bool {
		fg, err = svc.FlameGraph(ctx, api.FlameGraphRequest{JobRef: "big", VertexID: gr.Vertices[3].ID, Subtask: -1})
		return err == nil && fg.Status == api.FlameReady
	})
	if len(fg.Frames) < 50_000 || fg.Truncated || len(fg.HotPath) < 10 {
		t.Fatalf("flame graph: %d frames, truncated %v (%s), hot path %d", len(fg.Frames), fg.Truncated, fg.TruncatedWhy, len(fg.HotPath))
	}

	tm, err := svc.TaskManager(ctx, api.TaskManagerRequest{JobRef: "big", ID: tms.TaskManagers[0].ID, ThreadDump: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := tm.ThreadDump; d == nil || !d.Truncated || d.Bytes > 8<<20 || len(d.Threads) < 100 {
		t.Fatalf("a 20 MB thread dump: read %v, notes %q", tm.ThreadDump != nil, tm.Notes)
	}
}
