package detail

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// metricsTab is the detail's Metrics tab: the job's latest figures and
// charts of the last five minutes (or the last hour, in minutes). It
// loads the series when shown, and again when the collector published new
// figures for the job while the tab is on screen, so it follows the job
// without polling.
type metricsTab struct {
	env    *kit.Env
	series *api.MetricsSeries
	jobID  string

	loads kit.Refresher
	err   error
	// loadedFor is the figures time the last load answered for; viewedAt
	// is when the tab was last drawn (it refreshes only while on screen).
	loadedFor time.Time
	viewedAt  time.Time

	hour          bool // the hour window instead of five minutes
	pager         kit.Pager
	width, height int
}

type metricsLoadedMsg struct {
	jobID  string
	seq    int
	series api.MetricsSeries
	err    error
}

func loadMetricsCmd(c kit.Call[Service], jobID string, seq int) tea.Cmd {
	return func() tea.Msg {
		var s api.MetricsSeries
		err := c.With(func(ctx context.Context) (err error) {
			s, err = c.Service.JobMetrics(ctx, jobID)
			return err
		})
		if err != nil {
			err = fmt.Errorf("metrics of %s: %w", jobID, err)
		}
		return metricsLoadedMsg{jobID: jobID, seq: seq, series: s, err: err}
	}
}

func newMetricsTab(e *kit.Env) *metricsTab {
	t := &metricsTab{env: e, pager: kit.NewPager()}
	t.loads = kit.NewRefresher(e, func(seq int) tea.Cmd { return loadMetricsCmd(call(e), t.jobID, seq) })
	return t
}

func (t *metricsTab) Title() string   { return "Metrics" }
func (t *metricsTab) Capturing() bool { return false }

func (t *metricsTab) ShortHelp() []key.Binding {
	return []key.Binding{t.env.Keys.Detail.MetricsWindow, t.env.Keys.Open.MetricBrowser}
}

// shown loads the series when the tab comes on screen.
func (t *metricsTab) shown(d *jobData) tea.Cmd {
	t.viewedAt = t.env.Now
	return t.load(d.job.ID)
}

// load asks for the series, one request at a time.
func (t *metricsTab) load(jobID string) tea.Cmd {
	if t.jobID != jobID {
		t.jobID, t.series, t.err = jobID, nil, nil
		t.loads.Drop()
	}
	return t.loads.Refresh()
}

// onScreen: drawn within the last couple of seconds (ticks move env.now
// every second while the tab is shown).
func (t *metricsTab) onScreen() bool {
	return !t.viewedAt.IsZero() && t.env.Now.Sub(t.viewedAt) <= 2*time.Second
}

func (t *metricsTab) Update(msg tea.Msg, d *jobData) (detailTab, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		t.width, t.height = msg.Width, msg.Height
		t.pager.SetSize(t.width, t.height)
	case metricsLoadedMsg:
		if msg.jobID != t.jobID {
			return t, nil
		}
		current, again := t.loads.Done(msg.seq)
		if !current {
			return t, nil
		}
		if msg.err != nil {
			t.err = msg.err
			return t, again
		}
		t.err = nil
		s := msg.series
		t.series = &s
		return t, again
	case kit.ChangeMsg:
		c := msg.Change
		if c.Kind == api.JobChanged && c.Job != nil && c.Job.ID == d.job.ID && c.Job.Figures.At.After(t.loadedFor) && t.onScreen() {
			t.loadedFor = c.Job.Figures.At
			return t, t.load(d.job.ID)
		}
		// A chart added or removed (here, or on another palink): the
		// series says which to draw.
		if c.Kind == api.JobChanged && c.Job != nil && c.Job.ID == d.job.ID && t.series != nil && !sameCharts(c.Job.Charts, t.series.Charts) {
			return t, t.load(d.job.ID)
		}
	case tea.KeyPressMsg:
		k := t.env.Keys
		switch {
		case key.Matches(msg, k.Detail.MetricsWindow):
			t.hour = !t.hour
			t.pager.ToTop()
		default:
			t.pager.SetLines(t.lines(d))
			t.pager.Key(k.Nav, msg)
		}
	}
	return t, nil
}

// metricsView is everything the tab draws from, so that rendering is a
// pure function (metricsLines) that tests pin.
type metricsView struct {
	job     api.JobView
	series  *api.MetricsSeries
	err     error
	loading bool
	hour    bool
	now     time.Time
}

func (t *metricsTab) View(d *jobData) string {
	t.viewedAt = t.env.Now
	if t.jobID != d.job.ID {
		t.jobID = d.job.ID
	}
	lines := t.lines(d)
	t.pager.SetLines(lines)
	from, to := t.pager.Window(len(lines))
	return strings.Join(lines[from:to], "\n")
}

// lines are the tab's lines as they stand.
func (t *metricsTab) lines(d *jobData) []string {
	return metricsLines(t.env.Styles, metricsView{job: d.job, series: t.series, err: t.err, loading: t.loads.Busy(),
		hour: t.hour, now: t.env.Now}, t.width, t.height)
}

// metricsLines renders the tab: a summary of the latest figures, then the
// charts (two side by side on a wide terminal; the consumer lag's first
// for a job whose sources report one), then the vertices.
func metricsLines(st *kit.Styles, v metricsView, w, h int) []string {
	dim := func(s string) []string { return []string{"", " " + st.Dim.Render(s)} }
	switch {
	case v.series == nil && v.err != nil:
		return []string{"", " " + st.Error.Render("✖ "+v.err.Error())}
	case v.series == nil:
		return dim("loading metrics…")
	case len(v.series.Recent) == 0 && v.job.State != model.StateRunning:
		return dim(fmt.Sprintf("%s is %s: metrics are collected while a job runs.", v.job.Name, v.job.State))
	case len(v.series.Recent) == 0:
		out := dim("no figures yet: palink measures a job while some screen shows it, every collection interval.")
		if v.series.LastError != "" {
			out = append(out, " "+st.Warn.Render("⚠ last collection failed: "+v.series.LastError))
		}
		return out
	}
	s := v.series
	p := s.Latest()
	var out []string
	// Summary: the figures an on-call engineer looks for first.
	sep := st.Dim.Render(" · ")
	flow := func(parts ...string) {
		for _, l := range kit.Flow(parts, sep, w-2) {
			out = append(out, " "+l)
		}
	}
	flow(
		"in "+st.Bold.Render(kit.Rate(p.RecordsIn)+"/s"),
		"out "+st.Bold.Render(kit.Rate(p.RecordsOut)+"/s"),
		"watermark delay "+unknownOr(p.WatermarkDelay >= 0, func() string { return kit.Duration(p.WatermarkDelay) }),
		"lag "+unknownOr(p.Lag >= 0, func() string { return kit.Rate(p.Lag) + " records" }),
		"busy "+fmtPercent(p.Busy),
	)
	bp := kit.Backpressure(p.Backpressure)
	if p.BackpressureVertex != "" {
		bp += " at " + kit.Truncate(p.BackpressureVertex, 32)
	}
	ck := "none completed"
	if p.CheckpointAge >= 0 {
		ck = fmt.Sprintf("%s · %s · %s ago", kit.Duration(p.CheckpointDuration), kit.Bytes(p.CheckpointSize), kit.Age(p.CheckpointAge+v.now.Sub(p.At)))
	}
	failed := fmt.Sprintf("%d failed", p.FailedCheckpoints)
	if p.FailedInARow > 0 {
		failed = st.Warn.Render(fmt.Sprintf("%d failed, %d in a row", p.FailedCheckpoints, p.FailedInARow))
	}
	flow("backpressure "+bpStyle(st, p.Backpressure).Render(bp),
		"checkpoint "+ck, failed, "restarts "+unknownOr(p.Restarts >= 0, func() string { return fmt.Sprint(p.Restarts) }))
	window := "last 5 min at the collection interval"
	if v.hour {
		window = "last hour, by minute (worst backpressure, delay and lag of each minute)"
	}
	var about []string
	if c := s.Cluster; c != nil {
		about = append(about, fmt.Sprintf("%d TaskManagers", c.TaskManagers), fmt.Sprintf("%d of %d slots free", c.SlotsFree, c.SlotsTotal), "Flink "+kit.OrDash(c.FlinkVersion))
	}
	about = append(about, "as of "+kit.Ago(v.now, p.At), window)
	for _, l := range kit.Flow(about, " · ", w-2) {
		out = append(out, " "+st.Dim.Render(l))
	}
	if s.LastError != "" {
		out = append(out, " "+st.Warn.Render("⚠ last collection failed: "+kit.Truncate(s.LastError, max(w-30, 20))))
	}
	out = append(out, "")

	pts, from := s.Recent, v.now.Add(-5*time.Minute)
	if v.hour {
		pts, from = s.Hour, v.now.Add(-time.Hour)
	}
	series := func(f func(api.MetricPoint) float64) []chartPoint {
		cp := make([]chartPoint, 0, len(pts))
		for _, x := range pts {
			cp = append(cp, chartPoint{at: x.At, v: f(x)})
		}
		return cp
	}
	seconds := func(d time.Duration) float64 {
		if d < 0 {
			return -1
		}
		return d.Seconds()
	}
	line := st.ChartLine
	charts := []chartSpec{
		{title: "records in/s (sources)", label: kit.Rate, points: series(func(x api.MetricPoint) float64 { return x.RecordsIn }), line: line},
		{title: "records out/s (sinks)", label: kit.Rate, points: series(func(x api.MetricPoint) float64 { return x.RecordsOut }), line: line},
		{title: "backpressure (worst vertex)", label: fmtPercent, ceil: 0.1, points: series(func(x api.MetricPoint) float64 { return x.Backpressure }), line: st.ChartAlert},
		{title: "watermark delay", label: fmtSeconds, ceil: 1, points: series(func(x api.MetricPoint) float64 { return seconds(x.WatermarkDelay) }), line: line},
		{title: "checkpoint duration", label: fmtSeconds, ceil: 1, points: series(func(x api.MetricPoint) float64 {
			if x.CheckpointAge < 0 {
				return -1
			}
			return x.CheckpointDuration.Seconds()
		}), line: line},
		// Sizes are charted in MiB, so the axis rounds to binary sizes.
		{title: "checkpoint size", label: func(mib float64) string { return kit.Bytes(int64(mib * (1 << 20))) }, ceil: 1.0 / 1024,
			points: series(func(x api.MetricPoint) float64 {
				if x.CheckpointAge < 0 {
					return -1
				}
				return float64(x.CheckpointSize) / (1 << 20)
			}), line: line},
		{title: "busy (worst vertex)", label: fmtPercent, ceil: 0.1, points: series(func(x api.MetricPoint) float64 { return x.Busy }), line: line},
		{title: "consumer lag (records)", label: kit.Rate, ceil: 10, points: series(func(x api.MetricPoint) float64 { return x.Lag }), line: st.ChartAlert},
	}
	if p.Lag >= 0 {
		// A job that reads with a consumer lag: how far behind it is, and
		// whether that grows, is what its operator looks for first.
		charts = append(charts[len(charts)-1:], charts[:len(charts)-1]...)
	}
	chartH := kit.Clamp((h-len(out))/2, 6, 12)
	out = append(out, chartGrid(st, charts, from, v.now, w, chartH)...)

	// The metrics people added from the metric browser (M), after
	// palink's own.
	if len(s.Charts) > 0 {
		added := make([]chartSpec, 0, len(s.Charts))
		for _, c := range s.Charts {
			key := c.Key()
			added = append(added, chartSpec{title: kit.ChartTitle(c), label: kit.Compact, line: line,
				points: series(func(x api.MetricPoint) float64 {
					if v, ok := x.Charts[key]; ok {
						return v
					}
					return -1
				})})
		}
		out = append(out, "", " "+st.Section.Render("Added from the metric browser")+st.Dim.Render(" · M lists what Flink exposes; d there removes a chart"))
		out = append(out, chartGrid(st, added, from, v.now, w, chartH)...)
	}

	if len(s.Vertices) > 0 {
		out = append(out, "", " "+st.Section.Render("Vertices"),
			"  "+st.ColumnHeader.Render(fmt.Sprintf("%-40s %4s %9s %9s %6s %6s %10s", "VERTEX", "PAR", "IN/s", "OUT/s", "BUSY", "BP", "WM DELAY")))
		for _, x := range s.Vertices {
			name := x.Name
			switch {
			case x.Source && x.Sink:
				name += " (source, sink)"
			case x.Source:
				name += " (source)"
			case x.Sink:
				name += " (sink)"
			}
			wm := unknownOr(x.WatermarkDelay >= 0, func() string { return kit.Duration(x.WatermarkDelay) })
			out = append(out, fmt.Sprintf("  %-40s %4d %9s %9s %6s %s %10s", kit.Truncate(name, 40), x.Parallelism, kit.Rate(x.RecordsIn),
				kit.Rate(x.RecordsOut), fmtPercent(x.Busy), bpStyle(st, x.Backpressure).Render(fmt.Sprintf("%6s", fmtPercent(x.Backpressure))), wm))
		}
	}
	return out
}

// chartGrid draws charts two side by side on a wide terminal (100 cells
// and more), else one under the other, each chartH lines high.
func chartGrid(st *kit.Styles, charts []chartSpec, from, to time.Time, w, chartH int) []string {
	cols := 1
	if w >= 100 {
		cols = 2
	}
	chartW := (w - 1) / cols
	var out []string
	for i := 0; i < len(charts); i += cols {
		row := make([][]string, 0, cols)
		for c := 0; c < cols && i+c < len(charts); c++ {
			ch := charts[i+c]
			ch.from, ch.to = from, to
			row = append(row, renderChart(st, ch, chartW, chartH))
		}
		for r := 0; r < chartH; r++ {
			var b strings.Builder
			for c, lines := range row {
				if c > 0 {
					b.WriteString(" ")
				}
				b.WriteString(kit.Fit(lines[r], chartW))
			}
			out = append(out, b.String())
		}
	}
	return out
}

// sameCharts reports two lists of the same charts, in the same order.
func sameCharts(a, b []model.MetricChart) bool {
	return slices.EqualFunc(a, b, func(x, y model.MetricChart) bool { return x.Key() == y.Key() })
}

// bpStyle colours backpressure by Flink's levels: high is an alarm.
func bpStyle(st *kit.Styles, ratio float64) interface{ Render(...string) string } {
	switch {
	case ratio > 0.5:
		return st.Error
	case ratio > 0.1:
		return st.Warn
	}
	return st.Text
}

func fmtPercent(r float64) string { return fmt.Sprintf("%d%%", int(math.Round(r*100))) }

// fmtSeconds renders a duration given in seconds, for chart axes.
func fmtSeconds(s float64) string {
	return kit.Duration(time.Duration(s * float64(time.Second)))
}

func unknownOr(known bool, f func() string) string {
	if !known {
		return kit.NoValue
	}
	return f()
}
