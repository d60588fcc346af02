package detail

import (
	"context"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
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
	job   api.JobView
	loads kit.Refresher
	// onCheckpoint reports the cursor on a Flink checkpoint at the last
	// View, for the footer's enter.
	onCheckpoint bool
}

func newCheckpointsTab(e *kit.Env, call func() kit.Call) *checkpointsTab {
	t := &checkpointsTab{linesTab: newLinesTab(e, "Checkpoints", checkpointLines, restoreFromLine)}
	t.loads = kit.NewRefresher(e, func(seq int) tea.Cmd { return loadCheckpointsCmd(call(), t.job.ID, t.job.Name, seq) })
	return t
}

func (t *checkpointsTab) ShortHelp() []key.Binding {
	if t.onCheckpoint {
		return []key.Binding{t.env.Keys.Diag.OpenCheckpoint}
	}
	return []key.Binding{t.env.Keys.Detail.Restore}
}

func (t *checkpointsTab) shown(d *jobData) tea.Cmd {
	if t.job.ID != d.job.ID {
		d.ckpts, d.ckptsErr = nil, nil
		t.loads.Drop()
	}
	t.job = d.job
	return t.loads.Refresh()
}

func (t *checkpointsTab) refresh(d *jobData) tea.Cmd { return t.shown(d) }

// checkpointsLoadedMsg is the answer of loadCheckpointsCmd.
type checkpointsLoadedMsg struct {
	jobID string
	seq   int
	v     api.CheckpointsView
	err   error
}

func loadCheckpointsCmd(c kit.Call, jobID, name string, seq int) tea.Cmd {
	return func() tea.Msg {
		v, err := kit.Diagnose(c, "checkpoints of "+name, func(ctx context.Context, d api.DiagnoseService) (api.CheckpointsView, error) {
			return d.Checkpoints(ctx, jobID)
		})
		return checkpointsLoadedMsg{jobID: jobID, seq: seq, v: v, err: err}
	}
}

func (t *checkpointsTab) Update(msg tea.Msg, d *jobData) (detailTab, tea.Cmd) {
	if msg, ok := msg.(checkpointsLoadedMsg); ok {
		if msg.jobID != t.job.ID || msg.jobID != d.job.ID {
			return t, nil
		}
		current, again := t.loads.Done(msg.seq)
		if !current {
			return t, nil
		}
		d.ckptsErr = msg.err
		if msg.err == nil {
			v := msg.v
			d.ckpts = &v
		}
		return t, again
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
