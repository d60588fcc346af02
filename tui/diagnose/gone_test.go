package diagnose_test

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// rotated: orders-enrich keeps its three newest checkpoints, of which
// palink recorded 8809, which the JobManager's history of 10 has pushed
// out since the tab listed it.
func rotated(f *tuitest.Fake) *tuitest.Fake {
	f.AddRestorePoints("j001", model.RestorePoint{JobID: "j001", Kind: model.Checkpoint, Path: "hdfs:///flink/ck/3f9c0d1e2b3a4c5d6e7f8091a2b3a21e/chk-8809",
		Time: tuitest.Now.Add(-191 * time.Second), FlinkJobID: "3f9c0d1e2b3a4c5d6e7f8091a2b3a21e", CheckID: 8809, Origin: "sync", Size: 1210 << 20})
	f.RotateCheckpoint("j001", 8809, 10)
	return f
}

// openCheckpoint opens orders-enrich's Checkpoints tab and enter on the
// nth line of Flink's history.
func openCheckpoint(h *tuitest.Harness, n int) {
	h.OpenDetail("orders-enrich")
	h.Press("tab", "tab")
	h.MustShow("every 1m · EXACTLY_ONCE")
	h.Press("g") // the history's first line, shown where the tab leads with Flink's figures
	for range n {
		h.Press("j")
	}
	h.Press("enter")
}

// A listed checkpoint the JobManager has since rotated out of its history
// says so whole, at every width, and shows what palink recorded of it;
// r restores from it (#29).
func TestARotatedCheckpointSaysSoWithPalinksRecord(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 20}} {
		t.Run(tuitest.SizeName(size[0], size[1]), func(t *testing.T) {
			f := rotated(tuitest.NewFixture())
			h := apptest.New(t, f, size[0], size[1], tui.Options{})
			openCheckpoint(h, 3)
			if got := h.Top().Title(); got != "orders-enrich · checkpoint 8809" {
				t.Fatalf("opened %q", got)
			}
			h.MustShow("checkpoint 8809", "✖ no longer in the JobManager's history (it keeps 10)", "palink's record of it", "chk-8809", "1.2 GiB", "sync")
			h.MustNotShow("GET /", "not found")
			f.Jobs[0].State = model.StateFinished
			h.Change(api.Change{Kind: api.JobChanged, Job: &f.Jobs[0]})
			h.Press("r")
			if !f.Called("Plan RESUBMIT j001 path") {
				t.Fatalf("r did not plan a resubmit from the record: %v", f.Calls())
			}
		})
	}
}

func TestGoldenRotatedCheckpoint(t *testing.T) {
	goldenFrame(t, "checkpoint_rotated", rotated, func(h *tuitest.Harness) {
		openCheckpoint(h, 3)
		h.MustShow("no longer in the JobManager's history")
	})
}

// A restore point of an earlier run opens from palink's record alone,
// saying why the JobManager is not asked (#29).
func TestGoldenRecordOfAnEarlierRun(t *testing.T) {
	goldenFrame(t, "checkpoint_record", nil, func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		h.Press("tab", "tab")
		h.MustShow("every 1m · EXACTLY_ONCE")
		h.Press("G", "k", "enter")
		h.MustShow("savepoint-7f3a21", "(Flink job 7f3a…e7f8)")
	})
}

// A fetch that fails is said whole at any width, never cut at the edge.
func TestACheckpointThatCannotBeFetchedIsSaidWhole(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 60, 20, tui.Options{})
	openCheckpoint(h, 0) // 8812: the fake has no details of it
	s := h.Screen()
	if !strings.Contains(strings.Join(strings.Fields(s), " "), "checkpoint 8812: not found") {
		t.Fatalf("the error is cut:\n%s", s)
	}
}

// Read-only, r restores nothing, and says why, from the tab and the view.
func TestReadOnlyRestoresNothingFromACheckpoint(t *testing.T) {
	f := rotated(tuitest.NewFixture())
	f.Jobs[0].State = model.StateFinished
	h := apptest.New(t, f, 120, 40, tui.Options{ReadOnly: true})
	h.OpenDetail("orders-enrich")
	h.Press("tab", "tab")
	h.MustShow("every 1m · EXACTLY_ONCE")
	h.MustNotShow("r restore from it")
	h.Press("r")
	if !strings.Contains(h.Flash(), "read-only") {
		t.Errorf("r on the tab: flash %q", h.Flash())
	}
	h.Press("g", "j", "j", "j", "enter")
	h.MustShow("no longer in the JobManager's history")
	h.Press("r")
	if !strings.Contains(h.Flash(), "read-only") || f.Called("Plan") {
		t.Errorf("r on the view: flash %q, calls %v", h.Flash(), f.Calls())
	}
}
