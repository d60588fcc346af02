package alerts

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// An on-call engineer takes an alert in hand (a: everyone sees who), or
// holds a rule's webhook messages of a job back for a while (s, for a
// duration typed in the footer's prompt; U lifts it). The alert stays on
// the list either way: silencing stops the noise, not the truth. A slip
// is caught at once: u takes the last acknowledgement or silence back for
// api.AlertUndoWindow, and the flash says so.

// actedMsg is the service's answer to an action on an alert.
type actedMsg struct {
	key  string // the flash's cause
	done string // what the flash says on success
	err  error
	// offer is what u can take back, for an acknowledgement or a silence.
	offer *undoOffer
}

// undoOffer is the last acknowledgement or silence this view made, which
// u takes back until the window ends (undoExpiredMsg).
type undoOffer struct {
	rule, jobID string
	what        string // "acknowledgement of lag of orders"
	seq         int
}

// undoExpiredMsg ends the undo offer seq.
type undoExpiredMsg struct{ seq int }

// maxSilence bounds a silence: a forgotten one must not hide a rule for good.
const maxSilence = 30 * 24 * time.Hour

func actCmd(c kit.Call[Service], a api.AlertAction, key, done string, offer *undoOffer) tea.Cmd {
	return func() tea.Msg {
		err := c.With(func(ctx context.Context) error {
			_, err := c.Service.ActOnAlert(ctx, a)
			return err
		})
		return actedMsg{key: key, done: done, err: err, offer: offer}
	}
}

// what names an alert for the flash: its rule and job.
func what(a model.Alert) string { return a.Rule + " of " + a.JobName }

// flashKey is the cause of an alert's flashes.
func flashKey(rule, jobID string) string { return "alert:" + rule + "/" + jobID }

// acted takes the service's answer: an error, or what was done, and for an
// acknowledgement or a silence the offer to undo it while it holds.
func (m *Screen) acted(msg actedMsg) tea.Cmd {
	if msg.err != nil {
		return kit.FlashFor(msg.key, kit.FlashError, "✖ "+msg.err.Error())
	}
	if msg.offer == nil {
		return tea.Batch(kit.FlashFor(msg.key, kit.FlashInfo, msg.done), m.load())
	}
	m.undoSeq++
	o := *msg.offer
	o.seq = m.undoSeq
	m.undo = &o
	return tea.Batch(
		kit.Send(kit.FlashMsg{Level: kit.FlashInfo, Text: msg.done + " — u to undo", Key: msg.key, Life: api.AlertUndoWindow}),
		m.env.After(api.AlertUndoWindow, func(time.Time) tea.Msg { return undoExpiredMsg{seq: o.seq} }),
		m.load())
}

// UpdateKeys implements kit.KeyUpdater: u is offered only while there is
// something to undo.
func (m *Screen) UpdateKeys(k *kit.KeyMap) {
	if m.undo == nil {
		k.Block(&k.Alerts.Undo, kit.AllKeys.Alerts.Undo,
			fmt.Sprintf("nothing to undo: u takes back an acknowledgement or a silence for %s after it", kit.Age(api.AlertUndoWindow)))
	}
}

// undoKey takes back the last acknowledgement or silence, whichever alert
// the cursor is on now: the flash names it.
func (m *Screen) undoKey() tea.Cmd {
	o := *m.undo
	m.undo = nil
	key := flashKey(o.rule, o.jobID)
	return kit.Busy(key, "undoing the "+o.what+"…",
		actCmd(call(m.env), api.AlertAction{Rule: o.rule, JobRef: o.jobID, Undo: true}, key, o.what+" undone", nil))
}

// actKey handles the alert keys: u on the last action, the others on the
// alert under the cursor.
func (m *Screen) actKey(kp tea.KeyPressMsg) (tea.Cmd, bool) {
	all := kit.AllKeys.Alerts
	if why, ok := m.env.Keys.Refused(kp, all.Ack, all.Silence, all.Unsilence, all.Undo); ok && why != "" {
		return kit.Flash(kit.FlashWarn, why), true
	}
	k := m.env.Keys.Alerts
	if key.Matches(kp, k.Undo) && m.undo != nil {
		return m.undoKey(), true
	}
	if !key.Matches(kp, k.Ack, k.Silence, k.Unsilence) {
		return nil, false
	}
	a, ok := m.list.Selected()
	if !ok {
		return nil, true
	}
	req := api.AlertAction{Rule: a.Rule, JobRef: a.JobID}
	fk := flashKey(a.Rule, a.JobID)
	switch {
	case key.Matches(kp, k.Ack):
		if a.State != model.AlertFiring {
			return kit.Flash(kit.FlashWarn, what(a)+" is resolved: nothing to acknowledge"), true
		}
		if a.AckedBy != "" {
			return kit.Flash(kit.FlashInfo, what(a)+" is already acknowledged by "+a.AckedBy), true
		}
		req.Ack = true
		return kit.Busy(fk, "acknowledging "+what(a)+"…",
			actCmd(call(m.env), req, fk, "acknowledged "+what(a), &undoOffer{rule: a.Rule, jobID: a.JobID, what: "acknowledgement of " + what(a)})), true
	case key.Matches(kp, k.Unsilence):
		if !a.Silenced(m.env.Clock()) {
			return kit.Flash(kit.FlashWarn, what(a)+" is not silenced"), true
		}
		req.Unsilence = true
		return kit.Busy(fk, "lifting the silence of "+what(a)+"…",
			actCmd(call(m.env), req, fk, what(a)+" is no longer silenced", nil)), true
	}
	m.openSilence(a)
	return textinput.Blink, true
}

// openSilence opens the footer's prompt for how long to silence a.
func (m *Screen) openSilence(a model.Alert) {
	in := textinput.New()
	in.Prompt = "silence " + what(a) + " for: "
	in.Placeholder = "30m, 2h, 1d"
	in.SetWidth(20) // wide enough for the placeholder, which a narrower field cuts to what reads as typed text
	in.SetStyles(m.env.Styles.Input)
	in.SetVirtualCursor(true)
	in.Focus()
	m.silence, m.silencing = in, &a
}

// silenceKey handles a key while the prompt is open.
func (m *Screen) silenceKey(msg tea.Msg) tea.Cmd {
	if kp, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(kp, m.env.Keys.Form.Cancel):
			m.silencing = nil
			return nil
		case key.Matches(kp, m.env.Keys.Form.Confirm):
			text := strings.TrimSpace(m.silence.Value())
			if text == "" {
				return kit.Flash(kit.FlashWarn, "silence for how long? type a duration such as 30m, 2h or 1d")
			}
			d, err := parseSilence(text)
			if err != nil {
				return kit.Flash(kit.FlashWarn, err.Error())
			}
			a := *m.silencing
			m.silencing = nil
			fk := flashKey(a.Rule, a.JobID)
			until := m.env.Clock().Add(d).Local().Format("15:04")
			return kit.Busy(fk, "silencing "+what(a)+"…",
				actCmd(call(m.env), api.AlertAction{Rule: a.Rule, JobRef: a.JobID, Silence: d}, fk,
					fmt.Sprintf("%s silenced for %s (until %s): its webhook messages wait", what(a), kit.Age(d), until),
					&undoOffer{rule: a.Rule, jobID: a.JobID, what: "silence of " + what(a)}))
		}
	}
	var cmd tea.Cmd
	m.silence, cmd = m.silence.Update(msg)
	return cmd
}

// parseSilence reads a silence's length: a Go duration ("90m", "2h30m")
// or whole days ("1d").
func parseSilence(s string) (time.Duration, error) {
	var d time.Duration
	var err error
	if days, ok := strings.CutSuffix(s, "d"); ok {
		var n int
		n, err = strconv.Atoi(days)
		d = time.Duration(n) * 24 * time.Hour
	} else {
		d, err = time.ParseDuration(s)
	}
	switch {
	case err != nil:
		return 0, fmt.Errorf("silence for %q: give a duration such as 30m, 2h or 1d", s)
	case d <= 0:
		return 0, fmt.Errorf("silence for %s: it must be longer than nothing", s)
	case d > maxSilence:
		return 0, fmt.Errorf("silence for %s: at most 30d, so that a forgotten silence ends", s)
	}
	return d, nil
}

// handledText says who has an alert in hand, "" for nobody.
func handledText(a model.Alert, now time.Time) string {
	var parts []string
	if a.AckedBy != "" && a.State == model.AlertFiring {
		parts = append(parts, "acked by "+a.AckedBy+" "+kit.Ago(now, a.AckedAt))
	}
	if a.Silenced(now) {
		parts = append(parts, "silenced until "+a.SilencedUntil.Local().Format("15:04")+" by "+a.SilencedBy)
	}
	return strings.Join(parts, " · ")
}

// handledCell is the HANDLED column's short form.
func handledCell(a model.Alert, now time.Time) string {
	var parts []string
	if a.AckedBy != "" && a.State == model.AlertFiring {
		parts = append(parts, "✓ "+a.AckedBy)
	}
	if a.Silenced(now) {
		parts = append(parts, "⏸ "+kit.Age(a.SilencedUntil.Sub(now)))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}
