package detail_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/detail"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// The Graph tab of the lookup-join job: its bottleneck, the lookup join,
// is named, highlighted and under the cursor.
func TestGoldenGraph(t *testing.T) {
	goldenFrame(t, "detail_graph", func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		h.Press("shift+tab", "shift+tab")
		h.MustShow("bottleneck LookupJoin[3]")
	})
}

func TestGoldenTaskManagers(t *testing.T) {
	goldenFrame(t, "detail_taskmanagers", func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		h.Press("shift+tab")
		h.MustShow("2 TaskManagers", "node8.prod")
	})
}

// A FAILED job whose application is gone: the first line of its failure
// is the innermost cause, not Flink's "Recovery is suppressed".
func TestGoldenExceptionInnermostCause(t *testing.T) {
	goldenFrame(t, "detail_exception_innermost", func(h *tuitest.Harness) {
		h.SelectJob("fraud-scoring")
		h.Press("E")
		h.MustShow("07:12:03     java.lang.OutOfMemoryError: Java heap space")
	})
	goldenFrame(t, "detail_exception_chain", func(h *tuitest.Harness) {
		h.SelectJob("fraud-scoring")
		h.Press("E", "enter")
		h.MustShow("1 org.apache.flink.runtime.JobException", "3 java.lang.OutOfMemoryError")
	})
}

// A running job's failure: L reads the TaskManager's log through Flink,
// from the head, at the failure's second.
func TestFailureLogOfARunningJobIsFlinks(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.SelectJob("user-features")
	h.Press("E")
	h.MustShow("java.util.concurrent.TimeoutException: Async function call has timed out.", "History · 2 earlier failures")
	h.Press("L")
	h.MustShow("TaskManager "+tuitest.UsersTM+" log", "LookupJoin[3] (2/2)#4 switched from RUNNING to FAILED")
	if h.F.Called("ContainerLogs") {
		t.Error("a running job's log was looked for among the containers")
	}
}

func TestContainerApp(t *testing.T) {
	for id, want := range map[string]string{
		"container_e01_1732000000000_0042_01_000002": "application_1732000000000_0042",
		"container_1732000000000_0042_01_000002":     "application_1732000000000_0042",
		"tm-1":                                       "",
	} {
		if got := detail.ContainerApp(id); got != want {
			t.Errorf("ContainerApp(%q) = %q, want %q", id, got, want)
		}
	}
}

// A job-wide failure names no TaskManager: L reads the log of the task
// failure that caused it.
func TestFailureLogOfAJobWideFailureIsItsTasks(t *testing.T) {
	fix := func(f *tuitest.Fake) *tuitest.Fake {
		h, _ := f.Exceptions(context.Background(), "j004")
		wide := h.Entries[0]
		wide.Task, wide.Endpoint, wide.TaskManager = "", "", ""
		h.Entries = append([]api.ExceptionEntry{wide}, h.Entries...)
		f.SetExceptions("j004", h)
		return f
	}
	h := apptest.New(t, fix(tuitest.NewFixture()), 120, 40, tui.Options{})
	h.SelectJob("user-features")
	h.Press("E", "L")
	h.MustShow("TaskManager "+tuitest.UsersTM+" log", "LookupJoin[3] (2/2)#4 switched from RUNNING to FAILED")
}

func TestCheckpointConfigLine(t *testing.T) {
	c := &api.CheckpointConfig{Mode: "AT_LEAST_ONCE", Interval: 30 * time.Second, Timeout: 10 * time.Minute, Retention: "DELETE_ON_CANCELLATION",
		Unaligned: true, AlignedTimeout: 5 * time.Second, StateBackend: "hashmap", Storage: "s3://ck", TolerableFailures: 2}
	want := "every 30.0s · AT_LEAST_ONCE · timeout 10m · DELETE_ON_CANCELLATION · unaligned after 5.0s aligned · 2 failures tolerated · hashmap → s3://ck"
	if got := detail.CheckpointConfigLine(c); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// A failure as the job's detail carries it is read down to its innermost
// cause, through every "Caused by:".
func TestEntryOfReadsTheInnermostCause(t *testing.T) {
	e := detail.EntryOf(api.ExceptionInfo{Name: "org.apache.flink.runtime.JobException: Recovery is suppressed",
		Stacktrace: "org.apache.flink.runtime.JobException: Recovery is suppressed\n\tat a.b(C.java:1)\nCaused by: java.lang.Exception: Could not complete\n\tat d.e(F.java:2)\nCaused by: java.util.concurrent.TimeoutException: Async function call has timed out.\n"})
	if e.RootCause != "java.util.concurrent.TimeoutException: Async function call has timed out." || len(e.Chain) != 3 || e.Chain[0].Class != "org.apache.flink.runtime.JobException" {
		t.Errorf("%+v", e)
	}
}

func TestContainerLogFilePicksTheMainLog(t *testing.T) {
	file := func(n string) api.LogSource {
		return api.LogSource{Kind: api.LogContainer, Ref: api.LogRef{Container: "c1", Name: n}}
	}
	l := api.ContainerLogList{Containers: []api.ContainerLog{
		{ID: "c1", Files: []api.LogSource{file("taskmanager.out"), file("gc.log"), file("taskmanager.log")}},
		{ID: "c2", Files: []api.LogSource{file("prelaunch.out"), file("gc.log")}},
		{ID: "c3"},
	}}
	for id, want := range map[string]string{"c1": "taskmanager.log", "c2": "gc.log", "c3": "", "c4": ""} {
		got, ok := detail.ContainerLogFile(l, id)
		if ok != (want != "") || got.Ref.Name != want {
			t.Errorf("%s: %q %v, want %q", id, got.Ref.Name, ok, want)
		}
	}
}

// The help of the Graph tab lists its keys first.
func TestGoldenGraphHelp(t *testing.T) {
	goldenFrame(t, "help_graph", func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		h.Press("shift+tab", "shift+tab", "?")
		h.MustShow("flame graph", "open vertex")
	})
}

// :theme light redraws the graph in the light theme's colours.
func TestGraphFollowsTheTheme(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("shift+tab", "shift+tab")
	box := func() string { return strings.Split(tuitest.Pinned(h.Render()), "\n")[7] }
	dark := box()
	h.Press(":")
	h.Type("theme light")
	h.Press("enter")
	if box() == dark {
		t.Errorf("the graph kept the dark theme's colours: %q", dark)
	}
}

// The shown graph is fetched again every few seconds; once another tab is
// shown, the timer ends.
func TestGraphKeepsCurrentWhileShown(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("shift+tab", "shift+tab")
	graphs := func() int {
		n := 0
		for _, c := range h.F.Calls() {
			if strings.HasPrefix(c, "JobGraph") {
				n++
			}
		}
		return n
	}
	before := graphs()
	h.Fire(detail.GraphTick)
	if graphs() != before+1 {
		t.Fatalf("the timer fetched %d graphs", graphs()-before)
	}
	h.Press("tab")
	h.Fire(detail.GraphTick)
	if graphs() != before+1 {
		t.Error("the graph was fetched while another tab was shown")
	}
}

// A view the graph opens covers it: no refresh until the graph is looked
// at again (a key reaches it).
func TestGraphRestsUnderTheViewsItOpens(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("shift+tab", "shift+tab", "enter")
	h.MustShow("skew 3.1×")
	n := len(h.F.Calls())
	h.Fire(detail.GraphTick)
	if len(h.F.Calls()) != n {
		t.Fatalf("the covered graph fetched: %v", h.F.Calls()[n:])
	}
	h.Press("esc", "down")
	if !slices.Contains(h.F.Calls()[n:], "JobGraph j001") {
		t.Errorf("back on the graph, a key did not fetch it again: %v", h.F.Calls()[n:])
	}
}
