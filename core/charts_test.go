package core_test

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// names are the metrics' names, in order.
func names(ms []api.FlinkMetric) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.Name)
	}
	return out
}

// The metric browser's reads against the simulator: every metric of a
// job, of a vertex (aggregated, then each subtask's) and of a TaskManager
// by name, then the values of those asked for, in the order asked.
func TestFlinkMetricsListsAndReadsWhatFlinkExposes(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	e.CreateSQL("orders")
	if c := e.Act("orders", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	e.SyncUntil("orders", "RUNNING with a Flink job id", func(j model.Job) bool { return coretest.Running(j) && j.FlinkJobID != "" })
	ctx, svc := e.Ctx, e.Svc

	job, err := svc.FlinkMetrics(ctx, api.FlinkMetricsRequest{JobRef: "orders", Scope: model.MetricScopeJob})
	if err != nil {
		t.Fatal(err)
	}
	if n := names(job.Metrics); !slices.Contains(n, "numRestarts") || !slices.Contains(n, "lastCheckpointDuration") || job.Metrics[0].Value != "" {
		t.Fatalf("job metrics: %v", job.Metrics)
	}
	vals, err := svc.FlinkMetrics(ctx, api.FlinkMetricsRequest{JobRef: "orders", Scope: model.MetricScopeJob,
		Get: []string{"uptime", "no.such.metric", "numRestarts"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := names(vals.Metrics); !slices.Equal(n, []string{"uptime", "numRestarts"}) {
		t.Fatalf("values of uptime, no.such.metric, numRestarts: %v", vals.Metrics)
	}
	if up, err := strconv.ParseInt(vals.Metrics[0].Value, 10, 64); err != nil || up <= 0 {
		t.Errorf("uptime %q", vals.Metrics[0].Value)
	}

	g, err := svc.JobGraph(ctx, "orders")
	if err != nil {
		t.Fatal(err)
	}
	v := g.Vertices[1]
	vl, err := svc.FlinkMetrics(ctx, api.FlinkMetricsRequest{JobRef: "orders", Scope: model.MetricScopeVertex, VertexID: v.ID})
	if err != nil {
		t.Fatal(err)
	}
	if vl.VertexName != v.Name || vl.Parallelism != v.Parallelism || len(vl.Metrics) == 0 {
		t.Fatalf("vertex list: %s ×%d, %d metrics", vl.VertexName, vl.Parallelism, len(vl.Metrics))
	}
	// Aggregated first, then subtask 0's, then subtask 1's.
	first := slices.IndexFunc(vl.Metrics, func(m api.FlinkMetric) bool { return m.Subtask >= 0 })
	if first <= 0 || vl.Metrics[first].Subtask != 0 || vl.Metrics[len(vl.Metrics)-1].Subtask != v.Parallelism-1 {
		t.Fatalf("vertex list order: %v", vl.Metrics)
	}
	agg, sub := names(vl.Metrics[:first]), names(vl.Metrics[first:])
	if !slices.Contains(agg, "numRecordsInPerSecond") || !slices.Contains(sub, "0.numRecordsInPerSecond") || strings.Contains(strings.Join(agg, " "), "0.") {
		t.Fatalf("aggregated %v, per subtask %v", agg, sub)
	}
	vv, err := svc.FlinkMetrics(ctx, api.FlinkMetricsRequest{JobRef: "orders", Scope: model.MetricScopeVertex, VertexID: v.ID,
		Get: []string{"1.busyTimeMsPerSecond", "numRecordsInPerSecond"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(vv.Metrics) != 2 || vv.Metrics[0].Subtask != 1 || vv.Metrics[0].Value == "" || vv.Metrics[1].Agg == nil {
		t.Fatalf("vertex values: %+v", vv.Metrics)
	}
	if a := vv.Metrics[1].Agg; a.Sum <= 0 || a.Max < a.Min || a.Sum < a.Max || a.Avg < a.Min || a.Avg > a.Max {
		t.Errorf("records in over the subtasks: %+v", a)
	}
	if _, err := svc.FlinkMetrics(ctx, api.FlinkMetricsRequest{JobRef: "orders", Scope: model.MetricScopeVertex, VertexID: "0123456789abcdef0123456789abcdef"}); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("a vertex the job does not have: %v", err)
	}

	tms, err := svc.TaskManagers(ctx, "orders")
	if err != nil || len(tms.TaskManagers) == 0 {
		t.Fatalf("TaskManagers: %+v %v", tms, err)
	}
	tm := tms.TaskManagers[0].ID
	tl, err := svc.FlinkMetrics(ctx, api.FlinkMetricsRequest{JobRef: "orders", Scope: model.MetricScopeTaskManager, TaskManager: tm})
	if err != nil || !slices.Contains(names(tl.Metrics), "Status.JVM.Memory.Heap.Used") {
		t.Fatalf("TaskManager metrics: %v %v", tl.Metrics, err)
	}
	tv, err := svc.FlinkMetrics(ctx, api.FlinkMetricsRequest{JobRef: "orders", Scope: model.MetricScopeTaskManager, TaskManager: tm,
		Get: []string{"Status.JVM.Memory.Heap.Used"}})
	if err != nil || len(tv.Metrics) != 1 {
		t.Fatalf("heap used: %+v %v", tv.Metrics, err)
	}
	if used, err := strconv.ParseInt(tv.Metrics[0].Value, 10, 64); err != nil || used <= 0 || used > tms.TaskManagers[0].HeapMax {
		t.Errorf("heap used %q of %d", tv.Metrics[0].Value, tms.TaskManagers[0].HeapMax)
	}
}

// Charts a person adds are kept with the job, in the store, once each;
// they say who added them, go to the audit log, and come back with the
// job's metrics list; removing one that is not charted says so.
func TestChartMetricKeepsChartsWithTheJob(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	e.CreateSQL("orders")
	ctx, svc := e.Ctx, e.Svc
	watch, err := svc.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	uptime := model.MetricChart{Scope: model.MetricScopeJob, Metric: "uptime"}
	busy := model.MetricChart{Scope: model.MetricScopeVertex, VertexID: "v1", VertexName: "Calc", Metric: "busyTimeMsPerSecond", Agg: model.AggMax}
	for _, c := range []model.MetricChart{uptime, busy, uptime} {
		if _, err := svc.ChartMetric(ctx, api.ChartRequest{JobRef: "orders", Chart: c, Issuer: "alice"}); err != nil {
			t.Fatal(err)
		}
	}
	var stored model.Job
	if err := e.St.View(ctx, func(tx store.ReadTx) (err error) { stored, err = tx.JobByName("orders"); return err }); err != nil {
		t.Fatal(err)
	}
	if len(stored.Charts) != 2 || stored.Charts[0].Metric != "uptime" || stored.Charts[1].Agg != model.AggMax ||
		stored.Charts[0].AddedBy != "alice" || stored.Charts[0].AddedAt.IsZero() {
		t.Fatalf("the job's record keeps %+v", stored.Charts)
	}
	// Others see the change: the job's record went out through Watch.
	for {
		c := <-watch
		if c.Kind == api.JobChanged && c.Job != nil && len(c.Job.Charts) == 2 {
			break
		}
	}
	if s, err := svc.JobMetrics(ctx, "orders"); err != nil || len(s.Charts) != 2 {
		t.Errorf("the metrics series names %d charts (%v)", len(s.Charts), err)
	}
	audit, err := svc.Audit(ctx, api.AuditFilter{User: "alice"})
	if err != nil || len(audit) != 2 || audit[1].Action != "chart busyTimeMsPerSecond (max) of vertex Calc" {
		t.Errorf("audit: %+v %v", audit, err)
	}

	bad := busy
	bad.Agg = ""
	if _, err := svc.ChartMetric(ctx, api.ChartRequest{JobRef: "orders", Chart: bad}); err == nil || !strings.Contains(err.Error(), "needs an aggregation") {
		t.Errorf("a vertex metric without aggregation: %v", err)
	}
	left, err := svc.ChartMetric(ctx, api.ChartRequest{JobRef: "orders", Chart: uptime, Remove: true})
	if err != nil || len(left) != 1 || left[0].Metric != "busyTimeMsPerSecond" {
		t.Fatalf("after removing uptime: %+v %v", left, err)
	}
	if _, err := svc.ChartMetric(ctx, api.ChartRequest{JobRef: "orders", Chart: uptime, Remove: true}); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("removing it again: %v", err)
	}
	for i := 0; len(left) < model.MaxMetricCharts; i++ {
		if left, err = svc.ChartMetric(ctx, api.ChartRequest{JobRef: "orders", Chart: model.MetricChart{Scope: model.MetricScopeJob, Metric: "m" + strconv.Itoa(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.ChartMetric(ctx, api.ChartRequest{JobRef: "orders", Chart: uptime}); !errors.Is(err, model.ErrRefused) {
		t.Errorf("a chart past the most: %v", err)
	}
}
