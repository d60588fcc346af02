package diagnose

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// Vertex is one vertex subtask by subtask: records, busy, backpressured
// and idle, watermark, TaskManager and attempt, each subtask's
// backpressure and watermark delay over the last minutes as sparklines,
// the skew in the title and the hot subtask highlighted (and under the
// cursor at first). Enter opens the subtask's TaskManager, f the vertex's
// flame graph, M its metrics. Only the rows on screen are drawn, so a
// vertex of parallelism 1,000 costs what one of 4 does.
//
// The sparklines are core's samples of the subtasks on screen (OnScreen,
// which the root declares with the jobs on screen): they are taken every
// collection interval while the view shows them, and read again when the
// job's figures move on.
type Vertex struct {
	env      *kit.Env
	job      api.JobView
	id, name string
	loadState
	v             *api.VertexDetail
	cur           kit.List
	placed        bool // the cursor went to the hot subtask once
	width, height int

	hist      *api.SubtaskHistory
	histLoads kit.Refresher
	histFor   time.Time // the figures time the last history load answered for
	viewedAt  time.Time // when the view was last drawn
}

// NewVertex opens vertex id (named name) of job j; its Cmd fetches it.
func NewVertex(e *kit.Env, j api.JobView, id, name string) (*Vertex, tea.Cmd) {
	m := &Vertex{env: e, job: j, id: id, name: name}
	m.start(e)
	m.loads = kit.NewRefresher(e, func(seq int) tea.Cmd { return loadVertexCmd(m.call(e), j.ID, j.Name, id, name, seq) })
	m.histLoads = kit.NewRefresher(e, func(seq int) tea.Cmd { return loadHistoryCmd(m.call(e), j.ID, j.Name, id, name, seq) })
	return m, tea.Batch(m.loads.Refresh(), m.histLoads.Refresh())
}

// OnScreen is what the view shows, for the interest the root declares:
// the vertex and the subtasks on screen.
func (m *Vertex) OnScreen() api.VertexInterest {
	return api.VertexInterest{JobID: m.job.ID, VertexID: m.id, From: m.cur.Offset, To: m.cur.Offset + m.page()}
}

// historyLoadedMsg is the answer of loadHistoryCmd.
type historyLoadedMsg struct {
	jobID, id string
	seq       int
	h         api.SubtaskHistory
	err       error
}

func loadHistoryCmd(c kit.Call[Service], jobID, jobName, id, name string, seq int) tea.Cmd {
	what := fmt.Sprintf("history of the subtasks of %s in %s", kit.VertexShort(name), jobName)
	return kit.Get(c, what, func(ctx context.Context) (api.SubtaskHistory, error) {
		return c.Service.SubtaskHistory(ctx, api.VertexRequest{JobRef: jobID, VertexID: id})
	}, func(h api.SubtaskHistory, err error) tea.Msg {
		return historyLoadedMsg{jobID: jobID, id: id, seq: seq, h: h, err: err}
	})
}

// vertexLoadedMsg is the answer of loadVertexCmd.
type vertexLoadedMsg struct {
	jobID, id string
	seq       int
	v         api.VertexDetail
	err       error
}

func loadVertexCmd(c kit.Call[Service], jobID, jobName, id, name string, seq int) tea.Cmd {
	return func() tea.Msg {
		v, err := kit.Diagnose(c, fmt.Sprintf("subtasks of %s in %s", kit.VertexShort(name), jobName), func(ctx context.Context, d api.DiagnoseService) (api.VertexDetail, error) {
			return d.Vertex(ctx, api.VertexRequest{JobRef: jobID, VertexID: id})
		})
		return vertexLoadedMsg{jobID: jobID, id: id, seq: seq, v: v, err: err}
	}
}

// Title implements kit.Screen.
func (m *Vertex) Title() string { return m.job.Name + " · " + kit.VertexShort(m.name) }

// Capturing implements kit.Screen.
func (m *Vertex) Capturing() bool { return false }

// ShortHelp implements kit.Screen.
func (m *Vertex) ShortHelp() []key.Binding {
	k := m.env.Keys
	return []key.Binding{k.Nav.Up, k.Nav.Down, k.Diag.OpenSubtask, k.Diag.Flame, k.Open.MetricBrowser, k.Nav.Refresh}
}

// FullHelp implements kit.Screen.
func (m *Vertex) FullHelp() [][]key.Binding { return VertexHelp(m.env.Keys) }

// page is the rows on screen: under the title, the heading, and above
// the selected subtask's line.
func (m *Vertex) page() int { return max(m.height-3, 1) }

// Update implements kit.Screen.
func (m *Vertex) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case vertexLoadedMsg:
		if msg.jobID != m.job.ID || msg.id != m.id {
			return m, nil
		}
		ok, next := m.done(msg.seq, msg.err)
		if ok && msg.err == nil {
			v := msg.v
			m.v = &v
			if !m.placed && v.Skew.Ratio > 0 && v.Skew.Subtask < len(v.Subtasks) {
				m.placed = true
				m.cur.Cursor = v.Skew.Subtask
			}
		}
		return m, next
	case historyLoadedMsg:
		if msg.jobID != m.job.ID || msg.id != m.id {
			return m, nil
		}
		current, next := m.histLoads.Done(msg.seq)
		if current && msg.err == nil {
			h := msg.h
			m.hist = &h
		}
		return m, next
	case kit.ChangeMsg:
		// New figures of the job: core took a round, which sampled the
		// subtasks on screen too.
		c := msg.Change
		if c.Kind == api.JobChanged && c.Job != nil && c.Job.ID == m.job.ID && c.Job.Figures.At.After(m.histFor) && m.onScreen() {
			m.histFor = c.Job.Figures.At
			return m, m.histLoads.Refresh()
		}
	case tea.KeyPressMsg:
		k := m.env.Keys
		switch {
		case key.Matches(msg, k.Nav.Refresh):
			return m, tea.Batch(m.loads.Refresh(), m.histLoads.Refresh())
		case key.Matches(msg, k.Diag.Flame):
			return m, kit.Send(kit.OpenDiagMsg{View: kit.DiagFlame, Job: m.job, VertexID: m.id, VertexName: m.name})
		case key.Matches(msg, k.Open.MetricBrowser):
			return m, kit.Send(kit.OpenMetricsMsg{Job: m.job, Scope: model.MetricScopeVertex, VertexID: m.id, VertexName: m.name})
		}
		if m.v == nil || len(m.v.Subtasks) == 0 {
			return m, nil
		}
		n := len(m.v.Subtasks)
		if m.cur.Key(k, msg, n, m.page()) {
			return m, nil
		}
		if key.Matches(msg, k.Diag.OpenSubtask) {
			m.cur.Fit(n, m.page())
			s := m.v.Subtasks[m.cur.Cursor]
			if s.TaskManager == "" {
				return m, kit.Flash(kit.FlashWarn, fmt.Sprintf("subtask %d runs on no known TaskManager (it is %s)", s.Index, kit.OrDash(s.State)))
			}
			tm, cmd := NewTaskManager(m.env, m.job, s.TaskManager)
			return m, kit.Send(kit.PushMsg{Screen: tm, Init: cmd})
		}
	}
	return m, nil
}

// SkewLine says how uneven the vertex is now, for its title line, with
// the rates' unit and span: "skew 3.1× records in/s over 5s (max 7.7k/s,
// median 2.5k/s) · subtask 2 hot" (over the last read's span, or Flink's
// one-minute meters on a first read).
func SkewLine(s api.Skew) string {
	over := "1-min avg"
	if s.Window > 0 {
		over = "over " + s.Window.Round(time.Second).String()
	}
	switch {
	case s.Ratio <= 0:
		return "skew unknown"
	case s.Ratio < 1.5:
		return fmt.Sprintf("even: skew %.1f× %s %s", s.Ratio, s.Of, over)
	}
	return fmt.Sprintf("skew %.1f× %s %s (max %s/s, median %s/s) · subtask %d hot", s.Ratio, s.Of, over, kit.Rate(s.Max), kit.Rate(s.Median), s.Subtask)
}

// onScreen: drawn within the last couple of seconds (ticks move env.Now
// every second while it is shown).
func (m *Vertex) onScreen() bool {
	return !m.viewedAt.IsZero() && m.env.Now.Sub(m.viewedAt) <= 2*time.Second
}

// TrendSpan is how far back the table's sparklines reach.
const TrendSpan = 5 * time.Minute

// Trend is the subtasks' samples over the last minutes (core's
// SubtaskHistory), by subtask index, for the table's sparklines; Now is
// their right edge.
type Trend struct {
	Samples map[int][]api.SubtaskSample
	Now     time.Time
}

// TrendOf is the trend of a history (nil: no samples yet) at now.
func TrendOf(h *api.SubtaskHistory, now time.Time) Trend {
	t := Trend{Samples: map[int][]api.SubtaskSample{}, Now: now}
	if h != nil {
		for _, s := range h.Subtasks {
			t.Samples[s.Index] = s.Samples
		}
	}
	return t
}

// subtaskLayout is how the table spends its width: from 110 cells the
// records in and the TaskManager beside the rest; narrower, the subtask's
// line under the table has those. The sparklines take what is left, and
// the host goes before they get too thin to read.
type subtaskLayout struct {
	f     string
	wide  bool
	spark int
	host  bool
}

func layoutFor(w int) subtaskLayout {
	if w >= 110 {
		// "   #" "STATE" "REC IN" "IN/s" "BUSY" [bp] "IDLE" [wm] "TASKMANAGER" HOST
		// 74 cells of figures, 12 for the host.
		return subtaskLayout{f: " %4s %-9s %9s %7s %5s %s %4s %s %-14s %s", wide: true, spark: kit.Clamp((w-74-12)/2, 4, 24), host: true}
	}
	// 44 cells of figures, 12 for the host when it leaves room.
	l := subtaskLayout{f: " %4s %-9s %7s %5s %s %s %s", host: true}
	if l.spark = (w - 44 - 12) / 2; l.spark < 8 {
		l.f, l.host = " %4s %-9s %7s %5s %s %s", false
		l.spark = (w - 44) / 2
	}
	l.spark = kit.Clamp(l.spark, 0, 24)
	return l
}

// sparkCol is a sparkline and the value now, as one cell of the table.
func sparkCol(line string, spark int, now string, nowW int) string {
	if spark <= 0 {
		return fmt.Sprintf("%*s", nowW, now)
	}
	return kit.Fit(line, spark) + " " + fmt.Sprintf("%*s", nowW, now)
}

// SubtaskRows renders subtasks [from, to) as table rows of at most w
// cells, and the heading: each subtask's figures, and its backpressure
// (0 to 100%) and watermark delay over the last minutes as sparklines
// beside their values now (the delays on one scale, the largest of the
// rows drawn, so that the subtask that falls behind stands out). Pure,
// for the tests.
func SubtaskRows(subs []api.SubtaskRow, tr Trend, from, to, w int) (head string, rows []string) {
	l := layoutFor(w)
	since := tr.Now.Add(-TrendSpan)
	var worst time.Duration
	for i := from; i < to; i++ {
		for _, x := range tr.Samples[subs[i].Index] {
			worst = max(worst, x.WatermarkDelay)
		}
	}
	scale := max(worst, time.Second).Seconds()
	bpHead := sparkCol("BP "+kit.Age(TrendSpan), l.spark, "BP", 4)
	wmHead := sparkCol("WM DELAY "+kit.Age(TrendSpan), l.spark, "WM", 6)
	cells := func(xs ...any) string {
		if !l.host {
			xs = xs[:len(xs)-1]
		}
		return fmt.Sprintf(l.f, xs...)
	}
	if l.wide {
		head = cells("#", "STATE", "REC IN", "IN/s", "BUSY", bpHead, "IDLE", wmHead, "TASKMANAGER", "HOST")
	} else {
		head = cells("#", "STATE", "IN/s", "BUSY", bpHead, wmHead, "HOST")
	}
	for i := from; i < to; i++ {
		s := subs[i]
		wm := kit.NoValue
		if !s.Watermark.IsZero() {
			wm = "-" + kit.Duration(s.WatermarkDelay)
		}
		rate := kit.NoValue
		if s.RecordsInPerSec >= 0 {
			rate = kit.Rate(s.RecordsInPerSec)
		}
		var bps, wms []kit.TimedValue
		for _, x := range tr.Samples[s.Index] {
			bps = append(bps, kit.TimedValue{At: x.At, V: x.Backpressure})
			wms = append(wms, kit.TimedValue{At: x.At, V: x.WatermarkDelay.Seconds()})
		}
		bp := sparkCol(kit.Spark(kit.Cells(bps, since, tr.Now, l.spark), 0, 1), l.spark, kit.Percent(s.Backpressure), 4)
		wmc := sparkCol(kit.Spark(kit.Cells(wms, since, tr.Now, l.spark), 0, scale), l.spark, wm, 6)
		var r string
		if l.wide {
			r = cells(fmt.Sprint(s.Index), kit.Truncate(s.State, 9), kit.Count(float64(s.RecordsIn)), rate, kit.Percent(s.Busy), bp,
				kit.Percent(s.Idle), wmc, kit.ContainerShort(s.TaskManager), kit.OrDash(s.Host))
		} else {
			r = cells(fmt.Sprint(s.Index), kit.Truncate(s.State, 9), rate, kit.Percent(s.Busy), bp, wmc, kit.OrDash(s.Host))
		}
		rows = append(rows, kit.Truncate(r, w))
	}
	return kit.Truncate(head, w), rows
}

// View implements kit.Screen.
func (m *Vertex) View() string {
	m.viewedAt = m.env.Now
	st := m.env.Styles
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return ""
	}
	title := " " + st.Title.Render(kit.VertexShort(m.name))
	if m.v == nil {
		return placeholder(st, title, m.loads.Busy(), m.err, "fetching the subtasks…", w, h)
	}
	v := m.v
	title += st.Dim.Render(fmt.Sprintf(" ×%d", v.Parallelism)) + "  "
	if v.Skew.Ratio >= 1.5 {
		title += st.Warn.Render("▲ " + SkewLine(v.Skew))
	} else {
		title += st.Dim.Render(SkewLine(v.Skew))
	}
	title += statusNote(st, m.loads.Busy(), m.err, v.Notes)
	lines := []string{kit.Fit(title, w)}
	n := len(v.Subtasks)
	m.cur.Fit(n, m.page())
	from, to := m.cur.Offset, min(m.cur.Offset+m.page(), n)
	head, rows := SubtaskRows(v.Subtasks, TrendOf(m.hist, m.env.Now), from, to, w)
	lines = append(lines, st.ColumnHeader.Render(kit.Fit(head, w)))
	for i, r := range rows {
		at := from + i
		switch {
		case at == m.cur.Cursor:
			r = st.Cursor.Render(kit.Fit("▸"+strings.TrimPrefix(r, " "), w))
		case v.Subtasks[at].Hot:
			r = st.Warn.Render(kit.Fit("▲"+strings.TrimPrefix(r, " "), w))
		}
		lines = append(lines, r)
	}
	if n == 0 {
		lines = append(lines, " "+st.Dim.Render("no subtasks reported"))
	}
	body := kit.PadLines(strings.Join(lines, "\n"), w, h-1)
	foot := ""
	if n > 0 {
		s := v.Subtasks[m.cur.Cursor]
		foot = fmt.Sprintf(" subtask %d of %d · attempt %d · up %s · records in %s out %s · bytes in %s out %s · %s @ %s",
			s.Index, n, s.Attempt, kit.Age(s.Duration), kit.Count(float64(s.RecordsIn)), kit.Count(float64(s.RecordsOut)), kit.Bytes(s.BytesIn), kit.Bytes(s.BytesOut),
			kit.OrDash(s.TaskManager), kit.OrDash(s.Endpoint))
	}
	return body + "\n" + st.Dim.Render(kit.Fit(foot, w))
}
