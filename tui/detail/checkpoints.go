package detail

import (
	"cmp"
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

// checkpointsTab is the Checkpoints tab: the restore points palink
// knows, then Flink's checkpoints in depth — how the job checkpoints
// (interval, mode, timeout, retention, unaligned), the counts and the
// history — fetched when the tab is shown. Enter on a restore point
// restores from it; on a Flink checkpoint, it opens the checkpoint
// operator by operator and subtask by subtask.
type checkpointsTab struct {
	*linesTab
	live *diagFetch[api.CheckpointsView]
	// onCheckpoint reports the cursor on a Flink checkpoint at the last
	// View, for the footer's enter.
	onCheckpoint bool
}

func newCheckpointsTab(e *kit.Env, call func() kit.Call[Service]) *checkpointsTab {
	t := &checkpointsTab{live: newDiagFetch(e, call, "checkpoints", api.DiagnoseService.Checkpoints)}
	t.linesTab = newLinesTab(e, "Checkpoints", func(e *kit.Env, d *jobData, w int) []tabLine {
		return checkpointLines(e, d, t.live, w)
	}, restoreFromLine)
	return t
}

func (t *checkpointsTab) ShortHelp() []key.Binding {
	if t.onCheckpoint {
		return []key.Binding{t.env.Keys.Diag.OpenCheckpoint}
	}
	return []key.Binding{t.env.Keys.Detail.Restore}
}

func (t *checkpointsTab) shown(d *jobData) tea.Cmd   { return t.live.show(d.job) }
func (t *checkpointsTab) refresh(d *jobData) tea.Cmd { return t.live.show(d.job) }

func (t *checkpointsTab) Update(msg tea.Msg, d *jobData) (detailTab, tea.Cmd) {
	if msg, ok := msg.(diagFetchedMsg[api.CheckpointsView]); ok {
		_, next := t.live.take(msg)
		return t, next
	}
	_, cmd := t.linesTab.Update(msg, d)
	return t, cmd
}

func (t *checkpointsTab) View(d *jobData) string {
	out := t.linesTab.View(d)
	lines := t.render(t.env, d, t.width)
	on := t.cur.On(t.selectable(lines))
	t.onCheckpoint = false
	if on >= 0 {
		_, t.onCheckpoint = lines[on].target.(checkpointTarget)
	}
	return out
}

// restorePointColumns are the restore points palink keeps, a line each:
// the kind, a savepoint's life (completed, disposing, disposed, failed —
// blank for a checkpoint, which Flink disposes of itself, unless palink
// knows it is missing), the age, where it came from and its path.
func restorePointColumns(now time.Time) kit.Columns[model.RestorePoint] {
	type rp = model.RestorePoint
	return kit.Columns[rp]{
		{Width: 10, Cell: func(r rp) string { return r.Kind.String() }},
		{Width: 10, Cell: func(r rp) string {
			if r.Kind != model.Savepoint && r.Status != model.SavepointMissing {
				return ""
			}
			return r.Status.String()
		}, Style: savepointStatusStyle},
		{Width: 10, Cell: func(r rp) string { return kit.Ago(now, r.Time) }},
		{Width: 12, Cell: func(r rp) string { return kit.OrDash(r.Origin) }},
		{Cell: func(r rp) string { return r.Path }},
	}
}

// savepointStatusStyle colours a savepoint's life by what it allows.
func savepointStatusStyle(st *kit.Styles, r model.RestorePoint, s string) string {
	if r.Kind != model.Savepoint && r.Status != model.SavepointMissing {
		return s
	}
	switch r.Status {
	case model.SavepointCompleted:
		return st.StateRunning.Render(s)
	case model.SavepointDisposing:
		return st.StateDeploying.Render(s)
	case model.SavepointFailed, model.SavepointMissing:
		return st.StateFailed.Render(s)
	}
	return st.Dim.Render(s)
}

// restoreTarget is a checkpoint line's target: where to restore from.
type restoreTarget struct{ path string }

// checkpointLines are the tab's lines: the restore points palink keeps,
// then Flink's checkpoints as live fetched them, or as the job's last
// sync saw them until it answers (or when it cannot).
func checkpointLines(e *kit.Env, d *jobData, live *diagFetch[api.CheckpointsView], w int) []tabLine {
	st, now := e.Styles, e.Now
	var out []tabLine
	out = append(out, section(st, "Restore points known to palink"))
	var hist []model.RestorePoint
	if d.detail != nil {
		hist = slices.Clone(d.detail.RestorePoints)
	}
	slices.SortStableFunc(hist, func(a, b model.RestorePoint) int { return b.Time.Compare(a.Time) })
	switch {
	case d.detail == nil:
		out = append(out, tabLine{text: "  " + st.Dim.Render("loading…")})
	case len(hist) == 0:
		out = append(out, tabLine{text: "  " + st.Dim.Render("none recorded yet")})
	}
	cols := restorePointColumns(now)
	lay := cols.Lay(hist, w)
	for _, rp := range hist {
		l := tabLine{text: "  " + cols.Cells(st, lay, rp), target: restoreTarget{rp.Path}}
		if rp.Status == model.SavepointDisposed || rp.Status == model.SavepointDisposing {
			l.target = nil // nothing to restore from
		}
		if rp.Error != "" {
			l.text += "  " + st.Error.Render(kit.FirstLine(rp.Error))
		}
		out = append(out, l)
	}
	out = append(out, tabLine{}, section(st, "Flink checkpoints (live)"))
	if live.got != nil {
		return append(out, checkpointsViewLines(e, live.got, live.err, w)...)
	}
	if d.detail == nil || d.detail.Live == nil {
		why := "loading…"
		if d.detail != nil {
			why = "unavailable: " + kit.OrDash(d.detail.LiveError)
		}
		return append(out, tabLine{text: "  " + st.Dim.Render(why)})
	}
	if live.err != nil {
		out = append(out, tabLine{text: "  " + st.Error.Render("✖ "+live.err.Error()) + st.Dim.Render(" · these are from the job's last sync")})
	}
	return append(out, checkpointRows(e, d.detail.Live.Checkpoints, false)...)
}

// checkpointRows are a checkpoint history's rows, newest first; with
// details, enter on one opens it operator by operator, else enter on a
// completed one restores from it.
func checkpointRows(e *kit.Env, cps []api.CheckpointInfo, details bool) []tabLine {
	st := e.Styles
	if len(cps) == 0 {
		return []tabLine{{text: "  " + st.Dim.Render("none yet")}}
	}
	cols := checkpointColumns(e.Now)
	lay := cols.Lay(cps, 0) // fixed widths: none gives way
	out := []tabLine{{text: "  " + st.ColumnHeader.Render(cols.Titles(lay))}}
	for _, c := range cps {
		l := tabLine{text: "  " + cols.Cells(st, lay, c)}
		switch {
		case details:
			l.target = checkpointTarget{c.ID}
		case c.Status == "COMPLETED" && c.Path != "":
			l.target = restoreTarget{c.Path}
		}
		out = append(out, l)
	}
	return out
}

// checkpointColumns are a checkpoint history's: its id, status (coloured
// by outcome), kind, when it was triggered, how long it took, its size,
// and where it went or why it failed.
func checkpointColumns(now time.Time) kit.Columns[api.CheckpointInfo] {
	type cp = api.CheckpointInfo
	return kit.Columns[cp]{
		{Title: "ID", Width: 8, Cell: func(c cp) string { return strconv.FormatInt(c.ID, 10) }},
		{Title: "STATUS", Width: 11, Cell: func(c cp) string { return c.Status },
			Style: func(st *kit.Styles, c cp, s string) string {
				switch c.Status {
				case "COMPLETED":
					return st.StateRunning.Render(s)
				case "FAILED":
					return st.StateFailed.Render(s)
				}
				return st.StateDeploying.Render(s)
			}},
		{Title: "KIND", Width: 10, Cell: func(c cp) string {
			if c.Savepoint {
				return "savepoint"
			}
			return "checkpoint"
		}},
		{Title: "TRIGGERED", Width: 10, Cell: func(c cp) string { return kit.Ago(now, c.TriggeredAt) }},
		{Title: "TOOK", Width: 8, Cell: func(c cp) string { return kit.Duration(c.Duration) }},
		{Title: "SIZE", Width: 10, Cell: func(c cp) string {
			if c.Size > 0 {
				return kit.Bytes(c.Size)
			}
			return kit.NoValue
		}},
		{Title: "PATH", Cell: func(c cp) string { return cmp.Or(c.Failure, c.Path) },
			Style: func(st *kit.Styles, c cp, s string) string {
				if c.Failure != "" {
					return st.Error.Render(s)
				}
				return s
			}},
	}
}

// checkpointTarget is a checkpoint line's target when its details can be
// fetched.
type checkpointTarget struct{ id int64 }

// checkpointsViewLines are the job's checkpoints as DiagnoseService reads
// them: how it checkpoints, the counts, then the history.
func checkpointsViewLines(e *kit.Env, v *api.CheckpointsView, err error, w int) []tabLine {
	st := e.Styles
	var out []tabLine
	if err != nil {
		out = append(out, tabLine{text: "  " + st.Error.Render("✖ not current: "+err.Error())})
	}
	if c := v.Config; c != nil {
		out = append(out, tabLine{text: "  " + kit.Truncate(CheckpointConfigLine(c), max(w-3, 10))})
	} else {
		out = append(out, tabLine{text: "  " + st.Dim.Render("configuration unknown")})
	}
	n := v.Counts
	counts := fmt.Sprintf("%d triggered · %d completed · %d failed · %d in progress", n.Total, n.Completed, n.Failed, n.InProgress)
	if v.Restored != nil {
		counts += fmt.Sprintf(" · restored from %d", v.Restored.ID)
	}
	out = append(out, tabLine{text: "  " + st.Dim.Render(counts)})
	for _, note := range v.Notes {
		out = append(out, tabLine{text: "  " + st.Warn.Render("⚠ "+note)})
	}
	return append(out, checkpointRows(e, v.History, true)...)
}

// CheckpointConfigLine says how a job checkpoints, in one line: "every
// 1m · EXACTLY_ONCE · timeout 10m · RETAIN_ON_CANCELLATION · aligned ·
// rocksdb → hdfs:///flink/ck".
func CheckpointConfigLine(c *api.CheckpointConfig) string {
	parts := []string{"every " + kit.Duration(c.Interval), c.Mode, "timeout " + kit.Duration(c.Timeout)}
	if c.MinPause > 0 {
		parts = append(parts, "min pause "+kit.Duration(c.MinPause))
	}
	if c.Retention != "" {
		parts = append(parts, c.Retention)
	}
	if c.Unaligned {
		u := "unaligned"
		if c.AlignedTimeout > 0 {
			u += " after " + kit.Duration(c.AlignedTimeout) + " aligned"
		}
		parts = append(parts, u)
	} else {
		parts = append(parts, "aligned")
	}
	if c.TolerableFailures > 0 {
		parts = append(parts, fmt.Sprintf("%d failures tolerated", c.TolerableFailures))
	}
	if c.StateBackend != "" || c.Storage != "" {
		parts = append(parts, kit.OrDash(c.StateBackend)+" → "+kit.OrDash(c.Storage))
	}
	if c.Changelog {
		parts = append(parts, "changelog")
	}
	return strings.Join(parts, " · ")
}

// restoreFromLine starts a resubmit from the selected restore point; it goes
// through Plan and the confirmation like every action.
func restoreFromLine(e *kit.Env, d *jobData, target any) tea.Cmd {
	if c, ok := target.(checkpointTarget); ok {
		return kit.Send(kit.OpenDiagMsg{View: kit.DiagCheckpoint, Job: d.job, Checkpoint: c.id})
	}
	t, ok := target.(restoreTarget)
	if !ok {
		return nil
	}
	return kit.Send(kit.StartActionMsg{Kind: model.CmdResubmit, Jobs: []api.JobView{d.job}, Restore: model.RestorePath, Path: t.path})
}
