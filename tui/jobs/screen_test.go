package jobs_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"pgregory.net/rapid"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/jobs"
)

// rowNames are the names in the jobs table, in order.
func rowNames(h *tuitest.Harness) []string {
	var out []string
	for _, j := range js(h).Rows() {
		out = append(out, j.Name)
	}
	return out
}

func TestFilterNarrowsAsYouType(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.Press("/")
	if !h.Top().Capturing() {
		t.Fatal("/ did not give the keyboard to the filter")
	}
	h.Type("state:FAILED")
	if got := rowNames(h); !slices.Equal(got, []string{"fraud-scoring"}) {
		t.Errorf("state:FAILED shows %v", got)
	}
	h.Press("enter")
	if h.Top().Capturing() {
		t.Fatal("enter did not close the filter input")
	}
	h.MustShow("filter: state:FAILED", "1/1")

	// q typed into the filter is text, not quit.
	h.Press("/")
	h.Press("backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	h.Type("cluster:staging q")
	for _, msg := range h.Seen {
		if _, ok := msg.(tea.QuitMsg); ok {
			t.Fatal("q in the filter quit the program")
		}
	}
	h.Press("backspace", "backspace")
	if got := rowNames(h); !slices.Equal(got, []string{"ad-clicks-agg", "new-pipeline", "sessionize", "user-features"}) {
		t.Errorf("cluster:staging shows %v", got)
	}
	// A bad term is reported and the rest still applies.
	h.Type(" state:NOPE")
	h.MustShow("unknown job state")
	if len(js(h).Rows()) != 4 {
		t.Errorf("a bad term hid the other terms' results: %v", rowNames(h))
	}
	// esc while typing clears the filter.
	h.Press("esc")
	if len(js(h).Rows()) != 10 || js(h).QueryText() != "" {
		t.Errorf("esc left the filter %q with %d rows", js(h).QueryText(), len(js(h).Rows()))
	}
}

func TestEscClearsAnAppliedFilterThenMarks(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.Press("space", "space")
	h.Press("/")
	h.Type("orders")
	h.Press("enter", "esc")
	if js(h).QueryText() != "" || len(js(h).Marks()) != 2 {
		t.Fatalf("first esc: filter %q, %d marks; want the filter cleared, marks kept", js(h).QueryText(), len(js(h).Marks()))
	}
	h.Press("esc")
	if len(js(h).Marks()) != 0 {
		t.Fatalf("second esc kept %d marks", len(js(h).Marks()))
	}
}

func TestScopeToOneCluster(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.Press(":")
	h.Type("jobs @staging")
	h.Press("enter")
	for _, j := range js(h).Rows() {
		if j.Cluster != "staging" {
			t.Fatalf(":jobs @staging shows %s of %s", j.Name, j.Cluster)
		}
	}
	h.MustShow("Jobs @staging", "1/4")
	h.Press(":")
	h.Type("jobs @nowhere")
	h.Press("enter")
	if !strings.Contains(h.Flash(), "no such cluster") {
		t.Errorf("unknown cluster flashed %q", h.Flash())
	}
	h.Press(":")
	h.Type("jobs")
	h.Press("enter")
	if len(js(h).Rows()) != 10 {
		t.Errorf(":jobs shows %d jobs, want all 10", len(js(h).Rows()))
	}
}

func TestSortCyclesColumnsAndReverses(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	if got := rowNames(h); got[0] != "ad-clicks-agg" || got[9] != "user-features" {
		t.Fatalf("default order is not by name: %v", got)
	}
	h.Press("o", "o") // name → cluster → state: KIND is not shown at 120 columns
	if js(h).SortCol() != jobs.ColState {
		t.Fatalf("two o's sort by %s", jobs.ColTitle(js(h).SortCol()))
	}
	if first := js(h).Rows()[0]; first.State != model.StateFailed {
		t.Errorf("sorted by state, first is %s (%s)", first.Name, first.State)
	}
	h.Press("O")
	if last := js(h).Rows()[9]; last.State != model.StateFailed {
		t.Errorf("reversed, last is %s (%s)", last.Name, last.State)
	}
	h.MustShow("STATE▼")
}

func TestCursorKeysAndPaging(t *testing.T) {
	f := tuitest.NewFixture()
	f.Jobs = tuitest.ManyJobs(100)
	h := apptest.New(t, f, 80, 24, tui.Options{})
	page := js(h).Page() // 24 − header, footer, flash − box chrome
	if page != 18 {
		t.Fatalf("page is %d rows, want 18", page)
	}
	h.Press("j", "j", "k")
	if js(h).Cursor() != 1 {
		t.Errorf("j j k leaves the cursor at %d", js(h).Cursor())
	}
	h.Press("G")
	if js(h).Cursor() != 99 || js(h).Offset() != 100-page {
		t.Errorf("G: cursor %d offset %d", js(h).Cursor(), js(h).Offset())
	}
	h.MustShow("100/100", js(h).Rows()[99].Name)
	h.Press("pgup")
	if js(h).Cursor() != 99-page {
		t.Errorf("pgup: cursor %d", js(h).Cursor())
	}
	h.Press("g")
	h.MustShow("1/100", js(h).Rows()[0].Name)
	h.Press("k")
	if js(h).Cursor() != 0 {
		t.Errorf("k at the top moved the cursor to %d", js(h).Cursor())
	}
}

func TestMarks(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.Press("space", "space", "k", "space")
	// ad-clicks-agg (j007) and clicks-to-hudi (j003) marked, then j003 unmarked.
	if len(js(h).Marks()) != 1 || !js(h).Marks()["j007"] {
		t.Errorf("space space k space leaves marks %v, want only j007", js(h).Marks())
	}
	h.MustShow("✓ 1 marked")
	h.Press("x")
	if len(js(h).Marks()) != 0 {
		t.Errorf("x left marks %v", js(h).Marks())
	}
	h.MustNotShow("marked")
}

func TestChangesUpdateTheTableAndHeader(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.SelectJob("orders-enrich")
	failed := f.Jobs[0]
	failed.State, failed.Diagnostics = model.StateFailed, "boom"
	sortBy(h, jobs.ColState)
	h.Change(api.Change{Kind: api.JobChanged, Job: &failed})
	if j := js(h).Selected(); j == nil || j.Name != "orders-enrich" {
		t.Fatalf("the cursor left orders-enrich when it moved in the order; on %v", j)
	}
	if got := rowNames(h)[:2]; !slices.Equal(got, []string{"fraud-scoring", "orders-enrich"}) {
		t.Errorf("orders-enrich did not move to the failed jobs: %v", rowNames(h))
	}
	h.MustShow("RUNNING 3", "FAILED 3")

	// A job the table has not seen appears.
	nj := api.JobView{Job: model.Job{ID: "j099", Name: "late-arrival", Cluster: "prod", State: model.StateDeploying}}
	h.Change(api.Change{Kind: api.JobChanged, Job: &nj})
	h.MustShow("late-arrival", "jobs 11")
}

// sortBy presses o until the table is sorted by c.
// sortBy sorts the table by column c, ascending, with o and O.
func sortBy(h *tuitest.Harness, c jobs.Column) {
	for range jobs.NumCols {
		if js(h).SortCol() == c {
			if js(h).SortDesc() {
				h.Press("O")
			}
			return
		}
		h.Press("o")
	}
	h.T.Fatalf("o never sorts by %s", jobs.ColTitle(c))
}

func TestLargeTablesCoalesceRebuilds(t *testing.T) {
	f := tuitest.NewFixture()
	f.Jobs = tuitest.ManyJobs(jobs.RebuildNowBelow + 500)
	h := apptest.New(t, f, 120, 40, tui.Options{})
	timers := len(h.Timers)
	a := api.JobView{Job: model.Job{ID: "new-a", Name: "aaa-new-a", Cluster: "prod", State: model.StateRunning}}
	b := api.JobView{Job: model.Job{ID: "new-b", Name: "aaa-new-b", Cluster: "prod", State: model.StateRunning}}
	h.Change(api.Change{Kind: api.JobChanged, Job: &a})
	h.Change(api.Change{Kind: api.JobChanged, Job: &b})
	if got := len(h.Timers) - timers; got != 1 {
		t.Fatalf("two changes queued %d rebuilds, want 1", got)
	}
	if js(h).Rows()[0].Name == "aaa-new-a" {
		t.Fatal("the index was rebuilt before the coalescing timer fired")
	}
	h.Fire(jobs.RebuildMsg{})
	if got := rowNames(h)[:2]; !slices.Equal(got, []string{"aaa-new-a", "aaa-new-b"}) {
		t.Errorf("after the rebuild the table starts with %v", got)
	}
	// A change that keeps a row in place needs no rebuild at all.
	same := js(h).Rows()[5]
	upd := *same
	upd.Figures.RecordsInPerSec = 123456
	h.Change(api.Change{Kind: api.JobChanged, Job: &upd})
	if js(h).Dirty() || js(h).Rows()[5].Figures.RecordsInPerSec != 123456 {
		t.Error("an in-place change rebuilt the index or was not applied")
	}
}

func TestOneJobLoadInFlight(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	js := js(h)
	first := js.Load()
	if first == nil {
		t.Fatal("no load when none was in flight")
	}
	if js.Load() != nil {
		t.Fatal("a second load went out while one was in flight")
	}
	stale := jobs.LoadedMsg(js.LoadSeq()-1, nil)
	h.Send(stale)
	if len(js.Rows()) != 10 {
		t.Fatal("an answer to a replaced request emptied the table")
	}
	before := len(f.Calls())
	h.Run(first) // the answer arrives; the queued reload follows
	calls := f.Calls()[before:]
	if n := strings.Count(strings.Join(calls, ","), "ListJobs"); n != 2 {
		t.Errorf("the in-flight load plus the queued one made %d ListJobs calls, want 2: %v", n, calls)
	}
}

func TestResyncReloads(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	f.Jobs = f.Jobs[:3]
	h.Change(api.Change{Kind: api.Resync})
	if len(js(h).Rows()) != 3 {
		t.Errorf("after a resync the table has %d jobs, want 3", len(js(h).Rows()))
	}
}

// TestIndexMatchesAFreshSortUnderChanges is a property test: whatever
// changes arrive (new jobs, state changes, renames, figures), with whatever
// sort and filter, the incrementally kept index equals filtering and sorting
// every job from scratch, and the header counts equal a recount.
func TestIndexMatchesAFreshSortUnderChanges(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		f := tuitest.NewFixture()
		f.Jobs = tuitest.ManyJobs(40)
		h := apptest.New(t, f, 120, 40, tui.Options{})
		js := js(h)
		for range rapid.IntRange(0, int(jobs.NumCols)-1).Draw(rt, "sort") {
			h.Press("o")
		}
		if rapid.Bool().Draw(rt, "desc") {
			h.Press("O")
		}
		if q := rapid.SampledFrom([]string{"", "state:RUNNING", "cluster:prod", "job-00000", "state:FAILED,RUNNING cluster:dev"}).Draw(rt, "filter"); q != "" {
			h.Press("/")
			h.Type(q)
			h.Press("enter")
		}
		states := model.JobStates()
		for i := range rapid.IntRange(1, 30).Draw(rt, "changes") {
			var v api.JobView
			if rapid.Bool().Draw(rt, "new") {
				v = api.JobView{Job: model.Job{ID: fmt.Sprintf("n%03d", i), Name: fmt.Sprintf("job-%07d", rapid.IntRange(0, 60).Draw(rt, "name")),
					Cluster: rapid.SampledFrom([]string{"prod", "dev"}).Draw(rt, "cluster")}}
			} else {
				v = *js.ByID(fmt.Sprintf("j%07d", rapid.IntRange(0, 39).Draw(rt, "job")))
			}
			v.State = rapid.SampledFrom(states).Draw(rt, "state")
			v.Figures.RecordsInPerSec = float64(rapid.IntRange(0, 3).Draw(rt, "rate"))
			if rapid.Bool().Draw(rt, "rename") {
				v.Name = fmt.Sprintf("job-%07d", rapid.IntRange(0, 60).Draw(rt, "rename to"))
			}
			h.Change(api.Change{Kind: api.JobChanged, Job: &v})
		}
		want, counts := js.FreshIndex()
		if !slices.Equal(js.Rows(), want) {
			rt.Fatalf("index %v, want %v", names(js.Rows()), names(want))
		}
		if js.Counts() != counts {
			rt.Fatalf("counts %v, want %v", js.Counts(), counts)
		}
		// A full sort after the changes, by name both ways and by the next
		// column, starts from the name order the changes kept.
		for _, k := range []string{"N", "N", "o"} {
			h.Press(k)
			if want, _ := js.FreshIndex(); !slices.Equal(js.Rows(), want) {
				rt.Fatalf("after %s: index %v, want %v", k, names(js.Rows()), names(want))
			}
		}
	})
}

func names(js []*api.JobView) []string {
	var out []string
	for _, j := range js {
		out = append(out, j.ID+":"+j.Name)
	}
	return out
}

// selectedName is the name of the job under the cursor, or "".
func selectedName(h *tuitest.Harness) string {
	if j := js(h).Selected(); j != nil {
		return j.Name
	}
	return ""
}

// Issue 9a: the filter puts the cursor on its first match, whatever the
// cursor was on before, as the text changes and again on enter.
func TestFilterPutsTheCursorOnTheFirstMatch(t *testing.T) {
	h := apptest.New(t, withOrdersFamily(tuitest.NewFixture()), 120, 40, tui.Options{})
	h.SelectJob("orders-enrich-4") // a match, but not the first
	h.Press("/")
	for i, r := range "orders-enrich" {
		h.Type(string(r))
		if got := selectedName(h); got != js(h).Rows()[0].Name {
			t.Fatalf("after %q the cursor is on %s, not the first match %s", "orders-enrich"[:i+1], got, js(h).Rows()[0].Name)
		}
	}
	if got := selectedName(h); got != "orders-enrich" {
		t.Fatalf("/orders-enrich leaves the cursor on %s", got)
	}
	// A match that sorts first arrives while the filter is typed: the cursor
	// stays on its job, and enter puts it on the first match.
	twin := api.JobView{Job: model.Job{ID: "j000", Name: "orders-enrich", Cluster: "staging", State: model.StateRunning}}
	h.Change(api.Change{Kind: api.JobChanged, Job: &twin})
	if j := js(h).Selected(); j.ID != "j001" {
		t.Fatalf("a new row moved the cursor from j001 to %s", j.ID)
	}
	h.Press("enter")
	if j := js(h).Selected(); j.ID != "j000" || js(h).Cursor() != 0 {
		t.Fatalf("enter leaves the cursor on %s (row %d), not the first match", j.ID, js(h).Cursor())
	}
	h.MustShow("1/6")
	// Clearing the filter keeps the cursor on its job.
	h.Press("j", "esc")
	if got := js(h).Selected(); js(h).QueryText() != "" || got.ID != "j001" {
		t.Fatalf("esc cleared the filter %q and left the cursor on %s, want j001", js(h).QueryText(), got.ID)
	}
}

// The cursor follows its job when the list changes; when the job is gone or
// filtered out, it goes to the nearest row left: the one below it, or the
// one above when it was last.
func TestCursorFollowsItsJob(t *testing.T) {
	t.Run("the job moves", func(t *testing.T) {
		h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
		sortBy(h, jobs.ColIn)
		h.SelectJob("user-features")
		v := *js(h).ByID("j004")
		v.Figures.RecordsInPerSec = 1e6
		h.Change(api.Change{Kind: api.JobChanged, Job: &v})
		if got := selectedName(h); got != "user-features" {
			t.Fatalf("the cursor left user-features for %s when it moved", got)
		}
	})
	t.Run("the job is gone and another came above", func(t *testing.T) {
		f := tuitest.NewFixture()
		h := apptest.New(t, f, 120, 40, tui.Options{})
		h.SelectJob("orders-enrich") // below it: payments-dedup
		f.Jobs = slices.DeleteFunc(f.Jobs, func(j api.JobView) bool { return j.ID == "j001" })
		f.Jobs = append(f.Jobs, api.JobView{Job: model.Job{ID: "j050", Name: "aaa-first", Cluster: "prod"}})
		h.Change(api.Change{Kind: api.Resync})
		if got := selectedName(h); got != "payments-dedup" {
			t.Fatalf("orders-enrich went away and the cursor is on %s, want payments-dedup", got)
		}
	})
	t.Run("the job is filtered out", func(t *testing.T) {
		h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
		h.Press("/")
		h.Type("state:RUNNING")
		h.Press("enter")
		h.SelectJob("orders-enrich")
		v := *js(h).ByID("j001")
		v.State = model.StateFailed
		h.Change(api.Change{Kind: api.JobChanged, Job: &v})
		if got := selectedName(h); got != "payments-dedup" {
			t.Fatalf("orders-enrich left the filter and the cursor is on %s, want payments-dedup", got)
		}
		h.SelectJob("user-features") // the last row
		v = *js(h).ByID("j004")
		v.State = model.StateFailed
		h.Change(api.Change{Kind: api.JobChanged, Job: &v})
		if got := selectedName(h); got != "payments-dedup" {
			t.Fatalf("the last row left the filter and the cursor is on %s, want payments-dedup", got)
		}
	})
}

// In the table: sorted by IN/s either way, the running jobs lead; a dead
// job's stale figures do not (TestLiveColumnsSortDeadJobsLast has the rule).
func TestLiveColumnsSortDeadJobsLastInTheTable(t *testing.T) {
	at := tuitest.Now.Add(-2 * time.Second)
	f := tuitest.NewFixture()
	f.Jobs[4].Figures = api.Figures{At: at, RecordsInPerSec: 1e6} // fraud-scoring (FAILED) with stale figures
	h := apptest.New(t, f, 120, 40, tui.Options{})
	sortBy(h, jobs.ColIn)
	if got := rowNames(h)[:4]; !slices.Equal(got, []string{"user-features", "payments-dedup", "orders-enrich", "clicks-to-hudi"}) {
		t.Errorf("by IN/s ascending the table starts %v", rowNames(h))
	}
	h.Press("O")
	if got := rowNames(h)[:4]; !slices.Equal(got, []string{"clicks-to-hudi", "orders-enrich", "payments-dedup", "user-features"}) {
		t.Errorf("by IN/s descending the table starts %v", rowNames(h))
	}
}

// setBP delivers a change of one job's backpressure.
func setBP(h *tuitest.Harness, id string, bp float64) {
	h.T.Helper()
	v := *js(h).ByID(id)
	v.Figures.Backpressure = bp
	h.Change(api.Change{Kind: api.JobChanged, Job: &v})
}

// Issue 9b: while jobs are marked, or a dialog is open, live changes
// refresh the rows but do not move them, and the frame says the sort is
// paused; when the marks are cleared or the dialog closes, the order
// catches up.
func TestMarksAndDialogsHoldTheOrder(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	sortBy(h, jobs.ColBP)
	h.Press("O", "g")
	seen := rowNames(h) // clicks-to-hudi, payments-dedup, orders-enrich, user-features, …
	h.MustNotShow("sort paused")

	h.Press("space")
	h.MustShow("sort paused")
	setBP(h, "j004", 0.95) // user-features would go first
	if got := rowNames(h); !slices.Equal(got, seen) {
		t.Fatalf("a change moved the rows while a job was marked:\n got %v\nwant %v", got, seen)
	}
	h.MustShow("95%")
	if got := selectedName(h); got != "payments-dedup" {
		t.Fatalf("space moved the cursor to %s, want the next row as seen, payments-dedup", got)
	}
	// A job new to the table goes after the held rows.
	nj := api.JobView{Job: model.Job{ID: "j099", Name: "aaa-new", Cluster: "prod", State: model.StateRunning},
		Figures: api.Figures{At: tuitest.Now, Backpressure: 0.99}}
	h.Change(api.Change{Kind: api.JobChanged, Job: &nj})
	if got := rowNames(h); !slices.Equal(got[:len(seen)], seen) || got[len(seen)] != "aaa-new" {
		t.Fatalf("a new job broke the held order: %v", got)
	}
	// A filter narrows the held order without reordering it.
	h.Press("/")
	h.Type("state:RUNNING")
	h.Press("enter")
	if got := rowNames(h); !slices.Equal(got, []string{"clicks-to-hudi", "payments-dedup", "orders-enrich", "user-features", "aaa-new"}) {
		t.Fatalf("the filter reordered the held rows: %v", got)
	}
	h.Press("esc")

	h.Press("x") // the marks go, the order catches up
	h.MustNotShow("sort paused")
	if got := rowNames(h)[:3]; !slices.Equal(got, []string{"aaa-new", "user-features", "clicks-to-hudi"}) {
		t.Fatalf("the order did not catch up when the marks were cleared: %v", rowNames(h))
	}

	// A confirmation dialog holds the order too.
	h.SelectJob("clicks-to-hudi")
	h.Press("p")
	if h.App.Dialog() == nil {
		t.Fatal("p opened no confirmation")
	}
	h.MustShow("Pause clicks-to-hudi?")
	seen = rowNames(h)
	h.MustShow("sort paused")
	setBP(h, "j003", 0.001)
	if got := rowNames(h); !slices.Equal(got, seen) {
		t.Fatalf("a change moved the rows under the dialog: %v", got)
	}
	h.Press("esc")
	h.MustNotShow("sort paused")
	if got := rowNames(h)[2]; got != "payments-dedup" {
		t.Fatalf("the order did not catch up when the dialog closed: %v", rowNames(h))
	}
	if got := selectedName(h); got != "clicks-to-hudi" {
		t.Fatalf("the cursor left clicks-to-hudi when the order caught up: %s", got)
	}
}

// The hint stays when a long title leaves little room: the marks (the
// footer counts them too) and the position give way first.
func TestSortPausedHintKeepsItsPlace(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 80, 24, tui.Options{})
	h.Press("space", "/")
	h.Type("cluster:prod,staging state:RUNNING")
	h.MustShow("sort paused")
}

func TestSparklineInTheJobsTable(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	// orders-enrich's last five rates are 0.5, 0.7, 0.9, 1.2 and 1 × 12.4k,
	// scaled from 80% of the lowest; user-features' rate lines up under it.
	h.MustShow("▂▄▅█▆ 12.4k", "▂▄▅█▆   900")
	// At 80 columns the column keeps its rate and gives up the sparkline.
	h.Send(tuitest.SizeMsg(80, 24))
	h.MustShow("12.4k")
	h.MustNotShow("▂▄▅█▆")
}

// js is the jobs table under the harness.
func js(h *tuitest.Harness) *jobs.Screen { return h.App.Table().(*jobs.Screen) }

// A resubmit asks where one job restores from: with several jobs marked,
// R is off (the help does not offer it) and says why.
func TestResubmitTakesOneJobNotSeveralMarked(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	offered := regexp.MustCompile(`R +resubmit`)
	h.Press("?")
	if !offered.MatchString(h.Screen()) {
		t.Fatal("the help does not offer R")
	}
	h.Press("esc", "space", "space", "?")
	if offered.MatchString(h.Screen()) {
		t.Fatal("with two jobs marked, the help offers R")
	}
	h.Press("esc", "R")
	if want := "resubmit works on one job at a time: its restore point is chosen per job"; h.Flash() != want {
		t.Fatalf("flash %q, want %q", h.Flash(), want)
	}
	if f.Called("Plan") || h.App.Dialog() != nil {
		t.Fatal("R with two marks started a resubmit")
	}
}

// space marks the job and moves down, as in k9s, so that space space space
// marks three jobs; the footer says so (#29).
func TestSpaceMarksAndMovesDown(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	first := rowNames(h)[0]
	h.Press("space", "space", "space")
	if got := len(js(h).Marks()); got != 3 || !js(h).Marks()[js(h).Rows()[0].ID] {
		t.Fatalf("space ×3 marked %d jobs (the first, %s: %v)", got, first, js(h).Marks()[js(h).Rows()[0].ID])
	}
	if sel := js(h).Selected(); sel == nil || sel.Name != rowNames(h)[3] {
		t.Fatalf("after space ×3 the cursor is on %v, want the fourth row %s", sel, rowNames(h)[3])
	}
	h.MustShow("space mark & next")
}
