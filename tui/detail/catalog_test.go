package detail_test

import (
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// withCatalogDeploys gives orders-enrich two deploys that recorded the
// catalog versions they injected, a table edited and one added between.
func withCatalogDeploys(f *tuitest.Fake) *tuitest.Fake {
	at := func(h int) time.Time { return tuitest.Now.Add(-time.Duration(h) * time.Hour) }
	f.AddCommands(
		model.Command{ID: "c000030", Seq: 30, JobID: "j001", Kind: model.CmdSubmit, State: model.CmdSucceeded, Issuer: "ana", CreatedAt: at(300),
			Params: model.CommandParams{Catalog: []model.CatalogRef{{Name: "orders", Version: 2}, {Name: "users", Version: 1}, {Name: "old_sink", Version: 4}}}},
		model.Command{ID: "c000050", Seq: 50, JobID: "j001", Kind: model.CmdResubmit, State: model.CmdSucceeded, Issuer: "ops", CreatedAt: at(1),
			Params: model.CommandParams{Restore: model.RestoreSavepoint, Catalog: []model.CatalogRef{{Name: "orders", Version: 3}, {Name: "users", Version: 1}, {Name: "enriched", Version: 2}}}},
	)
	return f
}

// TestCommandsShowCatalogVersions: the Commands tab shows under each
// deploy the catalog versions it ran with, and what changed since the
// deploy before.
func TestCommandsShowCatalogVersions(t *testing.T) {
	h := apptest.New(t, withCatalogDeploys(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	h.OpenDetail("orders-enrich")
	for range 4 {
		h.Press("tab")
	}
	h.MustShow("#50", "catalog orders@v3 (was v2) · users@v1 · enriched@v2 (new) · old_sink@v4 gone",
		"#30", "catalog orders@v2 · users@v1 · old_sink@v4")
}

func TestGoldenDetailCommandsCatalog(t *testing.T) {
	apptest.GoldenFrame(t, "detail_commands_catalog", withCatalogDeploys, tui.Options{}, func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		for range 4 {
			h.Press("tab")
		}
	})
}
