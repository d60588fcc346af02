package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
)

// The fixture's logs: orders-enrich (j001) has a JobManager log of 20,000
// lines (≈ 2.4 MB, ten chunks) with ERROR lines at 150, 9000 and 19990, a
// short stdout, a TaskManager log, and a YARN container link.
const (
	tmID    = "container_e01_1732000000000_0042_01_000002"
	amLink  = "http://node3.prod:8042/node/containerlogs/container_e01_1732000000000_0042_01_000001/flink"
	jmLines = 20000
)

var jmLog = logLines(jmLines, 150, 9000, 19990)

func withLogs(f *fakeService) {
	f.setLog("j001", api.LogJobManager, api.LogRef{}, "JobManager log", jmLog)
	f.setLog("j001", api.LogJobManager, api.LogRef{Stdout: true}, "JobManager stdout", []byte("2026-03-14 09:00:00 stdout: started\n"))
	f.setLog("j001", api.LogJobManager, api.LogRef{Name: "jobmanager.err"}, "JobManager jobmanager.err", nil)
	f.setLog("j001", api.LogTaskManager, api.LogRef{TaskManager: tmID}, "TaskManager "+tmID+" log", logLines(40, 12))
	f.setLog("j001", api.LogTaskManager, api.LogRef{TaskManager: tmID, Stdout: true}, "TaskManager "+tmID+" stdout", nil)
	f.setLink("j001", "AM container (JobManager), current attempt", amLink)
}

// openJMLog opens orders-enrich's JobManager log from the jobs view: l
// opens the job's Logs tab, enter the first log.
func (h *harness) openJMLog() *logViewer {
	h.t.Helper()
	h.selectJob("orders-enrich")
	h.press("l")
	h.mustShow("JobManager", "TaskManager "+tmID, "http://node3.prod:8042/")
	h.press("enter")
	v, ok := h.m.top().(*logViewer)
	if !ok {
		h.t.Fatalf("enter on the Logs tab opened %T", h.m.top())
	}
	return v
}

func logHarness(t *testing.T, w, ht int) *harness {
	f := newFixture()
	withLogs(f)
	return newHarness(t, f, w, ht, Options{Context: "test"})
}

func TestLogViewerOpensOnTheTailAndPagesInBoundedChunks(t *testing.T) {
	h := logHarness(t, 120, 40)
	v := h.openJMLog()
	h.mustShow("line 19999)", "orders-enrich · JobManager log", "100%")
	if v.win.end() != int64(len(jmLog)) || len(v.win.data) > logChunk {
		t.Fatalf("opened with [%d,%d) of %d", v.win.start, v.win.end(), len(jmLog))
	}
	reads := h.f.logReads()

	// Up to the top, a page at a time: chunks are read as the view comes
	// near the window's head, and the window never holds more than its max.
	for range 3000 {
		h.press("pgup")
		if len(v.win.data) > logWindowMax {
			t.Fatalf("the window holds %d bytes", len(v.win.data))
		}
		if v.win.start == 0 && v.top == 0 {
			break
		}
	}
	h.mustShow("line 0)", "line 1)")
	if got := h.f.logReads() - reads; got < len(jmLog)/logChunk {
		t.Errorf("%d reads to page through %d bytes", got, len(jmLog))
	}
	// G reads the tail again rather than paging down.
	reads = h.f.logReads()
	h.press("G")
	h.mustShow("line 19999)")
	if got := h.f.logReads() - reads; got != 1 {
		t.Errorf("G took %d reads", got)
	}
	// g reads the head.
	h.press("g")
	h.mustShow("line 0)")
	if v.win.start != 0 || v.top != 0 {
		t.Fatalf("g left the view at line %d of a window at %d", v.top, v.win.start)
	}
	h.press("esc")
	if _, ok := h.m.top().(*detailScreen); !ok {
		t.Fatalf("esc from the viewer went to %T", h.m.top())
	}
}

func TestLogViewerSearchesTheWindowThenTheService(t *testing.T) {
	h := logHarness(t, 120, 40)
	v := h.openJMLog()

	// In the window: no request.
	h.press("/")
	h.typeText("line 19995)")
	h.press("enter")
	if v.match == nil || !strings.Contains(string(v.win.line(v.win.lineAt(v.match.off))), "line 19995)") {
		t.Fatalf("match %+v", v.match)
	}
	if h.f.called("FindInLog") {
		t.Fatal("a match in the window asked the service")
	}
	h.mustShow("line 19995)", "“line 19995)” at 1.8 MiB")

	// Backward past the window: the service scans, and the window is read
	// around its hit.
	h.press("/")
	h.typeText("line 42)")
	h.press("enter") // forward from here: nothing below
	if !strings.Contains(h.flashText(), "no match for “line 42)” after this point") {
		t.Fatalf("flash %q", h.flashText())
	}
	h.press("N")
	if !h.f.called(`FindInLog j001 "line 42)"`) {
		t.Fatalf("calls %v", h.f.Calls())
	}
	h.mustShow("line 42)")
	if off := v.match.off; !bytes.HasPrefix(jmLog[off:], v.win.line(v.win.lineAt(off))) || !strings.Contains(string(v.win.line(v.win.lineAt(off))), "line 42)") {
		t.Fatalf("current match at %d is not line 42", off)
	}

	// E finds the first ERROR from the top of the file, n the next ones.
	h.press("E")
	h.mustShow("ERROR", "Lookup failed (line 150)")
	first := v.match.off
	h.press("n") // the exception line right after it
	if v.match.off <= first || !strings.Contains(string(v.win.line(v.win.lineAt(v.match.off))), "SocketTimeoutException") {
		t.Fatalf("n went to %q", v.win.line(v.win.lineAt(v.match.off)))
	}
	h.press("n", "n")
	h.mustShow("Lookup failed (line 9000)")
	h.press("N", "N")
	h.mustShow("Lookup failed (line 150)")
}

func TestLogViewerFollowsTheTail(t *testing.T) {
	h := logHarness(t, 120, 40)
	v := h.openJMLog()
	h.press("f")
	h.mustShow("● following")
	h.f.appendLog("j001", api.LogRef{}, "2026-03-14 10:00:00,000 INFO  new line after follow\n")
	h.fire(logPollMsg{})
	h.mustShow("new line after follow")
	if !v.atBottom() {
		t.Fatal("following left the bottom")
	}

	// Scrolled up, it stops reading; G resumes.
	h.press("k")
	h.mustShow("following paused")
	reads := h.f.logReads()
	h.f.appendLog("j001", api.LogRef{}, "2026-03-14 10:00:01,000 INFO  second line\n")
	h.fire(logPollMsg{})
	if h.f.logReads() != reads {
		t.Fatal("a poll read the log while the view was not at the bottom")
	}
	h.press("G")
	h.fire(logPollMsg{})
	h.mustShow("second line", "● following")

	// A burst bigger than the window: the next poll reads the tail.
	h.f.appendLog("j001", api.LogRef{}, string(logLines(12000)))
	h.f.appendLog("j001", api.LogRef{}, "2026-03-14 11:00:00,000 INFO  after the burst\n")
	for range 5 {
		h.fire(logPollMsg{})
	}
	h.mustShow("after the burst")
	if len(v.win.data) > logWindowMax {
		t.Fatalf("the window holds %d bytes", len(v.win.data))
	}

	// f again stops the polling for good.
	h.press("f")
	reads = h.f.logReads()
	h.f.appendLog("j001", api.LogRef{}, "2026-03-14 12:00:00,000 INFO  unseen\n")
	h.fire(logPollMsg{})
	h.mustNotShow("unseen")
	if h.f.logReads() != reads {
		t.Fatal("polling went on after follow was turned off")
	}
}

func TestLogViewerWrapsAndSaves(t *testing.T) {
	h := logHarness(t, 80, 24)
	h.openJMLog()
	h.mustNotShow("(line 19999)")
	h.press("w")
	h.mustShow("(line 19999)", "wrap")

	path := filepath.Join(t.TempDir(), "jm.log")
	h.press("ctrl+s")
	h.mustShow("save to: orders-enrich-jobmanager-log.log")
	for range len("orders-enrich-jobmanager-log.log") {
		h.press("backspace")
	}
	h.typeText(path)
	h.press("enter")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, jmLog) {
		t.Fatalf("saved %d bytes, the log has %d", len(got), len(jmLog))
	}
	if !strings.Contains(h.flashText(), "saved orders-enrich JobManager log (1.8 MiB)") || !strings.Contains(h.flashText(), path) {
		t.Fatalf("flash %q", h.flashText())
	}
	// Saving over an existing file is refused by the service and said.
	h.press("ctrl+s")
	for range len("orders-enrich-jobmanager-log.log") {
		h.press("backspace")
	}
	h.typeText(path)
	h.press("enter")
	if !strings.Contains(h.flashText(), "file exists") {
		t.Fatalf("flash %q", h.flashText())
	}
}

func TestLogsTabCopiesContainerLinksAndShowsWhyFlinkLogsAreMissing(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.selectJob("orders-enrich")
	h.press("l")
	for range 6 {
		h.press("j")
	}
	h.press("enter")
	if !strings.Contains(h.flashText(), "copied to the clipboard: "+amLink) {
		t.Fatalf("flash %q", h.flashText())
	}
	if _, ok := h.m.top().(*detailScreen); !ok {
		t.Fatalf("enter on a link opened %T", h.m.top())
	}

	// A job without Flink logs: the list says why.
	h.press("esc")
	h.selectJob("fraud-scoring")
	h.press("l")
	h.mustShow("is FAILED: its JobManager and TaskManagers are gone")
	if n := len(h.f.Calls()); !h.f.called("Logs j") || n == 0 {
		t.Fatal("the Logs tab did not list the logs")
	}
}

func TestLogsAreListedOnlyWhenTheTabIsShown(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.openDetail("orders-enrich")
	if h.f.called("Logs") {
		t.Fatal("opening the detail listed the logs")
	}
	h.press("l")
	if !h.f.called("Logs j001") {
		t.Fatal("showing the Logs tab did not list the logs")
	}
}

func TestExceptionsTabFoldsStackTraces(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.openDetail("orders-enrich")
	for range 3 {
		h.press("tab")
	}
	h.mustShow("Root cause", "java.net.SocketTimeoutException: Read timed out", "▸ stack trace, 3 lines", "History · 1 earlier failure", "org.apache.kafka.common.errors.TimeoutException")
	h.mustNotShow("JdbcLookupFunction.eval")
	h.press("enter")
	h.mustShow("▾ stack trace", "at org.apache.flink.connector.jdbc.JdbcLookupFunction.eval(JdbcLookupFunction.java:88)")
	h.press("enter")
	h.mustNotShow("JdbcLookupFunction.eval")
}

func TestGoldenLogsTab(t *testing.T) {
	goldenFrame(t, "logs_tab", func(h *harness) {
		withLogs(h.f)
		h.selectJob("orders-enrich")
		h.press("l", "j")
	})
}

func TestGoldenLogViewer(t *testing.T) {
	goldenFrame(t, "log_viewer", func(h *harness) {
		withLogs(h.f)
		h.openJMLog()
	})
}

func TestGoldenLogViewerSearch(t *testing.T) {
	goldenFrame(t, "log_viewer_search", func(h *harness) {
		withLogs(h.f)
		h.openJMLog()
		h.press("E")
	})
}

func TestGoldenLogViewerWrapFollow(t *testing.T) {
	goldenFrame(t, "log_viewer_wrap_follow", func(h *harness) {
		withLogs(h.f)
		h.openJMLog()
		h.press("w", "f")
	})
}

func TestGoldenExceptionsExpanded(t *testing.T) {
	goldenFrame(t, "detail_exceptions_expanded", func(h *harness) {
		h.openDetail("orders-enrich")
		h.press("tab", "tab", "tab", "enter")
	})
}

func TestFirstErrorSaysWhenTheLogHasNone(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.selectJob("orders-enrich")
	h.press("l", "j", "enter") // the JobManager's stdout
	h.mustShow("stdout: started")
	h.press("E")
	if want := "JobManager stdout: no match for ERROR/exception in the whole log"; h.flashText() != want {
		t.Fatalf("flash %q, want %q", h.flashText(), want)
	}
}

func TestExceptionsTabShowsYARNDiagnosticsWhenFlinkIsGone(t *testing.T) {
	h := logHarness(t, 80, 24)
	h.f.jobs[slices.IndexFunc(h.f.jobs, func(j api.JobView) bool { return j.Name == "fraud-scoring" })].Diagnostics =
		"org.apache.flink.runtime.JobException: Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=10000)\n" +
			"\tat org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.handleFailure(ExecutionFailureHandler.java:180)\n" +
			"Caused by: java.lang.OutOfMemoryError: Java heap space"
	h.openDetail("fraud-scoring")
	h.press("tab", "tab", "tab")
	h.mustShow("Root cause", "YARN's diagnostics", "backoffTimeMS", "Caused by: java.lang.OutOfMemoryError: Java heap space")
}
