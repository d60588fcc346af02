package sim

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// runningJob submits a job and waits until it runs with a checkpoint.
func runningJob(t *testing.T, c *Cluster, r SubmitRequest) (jm, jid, appID string) {
	t.Helper()
	out, err := c.Submit(t.Context(), r)
	if err != nil {
		t.Fatal(err)
	}
	var app appJSON
	eventually(t, "app RUNNING", func() bool { app = rmApp(t, c, out.AppID); return app.AMRPCAddress != "" })
	jm = "http://" + app.AMRPCAddress
	eventually(t, "a checkpoint", func() bool {
		var cps jobCheckpoints
		mustJSON(t, "GET", jm+"/jobs/"+out.JobID+"/checkpoints", nil, 200, &cps)
		return cps.Counts.Completed >= 1 && jobStatus(t, jm, out.JobID) == "RUNNING"
	})
	return jm, out.JobID, out.AppID
}

type vertexIDs struct {
	Vertices []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"vertices"`
}

func TestDiagnosisShapesSkewBottleneckAndSlowCheckpoint(t *testing.T) {
	c := startCluster(t, fastOptions())
	jm, jid, _ := runningJob(t, c, SubmitRequest{Name: "skewed", Parallelism: 4})
	if err := c.Diagnose(jid, Diagnosis{Bottleneck: 2, Pressure: 0.9, SkewVertex: 1, SkewSubtask: 2, SkewFactor: 6,
		SlowVertex: 1, SlowSubtask: 3, SlowCheckpoint: 4 * time.Second}); err != nil {
		t.Fatal(err)
	}
	var det vertexIDs
	mustJSON(t, "GET", jm+"/jobs/"+jid, nil, 200, &det)
	mid := jm + "/jobs/" + jid + "/vertices/" + det.Vertices[1].ID

	// The hot subtask takes several times the records of the others.
	var vd struct {
		Subtasks []struct {
			Subtask int `json:"subtask"`
			Metrics struct {
				Read int64 `json:"read-records"`
			} `json:"metrics"`
			TM string `json:"taskmanager-id"`
		} `json:"subtasks"`
	}
	eventually(t, "records flowing", func() bool {
		mustJSON(t, "GET", mid, nil, 200, &vd)
		return vd.Subtasks[0].Metrics.Read > 0
	})
	reads := []int64{}
	for _, s := range vd.Subtasks {
		reads = append(reads, s.Metrics.Read)
	}
	sort.Slice(reads, func(a, b int) bool { return reads[a] < reads[b] })
	if hot := vd.Subtasks[2].Metrics.Read; hot != reads[3] || float64(hot) < 3*float64(reads[1]) {
		t.Errorf("subtask 2 is not the hot one: %v", reads)
	}

	// Upstream of the bottleneck (the sink) is backpressured.
	var bp struct {
		Level string `json:"backpressureLevel"`
	}
	mustJSON(t, "GET", mid+"/backpressure", nil, 200, &bp)
	if bp.Level != "high" {
		t.Errorf("the vertex before the bottleneck: backpressure %q", bp.Level)
	}

	// A checkpoint after the Diagnosis waits for the slow part.
	var cp struct {
		ID  int64 `json:"id"`
		E2E int64 `json:"end_to_end_duration"`
	}
	eventually(t, "a slow checkpoint", func() bool {
		var cps struct {
			History []struct {
				ID     int64  `json:"id"`
				Status string `json:"status"`
				E2E    int64  `json:"end_to_end_duration"`
			} `json:"history"`
		}
		mustJSON(t, "GET", jm+"/jobs/"+jid+"/checkpoints", nil, 200, &cps)
		for _, h := range cps.History {
			if h.Status == "COMPLETED" && h.E2E >= 4000 {
				cp.ID, cp.E2E = h.ID, h.E2E
				return true
			}
		}
		return false
	})
	var parts struct {
		Subtasks []struct {
			Index      int   `json:"index"`
			E2E        int64 `json:"end_to_end_duration"`
			Checkpoint struct {
				Async int64 `json:"async"`
			} `json:"checkpoint"`
		} `json:"subtasks"`
	}
	mustJSON(t, "GET", fmt.Sprintf("%s/jobs/%s/checkpoints/details/%d/subtasks/%s", jm, jid, cp.ID, det.Vertices[1].ID), nil, 200, &parts)
	slow := parts.Subtasks[3]
	if slow.E2E != cp.E2E || slow.Checkpoint.Async < cp.E2E/2 {
		t.Errorf("subtask 3's part is not the slow one: %+v of a %d ms checkpoint", slow, cp.E2E)
	}
	for _, s := range parts.Subtasks[:3] {
		if s.E2E >= slow.E2E {
			t.Errorf("subtask %d is as slow as the slow part: %+v", s.Index, s)
		}
	}
	if err := c.Diagnose(jid, Diagnosis{Pressure: 1, Bottleneck: 7}); err == nil {
		t.Error("a bottleneck out of the graph is accepted")
	}
}

func TestJobGraphsWithCyclesAndUnknownStrategies(t *testing.T) {
	c := startCluster(t, fastOptions())
	jm, jid, _ := runningJob(t, c, SubmitRequest{Name: "iterate", Parallelism: 2})
	g := Graph{Vertices: []GraphVertex{
		{Name: "Source: numbers[1]", Parallelism: 2},
		{Name: "IterationHead[2]", Parallelism: 2, Inputs: []GraphInput{{From: 0, ShipStrategy: "FORWARD"}, {From: 2, ShipStrategy: "FEEDBACK"}}},
		{Name: "Map[3]", Parallelism: 2, Inputs: []GraphInput{{From: 1, ShipStrategy: "CUSTOM_PARTITIONER"}}},
		{Name: "Sink: out[4]", Parallelism: 1, Inputs: []GraphInput{{From: 2, ShipStrategy: "GLOBAL"}}},
	}}
	if err := c.SetJobGraph(jid, g); err != nil {
		t.Fatal(err)
	}
	var plan struct {
		Plan struct {
			Nodes []struct {
				ID     string `json:"id"`
				Inputs []struct {
					ID           string `json:"id"`
					ShipStrategy string `json:"ship_strategy"`
				} `json:"inputs"`
			} `json:"nodes"`
		} `json:"plan"`
	}
	mustJSON(t, "GET", jm+"/jobs/"+jid+"/plan", nil, 200, &plan)
	n := plan.Plan.Nodes
	if len(n) != 4 || n[1].Inputs[1].ID != n[2].ID || n[1].Inputs[1].ShipStrategy != "FEEDBACK" || n[2].Inputs[0].ShipStrategy != "CUSTOM_PARTITIONER" {
		t.Fatalf("plan: %+v", n)
	}
	var det vertexIDs
	mustJSON(t, "GET", jm+"/jobs/"+jid, nil, 200, &det)
	if len(det.Vertices) != 4 || det.Vertices[1].ID != n[1].ID {
		t.Fatalf("the details do not list the plan's vertices: %+v", det.Vertices)
	}
	for _, v := range det.Vertices {
		mustJSON(t, "GET", jm+"/jobs/"+jid+"/vertices/"+v.ID+"/subtasks/metrics?get=busyTimeMsPerSecond&agg=max", nil, 200, nil)
	}
	if err := c.SetJobGraph(jid, Graph{Vertices: []GraphVertex{{Inputs: []GraphInput{{From: 3}}}}}); err == nil {
		t.Error("an input from no vertex is accepted")
	}
}

func TestFailuresShowTheirCausesInTheHistoryAndTheTaskManagerLog(t *testing.T) {
	o := fastOptions()
	c := startCluster(t, o)
	// A lookup join: its failures are async timeouts in the join.
	jm, jid, appID := runningJob(t, c, SubmitRequest{Name: "lookup", Parallelism: 2,
		Config: map[string]string{"restart-strategy.fixed-delay.attempts": "1"}})
	c.mu.Lock()
	j := c.flink.byID[jid]
	j.vertices[1].lookup, j.vertices[1].name = true, "LookupJoin[3] -> Calc[4]"
	j.layout()
	j.failMessage = ""
	c.flink.failJob(j, c.clock.Now(), true, "java.util.concurrent.TimeoutException: Async function call has timed out.")
	c.mu.Unlock()
	eventually(t, "job FAILED", func() bool {
		a, err := c.App(appID)
		return err == nil && len(a.Jobs) == 1 && a.Jobs[0].State == "FAILED"
	})
	c.mu.Lock()
	es := append([]exception(nil), j.exceptions...)
	c.mu.Unlock()
	if len(es) < 2 {
		t.Fatalf("history: %d entries", len(es))
	}
	root := es[0].trace
	if !strings.HasPrefix(root, "org.apache.flink.runtime.JobException: Recovery is suppressed") ||
		strings.Count(root, "Caused by: ") != 2 ||
		!strings.Contains(root, "Caused by: java.util.concurrent.TimeoutException: Async function call has timed out.") {
		t.Errorf("the final failure is not the timeout wrapped twice:\n%s", root)
	}
	task := es[1]
	if !strings.HasPrefix(task.task, "LookupJoin[3] -> Calc[4] (") || !strings.HasPrefix(task.tm, "container_") || task.endpoint == "" {
		t.Errorf("the task failure does not say where: %+v", task)
	}
	_ = jm

	// The log server has the TaskManager's log, with the failure in it.
	ahs := c.LogServerURL() + "/containers/" + task.tm + "/logs/taskmanager.log"
	var text string
	eventually(t, "aggregated logs", func() bool {
		r := do(t, "GET", ahs, nil)
		text = string(r.body)
		return r.status == 200
	})
	if !strings.Contains(text, task.task+" switched from RUNNING to FAILED with failure cause:") ||
		!strings.Contains(text, "Caused by: java.util.concurrent.TimeoutException: Async function call has timed out.") {
		t.Errorf("the TaskManager log does not show the failure")
	}
}

func TestFlameGraphsAreOffUnlessEnabledAndThreadDumpsAreBounded(t *testing.T) {
	c := startCluster(t, fastOptions())
	jm, jid, _ := runningJob(t, c, SubmitRequest{Name: "flame", Parallelism: 2})
	var det vertexIDs
	mustJSON(t, "GET", jm+"/jobs/"+jid, nil, 200, &det)
	fg := jm + "/jobs/" + jid + "/vertices/" + det.Vertices[1].ID + "/flamegraph"
	var got struct {
		End  int64 `json:"endTimestamp"`
		Data *struct {
			Value    int               `json:"value"`
			Children []json0RawNothing `json:"children"`
		} `json:"data"`
	}
	mustJSON(t, "GET", fg, nil, 200, &got)
	if got.End != -2 || got.Data != nil {
		t.Fatalf("flame graphs are off by default (rest.flamegraph.enabled): %+v", got)
	}
	if err := c.Diagnose(jid, Diagnosis{FlameGraphs: true, FlameFrames: 50_000, ThreadDumpBytes: 2 << 20}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "a sampled flame graph", func() bool {
		mustJSON(t, "GET", fg, nil, 200, &got)
		return got.End > 0
	})
	if got.Data == nil || got.Data.Value < 50_000 {
		t.Errorf("a 50k-frame flame graph: %+v", got.Data)
	}
	var tms struct {
		TaskManagers []struct {
			ID string `json:"id"`
		} `json:"taskmanagers"`
	}
	mustJSON(t, "GET", jm+"/taskmanagers", nil, 200, &tms)
	r := do(t, "GET", jm+"/taskmanagers/"+tms.TaskManagers[0].ID+"/thread-dump", nil)
	if r.status != 200 || len(r.body) < 2<<20 || !strings.Contains(string(r.body), `"threadName":"`) {
		t.Errorf("a padded thread dump: %d, %d bytes", r.status, len(r.body))
	}
}

// json0RawNothing decodes anything and keeps nothing.
type json0RawNothing struct{}
