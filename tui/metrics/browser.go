package metrics

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// valuesEvery is how often the values on screen are read again while the
// browser shows them: a request for the rows on screen, never the list.
const valuesEvery = 5 * time.Second

// Browser is the metric browser: every metric Flink exposes of a job, a
// vertex (aggregated over its subtasks first, then each subtask's) or a
// TaskManager, `/` narrowing them as one types; the values of the rows on
// screen, read again every few seconds; the job's charts marked. a (or
// enter) charts the metric under the cursor on the job's Metrics tab, d
// takes its chart away, s picks how a vertex's metric is aggregated over
// its subtasks, c lists the job's charts alone (of every vertex and
// TaskManager).
type Browser struct {
	env *kit.Env
	at  kit.OpenMetricsMsg
	id  int // tells this browser's timers and answers from another's

	list        kit.Table[row]
	all         []api.FlinkMetric
	charts      []model.MetricChart
	vertexName  string
	parallelism int
	notes       []string

	values     map[string]api.FlinkMetric
	valueLoads kit.Refresher
	asked      []string // the names the last values request asked for
	valuesErr  error
	ticking    bool

	agg         string // how a vertex metric is charted over its subtasks
	chartedOnly bool

	ctx           context.Context
	cancel        context.CancelFunc
	width, height int
}

// row is one line of the list: a metric of what the browser shows, or, in
// the charted-only list, a chart of another vertex or TaskManager.
type row struct {
	m     api.FlinkMetric
	other *model.MetricChart
}

func (r row) id() string {
	if r.other != nil {
		return "chart:" + r.other.Key()
	}
	return r.m.Name
}

func (r row) name() string {
	if r.other != nil {
		return r.other.Metric
	}
	return r.m.Name
}

// New opens the browser msg asks for; its Cmd lists the metrics.
func New(e *kit.Env, msg kit.OpenMetricsMsg) (*Browser, tea.Cmd) {
	b := &Browser{env: e, at: msg, id: e.NextSeq(), agg: model.AggSum, values: map[string]api.FlinkMetric{}, vertexName: msg.VertexName}
	b.ctx, b.cancel = context.WithCancel(e.Ctx)
	b.list = kit.NewTable(e, kit.TableOf[row]{
		Key:    "load:metrics",
		Load:   func(seq int) tea.Cmd { return loadList(b.call(), b.request(nil), seq) },
		ID:     row.id,
		Page:   b.page,
		Filter: "metric name",
		Match:  func(r row) []string { return []string{r.name()} },
		Noun:   "metric",
	})
	b.valueLoads = kit.NewRefresher(e, func(seq int) tea.Cmd {
		b.asked = b.onScreen()
		return loadValues(b.call(), b.request(b.asked), seq)
	})
	return b, b.list.Refresh()
}

// call is the Cmds' service under the browser's context, which Close ends.
func (b *Browser) call() kit.Call[Service] {
	c := call(b.env)
	c.Ctx = b.ctx
	return c
}

func (b *Browser) request(get []string) api.FlinkMetricsRequest {
	return api.FlinkMetricsRequest{JobRef: b.at.Job.ID, Scope: b.at.Scope, VertexID: b.at.VertexID, TaskManager: b.at.TaskManager, Get: get}
}

type listLoadedMsg struct {
	seq int
	l   api.FlinkMetricList
	err error
}

type valuesLoadedMsg struct {
	seq int
	l   api.FlinkMetricList
	err error
}

type valuesTickMsg struct{ id int }

type chartedMsg struct {
	id     int
	chart  model.MetricChart
	remove bool
	charts []model.MetricChart
	err    error
}

func loadList(c kit.Call[Service], r api.FlinkMetricsRequest, seq int) tea.Cmd {
	return kit.Get(c, "list metrics", func(ctx context.Context) (api.FlinkMetricList, error) { return c.Service.FlinkMetrics(ctx, r) },
		func(l api.FlinkMetricList, err error) tea.Msg { return listLoadedMsg{seq: seq, l: l, err: err} })
}

func loadValues(c kit.Call[Service], r api.FlinkMetricsRequest, seq int) tea.Cmd {
	return kit.Get(c, "read metrics", func(ctx context.Context) (api.FlinkMetricList, error) { return c.Service.FlinkMetrics(ctx, r) },
		func(l api.FlinkMetricList, err error) tea.Msg { return valuesLoadedMsg{seq: seq, l: l, err: err} })
}

func chartCmd(c kit.Call[Service], r api.ChartRequest, id int) tea.Cmd {
	what := "chart " + r.Chart.Metric
	if r.Remove {
		what = "remove chart " + r.Chart.Metric
	}
	return kit.Get(c, what, func(ctx context.Context) ([]model.MetricChart, error) { return c.Service.ChartMetric(ctx, r) },
		func(cs []model.MetricChart, err error) tea.Msg {
			return chartedMsg{id: id, chart: r.Chart, remove: r.Remove, charts: cs, err: err}
		})
}

// Title implements kit.Screen.
func (b *Browser) Title() string { return b.at.Job.Name + " · " + b.what() }

// what names what the browser shows: "job metrics", "metrics of Calc[2]".
func (b *Browser) what() string {
	switch b.at.Scope {
	case model.MetricScopeVertex:
		return "metrics of " + kit.VertexShort(kit.OrDash(b.vertexName))
	case model.MetricScopeTaskManager:
		return "metrics of TaskManager " + kit.ContainerShort(b.at.TaskManager)
	}
	return "job metrics"
}

// Capturing implements kit.Screen: the filter's prompt has the keyboard.
func (b *Browser) Capturing() bool { return b.list.Capturing() }

// Close implements kit.Closer: the requests in flight end.
func (b *Browser) Close() { b.cancel() }

// Back implements kit.Backer: esc clears a kept filter first.
func (b *Browser) Back() (tea.Cmd, bool) { return b.list.Back() }

// ShortHelp implements kit.Screen.
func (b *Browser) ShortHelp() []key.Binding {
	k := b.env.Keys
	return b.list.ShortHelp(k.Nav.Filter, k.Charts.Add, k.Charts.Remove, k.Charts.Agg, k.Charts.Charted)
}

// FullHelp implements kit.Screen.
func (b *Browser) FullHelp() [][]key.Binding { return Help(b.env.Keys) }

// Help is the browser's keys, for its `?` help and the keymap
// (docs/keys.md).
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Nav.Filter, k.Charts.Add, k.Charts.Remove, k.Charts.Agg, k.Charts.Charted, k.Nav.Refresh}}
}

// UpdateKeys implements kit.KeyUpdater: only a vertex's metrics have
// subtasks to aggregate over.
func (b *Browser) UpdateKeys(k *kit.KeyMap) {
	if b.at.Scope != model.MetricScopeVertex {
		k.Block(&k.Charts.Agg, kit.AllKeys.Charts.Agg, "")
	}
}

// page is the rows on screen: the box's inside but the heading and the
// line under the list.
func (b *Browser) page() int { return max(b.height-4, 1) }

// onScreen are the names of the rows on screen whose values Flink has.
func (b *Browser) onScreen() []string {
	rows := b.list.Rows()
	from := b.list.Offset()
	to := min(from+b.page(), len(rows))
	var out []string
	for _, r := range rows[min(from, to):to] {
		if r.other == nil {
			out = append(out, r.m.Name)
		}
	}
	return out
}

// rows are the list's items: every metric, or the job's charts alone.
func (b *Browser) rows() []row { return b.rowsOf(b.all, b.charts) }

func (b *Browser) rowsOf(all []api.FlinkMetric, charts []model.MetricChart) []row {
	if !b.chartedOnly {
		out := make([]row, len(all))
		for i, m := range all {
			out[i] = row{m: m}
		}
		return out
	}
	var out []row
	for _, c := range charts {
		if b.mine(c) {
			sub := -1
			if n, _, ok := model.SubtaskMetric(c.Metric); ok && c.Scope == model.MetricScopeVertex {
				sub = n
			}
			out = append(out, row{m: api.FlinkMetric{Name: c.Metric, Subtask: sub}})
			continue
		}
		out = append(out, row{other: &c})
	}
	return out
}

// mine reports a chart of what the browser shows.
func (b *Browser) mine(c model.MetricChart) bool {
	return c.Scope == b.at.Scope && c.VertexID == b.at.VertexID && c.TaskManager == b.at.TaskManager
}

// chartsOf are the job's charts of the metric of row r, whatever their
// aggregation.
func (b *Browser) chartsOf(r row) []model.MetricChart {
	if r.other != nil {
		return []model.MetricChart{*r.other}
	}
	var out []model.MetricChart
	for _, c := range b.charts {
		if b.mine(c) && c.Metric == r.m.Name {
			out = append(out, c)
		}
	}
	return out
}

// Update implements kit.Screen.
func (b *Browser) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	cmd := b.update(msg)
	return b, tea.Batch(cmd, b.follow())
}

func (b *Browser) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		b.width, b.height = msg.Width, msg.Height
		b.list.Fit()
	case listLoadedMsg:
		items := b.rowsOf(msg.l.Metrics, msg.l.Charts)
		keep, cmd := b.list.Loaded(msg.seq, items, msg.err)
		if keep {
			b.all, b.charts, b.notes = msg.l.Metrics, msg.l.Charts, msg.l.Notes
			if msg.l.VertexName != "" {
				b.vertexName, b.parallelism = msg.l.VertexName, msg.l.Parallelism
			}
			b.asked = nil // values of the rows on screen, afresh
		}
		return cmd
	case valuesLoadedMsg:
		current, again := b.valueLoads.Done(msg.seq)
		if !current {
			return nil
		}
		b.valuesErr = msg.err
		if msg.err == nil {
			for _, m := range msg.l.Metrics {
				b.values[m.Name] = m
			}
			b.charts = msg.l.Charts
		}
		if b.ticking {
			return again
		}
		b.ticking = true
		id := b.id
		return tea.Batch(again, b.env.After(valuesEvery, func(time.Time) tea.Msg { return valuesTickMsg{id: id} }))
	case valuesTickMsg:
		if msg.id != b.id {
			return nil
		}
		b.ticking = false
		if len(b.onScreen()) == 0 {
			return nil
		}
		return b.valueLoads.Refresh()
	case chartedMsg:
		if msg.id != b.id {
			return nil
		}
		return b.charted(msg)
	case tea.KeyPressMsg:
		return b.key(msg)
	case tea.PasteMsg:
		cmd, _ := b.list.Update(msg, b.width)
		return cmd
	}
	return nil
}

// follow asks for the values of the rows on screen when they changed
// (a scroll, the filter, a resize, the list loaded).
func (b *Browser) follow() tea.Cmd {
	names := b.onScreen()
	if len(names) == 0 || slices.Equal(names, b.asked) {
		return nil
	}
	b.asked = names
	return b.valueLoads.Refresh()
}

func (b *Browser) key(msg tea.KeyPressMsg) tea.Cmd {
	k := b.env.Keys
	if b.list.Capturing() {
		cmd, _ := b.list.Update(msg, b.width)
		return cmd
	}
	switch {
	case key.Matches(msg, k.Charts.Add):
		return b.chart(false)
	case key.Matches(msg, k.Charts.Remove):
		return b.chart(true)
	case key.Matches(msg, k.Charts.Agg):
		i := slices.Index(model.Aggs, b.agg)
		b.agg = model.Aggs[(i+1)%len(model.Aggs)]
		return kit.Flash(kit.FlashInfo, fmt.Sprintf("a vertex's metric is charted as its %s over the subtasks", aggWord(b.agg)))
	case key.Matches(msg, k.Charts.Charted):
		b.chartedOnly = !b.chartedOnly
		b.list.Set(b.rows())
		return nil
	}
	if why, ok := k.Refused(msg, kit.AllKeys.Charts.Add, kit.AllKeys.Charts.Remove); ok && why != "" {
		return kit.Flash(kit.FlashWarn, why)
	}
	cmd, _ := b.list.Update(msg, b.width)
	return cmd
}

// chart adds the chart of the metric under the cursor, or takes it away.
func (b *Browser) chart(remove bool) tea.Cmd {
	r, ok := b.list.Selected()
	if !ok {
		return kit.Flash(kit.FlashWarn, "no metric selected")
	}
	have := b.chartsOf(r)
	if remove {
		if len(have) == 0 {
			return kit.Flash(kit.FlashWarn, r.name()+" is not charted")
		}
		c := have[0]
		for _, h := range have {
			if h.Agg == b.agg {
				c = h
			}
		}
		return chartCmd(b.call(), api.ChartRequest{JobRef: b.at.Job.ID, Chart: c, Remove: true}, b.id)
	}
	if r.other != nil {
		return kit.Flash(kit.FlashInfo, r.name()+" is charted already")
	}
	c := model.MetricChart{Scope: b.at.Scope, VertexID: b.at.VertexID, VertexName: b.vertexName, TaskManager: b.at.TaskManager, Metric: r.m.Name}
	if b.at.Scope == model.MetricScopeVertex && r.m.Subtask < 0 {
		c.Agg = b.agg
	}
	if slices.ContainsFunc(have, func(h model.MetricChart) bool { return h.Key() == c.Key() }) {
		return kit.Flash(kit.FlashInfo, kit.ChartTitle(c)+" is charted already: the job's Metrics tab (m) shows it")
	}
	return chartCmd(b.call(), api.ChartRequest{JobRef: b.at.Job.ID, Chart: c}, b.id)
}

// charted takes ChartMetric's answer.
func (b *Browser) charted(msg chartedMsg) tea.Cmd {
	if msg.err != nil {
		return kit.Flash(kit.FlashError, msg.err.Error())
	}
	b.charts = msg.charts
	if b.chartedOnly {
		b.list.Set(b.rows())
	}
	if msg.remove {
		return kit.Flash(kit.FlashInfo, "removed the chart of "+kit.ChartTitle(msg.chart)+" from "+b.at.Job.Name+"'s Metrics tab")
	}
	return kit.Flash(kit.FlashInfo, "charted "+kit.ChartTitle(msg.chart)+" on "+b.at.Job.Name+"'s Metrics tab (m)")
}

func aggWord(a string) string {
	switch a {
	case model.AggMax:
		return "maximum"
	case model.AggMin:
		return "minimum"
	case model.AggAvg:
		return "average"
	}
	return "sum"
}

// View implements kit.Screen.
func (b *Browser) View() string {
	st := b.env.Styles
	title := b.list.Title(st, b.at.Job.Name+" · "+b.what())
	note := kit.Plural(len(b.all), "metric")
	if n := len(b.charts); n > 0 {
		note += fmt.Sprintf(" · %d charted", n)
	}
	if b.at.Scope == model.MetricScopeVertex {
		note += " · over subtasks: " + b.agg
	}
	return b.list.Box(st, title, note, b.width, b.height,
		func(w, h int) []string { return b.lines(w, h) },
		"listing the metrics Flink exposes…", "Flink exposes no metrics here")
}

// lines are the list and, under it, the selected metric whole.
func (b *Browser) lines(w, h int) []string {
	st := b.env.Styles
	rows := b.list.Rows()
	page := max(h-2, 1)
	from := b.list.Offset()
	to := min(from+page, len(rows))
	views := make([]cellView, len(rows))
	for i := from; i < to; i++ {
		views[i] = b.view(rows[i], w < 100)
	}
	out := columns.Lines(st, views, b.list.Cursor(), from, to, w)
	for len(out) < h-1 {
		out = append(out, "")
	}
	var foot string
	switch r, ok := b.list.Selected(); {
	case b.valuesErr != nil:
		foot = st.Error.Render(" ✖ " + kit.Truncate(b.valuesErr.Error(), max(w-4, 1)))
	case len(b.notes) > 0:
		foot = st.Warn.Render(" ⚠ " + kit.Truncate(strings.Join(b.notes, "; "), max(w-4, 1)))
	case ok:
		foot = st.Dim.Render(kit.Truncate(" "+b.footOf(r), w))
	}
	return append(out[:h-1], foot)
}

// footOf says of the selected row what its cells may cut: its whole name,
// and where it is charted.
func (b *Browser) footOf(r row) string {
	have := b.chartsOf(r)
	if len(have) == 0 {
		if r.m.Subtask < 0 && b.at.Scope == model.MetricScopeVertex {
			return r.name() + " · a charts its " + aggWord(b.agg) + " over the subtasks"
		}
		return r.name() + " · a charts it"
	}
	var as []string
	for _, c := range have {
		as = append(as, kit.ChartTitle(c))
	}
	return "charted on the Metrics tab: " + strings.Join(as, ", ")
}

// cellView is a row as drawn: its mark, name and value.
type cellView struct {
	mark, name, value string
}

// view is what a row shows: ● and the aggregations of its charts, its
// name, its value (the aggregates of a vertex's metric; short, the one
// a chart would take).
func (b *Browser) view(r row, short bool) cellView {
	v := cellView{name: r.name()}
	var marks []string
	for _, c := range b.chartsOf(r) {
		marks = append(marks, c.Agg)
	}
	if len(marks) > 0 {
		v.mark = strings.TrimSpace("● " + strings.Join(marks, ","))
	}
	if r.other != nil {
		v.value = "of " + strings.TrimPrefix(kit.ChartTitle(*r.other), r.other.Metric+" · ")
		return v
	}
	m, ok := b.values[r.m.Name]
	switch {
	case !ok && b.valueLoads.Busy():
		v.value = "…"
	case !ok:
		v.value = kit.NoValue
	case m.Agg != nil && short:
		v.value = b.agg + " " + kit.Compact(m.Agg.Of(b.agg))
	case m.Agg != nil:
		a := *m.Agg
		v.value = fmt.Sprintf("sum %s · max %s · min %s · avg %s", kit.Compact(a.Sum), kit.Compact(a.Max), kit.Compact(a.Min), kit.Compact(a.Avg))
	default:
		v.value = valueText(m.Value)
	}
	return v
}

// valueText is a value as Flink sent it, a number shortened to what reads.
func valueText(s string) string {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return kit.Number(f)
	}
	return kit.OrDash(s)
}

// columns are the browser's: the mark of a charted metric, its name, its
// value.
var columns = kit.Columns[cellView]{
	{Title: "CHART", Fit: true, Max: 16, Cell: func(v cellView) string { return v.mark },
		Style: func(st *kit.Styles, _ cellView, s string) string { return st.Info.Render(s) }},
	{Title: "METRIC", Fit: true, Max: 72, Cell: func(v cellView) string { return v.name }},
	{Title: "VALUE", Cell: func(v cellView) string { return v.value }},
}
