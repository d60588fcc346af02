package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
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
	d, ok := h.m.top().(*detailScreen)
	if !ok {
		t.Fatal("enter did not open the detail")
	}
	got, _ = f.LastInterest()
	if got.Detail != d.data.job.ID || len(got.Jobs) != 0 {
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

func TestChartAxesAndUnits(t *testing.T) {
	st := kit.DarkStyles()
	now := tuitest.Now
	var pts []chartPoint
	for i := 0; i <= 60; i++ {
		v := 1000.0
		if i > 30 {
			v = 3000
		}
		pts = append(pts, chartPoint{at: now.Add(-time.Duration(60-i) * 5 * time.Second), v: v})
	}
	lines := renderChart(st, chartSpec{title: "records in/s", label: kit.Rate, points: pts, from: now.Add(-5 * time.Minute), to: now, line: st.ChartLine}, 60, 8)
	plain := make([]string, len(lines))
	for i, l := range lines {
		plain[i] = tuitest.Strip(l)
		if w := kit.Width(lines[i]); w > 60 {
			t.Errorf("line %d is %d cells wide", i, w)
		}
	}
	if len(lines) != 8 || !strings.HasPrefix(plain[0], " records in/s") || !strings.HasSuffix(strings.TrimRight(plain[0], " "), "3.0k") {
		t.Fatalf("title line %q", plain[0])
	}
	// The y axis runs from 0 to a round top, with a label in the middle.
	if !strings.HasPrefix(plain[1], "3.0k ┤") || !strings.HasPrefix(plain[6], "   0 ┼") || !strings.Contains(plain[3], "┤") {
		t.Errorf("y axis:\n%s", strings.Join(plain, "\n"))
	}
	if !strings.Contains(plain[7], "-5m") || !strings.HasSuffix(strings.TrimRight(plain[7], " "), "now") {
		t.Errorf("time axis %q", plain[7])
	}
	// 3000 is the top: the right half draws in the top row; 1000 is a
	// third up: the left half draws in the lower rows, not the top.
	top := []rune(plain[1])
	if top[len(top)-1] == 0x2800 || top[len([]rune("3.0k ┤"))+2] != 0x2800 {
		t.Errorf("the line is not where its values are:\n%s", strings.Join(plain, "\n"))
	}
	// Unknown values are a gap, and a series of them says so.
	gap := renderChart(st, chartSpec{title: "lag", label: kit.Rate, points: []chartPoint{{now, -1}}, from: now.Add(-time.Minute), to: now, line: st.ChartLine}, 40, 5)
	if !strings.Contains(tuitest.Strip(gap[0]), "not reported") {
		t.Errorf("an unreported figure: %q", tuitest.Strip(gap[0]))
	}
}

func TestNiceCeil(t *testing.T) {
	for in, want := range map[float64]float64{0: 0, 0.04: 0.04, 0.1: 0.1, 14_200: 15_000, 2100: 2500, 3000: 3000, 7: 8, 1: 1} {
		if got := niceCeil(in); got != want {
			t.Errorf("niceCeil(%v) = %v, want %v", in, got, want)
		}
	}
}

// TestMetricsTabLoadsWhenShownAndFollowsFigures: the series is asked for
// when the tab is shown, and again when new figures of the job arrive
// while it is on screen — not for other jobs, nor when it is not shown.
func TestMetricsTabLoadsWhenShownAndFollowsFigures(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.OpenDetail("orders-enrich")
	if f.Metrics.MetricsCalls != 0 {
		t.Fatal("the overview asked for metrics")
	}
	h.Press("m")
	if f.Metrics.MetricsCalls != 1 {
		t.Fatalf("showing the tab made %d JobMetrics calls, want 1", f.Metrics.MetricsCalls)
	}
	h.MustShow("records in/s (sources)", "backpressure (worst vertex)", "watermark delay", "-5m", "now", "in 12.4k/s")
	h.Screen() // drawn: on screen

	orders := f.Jobs[0]
	orders.Figures.At = tuitest.Now.Add(5 * time.Second)
	h.Change(api.Change{Kind: api.JobChanged, Job: &orders})
	if f.Metrics.MetricsCalls != 2 {
		t.Fatalf("new figures of the job made %d calls in all, want 2", f.Metrics.MetricsCalls)
	}
	other := f.Jobs[1]
	other.Figures.At = tuitest.Now.Add(time.Minute)
	h.Change(api.Change{Kind: api.JobChanged, Job: &other})
	if f.Metrics.MetricsCalls != 2 {
		t.Fatal("another job's figures reloaded this job's metrics")
	}

	// Off screen (the overview is shown, time passed): no reload.
	h.Press("shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab")
	h.Screen()
	h.Send(tickMsg{now: tuitest.Now.Add(10 * time.Second)})
	orders.Figures.At = tuitest.Now.Add(10 * time.Second)
	h.Change(api.Change{Kind: api.JobChanged, Job: &orders})
	if f.Metrics.MetricsCalls != 2 {
		t.Fatal("the hidden tab reloaded")
	}
}

func TestMetricsTabWindowAndStates(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.OpenDetail("orders-enrich")
	h.Press("m")
	h.MustShow("last 5 min")
	h.Press("t")
	h.MustShow("last hour, by minute", "-1h")
	h.Press("t")
	h.MustShow("last 5 min")

	// A job that does not run has no figures, and the tab says why.
	h.Press("esc")
	h.OpenDetail("sessionize")
	h.Press("m")
	h.MustShow("sessionize is FINISHED: metrics are collected while a job runs.")

	// A running job with nothing collected yet says how figures come.
	h.Press("esc")
	f.Metrics.Series = map[string]api.MetricsSeries{"j004": {JobID: "j004", LastError: "GET /jobs/x on node: unavailable"}}
	h.OpenDetail("user-features")
	h.Press("m")
	h.MustShow("no figures yet", "last collection failed: GET /jobs/x on node: unavailable")
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

func TestAlertsViewListsAndOpensTheJob(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetAlerts(tuitest.FixtureAlerts())
	h := newHarness(t, f, 120, 40, Options{})
	h.Press(":")
	h.Type("alerts")
	h.Press("enter")
	if _, ok := h.m.top().(*alertsScreen); !ok {
		t.Fatalf(":alerts opened %T", h.m.top())
	}
	h.MustShow("Alerts", "2 firing · 1 resolved", "job-failed", "fraud-scoring", "backpressure 87% at Sink: hudi[5]", "RESOLVED", "30m")
	// A new alert fires while the view is open: it reloads.
	more := append(tuitest.FixtureAlerts(), model.Alert{Rule: "lag", JobID: "j001", JobName: "orders-enrich", Cluster: "prod", State: model.AlertFiring,
		Since: tuitest.Now, Severity: "warning", Value: "consumer lag 1.2M records (limit 100.0k)"})
	f.SetAlerts(more)
	h.Change(api.Change{Kind: api.AlertsChanged})
	h.MustShow("3 firing · 1 resolved", "consumer lag 1.2M records")
	h.Press("j")
	h.Press("enter")
	d, ok := h.m.top().(*detailScreen)
	if !ok || d.data.job.Name != "clicks-to-hudi" {
		t.Fatalf("enter on the second alert opened %T", h.m.top())
	}
}

func TestGoldenAlerts(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		f := tuitest.NewFixture()
		f.SetAlerts(tuitest.FixtureAlerts())
		h := newHarness(t, f, sz.W, sz.H, Options{Context: "test"})
		h.Press(":")
		h.Type("alerts")
		h.Press("enter")
		tuitest.Golden(t, "alerts_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.m.render()))
	}
}

func TestGoldenMetricsHour(t *testing.T) {
	goldenFrame(t, "detail_metrics_hour", func(h *harness) {
		s := tuitest.FixtureSeries(h.F.Jobs[0], tuitest.Now)
		for i := 59; i >= 0; i-- {
			p := s.Recent[(59-i)%len(s.Recent)]
			p.At = tuitest.Now.Truncate(time.Minute).Add(-time.Duration(i) * time.Minute)
			s.Hour = append(s.Hour, p)
		}
		h.F.Metrics.Series = map[string]api.MetricsSeries{"j001": s}
		h.OpenDetail("orders-enrich")
		h.Press("m", "t")
	})
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
	if _, ok := m.top().(*alertsScreen); !ok {
		t.Fatalf("top screen %T", m.top())
	}
}
