package editor

import (
	"charm.land/bubbles/v2/key"

	"github.com/palink/palink/tui/kit"
)

// The editor's screens' keys: the short set is each one's footer, the
// groups its `?` help; the exported groups document them in the README.

// shortHelp is the editor's footer.
func shortHelp(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Editor.Save, k.Editor.Debug, k.Editor.External, k.Editor.Submit, k.Editor.Versions, k.Editor.Find, k.Editor.Help, k.Editor.Back}
}

// Help is the editor's keys in groups.
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{
		{k.Editor.Save, k.Editor.Submit, k.Editor.Debug, k.Editor.External, k.Editor.Versions, k.Editor.Back},
		{k.Editor.Find, k.Editor.FindNext, k.Editor.FindPrev, k.Editor.NextProblem, k.Editor.Undo, k.Editor.Redo},
		{k.Editor.SelectAll, k.Editor.Copy, k.Editor.Cut, k.Editor.Paste, k.Text.Select, k.Editor.Help},
		{k.Text.Left, k.Text.Right, k.Text.Up, k.Text.Down, k.Text.WordLeft, k.Text.WordRight},
		{k.Text.Home, k.Text.End, k.Text.DocStart, k.Text.DocEnd, k.Text.PageUp, k.Text.PageDown},
		{k.Text.Newline, k.Text.Backspace, k.Text.Delete, k.Text.DeleteWord, k.Text.DeleteWordForward, k.Text.Indent, k.Text.Dedent, k.Editor.Complete},
	}
}

// versionsShort is the versions list's footer.
func versionsShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Versions.Diff, k.Versions.Mark, k.Versions.Open}
}

// VersionsHelp is the versions list's keys.
func VersionsHelp(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{append(k.Nav.Bindings(), k.Versions.Diff, k.Versions.Mark, k.Versions.Open)}
}

// diffShort is the diff's footer.
func diffShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Versions.DiffMode, k.Nav.Up, k.Nav.Down}
}

// DiffHelp is the diff's keys.
func DiffHelp(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{append(k.Nav.Bindings(), k.Versions.DiffMode)}
}

// debugShort is a debug run's footer, running or done.
func debugShort(k kit.KeyMap, running bool) []key.Binding {
	if running {
		return []key.Binding{k.Debug.Cancel, k.Nav.Up, k.Nav.Down}
	}
	return []key.Binding{k.Debug.Again, k.Debug.Final, k.Nav.Up, k.Nav.Down}
}

// debugFull is a debug run's keys.
func debugFull(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Debug.Again, k.Debug.Cancel, k.Debug.Final}}
}

// debugFormShort is the debug form's keys.
func debugFormShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Debug.Run, k.Form.NextField, k.Form.Cancel}
}

// DebugHelp is the keys of a debug run and of its form.
func DebugHelp(k kit.KeyMap) [][]key.Binding { return append(debugFull(k), debugFormShort(k)) }
