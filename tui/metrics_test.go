package tui

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/alerts"
	"github.com/palink/palink/tui/detail"
	"github.com/palink/palink/tui/internal/tuitest"
)

func visibleIDs(h *harness) []string {
	js := h.m.jobs
	var out []string
	for _, j := range js.rows[js.offset:min(js.offset+js.page(), len(js.rows))] {
		out = append(out, j.ID)
	}
	return out
}

// TestInterestFollowsTheScreen: the TUI declares the rows on screen, and
// again whenever they change (scroll, filter, resize, detail and back), but
// not for keys that change nothing.
func TestInterestFollowsTheScreen(t *testing.T) {
	f := tuitest.NewFixture()
	f.Jobs = tuitest.ManyJobs(300)
	h := newHarness(t, f, 120, 40, Options{})
	first, ok := f.LastInterest()
	if !ok || len(first.Jobs) != h.m.jobs.page() || !slices.Equal(first.Jobs, visibleIDs(h)) || first.Detail != "" || first.Client == "" {
		t.Fatalf("after load the interest is %+v, want the %d visible rows", first, h.m.jobs.page())
	}
	calls := f.InterestCalls()
	h.Press("x") // clears marks: nothing on screen moves
	h.Press("j") // the cursor moves within the page
	if n := f.InterestCalls(); n != calls {
		t.Fatalf("keys that moved no row declared the interest again (%d calls, was %d)", n, calls)
	}

	h.Press("pgdown", "pgdown")
	got, _ := f.LastInterest()
	if !slices.Equal(got.Jobs, visibleIDs(h)) || slices.Contains(got.Jobs, first.Jobs[0]) {
		t.Fatalf("after scrolling the interest is %v, want %v", got.Jobs, visibleIDs(h))
	}

	h.Send(tuitest.SizeMsg(120, 20))
	got, _ = f.LastInterest()
	if len(got.Jobs) != h.m.jobs.page() || !slices.Equal(got.Jobs, visibleIDs(h)) {
		t.Fatalf("after a resize the interest has %d jobs, want the %d visible", len(got.Jobs), h.m.jobs.page())
	}

	h.Press("/")
	h.Type("job-000012")
	h.Press("enter")
	got, _ = f.LastInterest()
	if !slices.Equal(got.Jobs, visibleIDs(h)) || len(got.Jobs) == 0 {
		t.Fatalf("after filtering the interest is %v, want %v", got.Jobs, visibleIDs(h))
	}

	h.Press("enter")
	d, ok := h.m.top().(*detail.Screen)
	if !ok {
		t.Fatal("enter did not open the detail")
	}
	got, _ = f.LastInterest()
	if got.Detail != d.JobID() || len(got.Jobs) != 0 {
		t.Fatalf("in the detail the interest is %+v, want its job alone", got)
	}
	h.Press("esc")
	got, _ = f.LastInterest()
	if got.Detail != "" || !slices.Equal(got.Jobs, visibleIDs(h)) {
		t.Fatalf("back on the table the interest is %+v", got)
	}

	// Unchanged, it is declared again before the service lets it expire.
	calls = f.InterestCalls()
	h.Send(tickMsg{now: tuitest.Now.Add(interestRefresh)})
	if f.InterestCalls() != calls+1 {
		t.Fatal("an unchanged interest was not refreshed")
	}
}

// TestInterestIsOneCallAtATime: a slow service sees one SetInterest in
// flight; what changed meanwhile goes out when it answers.
func TestInterestIsOneCallAtATime(t *testing.T) {
	f := tuitest.NewFixture()
	f.Jobs = tuitest.ManyJobs(300)
	h := newHarness(t, f, 120, 40, Options{})
	h.m.obs.inFlight = true // as if a declaration were on its way
	calls := f.InterestCalls()
	h.Press("pgdown")
	if f.InterestCalls() != calls {
		t.Fatal("a second declaration went out while one was in flight")
	}
	h.Send(interestSentMsg{})
	got, _ := f.LastInterest()
	if f.InterestCalls() != calls+1 || !slices.Equal(got.Jobs, visibleIDs(h)) {
		t.Fatalf("the change made while in flight was not declared after: %v", got.Jobs)
	}
}

func TestSparkline(t *testing.T) {
	cases := []struct {
		in    []float64
		width int
		want  string
	}{
		{[]float64{0, 1, 2, 3, 4, 5, 6, 7}, 8, "▁▂▃▄▅▆▇█"},
		{[]float64{5, 10}, 5, "   ▂█"},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 3, "▄▆█"},
		{[]float64{0, 0, 0}, 3, "▁▁▁"},
		{[]float64{3000, 3000}, 2, "██"}, // steady: high, not noise
		{nil, 2, "  "},
	}
	for _, tc := range cases {
		if got := sparkline(tc.in, tc.width); got != tc.want {
			t.Errorf("sparkline(%v, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}

func TestSparklineInTheJobsTable(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	// orders-enrich's last five rates are 0.5, 0.7, 0.9, 1.2 and 1 × 12.4k,
	// scaled from 80% of the lowest; user-features' rate lines up under it.
	h.MustShow("▂▄▅█▆ 12.4k", "▂▄▅█▆   900")
	// At 80 columns the column keeps its rate and gives up the sparkline.
	h.Send(tuitest.SizeMsg(80, 24))
	h.MustShow("12.4k")
	h.MustNotShow("▂▄▅█▆")
}

func TestAlertBadgeFollowsAlertsChanged(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.MustNotShow("alert")
	f.SetAlerts(tuitest.FixtureAlerts())
	h.Change(api.Change{Kind: api.AlertsChanged})
	h.MustShow("⚠ 2 alerts  jobs 10")
	f.SetAlerts(nil)
	h.Change(api.Change{Kind: api.AlertsChanged})
	h.MustNotShow("⚠ 2 alerts")
	// A narrow header keeps the badge, shorter.
	f.SetAlerts(tuitest.FixtureAlerts()[:1])
	h.Send(tuitest.SizeMsg(80, 24))
	h.Change(api.Change{Kind: api.AlertsChanged})
	h.MustShow("⚠")
}

// TestProgramAlertsBadgeAndView runs the real loop: an alert that fires
// reaches the header through Watch, and :alerts lists it.
func TestProgramAlertsBadgeAndView(t *testing.T) {
	f := tuitest.NewFixture()
	tm := startProgram(t, f, Options{})
	tuitest.WaitFor(t, tm, "orders-enrich")
	f.SetAlerts(tuitest.FixtureAlerts())
	f.Emit(api.Change{Kind: api.AlertsChanged})
	tuitest.WaitFor(t, tm, "⚠ 2 alerts")
	tm.Type(":alerts")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "2 firing · 1 resolved", "java.lang.OutOfMemoryError")
	m := finalModel(t, tm)
	if _, ok := m.top().(*alerts.Screen); !ok {
		t.Fatalf("top screen %T", m.top())
	}
}
