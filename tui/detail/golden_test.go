package detail_test

import (
	"testing"

	"github.com/palink/palink/tui/internal/tuitest"
)

func TestGoldenDetailTabs(t *testing.T) {
	for i, tab := range []string{"overview", "timeline", "checkpoints", "exceptions", "commands", "metrics", "logs", "sql"} {
		goldenFrame(t, "detail_"+tab, func(h *tuitest.Harness) {
			h.OpenDetail("orders-enrich")
			for range i {
				h.Press("tab")
			}
		})
	}
}

func TestGoldenRawJSON(t *testing.T) {
	goldenFrame(t, "detail_raw_json", func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		h.Press("y")
	})
}
