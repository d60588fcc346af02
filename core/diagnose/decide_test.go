package diagnose

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn"
)

// graphOf makes job details and a plan: vertex i named n_i, edges as
// "from>to:STRATEGY".
func graphOf(n int, edges ...string) (yarn.JobDetails, yarn.JobPlan) {
	var det yarn.JobDetails
	var plan yarn.JobPlan
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("%032x", i+1)
		det.Vertices = append(det.Vertices, yarn.JobVertex{ID: id, Name: fmt.Sprintf("v%d", i), Parallelism: 2, Status: "RUNNING"})
		plan.Nodes = append(plan.Nodes, yarn.PlanNode{ID: id})
	}
	for _, e := range edges {
		var from, to int
		var strategy string
		fmt.Sscanf(strings.Replace(e, ":", " ", 1), "%d>%d %s", &from, &to, &strategy)
		plan.Nodes[to].Inputs = append(plan.Nodes[to].Inputs, yarn.PlanInput{ID: det.Vertices[from].ID, ShipStrategy: strategy})
	}
	return det, plan
}

// figs are (busy, backpressure) per vertex; nil entries are unmeasured.
func figs(pairs ...[2]float64) []*vertexFigures {
	out := make([]*vertexFigures, len(pairs))
	for i, p := range pairs {
		if p[0] < 0 {
			continue
		}
		out[i] = &vertexFigures{in: 10, out: 10, busy: p[0], bp: p[1], idle: 1 - p[0] - p[1], watermark: math.NaN()}
	}
	return out
}

func TestBottleneckIsWhereBackpressureStops(t *testing.T) {
	cases := []struct {
		name    string
		n       int
		edges   []string
		figures []*vertexFigures
		want    int
		why     string
	}{
		{"a busy join behind a backpressured source", 3, []string{"0>1:HASH", "1>2:REBALANCE"},
			figs([2]float64{0.1, 0.9}, [2]float64{0.98, 0}, [2]float64{0.2, 0}), 1, "v1 is busy 98% of the time and v0 upstream of it is backpressured 90%"},
		{"nothing backpressured, nothing saturated", 3, []string{"0>1:HASH", "1>2:FORWARD"},
			figs([2]float64{0.85, 0}, [2]float64{0.5, 0}, [2]float64{0.2, 0}), -1, "no vertex is backpressured"},
		{"a vertex busy 99% before back pressure builds", 3, []string{"0>1:HASH", "1>2:FORWARD"},
			figs([2]float64{0.3, 0}, [2]float64{0.99, 0}, [2]float64{0.2, 0}), 1, "v1 is busy 99%: the job runs at this vertex's speed"},
		{"the busiest of two saturated vertices", 3, []string{"0>1:HASH", "1>2:FORWARD"},
			figs([2]float64{0.92, 0}, [2]float64{0.3, 0}, [2]float64{0.97, 0}), 2, "v2 is busy 97%"},
		{"a slow sink: backpressure down to the end", 2, []string{"0>1:REBALANCE"},
			figs([2]float64{0.1, 0.8}, [2]float64{0.2, 0.7}), 1, "nothing downstream"},
		{"the busier of two candidates", 4, []string{"0>1:HASH", "0>2:BROADCAST", "1>3:FORWARD", "2>3:FORWARD"},
			figs([2]float64{0.05, 0.9}, [2]float64{0.6, 0}, [2]float64{0.95, 0}, [2]float64{0.1, 0}), 2, "v2 is busy 95%"},
		{"an unmeasured vertex is no candidate", 3, []string{"0>1:HASH", "1>2:HASH"},
			figs([2]float64{0.1, 0.9}, [2]float64{-1, 0}, [2]float64{0.3, 0}), -1, "without a vertex that stops it"},
		{"an iteration: feedback edges count as inputs", 3, []string{"0>1:FORWARD", "2>1:FEEDBACK", "1>2:CUSTOM"},
			figs([2]float64{0.1, 0}, [2]float64{0.2, 0.6}, [2]float64{0.97, 0}), 2, "v2 is busy 97%"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			det, plan := graphOf(tc.n, tc.edges...)
			var g api.JobGraph
			buildGraph(&g, det, plan, tc.figures, time.Now())
			if g.Bottleneck != tc.want || !strings.Contains(g.BottleneckWhy, tc.why) {
				t.Errorf("bottleneck %d (%s), want %d (…%s…)", g.Bottleneck, g.BottleneckWhy, tc.want, tc.why)
			}
		})
	}
}

func TestGraphEdgesKeepStrategiesAndMarkCycles(t *testing.T) {
	det, plan := graphOf(3, "0>1:FORWARD", "2>1:FEEDBACK", "1>2:SOMETHING_NEW")
	plan.Nodes = append(plan.Nodes, yarn.PlanNode{ID: "gone", Inputs: []yarn.PlanInput{{ID: det.Vertices[0].ID}}})
	plan.Nodes[2].Inputs = append(plan.Nodes[2].Inputs, yarn.PlanInput{ID: "nowhere", ShipStrategy: "HASH"})
	var g api.JobGraph
	buildGraph(&g, det, plan, figs([2]float64{-1, 0}, [2]float64{-1, 0}, [2]float64{-1, 0}), time.Now())
	if !g.Cyclic || len(g.Edges) != 3 || !g.Edges[1].Feedback || g.Edges[2].ShipStrategy != "SOMETHING_NEW" {
		t.Fatalf("edges %+v cyclic %v", g.Edges, g.Cyclic)
	}
	if !g.Vertices[0].Source || g.Vertices[1].Source || g.Vertices[2].Sink {
		t.Errorf("a vertex fed back into is no source, one that feeds back no sink: %+v", g.Vertices)
	}
	if g.Vertices[0].Busy != api.Unknown || g.Vertices[0].Measured {
		t.Errorf("an unmeasured vertex shows figures: %+v", g.Vertices[0])
	}
	if len(g.Notes) != 1 || !strings.Contains(g.Notes[0], "2 edges") {
		t.Errorf("notes %q", g.Notes)
	}
}

func TestGraphWithoutAPlanUsesFlinksOrder(t *testing.T) {
	det, _ := graphOf(3)
	var g api.JobGraph
	buildGraph(&g, det, yarn.JobPlan{}, nil, time.Now())
	if !g.Vertices[0].Source || !g.Vertices[2].Sink || g.Vertices[1].Source || g.Vertices[1].Sink || g.Bottleneck != -1 {
		t.Errorf("%+v", g)
	}
}

func TestWatermarkDelayIsAgainstTheJobManagersClock(t *testing.T) {
	det, plan := graphOf(2, "0>1:HASH")
	jmNow := time.UnixMilli(1_732_863_600_000)
	f := figs([2]float64{0.1, 0}, [2]float64{0.1, 0})
	f[0].watermark = math.MinInt64 // a source: none yet
	f[1].watermark = float64(jmNow.Add(-90 * time.Second).UnixMilli())
	var g api.JobGraph
	buildGraph(&g, det, plan, f, jmNow)
	if !g.Vertices[0].Watermark.IsZero() || g.Vertices[0].WatermarkDelay != api.Unknown || g.Vertices[1].WatermarkDelay != 90*time.Second {
		t.Errorf("watermarks %+v %+v", g.Vertices[0], g.Vertices[1])
	}
}

func TestSkewPointsAtTheHotSubtask(t *testing.T) {
	rows := func(in ...float64) []api.SubtaskRow {
		var out []api.SubtaskRow
		for i, n := range in {
			out = append(out, api.SubtaskRow{Index: i, RecordsInPerSec: n, RecordsOutPerSec: n * 2, RecordsIn: 1000, RecordsOut: 2000})
		}
		return out
	}
	hot := rows(100, 120, 900, 110)
	sk := skewOf(hot, false)
	if sk.Subtask != 2 || sk.Ratio < 7 || sk.Max != 900 || !hot[2].Hot || hot[0].Hot || sk.Of != "records in/s" {
		t.Errorf("hot key: %+v %+v", sk, hot)
	}
	even := rows(100, 104, 98, 101)
	if sk := skewOf(even, false); sk.Ratio > 1.1 || even[sk.Subtask].Hot {
		t.Errorf("even: %+v", sk)
	}
	if sk := skewOf(rows(0, 0), false); sk.Ratio != 1 {
		t.Errorf("idle: %+v", sk)
	}
	src := []api.SubtaskRow{{Index: 0, RecordsOutPerSec: 10}, {Index: 1, RecordsOutPerSec: 500}, {Index: 2, RecordsOutPerSec: 12}}
	if sk := skewOf(src, true); sk.Of != "records out/s" || sk.Subtask != 1 {
		t.Errorf("source: %+v", sk)
	}
	if sk := skewOf(nil, false); sk.Subtask != -1 || sk.Ratio != 0 {
		t.Errorf("no subtasks: %+v", sk)
	}
	unread := rows(100, 900)
	unread[0].RecordsInPerSec = api.Unknown
	if sk := skewOf(unread, false); sk.Ratio != 0 || unread[1].Hot {
		t.Errorf("a rate not read: %+v", sk)
	}
}

// TestSkewIsOfRatesNotTotals: a subtask that took most records an hour ago
// (its total) but reads as many as the others now (its rate) is not hot,
// and one hot now is, whatever the totals say.
func TestSkewIsOfRatesNotTotals(t *testing.T) {
	wasHot := []api.SubtaskRow{
		{Index: 0, RecordsIn: 90_000_000, RecordsInPerSec: 1000},
		{Index: 1, RecordsIn: 10_000_000, RecordsInPerSec: 1010},
		{Index: 2, RecordsIn: 10_000_000, RecordsInPerSec: 990},
	}
	if sk := skewOf(wasHot, false); sk.Ratio > 1.1 || wasHot[0].Hot || sk.Max != 1010 || !strings.HasSuffix(sk.Of, "/s") {
		t.Errorf("hot an hour ago, even now: %+v", sk)
	}
	isHot := []api.SubtaskRow{
		{Index: 0, RecordsIn: 10_000_000, RecordsInPerSec: 5000},
		{Index: 1, RecordsIn: 30_000_000, RecordsInPerSec: 1000},
		{Index: 2, RecordsIn: 30_000_000, RecordsInPerSec: 1100},
	}
	if sk := skewOf(isHot, false); sk.Subtask != 0 || !isHot[0].Hot || isHot[1].Hot || sk.Max != 5000 || sk.Median != 1050 {
		t.Errorf("hot now: %+v %+v", sk, isHot)
	}
}

func TestSubtaskRowsJoinWhatWasRead(t *testing.T) {
	jmNow := time.UnixMilli(1_732_863_600_000)
	subs := []yarn.SubtaskDetails{{Subtask: 0, Status: "RUNNING", Attempt: 2, Endpoint: "h1:36000", TaskManagerID: "c2",
		Metrics: yarn.IOMetrics{ReadRecords: 5, WriteBytes: 7}}, {Subtask: 1, Host: "h2"}}
	bp := yarn.Backpressure{Subtasks: []yarn.SubtaskBackpressure{{Subtask: 0, Ratio: 0.7, BusyRatio: 0.2, IdleRatio: 0.1}}}
	wms := []yarn.Metric{{ID: "0.currentInputWatermark", Value: fmt.Sprint(jmNow.Add(-time.Minute).UnixMilli())},
		{ID: "1.currentInputWatermark", Value: "-9223372036854775808"}}
	rows := subtaskRows(subs, bp, wms, map[string]float64{"0.numRecordsInPerSecond": 12.5}, jmNow)
	r := rows[0]
	if r.Host != "h1" || r.TaskManager != "c2" || r.Attempt != 2 || r.Backpressure != 0.7 || r.RecordsInPerSec != 12.5 ||
		r.RecordsOutPerSec != api.Unknown || r.WatermarkDelay != time.Minute || r.BytesOut != 7 {
		t.Errorf("row 0: %+v", r)
	}
	if rows[1].Host != "h2" || rows[1].Busy != api.Unknown || !rows[1].Watermark.IsZero() {
		t.Errorf("row 1 (nothing read but details): %+v", rows[1])
	}
	if names := rateNames(1000); len(names) != 2000 || names[1999] != "999.numRecordsOutPerSecond" {
		t.Errorf("rate names of a parallelism of 1000: %d", len(names))
	}
}

func TestTheSlowCheckpointPartIsMarked(t *testing.T) {
	sub := func(i int, ms int64) api.CheckpointSubtask {
		return api.CheckpointSubtask{Index: i, Acknowledged: true, Duration: time.Duration(ms) * time.Millisecond}
	}
	d := api.CheckpointDetail{SlowOperator: -1, Operators: []api.CheckpointOperator{
		{Name: "source", SlowSubtask: -1, Subtasks: []api.CheckpointSubtask{sub(0, 100), sub(1, 120)}},
		{Name: "join", SlowSubtask: -1, Subtasks: []api.CheckpointSubtask{sub(0, 300), sub(1, 9000), sub(2, 250), {Index: 3}}},
		{Name: "sink", SlowSubtask: -1},
	}}
	markSlow(&d)
	join := d.Operators[1]
	if d.SlowOperator != 1 || !join.Slow || join.SlowSubtask != 1 || !join.Subtasks[1].Slow || join.Subtasks[0].Slow ||
		d.Operators[0].Slow || d.Operators[0].SlowSubtask != 1 || d.Operators[0].Subtasks[1].Slow || d.Operators[2].SlowSubtask != -1 {
		t.Errorf("%+v", d)
	}
}

func TestChainReadsEveryCauseInnermostLast(t *testing.T) {
	trace := "org.apache.flink.runtime.JobException: Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=1000)\n" +
		"\tat org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.handleFailure(ExecutionFailureHandler.java:180)\n" +
		"Caused by: java.lang.Exception: Could not complete the stream element: Record @ (undef) : +I(1042,42.50).\n" +
		"\tat org.apache.flink.streaming.api.operators.async.AsyncWaitOperator$ResultHandler.completeExceptionally(AsyncWaitOperator.java:434)\n" +
		"\t... 12 more\n" +
		"Caused by: java.util.concurrent.TimeoutException: Async function call has timed out.\n" +
		"\tat org.apache.flink.streaming.api.functions.async.AsyncFunction.timeout(AsyncFunction.java:97)\n"
	c := Chain(trace, "org.apache.flink.runtime.JobException")
	if len(c) != 3 || c[0].Class != "org.apache.flink.runtime.JobException" || !strings.HasPrefix(c[0].Message, "Recovery is suppressed") ||
		c[1].Class != "java.lang.Exception" || c[2].String() != "java.util.concurrent.TimeoutException: Async function call has timed out." {
		t.Fatalf("%+v", c)
	}
	if got := model.InnermostCause(trace); got != c[2].String() {
		t.Errorf("InnermostCause = %q", got)
	}
	multi := "java.sql.SQLException: bad query\nline two of the message\n\tat x.Y.z(Y.java:1)\n"
	if c := Chain(multi, ""); len(c) != 1 || c[0].Message != "bad query\nline two of the message" {
		t.Errorf("a message on two lines: %+v", c)
	}
	if c := Chain("", "java.lang.OutOfMemoryError"); len(c) != 1 || c[0].Class != "java.lang.OutOfMemoryError" || c[0].Message != "" {
		t.Errorf("a name alone: %+v", c)
	}
	if c := Chain("java.lang.IllegalStateException\n\tat a.B.c(B.java:1)\n", ""); len(c) != 1 || c[0].String() != "java.lang.IllegalStateException" {
		t.Errorf("an exception without a message: %+v", c)
	}
}

func TestExceptionsMergeLiveAndKept(t *testing.T) {
	t0 := time.UnixMilli(1_732_863_000_000)
	live := LiveEntries(yarn.JobExceptions{History: struct {
		Entries   []yarn.RootException `json:"entries"`
		Truncated bool                 `json:"truncated"`
	}{Entries: []yarn.RootException{{ExceptionEntry: yarn.ExceptionEntry{ExceptionName: "java.io.IOException",
		Stacktrace: "java.io.IOException: reset\n", Timestamp: t0.Add(time.Minute).UnixMilli(), Location: "h:1"}}}}})
	kept := []model.JobException{
		{Time: t0.Add(time.Minute), Name: "java.io.IOException", Stacktrace: "java.io.IOException: reset\n"},
		{Time: t0, Name: "java.lang.Exception", Stacktrace: "java.lang.Exception: wrapped\nCaused by: java.util.concurrent.TimeoutException: late\n",
			Concurrent: []model.JobException{{Time: t0, Name: "java.lang.Exception"}}},
	}
	got := mergeExceptions(live, kept)
	if len(got) != 2 || got[0].Stored || got[0].Endpoint != "h:1" || !got[1].Stored ||
		got[1].RootCause != "java.util.concurrent.TimeoutException: late" || len(got[1].Concurrent) != 1 {
		t.Fatalf("%+v", got)
	}
}

func TestFlameFramesSelfAndHotPath(t *testing.T) {
	fs := flameFrames([]yarn.FlameFrame{
		{Name: "root", Value: 100, Parent: -1},
		{Name: "a", Value: 30, Depth: 1, Parent: 0},
		{Name: "b", Value: 65, Depth: 1, Parent: 0},
		{Name: "b1", Value: 20, Depth: 2, Parent: 2},
		{Name: "b2", Value: 40, Depth: 2, Parent: 2},
	})
	if fs[0].Self != 5 || fs[2].Self != 5 || fs[4].Self != 40 {
		t.Errorf("self samples: %+v", fs)
	}
	if p := hotPath(fs); fmt.Sprint(p) != "[0 2 4]" {
		t.Errorf("hot path %v", p)
	}
	if p := hotPath(nil); p != nil {
		t.Errorf("hot path of nothing: %v", p)
	}
}

func TestThreadStateIsReadFromTheFirstLine(t *testing.T) {
	for text, want := range map[string]string{
		"\"LookupJoin (1/2)#0\" Id=87 WAITING on java.util.concurrent.CompletableFuture$Signaller@5b1e0a3c\n\tat x": "WAITING",
		"\"GC Thread#0\" Id=3 RUNNABLE\n": "RUNNABLE",
		"garbage":                         "",
	} {
		if got := threadState(text); got != want {
			t.Errorf("threadState(%q) = %q, want %q", text, got, want)
		}
	}
}

// BenchmarkGraph200 builds the graph of 200 vertices in a chain with
// fan-out, the figures read: the work after the requests.
func BenchmarkGraph200(b *testing.B) {
	var edges []string
	for i := 1; i < 200; i++ {
		edges = append(edges, fmt.Sprintf("%d>%d:HASH", (i-1)/2, i))
	}
	det, plan := graphOf(200, edges...)
	f := make([]*vertexFigures, 200)
	for i := range f {
		f[i] = &vertexFigures{in: 10, out: 10, busy: float64(i%10) / 10, bp: float64(i%3) / 4, idle: 0.1, watermark: 1.7e12}
	}
	b.ReportAllocs()
	for b.Loop() {
		var g api.JobGraph
		buildGraph(&g, det, plan, f, time.Now())
	}
}

// BenchmarkSubtaskRows1000 turns a vertex of parallelism 1000 into rows
// and its skew.
func BenchmarkSubtaskRows1000(b *testing.B) {
	subs := make([]yarn.SubtaskDetails, 1000)
	rates := map[string]float64{}
	var bp yarn.Backpressure
	var wms []yarn.Metric
	for i := range subs {
		subs[i] = yarn.SubtaskDetails{Subtask: i, Endpoint: "h:1", Metrics: yarn.IOMetrics{ReadRecords: int64(i * 7 % 1000)}}
		rates[fmt.Sprintf("%d.numRecordsInPerSecond", i)] = float64(i)
		bp.Subtasks = append(bp.Subtasks, yarn.SubtaskBackpressure{Subtask: i, Ratio: 0.1})
		wms = append(wms, yarn.Metric{ID: fmt.Sprintf("%d.currentInputWatermark", i), Value: "1732863600000"})
	}
	b.ReportAllocs()
	for b.Loop() {
		rows := subtaskRows(subs, bp, wms, rates, time.Now())
		skewOf(rows, false)
	}
}
