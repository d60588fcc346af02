package detail

import (
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

// checkpointsTab is the Checkpoints tab: Flink's checkpoints first, as
// its web UI shows them — how the job checkpoints, the counts, the latest
// of each kind with the latest failure's cause, the summary of the
// completed ones, the history — fetched when the tab is shown; then the
// restore points palink keeps. In both lists enter opens the point
// (operator by operator and subtask by subtask, or palink's record of
// it) and r restores from it, through the confirmation.
type checkpointsTab struct {
	*linesTab
	live *diagFetch[api.CheckpointsView]
	// onPoint reports the cursor on a point at the last View, for the
	// footer's enter and r.
	onPoint bool
}

func newCheckpointsTab(e *kit.Env, call func() kit.Call[Service]) *checkpointsTab {
	t := &checkpointsTab{live: newDiagFetch(e, call, "checkpoints", api.DiagnoseService.Checkpoints)}
	t.linesTab = newLinesTab(e, "Checkpoints", func(e *kit.Env, d *jobData, w int) []tabLine {
		return checkpointLines(e, d, t.live, w)
	}, openPoint)
	return t
}

func (t *checkpointsTab) ShortHelp() []key.Binding {
	if !t.onPoint {
		return nil
	}
	return []key.Binding{t.env.Keys.Diag.OpenCheckpoint, t.env.Keys.Detail.Restore}
}

func (t *checkpointsTab) shown(d *jobData) tea.Cmd   { return t.live.show(d.job) }
func (t *checkpointsTab) refresh(d *jobData) tea.Cmd { return t.live.show(d.job) }

// selected is the point under the cursor, if any.
func (t *checkpointsTab) selected(d *jobData) (pointTarget, bool) {
	lines := t.render(t.env, d, t.width)
	on := t.cur.On(t.selectable(lines))
	if on < 0 {
		return pointTarget{}, false
	}
	p, ok := lines[on].target.(pointTarget)
	return p, ok
}

// takes implements keyTab: r restores from the selected point rather than
// restarting the job.
func (t *checkpointsTab) takes(msg tea.KeyPressMsg, d *jobData) bool {
	if !key.Matches(msg, t.env.Keys.Detail.Restore) {
		return false
	}
	_, ok := t.selected(d)
	return ok
}

func (t *checkpointsTab) Update(msg tea.Msg, d *jobData) (detailTab, tea.Cmd) {
	switch msg := msg.(type) {
	case diagFetchedMsg[api.CheckpointsView]:
		_, next := t.live.take(msg)
		return t, next
	case tea.KeyPressMsg:
		if key.Matches(msg, t.env.Keys.Detail.Restore) {
			if p, ok := t.selected(d); ok {
				return t, restoreFrom(d, p)
			}
		}
	}
	_, cmd := t.linesTab.Update(msg, d)
	return t, cmd
}

func (t *checkpointsTab) View(d *jobData) string {
	out := t.linesTab.View(d)
	_, t.onPoint = t.selected(d)
	return out
}

// pointTarget is a selectable line's: a checkpoint of Flink's history or
// a restore point palink recorded (rec).
type pointTarget struct {
	name string // "checkpoint 8811", "savepoint-7f3a21": for the flash
	id   int64  // Flink's checkpoint id; 0 when the JobManager cannot be asked of it
	rec  *model.RestorePoint
	path string // where to restore from; "" when nothing can be
	why  string // why nothing can be, for the flash
}

// historyTarget is what a line of Flink's history opens and restores.
func historyTarget(c api.CheckpointInfo) pointTarget {
	kind := "checkpoint"
	if c.Savepoint {
		kind = "savepoint"
	}
	p := pointTarget{name: fmt.Sprintf("%s %d", kind, c.ID), id: c.ID}
	switch {
	case c.Status != "COMPLETED":
		p.why = fmt.Sprintf("%s %s: nothing to restore from", p.name, c.Status)
	case c.Path == "":
		p.why = p.name + " has no external path (no checkpoint directory): nothing to restore from"
	default:
		p.path = c.Path
	}
	return p
}

// recordTarget is what a restore point palink recorded opens and
// restores: the JobManager is asked of it only when it is of the job's
// current Flink job and its id is known.
func recordTarget(j api.JobView, rp model.RestorePoint) pointTarget {
	p := pointTarget{name: lastPathPart(rp.Path), rec: &rp}
	if rp.CheckID > 0 && rp.FlinkJobID != "" && rp.FlinkJobID == j.FlinkJobID {
		p.id = rp.CheckID
	}
	if rp.Usable() {
		p.path = rp.Path
	} else {
		p.why = fmt.Sprintf("%s is %s: nothing to restore from", p.name, rp.Status)
	}
	return p
}

// openPoint opens the selected point: enter, in both lists.
func openPoint(e *kit.Env, d *jobData, target any) tea.Cmd {
	p, ok := target.(pointTarget)
	if !ok {
		return nil
	}
	return kit.Send(kit.OpenDiagMsg{View: kit.DiagCheckpoint, Job: d.job, Checkpoint: p.id, Recorded: p.rec})
}

// restoreFrom starts a resubmit from the selected point; it goes through
// Plan and the confirmation like every action.
func restoreFrom(d *jobData, p pointTarget) tea.Cmd {
	if p.path == "" {
		return kit.Flash(kit.FlashWarn, p.why)
	}
	return kit.Send(kit.StartActionMsg{Kind: model.CmdResubmit, Jobs: []api.JobView{d.job}, Restore: model.RestorePath, Path: p.path})
}

// checkpointLines are the tab's lines: Flink's checkpoints as live
// fetched them, or as the job's last sync saw them until it answers (or
// when it cannot); then the restore points palink keeps.
func checkpointLines(e *kit.Env, d *jobData, live *diagFetch[api.CheckpointsView], w int) []tabLine {
	st := e.Styles
	out := []tabLine{section(st, "Flink checkpoints (live)")}
	switch {
	case live.got != nil:
		out = append(out, checkpointsViewLines(e, live.got, live.err, w)...)
	case d.detail == nil || d.detail.Live == nil:
		why := "loading…"
		if d.detail != nil {
			why = "unavailable: " + kit.OrDash(d.detail.LiveError)
		}
		out = append(out, tabLine{text: "  " + st.Dim.Render(why)})
	default:
		if live.err != nil {
			out = append(out, errorLines(st, live.err.Error(), " · these are from the job's last sync", w)...)
		}
		out = append(out, checkpointRows(e, d.detail.Live.Checkpoints, w)...)
	}
	return append(append(out, tabLine{}), restorePointLines(e, d, w)...)
}

// errorLines are an error, wrapped to the tab's width rather than cut,
// and a dim note after it.
func errorLines(st *kit.Styles, msg, note string, w int) []tabLine {
	var out []tabLine
	for _, l := range kit.Wrap("✖ "+msg, max(w-3, 20)) {
		out = append(out, tabLine{text: "  " + st.Error.Render(l)})
	}
	if note != "" {
		out[len(out)-1].text += st.Dim.Render(note)
	}
	return out
}

// restorePointLines are the restore points palink keeps, newest first.
func restorePointLines(e *kit.Env, d *jobData, w int) []tabLine {
	st := e.Styles
	out := []tabLine{section(st, "Restore points known to palink")}
	var hist []model.RestorePoint
	if d.detail != nil {
		hist = slices.Clone(d.detail.RestorePoints)
	}
	slices.SortStableFunc(hist, func(a, b model.RestorePoint) int { return b.Time.Compare(a.Time) })
	switch {
	case d.detail == nil:
		return append(out, tabLine{text: "  " + st.Dim.Render("loading…")})
	case len(hist) == 0:
		return append(out, tabLine{text: "  " + st.Dim.Render("none recorded yet")})
	}
	cols := restorePointColumns(e.Now)
	lay := cols.Lay(hist, w-kit.Gutter)
	out = append(out, tabLine{text: "  " + st.ColumnHeader.Render(cols.Titles(lay))})
	for _, rp := range hist {
		l := tabLine{text: "  " + cols.Cells(st, lay, rp), target: recordTarget(d.job, rp)}
		if rp.Error != "" {
			l.text += "  " + st.Error.Render(kit.FirstLine(rp.Error))
		}
		out = append(out, l)
	}
	return out
}

// restorePointColumns are the restore points palink keeps, a line each:
// the kind, a savepoint's life (completed, disposing, disposed, failed —
// blank for a checkpoint, which Flink disposes of itself, unless palink
// knows it is missing), the age, where it came from and its path, whose
// middle gives way first.
func restorePointColumns(now time.Time) kit.Columns[model.RestorePoint] {
	type rp = model.RestorePoint
	return kit.Columns[rp]{
		{Title: "KIND", Fit: true, Cell: func(r rp) string { return r.Kind.String() }},
		{Title: "STATUS", Fit: true, Cell: func(r rp) string {
			if r.Kind != model.Savepoint && r.Status != model.SavepointMissing {
				return ""
			}
			return r.Status.String()
		}, Style: savepointStatusStyle},
		{Title: "AGE", Fit: true, Cell: func(r rp) string { return kit.Ago(now, r.Time) }},
		{Title: "ORIGIN", Fit: true, Max: 12, Drop: 1, Cell: func(r rp) string { return kit.OrDash(r.Origin) }},
		{Title: "PATH", Flex: true, Min: 18, Cell: func(r rp) string { return r.Path }, Cut: cutPath[rp]},
	}
}

// cutPath fits a path into w cells keeping its last part.
func cutPath[T any](_ T, s string, w int) string { return kit.ElidePath(s, w) }

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
