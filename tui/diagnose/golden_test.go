package diagnose_test

import (
	"testing"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

func goldenFrame(t *testing.T, name string, fix func(*tuitest.Fake) *tuitest.Fake, setup func(h *tuitest.Harness)) {
	t.Helper()
	apptest.GoldenFrame(t, name, fix, tui.Options{}, setup)
}

// openGraph opens orders-enrich's Graph tab, the cursor on its
// bottleneck, the lookup join.
func openGraph(h *tuitest.Harness) {
	h.OpenDetail("orders-enrich")
	h.Press("shift+tab", "shift+tab")
	h.MustShow("bottleneck LookupJoin[3]")
}

// The lookup join's subtasks: the skew in the title, subtask 2 hot and
// under the cursor.
func TestGoldenSkewedVertex(t *testing.T) {
	goldenFrame(t, "vertex_skewed", nil, func(h *tuitest.Harness) {
		openGraph(h)
		h.Press("enter")
		h.MustShow("skew 3.1× records in")
	})
}

func TestGoldenFlameGraph(t *testing.T) {
	goldenFrame(t, "flame_on_cpu", nil, func(h *tuitest.Harness) {
		openGraph(h)
		h.Press("f")
		h.MustShow("ON_CPU")
	})
}

func TestGoldenFlameGraphsOff(t *testing.T) {
	off := func(f *tuitest.Fake) *tuitest.Fake { f.SetFlameGraphs("j001", false); return f }
	goldenFrame(t, "flame_disabled", off, func(h *tuitest.Harness) {
		openGraph(h)
		h.Press("f")
		h.MustShow("rest.flamegraph.enabled is false")
	})
}

func TestGoldenTaskManager(t *testing.T) {
	goldenFrame(t, "taskmanager", nil, func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		h.Press("shift+tab", "enter")
		h.MustShow("Memory", "1.1 GiB of 1.5 GiB (72%)")
	})
}

// Checkpoint 8810 took 14.8 s: it waited on the lookup join's subtask 2,
// whose barrier queued behind backpressured data.
func TestGoldenSlowCheckpoint(t *testing.T) {
	goldenFrame(t, "checkpoint_slow", nil, func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		h.Press("tab", "tab")
		h.MustShow("every 1m · EXACTLY_ONCE")
		h.Press("g", "j", "j", "enter")
		h.MustShow("checkpoint 8810", "▲ waited 14.8s for LookupJoin[3] subtask 2")
	})
}
