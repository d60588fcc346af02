package editor

import (
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// What the tests of package editor_test look at.

// ValidateTickMsg ends a pause in typing; ValidatedMsg carries a check.
type (
	ValidateTickMsg = validateTickMsg
	ValidatedMsg    = validatedMsg
)

func (m *Screen) Text() string            { return m.buf.Text() }
func (m *Screen) Cursor() (line, col int) { return m.buf.cursor.line, m.buf.cursor.col }
func (m *Screen) Line(i int) string       { return string(m.buf.lines[i]) }
func (m *Screen) Lines() int              { return len(m.buf.lines) }
func (m *Screen) Selected() string        { return m.buf.selectedText() }
func (m *Screen) Dirty() bool             { return m.dirty() }
func (m *Screen) Checked() bool           { return m.checkedVersion == m.buf.version }
func (m *Screen) Clipboard() string       { return m.clipboard }
func (m *Screen) Searching() bool         { return m.find.active }

// ExternalFile runs ctrl+e's first Cmd: the text written to a file for
// $EDITOR, with the command line and whether a final newline is to go.
func (m *Screen) ExternalFile() (path string, argv []string, trimNL bool, err error) {
	msg := writeEditorFileCmd(m.id, m.job.Name, m.buf.Text())().(editorFileMsg)
	return msg.path, msg.argv, msg.trimNL, msg.err
}

// EditorExited is the message of $EDITOR's end.
func (m *Screen) EditorExited(path string, trimNL bool, err error) tea.Msg {
	return editorExitedMsg{id: m.id, path: path, trimNL: trimNL, err: err}
}

// IsDebugForm reports a debug run's form.
func IsDebugForm(s kit.Screen) bool { _, ok := s.(*debugForm); return ok }

// RunState is what a debug run's screen holds.
type RunState struct {
	Rows             []api.DebugRow
	Err              error
	Running, Stopped bool
}

// DebugRun is the state of a debug run's screen; false for another screen.
func DebugRun(s kit.Screen) (RunState, bool) {
	d, ok := s.(*debugScreen)
	if !ok {
		return RunState{}, false
	}
	return RunState{Rows: d.rows, Err: d.err, Running: d.running, Stopped: d.stopped}, true
}

// IsVersions reports the versions list.
func IsVersions(s kit.Screen) bool { _, ok := s.(*versionsScreen); return ok }
