package core_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// A running job diagnosed from its graph down to a subtask, a checkpoint
// part, a TaskManager, a flame graph and its containers' logs; then
// failed, its causes read after its application ended; then a JobManager
// that stalls halfway, which the views survive with notes.
func TestDiagnoseAJobToItsCauses(t *testing.T) {
	// A slower clock: the last failure is read while the job is FAILING,
	// before its per-job cluster shuts down.
	e := coretest.New(t, sim.Options{Speed: 10, CheckpointInterval: 2 * time.Second}, func(cc *clusters.Spec) { cc.Timeout = 2 * time.Second })
	e.CreateSQL("orders")
	if c := e.Act("orders", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	j := e.SyncUntil("orders", "RUNNING with a Flink job id", func(j model.Job) bool { return coretest.Running(j) && j.FlinkJobID != "" })
	if err := e.Sim.Diagnose(j.FlinkJobID, sim.Diagnosis{Bottleneck: 2, Pressure: 0.9, SkewVertex: 1, SkewSubtask: 1, SkewFactor: 6,
		SlowVertex: 1, SlowSubtask: 0, SlowCheckpoint: 3 * time.Second}); err != nil {
		t.Fatal(err)
	}
	ctx := e.Ctx
	svc := e.Svc

	// The graph: its edges, the backpressured join, and the sink that
	// holds it back.
	var g api.JobGraph
	eventually(t, "a measured graph", func() bool {
		var err error
		g, err = svc.JobGraph(ctx, "orders")
		return err == nil && len(g.Vertices) == 3 && g.Vertices[1].Measured && g.Vertices[1].Backpressure > 0.5
	})
	if len(g.Edges) != 2 || g.Edges[0].ShipStrategy != "HASH" || g.Edges[1].ShipStrategy != "REBALANCE" || g.Cyclic ||
		g.Bottleneck != 2 || !strings.Contains(g.BottleneckWhy, g.Vertices[2].Name) || !g.Vertices[0].Source || !g.Vertices[2].Sink {
		t.Fatalf("graph: %+v", g)
	}

	// The hot subtask of the join.
	v, err := svc.Vertex(ctx, api.VertexRequest{JobRef: "orders", VertexID: g.Vertices[1].ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Subtasks) != 2 || v.Skew.Subtask != 1 || v.Skew.Ratio < 2 || !v.Subtasks[1].Hot || v.Subtasks[1].TaskManager == "" ||
		v.Subtasks[1].Host == "" || v.Subtasks[0].RecordsInPerSec == api.Unknown || v.Subtasks[0].Backpressure < 0.5 || len(v.Notes) != 0 {
		t.Fatalf("vertex: %+v", v)
	}
	// Read again a while later: the rates (and the skew) are those of the
	// span between the two reads, measured from the totals.
	eventually(t, "rates between two reads", func() bool {
		v2, err := svc.Vertex(ctx, api.VertexRequest{JobRef: "orders", VertexID: g.Vertices[1].ID})
		if err != nil || v2.RateWindow < time.Second {
			return false
		}
		if v2.Skew.Window != v2.RateWindow || v2.Skew.Of != "records in/s" || v2.Skew.Subtask != 1 || !v2.Subtasks[1].Hot ||
			v2.Subtasks[0].RecordsInPerSec <= 0 || v2.Subtasks[1].RecordsInPerSec < 2*v2.Subtasks[0].RecordsInPerSec {
			t.Fatalf("vertex read twice: %+v", v2)
		}
		return true
	})

	// A checkpoint that waited for the slow part.
	var slow api.CheckpointInfo
	eventually(t, "a slow checkpoint", func() bool {
		cps, err := svc.Checkpoints(ctx, "orders")
		if err != nil || cps.Config == nil || cps.Config.Interval != 2*time.Second || cps.Config.Mode != "EXACTLY_ONCE" {
			return false
		}
		for _, h := range cps.History {
			if h.Status == "COMPLETED" && h.Duration >= 3*time.Second {
				slow = h
				return true
			}
		}
		return false
	})
	cd, err := svc.Checkpoint(ctx, api.CheckpointRequest{JobRef: "orders", ID: slow.ID})
	if err != nil {
		t.Fatal(err)
	}
	if cd.SlowOperator != 1 || len(cd.Operators) != 3 || cd.Operators[1].Name != g.Vertices[1].Name ||
		!cd.Operators[1].Subtasks[0].Slow || cd.Operators[1].Subtasks[0].Async < 2*time.Second || cd.Operators[1].Subtasks[1].Slow {
		t.Fatalf("checkpoint %d: %+v", slow.ID, cd)
	}

	// TaskManagers, one in depth with its thread dump.
	tms, err := svc.TaskManagers(ctx, "orders")
	if err != nil || len(tms.TaskManagers) == 0 || !tms.TaskManagers[0].Detailed || tms.TaskManagers[0].GCCount <= 0 || tms.SlotsTotal < 2 {
		t.Fatalf("TaskManagers: %+v %v", tms, err)
	}
	tm, err := svc.TaskManager(ctx, api.TaskManagerRequest{JobRef: "orders", ID: v.Subtasks[1].TaskManager, ThreadDump: true})
	if err != nil || tm.ThreadDump == nil || len(tm.ThreadDump.Threads) < 3 || tm.ThreadDump.Threads[0].State == "" ||
		len(tm.GarbageCollectors) != 2 || len(tm.Jobs) != 1 || tm.Jobs[0] != j.FlinkJobID {
		t.Fatalf("TaskManager: %+v %v", tm, err)
	}
	conf, err := svc.FlinkConfig(ctx, "orders")
	if err != nil || len(conf.JobManager) == 0 || conf.Job.Parallelism != 2 || conf.FlameGraphs {
		t.Fatalf("config: %+v %v", conf, err)
	}

	// Flame graphs are off until the cluster enables them.
	fg, err := svc.FlameGraph(ctx, api.FlameGraphRequest{JobRef: "orders", VertexID: g.Vertices[1].ID, Subtask: -1})
	if err != nil || fg.Status != api.FlameDisabled || !strings.Contains(fg.Message, "rest.flamegraph.enabled") {
		t.Fatalf("flame graph while off: %+v %v", fg, err)
	}
	if err := e.Sim.Diagnose(j.FlinkJobID, sim.Diagnosis{FlameGraphs: true}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "a flame graph", func() bool {
		fg, err = svc.FlameGraph(ctx, api.FlameGraphRequest{JobRef: "orders", VertexID: g.Vertices[1].ID, Type: "on_cpu", Subtask: -1})
		return err == nil && fg.Status == api.FlameReady
	})
	if len(fg.Frames) < 5 || len(fg.HotPath) < 5 || fg.Frames[0].Name != "root" || fg.VertexName != g.Vertices[1].Name || fg.Type != api.FlameOnCPU {
		t.Fatalf("flame graph: %+v", fg)
	}

	// The containers' logs, from their NodeManager.
	cl, err := svc.ContainerLogs(ctx, "orders")
	if err != nil || cl.Aggregated || len(cl.Containers) < 2 || cl.Containers[0].Role != "JobManager" || len(cl.Notes) != 0 {
		t.Fatalf("container logs: %+v %v", cl, err)
	}
	tmLog := api.LogRef{Container: cl.Containers[1].ID, Name: "taskmanager.log"}
	ch, err := svc.ReadLog(ctx, api.LogRequest{JobRef: "orders", Log: tmLog, Tail: true, Limit: 1600})
	if err != nil || len(ch.Data) != 1600 || ch.Size <= 1600 {
		t.Fatalf("container log tail: %d bytes of %d, %v", len(ch.Data), ch.Size, err)
	}
	m, err := svc.FindInLog(ctx, api.LogSearch{JobRef: "orders", Log: tmLog, Query: api.LogQuery{Text: "checkpoint"}})
	if err != nil || !m.Found {
		t.Fatalf("search a container log: %+v %v", m, err)
	}

	// Failed for good: the application ends, and the causes stay.
	if err := e.Sim.FailJob(j.FlinkJobID); err != nil {
		t.Fatal(err)
	}
	failed := e.SyncUntil("orders", "FAILED", func(j model.Job) bool { return j.State == model.StateFailed })
	var ex api.ExceptionHistory
	eventually(t, "the application's end", func() bool {
		ex, err = svc.Exceptions(ctx, "orders")
		return err == nil && !ex.Live
	})
	if ex.Live || len(ex.Entries) < 2 || !ex.Entries[0].Stored || len(ex.Notes) == 0 {
		t.Fatalf("exceptions after the end: %+v", ex)
	}
	last := ex.Entries[0]
	if !strings.HasPrefix(last.Chain[0].String(), "org.apache.flink.runtime.JobException: Recovery is suppressed") ||
		len(last.Chain) < 2 || last.RootCause != last.Chain[len(last.Chain)-1].String() || failed.Diagnostics != last.RootCause {
		t.Errorf("the newest failure: root cause %q, chain %+v, job diagnostics %q", last.RootCause, last.Chain, failed.Diagnostics)
	}
	var task api.ExceptionEntry
	for _, en := range ex.Entries {
		if en.Task != "" {
			task = en
			break
		}
	}
	if task.TaskManager == "" || task.RootCause == "" {
		t.Fatalf("no task failure with its TaskManager: %+v", ex.Entries)
	}

	// The ended application's logs, from the log server, the failure in
	// the failing TaskManager's.
	eventually(t, "aggregated logs", func() bool {
		cl, err = svc.ContainerLogs(ctx, "orders")
		return err == nil && cl.Aggregated && len(cl.Containers) >= 2
	})
	found := false
	for _, c := range cl.Containers {
		found = found || c.ID == task.TaskManager
	}
	if !found {
		t.Fatalf("the failing TaskManager %s is not among %+v", task.TaskManager, cl.Containers)
	}
	m, err = svc.FindInLog(ctx, api.LogSearch{JobRef: "orders", Log: api.LogRef{Container: task.TaskManager, Name: "taskmanager.log"},
		Query: api.LogQuery{Text: task.Task + " switched from RUNNING to FAILED"}})
	if err != nil || !m.Found || !strings.Contains(m.Line, task.Task) {
		t.Fatalf("the failure in the TaskManager's aggregated log: %+v %v", m, err)
	}
	if _, err := svc.ReadLog(ctx, api.LogRequest{JobRef: "orders", Log: api.LogRef{Container: "container_e01_1_0001_01_000002", Name: "x.log"}}); err == nil {
		t.Error("a container of another application is read")
	}
	if _, err := svc.JobGraph(ctx, "orders"); err == nil || !strings.Contains(err.Error(), "its JobManager is gone") {
		t.Errorf("the graph of an ended job: %v", err)
	}
}

// A JobManager that stops answering halfway through the per-vertex reads:
// the graph comes back with its vertices, unmeasured, and notes that say
// so, within the budget.
func TestDiagnoseSurvivesAStallingJobManager(t *testing.T) {
	e := coretest.New(t, sim.Options{}, func(cc *clusters.Spec) { cc.Timeout = 500 * time.Millisecond })
	e.CreateSQL("orders")
	if c := e.Act("orders", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	j := e.SyncUntil("orders", "RUNNING with a Flink job id", func(j model.Job) bool { return coretest.Running(j) && j.FlinkJobID != "" })
	if err := e.Sim.Diagnose(j.FlinkJobID, sim.Diagnosis{JobManagerStall: 3 * time.Second}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(e.Ctx, 20*time.Second)
	defer cancel()
	start := time.Now()
	g, err := e.Svc.JobGraph(ctx, "orders")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Vertices) != 3 || g.Vertices[1].Measured || len(g.Notes) == 0 || !strings.Contains(g.Notes[0], "did not answer in time") {
		t.Fatalf("graph of a stalling JobManager: %+v", g)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the graph took %s", took)
	}
	if _, err := e.Svc.Vertex(ctx, api.VertexRequest{JobRef: "orders", VertexID: g.Vertices[1].ID}); err == nil {
		t.Error("a vertex whose details never come shows anyway")
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
