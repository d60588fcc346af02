package detail_test

import (
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/detail"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// The Checkpoints tab shows what Flink's web UI shows first: the counts,
// the latest of each kind with the latest failure's cause, and the
// summary of the completed ones; palink's restore points come after
// (#29).
func TestCheckpointsTabShowsFlinksViewFirst(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Run(h.Top().(*detail.Screen).SelectTab("Checkpoints"))
	h.MustShow("8812 triggered · 8790 completed · 22 failed · 0 in progress · 1 restored",
		"latest failed", "8811", "Checkpoint expired before completing",
		"restored from", "8650", "savepoint-7f3a21",
		"MIN", "AVG", "MAX", "P99", "end to end", "1.1s", "1.9s", "14.8s", "14.2s",
		"checkpointed", "full state", "1.2 GiB", "processed", "persisted")
	s := h.Screen()
	live, known := strings.Index(s, "Flink checkpoints (live)"), strings.Index(s, "Restore points known to palink")
	if live < 0 || known < 0 || known < live {
		t.Fatalf("Flink's view is not first:\n%s", s)
	}
	if summary, history := strings.Index(s, "end to end"), strings.Index(s, "8809"); summary > history {
		t.Errorf("the summary comes after the history:\n%s", s)
	}
}

// In both lists enter opens the point and r restores from it, and the
// footer says so (#29).
func TestCheckpointsTabEnterOpensAndRRestores(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Run(h.Top().(*detail.Screen).SelectTab("Checkpoints"))
	h.MustShow("enter open checkpoint", "r restore from it")
	h.MustNotShow("r restart")

	// A Flink checkpoint: enter opens it.
	h.Press("j", "j", "enter") // 8812, 8811, 8810
	if got := h.Top().Title(); got != "orders-enrich · checkpoint 8810" {
		t.Fatalf("enter on checkpoint 8810 opened %q", got)
	}
	h.Press("esc")
	// r on a failed one says there is nothing to restore from.
	h.Press("k", "r")
	if want := "checkpoint 8811 FAILED: nothing to restore from"; h.Flash() != want {
		t.Errorf("r on a failed checkpoint: flash %q, want %q", h.Flash(), want)
	}

	// A restore point palink recorded: enter opens it too.
	h.Press("G", "k") // the savepoint of PAUSE #40
	h.Press("enter")
	if got := h.Top().Title(); got != "orders-enrich · savepoint-7f3a21" {
		t.Fatalf("enter on the savepoint opened %q", got)
	}
	h.MustShow("hdfs:///flink/sp/orders-enrich/savepoint-7f3a21", "PAUSE #40")
	h.Press("esc")

	// r restores from it: refused while the job runs, in core's words.
	h.Press("r")
	if want := "resubmit orders-enrich: job is RUNNING; pause or kill it first"; h.Flash() != want {
		t.Fatalf("flash %q, want %q", h.Flash(), want)
	}
	// Once it is paused, the same key plans a resubmit from that path.
	j := f.Jobs[0]
	j.State = model.StateFinished
	f.Jobs[0].State = model.StateFinished
	h.Change(api.Change{Kind: api.JobChanged, Job: &j})
	h.Press("r")
	if !f.Called("Plan RESUBMIT j001 path") {
		t.Fatalf("calls %v", f.Calls())
	}
	h.MustShow("Resubmit orders-enrich?", "Restore state from hdfs:///flink/sp/orders-enrich/savepoint-7f3a21 · 3d")
	h.Press("tab", "enter")
	if got := actCalls(f); len(got) != 1 || got[0] != "Act RESUBMIT j001 path hdfs:///flink/sp/orders-enrich/savepoint-7f3a21" {
		t.Fatalf("calls %v", got)
	}
	// A disposed savepoint cannot be restored from.
	h.Press("G", "r")
	if want := "savepoint-11aa02 is disposed: nothing to restore from"; h.Flash() != want {
		t.Errorf("r on a disposed savepoint: flash %q, want %q", h.Flash(), want)
	}
}

// The overview's restore points keep each path's last part at 60 columns.
func TestOverviewRestorePointsKeepTheirNames(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 60, 20, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("G")
	for _, l := range strings.Split(h.Screen(), "\n") {
		for label, name := range map[string]string{"latest checkpoint": "chk-8812", "latest savepoint": "savepoint-7f3a21", "restored from": "savepoint-7f3a21"} {
			if strings.HasPrefix(strings.TrimSpace(l), label) && !strings.Contains(l, name) {
				t.Errorf("%s: %q", label, l)
			}
		}
	}
	h.MustShow("latest checkpoint", "latest savepoint", "restored from")
}
