package cli

import (
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// The metric browser's commands against a simulator: the names Flink
// exposes of a job, a vertex and a TaskManager, values read by name, and
// charts added to the job's Metrics tab, listed and removed.
func TestCLIMetricsAndCharts(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	e := newCLIEnv(t, sim.Options{}, nil)
	e.mustRun("job", "create", "--name", "orders", "--sql", writeTemp(t, "job.sql", e2eSQL))
	e.mustRun("job", "submit", "orders", "--wait")
	e.syncUntil("orders", "RUNNING with a Flink job id", func(j model.Job) bool { return j.State == model.StateRunning && j.FlinkJobID != "" })

	out := e.mustRun("job", "metrics", "orders")
	if !strings.Contains(out, "numRestarts") || !strings.Contains(out, "lastCheckpointDuration") {
		t.Fatalf("job metrics:\n%s", out)
	}
	var l api.FlinkMetricList
	if err := decodeWire([]byte(e.mustRun("job", "metrics", "orders", "--vertex", "1", "--get", "busyTimeMsPerSecond,0.numRecordsIn", "-o", "json")), &l); err != nil {
		t.Fatal(err)
	}
	if l.Scope != model.MetricScopeVertex || len(l.Metrics) != 2 || l.Metrics[0].Agg == nil || l.Metrics[1].Subtask != 0 || l.Metrics[1].Value == "" {
		t.Fatalf("vertex values: %+v", l)
	}
	var tms api.TaskManagerList
	if err := decodeWire([]byte(e.mustRun("taskmanagers", "orders", "-o", "json")), &tms); err != nil || len(tms.TaskManagers) == 0 {
		t.Fatalf("TaskManagers: %+v %v", tms, err)
	}
	out = e.mustRun("job", "metrics", "orders", "--taskmanager", tms.TaskManagers[0].ID, "--get", "Status.JVM.Memory.Heap.Used")
	if !strings.Contains(out, "Status.JVM.Memory.Heap.Used") {
		t.Errorf("TaskManager metric:\n%s", out)
	}

	e.mustRun("job", "chart", "orders", "numberOfFailedCheckpoints")
	e.mustRun("job", "chart", "orders", "busyTimeMsPerSecond", "--vertex", "1", "--agg", "max")
	var cs []model.MetricChart
	if err := decodeWire([]byte(e.mustRun("job", "chart", "orders", "-o", "json")), &cs); err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[1].Agg != model.AggMax || cs[1].VertexName == "" || cs[0].AddedBy == "" {
		t.Fatalf("charts: %+v", cs)
	}
	out = e.mustRun("job", "metrics", "orders", "--vertex", "1")
	if !strings.Contains(out, "charted max") {
		t.Errorf("the vertex's list does not mark its chart:\n%s", out)
	}
	out = e.mustRun("job", "chart", "orders", "busyTimeMsPerSecond", "--vertex", "1", "--rm")
	if strings.Contains(out, "busyTimeMsPerSecond") || !strings.Contains(out, "numberOfFailedCheckpoints") {
		t.Errorf("after --rm:\n%s", out)
	}
	if _, err := e.run(t.Context(), "job", "chart", "orders", "busyTimeMsPerSecond", "--vertex", "1", "--rm"); exitCodeOf(err) != 3 {
		t.Errorf("removing a chart that is not there: exit %d (%v), want 3 (not found)", exitCodeOf(err), err)
	}
	if _, err := e.run(t.Context(), "job", "metrics", "orders", "--vertex", "1", "--taskmanager", "x"); exitCode(err) != 2 {
		t.Errorf("--vertex and --taskmanager: exit %d (%v), want 2", exitCode(err), err)
	}
}
