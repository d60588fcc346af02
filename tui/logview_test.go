package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/internal/tuitest"
)

// The fixture's logs: orders-enrich (j001) has a JobManager log of 20,000
// lines (≈ 2.4 MB, ten chunks) with ERROR lines at 150, 9000 and 19990, a
// short stdout, a TaskManager log, and a YARN container link.
const (
	tmID    = "container_e01_1732000000000_0042_01_000002"
	amLink  = "http://node3.prod:8042/node/containerlogs/container_e01_1732000000000_0042_01_000001/flink"
	jmLines = 20000
)

var jmLog = tuitest.LogLines(jmLines, 150, 9000, 19990)

func withLogs(f *tuitest.Fake) {
	f.SetLog("j001", api.LogJobManager, api.LogRef{}, "JobManager log", jmLog)
	f.SetLog("j001", api.LogJobManager, api.LogRef{Stdout: true}, "JobManager stdout", []byte("2026-03-14 09:00:00 stdout: started\n"))
	f.SetLog("j001", api.LogJobManager, api.LogRef{Name: "jobmanager.err"}, "JobManager jobmanager.err", nil)
	f.SetLog("j001", api.LogTaskManager, api.LogRef{TaskManager: tmID}, "TaskManager "+tmID+" log", tuitest.LogLines(40, 12))
	f.SetLog("j001", api.LogTaskManager, api.LogRef{TaskManager: tmID, Stdout: true}, "TaskManager "+tmID+" stdout", nil)
	f.SetLink("j001", "AM container (JobManager), current attempt", amLink)
}

// openJMLog opens orders-enrich's JobManager log from the jobs view: l
// opens the job's Logs tab, enter the first log.
func (h *harness) openJMLog() *logViewer {
	h.T.Helper()
	h.SelectJob("orders-enrich")
	h.Press("l")
	h.MustShow("JobManager", "TaskManager "+tmID, "http://node3.prod:8042/")
	h.Press("enter")
	v, ok := h.m.top().(*logViewer)
	if !ok {
		h.T.Fatalf("enter on the Logs tab opened %T", h.m.top())
	}
	return v
}

func logHarness(t *testing.T, w, ht int) *harness {
	f := tuitest.NewFixture()
	withLogs(f)
	return newHarness(t, f, w, ht, Options{Context: "test"})
}

func TestLogViewerOpensOnTheTailAndPagesInBoundedChunks(t *testing.T) {
	h := logHarness(t, 120, 40)
	v := h.openJMLog()
	h.MustShow("line 19999)", "orders-enrich · JobManager log", "100%")
	if v.win.end() != int64(len(jmLog)) || len(v.win.data) > logChunk {
		t.Fatalf("opened with [%d,%d) of %d", v.win.start, v.win.end(), len(jmLog))
	}
	reads := h.F.LogReads()

	// Up to the top, a page at a time: chunks are read as the view comes
	// near the window's head, and the window never holds more than its max.
	for range 3000 {
		h.Press("pgup")
		if len(v.win.data) > logWindowMax {
			t.Fatalf("the window holds %d bytes", len(v.win.data))
		}
		if v.win.start == 0 && v.top == 0 {
			break
		}
	}
	h.MustShow("line 0)", "line 1)")
	if got := h.F.LogReads() - reads; got < len(jmLog)/logChunk {
		t.Errorf("%d reads to page through %d bytes", got, len(jmLog))
	}
	// G reads the tail again rather than paging down.
	reads = h.F.LogReads()
	h.Press("G")
	h.MustShow("line 19999)")
	if got := h.F.LogReads() - reads; got != 1 {
		t.Errorf("G took %d reads", got)
	}
	// g reads the head.
	h.Press("g")
	h.MustShow("line 0)")
	if v.win.start != 0 || v.top != 0 {
		t.Fatalf("g left the view at line %d of a window at %d", v.top, v.win.start)
	}
	h.Press("esc")
	if _, ok := h.m.top().(*detailScreen); !ok {
		t.Fatalf("esc from the viewer went to %T", h.m.top())
	}
}

func TestLogViewerSearchesTheWindowThenTheService(t *testing.T) {
	h := logHarness(t, 120, 40)
	v := h.openJMLog()

	// In the window: no request.
	h.Press("/")
	h.Type("line 19995)")
	h.Press("enter")
	if v.match == nil || !strings.Contains(string(v.win.line(v.win.lineAt(v.match.off))), "line 19995)") {
		t.Fatalf("match %+v", v.match)
	}
	if h.F.Called("FindInLog") {
		t.Fatal("a match in the window asked the service")
	}
	h.MustShow("line 19995)", "“line 19995)” at 1.8 MiB")

	// Backward past the window: the service scans, and the window is read
	// around its hit.
	h.Press("/")
	h.Type("line 42)")
	h.Press("enter") // forward from here: nothing below
	if !strings.Contains(h.Flash(), "no match for “line 42)” after this point") {
		t.Fatalf("flash %q", h.Flash())
	}
	h.Press("N")
	if !h.F.Called(`FindInLog j001 "line 42)"`) {
		t.Fatalf("calls %v", h.F.Calls())
	}
	h.MustShow("line 42)")
	if off := v.match.off; !bytes.HasPrefix(jmLog[off:], v.win.line(v.win.lineAt(off))) || !strings.Contains(string(v.win.line(v.win.lineAt(off))), "line 42)") {
		t.Fatalf("current match at %d is not line 42", off)
	}

	// E finds the first ERROR from the top of the file, n the next ones.
	h.Press("E")
	h.MustShow("ERROR", "Lookup failed (line 150)")
	first := v.match.off
	h.Press("n") // the exception line right after it
	if v.match.off <= first || !strings.Contains(string(v.win.line(v.win.lineAt(v.match.off))), "SocketTimeoutException") {
		t.Fatalf("n went to %q", v.win.line(v.win.lineAt(v.match.off)))
	}
	h.Press("n", "n")
	h.MustShow("Lookup failed (line 9000)")
	h.Press("N", "N")
	h.MustShow("Lookup failed (line 150)")
}

func TestLogViewerFollowsTheTail(t *testing.T) {
	h := logHarness(t, 120, 40)
	v := h.openJMLog()
	h.Press("f")
	h.MustShow("● following")
	h.F.AppendLog("j001", api.LogRef{}, "2026-03-14 10:00:00,000 INFO  new line after follow\n")
	h.Fire(logPollMsg{})
	h.MustShow("new line after follow")
	if !v.atBottom() {
		t.Fatal("following left the bottom")
	}

	// Scrolled up, it stops reading; G resumes.
	h.Press("k")
	h.MustShow("following paused")
	reads := h.F.LogReads()
	h.F.AppendLog("j001", api.LogRef{}, "2026-03-14 10:00:01,000 INFO  second line\n")
	h.Fire(logPollMsg{})
	if h.F.LogReads() != reads {
		t.Fatal("a poll read the log while the view was not at the bottom")
	}
	h.Press("G")
	h.Fire(logPollMsg{})
	h.MustShow("second line", "● following")

	// A burst bigger than the window: the next poll reads the tail.
	h.F.AppendLog("j001", api.LogRef{}, string(tuitest.LogLines(12000)))
	h.F.AppendLog("j001", api.LogRef{}, "2026-03-14 11:00:00,000 INFO  after the burst\n")
	for range 5 {
		h.Fire(logPollMsg{})
	}
	h.MustShow("after the burst")
	if len(v.win.data) > logWindowMax {
		t.Fatalf("the window holds %d bytes", len(v.win.data))
	}

	// f again stops the polling for good.
	h.Press("f")
	reads = h.F.LogReads()
	h.F.AppendLog("j001", api.LogRef{}, "2026-03-14 12:00:00,000 INFO  unseen\n")
	h.Fire(logPollMsg{})
	h.MustNotShow("unseen")
	if h.F.LogReads() != reads {
		t.Fatal("polling went on after follow was turned off")
	}
}

func TestLogViewerWrapsAndSaves(t *testing.T) {
	h := logHarness(t, 80, 24)
	h.openJMLog()
	h.MustNotShow("(line 19999)")
	h.Press("w")
	h.MustShow("(line 19999)", "wrap")

	path := filepath.Join(t.TempDir(), "jm.log")
	h.Press("ctrl+s")
	h.MustShow("save to: orders-enrich-jobmanager-log.log")
	for range len("orders-enrich-jobmanager-log.log") {
		h.Press("backspace")
	}
	h.Type(path)
	h.Press("enter")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, jmLog) {
		t.Fatalf("saved %d bytes, the log has %d", len(got), len(jmLog))
	}
	if !strings.Contains(h.Flash(), "saved orders-enrich JobManager log (1.8 MiB)") || !strings.Contains(h.Flash(), path) {
		t.Fatalf("flash %q", h.Flash())
	}
	// Saving over an existing file is refused by the service and said.
	h.Press("ctrl+s")
	for range len("orders-enrich-jobmanager-log.log") {
		h.Press("backspace")
	}
	h.Type(path)
	h.Press("enter")
	if !strings.Contains(h.Flash(), "file exists") {
		t.Fatalf("flash %q", h.Flash())
	}
}

func TestLogsTabCopiesContainerLinksAndShowsWhyFlinkLogsAreMissing(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.SelectJob("orders-enrich")
	h.Press("l")
	for range 6 {
		h.Press("j")
	}
	h.Press("enter")
	if !strings.Contains(h.Flash(), "copied to the clipboard: "+amLink) {
		t.Fatalf("flash %q", h.Flash())
	}
	if _, ok := h.m.top().(*detailScreen); !ok {
		t.Fatalf("enter on a link opened %T", h.m.top())
	}

	// A job without Flink logs: the list says why.
	h.Press("esc")
	h.SelectJob("fraud-scoring")
	h.Press("l")
	h.MustShow("is FAILED: its JobManager and TaskManagers are gone")
	if n := len(h.F.Calls()); !h.F.Called("Logs j") || n == 0 {
		t.Fatal("the Logs tab did not list the logs")
	}
}

func TestLogsAreListedOnlyWhenTheTabIsShown(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.OpenDetail("orders-enrich")
	if h.F.Called("Logs") {
		t.Fatal("opening the detail listed the logs")
	}
	h.Press("l")
	if !h.F.Called("Logs j001") {
		t.Fatal("showing the Logs tab did not list the logs")
	}
}

func TestExceptionsTabFoldsStackTraces(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.OpenDetail("orders-enrich")
	for range 3 {
		h.Press("tab")
	}
	h.MustShow("Root cause", "java.net.SocketTimeoutException: Read timed out", "▸ stack trace, 3 lines", "History · 1 earlier failure", "org.apache.kafka.common.errors.TimeoutException")
	h.MustNotShow("JdbcLookupFunction.eval")
	h.Press("enter")
	h.MustShow("▾ stack trace", "at org.apache.flink.connector.jdbc.JdbcLookupFunction.eval(JdbcLookupFunction.java:88)")
	h.Press("enter")
	h.MustNotShow("JdbcLookupFunction.eval")
}

func TestGoldenLogsTab(t *testing.T) {
	goldenFrame(t, "logs_tab", func(h *harness) {
		withLogs(h.F)
		h.SelectJob("orders-enrich")
		h.Press("l", "j")
	})
}

func TestGoldenLogViewer(t *testing.T) {
	goldenFrame(t, "log_viewer", func(h *harness) {
		withLogs(h.F)
		h.openJMLog()
	})
}

func TestGoldenLogViewerSearch(t *testing.T) {
	goldenFrame(t, "log_viewer_search", func(h *harness) {
		withLogs(h.F)
		h.openJMLog()
		h.Press("E")
	})
}

func TestGoldenLogViewerWrapFollow(t *testing.T) {
	goldenFrame(t, "log_viewer_wrap_follow", func(h *harness) {
		withLogs(h.F)
		h.openJMLog()
		h.Press("w", "f")
	})
}

func TestGoldenExceptionsExpanded(t *testing.T) {
	goldenFrame(t, "detail_exceptions_expanded", func(h *harness) {
		h.OpenDetail("orders-enrich")
		h.Press("tab", "tab", "tab", "enter")
	})
}

func TestFirstErrorSaysWhenTheLogHasNone(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.SelectJob("orders-enrich")
	h.Press("l", "j", "enter") // the JobManager's stdout
	h.MustShow("stdout: started")
	h.Press("E")
	if want := "JobManager stdout: no match for ERROR/exception in the whole log"; h.Flash() != want {
		t.Fatalf("flash %q, want %q", h.Flash(), want)
	}
}

func TestExceptionsTabShowsYARNDiagnosticsWhenFlinkIsGone(t *testing.T) {
	h := logHarness(t, 80, 24)
	h.F.Jobs[slices.IndexFunc(h.F.Jobs, func(j api.JobView) bool { return j.Name == "fraud-scoring" })].Diagnostics =
		"org.apache.flink.runtime.JobException: Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=10000)\n" +
			"\tat org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.handleFailure(ExecutionFailureHandler.java:180)\n" +
			"Caused by: java.lang.OutOfMemoryError: Java heap space"
	h.OpenDetail("fraud-scoring")
	h.Press("tab", "tab", "tab")
	h.MustShow("Root cause", "YARN's diagnostics", "backoffTimeMS", "Caused by: java.lang.OutOfMemoryError: Java heap space")
}
