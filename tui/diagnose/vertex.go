package diagnose

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Vertex is one vertex subtask by subtask: records, bytes, busy,
// backpressured and idle, watermark, TaskManager and attempt, the skew in
// the title and the hot subtask highlighted (and under the cursor at
// first). Enter opens the subtask's TaskManager, f the vertex's flame
// graph. Only the rows on screen are drawn, so a vertex of parallelism
// 1,000 costs what one of 4 does.
type Vertex struct {
	env      *kit.Env
	job      api.JobView
	id, name string
	loadState
	v             *api.VertexDetail
	cur           kit.List
	placed        bool // the cursor went to the hot subtask once
	width, height int
}

// NewVertex opens vertex id (named name) of job j; its Cmd fetches it.
func NewVertex(e *kit.Env, j api.JobView, id, name string) (*Vertex, tea.Cmd) {
	m := &Vertex{env: e, job: j, id: id, name: name}
	m.start(e)
	m.loads = kit.NewRefresher(e, func(seq int) tea.Cmd { return loadVertexCmd(m.call(e), j.ID, j.Name, id, name, seq) })
	return m, m.loads.Refresh()
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
	return []key.Binding{k.Nav.Up, k.Nav.Down, k.Diag.OpenSubtask, k.Diag.Flame, k.Nav.Refresh}
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
	case tea.KeyPressMsg:
		k := m.env.Keys
		switch {
		case key.Matches(msg, k.Nav.Refresh):
			return m, m.loads.Refresh()
		case key.Matches(msg, k.Diag.Flame):
			return m, kit.Send(kit.OpenDiagMsg{View: kit.DiagFlame, Job: m.job, VertexID: m.id, VertexName: m.name})
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

// subtaskFormat is the table's columns: all of them from 110 cells,
// without the totals and bytes below (the selected subtask's line under
// the table has them).
func subtaskFormat(w int) (f string, wide bool) {
	if w >= 110 {
		return " %4s %-9s %3s %9s %9s %9s %9s %7s %5s %4s %4s %6s %-14s %s", true
	}
	return " %4s %-9s %7s %5s %4s %4s %6s %-14s %s", false
}

// SubtaskRows renders subtasks [from, to) as table rows of at most w
// cells, and the heading. Pure, for the tests.
func SubtaskRows(subs []api.SubtaskRow, from, to, w int) (head string, rows []string) {
	f, wide := subtaskFormat(w)
	if wide {
		head = fmt.Sprintf(f, "#", "STATE", "ATT", "REC IN", "REC OUT", "BYTES IN", "BYTES OUT", "IN/s", "BUSY", "BP", "IDLE", "WM", "TASKMANAGER", "HOST")
	} else {
		head = fmt.Sprintf(f, "#", "STATE", "IN/s", "BUSY", "BP", "IDLE", "WM", "TASKMANAGER", "HOST")
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
		var r string
		if wide {
			r = fmt.Sprintf(f, fmt.Sprint(s.Index), kit.Truncate(s.State, 9), fmt.Sprint(s.Attempt), kit.Count(float64(s.RecordsIn)), kit.Count(float64(s.RecordsOut)),
				kit.Bytes(s.BytesIn), kit.Bytes(s.BytesOut), rate, kit.Percent(s.Busy), kit.Percent(s.Backpressure), kit.Percent(s.Idle), wm, kit.ContainerShort(s.TaskManager), kit.OrDash(s.Host))
		} else {
			r = fmt.Sprintf(f, fmt.Sprint(s.Index), kit.Truncate(s.State, 9), rate, kit.Percent(s.Busy), kit.Percent(s.Backpressure), kit.Percent(s.Idle), wm, kit.ContainerShort(s.TaskManager), kit.OrDash(s.Host))
		}
		rows = append(rows, kit.Truncate(r, w))
	}
	return kit.Truncate(head, w), rows
}

// View implements kit.Screen.
func (m *Vertex) View() string {
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
	head, rows := SubtaskRows(v.Subtasks, from, to, w)
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
