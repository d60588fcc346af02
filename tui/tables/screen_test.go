package tables_test

import (
	"testing"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/tables"
)

func TestTablesViewListsTheCatalog(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetTables("prod", tuitest.FixtureTables())
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.Press(":")
	h.Type("tables")
	h.Press("enter")
	if _, ok := h.Top().(*tables.Screen); !ok {
		t.Fatalf(":tables opened %T", h.Top())
	}
	h.MustShow("Tables @prod", "3 tables", "orders", "v3", "kafka", "users", "jdbc", "imported from public.users", "'topic' = 'orders'")
	h.Press("j")
	h.MustShow("'table-name' = 'public.users'", "${users_password}")
	h.Press(":")
	h.Type("tables staging")
	h.Press("enter")
	h.MustShow("Tables @staging", "no catalog tables on staging")
	h.Press(":")
	h.Type("tables nowhere")
	h.Press("enter")
	if got := h.Flash(); got != ":tables nowhere: no such cluster (clusters: prod, staging)" {
		t.Errorf("flash %q", got)
	}
}

func TestGoldenTables(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		f := tuitest.NewFixture()
		f.SetTables("prod", tuitest.FixtureTables())
		h := apptest.New(t, f, sz.W, sz.H, tui.Options{Context: "test"})
		h.Press(":")
		h.Type("tables")
		h.Press("enter")
		tuitest.Golden(t, "tables_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.Render()))
	}
}
