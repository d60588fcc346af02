package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// The action flow, shared by every screen: a screen sends
// kit.StartActionMsg; the root refuses at once what core's view of the job
// refuses (api.JobView.Actions: the TUI never decides), asks Plan, shows
// the confirmation (which says exactly what Plan says will happen), then
// Act records the command and the flash says so. The command's progress
// arrives through Watch, and the flash reports how it ended.

// verb is an action's name in prose.
func verb(k model.CommandKind) string { return kit.Verb(k) }

// confirmation is how an action is confirmed before Act.
type confirmation int

const (
	confirmNone    confirmation = iota // done at once (a savepoint changes nothing)
	confirmButtons                     // Cancel, the default, or do it
	confirmTyped                       // the job's name typed: a protected cluster
)

// confirmationOf reads the plan's confirmation level (core decides it, for
// the TUI and the CLI alike): a key could be a slip, so the TUI asks for
// every level but none, and a protected cluster wants the job's name typed.
func confirmationOf(it planItem) confirmation {
	switch it.plan.Confirm {
	case api.ConfirmName:
		return confirmTyped
	case api.ConfirmNone:
		return confirmNone
	}
	return confirmButtons
}

// actionFlow is the root's part in actions: it plans them, opens their
// confirmation, acts, and reports in the flash line, now and when the
// command this session issued ends.
type actionFlow struct {
	env   *kit.Env
	flash *kit.FlashLine // the root's
	// seq is the action under way: an answer for an older one is dropped,
	// but what Act recorded never is.
	seq int
	// issued are the commands this session recorded, so the flash can say
	// how they ended when Watch reports it.
	issued map[string]string // command id → job name
	// bulks are the bulk actions under way, by their commands' ids, so
	// that the last to end says how the whole action went.
	bulks map[string]*bulkRun
}

// bulkRun is one bulk action's commands as they end.
type bulkRun struct {
	kind                model.CommandKind
	total, ok, failures int
	// failed names the jobs whose command failed, with the first cause.
	failed   []string
	firstErr string
}

// summary is how the bulk action went: "KILL: 3 succeeded, 0 failed".
func (b *bulkRun) summary() string {
	s := fmt.Sprintf("%s: %d succeeded, %d failed", b.kind, b.ok, b.failures)
	if b.failures > 0 {
		s += fmt.Sprintf(" (%s; first: %s)", strings.Join(b.failed, ", "), b.firstErr)
	}
	return s
}

func newActionFlow(e *kit.Env, flash *kit.FlashLine) actionFlow {
	return actionFlow{env: e, flash: flash, issued: map[string]string{}, bulks: map[string]*bulkRun{}}
}

func (a *actionFlow) say(level kit.FlashLevel, text string) tea.Cmd {
	return a.flash.Set(a.env.After, level, text)
}

// busy says what is under way until its outcome replaces it; key names
// the work (actionKey for planning and recording, a command's id).
func (a *actionFlow) busy(key, text string) tea.Cmd {
	return a.flash.Show(a.env.After, kit.FlashMsg{Level: kit.FlashInfo, Text: text, Key: key, Busy: true}, nil)
}

// actionKey is the key of the flashes of an action being planned or
// recorded.
const actionKey = "action"

// start checks an action locally and asks Plan; a resubmit without a
// restore point asks where from first (the dialog).
func (a *actionFlow) start(msg kit.StartActionMsg) (kit.Dialog, tea.Cmd) {
	if len(msg.Jobs) == 0 {
		return nil, nil
	}
	if a.env.ReadOnly() {
		return nil, a.say(kit.FlashWarn, fmt.Sprintf("read-only: %s is refused", verb(msg.Kind)))
	}
	if msg.Kind == model.CmdResubmit && msg.Restore == 0 {
		if len(msg.Jobs) > 1 {
			return nil, a.say(kit.FlashWarn, "resubmit works on one job at a time: its restore point is chosen per job")
		}
		j := msg.Jobs[0]
		if why, _ := j.Refusal(model.CmdResubmit); why != "" {
			return nil, a.say(kit.FlashWarn, fmt.Sprintf("resubmit %s: %s", j.Name, why))
		}
		return newResubmitDialog(a.env, j, msg.History)
	}
	a.seq++
	items := make([]planItem, 0, len(msg.Jobs))
	for _, j := range msg.Jobs {
		kind := msg.Kind
		if kind == model.CmdRestart {
			kind = kit.RestartKind(j) // each marked job as core says
		}
		why, _ := j.Refusal(kind)
		noPause, known := j.Refusal(model.CmdPause)
		items = append(items, planItem{
			req: api.ActionRequest{JobRef: j.ID, Kind: kind, Restore: msg.Restore, RestorePath: msg.Path,
				AllowNonRestoredState: msg.AllowNonRestoredState},
			job:      j.Job,
			view:     j,
			pausable: known && noPause == "",
			skipped:  why,
		})
	}
	if len(items) == 1 && items[0].skipped != "" {
		return nil, a.say(kit.FlashWarn, fmt.Sprintf("%s %s: %s", verb(items[0].req.Kind), items[0].job.Name, items[0].skipped))
	}
	what := items[0].job.Name
	if len(items) > 1 {
		what = fmt.Sprintf("%d jobs", len(items))
	}
	return nil, tea.Batch(
		a.busy(actionKey, fmt.Sprintf("planning %s of %s…", verb(msg.Kind), what)),
		planCmd(call(a.env), a.seq, items),
	)
}

// planned takes Plan's answers: it refuses, acts at once, or asks.
func (a *actionFlow) planned(msg plannedMsg) (kit.Dialog, tea.Cmd) {
	if msg.seq != a.seq || len(msg.items) == 0 {
		return nil, nil // the user has started another action since
	}
	if len(msg.items) == 1 {
		it := msg.items[0]
		switch {
		case it.err != nil:
			return nil, a.say(kit.FlashError, it.err.Error())
		case !it.plan.Allowed:
			return nil, a.say(kit.FlashWarn, fmt.Sprintf("%s %s refused: %s", verb(it.req.Kind), it.job.Name, it.plan.Reason))
		case confirmationOf(it) == confirmNone:
			return nil, a.act(msg.seq, msg.items)
		}
		a.flash.ClearKey(actionKey) // the dialog says the rest
		return newConfirmDialog(a.env, msg.seq, msg.items), nil
	}
	allowed := 0
	for _, it := range msg.items {
		if it.allowed() {
			allowed++
		}
	}
	if allowed == 0 {
		return nil, a.say(kit.FlashWarn, fmt.Sprintf("%s: none of the %d marked jobs can be done (%s)",
			verb(msg.items[0].req.Kind), len(msg.items), itemProblem(msg.items[0])))
	}
	a.flash.ClearKey(actionKey)
	return newConfirmDialog(a.env, msg.seq, msg.items), nil
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

// confirmed is the dialog's yes.
func (a *actionFlow) confirmed(msg confirmedMsg) tea.Cmd {
	if msg.seq != a.seq {
		return nil
	}
	return a.act(msg.seq, msg.items)
}

func (a *actionFlow) act(seq int, items []planItem) tea.Cmd {
	return tea.Batch(
		a.busy(actionKey, fmt.Sprintf("recording %s…", verb(items[0].req.Kind))),
		actCmd(call(a.env), seq, items),
	)
}

// acted reports what Act recorded. It is never dropped, even when another
// action has started since: the user must learn that a command exists.
func (a *actionFlow) acted(msg kit.ActedMsg) tea.Cmd {
	var ok []kit.ActResult
	var failed []error
	for _, r := range msg.Results {
		if r.Err != nil {
			failed = append(failed, r.Err)
			continue
		}
		ok = append(ok, r)
		a.issued[r.Cmd.ID] = r.Job.Name
	}
	if len(msg.Results) > 1 && len(ok) > 0 {
		b := &bulkRun{kind: ok[0].Cmd.Kind, total: len(ok)}
		for _, r := range ok {
			a.bulks[r.Cmd.ID] = b
		}
	}
	switch {
	case len(msg.Results) == 1 && len(ok) == 1:
		r := ok[0]
		// It stays while the command runs; how it ended replaces it.
		return a.busy(r.Cmd.ID, fmt.Sprintf("%s #%d queued for %s…", r.Cmd.Kind, r.Cmd.Seq, r.Job.Name))
	case len(msg.Results) == 1:
		return a.say(kit.FlashError, failed[0].Error())
	case len(failed) == 0:
		return a.say(kit.FlashInfo, fmt.Sprintf("%s queued for %d jobs (%s)", ok[0].Cmd.Kind, len(ok), seqRange(ok)))
	case len(ok) == 0:
		return a.say(kit.FlashError, fmt.Sprintf("all %d failed; first: %v", len(failed), failed[0]))
	}
	return a.say(kit.FlashWarn, fmt.Sprintf("%s queued for %d jobs (%s); %d failed, first: %v",
		ok[0].Cmd.Kind, len(ok), seqRange(ok), len(failed), failed[0]))
}

// ended reports how a command this session issued ended, once Watch says
// it has.
func (a *actionFlow) ended(c *model.Command) tea.Cmd {
	if c == nil || !c.State.Final() {
		return nil
	}
	name, ok := a.issued[c.ID]
	if !ok {
		return nil
	}
	delete(a.issued, c.ID)
	if b := a.bulks[c.ID]; b != nil {
		delete(a.bulks, c.ID)
		if c.State == model.CmdFailed {
			b.failures++
			b.failed = append(b.failed, name)
			if b.firstErr == "" {
				b.firstErr = c.Error
			}
		} else {
			b.ok++
		}
		if b.ok+b.failures < b.total {
			return a.say(kit.FlashInfo, fmt.Sprintf("%s: %d of %d ended (%d succeeded, %d failed)…", b.kind, b.ok+b.failures, b.total, b.ok, b.failures))
		}
		if b.failures > 0 {
			return a.say(kit.FlashError, b.summary())
		}
		return a.say(kit.FlashInfo, b.summary())
	}
	if c.State == model.CmdFailed {
		return a.say(kit.FlashError, fmt.Sprintf("%s #%d of %s failed: %s", c.Kind, c.Seq, name, c.Error))
	}
	return a.say(kit.FlashInfo, fmt.Sprintf("%s #%d of %s succeeded%s", c.Kind, c.Seq, name, lastLog(c)))
}

// lastLog is the command's last log line, which says what it achieved
// (e.g. the savepoint path), for the flash.
func lastLog(c *model.Command) string {
	if len(c.Log) == 0 {
		return ""
	}
	last := c.Log[len(c.Log)-1].Text
	if strings.EqualFold(strings.TrimSpace(last), c.State.String()) {
		return "" // "succeeded: succeeded" says nothing more
	}
	return ": " + last
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
