package logview

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui/kit"
)

// promptKind is what the viewer's input line asks for.
type promptKind int

const (
	promptNone promptKind = iota
	promptFilter
	promptSave
)

// inputLine is the viewer's input line, in place of its status line while
// it asks: what for, and the text field.
type inputLine struct {
	kind  promptKind
	field textinput.Model
}

func newInputLine(st *kit.Styles) inputLine {
	in := textinput.New()
	in.SetStyles(st.Input)
	in.SetVirtualCursor(true)
	return inputLine{field: in}
}

// open asks for kind, the line reading label and holding value, in a view
// cols wide.
func (l *inputLine) open(kind promptKind, label, value string, cols int) tea.Cmd {
	l.kind = kind
	l.field.Prompt = label
	l.field.SetValue(value)
	l.field.CursorEnd()
	l.fit(cols)
	return l.field.Focus()
}

// close puts the status line back.
func (l *inputLine) close() {
	l.kind = promptNone
	l.field.Blur()
}

// fit sizes the field: the filter's to its text, so that what the filter
// found shows beside it; the others' to the width.
func (l *inputLine) fit(cols int) {
	w := cols - 20
	if l.kind == promptFilter {
		w = min(kit.Width(l.field.Value())+2, cols/2)
	}
	l.field.SetWidth(max(w, 10))
}
