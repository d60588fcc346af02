package cli

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// The diagnostic commands against a simulator, as a script and a person
// would read them.
func TestCLIDiagnosesAJob(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	// A slower clock: the last failure is read while the job is FAILING, before
	// its per-job cluster shuts down.
	e := newCLIEnv(t, sim.Options{Speed: 8, CheckpointInterval: 2 * time.Second}, nil)
	e.mustRun("job", "create", "--name", "orders", "--sql", writeTemp(t, "job.sql", e2eSQL))
	e.mustRun("job", "submit", "orders", "--wait")
	j := e.syncUntil("orders", "RUNNING with a Flink job id", func(j model.Job) bool { return j.State == model.StateRunning && j.FlinkJobID != "" })
	if err := e.sim.Diagnose(j.FlinkJobID, sim.Diagnosis{Bottleneck: 2, Pressure: 0.9, SkewVertex: 1, SkewSubtask: 0, SkewFactor: 8,
		SlowVertex: 2, SlowSubtask: 1, SlowCheckpoint: 2500 * time.Millisecond, FlameGraphs: true}); err != nil {
		t.Fatal(err)
	}

	// The graph: the table marks the bottleneck; JSON says which.
	var g api.JobGraph
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if err := decodeWire([]byte(e.mustRun("job", "graph", "orders", "-o", "json")), &g); err != nil {
			t.Fatal(err)
		}
		if g.Bottleneck == 2 && g.Vertices[1].Measured {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("graph never showed the bottleneck: %+v", g)
		}
	}
	out := e.mustRun("job", "graph", "orders")
	if !strings.Contains(out, "◀ bottleneck") || !strings.Contains(out, "0 → 1  HASH") || !strings.Contains(out, "bottleneck: "+g.Vertices[2].Name) {
		t.Errorf("graph table:\n%s", out)
	}

	// The skewed vertex, by a part of its name.
	name := g.Vertices[1].Name
	var vs []api.VertexDetail
	if err := decodeWire([]byte(e.mustRun("job", "vertices", "orders", strings.ToLower(name), "-o", "json")), &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0].Skew.Subtask != 0 || !vs[0].Subtasks[0].Hot {
		t.Fatalf("vertices -o json: %+v", vs)
	}
	out = e.mustRun("job", "vertices", "orders", "1")
	if !strings.Contains(out, "skew: ") || !strings.Contains(out, "◀ hot") {
		t.Errorf("vertex table:\n%s", out)
	}
	if _, err := e.run(t.Context(), "job", "vertices", "orders", "nosuchvertex"); err == nil || !strings.Contains(err.Error(), "no vertex") {
		t.Errorf("an unknown vertex: %v", err)
	}

	// Checkpoints, then the slow one.
	var cv api.CheckpointsView
	var slow int64
	for deadline := time.Now().Add(30 * time.Second); slow == 0; time.Sleep(200 * time.Millisecond) {
		if err := decodeWire([]byte(e.mustRun("job", "checkpoints", "orders", "-o", "json")), &cv); err != nil {
			t.Fatal(err)
		}
		for _, h := range cv.History {
			if h.Status == "COMPLETED" && h.Duration >= 2500*time.Millisecond {
				slow = h.ID
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no slow checkpoint: %+v", cv)
		}
	}
	if cv.Config == nil || cv.Config.Interval != 2*time.Second {
		t.Errorf("checkpoint config: %+v", cv.Config)
	}
	out = e.mustRun("job", "checkpoints", "orders", strconv.FormatInt(slow, 10))
	if !strings.Contains(out, "slow part: "+g.Vertices[2].Name+" subtask 1") || !strings.Contains(out, "◀ slow") {
		t.Errorf("checkpoint %d:\n%s", slow, out)
	}

	// TaskManagers, one with its thread dump.
	var tl api.TaskManagerList
	if err := decodeWire([]byte(e.mustRun("taskmanagers", "orders", "-o", "json")), &tl); err != nil || len(tl.TaskManagers) == 0 {
		t.Fatalf("taskmanagers: %+v %v", tl, err)
	}
	out = e.mustRun("taskmanagers", "orders", tl.TaskManagers[0].ID, "--thread-dump")
	if !strings.Contains(out, "thread dump: ") || !strings.Contains(out, "\tat ") || !strings.Contains(out, "GC G1_Young_Generation") {
		t.Errorf("taskmanager:\n%.2000s", out)
	}

	// A flame graph, waited for.
	out = e.mustRun("job", "flamegraph", "orders", "1", "--type", "ON_CPU", "--wait", "20s")
	if !strings.Contains(out, ": ready") || !strings.Contains(out, "hottest path:") || !strings.Contains(out, "StreamTask.invoke") {
		t.Errorf("flamegraph:\n%s", out)
	}

	// Container logs, read like any log.
	var cl api.ContainerLogList
	if err := decodeWire([]byte(e.mustRun("job", "container-logs", "orders", "-o", "json")), &cl); err != nil || len(cl.Containers) < 2 {
		t.Fatalf("container-logs: %+v %v", cl, err)
	}
	ref := fmt.Sprintf("yarn:%s:taskmanager.log", cl.Containers[1].ID)
	if out := e.mustRun("job", "container-logs", "orders"); !strings.Contains(out, ref) {
		t.Errorf("container-logs table lacks %s:\n%s", ref, out)
	}
	if out := e.mustRun("logs", "orders", ref, "--tail", "6"); !strings.Contains(out, " INFO  ") {
		t.Errorf("logs %s --tail 6:\n%s", ref, out)
	}
	save := filepath.Join(t.TempDir(), "tm.log")
	if out := e.mustRun("logs", "orders", ref, "--save", save); !strings.Contains(out, "saved ") {
		t.Errorf("logs --save: %s", out)
	}

	// Failed: the innermost cause first, after the application is gone.
	if err := e.sim.FailJob(j.FlinkJobID); err != nil {
		t.Fatal(err)
	}
	e.syncUntil("orders", "FAILED", func(j model.Job) bool { return j.State == model.StateFailed })
	var ex api.ExceptionHistory
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if err := decodeWire([]byte(e.mustRun("job", "exceptions", "orders", "-o", "json")), &ex); err != nil {
			t.Fatal(err)
		}
		if !ex.Live {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the application never ended")
		}
	}
	out = e.mustRun("job", "exceptions", "orders")
	first := strings.SplitN(out, "\n", 3)
	if len(ex.Entries) == 0 || !strings.HasSuffix(first[0], ex.Entries[0].RootCause) ||
		!strings.Contains(first[1], "wrapped in org.apache.flink.runtime.JobException: Recovery is suppressed") {
		t.Errorf("exceptions: the first line is not the innermost cause:\n%s", out)
	}
	if !strings.Contains(out, "kept by palink") {
		t.Errorf("exceptions after the end do not say they were kept:\n%s", out)
	}
}
