package logview_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/logview"
)

var jmLog = tuitest.JMLog

// openJMLog opens orders-enrich's JobManager log from the jobs view: l
// opens the job's Logs tab, enter the first log.
func openJMLog(h *tuitest.Harness) *logview.Viewer {
	h.T.Helper()
	h.SelectJob("orders-enrich")
	h.Press("l")
	h.MustShow("JobManager", "TaskManager "+tuitest.TMID, "YARN containers")
	h.Press("enter")
	v, ok := h.Top().(*logview.Viewer)
	if !ok {
		h.T.Fatalf("enter on the Logs tab opened %T", h.Top())
	}
	return v
}

func logHarness(t *testing.T, w, ht int) *tuitest.Harness {
	return apptest.New(t, tuitest.WithLogs(tuitest.NewFixture()), w, ht, tui.Options{Context: "test"})
}

// lineOfMatch is the line of the viewer's current match, "" for none.
func lineOfMatch(v *logview.Viewer) string {
	off, ok := v.Match()
	if !ok {
		return ""
	}
	return v.LineAt(off)
}

func TestLogViewerOpensOnTheTailAndPagesInBoundedChunks(t *testing.T) {
	h := logHarness(t, 120, 40)
	v := openJMLog(h)
	h.MustShow("line 19999)", "orders-enrich · JobManager log", "100%")
	if v.WinEnd() != int64(len(jmLog)) || v.WinBytes() > logview.Chunk {
		t.Fatalf("opened with [%d,%d) of %d", v.WinStart(), v.WinEnd(), len(jmLog))
	}
	reads := h.F.LogReads()

	// Up to the top, a page at a time: chunks are read as the view comes
	// near the window's head, and the window never holds more than its max.
	for range 3000 {
		h.Press("pgup")
		if v.WinBytes() > logview.WindowMax {
			t.Fatalf("the window holds %d bytes", v.WinBytes())
		}
		if v.WinStart() == 0 && v.TopLine() == 0 {
			break
		}
	}
	h.MustShow("line 0)", "line 1)")
	if got := h.F.LogReads() - reads; got < len(jmLog)/logview.Chunk {
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
	if v.WinStart() != 0 || v.TopLine() != 0 {
		t.Fatalf("g left the view at line %d of a window at %d", v.TopLine(), v.WinStart())
	}
	h.Press("esc")
	if top := h.Top().Title(); top != "orders-enrich" {
		t.Fatalf("esc from the viewer went to %s", top)
	}
}

func TestLogViewerSearchesTheWindowThenTheService(t *testing.T) {
	h := logHarness(t, 120, 40)
	v := openJMLog(h)

	// In the window: no request.
	h.Press("/")
	h.Type("line 19995)")
	h.Press("enter", "enter")
	if !strings.Contains(lineOfMatch(v), "line 19995)") {
		t.Fatalf("match on %q", lineOfMatch(v))
	}
	if h.F.Called("FindInLog") {
		t.Fatal("a match in the window asked the service")
	}
	h.MustShow("line 19995)", "“line 19995)” at 1.8 MiB")

	// Above the window: the filter reads the log back to it, and enter
	// reads the window around it. n searches on: nothing below, so the
	// search wraps to the top, the service scans, and it comes back to
	// the only match (#12).
	h.Press("/")
	h.Type("line 42)")
	h.Press("enter", "enter")
	h.MustShow("line 42)")
	if off, _ := v.Match(); !bytes.HasPrefix(jmLog[off:], []byte(v.LineAt(off))) || !strings.Contains(v.LineAt(off), "line 42)") {
		t.Fatalf("current match at %d is not line 42", off)
	}
	h.Press("n")
	if !h.F.Called(`FindInLog j001 "line 42)"`) {
		t.Fatalf("calls %v", h.F.Calls())
	}
	if !strings.Contains(h.Flash(), "“line 42)” matches only here") {
		t.Fatalf("flash %q", h.Flash())
	}

	// E finds the first ERROR from the top of the file, n the next ones.
	h.Press("E")
	h.MustShow("ERROR", "Lookup failed (line 150)")
	first, _ := v.Match()
	h.Press("n") // the exception line right after it
	if off, _ := v.Match(); off <= first || !strings.Contains(lineOfMatch(v), "SocketTimeoutException") {
		t.Fatalf("n went to %q", lineOfMatch(v))
	}
	h.Press("n", "n")
	h.MustShow("Lookup failed (line 9000)")
	h.Press("N", "N")
	h.MustShow("Lookup failed (line 150)")
}

func TestLogViewerFollowsTheTail(t *testing.T) {
	h := logHarness(t, 120, 40)
	v := openJMLog(h)
	h.Press("f")
	h.MustShow("● following")
	h.F.AppendLog("j001", api.LogRef{}, "2026-03-14 10:00:00,000 INFO  new line after follow\n")
	h.Fire(logview.PollMsg{})
	h.MustShow("new line after follow", "+1 new line, the last at 09:12:03") // it is seen to arrive (#12)
	if !v.AtBottom() {
		t.Fatal("following left the bottom")
	}

	// Scrolled up, it stops reading; G resumes.
	h.Press("k")
	h.MustShow("following paused")
	reads := h.F.LogReads()
	h.F.AppendLog("j001", api.LogRef{}, "2026-03-14 10:00:01,000 INFO  second line\n")
	h.Fire(logview.PollMsg{})
	if h.F.LogReads() != reads {
		t.Fatal("a poll read the log while the view was not at the bottom")
	}
	h.Press("G")
	h.Fire(logview.PollMsg{})
	h.MustShow("second line", "● following")

	// A burst bigger than the window: the next poll reads the tail.
	h.F.AppendLog("j001", api.LogRef{}, string(tuitest.LogLines(12000)))
	h.F.AppendLog("j001", api.LogRef{}, "2026-03-14 11:00:00,000 INFO  after the burst\n")
	for range 5 {
		h.Fire(logview.PollMsg{})
	}
	h.MustShow("after the burst")
	if v.WinBytes() > logview.WindowMax {
		t.Fatalf("the window holds %d bytes", v.WinBytes())
	}

	// f again stops the polling for good.
	h.Press("f")
	reads = h.F.LogReads()
	h.F.AppendLog("j001", api.LogRef{}, "2026-03-14 12:00:00,000 INFO  unseen\n")
	h.Fire(logview.PollMsg{})
	h.MustNotShow("unseen")
	if h.F.LogReads() != reads {
		t.Fatal("polling went on after follow was turned off")
	}
}

func TestLogViewerWrapsAndSaves(t *testing.T) {
	h := logHarness(t, 80, 24)
	openJMLog(h)
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

func goldenFrame(t *testing.T, name string, setup func(h *tuitest.Harness)) {
	t.Helper()
	apptest.GoldenFrame(t, name, tuitest.WithLogs, tui.Options{}, setup)
}

func TestGoldenLogViewer(t *testing.T) {
	goldenFrame(t, "log_viewer", func(h *tuitest.Harness) { openJMLog(h) })
}

func TestGoldenLogViewerSearch(t *testing.T) {
	goldenFrame(t, "log_viewer_search", func(h *tuitest.Harness) {
		openJMLog(h)
		h.Press("E")
	})
}

func TestGoldenLogViewerWrapFollow(t *testing.T) {
	goldenFrame(t, "log_viewer_wrap_follow", func(h *tuitest.Harness) {
		openJMLog(h)
		h.Press("w", "f")
	})
}
