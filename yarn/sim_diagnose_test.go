package yarn_test

import (
	"strings"
	"testing"

	"github.com/palink/palink/yarn"
	"github.com/palink/palink/yarn/sim"
)

// The diagnostic clients against the simulator: every read of a running
// job, then the containers' logs from the NodeManager while it runs and
// from the log server once it ended.
func TestSimDiagnosticReadsAndContainerLogs(t *testing.T) {
	c := fastSim(t, 1)
	s := clientsFor(t, c)
	out, err := c.Submit(bounded(t), sim.SubmitRequest{Name: "diag", Parallelism: 3,
		Config: map[string]string{"rest.flamegraph.enabled": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	app := s.runningApp(t, out.AppID)
	f, err := s.root.ForApplication(app, false)
	if err != nil {
		t.Fatal(err)
	}
	var cps yarn.CheckpointStats
	eventually(t, "a completed checkpoint", func() bool {
		cps, err = f.Checkpoints(bounded(t), out.JobID)
		return err == nil && cps.Counts.Completed > 0 && cps.History[0].Status == "COMPLETED"
	})
	plan, err := f.Plan(bounded(t), out.JobID)
	if err != nil || len(plan.Nodes) != 3 || plan.Nodes[1].Inputs[0].ShipStrategy != "HASH" {
		t.Fatalf("plan: %+v %v", plan, err)
	}
	v, err := f.Vertex(bounded(t), out.JobID, plan.Nodes[1].ID)
	if err != nil || len(v.Subtasks) != 3 || v.Subtasks[2].TaskManagerID == "" || v.Subtasks[2].HostName() == "" {
		t.Fatalf("vertex: %+v %v", v, err)
	}
	cp, err := f.CheckpointDetails(bounded(t), out.JobID, cps.History[0].ID)
	if err != nil || len(cp.Tasks) != 3 || cp.Tasks[plan.Nodes[1].ID].NumSubtasks != 3 {
		t.Fatalf("checkpoint details: %+v %v", cp, err)
	}
	parts, err := f.CheckpointSubtasks(bounded(t), out.JobID, cp.ID, plan.Nodes[1].ID)
	if err != nil || len(parts.Subtasks) != 3 || !parts.Subtasks[0].Completed() || parts.Summary.EndToEndDuration.Max <= 0 {
		t.Fatalf("checkpoint parts: %+v %v", parts, err)
	}
	tms, err := f.TaskManagers(bounded(t))
	if err != nil || len(tms) != 2 {
		t.Fatalf("TaskManagers: %+v %v", tms, err)
	}
	tm, err := f.TaskManager(bounded(t), tms[0].ID)
	if err != nil || len(tm.Metrics.GarbageCollectors) != 2 || tm.Metrics.HeapUsed <= 0 || tm.Host() == "" {
		t.Fatalf("TaskManager: %+v %v", tm, err)
	}
	td, err := f.ThreadDump(bounded(t), tms[0].ID, 0)
	if err != nil || td.Truncated || len(td.Threads) < 3 {
		t.Fatalf("thread dump: %+v %v", td, err)
	}
	jc, err := f.JobConfig(bounded(t), out.JobID)
	if err != nil || jc.JobID != out.JobID || jc.ExecutionConfig.JobParallelism != 3 {
		t.Fatalf("job config: %+v %v", jc, err)
	}
	conf, err := f.JobManagerConfig(bounded(t))
	if err != nil || len(conf) == 0 {
		t.Fatalf("JobManager config: %+v %v", conf, err)
	}
	var fg yarn.FlameGraph
	eventually(t, "a flame graph", func() bool {
		fg, err = f.FlameGraph(bounded(t), out.JobID, plan.Nodes[1].ID, yarn.FlameGraphRequest{Type: yarn.FlameOnCPU, Subtask: -1})
		return err == nil && fg.Status == yarn.FlameReady
	})
	invoke := false
	for _, fr := range fg.Frames {
		invoke = invoke || strings.HasPrefix(fr.Name, "org.apache.flink.streaming.runtime.tasks.StreamTask.invoke:")
	}
	if len(fg.Frames) < 5 || fg.Frames[0].Name != "root" || fg.Frames[0].Value <= 0 || !invoke {
		t.Fatalf("flame graph: %+v", fg)
	}

	// The running containers' logs, on their NodeManager.
	atts, err := s.rm.AppAttempts(bounded(t), out.AppID)
	if err != nil || len(atts) != 1 {
		t.Fatalf("attempts: %+v %v", atts, err)
	}
	conts, err := s.rm.AttemptContainers(bounded(t), out.AppID, atts[0].ID)
	if err != nil || len(conts) != 3 {
		t.Fatalf("containers: %+v %v", conts, err)
	}
	nm, err := yarn.NewContainerLogs(yarn.NodeManagerBase(conts[1].NodeHTTPAddress), quick())
	if err != nil {
		t.Fatal(err)
	}
	files, err := nm.Files(bounded(t), conts[1].ContainerID, "")
	if err != nil || len(files) != 1 || files[0].Aggregation != yarn.LogLocal || len(files[0].Files) < 3 {
		t.Fatalf("NodeManager files: %+v %v", files, err)
	}
	tail, err := nm.Read(bounded(t), yarn.ContainerLogRead{ContainerID: conts[1].ContainerID, File: "taskmanager.log", Tail: true, Limit: 1600})
	if err != nil || len(tail.Data) != 1600 || tail.Size != 256<<10/160*160 || !strings.HasSuffix(string(tail.Data), "\n") {
		t.Fatalf("NodeManager tail: %d bytes of %d, %v", len(tail.Data), tail.Size, err)
	}

	// Stopped: the application ends, and the log server has its logs.
	if _, err := f.StopWithSavepoint(bounded(t), out.JobID, yarn.StopRequest{TargetDirectory: "hdfs:///sp"}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the application FINISHED", func() bool {
		a, err := s.rm.Application(bounded(t), out.AppID)
		return err == nil && a.State == yarn.AppFinished
	})
	base, err := s.rm.ConfValue(bounded(t), yarn.ConfLogServerWebService)
	if err != nil || base != c.LogServerURL() {
		t.Fatalf("log server %q, %v", base, err)
	}
	ls, err := nm.WithBase(base)
	if err != nil {
		t.Fatal(err)
	}
	files, err = ls.Files(bounded(t), conts[1].ContainerID, conts[1].NodeID)
	if err != nil || files[0].Aggregation != yarn.LogAggregated {
		t.Fatalf("log server files: %+v %v", files, err)
	}
	// The NodeManager sends a client of an ended application there too.
	again, err := nm.Read(bounded(t), yarn.ContainerLogRead{ContainerID: conts[1].ContainerID, File: "taskmanager.log", Offset: 160, Limit: 320})
	if err != nil || again.Offset != 160 || len(again.Data) != 320 {
		t.Fatalf("redirected read: %+v %v", again, err)
	}
	if _, err := s.rm.ConfValue(bounded(t), "no.such.key"); err == nil {
		t.Error("a key that is not set has a value")
	}
}
