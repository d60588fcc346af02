package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// confirmDialog is the one confirmation of every action. It shows what Plan
// says will happen — for a bulk action, the dry run of every job — and its
// default is Cancel: enter right away does nothing. A protected cluster asks
// for the job name (or, in bulk, a phrase) to be typed instead of a button.
type confirmDialog struct {
	env   *kit.Env
	seq   int
	items []planItem

	doIt   bool // the focused button; false is Cancel
	phrase string
	input  textinput.Model
	miss   bool // enter was pressed with a wrong phrase
}

// maxDryRunLines bounds the bulk list so the box fits 80×24: the first
// jobs, then "+N more".
const maxDryRunLines = 8

func newConfirmDialog(e *kit.Env, seq int, items []planItem) *confirmDialog {
	d := &confirmDialog{env: e, seq: seq, items: items}
	protected, allowed := 0, 0
	for _, it := range items {
		if it.allowed() {
			allowed++
			if confirmationOf(it) == confirmTyped {
				protected++
			}
		}
	}
	if protected > 0 {
		if len(items) == 1 {
			d.phrase = items[0].job.Name
		} else {
			d.phrase = fmt.Sprintf("%s %d jobs", verb(items[0].req.Kind), allowed)
		}
		d.input = textinput.New()
		d.input.Prompt = "> "
		d.input.SetStyles(e.Styles.Input)
		d.input.SetVirtualCursor(true)
		d.input.Focus()
	}
	return d
}

func (d *confirmDialog) ShortHelp() []key.Binding {
	k := d.env.Keys
	if d.phrase != "" {
		return []key.Binding{k.Form.Confirm, k.Form.Cancel}
	}
	if loopOffered(d.items) {
		return append(dialogShort(k), loopKeys(k, d.items[0])...)
	}
	return dialogShort(k)
}

func (d *confirmDialog) Update(msg tea.Msg) (kit.Dialog, tea.Cmd) {
	k := d.env.Keys
	km, isKey := msg.(tea.KeyPressMsg)
	if isKey && key.Matches(km, k.Form.Cancel) {
		return nil, nil
	}
	if d.phrase != "" {
		if isKey && key.Matches(km, k.Form.Confirm) {
			if strings.TrimSpace(d.input.Value()) != d.phrase {
				d.miss = true
				return d, nil
			}
			return nil, kit.Send(confirmedMsg{seq: d.seq, items: d.items})
		}
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg)
		d.miss = false
		return d, cmd
	}
	if !isKey {
		return d, nil
	}
	if loopOffered(d.items) {
		if cmd, ok := loopKey(k, d.items[0], km); ok {
			return nil, cmd
		}
	}
	switch {
	case key.Matches(km, k.Form.Toggle):
		d.doIt = !d.doIt
	case key.Matches(km, k.Form.Confirm):
		if !d.doIt {
			return nil, nil
		}
		return nil, kit.Send(confirmedMsg{seq: d.seq, items: d.items})
	}
	return d, nil
}

// actionTitle is the verb of the confirm button and title: "Kill".
func actionTitle(k model.CommandKind) string {
	v := verb(k)
	return strings.ToUpper(v[:1]) + v[1:]
}

func (d *confirmDialog) View(width, height int) string {
	st := d.env.Styles
	w := min(width-4, 76)
	inner := w - 4 // border and padding
	kind := d.items[0].req.Kind
	var lines []string
	add := func(s string) { lines = append(lines, kit.Wrap(s, inner)...) }

	allowed := 0
	for _, it := range d.items {
		if it.allowed() {
			allowed++
		}
	}
	if len(d.items) == 1 {
		it := d.items[0]
		lines = append(lines, st.DialogTitle.Render(fmt.Sprintf("%s %s?", actionTitle(kind), it.job.Name)))
		// The steps say where a deploy restores from, with the point's
		// age: core's words, once.
		for _, s := range it.plan.Steps {
			add(s)
		}
		for _, wn := range it.plan.Warnings {
			for i, l := range kit.Wrap("⚠ "+wn, inner) {
				if i > 0 {
					l = "  " + l
				}
				lines = append(lines, st.Warn.Render(l))
			}
		}
		if loopOffered(d.items) {
			lines = append(lines, loopLines(st, d.env.Keys, it, d.phrase != "", inner)...)
		}
		if kind == model.CmdKill && it.pausable {
			// Offered only where core would take a pause (a RUNNING job
			// with nothing pending), never for one that cannot stop so.
			lines = append(lines, st.Dim.Render("Prefer p pause: it stops with a savepoint."))
		}
		lines = append(lines, artifactLines(st, it.plan.Artifact, inner)...)
	} else {
		lines = append(lines, st.DialogTitle.Render(fmt.Sprintf("%s %d of %d marked jobs?", actionTitle(kind), allowed, len(d.items))))
		lines = append(lines, st.Dim.Render("Dry run — what will be done:"))
		for i, it := range d.items {
			if i == maxDryRunLines {
				lines = append(lines, st.Dim.Render(fmt.Sprintf("+%d more", len(d.items)-i)))
				break
			}
			if it.allowed() {
				what := "as planned"
				if len(it.plan.Steps) > 0 {
					what = it.plan.Steps[0]
				}
				if len(it.plan.Warnings) > 0 {
					what += st.Warn.Render(" ⚠ " + it.plan.Warnings[0])
				}
				lines = append(lines, kit.Truncate(st.StateRunning.Render("✓ ")+it.job.Name+"  "+what, inner))
			} else {
				lines = append(lines, kit.Truncate(st.Error.Render("✗ ")+it.job.Name+"  "+st.Dim.Render(itemProblem(it)), inner))
			}
		}
	}
	lines = append(lines, "")
	if d.phrase != "" {
		prot := "This cluster is protected."
		if len(d.items) > 1 {
			prot = "Some of these jobs are on a protected cluster."
		}
		add(prot + " Type " + st.Bold.Render(d.phrase) + " to " + verb(kind) + ":")
		lines = append(lines, d.input.View())
		if d.miss {
			lines = append(lines, st.Error.Render("that is not "+d.phrase+"; esc cancels"))
		}
	} else {
		cancel, do := st.Button, st.Button
		if d.doIt {
			do = st.ButtonDanger
		} else {
			cancel = st.ButtonFocused
		}
		label := actionTitle(kind)
		if len(d.items) > 1 {
			label = fmt.Sprintf("%s %d jobs", label, allowed)
		}
		buttons := cancel.Render("Cancel") + "   " + do.Render(label)
		pad := max((inner-ansi.StringWidth(buttons))/2, 0)
		lines = append(lines, strings.Repeat(" ", pad)+buttons)
	}
	return st.Dialog.Width(w).Render(strings.Join(lines, "\n"))
}
