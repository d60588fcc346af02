package detail_test

import (
	"testing"

	"github.com/palink/palink/tui/internal/tuitest"
)

// The Graph tab of the lookup-join job: its bottleneck, the lookup join,
// is named, highlighted and under the cursor.
func TestGoldenGraph(t *testing.T) {
	goldenFrame(t, "detail_graph", func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		h.Press("shift+tab", "shift+tab")
		h.MustShow("bottleneck LookupJoin[3]")
	})
}

func TestGoldenTaskManagers(t *testing.T) {
	goldenFrame(t, "detail_taskmanagers", func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		h.Press("shift+tab")
		h.MustShow("2 TaskManagers", "node8.prod")
	})
}
