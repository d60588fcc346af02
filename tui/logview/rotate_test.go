package logview_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/logview"
)

// openTMLog opens orders-enrich's TaskManager log (40 lines) from the Logs
// tab: the fourth log listed.
func openTMLog(h *tuitest.Harness) *logview.Viewer {
	h.T.Helper()
	h.SelectJob("orders-enrich")
	h.Press("l", "j", "j", "j", "enter")
	v, ok := h.Top().(*logview.Viewer)
	if !ok {
		h.T.Fatalf("enter on the Logs tab opened %T", h.Top())
	}
	if !strings.HasPrefix(v.Title(), "orders-enrich · TaskManager "+tuitest.TMID) || v.WinEnd() != int64(len(tuitest.LogLines(40, 12))) {
		h.T.Fatalf("opened %s, [%d,%d)", v.Title(), v.WinStart(), v.WinEnd())
	}
	return v
}

// lines makes n log lines that say which file they are in.
func lines(file string, n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "2026-03-14 10:00:%02d,000 INFO  Task [] - %s line %d\n", i%60, file, i)
	}
	return []byte(b.String())
}

// Following goes on across a rotation: when the file is replaced by a
// shorter one, or by another that has already outgrown the old one, the
// viewer reads the new file from its start and says so, rather than
// stalling or joining the new file's middle to the old one (#29 item 12).
func TestLogViewerFollowSurvivesRotation(t *testing.T) {
	h := logHarness(t, 120, 40)
	v := openTMLog(h)
	ref := api.LogRef{TaskManager: tuitest.TMID}
	h.Press("f")
	h.MustShow("● following")

	// Shorter: the process renamed its log and began a new one.
	h.F.ReplaceLog("j001", ref, lines("second", 3))
	h.Fire(logview.PollMsg{})
	h.MustShow("second line 0", "second line 2")
	h.MustNotShow("(line 39)")
	if f := h.Flash(); !strings.Contains(f, "log rotated") {
		t.Fatalf("flash %q", f)
	}
	h.MustShow("rotated at 09:12:03")

	// It follows the new file.
	h.F.AppendLog("j001", ref, string(lines("second", 4)[len(lines("second", 3)):]))
	h.Fire(logview.PollMsg{})
	h.MustShow("second line 3")

	// Replaced again, by a file already longer than the one followed: its
	// bytes past the old end are not the old file's continuation.
	h.F.ReplaceLog("j001", ref, lines("third", 60))
	h.Fire(logview.PollMsg{})
	h.MustShow("third line 59", "● following")
	h.MustNotShow("second line")
	if v.WinStart() != 0 || !strings.HasPrefix(v.LineAt(0), "2026-03-14 10:00:00,000 INFO  Task [] - third line 0") {
		t.Fatalf("the window starts at %d with %q", v.WinStart(), v.LineAt(0))
	}
	if f := h.Flash(); !strings.Contains(f, "log rotated") {
		t.Fatalf("flash %q", f)
	}
}

func TestGoldenLogViewerRotated(t *testing.T) {
	goldenFrame(t, "log_viewer_rotated", func(h *tuitest.Harness) {
		openTMLog(h)
		h.Press("f")
		h.F.ReplaceLog("j001", api.LogRef{TaskManager: tuitest.TMID}, lines("second", 3))
		h.Fire(logview.PollMsg{})
	})
}
