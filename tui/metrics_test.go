package tui

import (
	"regexp"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/alerts"
	"github.com/palink/palink/tui/detail"
	"github.com/palink/palink/tui/internal/tuitest"
)

// visibleIDs are the ids of the jobs whose rows the screen shows, in order.
func visibleIDs(h *harness) []string {
	id := map[string]string{}
	for _, j := range h.F.Jobs {
		id[j.Name] = j.ID
	}
	var out []string
	for _, name := range regexp.MustCompile(`job-\d{7}`).FindAllString(h.Screen(), -1) {
		out = append(out, id[name])
	}
	return out
}

// page is the number of table rows on screen: the body less the box and
// the column headings.
func page(h *harness) int { return h.m.bodySize().Height - 3 }

// TestInterestFollowsTheScreen: the TUI declares the rows on screen, and
// again whenever they change (scroll, filter, resize, detail and back), but
// not for keys that change nothing.
func TestInterestFollowsTheScreen(t *testing.T) {
	f := tuitest.NewFixture()
	f.Jobs = tuitest.ManyJobs(300)
	h := newHarness(t, f, 120, 40, Options{})
	first, ok := f.LastInterest()
	if !ok || len(first.Jobs) != page(h) || !slices.Equal(first.Jobs, visibleIDs(h)) || first.Detail != "" || first.Client == "" {
		t.Fatalf("after load the interest is %+v, want the %d visible rows", first, page(h))
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
	if len(got.Jobs) != page(h) || !slices.Equal(got.Jobs, visibleIDs(h)) {
		t.Fatalf("after a resize the interest has %d jobs, want the %d visible", len(got.Jobs), page(h))
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
