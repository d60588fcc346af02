package diagnose

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// Checkpoint is one checkpoint in depth: its operators, the slow one
// highlighted and under the cursor at first, and the subtasks of the
// operator under the cursor, slowest first (sync and async parts,
// alignment, start delay, persisted size), so that with parallelism 1,000
// the subtask the checkpoint waited for is on top, not on page 40.
//
// It shows a checkpoint the JobManager no longer keeps statistics of as
// such, with palink's record of it; a restore point the JobManager cannot
// be asked of (of an earlier run, or whose id is unknown) it shows from
// palink's record alone. r restores from what it shows.
type Checkpoint struct {
	env *kit.Env
	job api.JobView
	id  int64 // 0: the JobManager is not asked, rec is all there is
	rec *model.RestorePoint
	loadState
	c             *api.CheckpointDetail
	cur           kit.List // over the operators
	placed        bool
	width, height int
}

// NewCheckpoint opens checkpoint id of job j, with rec, palink's record
// of it when known; its Cmd fetches it. With id 0, it shows rec alone.
func NewCheckpoint(e *kit.Env, j api.JobView, id int64, rec *model.RestorePoint) (*Checkpoint, tea.Cmd) {
	m := &Checkpoint{env: e, job: j, id: id, rec: rec}
	m.start(e)
	m.loads = kit.NewRefresher(e, func(seq int) tea.Cmd { return loadCheckpointCmd(m.call(e), j.ID, j.Name, id, seq) })
	if id == 0 {
		return m, nil
	}
	return m, m.loads.Refresh()
}

type checkpointLoadedMsg struct {
	jobID string
	id    int64
	seq   int
	c     api.CheckpointDetail
	err   error
}

func loadCheckpointCmd(c kit.Call[Service], jobID, jobName string, id int64, seq int) tea.Cmd {
	return func() tea.Msg {
		d, err := kit.Diagnose(c, fmt.Sprintf("checkpoint %d of %s", id, jobName), func(ctx context.Context, d api.DiagnoseService) (api.CheckpointDetail, error) {
			return d.Checkpoint(ctx, api.CheckpointRequest{JobRef: jobID, ID: id})
		})
		return checkpointLoadedMsg{jobID: jobID, id: id, seq: seq, c: d, err: err}
	}
}

// Title implements kit.Screen.
func (m *Checkpoint) Title() string { return m.job.Name + " · " + m.name() }

// name is what the view shows: "checkpoint 8810", or the last part of
// the path of a restore point the JobManager is not asked of.
func (m *Checkpoint) name() string {
	if m.id == 0 && m.rec != nil {
		return kit.PathName(m.rec.Path)
	}
	return fmt.Sprintf("checkpoint %d", m.id)
}

// recorded is palink's record of the checkpoint: the one core found when
// the JobManager no longer has it, else the one it was opened with.
func (m *Checkpoint) recorded() *model.RestorePoint {
	if m.c != nil && m.c.Gone != nil && m.c.Gone.Recorded != nil {
		return m.c.Gone.Recorded
	}
	return m.rec
}

// restorable is where r restores from, or why nothing can be: a
// completed checkpoint's path, or a usable record's.
func (m *Checkpoint) restorable() (path, why string) {
	if m.c != nil && m.c.Gone == nil {
		ck := m.c.Checkpoint
		switch {
		case ck.Status == "COMPLETED" && ck.Path != "":
			return ck.Path, ""
		case ck.Status == "COMPLETED":
			return "", m.name() + " has no external path: nothing to restore from"
		case ck.Status != "":
			return "", fmt.Sprintf("%s %s: nothing to restore from", m.name(), ck.Status)
		}
	}
	switch rec := m.recorded(); {
	case rec == nil:
		return "", m.name() + ": palink has no record of where it is"
	case !rec.Usable():
		return "", fmt.Sprintf("%s is %s: nothing to restore from", kit.PathName(rec.Path), rec.Status)
	default:
		return rec.Path, ""
	}
}

// Capturing implements kit.Screen.
func (m *Checkpoint) Capturing() bool { return false }

// ShortHelp implements kit.Screen.
func (m *Checkpoint) ShortHelp() []key.Binding {
	k := m.env.Keys
	var out []key.Binding
	if m.c != nil && m.c.Gone == nil {
		out = append(out, k.Nav.Up, k.Nav.Down) // over the operators
	}
	if path, _ := m.restorable(); path != "" {
		out = append(out, k.Detail.Restore)
	}
	if m.id != 0 {
		out = append(out, k.Nav.Refresh)
	}
	return out
}

// FullHelp implements kit.Screen.
func (m *Checkpoint) FullHelp() [][]key.Binding { return CheckpointHelp(m.env.Keys) }

// Update implements kit.Screen.
func (m *Checkpoint) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case kit.ChangeMsg:
		// r restores the job as it is now, not as it was when opened.
		if c := msg.Change; c.Kind == api.JobChanged && c.Job != nil && c.Job.ID == m.job.ID {
			m.job = *c.Job
		}
	case checkpointLoadedMsg:
		if msg.jobID != m.job.ID || msg.id != m.id {
			return m, nil
		}
		ok, next := m.done(msg.seq, msg.err)
		if ok && msg.err == nil {
			c := msg.c
			m.c = &c
			if !m.placed && c.SlowOperator >= 0 && c.SlowOperator < len(c.Operators) {
				m.placed, m.cur.Cursor = true, c.SlowOperator
			}
		}
		return m, next
	case tea.KeyPressMsg:
		k := m.env.Keys
		switch {
		case key.Matches(msg, k.Nav.Refresh) && m.id != 0:
			return m, m.loads.Refresh()
		case key.Matches(msg, k.Detail.Restore):
			path, why := m.restorable()
			if path == "" {
				return m, kit.Flash(kit.FlashWarn, why)
			}
			return m, kit.Send(kit.StartActionMsg{Kind: model.CmdResubmit, Jobs: []api.JobView{m.job}, Restore: model.RestorePath, Path: path})
		}
		if why, ok := k.Refused(msg, kit.AllKeys.Detail.Restore); ok {
			return m, kit.Flash(kit.FlashWarn, why)
		}
		if m.c != nil && len(m.c.Operators) > 0 {
			m.cur.Key(k, msg, len(m.c.Operators), m.opRows())
		}
	}
	return m, nil
}

// opRows is the room for operators: a third of the screen at most, the
// rest is the subtasks'.
func (m *Checkpoint) opRows() int { return max((m.height-6)/3, 1) }

// SlowPart says what a subtask's checkpoint spent its time on, for
// people: the biggest of start delay, alignment, sync and async parts.
func SlowPart(s api.CheckpointSubtask) string {
	parts := []struct {
		d   time.Duration
		why string
	}{
		{s.StartDelay, "start delay: the barrier queued behind in-flight data (backpressure)"},
		{s.Alignment, "alignment: waiting for the barrier on every input"},
		{s.Sync, "sync part: snapshotting state on the task thread"},
		{s.Async, "async part: uploading state to the checkpoint storage"},
	}
	best := slices.MaxFunc(parts, func(a, b struct {
		d   time.Duration
		why string
	}) int {
		return cmp.Compare(a.d, b.d)
	})
	return fmt.Sprintf("%s %s", kit.Duration(best.d), best.why)
}

// CheckpointSubtaskRows renders an operator's subtasks, slowest first, at
// most n of them, as rows of at most w cells. Pure, for the tests.
func CheckpointSubtaskRows(op api.CheckpointOperator, n, w int) (head string, rows []string, slow []bool) {
	f := " %4s %-4s %10s %8s %8s %8s %11s %10s"
	head = kit.Truncate(fmt.Sprintf(f, "#", "ACK", "END TO END", "SYNC", "ASYNC", "ALIGN", "START DELAY", "PERSISTED"), w)
	subs := slices.Clone(op.Subtasks)
	slices.SortStableFunc(subs, func(a, b api.CheckpointSubtask) int { return cmp.Compare(b.Duration, a.Duration) })
	for _, s := range subs[:min(n, len(subs))] {
		ack := "no"
		switch {
		case s.Aborted:
			ack = "abrt"
		case s.Acknowledged:
			ack = "yes"
		}
		rows = append(rows, kit.Truncate(fmt.Sprintf(f, fmt.Sprint(s.Index), ack, kit.Duration(s.Duration), kit.Duration(s.Sync), kit.Duration(s.Async),
			kit.Duration(s.Alignment), kit.Duration(s.StartDelay), kit.Bytes(s.Size)), w))
		slow = append(slow, s.Slow)
	}
	return head, rows, slow
}

// View implements kit.Screen.
func (m *Checkpoint) View() string {
	st := m.env.Styles
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return ""
	}
	title := " " + st.Title.Render(m.name())
	switch {
	case m.id == 0 || (m.c != nil && m.c.Gone != nil):
		return kit.PadLines(strings.Join(m.recordView(title, w), "\n"), w, h)
	case m.c == nil && m.err != nil && !m.loads.Busy():
		// What failed, whole at any width, and what palink recorded.
		lines := []string{kit.Fit(title, w)}
		for _, l := range kit.Wrap("✖ "+m.err.Error(), max(w-2, 10)) {
			lines = append(lines, " "+st.Error.Render(l))
		}
		lines = append(lines, " "+st.Dim.Render("ctrl+r retries"))
		if rec := m.recorded(); rec != nil {
			lines = append(append(lines, ""), RecordLines(st, m.env.Now, *rec, w)...)
		}
		return kit.PadLines(strings.Join(lines, "\n"), w, h)
	case m.c == nil:
		return placeholder(st, title, m.loads.Busy(), m.err, "fetching the checkpoint's operators and subtasks…", w, h)
	}
	c := m.c
	ck := c.Checkpoint
	status := st.StateDeploying
	switch ck.Status {
	case "COMPLETED":
		status = st.StateRunning
	case "FAILED":
		status = st.StateFailed
	}
	title += "  " + status.Render(ck.Status) + st.Dim.Render(fmt.Sprintf(" · took %s · %s · triggered %s", kit.Duration(ck.Duration), kit.Bytes(ck.Size), kit.Ago(m.env.Now, ck.TriggeredAt)))
	title += statusNote(st, m.loads.Busy(), m.err, c.Notes)
	lines := []string{kit.Fit(title, w)}
	if ck.Failure != "" {
		lines = append(lines, " "+st.Error.Render("✖ "+ck.Failure))
	}
	if c.SlowOperator >= 0 && c.SlowOperator < len(c.Operators) {
		op := c.Operators[c.SlowOperator]
		if op.SlowSubtask >= 0 && op.SlowSubtask < len(op.Subtasks) {
			s := op.Subtasks[op.SlowSubtask]
			waited := st.Warn.Render(fmt.Sprintf("▲ waited %s for %s subtask %d", kit.Duration(s.Duration), kit.VertexShort(op.Name), s.Index))
			why := SlowPart(s)
			if kit.Width(waited)+kit.Width(why)+4 <= w {
				lines = append(lines, " "+waited+st.Dim.Render(" · "+why))
			} else {
				lines = append(lines, " "+waited, "   "+st.Dim.Render(why))
			}
		}
	}
	f := " %-34s %7s %10s %10s %10s"
	lines = append(lines, "", st.ColumnHeader.Render(kit.Fit(fmt.Sprintf(f, "OPERATOR", "ACKED", "END TO END", "PERSISTED", "STATE"), w)))
	n := len(c.Operators)
	m.cur.Fit(n, m.opRows())
	for i := m.cur.Offset; i < min(m.cur.Offset+m.opRows(), n); i++ {
		op := c.Operators[i]
		r := kit.Truncate(fmt.Sprintf(f, kit.Truncate(kit.VertexShort(op.Name)+fmt.Sprintf(" ×%d", op.Parallelism), 34), fmt.Sprintf("%d/%d", op.Acknowledged, op.Parallelism),
			kit.Duration(op.Duration), kit.Bytes(op.Size), kit.Bytes(op.StateSize)), w)
		switch {
		case i == m.cur.Cursor:
			r = st.Cursor.Render(kit.Fit("▸"+strings.TrimPrefix(r, " "), w))
		case op.Slow:
			r = st.Warn.Render(kit.Fit("▲"+strings.TrimPrefix(r, " "), w))
		}
		lines = append(lines, r)
	}
	if n == 0 {
		return kit.PadLines(strings.Join(append(lines, " "+st.Dim.Render("no operators reported")), "\n"), w, h)
	}
	op := c.Operators[m.cur.Cursor]
	room := h - len(lines) - 3
	lines = append(lines, "", " "+st.Section.Render(fmt.Sprintf("%s · subtasks, slowest first", kit.VertexShort(op.Name))))
	head, rows, slow := CheckpointSubtaskRows(op, max(room, 0), w)
	lines = append(lines, st.ColumnHeader.Render(kit.Fit(head, w)))
	for i, r := range rows {
		if slow[i] {
			r = st.Warn.Render(kit.Fit("▲"+strings.TrimPrefix(r, " "), w))
		}
		lines = append(lines, r)
	}
	return kit.PadLines(strings.Join(lines, "\n"), w, h)
}
