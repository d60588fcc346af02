package diagnose_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/diagnose"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/logview"
)

func graphHarness(t *testing.T) *tuitest.Harness {
	t.Helper()
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	openGraph(h)
	return h
}

// From the graph down to the machine: the hot subtask's TaskManager, its
// thread dump in the log viewer (filtered with /), and back.
func TestFromTheBottleneckToItsTaskManagersThreadDump(t *testing.T) {
	h := graphHarness(t)
	h.Press("enter", "enter")
	h.MustShow("TaskManager container_e01_1732000000000_0042_01_000003", "node8.prod", "G1 Young Generation")
	h.Press("t")
	if _, ok := h.Top().(*logview.Viewer); !ok {
		t.Fatalf("t opened %T, want the log viewer", h.Top())
	}
	h.MustShow("thread dump of TaskManager container_e01_1732000000000_0042_01_000003 (4 threads)", `"LookupJoin[3] (3/4)#0" Id=88 RUNNABLE`)
	h.Type("/PGStream")
	h.Press("enter")
	h.MustShow("org.postgresql.core.PGStream.receiveChar")
	if !h.F.Called("TaskManager j001 container_e01_1732000000000_0042_01_000003") {
		t.Errorf("calls %v", h.F.Calls())
	}
	h.Press("esc", "esc") // the first clears the viewer's filter
	h.MustShow("Garbage collection")
	h.Press("l")
	h.MustShow("TaskManager container_e01_1732000000000_0042_01_000003 log")
}

// t turns the flame graph between on-CPU, off-CPU and full samples; enter
// zooms into a frame and esc zooms out before it leaves.
func TestFlameGraphTypesAndZoom(t *testing.T) {
	h := graphHarness(t)
	h.Press("f")
	h.MustShow("all · 43 samples")
	h.Press("t")
	h.MustShow("all · 51 samples") // off CPU: the wait on the database
	if !h.F.Called("FlameGraph j001 " + tuitest.LookupVertex + " OFF_CPU") {
		t.Errorf("calls %v", h.F.Calls())
	}
	h.Press("down", "down", "down", "enter")
	h.MustShow("zoomed on")
	h.Press("esc")
	h.MustShow("all · 51 samples")
	if !strings.Contains(h.Top().Title(), "flame graph") {
		t.Fatalf("esc while zoomed left the flame graph for %q", h.Top().Title())
	}
	h.Press("esc")
	if strings.Contains(h.Top().Title(), "flame graph") {
		t.Fatal("esc did not leave the flame graph once zoomed out")
	}
}

// A fetch that fails says what could not be fetched, and ctrl+r tries
// again.
func TestAFailedFetchSaysWhatItCouldNotFetch(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.F.SetFail(errors.New("jobmanager unavailable"))
	h.Press("shift+tab", "shift+tab")
	h.MustShow("✖ fetch graph of orders-enrich: jobmanager unavailable", "ctrl+r retries")
	h.F.SetFail(nil)
	h.Press("ctrl+r")
	h.MustShow("bottleneck LookupJoin[3]")
}

// The TaskManagers tab's c shows the configuration: the job's, then the
// JobManager's with Flink's masks.
func TestConfigView(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("shift+tab", "c")
	h.MustShow("orders-enrich · Flink configuration", "restart strategy: fixed-delay (3 attempts, 10 s)", "flame graphs: on",
		"table.exec.async-lookup.timeout: 3 min", "s3.secret-key: ******")
}

// While Flink takes its first samples, the view says so and asks again
// after a while, until the graph is there.
func TestFlameGraphAsksAgainWhileFlinkSamples(t *testing.T) {
	h := graphHarness(t)
	h.F.SetFlameGraph("j001", api.FlameGraph{JobID: "j001", VertexID: tuitest.LookupVertex, Type: api.FlameOnCPU, Status: api.FlameWaiting})
	h.Press("f")
	h.MustShow("Flink is taking the first samples of this vertex…")
	h.F.SetFlameGraph("j001", tuitest.LookupFlame(api.FlameOnCPU))
	h.Fire(diagnose.FlameRetry)
	h.MustShow("all · 43 samples")
}

// Leaving a view cancels its request in flight: the root closes it.
func TestLeavingAViewCancelsItsRequest(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetDelay(time.Hour)
	e := tuitest.Env(f)
	e.Timeout = time.Hour
	v, load := diagnose.NewTaskManager(e, f.Jobs[0], "container_e01_1732000000000_0042_01_000002")
	done := make(chan tea.Msg)
	go func() { done <- load() }()
	v.Close()
	select {
	case msg := <-done:
		v.Update(tuitest.SizeMsg(120, 20))
		v.Update(msg)
		if got := tuitest.Strip(v.View()); !strings.Contains(got, "context canceled") {
			t.Errorf("the request did not end cancelled:\n%s", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("closing the view did not cancel its request")
	}
}

// historyCalls counts the vertex view's reads of its subtasks' history.
func historyCalls(f *tuitest.Fake) int {
	n := 0
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, "SubtaskHistory j001 "+tuitest.LookupVertex) {
			n++
		}
	}
	return n
}

// The vertex view draws each subtask's backpressure and watermark delay
// over the last minutes, and reads them again when the job's figures move
// on (core took a round, which sampled the subtasks on screen) while the
// view is on screen — not for another job's, nor once it is left.
func TestVertexViewFollowsItsSubtasksHistory(t *testing.T) {
	h := graphHarness(t)
	h.Press("enter")
	h.MustShow("BP 5m", "WM DELAY 5m", "▃▃▃▃▄▇██▆▄▂▂▂▂▂▂▂  -4.3s")
	if n := historyCalls(h.F); n != 1 {
		t.Fatalf("opening the view read the history %d times, want once", n)
	}
	h.Screen() // drawn: on screen
	orders := h.F.Jobs[0]
	orders.Figures.At = tuitest.Now.Add(5 * time.Second)
	h.Change(api.Change{Kind: api.JobChanged, Job: &orders})
	if n := historyCalls(h.F); n != 2 {
		t.Fatalf("new figures of the job: %d reads in all, want 2", n)
	}
	other := h.F.Jobs[1]
	other.Figures.At = tuitest.Now.Add(time.Minute)
	h.Change(api.Change{Kind: api.JobChanged, Job: &other})
	h.Press("enter") // the hot subtask's TaskManager, over the view
	h.Screen()
	h.Send(h.App.Tick(tuitest.Now.Add(10 * time.Second)))
	orders.Figures.At = tuitest.Now.Add(10 * time.Second)
	h.Change(api.Change{Kind: api.JobChanged, Job: &orders})
	if n := historyCalls(h.F); n != 2 {
		t.Fatalf("another job's figures, or the view off screen, read the history: %d reads", n)
	}
}

// M on a vertex opens the metric browser on that vertex's metrics.
func TestVertexViewOpensItsMetrics(t *testing.T) {
	h := graphHarness(t)
	h.Press("enter", "M")
	h.MustShow("orders-enrich · metrics of LookupJoin[3]", "0.busyTimeMsPerSecond")
	if !h.F.Called("FlinkMetrics j001 vertex" + tuitest.LookupVertex + " 0") {
		t.Errorf("calls %v", h.F.Calls())
	}
}

// M on a TaskManager opens the metric browser on its JVM's metrics.
func TestTaskManagerOpensItsMetrics(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("shift+tab", "enter")
	h.MustShow("Garbage collection")
	h.Press("M")
	h.MustShow("metrics of TaskManager", "Status.JVM.Memory.Heap.Used", "1181116006")
}
