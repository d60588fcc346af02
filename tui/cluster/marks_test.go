package cluster_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

// manyUnmanaged is the fixture with 12 more unmanaged applications on
// prod: one named as a job already is (orders-enrich), and etl-1 … etl-11.
func manyUnmanaged(f *tuitest.Fake) *tuitest.Fake {
	apps := []api.Application{{ID: "application_1732000000000_0200", Name: "orders-enrich", Type: "Apache Flink", User: "ana", Queue: "streaming", State: "RUNNING", StartedAt: tuitest.Now.Add(-time1h)}}
	for i := 1; i <= 11; i++ {
		apps = append(apps, api.Application{ID: fmt.Sprintf("application_1732000000000_%04d", 200+i), Name: fmt.Sprintf("etl-%d", i),
			Type: "Apache Flink", User: "etl", Queue: "streaming", State: "RUNNING", StartedAt: tuitest.Now.Add(-time1h)})
	}
	f.AddUnmanaged("prod", apps...)
	return f
}

const time1h = time.Hour

func openProd(t *testing.T, f *tuitest.Fake, w, h int) *tuitest.Harness {
	t.Helper()
	hs := apptest.New(t, f, w, h, tui.Options{})
	hs.Press(":")
	hs.Type("cluster prod")
	hs.Press("enter")
	hs.MustShow("Cluster prod", "legacy-etl")
	return hs
}

// adoptAllCalls are the AdoptAll calls the fake saw.
func adoptAllCalls(f *tuitest.Fake) []string {
	var out []string
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, "AdoptAll") {
			out = append(out, c)
		}
	}
	return out
}

// appRow is the screen's row of application id, "" when none shows.
func appRow(h *tuitest.Harness, id string) string {
	for _, l := range strings.Split(h.Screen(), "\n") {
		if strings.Contains(l, id) {
			return l
		}
	}
	return ""
}

// Space marks an application and moves down, as in the jobs table; a on
// the marks asks core for a dry run, whose names the confirmation lists
// with Cancel focused; confirmed, the one AdoptAll call names exactly what
// was listed, the result is flashed, the marks go and the list reloads.
func TestMarkedApplicationsAreAdoptedTogether(t *testing.T) {
	f := manyUnmanaged(tuitest.NewFixture())
	h := openProd(t, f, 120, 40)
	h.Press("space")
	if row := appRow(h, "application_1732000000000_0077"); !strings.HasPrefix(strings.Trim(row, "│"), " ✓ application_1732000000000_0077") {
		t.Fatalf("the marked row: %q", row)
	}
	if row := appRow(h, "application_1732000000000_0088"); !strings.HasPrefix(strings.Trim(row, "│"), "▸  application_1732000000000_0088") {
		t.Fatalf("space did not move the cursor to the next row: %q", row)
	}
	h.Press("space", "space") // 0088, then 0100 (orders-enrich)
	h.MustShow("✓ 3 marked", "a adopts the 3 marked")
	h.Press("k", "space") // unmark 0200, and on to 0201
	h.MustShow("✓ 2 marked")
	h.Press("space") // mark 0201 (etl-1) instead
	h.MustShow("✓ 3 marked")

	h.Press("a")
	want := "AdoptAll prod application_1732000000000_0077,application_1732000000000_0088,application_1732000000000_0201 dry=true"
	if got := adoptAllCalls(f); !slices.Equal(got, []string{want}) {
		t.Fatalf("a on marks called %v, want the dry run %q", got, want)
	}
	h.MustShow("Adopt 3 applications?", "3 applications on prod become palink jobs",
		"application_1732000000000_0077 → legacy-etl", "application_1732000000000_0088 → ad-hoc-backfill",
		"application_1732000000000_0201 → etl-1", "Cancel", "Adopt 3")
	h.Press("enter") // Cancel is focused
	if h.App.Dialog() != nil || len(adoptAllCalls(f)) != 1 {
		t.Fatalf("enter on Cancel: dialog %v, calls %v", h.App.Dialog() != nil, adoptAllCalls(f))
	}
	h.MustShow("✓ 3 marked") // cancelled, the marks stay

	h.Press("a", "tab", "enter")
	real := "AdoptAll prod application_1732000000000_0077,application_1732000000000_0088,application_1732000000000_0201 dry=false"
	if got := adoptAllCalls(f); len(got) != 3 || got[2] != real {
		t.Fatalf("confirmed: calls %v, want %q last", got, real)
	}
	if h.Flash() != "adopted 3 applications on prod" {
		t.Errorf("flash %q", h.Flash())
	}
	h.MustNotShow("marked", "legacy-etl", "ad-hoc-backfill", "etl-1 ") // reloaded: they are jobs now
	h.MustShow("etl-10", "orders-enrich")
	if n := strings.Count(strings.Join(f.Calls(), "\n"), "ClusterOverview prod"); n < 2 {
		t.Errorf("the list was not loaded again: %d loads", n)
	}
	h.Press("esc")
	for _, c := range drain(f) {
		h.Change(c) // as the watch stream delivers them
	}
	h.MustShow("legacy-etl", "ad-hoc-backfill", "etl-1", "DEPLOY_SUCCEEDED")
}

// drain takes the changes the fake pushed to its watchers.
func drain(f *tuitest.Fake) []api.Change {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	var out []api.Change
	for _, w := range f.Watchers {
		for len(w) > 0 {
			out = append(out, <-w)
		}
	}
	return out
}

// ctrl+a marks every application shown (the filter's), x clears; a name
// a job holds gets -2 in the confirmation; a list longer than the dialog
// holds says how many more; the marks a filter hides still count.
func TestMarkAllShownAndTheConfirmationsList(t *testing.T) {
	f := manyUnmanaged(tuitest.NewFixture())
	h := openProd(t, f, 80, 24)
	h.Press("/")
	h.Type("etl")
	h.Press("enter", "ctrl+a")
	h.MustShow("✓ 12 marked") // legacy-etl and etl-1 … etl-11
	if h.Flash() != "marked 12 applications · a adopts them · x clears" {
		t.Errorf("flash %q", h.Flash())
	}
	h.Press("x")
	h.MustNotShow("✓ 12 marked")
	h.Press("ctrl+a", "esc") // the filter goes; the marks stay
	h.MustShow("ad-hoc-backfill", "✓ 12 marked")
	h.Press("g", "j", "space", "space") // ad-hoc-backfill, orders-enrich too
	h.MustShow("✓ 14 marked")
	h.Press("a")
	h.MustShow("Adopt 14 applications?", "application_1732000000000_0200 → orders-enrich-2", "more", "Adopt 14")
	h.Press("esc")
	if h.App.Dialog() != nil {
		t.Fatal("esc left the confirmation open")
	}
	h.Press("esc") // esc clears the marks before it leaves
	h.MustNotShow("marked")
	if h.Top().Title() != "Cluster prod" {
		t.Errorf("esc with marks left the view: %q", h.Top().Title())
	}
}

// What core will not adopt is said: the confirmation names the marked
// applications the dry run left out, and when it leaves them all there
// is nothing to confirm. A failed adoption keeps the marks of what it did
// not adopt, and says how far it got.
func TestMarkedApplicationsCoreLeaves(t *testing.T) {
	f := tuitest.NewFixture()
	h := openProd(t, f, 120, 40)
	h.Press("space", "space")
	// Meanwhile another palink adopted ad-hoc-backfill: a job owns it.
	f.Mu.Lock()
	f.Jobs = append(f.Jobs, api.JobView{Job: model.Job{ID: "j900", Name: "backfill", Cluster: "prod", State: model.StateRunning, AppID: "application_1732000000000_0088"}})
	f.Mu.Unlock()
	h.Press("a")
	h.MustShow("Adopt 1 application?", "1 application on prod becomes a palink job", "application_1732000000000_0077 → legacy-etl",
		"Left as they are (a job owns them, or palink started them):", "application_1732000000000_0088.")
	h.Press("esc", "x", "j", "space") // only ad-hoc-backfill
	h.Press("a")
	if h.App.Dialog() != nil {
		t.Fatal("a confirmation of nothing")
	}
	if want := "adopt: none of the 1 marked application can be adopted: a job owns it, or palink started it (a adopts one of those on its own)"; h.Flash() != want {
		t.Errorf("flash %q, want %q", h.Flash(), want)
	}

	f.AdoptAllErr = errors.New("store: database is locked")
	h.Press("x", "g", "space")
	h.Press("a", "tab", "enter")
	if want := "adopt 1 application on prod: adopted 0, then: store: database is locked"; h.Flash() != want {
		t.Errorf("flash %q, want %q", h.Flash(), want)
	}
	h.MustShow("✓ 1 marked")
}

// Only an unmanaged application can be marked: a row adopted since the
// list was loaded (the list that still has it is in flight) says whose it
// is; a cluster with nothing to adopt says so for space and ctrl+a.
func TestOnlyUnmanagedApplicationsAreMarked(t *testing.T) {
	f := tuitest.NewFixture()
	h := openProd(t, f, 120, 40)
	h.Send(kit.AdoptedMsg{Req: api.AdoptRequest{Cluster: "prod", AppID: "application_1732000000000_0077", Name: "legacy"},
		Job: model.Job{ID: "j100", Name: "legacy", State: model.StateDeploySucceeded}})
	h.MustShow("legacy-etl") // the fake still lists it, as a list read before the adoption would
	h.Press("g", "space")
	if want := "mark: application_1732000000000_0077 is job legacy's now; only an unmanaged application can be adopted"; h.Flash() != want {
		t.Errorf("flash %q, want %q", h.Flash(), want)
	}
	h.MustNotShow("✓")
	h.Press("ctrl+a")
	h.MustShow("✓ 1 marked") // ad-hoc-backfill only
	h.Press("]")
	h.MustShow("Cluster staging")
	h.MustNotShow("✓ 1 marked", "a adopts the 1 marked") // marks are one cluster's
	for _, k := range []string{"space", "ctrl+a"} {
		h.Press(k)
		if want := "mark: no unmanaged Flink application on staging"; h.Flash() != want {
			t.Errorf("%s on staging: flash %q, want %q", k, h.Flash(), want)
		}
	}
}

// Read-only, nothing is marked, and the keys say why.
func TestMarksAreOffReadOnly(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{ReadOnly: true})
	h.Press(":")
	h.Type("cluster prod")
	h.Press("enter", "space")
	if want := "read-only: adopting is disabled"; h.Flash() != want {
		t.Errorf("flash %q, want %q", h.Flash(), want)
	}
	h.MustNotShow("marked", "space mark")
}

func TestGoldenClusterMarked(t *testing.T) {
	apptest.GoldenFrame(t, "cluster_marked", manyUnmanaged, tui.Options{}, func(h *tuitest.Harness) {
		h.Press(":")
		h.Type("cluster prod")
		h.Press("enter", "space", "j", "j", "space")
	})
}

func TestGoldenAdoptMarked(t *testing.T) {
	apptest.GoldenFrame(t, "adopt_marked", manyUnmanaged, tui.Options{}, func(h *tuitest.Harness) {
		h.Press(":")
		h.Type("cluster prod")
		h.Press("enter", "ctrl+a", "a")
	})
}
