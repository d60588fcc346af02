package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/palink/palink/tui/alerts"
	"github.com/palink/palink/tui/cluster"
	"github.com/palink/palink/tui/commands"
	"github.com/palink/palink/tui/create"
	"github.com/palink/palink/tui/detail"
	"github.com/palink/palink/tui/diagnose"
	"github.com/palink/palink/tui/editor"
	"github.com/palink/palink/tui/jobs"
	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/tui/logview"
	"github.com/palink/palink/tui/metrics"
	"github.com/palink/palink/tui/projects"
	"github.com/palink/palink/tui/tables"
	"github.com/palink/palink/tui/udfs"
	"github.com/palink/palink/tui/vars"
)

// The root's own help sets: the dialogs', the restore-point picker's and
// the command line's. Each feature package has its screens' (Help).

func dialogShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Form.Toggle, k.Form.Confirm, k.Form.Cancel}
}

func pickerShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Nav.Up, k.Nav.Down, k.Form.Confirm, k.Form.Cancel}
}

func commandLineShort(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Form.Complete, k.Form.Confirm, k.Form.Cancel}
}

// KeymapMarkdown documents every view's keys as Markdown tables, generated
// from the same bindings that handle the keys (for the keymap (docs/keys.md)).
// readOnly documents what a read-only session offers.
func KeymapMarkdown(readOnly bool) string {
	k := kit.NewKeyMap()
	k.SetReadOnly(readOnly)
	sections := []struct {
		title  string
		groups [][]key.Binding
	}{
		{"Everywhere", [][]key.Binding{k.Global.Bindings()}},
		{"Jobs (default view)", jobs.Help(k)},
		{"Job detail", detail.Help(k)},
		{"Metrics tab (`m`)", detail.MetricsHelp(k)},
		{"Graph tab", detail.GraphHelp(k)},
		{"Checkpoints tab", detail.CheckpointsHelp(k)},
		{"Exceptions tab (`E`)", detail.ExceptionsHelp(k)},
		{"TaskManagers tab", detail.TaskManagersHelp(k)},
		{"Vertex (enter on the graph)", diagnose.VertexHelp(k)},
		{"Checkpoint (enter on a Flink checkpoint)", diagnose.CheckpointHelp(k)},
		{"TaskManager (enter on a TaskManager or a subtask)", diagnose.TaskManagerHelp(k)},
		{"Flame graph (`f` on the graph or a vertex)", diagnose.FlameHelp(k)},
		{"Metric browser (`M` on a job, a vertex or a TaskManager)", metrics.Help(k)},
		{"Log viewer (`l` opens a job's Logs tab, enter a log)", logview.Help(k)},
		{"SQL editor (`e`, `:sql NAME`)", editor.Help(k)},
		{"SQL versions (ctrl+o in the editor)", editor.VersionsHelp(k)},
		{"Version diff (enter on a version)", editor.DiffHelp(k)},
		{"Debug run (ctrl+d in the editor)", editor.DebugHelp(k)},
		{"Commands (`:cmd`)", commands.Help(k)},
		{"Cluster (`:cluster`)", cluster.Help(k)},
		{"YARN nodes (`n` on `:cluster`)", cluster.NodesHelp(k)},
		{"Alerts (`:alerts`)", alerts.Help(k)},
		{"Projects (`:projects`)", projects.Help(k)},
		{"Build (`b` on a project)", projects.BuildHelp(k)},
		{"Table catalog (`:tables`)", tables.Help(k)},
		{"Variables (`:vars`)", vars.Help(k)},
		{"UDF registry (`:udfs`)", udfs.Help(k)},
		{"Dialogs", [][]key.Binding{dialogShort(k), {k.Nav.Up, k.Nav.Down}}},
		{"Restart or resubmit of a crash-looping job (from the point it loops on)", [][]key.Binding{{k.Form.Older, k.Form.NonRestored, k.Form.EditJob}}},
		{"Create-job form", create.Help(k)},
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
	b.WriteString("\nCommands: `" + strings.Join(commandUsage, "`, `") + "`.\n")
	b.WriteString("Filter (`/`): words match name or application id; `state:FAILED,KILLED`, `cluster:prod`, `kind:SQL` narrow.\n")
	return b.String()
}
