package logview_test

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/logview"
)

// `/` filters as k9s' does: as the query is typed, only the lines that
// match show, from the whole log (read a chunk at a time: the service is
// never asked to search); enter keeps the filter, n and N move among its
// lines, enter shows one in the whole log, esc clears it (#29 item 12).
func TestLogViewerFiltersAsYouType(t *testing.T) {
	h := logHarness(t, 120, 40)
	v := openJMLog(h)
	h.Press("/")
	h.Type("lookup")
	h.MustShow("Lookup failed (line 150)", "Lookup failed (line 9000)", "Lookup failed (line 19990)", "/lookup", "3 lines in the whole log")
	h.MustNotShow("Completed checkpoint", "SocketTimeoutException")
	if h.F.Called("FindInLog") {
		t.Fatal("the filter asked the service to search")
	}
	if got := strings.Count(h.Screen(), "Lookup failed"); got != 3 {
		t.Fatalf("%d lines shown", got)
	}

	// enter keeps it; the footer says what the keys do now.
	h.Press("enter")
	h.MustShow("Lookup failed (line 9000)", "filter “lookup”: 3 lines in the whole log", "esc clear filter", "enter show in log")

	// The current line is the newest; N moves to the one before, c copies it.
	h.Press("N", "c")
	if got := clipboard(h); !strings.HasSuffix(got, "Lookup failed (line 9000)") {
		t.Fatalf("copied %q", got)
	}
	// enter shows it in the whole log, as a search's match: n goes on.
	h.Press("enter")
	h.MustShow("“lookup” at", "n/N for more", "SocketTimeoutException")
	if got := lineOfMatch(v); !strings.HasSuffix(got, "Lookup failed (line 9000)") {
		t.Fatalf("enter showed %q", got)
	}
	h.Press("n")
	if got := lineOfMatch(v); !strings.HasSuffix(got, "Lookup failed (line 19990)") {
		t.Fatalf("n went to %q", got)
	}

	// No match: said, in place of the lines.
	h.Press("/")
	h.Type("no such text")
	h.MustShow("no line matches “no such text” in the whole log")
	// esc in the input line clears the filter: the log is back.
	h.Press("esc")
	h.MustShow("Completed checkpoint")
	h.MustNotShow("no such text")

	// esc clears a kept filter before it closes the viewer.
	h.Press("/")
	h.Type("lookup")
	h.Press("enter", "esc")
	if _, ok := h.Top().(*logview.Viewer); !ok {
		t.Fatalf("esc on a filter closed the viewer")
	}
	h.MustShow("Completed checkpoint")
	h.Press("esc")
	if _, ok := h.Top().(*logview.Viewer); ok {
		t.Fatal("esc without a filter kept the viewer")
	}
}

// The filter follows: the lines the file gains are filtered too.
func TestLogViewerFilterFollows(t *testing.T) {
	h := logHarness(t, 120, 40)
	openJMLog(h)
	h.Press("/")
	h.Type("expired")
	h.Press("enter", "f")
	h.MustShow("no line matches “expired” in the whole log", "● following")
	h.F.AppendLog("j001", api.LogRef{}, "2026-03-14 10:00:00,000 WARN  CheckpointCoordinator [] - Checkpoint 28000 expired before completing\n2026-03-14 10:00:01,000 INFO  other\n")
	h.Fire(logview.PollMsg{})
	h.MustShow("Checkpoint 28000 expired", "filter “expired”: 1 line")
	h.MustNotShow("INFO  other")
	h.F.AppendLog("j001", api.LogRef{}, "2026-03-14 10:00:02,000 WARN  CheckpointCoordinator [] - Checkpoint 28001 expired before completing\n")
	h.Fire(logview.PollMsg{})
	h.MustShow("Checkpoint 28000 expired", "Checkpoint 28001 expired", "filter “expired”: 2 lines")

	// Cleared, the log's view catches up with what came meanwhile.
	h.Press("esc")
	h.MustShow("INFO  other", "Checkpoint 28001 expired", "● following")
	h.Press("/")
	h.Type("expired")
	h.Press("enter")

	// Rotated: the filter starts again on the new file.
	h.F.ReplaceLog("j001", api.LogRef{}, []byte("2026-03-14 11:00:00,000 WARN  CheckpointCoordinator [] - Checkpoint 28002 expired before completing\n"))
	h.Fire(logview.PollMsg{})
	h.MustShow("Checkpoint 28002 expired", "filter “expired”: 1 line in the whole log", "log rotated at")
	h.MustNotShow("Checkpoint 28000 expired")
	if f := h.Flash(); !strings.Contains(f, "log rotated") {
		t.Fatalf("flash %q", f)
	}
}

// A filter over a big log scans it in steps off the UI's goroutine,
// saying how far it got, and esc stops it where it is (the real program,
// over a slow service).
func TestProgramLogViewerFilterScansWithProgressAndStops(t *testing.T) {
	f := tuitest.WithLogs(tuitest.NewFixture())
	big := tuitest.LogLines(300000, 10, 299000) // ≈ 29 MB
	f.ReplaceLog("j001", api.LogRef{}, big)
	tm := apptest.Program(t, f, tui.Options{})
	tuitest.WaitFor(t, tm, "orders-enrich")
	tm.Type("/orders-enrich")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("l")
	tuitest.WaitFor(t, tm, "jobmanager.err", "stdout") // Flink's list, which leads
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "(line 299999)")

	f.SetDelay(100 * time.Millisecond) // a read of a chunk takes a while
	tm.Type("/lookup")
	tuitest.WaitFor(t, tm, "Lookup failed (line 299000)", "1 line · scanning…", " MiB of ")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "filter “lookup”: 1 line · scanning…", "(esc stops)")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	tuitest.WaitFor(t, tm, "filter “lookup”: 1 line searched back to", "stopped")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	tuitest.WaitFor(t, tm, "Completed checkpoint")
}

func TestGoldenLogViewerFilter(t *testing.T) {
	goldenFrame(t, "log_viewer_filter", func(h *tuitest.Harness) {
		openJMLog(h)
		h.Press("/")
		h.Type("lookup")
		h.Press("enter", "N")
	})
}

func TestGoldenLogViewerFilterTyping(t *testing.T) {
	goldenFrame(t, "log_viewer_filter_typing", func(h *tuitest.Harness) {
		openJMLog(h)
		h.Press("/")
		h.Type("exception")
	})
}
