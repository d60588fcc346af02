package metrics_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/metrics"
)

// valueCalls are the FlinkMetrics calls that read values, each with how
// many names it asked for.
func valueCalls(f *tuitest.Fake, prefix string) []string {
	var out []string
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, prefix) && !strings.HasSuffix(c, " 0") {
			out = append(out, c)
		}
	}
	return out
}

// From the jobs list, M lists every metric Flink exposes of the job with
// its value; typing narrows the list; a charts the metric on the job's
// Metrics tab, which then draws it; d takes it away again.
func TestMetricBrowserChartsAJobMetric(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.SelectJob("orders-enrich")
	h.Press("M")
	if _, ok := h.Top().(*metrics.Browser); !ok {
		t.Fatalf("M opened %T, want the metric browser", h.Top())
	}
	h.MustShow("orders-enrich · job metrics", "9 metrics", "numRestarts", "uptime", "lastCheckpointDuration")
	if !f.Called("FlinkMetrics j001 job 0") || len(valueCalls(f, "FlinkMetrics j001 job")) != 1 {
		t.Fatalf("calls %v: want the list, then the values of the rows on screen", f.Calls())
	}

	h.Press("/")
	h.Type("restart")
	h.MustShow("numRestarts", "fullRestarts", "restartingTime")
	h.MustNotShow("uptime", "lastCheckpointDuration")
	h.Press("enter") // keeps the filter
	h.Press("j")     // numRestarts, after fullRestarts
	h.Press("a")
	if !f.Called("ChartMetric j001 add job|||numRestarts") {
		t.Fatalf("calls %v", f.Calls())
	}
	h.MustShow("charted numRestarts on orders-enrich's Metrics tab (m)", "● ", "1 charted")

	// The job's Metrics tab charts it, under palink's own charts.
	h.Press("esc", "esc")
	h.OpenDetail("orders-enrich")
	h.Press("m", "G")
	h.MustShow("Added from the metric browser", "numRestarts")

	// M from the detail, d on it: gone from the tab.
	h.Press("M", "/")
	h.Type("numrestarts")
	h.Press("enter", "d")
	if !f.Called("ChartMetric j001 remove job|||numRestarts") {
		t.Fatalf("calls %v", f.Calls())
	}
	h.MustShow("removed the chart of numRestarts from orders-enrich's Metrics tab")
	h.Press("esc", "esc")
	h.Press("m", "G")
	h.MustNotShow("Added from the metric browser")
}

// A vertex's metrics: aggregated over its subtasks first, then each
// subtask's; only the rows on screen have their values read, again when
// the list scrolls and every few seconds; s picks the aggregation a chart
// takes, and c lists the job's charts alone.
func TestMetricBrowserOfAVertex(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("shift+tab", "shift+tab")
	h.MustShow("bottleneck LookupJoin[3]")
	h.Press("enter", "M")
	h.MustShow("orders-enrich · metrics of LookupJoin[3]", "45 metrics", "over subtasks: sum", "busyTimeMsPerSecond", "sum ")
	prefix := "FlinkMetrics j001 vertex" + tuitest.LookupVertex
	page := 40 - 3 - 4 // the body, less the box, the heading and the line under the list
	calls := valueCalls(f, prefix)
	if len(calls) != 1 || calls[0] != fmt.Sprintf("%s %d", prefix, page) {
		t.Fatalf("values read: %v, want one request for the %d rows on screen of 45", calls, page)
	}
	h.Press("G")
	h.MustShow("3.numRecordsOutPerSecond")
	if n := len(valueCalls(f, prefix)); n != 2 {
		t.Fatalf("after scrolling, %d value requests, want 2", n)
	}
	h.Fire(metrics.ValuesTick)
	if n := len(valueCalls(f, prefix)); n != 3 {
		t.Fatalf("after the timer, %d value requests, want 3", n)
	}

	h.Press("g", "j", "s") // busyTimeMsPerSecond, charted as its maximum
	h.MustShow("a vertex's metric is charted as its maximum over the subtasks")
	h.Press("a")
	if !f.Called("ChartMetric j001 add vertex|" + tuitest.LookupVertex + "|max|busyTimeMsPerSecond") {
		t.Fatalf("calls %v", f.Calls())
	}
	if c := f.Jobs[0].Charts; len(c) != 1 || c[0].VertexName == "" || c[0].Agg != model.AggMax {
		t.Fatalf("the job's charts: %+v", c)
	}
	h.Press("c")
	h.MustShow("● max", "busyTimeMsPerSecond")
	h.MustNotShow("numRecordsIn")
}

// Read-only, the browser lists and reads but charts nothing, and says why.
func TestMetricBrowserReadOnly(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{ReadOnly: true})
	h.SelectJob("orders-enrich")
	h.Press("M")
	h.MustShow("numRestarts")
	h.Press("a")
	if f.Called("ChartMetric") {
		t.Fatal("a read-only browser asked to chart")
	}
	h.MustShow("read-only: charts cannot be added or removed")
	h.MustNotShow("chart it")
}
