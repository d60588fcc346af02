package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/editor"
	"github.com/palink/palink/tui/internal/tuitest"
)

// loopPoint is user-features' latest checkpoint in the fixture (3m old).
const loopPoint = "hdfs:///flink/ck/users/chk-77"

// crashLoop makes user-features (SQL, on the unprotected staging cluster)
// FAILED three times from its latest checkpoint on the same record, as
// core records it, and tells the TUI.
func crashLoop(h *harness) {
	h.F.Mu.Lock()
	j := &h.F.Jobs[3]
	j.State, j.FlinkState, j.AppID = model.StateFailed, "FAILED", ""
	j.Diagnostics = "java.util.concurrent.TimeoutException: Async function call has timed out."
	j.CrashLoop = &model.CrashLoop{Count: 3, Cause: j.Diagnostics, Record: "+I(1042,42.50,2024-11-28T09:01:02)",
		RestorePoint: loopPoint, RestoreTime: j.LatestCheckpoint.Time, SpecVersion: j.SpecVersion,
		Since: tuitest.Now.Add(-2 * time.Minute), Last: tuitest.Now.Add(-20 * time.Second)}
	jv := *j
	h.F.Mu.Unlock()
	h.Change(api.Change{Kind: api.JobChanged, Job: &jv})
}

// loopWarning is the crash loop's sentence, in the parts a dialog's
// wrapping keeps whole.
var loopWarning = []string{"3 restarts from chk-77 failed with the same TimeoutException", "+I(1042,…)", "again will replay it"}

func TestGoldenConfirmRestartCrashLoop(t *testing.T) {
	goldenFrame(t, "confirm_restart_crash_loop", func(h *harness) {
		crashLoop(h)
		h.SelectJob("user-features")
		h.Press("r")
	})
}

func TestGoldenResubmitCrashLoop(t *testing.T) {
	goldenFrame(t, "resubmit_crash_loop", func(h *harness) {
		crashLoop(h)
		h.SelectJob("user-features")
		h.Press("R")
	})
}

// TestRestartDialogSaysTheRestorePointOnceWithItsAge: the plan's step
// names the restore point with its age; the dialog added its own line
// with the path again and no age.
func TestRestartDialogSaysTheRestorePointOnceWithItsAge(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.SelectJob("sessionize")
	h.Press("r")
	h.MustShow("Restart sessionize?")
	const path = "hdfs:///flink/sp/sessionize/savepoint-01ab"
	if n := strings.Count(h.Screen(), path); n != 1 {
		t.Errorf("the restore point is shown %d times, want once:\n%s", n, h.Screen())
	}
	h.MustShow(path + " · 5h ago.")
}

// TestRestartDialogOfACrashLoopSaysItAndOffersTheWaysOut: restarting a
// job that crash-loops from the point the restart would restore says so,
// and o, n and e lead to another restore point, to the same restart with
// non-restored state allowed, and to the SQL editor.
func TestRestartDialogOfACrashLoopSaysItAndOffersTheWaysOut(t *testing.T) {
	restart := func(t *testing.T) (*tuitest.Fake, *harness) {
		f := tuitest.NewFixture()
		h := newHarness(t, f, 120, 40, Options{})
		crashLoop(h)
		h.SelectJob("user-features")
		h.Press("r")
		h.MustShow(append(loopWarning, "Restart user-features?", "Instead: o another restore point · n allow non-restored state (off)", "e edit the SQL first")...)
		return f, h
	}
	t.Run("n: non-restored state", func(t *testing.T) {
		f, h := restart(t)
		h.Press("n")
		if !f.Called("Plan RESTART j004 - allow-non-restored-state") {
			t.Fatalf("n did not plan the restart with non-restored state allowed: %v", f.Calls())
		}
		h.MustShow("Restart user-features?", "(allowNonRestoredState)", "allow non-restored state (on)")
		h.Press("tab", "enter")
		if got := actCalls(f); len(got) != 1 || !strings.HasPrefix(got[0], "Act RESTART j004") {
			t.Fatalf("acts %v", got)
		}
	})
	t.Run("o: another restore point", func(t *testing.T) {
		_, h := restart(t)
		h.Press("o")
		h.MustShow(append(loopWarning, "Resubmit user-features — restore from?")...)
	})
	t.Run("e: the SQL editor", func(t *testing.T) {
		_, h := restart(t)
		h.Press("e")
		if ed, ok := h.m.top().(*editor.Screen); !ok || ed.Title() != "user-features · SQL" {
			t.Errorf("e did not open the SQL editor:\n%s", h.Screen())
		}
	})
}

// TestRestartDialogWithoutACrashLoopOffersNothing: a restart that does not
// restore the loop's point (or of a job without one) is the usual dialog.
func TestRestartDialogWithoutACrashLoopOffersNothing(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.SelectJob("sessionize")
	h.Press("r")
	h.MustShow("Restart sessionize?")
	h.MustNotShow("Instead:", "replay")
}

// TestResubmitChooserOfACrashLoopStartsElsewhere: the chooser warns, marks
// the loop's point with ↻, and puts the cursor on the newest point that is
// not it (never on empty state unasked).
func TestResubmitChooserOfACrashLoopStartsElsewhere(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	crashLoop(h)
	h.SelectJob("user-features")
	h.Press("R")
	h.MustShow(append(loopWarning, "▸ ↻ latest checkpoint", "    none — start with empty state")...)
	// user-features has no other point: the cursor stays on the first.
	h.Press("enter")
	if !f.Called("Plan RESUBMIT j004 checkpoint") {
		t.Fatalf("calls %v", f.Calls())
	}
}

// TestJobRowMarksACrashLoop: the row's STATE says it in words, so that it
// reads without colour.
func TestJobRowMarksACrashLoop(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	crashLoop(h)
	for _, line := range strings.Split(h.Screen(), "\n") {
		if strings.Contains(line, "user-features") {
			if !strings.Contains(line, "FAILED ↻loop") {
				t.Errorf("row %q lacks the crash loop mark", line)
			}
			return
		}
	}
	t.Fatal("no user-features row")
}

// TestResubmitChooserOfACrashLoopStartsOnAnotherPoint: when the loop's
// point is the first choice, the cursor starts on the next point.
func TestResubmitChooserOfACrashLoopStartsOnAnotherPoint(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	f.Mu.Lock()
	j := &f.Jobs[0] // orders-enrich: its latest savepoint, then its latest checkpoint
	j.State, j.FlinkState = model.StateFailed, "FAILED"
	j.CrashLoop = &model.CrashLoop{Count: 2, Cause: "java.lang.NullPointerException", RestorePoint: j.LatestSavepoint.Path}
	jv := *j
	f.Mu.Unlock()
	h.Change(api.Change{Kind: api.JobChanged, Job: &jv})
	h.SelectJob("orders-enrich")
	h.Press("R")
	h.MustShow("  ↻ latest savepoint", "▸   latest checkpoint")
	h.Press("enter")
	if !f.Called("Plan RESUBMIT j001 checkpoint") {
		t.Fatalf("calls %v", f.Calls())
	}
}
