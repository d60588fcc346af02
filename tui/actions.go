package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// The action flow, shared by every screen: a screen sends startActionMsg;
// the root checks what it can locally, asks Plan, shows the confirmation
// (which says exactly what Plan says will happen), then Act records the
// command and the flash says so. The command's progress arrives through
// Watch, and the flash reports how it ended.

// verb is an action's name in prose.
func verb(k model.CommandKind) string { return strings.ToLower(k.String()) }

// actionBlocked says why an action cannot apply to a job as the TUI last saw
// it, or "" when it may (Plan has the last word). It lets a refused key
// answer at once, even when the service is slow.
func actionBlocked(kind model.CommandKind, j model.Job) string {
	switch kind {
	case model.CmdPause, model.CmdSavepoint:
		if j.State != model.StateRunning {
			return fmt.Sprintf("job is not RUNNING (it is %s)", j.State)
		}
	case model.CmdKill:
		if !j.State.Live() {
			return fmt.Sprintf("job has no live application (it is %s)", j.State)
		}
	case model.CmdRestart:
		switch j.State {
		case model.StateFinished, model.StateKilled, model.StateFailed:
		case model.StateDeployFailed:
			return "its deploy failed: resubmit (R) it instead"
		default:
			return fmt.Sprintf("job is %s: pause or kill it first", j.State)
		}
	case model.CmdSubmit:
		if j.State != model.StateNone {
			return fmt.Sprintf("job was submitted already (it is %s)", j.State)
		}
	case model.CmdResubmit:
		if !j.State.Final() {
			return fmt.Sprintf("job is %s: pause or kill it first", j.State)
		}
	}
	return ""
}

// needsConfirm: pause, kill, restart and every deploy ask first, as does
// anything Plan calls destructive; a savepoint does not.
func needsConfirm(it planItem) bool {
	return it.plan.Destructive || it.plan.Protected || it.req.Kind != model.CmdSavepoint
}

func (m *Model) startAction(msg kit.StartActionMsg) tea.Cmd {
	if len(msg.Jobs) == 0 {
		return nil
	}
	if m.env.ReadOnly() {
		return m.setFlash(kit.FlashWarn, fmt.Sprintf("read-only: %s is refused", verb(msg.Kind)))
	}
	if msg.Kind == model.CmdResubmit && msg.Restore == 0 {
		if len(msg.Jobs) > 1 {
			return m.setFlash(kit.FlashWarn, "resubmit works on one job at a time: its restore point is chosen per job")
		}
		j := msg.Jobs[0]
		if why := actionBlocked(model.CmdResubmit, j); why != "" {
			return m.setFlash(kit.FlashWarn, fmt.Sprintf("resubmit %s: %s", j.Name, why))
		}
		d, init := newResubmitDialog(m.env, j, msg.History)
		m.dialog = d
		return init
	}
	m.actionSeq++
	items := make([]planItem, 0, len(msg.Jobs))
	for _, j := range msg.Jobs {
		kind := msg.Kind
		if kind == model.CmdRestart && j.State == model.StateNone {
			kind = model.CmdSubmit
		}
		items = append(items, planItem{
			req:     api.ActionRequest{JobRef: j.ID, Kind: kind, Restore: msg.Restore, RestorePath: msg.Path},
			job:     j,
			skipped: actionBlocked(kind, j),
		})
	}
	if len(items) == 1 && items[0].skipped != "" {
		return m.setFlash(kit.FlashWarn, fmt.Sprintf("%s %s: %s", verb(items[0].req.Kind), items[0].job.Name, items[0].skipped))
	}
	what := items[0].job.Name
	if len(items) > 1 {
		what = fmt.Sprintf("%d jobs", len(items))
	}
	return tea.Batch(
		m.setFlash(kit.FlashInfo, fmt.Sprintf("planning %s of %s…", verb(msg.Kind), what)),
		planCmd(m.env.Call(), m.actionSeq, items),
	)
}

func (m *Model) planned(msg plannedMsg) tea.Cmd {
	if msg.seq != m.actionSeq || len(msg.items) == 0 {
		return nil // the user has started another action since
	}
	if len(msg.items) == 1 {
		it := msg.items[0]
		switch {
		case it.err != nil:
			return m.setFlash(kit.FlashError, it.err.Error())
		case !it.plan.Allowed:
			return m.setFlash(kit.FlashWarn, fmt.Sprintf("%s %s refused: %s", verb(it.req.Kind), it.job.Name, it.plan.Reason))
		case !needsConfirm(it):
			return m.act(msg.seq, msg.items)
		}
		m.flash.Clear()
		m.dialog = newConfirmDialog(m.env, msg.seq, msg.items)
		return nil
	}
	allowed := 0
	for _, it := range msg.items {
		if it.allowed() {
			allowed++
		}
	}
	if allowed == 0 {
		return m.setFlash(kit.FlashWarn, fmt.Sprintf("%s: none of the %d marked jobs can be done (%s)",
			verb(msg.items[0].req.Kind), len(msg.items), itemProblem(msg.items[0])))
	}
	m.flash.Clear()
	m.dialog = newConfirmDialog(m.env, msg.seq, msg.items)
	return nil
}

// itemProblem says why an item will not be done.
func itemProblem(it planItem) string {
	switch {
	case it.skipped != "":
		return it.skipped
	case it.err != nil:
		return it.err.Error()
	case !it.plan.Allowed:
		return "refused: " + it.plan.Reason
	}
	return ""
}

func (m *Model) confirmed(msg confirmedMsg) tea.Cmd {
	if msg.seq != m.actionSeq {
		return nil
	}
	return m.act(msg.seq, msg.items)
}

func (m *Model) act(seq int, items []planItem) tea.Cmd {
	return tea.Batch(
		m.setFlash(kit.FlashInfo, fmt.Sprintf("recording %s…", verb(items[0].req.Kind))),
		actCmd(m.env.Call(), seq, items),
	)
}

// acted reports what Act recorded. It is never dropped, even when another
// action has started since: the user must learn that a command exists.
func (m *Model) acted(msg kit.ActedMsg) tea.Cmd {
	var ok []kit.ActResult
	var failed []error
	for _, r := range msg.Results {
		if r.Err != nil {
			failed = append(failed, r.Err)
			continue
		}
		ok = append(ok, r)
		m.issued[r.Cmd.ID] = r.Job.Name
	}
	switch {
	case len(msg.Results) == 1 && len(ok) == 1:
		r := ok[0]
		return m.setFlash(kit.FlashInfo, fmt.Sprintf("%s #%d queued for %s", r.Cmd.Kind, r.Cmd.Seq, r.Job.Name))
	case len(msg.Results) == 1:
		return m.setFlash(kit.FlashError, failed[0].Error())
	case len(failed) == 0:
		return m.setFlash(kit.FlashInfo, fmt.Sprintf("%s queued for %d jobs (%s)", ok[0].Cmd.Kind, len(ok), seqRange(ok)))
	case len(ok) == 0:
		return m.setFlash(kit.FlashError, fmt.Sprintf("all %d failed; first: %v", len(failed), failed[0]))
	}
	return m.setFlash(kit.FlashWarn, fmt.Sprintf("%s queued for %d jobs (%s); %d failed, first: %v",
		ok[0].Cmd.Kind, len(ok), seqRange(ok), len(failed), failed[0]))
}

// seqRange names the commands of a bulk action: "#41–#43".
func seqRange(rs []kit.ActResult) string {
	lo, hi := rs[0].Cmd.Seq, rs[0].Cmd.Seq
	for _, r := range rs {
		lo, hi = min(lo, r.Cmd.Seq), max(hi, r.Cmd.Seq)
	}
	if lo == hi {
		return fmt.Sprintf("#%d", lo)
	}
	return fmt.Sprintf("#%d–#%d", lo, hi)
}
