package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/tui/logview"
)

// The help sets below are what each view's footer and `?` show, made
// from the keymap so that KeymapMarkdown documents exactly them.

func jobsShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Nav.Enter, k.Jobs.Filter, k.Jobs.Mark, k.Action.Pause, k.Action.Kill, k.Action.Restart, k.Action.Savepoint, k.Open.Metrics, k.Open.Logs}
}

func jobsFull(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{
		append(k.Nav.Bindings(), k.Nav.Enter),
		{k.Jobs.Filter, k.Jobs.Sort, k.Jobs.SortReverse, k.Jobs.Mark, k.Jobs.ClearMarks, k.Nav.Refresh},
		append(k.Action.Bindings(), k.Jobs.Create),
		{k.Open.EditSQL, k.Open.Metrics, k.Open.Logs},
	}
}

func detailShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Detail.NextTab, k.Action.Pause, k.Action.Kill, k.Action.Restart, k.Action.Resubmit, k.Action.Savepoint, k.Detail.RawJSON}
}

func detailFull(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{
		append(k.Nav.Bindings(), k.Detail.Restore, k.Detail.Fold, k.Detail.OpenLog),
		{k.Detail.NextTab, k.Detail.PrevTab, k.Detail.RawJSON, k.Nav.Refresh},
		k.Action.Bindings(),
		{k.Open.EditSQL, k.Open.Metrics, k.Open.Logs},
	}
}

func commandsShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Nav.Enter, k.Nav.Refresh}
}

func commandsFull(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{append(k.Nav.Bindings(), k.Nav.Enter), {k.Nav.Refresh}}
}

func clusterShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Cluster.Adopt, k.Cluster.Next, k.Nav.Refresh}
}

func clusterFull(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Cluster.Adopt, k.Cluster.Next, k.Cluster.Prev, k.Nav.Refresh}}
}

func alertsShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Nav.Enter, k.Nav.Refresh}
}

func alertsFull(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{append(k.Nav.Bindings(), k.Nav.Enter), {k.Nav.Refresh}}
}

func editorShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Editor.Save, k.Editor.Debug, k.Editor.External, k.Editor.Submit, k.Editor.Versions, k.Editor.Find, k.Editor.Help, k.Editor.Back}
}

func editorFull(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{
		{k.Editor.Save, k.Editor.Submit, k.Editor.Debug, k.Editor.External, k.Editor.Versions, k.Editor.Back},
		{k.Editor.Find, k.Editor.FindNext, k.Editor.FindPrev, k.Editor.NextProblem, k.Editor.Undo, k.Editor.Redo},
		{k.Editor.SelectAll, k.Editor.Copy, k.Editor.Cut, k.Editor.Paste, k.Text.Select, k.Editor.Help},
		{k.Text.Left, k.Text.Right, k.Text.Up, k.Text.Down, k.Text.WordLeft, k.Text.WordRight},
		{k.Text.Home, k.Text.End, k.Text.DocStart, k.Text.DocEnd, k.Text.PageUp, k.Text.PageDown},
		{k.Text.Newline, k.Text.Backspace, k.Text.Delete, k.Text.DeleteWord, k.Text.DeleteWordForward, k.Text.Indent, k.Text.Dedent},
	}
}

func versionsShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Versions.Diff, k.Versions.Mark, k.Versions.Open}
}

func versionsFull(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{append(k.Nav.Bindings(), k.Versions.Diff, k.Versions.Mark, k.Versions.Open)}
}

func diffShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Versions.DiffMode, k.Nav.Up, k.Nav.Down}
}

func diffFull(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{append(k.Nav.Bindings(), k.Versions.DiffMode)}
}

func debugShort(k kit.KeyMap, running bool) []key.Binding {
	if running {
		return []key.Binding{k.Debug.Cancel, k.Nav.Up, k.Nav.Down}
	}
	return []key.Binding{k.Debug.Again, k.Nav.Up, k.Nav.Down}
}

func debugFull(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Debug.Again, k.Debug.Cancel}}
}

func debugFormShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Debug.Run, k.Form.NextField, k.Form.Cancel}
}

func dialogShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Form.Toggle, k.Form.Confirm, k.Form.Cancel}
}

func pickerShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Nav.Up, k.Nav.Down, k.Form.Confirm, k.Form.Cancel}
}

func formShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Form.NextField, k.Form.PrevField, k.Form.Toggle, k.Form.Submit, k.Form.Cancel}
}

func commandLineShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Form.Complete, k.Form.Confirm, k.Form.Cancel}
}

// KeymapMarkdown documents every view's keys as Markdown tables, generated
// from the same bindings that handle the keys (for the README's keymap).
// readOnly documents what a read-only session offers.
func KeymapMarkdown(readOnly bool) string {
	k := kit.NewKeyMap()
	k.SetReadOnly(readOnly)
	sections := []struct {
		title  string
		groups [][]key.Binding
	}{
		{"Everywhere", [][]key.Binding{k.Global.Bindings()}},
		{"Jobs (default view)", jobsFull(k)},
		{"Job detail", detailFull(k)},
		{"Metrics tab (`m`)", [][]key.Binding{{k.Detail.MetricsWindow, k.Nav.Up, k.Nav.Down}}},
		{"Log viewer (`l` opens a job's Logs tab, enter a log)", logview.Help(k)},
		{"SQL editor (`e`, `:sql NAME`)", editorFull(k)},
		{"SQL versions (ctrl+o in the editor)", versionsFull(k)},
		{"Version diff (enter on a version)", diffFull(k)},
		{"Debug run (ctrl+d in the editor)", append(debugFull(k), debugFormShort(k))},
		{"Commands (`:cmd`)", commandsFull(k)},
		{"Cluster (`:cluster`)", clusterFull(k)},
		{"Alerts (`:alerts`)", alertsFull(k)},
		{"Dialogs", [][]key.Binding{dialogShort(k), {k.Nav.Up, k.Nav.Down}}},
		{"Create-job form", [][]key.Binding{formShort(k)}},
		{"Command line (`:`)", [][]key.Binding{commandLineShort(k)}},
	}
	var b strings.Builder
	for i, s := range sections {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "### %s\n\n| key | action |\n|---|---|\n", s.title)
		seen := map[string]bool{}
		for _, g := range s.groups {
			for _, kb := range g {
				h := kb.Help()
				if !kb.Enabled() || seen[h.Key+h.Desc] {
					continue
				}
				seen[h.Key+h.Desc] = true
				fmt.Fprintf(&b, "| `%s` | %s |\n", h.Key, h.Desc)
			}
		}
	}
	b.WriteString("\nCommands: `:jobs`, `:jobs @CLUSTER`, `:cmd`, `:cluster [NAME]`, `:alerts`, `:sql NAME`, `:theme dark|light`, `:q`.\n")
	b.WriteString("Filter (`/`): words match name or application id; `state:FAILED,KILLED`, `cluster:prod`, `kind:SQL` narrow.\n")
	return b.String()
}
