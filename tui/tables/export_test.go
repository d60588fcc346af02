package tables

import (
	"os/exec"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// RunEditorHere runs $EDITOR without a terminal while the test lasts: the
// Cmd runs the process at once and answers its end, as tea.ExecProcess
// would once the program has the terminal back.
func RunEditorHere(t testing.TB) {
	prev := runEditor
	runEditor = func(c *exec.Cmd, done func(error) tea.Msg) tea.Cmd {
		return func() tea.Msg { return done(c.Run()) }
	}
	t.Cleanup(func() { runEditor = prev })
}
