package detail_test

import (
	"testing"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
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

// longPlan gives orders-enrich's Flink JSON a value far wider than any
// terminal, as a job's plan is.
func longPlan(f *tuitest.Fake) *tuitest.Fake {
	f.SetRawJSON("j001", `{"jid":"3f9c0d1e2b3a4c5d6e7f8091a2b3a21e","name":"orders-enrich","plan":{"nodes":[{"description":"[3]:TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, user_id, amount, proc_time]) -> [4]:Calc(select=[order_id, user_id, PROCTIME() AS proc_time]) -> [5]:LookupJoin(table=[default_catalog.default_database.users], joinType=[LeftOuterJoin], lookup=[id=user_id], select=[order_id, user_id, id, name]) -> [6]:Sink(table=[default_catalog.default_database.enriched], fields=[order_id, name]) END"}]}}`)
	return f
}

// The raw JSON never cuts a long value without a way to see it: the cut
// says so (→), → scrolls to it and w wraps it whole (#12).
func TestGoldenRawJSONLongValues(t *testing.T) {
	apptest.GoldenFrame(t, "detail_raw_json_long", longPlan, tui.Options{}, func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		h.Press("y")
	})
	apptest.GoldenFrame(t, "detail_raw_json_wrapped", longPlan, tui.Options{}, func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		h.Press("y", "w")
		h.MustShow("END")
	})
}
