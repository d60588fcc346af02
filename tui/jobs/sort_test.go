package jobs_test

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/jobs"
	"github.com/palink/palink/tui/kit"
)

// Shift+letter sorts by that column at once, k9s' way; again reverses it
// (#12).
func TestShiftLetterSortsByItsColumn(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.Press("B")
	if js(h).SortCol() != jobs.ColBP || !js(h).SortDesc() {
		t.Fatalf("B sorts by %s desc=%v", jobs.ColTitle(js(h).SortCol()), js(h).SortDesc())
	}
	if got := rowNames(h)[:4]; !slices.Equal(got, []string{"clicks-to-hudi", "payments-dedup", "orders-enrich", "user-features"}) {
		t.Errorf("by BP, highest first: %v", got)
	}
	h.MustShow("BP▼", "sort BP▼")
	if f := h.Flash(); f != "sorted by BP▼ (B or O reverses)" {
		t.Errorf("flash %q", f)
	}
	h.Press("B")
	if js(h).SortCol() != jobs.ColBP || js(h).SortDesc() {
		t.Fatal("B again did not reverse the sort")
	}
	h.Press("S") // failures first
	if js(h).SortCol() != jobs.ColState || rowNames(h)[0] != "fraud-scoring" {
		t.Errorf("S sorts by %s: %v", jobs.ColTitle(js(h).SortCol()), rowNames(h))
	}
	h.Press("L")
	if js(h).SortCol() != jobs.ColLag {
		t.Errorf("L sorts by %s", jobs.ColTitle(js(h).SortCol()))
	}
	h.MustShow("LAG▼")
	// The most records behind first; a job whose sources report no lag
	// (datagen, a stopped job) after every one that does.
	if got := rowNames(h)[:4]; !slices.Equal(got, []string{"payments-dedup", "orders-enrich", "user-features", "clicks-to-hudi"}) {
		t.Errorf("by LAG, most behind first: %v", got)
	}
	h.MustShow("2.1M")
	h.Press("N")
	if js(h).SortCol() != jobs.ColName || rowNames(h)[0] != "ad-clicks-agg" {
		t.Errorf("N sorts by %s: %v", jobs.ColTitle(js(h).SortCol()), rowNames(h))
	}
}

// Only the columns on screen sort: a hidden column's key says so, and o
// skips it.
func TestOnlyShownColumnsSort(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 80, 24, tui.Options{})
	for _, c := range []string{"APP", "RST", "KIND"} {
		if strings.Contains(headerLine(h), c) {
			t.Fatalf("80 columns show %s: %q", c, headerLine(h))
		}
	}
	h.MustShow("hidden: RST APP OUT/s KIND")
	h.Press("A")
	if js(h).SortCol() != jobs.ColName {
		t.Fatalf("A sorted by the hidden APP column")
	}
	if f := h.Flash(); !strings.Contains(f, "APP is not shown at this width") {
		t.Errorf("A at 80 columns: flash %q", f)
	}
	for range int(jobs.NumCols) {
		h.Press("o")
		if c := js(h).SortCol(); c == jobs.ColApp || c == jobs.ColRst || c == jobs.ColKind || c == jobs.ColOut {
			t.Fatalf("o sorted by the hidden %s", jobs.ColTitle(c))
		}
	}
	// The help offers only the shown columns' keys.
	h.Press("?")
	h.MustShow("sort by NAME", "sort by BP")
	h.MustNotShow("sort by APP")
}

// The headings show each column's sort key, underlined.
func TestHeadingsShowTheSortKeys(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	st := kit.DarkStyles()
	frame := h.Render()
	for _, k := range []string{"N", "C", "S", "A", "U", "T", "P", "I", "B", "L"} {
		if !strings.Contains(frame, st.SortKey.Render(k)) {
			t.Errorf("no heading shows %s underlined", k)
		}
	}
	h.MustShow("NAME▲", "CLUSTER", "STATE", "APP", "UP", "RST", "CKPT", "IN/s", "BP", "LAG")
}

func TestGoldenJobsShiftSort(t *testing.T) {
	apptest.GoldenFrame(t, "jobs_shift_sort", nil, tui.Options{}, func(h *tuitest.Harness) {
		h.Press("I") // IN/s, highest first
	})
}

// headerLine is the table's line of headings.
func headerLine(h *tuitest.Harness) string {
	for _, l := range strings.Split(h.Screen(), "\n") {
		if strings.Contains(l, "NAME") {
			return l
		}
	}
	return ""
}

// On a narrow terminal the table keeps the columns that carry the problem
// (STATE, BP, LAG) and the one it is sorted by; CLUSTER goes first for one
// cluster's jobs; the title names what the width hides (#29).
func TestNarrowTableKeepsTheProblemAndNamesWhatItHides(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 60, 20, tui.Options{})
	h.MustShow("Jobs · all clusters · hidden: UP CKPT IN/s", "█ 87%", "2.1M")
	if hd := headerLine(h); !strings.Contains(hd, "STATE") || !strings.Contains(hd, "BP") || !strings.Contains(hd, "LAG") {
		t.Errorf("60 columns: headings %q", hd)
	}

	// Sorted by UP on a wide terminal, UP stays when the terminal narrows.
	h = apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.Press("U")
	h.Send(tea.WindowSizeMsg{Width: 60, Height: 20})
	if hd := headerLine(h); !strings.Contains(hd, "UP▲") || !strings.Contains(hd, "STATE") || !strings.Contains(hd, "LAG") {
		t.Errorf("sorted by UP, 60 columns: headings %q", hd)
	}

	// One cluster's jobs: CLUSTER, the same on every row, goes first.
	h = apptest.New(t, tuitest.NewFixture(), 60, 20, tui.Options{})
	h.Press(":")
	h.Type("jobs @prod")
	h.Press("enter")
	if hd := headerLine(h); strings.Contains(hd, "CLUSTER") || !strings.Contains(hd, "UP") {
		t.Errorf("one cluster, 60 columns: headings %q", hd)
	}
	h.MustShow("Jobs @prod · hidden: CKPT")
}
