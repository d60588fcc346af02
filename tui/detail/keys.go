package detail

import (
	"charm.land/bubbles/v2/key"

	"github.com/palink/palink/tui/kit"
)

// shortHelp is the footer's keys (after the tab's own).
func shortHelp(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Detail.NextTab, k.Action.Pause, k.Action.Kill, k.Action.Restart, k.Action.Resubmit, k.Action.Savepoint, k.Open.RawJSON}
}

// Help is the detail's keys in groups, for its `?` help and the README's
// keymap.
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{
		append(k.Nav.Bindings(), k.Detail.Restore, k.Detail.Fold, k.Detail.OpenLog),
		{k.Detail.NextTab, k.Detail.PrevTab, k.Open.Describe, k.Open.RawJSON, k.Nav.Refresh},
		k.Action.Bindings(),
		{k.Open.EditSQL, k.Open.Metrics, k.Open.Logs, k.Open.Exceptions},
	}
}

// MetricsHelp is the Metrics tab's keys, for the README's keymap.
func MetricsHelp(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{{k.Detail.MetricsWindow, k.Nav.Up, k.Nav.Down}}
}
