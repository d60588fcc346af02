package editor_test

import (
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// insertOnlySQL is orders-enrich written against prod's table catalog:
// only the INSERT, its tables injected.
const insertOnlySQL = `-- the tables come from the catalog of prod
INSERT INTO enriched
SELECT o.order_id, u.name FROM orders AS o
LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id;`

// withCatalog gives orders-enrich a version with no DDL (v8, current) and
// prod the fixture's catalog and the variables its tables use; the
// password is a secret, kept as where it comes from.
func withCatalog(f *tuitest.Fake) *tuitest.Fake {
	f = withVersions(f)
	f.Versions["j001"] = append(f.Versions["j001"], model.Spec{JobID: "j001", Version: 8, SQL: insertOnlySQL, Author: "ana", CreatedAt: tuitest.Now})
	f.Jobs[0].SpecVersion = 8
	f.SetTables("prod", tuitest.FixtureTables())
	f.Variables = []model.Variable{
		{Name: "kafka", Value: "kafka-1.prod:9092"},
		{Cluster: "prod", Name: "users_password", SecretEnv: "USERS_DB_PASSWORD"},
	}
	return f
}

// TestEditorInjectsCatalogTables: a job that defines none of its tables
// checks clean with prod's catalog injected, the strip under the title
// names each table with its version, and without the variable a catalog
// table uses the check says which.
func TestEditorInjectsCatalogTables(t *testing.T) {
	f := withCatalog(tuitest.NewFixture())
	h := apptest.New(t, f, 120, 40, tui.Options{Context: "test"})
	openEditor(h, "orders-enrich")
	h.MustShow("from the catalog of prod:", "enriched catalog v2", "orders catalog v3", "users catalog v1", "✓ no problems")

	f.Variables = f.Variables[1:]
	h.Press("esc")
	openEditor(h, "orders-enrich")
	goTo(h, 3)
	h.MustShow("✖ 1 error", "catalog table orders@v3 uses variable ${kafka}")
}

// TestEditorShadowedCatalogTable: a table the script defines though the
// catalog has it is the script's, the strip says so, and the check warns.
func TestEditorShadowedCatalogTable(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	f.SetTables("prod", tuitest.FixtureTables())
	f.Variables = []model.Variable{{Name: "kafka", Value: "k:9092"}, {Name: "users_password", SecretEnv: "P"}}
	h := apptest.New(t, f, 120, 40, tui.Options{Context: "test"})
	openEditor(h, "orders-enrich") // v7 defines orders, users and enriched
	// Three of them do not fit 120 columns in full: the short form.
	h.MustShow("catalog: orders own DDL · users own DDL · enriched own DDL", "⚠ 3 warnings",
		"table 'orders' is also in the cluster's table catalog (orders@v3)")
	h.MustNotShow("orders v3")
}

// TestEditorCompletesCatalogTables: completion offers the catalog's
// tables with their version, and their columns.
func TestEditorCompletesCatalogTables(t *testing.T) {
	h := apptest.New(t, withCatalog(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	ed := openEditor(h, "orders-enrich")
	chord(h, "ctrl+end", "enter")
	h.Type("SELECT * FROM use")
	chord(h, "ctrl+space") // the one catalog table it can be is written
	if got := ed.Line(ed.Lines() - 1); got != "SELECT * FROM users" {
		t.Fatalf("completing use: %q", got)
	}
	h.Type(" JOIN ")
	chord(h, "ctrl+space")
	h.MustShow(" t enriched ", " t orders ", "table · catalog v2")
	chord(h, "esc")
	chord(h, "ctrl+end", "enter")
	h.Type("SELECT o. FROM orders AS o")
	chord(h, "home")
	for range len("SELECT o.") {
		chord(h, "right")
	}
	chord(h, "ctrl+space")
	h.MustShow(" c order_id ", " c amount ", " c proc_time ")
	chord(h, "esc")
	if !strings.Contains(ed.Text(), "SELECT o. FROM orders") {
		t.Fatalf("text %q", ed.Text())
	}
}

// TestEditorDebugRunGetsTheCatalog: ctrl+d's form lists the catalog's
// Kafka source with how to sample it, and the run gets the cluster's
// catalog and variables, and kafka:N as a sample of the table's topic.
func TestEditorDebugRunGetsTheCatalog(t *testing.T) {
	evs := enrichRun(nil)
	evs[0].Injected = []string{"orders@v3", "users@v1", "enriched@v2"}
	evs[0].Sampled = []api.DebugSample{{Table: "orders", Topic: "orders", Format: "json", Records: 19, Undecodable: 1, FirstError: "partition 0 offset 7: not a JSON object"}}
	d := &fakeDebugger{events: evs}
	h := apptest.New(t, withCatalog(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test", Debugger: d})
	openEditor(h, "orders-enrich")
	chord(h, "ctrl+d")
	h.MustShow("# orders: from the catalog (v3); orders=kafka:100 reads the newest 100 records of its topic", "orders=")
	h.Type("kafka:20")
	chord(h, "ctrl+d")
	reqs := d.requests()
	if len(reqs) != 1 {
		t.Fatalf("requests %+v", reqs)
	}
	r := reqs[0]
	if r.Samples["orders"] != 20 || len(r.Data) != 0 || len(r.Catalog) != 3 || len(r.Vars) != 2 || r.SQL != insertOnlySQL {
		t.Fatalf("request %+v", r)
	}
	// The run says where its tables came from, and what did not decode.
	h.MustShow("from the catalog orders@v3, users@v1, enriched@v2",
		"sampled orders: 19 records of topic orders (json), 1 undecodable: partition 0 offset 7: not a JSON object")
}

func TestGoldenEditorCatalog(t *testing.T) {
	apptest.GoldenFrame(t, "editor_catalog", withCatalog, tui.Options{}, func(h *tuitest.Harness) {
		openEditor(h, "orders-enrich")
	})
}
