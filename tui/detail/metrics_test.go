package detail_test

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// TestMetricsTabLoadsWhenShownAndFollowsFigures: the series is asked for
// when the tab is shown, and again when new figures of the job arrive
// while it is on screen — not for other jobs, nor when it is not shown.
func TestMetricsTabLoadsWhenShownAndFollowsFigures(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	if f.Metrics.MetricsCalls != 0 {
		t.Fatal("the overview asked for metrics")
	}
	h.Press("m")
	if f.Metrics.MetricsCalls != 1 {
		t.Fatalf("showing the tab made %d JobMetrics calls, want 1", f.Metrics.MetricsCalls)
	}
	h.MustShow("records in/s (sources)", "backpressure (worst vertex)", "watermark delay", "-5m", "now", "in 12.4k/s")
	h.Screen() // drawn: on screen

	orders := f.Jobs[0]
	orders.Figures.At = tuitest.Now.Add(5 * time.Second)
	h.Change(api.Change{Kind: api.JobChanged, Job: &orders})
	if f.Metrics.MetricsCalls != 2 {
		t.Fatalf("new figures of the job made %d calls in all, want 2", f.Metrics.MetricsCalls)
	}
	other := f.Jobs[1]
	other.Figures.At = tuitest.Now.Add(time.Minute)
	h.Change(api.Change{Kind: api.JobChanged, Job: &other})
	if f.Metrics.MetricsCalls != 2 {
		t.Fatal("another job's figures reloaded this job's metrics")
	}

	// Off screen (the overview is shown, time passed): no reload.
	h.Press("shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab")
	h.Screen()
	h.Send(h.App.Tick(tuitest.Now.Add(10 * time.Second)))
	orders.Figures.At = tuitest.Now.Add(10 * time.Second)
	h.Change(api.Change{Kind: api.JobChanged, Job: &orders})
	if f.Metrics.MetricsCalls != 2 {
		t.Fatal("the hidden tab reloaded")
	}
}

func TestMetricsTabWindowAndStates(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("m")
	h.MustShow("last 5 min")
	h.Press("t")
	h.MustShow("last hour, by minute", "-1h")
	h.Press("t")
	h.MustShow("last 5 min")

	// A job that does not run has no figures, and the tab says why.
	h.Press("esc")
	h.OpenDetail("sessionize")
	h.Press("m")
	h.MustShow("sessionize is FINISHED: metrics are collected while a job runs.")

	// A running job with nothing collected yet says how figures come.
	h.Press("esc")
	f.Metrics.Series = map[string]api.MetricsSeries{"j004": {JobID: "j004", LastError: "GET /jobs/x on node: unavailable"}}
	h.OpenDetail("user-features")
	h.Press("m")
	h.MustShow("no figures yet", "last collection failed: GET /jobs/x on node: unavailable")
}

func TestGoldenMetricsHour(t *testing.T) {
	goldenFrame(t, "detail_metrics_hour", func(h *tuitest.Harness) {
		s := tuitest.FixtureSeries(h.F.Jobs[0], tuitest.Now)
		for i := 59; i >= 0; i-- {
			p := s.Recent[(59-i)%len(s.Recent)]
			p.At = tuitest.Now.Truncate(time.Minute).Add(-time.Duration(i) * time.Minute)
			s.Hour = append(s.Hour, p)
		}
		h.F.Metrics.Series = map[string]api.MetricsSeries{"j001": s}
		h.OpenDetail("orders-enrich")
		h.Press("m", "t")
	})
}

// A job that reads with a consumer lag has its lag chart first, above the
// fold at every size; a job whose sources report no lag keeps its rates
// first (#29).
func TestMetricsTabLeadsWithTheLagOfALagJob(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		f := tuitest.NewFixture()
		h := apptest.New(t, f, sz.W, sz.H, tui.Options{})
		h.OpenDetail("payments-dedup")
		h.Press("m")
		h.MustShow("lag 2.1M records", "consumer lag (records)", "now") // the whole chart, to its time axis
		scr := h.Screen()
		if strings.Index(scr, "consumer lag (records)") > strings.Index(scr+"records in/s (sources)", "records in/s (sources)") {
			t.Errorf("%dx%d: the lag chart is not the first", sz.W, sz.H)
		}

		h.Press("esc")
		h.OpenDetail("clicks-to-hudi")
		h.Press("m")
		h.MustShow("lag -", "records in/s (sources)")
		h.MustNotShow("consumer lag (records)")
	}
}

// The metrics added from the metric browser are charted under palink's
// own, titled with what they are of.
func TestGoldenMetricsAdded(t *testing.T) {
	goldenFrame(t, "detail_metrics_added", func(h *tuitest.Harness) {
		h.F.Jobs[0].Charts = []model.MetricChart{
			{Scope: model.MetricScopeJob, Metric: "numberOfFailedCheckpoints"},
			{Scope: model.MetricScopeVertex, VertexID: tuitest.LookupVertex, VertexName: "LookupJoin[3]", Metric: "busyTimeMsPerSecond", Agg: model.AggMax},
			{Scope: model.MetricScopeTaskManager, TaskManager: "container_e01_1732000000000_0042_01_000003", Metric: "Status.JVM.Memory.Heap.Used"},
		}
		h.OpenDetail("orders-enrich")
		h.Press("m", "G")
		h.MustShow("Status.JVM.Memory.Heap.Used")
	})
}

// A chart added to the job (from the browser, or by another palink on
// the store) reloads the tab at once, without waiting for new figures.
func TestMetricsTabFollowsTheJobsCharts(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("m")
	calls := f.Metrics.MetricsCalls
	orders := f.Jobs[0]
	orders.Charts = []model.MetricChart{{Scope: model.MetricScopeJob, Metric: "numberOfFailedCheckpoints"}}
	f.Jobs[0].Charts = orders.Charts
	h.Change(api.Change{Kind: api.JobChanged, Job: &orders})
	if f.Metrics.MetricsCalls != calls+1 {
		t.Fatalf("a new chart made %d JobMetrics calls, want 1", f.Metrics.MetricsCalls-calls)
	}
	h.Press("G")
	h.MustShow("Added from the metric browser", "numberOfFailedCheckpoints")
	h.Change(api.Change{Kind: api.JobChanged, Job: &orders})
	if f.Metrics.MetricsCalls != calls+1 {
		t.Fatal("the same charts reloaded the tab")
	}
}
