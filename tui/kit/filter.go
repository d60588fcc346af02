package kit

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Filter is a list's `/`: a prompt that has the keyboard while open and
// narrows the list as its text changes. Its words must all occur in a row
// (case ignored). enter keeps the filter, esc clears it; esc with the
// prompt closed clears a kept filter before it leaves the view (Backer).
// (The jobs table has its own, which knows state: and cluster: terms.)
type Filter struct {
	input  textinput.Model
	active bool
	words  []string
}

// NewFilter makes a closed, empty filter; placeholder says what it matches.
func NewFilter(st *Styles, placeholder string) Filter {
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = placeholder
	in.SetStyles(st.Input)
	in.SetVirtualCursor(true)
	return Filter{input: in}
}

// Active reports that the prompt is open (it has the keyboard).
func (f *Filter) Active() bool { return f.active }

// Text is the filter's text, "" for none.
func (f *Filter) Text() string { return f.input.Value() }

// Open opens the prompt on the current text.
func (f *Filter) Open(width int) tea.Cmd {
	f.active = true
	f.input.CursorEnd()
	f.fit(width)
	return f.input.Focus()
}

// Clear drops the filter and closes the prompt; it reports whether there
// was a filter to drop.
func (f *Filter) Clear() bool {
	had := f.input.Value() != ""
	f.active = false
	f.input.Blur()
	f.input.SetValue("")
	f.words = nil
	return had
}

// Update takes a key or a paste while the prompt is open. changed reports
// that the filter's text changed (the list must narrow again).
func (f *Filter) Update(k KeyMap, msg tea.Msg, width int) (cmd tea.Cmd, changed bool) {
	if kp, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(kp, k.Form.Confirm):
			f.active = false
			f.input.Blur()
			return nil, false
		case key.Matches(kp, k.Form.Cancel):
			return nil, f.Clear()
		}
	}
	before := f.input.Value()
	f.input, cmd = f.input.Update(msg)
	f.fit(width)
	if f.input.Value() == before {
		return cmd, false
	}
	f.words = strings.Fields(strings.ToLower(f.input.Value()))
	return cmd, true
}

// Match reports whether a row whose text is fields passes the filter.
func (f *Filter) Match(fields ...string) bool {
	if len(f.words) == 0 {
		return true
	}
	row := strings.ToLower(strings.Join(fields, " "))
	for _, w := range f.words {
		if !strings.Contains(row, w) {
			return false
		}
	}
	return true
}

// Title is what a box's title shows of the filter: the prompt while open,
// the kept filter, or "".
func (f *Filter) Title(st *Styles) string {
	f.input.SetStyles(st.Input) // the theme may have changed
	switch {
	case f.active:
		return f.input.View()
	case f.input.Value() != "":
		return st.Dim.Render("filter: ") + f.input.Value()
	}
	return ""
}

// ShortHelp is the footer while the prompt is open.
func (f *Filter) ShortHelp(k KeyMap) []key.Binding {
	return []key.Binding{k.Form.Confirm, k.Form.Cancel}
}

// fit sizes the field to its text within width.
func (f *Filter) fit(width int) {
	f.input.SetWidth(Clamp(ansi.StringWidth(f.input.Value())+1, ansi.StringWidth(f.input.Placeholder)+1, max(width/2, 20)))
}

// SetStyles restyles the prompt for a theme.
func (f *Filter) SetStyles(st *Styles) { f.input.SetStyles(st.Input) }
