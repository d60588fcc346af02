package logview_test

import (
	"bytes"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/probe"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/logview"
)

// TestProgramLogViewer runs the real program loop: l opens the Logs tab,
// enter the JobManager log at its tail, / filters it (reading the log back
// to its start), enter shows the matching line in the log (the window is
// read around it), f follows to a line that arrived; the last frame is
// pinned in a golden file.
func TestProgramLogViewer(t *testing.T) {
	f := tuitest.WithLogs(tuitest.NewFixture())
	tm := apptest.Program(t, f, tui.Options{})
	tuitest.WaitFor(t, tm, "orders-enrich")
	tm.Type("/orders-enrich")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("l")
	// WaitFor replays the output onto a terminal grid (Vterm), so a wait
	// sees the screen even though the renderer writes only changed cells.
	tuitest.WaitFor(t, tm, "jobmanager.err", "stdout") // Flink's list, which leads
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "19999)")

	tm.Type("/line 77)")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "filter “line 77)”: 1 line in the whole log")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "8077", "n/N for more")

	// A line arrives; f reads it at once, then polls every 2 s.
	f.AppendLog("j001", api.LogRef{}, "2026-03-14 09:12:04,000 WARN  CheckpointCoordinator [] - Checkpoint 28000 expired before completing\n")
	tm.Type("f")
	tuitest.WaitFor(t, tm, "28000", "following")

	app := probe.Of(tuitest.Final(t, tm))
	v, ok := app.Top().(*logview.Viewer)
	if !ok {
		t.Fatalf("the top screen is %T", app.Top())
	}
	if !v.AtBottom() || !v.Following() {
		t.Fatal("following did not stay at the bottom")
	}
	line77 := bytes.LastIndexByte(jmLog[:bytes.Index(jmLog, []byte("(line 77)\n"))], '\n') + 1
	if off, ok := v.Match(); !ok || off != int64(line77) {
		t.Fatalf("the current match is at %d (%v), line 77 starts at %d", off, ok, line77)
	}
	// The flash line depends on timers (a warning lasts 8 s): not pinned.
	app.ClearFlash()
	tuitest.Golden(t, "log_viewer_program_120x40", tuitest.Pinned(app.Render()))
}
