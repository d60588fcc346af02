package metrics_test

import (
	"testing"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// charted gives orders-enrich two charts: its restarts, and its lookup
// join's busy time at the worst subtask.
func charted(f *tuitest.Fake) *tuitest.Fake {
	f.Jobs[0].Charts = []model.MetricChart{
		{Scope: model.MetricScopeJob, Metric: "numRestarts", AddedBy: "ops", AddedAt: tuitest.Now},
		{Scope: model.MetricScopeVertex, VertexID: tuitest.LookupVertex, VertexName: "LookupJoin[3]", Metric: "busyTimeMsPerSecond", Agg: model.AggMax,
			AddedBy: "ops", AddedAt: tuitest.Now},
	}
	return f
}

// The job's metrics from the jobs list, its restarts charted.
func TestGoldenMetricBrowserOfAJob(t *testing.T) {
	apptest.GoldenFrame(t, "metrics_job", charted, tui.Options{}, func(h *tuitest.Harness) {
		h.SelectJob("orders-enrich")
		h.Press("M")
		h.MustShow("numRestarts")
	})
}

// The lookup join's metrics from its vertex view: aggregated over its four
// subtasks, then each subtask's; its busy time charted as the maximum.
func TestGoldenMetricBrowserOfAVertex(t *testing.T) {
	apptest.GoldenFrame(t, "metrics_vertex", charted, tui.Options{}, func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		h.Press("shift+tab", "shift+tab")
		h.MustShow("bottleneck LookupJoin[3]")
		h.Press("enter", "M", "j")
		h.MustShow("busyTimeMsPerSecond")
	})
}
