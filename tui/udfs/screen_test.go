package udfs_test

import (
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/udfs"
)

// TestUDFsViewListsTheRegistry: `:udfs` lists each function with its
// language, class, where it lives and signature, and the jobs that call
// the one under the cursor.
func TestUDFsViewListsTheRegistry(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 140, 40, tui.Options{})
	h.Press(":")
	h.Type("udfs")
	h.Press("enter")
	if _, ok := h.Top().(*udfs.Screen); !ok {
		t.Fatalf(":udfs opened %T", h.Top())
	}
	h.MustShow("3 functions", "mask_pan", "com.acme.udf.MaskPan", "project payments-dedup v2", "(STRING) -> STRING",
		"orders-enrich", "sessionize")
	h.Press("j")
	h.MustShow("geohash", "/opt/udf/geo-1.3.jar", "geo-enrich")
	h.Press("j")
	h.MustShow("fraud.score", "no job calls it")
	if !f.Called("UDFs") {
		t.Error("the view never asked for the registry")
	}
}

func TestUDFsViewWithoutFunctions(t *testing.T) {
	f := tuitest.NewFixture()
	f.UDFList = nil
	h := apptest.New(t, f, 100, 30, tui.Options{})
	h.Press(":")
	h.Type("udfs")
	h.Press("enter")
	h.MustShow("no functions registered yet", "palink udf add")
}

func TestGoldenUDFs(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		h := apptest.New(t, tuitest.NewFixture(), sz.W, sz.H, tui.Options{Context: "test"})
		h.Press(":")
		h.Type("udfs")
		h.Press("enter")
		tuitest.Golden(t, "udfs_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.Render()))
	}
}

// TestUDFsCursorFollowsItsFunctionAcrossAReload: a function registered
// meanwhile that lists above the cursor does not move the cursor onto
// another function: the one under it is still the one the user chose.
func TestUDFsCursorFollowsItsFunctionAcrossAReload(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 140, 40, tui.Options{})
	h.Press(":")
	h.Type("udfs")
	h.Press("enter", "j")
	h.MustShow("geohash · scala com.acme.geo.GeoHash")
	f.Mu.Lock()
	f.UDFList = append([]api.UDFView{{UDF: model.UDF{Name: "aaa_first", Class: "com.acme.First", Language: model.UDFJava, Jar: "/opt/udf/first.jar"}}}, f.UDFList...)
	f.Mu.Unlock()
	h.Press("ctrl+r")
	h.MustShow("4 functions", "aaa_first")
	h.MustShow("geohash · scala com.acme.geo.GeoHash")
}

// TestUDFRowOpensTheJobsThatCallIt: enter on a function opens the jobs
// table narrowed to the jobs whose SQL calls it, on every cluster though
// the table was scoped to one; esc gives the whole table back. A
// function no job calls says so and opens nothing.
func TestUDFRowOpensTheJobsThatCallIt(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 140, 40, tui.Options{})
	h.Press(":")
	h.Type("jobs @prod")
	h.Press("enter", ":")
	h.Type("udfs")
	h.Press("enter", "enter")
	if h.Top() != h.App.Table() {
		t.Fatalf("enter on mask_pan opened %q", h.Top().Title())
	}
	if h.App.Jobs() != 2 {
		t.Fatalf("the table shows %d jobs, want the 2 that call mask_pan:\n%s", h.App.Jobs(), h.Screen())
	}
	h.MustShow("Jobs calling mask_pan", "orders-enrich", "sessionize")
	h.MustNotShow("payments-dedup", "geo-enrich")
	h.Press("esc")
	if h.App.Jobs() != 10 {
		t.Errorf("esc left %d jobs, want all 10", h.App.Jobs())
	}
	h.MustNotShow("calling mask_pan")

	h.Press(":")
	h.Type("udfs")
	h.Press("enter", "G", "enter")
	if _, ok := h.Top().(*udfs.Screen); !ok {
		t.Fatalf("enter on a function no job calls opened %q", h.Top().Title())
	}
	if got := h.Flash(); got != "no job calls score" {
		t.Errorf("flash %q", got)
	}
}

func TestGoldenUDFCallers(t *testing.T) {
	apptest.GoldenFrame(t, "udf_callers", nil, tui.Options{}, func(h *tuitest.Harness) {
		h.Press(":")
		h.Type("udfs")
		h.Press("enter", "enter")
	})
}
