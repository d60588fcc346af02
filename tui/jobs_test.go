package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"pgregory.net/rapid"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

// rowNames are the names in the jobs table, in order.
func rowNames(h *harness) []string {
	var out []string
	for _, j := range h.m.jobs.rows {
		out = append(out, j.Name)
	}
	return out
}

func TestStartLoadsJobsClustersAndWatches(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	for _, call := range []string{"ListJobs", "Clusters", "Watch"} {
		if !f.Called(call) {
			t.Errorf("start did not call %s; calls: %v", call, f.Calls())
		}
	}
	if !h.m.watching {
		t.Error("the change stream is not marked live after Watch answered")
	}
	h.MustShow("orders-enrich", "user-features", "jobs 10", "RUNNING 4", "prod rm1 2s", "1/10")
}

func TestFilterNarrowsAsYouType(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.Press("/")
	if !h.m.top().Capturing() {
		t.Fatal("/ did not give the keyboard to the filter")
	}
	h.Type("state:FAILED")
	if got := rowNames(h); !slices.Equal(got, []string{"fraud-scoring"}) {
		t.Errorf("state:FAILED shows %v", got)
	}
	h.Press("enter")
	if h.m.top().Capturing() {
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
	if len(h.m.jobs.rows) != 4 {
		t.Errorf("a bad term hid the other terms' results: %v", rowNames(h))
	}
	// esc while typing clears the filter.
	h.Press("esc")
	if len(h.m.jobs.rows) != 10 || h.m.jobs.queryText != "" {
		t.Errorf("esc left the filter %q with %d rows", h.m.jobs.queryText, len(h.m.jobs.rows))
	}
}

func TestEscClearsAnAppliedFilterThenMarks(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.Press("space", "space")
	h.Press("/")
	h.Type("orders")
	h.Press("enter", "esc")
	if h.m.jobs.queryText != "" || len(h.m.jobs.marks) != 2 {
		t.Fatalf("first esc: filter %q, %d marks; want the filter cleared, marks kept", h.m.jobs.queryText, len(h.m.jobs.marks))
	}
	h.Press("esc")
	if len(h.m.jobs.marks) != 0 {
		t.Fatalf("second esc kept %d marks", len(h.m.jobs.marks))
	}
}

func TestScopeToOneCluster(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.Press(":")
	h.Type("jobs @staging")
	h.Press("enter")
	for _, j := range h.m.jobs.rows {
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
	if len(h.m.jobs.rows) != 10 {
		t.Errorf(":jobs shows %d jobs, want all 10", len(h.m.jobs.rows))
	}
}

func TestSortCyclesColumnsAndReverses(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	if got := rowNames(h); got[0] != "ad-clicks-agg" || got[9] != "user-features" {
		t.Fatalf("default order is not by name: %v", got)
	}
	h.Press("o", "o", "o") // name → kind → cluster → state
	if h.m.jobs.sortCol != colState {
		t.Fatalf("three o's sort by %s", jobColumns[h.m.jobs.sortCol].title)
	}
	if first := h.m.jobs.rows[0]; first.State != model.StateFailed {
		t.Errorf("sorted by state, first is %s (%s)", first.Name, first.State)
	}
	h.Press("O")
	if last := h.m.jobs.rows[9]; last.State != model.StateFailed {
		t.Errorf("reversed, last is %s (%s)", last.Name, last.State)
	}
	h.MustShow("STATE▼")
}

func TestCursorKeysAndPaging(t *testing.T) {
	f := tuitest.NewFixture()
	f.Jobs = tuitest.ManyJobs(100)
	h := newHarness(t, f, 80, 24, Options{})
	page := h.m.jobs.page() // 24 − header, footer, flash − box chrome
	if page != 18 {
		t.Fatalf("page is %d rows, want 18", page)
	}
	h.Press("j", "j", "k")
	if h.m.jobs.cursor != 1 {
		t.Errorf("j j k leaves the cursor at %d", h.m.jobs.cursor)
	}
	h.Press("G")
	if h.m.jobs.cursor != 99 || h.m.jobs.offset != 100-page {
		t.Errorf("G: cursor %d offset %d", h.m.jobs.cursor, h.m.jobs.offset)
	}
	h.MustShow("100/100", h.m.jobs.rows[99].Name)
	h.Press("pgup")
	if h.m.jobs.cursor != 99-page {
		t.Errorf("pgup: cursor %d", h.m.jobs.cursor)
	}
	h.Press("g")
	h.MustShow("1/100", h.m.jobs.rows[0].Name)
	h.Press("k")
	if h.m.jobs.cursor != 0 {
		t.Errorf("k at the top moved the cursor to %d", h.m.jobs.cursor)
	}
}

func TestMarks(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.Press("space", "space", "k", "space")
	// ad-clicks-agg (j007) and clicks-to-hudi (j003) marked, then j003 unmarked.
	if len(h.m.jobs.marks) != 1 || !h.m.jobs.marks["j007"] {
		t.Errorf("space space k space leaves marks %v, want only j007", h.m.jobs.marks)
	}
	h.MustShow("✓ 1 marked")
	h.Press("x")
	if len(h.m.jobs.marks) != 0 {
		t.Errorf("x left marks %v", h.m.jobs.marks)
	}
	h.MustNotShow("marked")
}

func TestChangesUpdateTheTableAndHeader(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("orders-enrich")
	failed := f.Jobs[0]
	failed.State, failed.Diagnostics = model.StateFailed, "boom"
	sortBy(h, colState)
	h.Change(api.Change{Kind: api.JobChanged, Job: &failed})
	if j := h.m.jobs.selected(); j == nil || j.Name != "orders-enrich" {
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
func sortBy(h *harness, c column) {
	for range numCols {
		if h.m.jobs.sortCol == c {
			return
		}
		h.Press("o")
	}
	h.T.Fatalf("o never sorts by %s", jobColumns[c].title)
}

func TestLargeTablesCoalesceRebuilds(t *testing.T) {
	f := tuitest.NewFixture()
	f.Jobs = tuitest.ManyJobs(rebuildNowBelow + 500)
	h := newHarness(t, f, 120, 40, Options{})
	timers := len(h.Timers)
	a := api.JobView{Job: model.Job{ID: "new-a", Name: "aaa-new-a", Cluster: "prod", State: model.StateRunning}}
	b := api.JobView{Job: model.Job{ID: "new-b", Name: "aaa-new-b", Cluster: "prod", State: model.StateRunning}}
	h.Change(api.Change{Kind: api.JobChanged, Job: &a})
	h.Change(api.Change{Kind: api.JobChanged, Job: &b})
	if got := len(h.Timers) - timers; got != 1 {
		t.Fatalf("two changes queued %d rebuilds, want 1", got)
	}
	if h.m.jobs.rows[0].Name == "aaa-new-a" {
		t.Fatal("the index was rebuilt before the coalescing timer fired")
	}
	h.Fire(rebuildMsg{})
	if got := rowNames(h)[:2]; !slices.Equal(got, []string{"aaa-new-a", "aaa-new-b"}) {
		t.Errorf("after the rebuild the table starts with %v", got)
	}
	// A change that keeps a row in place needs no rebuild at all.
	same := h.m.jobs.rows[5]
	upd := *same
	upd.Figures.RecordsInPerSec = 123456
	h.Change(api.Change{Kind: api.JobChanged, Job: &upd})
	if h.m.jobs.dirty || h.m.jobs.rows[5].Figures.RecordsInPerSec != 123456 {
		t.Error("an in-place change rebuilt the index or was not applied")
	}
}

func TestOneJobLoadInFlight(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	js := h.m.jobs
	first := js.load()
	if first == nil {
		t.Fatal("no load when none was in flight")
	}
	if js.load() != nil {
		t.Fatal("a second load went out while one was in flight")
	}
	stale := jobsLoadedMsg{seq: js.loads.Seq() - 1, jobs: nil}
	h.Send(stale)
	if len(js.rows) != 10 {
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
	h := newHarness(t, f, 120, 40, Options{})
	f.Jobs = f.Jobs[:3]
	h.Change(api.Change{Kind: api.Resync})
	if len(h.m.jobs.rows) != 3 {
		t.Errorf("after a resync the table has %d jobs, want 3", len(h.m.jobs.rows))
	}
}

func TestLoadFailureShowsPanelAndRecovers(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetFail(tuitest.ErrClusterDown)
	h := newHarness(t, f, 80, 24, Options{})
	h.MustShow("list jobs: connection refused", "ctrl+r retries", "clusters unknown", "live updates paused")
	f.SetFail(nil)
	h.Press("ctrl+r")
	h.MustShow("orders-enrich")
	h.MustNotShow("ctrl+r retries")
	// The watch retries on its own with backoff, and reloads what it missed.
	if !slices.ContainsFunc(h.Timers, func(tm tuitest.Timer) bool { _, ok := tm.Msg(tuitest.Now).(watchRetryMsg); return ok }) {
		t.Fatal("a failed Watch scheduled no retry")
	}
	h.Fire(watchRetryMsg{})
	if !h.m.watching {
		t.Error("the retried Watch did not take")
	}
	h.MustNotShow("live updates paused")
}

func TestWatchEndRetriesWithBackoff(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	var delays []time.Duration
	for range 3 {
		h.Send(watchEndedMsg{gen: h.m.watchGen})
		for _, tm := range h.Timers {
			if _, ok := tm.Msg(tuitest.Now).(watchRetryMsg); ok {
				delays = append(delays, tm.D)
			}
		}
		h.Timers = nil
		h.m.watchGen++ // as a retry would
	}
	if !slices.Equal(delays, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}) {
		t.Errorf("retry delays %v, want doubling from 1s", delays)
	}
	h.Send(watchEndedMsg{gen: h.m.watchGen - 10})
	if len(h.Timers) != 0 {
		t.Error("the end of a replaced stream scheduled a retry")
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
		h := newHarness(t, f, 120, 40, Options{})
		js := h.m.jobs
		for range rapid.IntRange(0, int(numCols)-1).Draw(rt, "sort") {
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
				v = *js.byID[fmt.Sprintf("j%07d", rapid.IntRange(0, 39).Draw(rt, "job"))]
			}
			v.State = rapid.SampledFrom(states).Draw(rt, "state")
			v.Figures.RecordsInPerSec = float64(rapid.IntRange(0, 3).Draw(rt, "rate"))
			if rapid.Bool().Draw(rt, "rename") {
				v.Name = fmt.Sprintf("job-%07d", rapid.IntRange(0, 60).Draw(rt, "rename to"))
			}
			h.Change(api.Change{Kind: api.JobChanged, Job: &v})
		}
		var want []*api.JobView
		var counts [numStates]int
		for _, j := range js.byID {
			counts[j.State]++
			if js.inView(j) {
				want = append(want, j)
			}
		}
		slices.SortFunc(want, lessFunc(js.sortCol, js.sortDesc))
		if !slices.Equal(js.rows, want) {
			rt.Fatalf("index %v, want %v", names(js.rows), names(want))
		}
		if counts != js.counts {
			rt.Fatalf("counts %v, want %v", js.counts, counts)
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
func selectedName(h *harness) string {
	if j := h.m.jobs.selected(); j != nil {
		return j.Name
	}
	return ""
}

// Issue 9a: the filter puts the cursor on its first match, whatever the
// cursor was on before, as the text changes and again on enter.
func TestFilterPutsTheCursorOnTheFirstMatch(t *testing.T) {
	h := newHarness(t, withOrdersFamily(tuitest.NewFixture()), 120, 40, Options{})
	h.SelectJob("orders-enrich-4") // a match, but not the first
	h.Press("/")
	for i, r := range "orders-enrich" {
		h.Type(string(r))
		if got := selectedName(h); got != h.m.jobs.rows[0].Name {
			t.Fatalf("after %q the cursor is on %s, not the first match %s", "orders-enrich"[:i+1], got, h.m.jobs.rows[0].Name)
		}
	}
	if got := selectedName(h); got != "orders-enrich" {
		t.Fatalf("/orders-enrich leaves the cursor on %s", got)
	}
	// A match that sorts first arrives while the filter is typed: the cursor
	// stays on its job, and enter puts it on the first match.
	twin := api.JobView{Job: model.Job{ID: "j000", Name: "orders-enrich", Cluster: "staging", State: model.StateRunning}}
	h.Change(api.Change{Kind: api.JobChanged, Job: &twin})
	if j := h.m.jobs.selected(); j.ID != "j001" {
		t.Fatalf("a new row moved the cursor from j001 to %s", j.ID)
	}
	h.Press("enter")
	if j := h.m.jobs.selected(); j.ID != "j000" || h.m.jobs.cursor != 0 {
		t.Fatalf("enter leaves the cursor on %s (row %d), not the first match", j.ID, h.m.jobs.cursor)
	}
	h.MustShow("1/6")
	// Clearing the filter keeps the cursor on its job.
	h.Press("j", "esc")
	if got := h.m.jobs.selected(); h.m.jobs.queryText != "" || got.ID != "j001" {
		t.Fatalf("esc cleared the filter %q and left the cursor on %s, want j001", h.m.jobs.queryText, got.ID)
	}
}

// The cursor follows its job when the list changes; when the job is gone or
// filtered out, it goes to the nearest row left: the one below it, or the
// one above when it was last.
func TestCursorFollowsItsJob(t *testing.T) {
	t.Run("the job moves", func(t *testing.T) {
		h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
		sortBy(h, colIn)
		h.SelectJob("user-features")
		v := *h.m.jobs.byID["j004"]
		v.Figures.RecordsInPerSec = 1e6
		h.Change(api.Change{Kind: api.JobChanged, Job: &v})
		if got := selectedName(h); got != "user-features" {
			t.Fatalf("the cursor left user-features for %s when it moved", got)
		}
	})
	t.Run("the job is gone and another came above", func(t *testing.T) {
		f := tuitest.NewFixture()
		h := newHarness(t, f, 120, 40, Options{})
		h.SelectJob("orders-enrich") // below it: payments-dedup
		f.Jobs = slices.DeleteFunc(f.Jobs, func(j api.JobView) bool { return j.ID == "j001" })
		f.Jobs = append(f.Jobs, api.JobView{Job: model.Job{ID: "j050", Name: "aaa-first", Cluster: "prod"}})
		h.Change(api.Change{Kind: api.Resync})
		if got := selectedName(h); got != "payments-dedup" {
			t.Fatalf("orders-enrich went away and the cursor is on %s, want payments-dedup", got)
		}
	})
	t.Run("the job is filtered out", func(t *testing.T) {
		h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
		h.Press("/")
		h.Type("state:RUNNING")
		h.Press("enter")
		h.SelectJob("orders-enrich")
		v := *h.m.jobs.byID["j001"]
		v.State = model.StateFailed
		h.Change(api.Change{Kind: api.JobChanged, Job: &v})
		if got := selectedName(h); got != "payments-dedup" {
			t.Fatalf("orders-enrich left the filter and the cursor is on %s, want payments-dedup", got)
		}
		h.SelectJob("user-features") // the last row
		v = *h.m.jobs.byID["j004"]
		v.State = model.StateFailed
		h.Change(api.Change{Kind: api.JobChanged, Job: &v})
		if got := selectedName(h); got != "payments-dedup" {
			t.Fatalf("the last row left the filter and the cursor is on %s, want payments-dedup", got)
		}
	})
}

// Issue 9b: a job with no live application keeps its last figures, which
// must neither show as live nor sort it above running jobs. For every
// column whose value only a live job has, jobs that show it come first,
// then live jobs that have none yet, then the dead ones, by name — in both
// directions.
func TestLiveColumnsSortDeadJobsLast(t *testing.T) {
	at := tuitest.Now.Add(-2 * time.Second)
	job := func(id string, st model.JobState, in, bp float64, up time.Duration) *api.JobView {
		j := &api.JobView{Job: model.Job{ID: id, Name: id, State: st}}
		if in >= 0 {
			j.Figures = api.Figures{At: at, RecordsInPerSec: in, RecordsOutPerS: in, Backpressure: bp}
		}
		if up > 0 {
			j.StartedAt = tuitest.Now.Add(-up)
		}
		return j
	}
	jobs := []*api.JobView{
		job("failed-stale", model.StateFailed, 1e6, 1, time.Minute), // the highest figures of all, and the latest start
		job("run-hi", model.StateRunning, 20, 0.9, 2*time.Hour),
		job("killed", model.StateKilled, 0.5, 0.01, 0),
		job("deploying", model.StateDeploying, -1, 0, 0),
		job("run-lo", model.StateRunning, 10, 0.1, time.Hour),
		job("finished", model.StateFinished, -1, 0, 0),
	}
	for _, tc := range []struct {
		col       column
		asc, desc []string
	}{
		{colIn, []string{"run-lo", "run-hi", "deploying", "failed-stale", "finished", "killed"},
			[]string{"run-hi", "run-lo", "deploying", "failed-stale", "finished", "killed"}},
		{colOut, []string{"run-lo", "run-hi", "deploying", "failed-stale", "finished", "killed"},
			[]string{"run-hi", "run-lo", "deploying", "failed-stale", "finished", "killed"}},
		{colBP, []string{"run-lo", "run-hi", "deploying", "failed-stale", "finished", "killed"},
			[]string{"run-hi", "run-lo", "deploying", "failed-stale", "finished", "killed"}},
		// UP: the latest start first; a live job not started yet shows no uptime.
		{colUp, []string{"run-lo", "run-hi", "deploying", "failed-stale", "finished", "killed"},
			[]string{"run-hi", "run-lo", "deploying", "failed-stale", "finished", "killed"}},
	} {
		for _, desc := range []bool{false, true} {
			want := tc.asc
			if desc {
				want = tc.desc
			}
			byLess := slices.Clone(jobs)
			slices.SortFunc(byLess, lessFunc(tc.col, desc))
			bySort := slices.Clone(jobs)
			sortJobs(bySort, tc.col, desc)
			for how, got := range map[string][]*api.JobView{"lessFunc": byLess, "sortJobs": bySort} {
				var ids []string
				for _, j := range got {
					ids = append(ids, j.ID)
				}
				if !slices.Equal(ids, want) {
					t.Errorf("%s by %s (desc %v): %v, want %v", how, jobColumns[tc.col].title, desc, ids, want)
				}
			}
		}
	}
	// A dead job's stale figures are not shown: its cells say "-" as for a
	// job that never had figures.
	cells := jobCells(jobs[0], tuitest.Now)
	for _, c := range []column{colUp, colIn, colOut, colBP} {
		if cells[c] != kit.NoValue {
			t.Errorf("a FAILED job shows %s %q", jobColumns[c].title, cells[c])
		}
	}

	// In the table: sorted by IN/s either way, the running jobs lead.
	f := tuitest.NewFixture()
	f.Jobs[4].Figures = api.Figures{At: at, RecordsInPerSec: 1e6} // fraud-scoring (FAILED) with stale figures
	h := newHarness(t, f, 120, 40, Options{})
	sortBy(h, colIn)
	if got := rowNames(h)[:4]; !slices.Equal(got, []string{"user-features", "payments-dedup", "orders-enrich", "clicks-to-hudi"}) {
		t.Errorf("by IN/s ascending the table starts %v", rowNames(h))
	}
	h.Press("O")
	if got := rowNames(h)[:4]; !slices.Equal(got, []string{"clicks-to-hudi", "orders-enrich", "payments-dedup", "user-features"}) {
		t.Errorf("by IN/s descending the table starts %v", rowNames(h))
	}
}

// setBP delivers a change of one job's backpressure.
func setBP(h *harness, id string, bp float64) {
	h.T.Helper()
	v := *h.m.jobs.byID[id]
	v.Figures.Backpressure = bp
	h.Change(api.Change{Kind: api.JobChanged, Job: &v})
}

// Issue 9b: while jobs are marked, or a dialog is open, live changes
// refresh the rows but do not move them, and the frame says the sort is
// paused; when the marks are cleared or the dialog closes, the order
// catches up.
func TestMarksAndDialogsHoldTheOrder(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	sortBy(h, colBP)
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
	if _, ok := h.m.dialog.(*confirmDialog); !ok {
		t.Fatalf("p opened no confirmation: %T", h.m.dialog)
	}
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
	h := newHarness(t, tuitest.NewFixture(), 80, 24, Options{})
	h.Press("space", "/")
	h.Type("cluster:prod,staging state:RUNNING")
	h.MustShow("sort paused")
}
