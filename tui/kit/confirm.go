package kit

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// OpenDialogMsg asks the root to open a screen's dialog over it (a form,
// a confirmation); the dialog gets every key until it closes.
type OpenDialogMsg struct{ Dialog Dialog }

// Confirm is the confirmation a screen asks before a change it cannot take
// back (unset a variable): what will happen, and two buttons with Cancel
// focused, so that enter right away does nothing. The root's job actions
// have their own (with a dry run per job); this is the same box for the
// rest.
type Confirm struct {
	env   *Env
	title string
	body  []string
	label string // the confirming button's
	list  []string
	do    tea.Cmd
	doIt  bool
}

// NewConfirm asks title, saying body (paragraphs); the button label runs do.
func NewConfirm(e *Env, title string, body []string, label string, do tea.Cmd) *Confirm {
	return &Confirm{env: e, title: title, body: body, label: label, do: do}
}

// List puts items under the body, one a line, as many as the terminal's
// height holds, then how many more there are.
func (d *Confirm) List(items []string) *Confirm {
	d.list = items
	return d
}

// ShortHelp implements Dialog.
func (d *Confirm) ShortHelp() []key.Binding {
	k := d.env.Keys
	return []key.Binding{k.Form.Toggle, k.Form.Confirm, k.Form.Cancel}
}

// Update implements Dialog.
func (d *Confirm) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	k := d.env.Keys
	switch {
	case key.Matches(km, k.Form.Cancel):
		return nil, nil
	case key.Matches(km, k.Form.Toggle):
		d.doIt = !d.doIt
	case key.Matches(km, k.Form.Confirm):
		if !d.doIt {
			return nil, nil
		}
		return nil, d.do
	}
	return d, nil
}

// View implements Dialog.
func (d *Confirm) View(width, height int) string {
	st := d.env.Styles
	w := min(width-4, 72)
	inner := max(w-4, 10)
	lines := []string{st.DialogTitle.Render(Truncate(d.title, inner))}
	for _, p := range d.body {
		lines = append(lines, Wrap(p, inner)...)
	}
	if len(d.list) > 0 {
		lines = append(lines, "")
	}
	// The box's edges, the blank line and the buttons take 4 lines.
	room := max(height-len(lines)-4, 1)
	for i, item := range d.list {
		if i == room-1 && len(d.list) > room {
			lines = append(lines, st.Dim.Render(fmt.Sprintf("… and %d more", len(d.list)-i)))
			break
		}
		lines = append(lines, Truncate(item, inner))
	}
	cancel, do := st.ButtonFocused, st.Button
	if d.doIt {
		cancel, do = st.Button, st.ButtonDanger
	}
	buttons := cancel.Render("Cancel") + "   " + do.Render(d.label)
	lines = append(lines, "", strings.Repeat(" ", max((inner-ansi.StringWidth(buttons))/2, 0))+buttons)
	return st.Dialog.Width(w).Render(strings.Join(lines, "\n"))
}
