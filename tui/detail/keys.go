package detail

import (
	"charm.land/bubbles/v2/key"

	"github.com/palink/palink/tui/kit"
)

// shortHelp is the footer's keys (after the tab's own).
func shortHelp(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Detail.NextTab, k.Action.Pause, k.Action.Kill, k.Action.Restart, k.Action.Resubmit, k.Action.Savepoint, k.Open.RawJSON}
}

// Help is the detail's keys in groups, for its `?` help and the keymap
// keymap.
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{
		append(k.Nav.Bindings(), k.Detail.Restore, k.Detail.Fold, k.Detail.OpenLog),
		{k.Detail.NextTab, k.Detail.PrevTab, k.Open.Describe, k.Open.RawJSON, k.Nav.Refresh},
		k.Action.Bindings(),
		{k.Open.EditSQL, k.Editor.Versions, k.Open.Metrics, k.Open.MetricBrowser, k.Open.Logs, k.Open.Exceptions},
	}
}

// MetricsHelp is the Metrics tab's keys, for the keymap (docs/keys.md).
func MetricsHelp(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{{k.Detail.MetricsWindow, k.Open.MetricBrowser, k.Nav.Up, k.Nav.Down}}
}

// GraphHelp is the Graph tab's keys, for the keymap (docs/keys.md).
func GraphHelp(k kit.KeyMap) [][]key.Binding {
	g := graphKeys(k)
	return [][]key.Binding{{g.Left, g.Right, g.Up, g.Down, k.Diag.OpenVertex, k.Diag.Flame, k.Diag.Layout, k.Nav.Refresh}}
}

// CheckpointsHelp, ExceptionsHelp and TaskManagersHelp are those tabs'
// keys, for the keymap (docs/keys.md).
func CheckpointsHelp(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{{k.Diag.OpenCheckpoint, k.Detail.Restore, k.Nav.Refresh}}
}

// ExceptionsHelp: see CheckpointsHelp.
func ExceptionsHelp(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{{k.Diag.Chain, k.Diag.FailureLog, k.Nav.Refresh}}
}

// TaskManagersHelp: see CheckpointsHelp.
func TaskManagersHelp(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{{k.Diag.OpenTaskManager, k.Diag.Config, k.Nav.Refresh}}
}
