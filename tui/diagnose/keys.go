package diagnose

import (
	"charm.land/bubbles/v2/key"

	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/tui/kit/flame"
)

// The views' keys in groups, for their `?` help and the keymap (docs/keys.md).

// VertexHelp is the vertex view's keys.
func VertexHelp(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Diag.OpenSubtask, k.Diag.Flame, k.Open.MetricBrowser, k.Nav.Refresh}}
}

// CheckpointHelp is the checkpoint view's keys.
func CheckpointHelp(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Nav.Refresh, k.Detail.Restore}}
}

// TaskManagerHelp is the TaskManager view's keys.
func TaskManagerHelp(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{{k.Diag.ThreadDump, k.Diag.TaskManagerLog, k.Diag.Config, k.Open.MetricBrowser, k.Nav.Refresh}, k.Nav.Bindings()}
}

// FlameHelp is the flame graph's keys: kit/flame's moves and search
// steps, and the view's own.
func FlameHelp(k kit.KeyMap) [][]key.Binding {
	f := flame.DefaultKeyMap()
	return [][]key.Binding{{k.Diag.FlameType, k.Diag.ZoomIn, k.Diag.ZoomOut, k.Nav.Refresh}, {f.Left, f.Right, f.Up, f.Down}}
}
