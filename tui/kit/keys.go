package kit

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// KeyMap is every key the TUI answers to, in groups by screen or feature.
// Screens match keys only through these bindings, and the footer, the `?`
// help and the keymap (docs/keys.md) render from the same bindings, so what is
// documented is what works.
//
// The root remakes the session's keymap (Env.Keys) after every message in
// its updateKeys: every key, less what read-only refuses, less what the
// screen on top blocks for its state (KeyUpdater). A disabled binding
// neither matches nor shows; Refused says why it is off, for the flash.
type KeyMap struct {
	Global   GlobalKeys
	Nav      NavKeys
	Jobs     JobsKeys
	Sort     SortKeys
	Action   ActionKeys
	Open     OpenKeys
	Detail   DetailKeys
	Cluster  ClusterKeys
	Catalog  CatalogKeys
	Alerts   AlertKeys
	Log      LogKeys
	Editor   EditorKeys
	Text     TextKeys
	Versions VersionKeys
	Debug    DebugKeys
	Form     FormKeys
	Diag     DiagKeys
	Build    BuildKeys
	Charts   ChartKeys

	blocked []blockedKey // what Block turned off, and why
}

// blockedKey is a key turned off: its twin (the same key, enabled) and why.
type blockedKey struct {
	twin key.Binding
	why  string
}

// GlobalKeys are handled by the root model. ForceQuit works even while a
// text field has the keyboard; it is documented through Quit.
type GlobalKeys struct {
	Quit, ForceQuit, Help, Back, Command key.Binding
}

// NavKeys move in every list; Enter opens, Refresh reloads, Filter
// narrows a list to what matches.
type NavKeys struct {
	Up, Down, Top, Bottom, PageUp, PageDown, Enter, Refresh, Filter key.Binding
}

// JobsKeys are the jobs table's own.
type JobsKeys struct {
	Mark, ClearMarks, Sort, SortReverse, Create key.Binding
}

// SortKeys sort the jobs table by one column at once, k9s' shift+letter:
// the letter is underlined in the column's heading, and pressing it again
// reverses the order. A column that is not shown cannot be sorted by.
type SortKeys struct {
	Name, Kind, Cluster, State, App, Up, Restarts, Checkpoint, In, Backpressure, Lag key.Binding
}

// Bindings lists the sort keys in the columns' order.
func (k SortKeys) Bindings() []key.Binding {
	return []key.Binding{k.Name, k.Kind, k.Cluster, k.State, k.App, k.Up, k.Restarts, k.Checkpoint, k.In, k.Backpressure, k.Lag}
}

// ActionKeys change jobs; they are the dangerous ones, hidden and refused
// in read-only mode. Delete is ctrl-d, k9s' delete: it kills, through the
// same confirmation as Kill.
type ActionKeys struct {
	Pause, Kill, Delete, Restart, Resubmit, Savepoint key.Binding
}

// OpenKeys open a job's overview (describe), its raw JSON, its SQL, its
// metrics or its logs, from the table or the detail.
type OpenKeys struct {
	Describe, RawJSON, EditSQL, Logs, Metrics key.Binding
	// Exceptions opens the detail on its Exceptions tab: from a FAILED
	// job in the table to its innermost cause in one key.
	Exceptions key.Binding
	// MetricBrowser lists every metric Flink exposes of the job, the
	// vertex or the TaskManager on screen.
	MetricBrowser key.Binding
}

// DetailKeys are the job detail's and its tabs'.
type DetailKeys struct {
	NextTab, PrevTab key.Binding
	Restore          key.Binding // r on a checkpoint or restore point: restore from it
	MetricsWindow    key.Binding // the Metrics tab's 5 min / 1 h
	Fold             key.Binding // the Exceptions tab's
	OpenLog          key.Binding // the Logs and Commands tabs'
	EditSQL          key.Binding // the SQL tab's enter
}

// ClusterKeys are the cluster view's; Nodes opens its YARN nodes. Mark,
// MarkAll and ClearMarks choose applications for Adopt to take at once,
// as the jobs table's marks do for its actions.
type ClusterKeys struct {
	Adopt, Next, Prev, Nodes  key.Binding
	Mark, MarkAll, ClearMarks key.Binding
}

// CatalogKeys are the catalog's views': EditTable opens a catalog table's
// DDL in $EDITOR (`:tables`); SetVar, EditVar and UnsetVar are `:vars`'s
// (these change what SQL jobs get, an admin's business); Callers opens
// the jobs that call a UDF (`:udfs`).
type CatalogKeys struct {
	EditTable, SetVar, EditVar, UnsetVar key.Binding
	Callers                              key.Binding
}

// AlertKeys are `:alerts`'s: take an alert in hand, or hold its webhook
// messages back for a while; Undo takes either back for a few seconds.
type AlertKeys struct {
	Ack, Silence, Unsilence, Undo key.Binding
}

// LogKeys are the log viewer's.
type LogKeys struct {
	Follow, Wrap, Filter, NextMatch, PrevMatch, FirstError, Save, ScrollSide key.Binding
	// Copy puts the current line on the clipboard (OSC 52).
	Copy key.Binding
	// Since shows the log's last minutes by its timestamps (k9s' 0-3).
	Since key.Binding
}

// EditorKeys are the SQL editor's commands. The editor has the keyboard,
// so its keys are chords.
type EditorKeys struct {
	Save, Submit, Debug, External, Versions       key.Binding
	Find, FindNext, FindPrev, NextProblem         key.Binding
	Undo, Redo, SelectAll, Copy, Cut, Paste, Help key.Binding
	Back                                          key.Binding
	// Complete opens the completion popup; tab does too when the cursor
	// follows a word or a '.', and indents elsewhere (Text.Indent).
	Complete key.Binding
}

// TextKeys move and edit in the SQL editor's text; shift with a move
// extends the selection.
type TextKeys struct {
	Left, Right, Up, Down, WordLeft, WordRight    key.Binding
	Home, End, DocStart, DocEnd, PageUp, PageDown key.Binding
	Select                                        key.Binding // documents shift+move; never matched
	Newline, Backspace, Delete                    key.Binding
	DeleteWord, DeleteWordForward, Indent, Dedent key.Binding
}

// VersionKeys are the SQL versions list's and the diff's.
type VersionKeys struct {
	Diff, Mark, Open, DiffMode key.Binding
}

// DebugKeys are the debug run's and its form's.
type DebugKeys struct {
	Again, Cancel, Run, Final key.Binding
}

// DiagKeys find the cause: the Graph tab and the vertex, checkpoint,
// TaskManager and flame graph views it opens, and the Exceptions tab's
// jump to the log of a failure. Several share a letter on different
// screens; each screen matches only its own.
type DiagKeys struct {
	OpenVertex, OpenSubtask, OpenCheckpoint, OpenTaskManager key.Binding // enter, by what it opens
	Layout                                                   key.Binding // the graph's left to right, top down, list
	Flame                                                    key.Binding // the selected vertex's flame graph
	FlameType                                                key.Binding // ON_CPU, OFF_CPU, FULL
	ZoomIn, ZoomOut                                          key.Binding
	ThreadDump, TaskManagerLog, Config                       key.Binding
	FailureLog                                               key.Binding // the TaskManager's log at the failure
	Chain                                                    key.Binding // fold an exception's chain
}

// ChartKeys are the metric browser's: chart the metric under the cursor
// on the job's Metrics tab or take its chart away, the aggregation a
// vertex's metric is charted with, and the job's charts alone.
type ChartKeys struct {
	Add, Remove, Agg, Charted key.Binding
}

// BuildKeys start a project's build from `:projects` and cancel it in
// the build view.
type BuildKeys struct {
	Start, Cancel key.Binding
}

// FormKeys are the dialogs', the forms' and the command line's. Older,
// NonRestored and EditJob are a deploy's confirmation's ways out of a
// crash loop.
type FormKeys struct {
	Toggle, Confirm, Cancel, NextField, PrevField, Submit, Complete key.Binding
	Older, NonRestored, EditJob                                     key.Binding
}

// NewKeyMap builds the keymap with every key enabled.
func NewKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Global: GlobalKeys{
			Quit:      b("q", "quit", "q", "ctrl+c"),
			ForceQuit: b("ctrl+c", "quit", "ctrl+c"),
			Help:      b("?", "help", "?"),
			Back:      b("esc", "back", "esc"),
			Command:   b(":", "command", ":"),
		},
		Nav: NavKeys{
			Up:       b("↑/k", "up", "up", "k"),
			Down:     b("↓/j", "down", "down", "j"),
			Top:      b("g", "top", "g", "home"),
			Bottom:   b("G", "bottom", "G", "end"),
			PageUp:   b("pgup", "page up", "pgup", "ctrl+b"),
			PageDown: b("pgdn", "page down", "pgdown", "ctrl+f"),
			Enter:    b("enter", "open", "enter"),
			Refresh:  b("ctrl+r", "refresh", "ctrl+r"),
			Filter:   b("/", "filter", "/"),
		},
		Jobs: JobsKeys{
			Mark:        b("space", "mark & next", "space"),
			ClearMarks:  b("x", "clear marks", "x"),
			Sort:        b("o", "sort column", "o"),
			SortReverse: b("O", "reverse sort", "O"),
			Create:      b("n", "new job", "n"),
		},
		Sort: SortKeys{
			Name:         b("N", "sort by NAME", "N"),
			Kind:         b("K", "sort by KIND", "K"),
			Cluster:      b("C", "sort by CLUSTER", "C"),
			State:        b("S", "sort by STATE", "S"),
			App:          b("A", "sort by APP", "A"),
			Up:           b("U", "sort by UP", "U"),
			Restarts:     b("T", "sort by RST (restarts)", "T"),
			Checkpoint:   b("P", "sort by CKPT (checkpoint age)", "P"),
			In:           b("I", "sort by IN/s", "I"),
			Backpressure: b("B", "sort by BP (backpressure)", "B"),
			Lag:          b("L", "sort by LAG (records lag)", "L"),
		},
		Action: ActionKeys{
			Pause:     b("p", "pause", "p"),
			Kill:      b("ctrl+k", "kill", "ctrl+k"),
			Delete:    b("ctrl+d", "kill (k9s' delete)", "ctrl+d"),
			Restart:   b("r", "restart", "r"),
			Resubmit:  b("R", "resubmit", "R"),
			Savepoint: b("s", "savepoint", "s"),
		},
		Open: OpenKeys{
			Describe: b("d", "describe", "d"),
			RawJSON:  b("y", "raw JSON", "y"),
			EditSQL:  b("e", "SQL", "e"),
			Logs:     b("l", "logs", "l"),
			Metrics:  b("m", "metrics", "m"),

			Exceptions:    b("E", "exceptions", "E"),
			MetricBrowser: b("M", "metric browser", "M"),
		},
		Detail: DetailKeys{
			NextTab:       b("tab", "next tab", "tab", "]"),
			PrevTab:       b("shift+tab", "prev tab", "shift+tab", "["),
			Restore:       b("r", "restore from it", "r"),
			MetricsWindow: b("t", "5 min / 1 h", "t"),
			Fold:          b("enter", "expand/fold", "enter"),
			OpenLog:       b("enter", "open log", "enter"),
			EditSQL:       b("enter", "edit SQL", "enter"),
		},
		Cluster: ClusterKeys{
			Adopt:      b("a", "adopt", "a"),
			Next:       b("]", "next cluster", "]", "tab"),
			Prev:       b("[", "prev cluster", "[", "shift+tab"),
			Nodes:      b("n", "nodes", "n"),
			Mark:       b("space", "mark & next", "space"),
			MarkAll:    b("ctrl+a", "mark all shown", "ctrl+a"),
			ClearMarks: b("x", "clear marks", "x"),
		},
		Catalog: CatalogKeys{
			EditTable: b("e", "edit in $EDITOR", "e"),
			SetVar:    b("a", "set variable", "a"),
			EditVar:   b("e", "change value", "e"),
			UnsetVar:  b("ctrl+d", "unset", "ctrl+d", "delete"),
			Callers:   b("enter", "jobs calling it", "enter"),
		},
		Alerts: AlertKeys{
			Ack:       b("a", "acknowledge", "a"),
			Silence:   b("s", "silence for…", "s"),
			Unsilence: b("U", "unsilence", "U"),
			Undo:      b("u", "undo", "u"),
		},
		Log: LogKeys{
			Follow:     b("f", "follow", "f"),
			Wrap:       b("w", "wrap", "w"),
			Filter:     b("/", "filter", "/"),
			NextMatch:  b("n", "next match", "n"),
			PrevMatch:  b("N", "prev match", "N"),
			FirstError: b("E", "first error", "E"),
			Save:       b("ctrl+s", "save to file", "ctrl+s"),
			ScrollSide: b("←/→", "scroll sideways", "left", "right"),
			Copy:       b("c", "copy line", "c"),
			Since:      b("0-3", "since all/1m/5m/15m", "0", "1", "2", "3"),
		},
		Editor: EditorKeys{
			Save:        b("ctrl+s", "save version", "ctrl+s"),
			Submit:      b("ctrl+r", "submit", "ctrl+r"),
			Debug:       b("ctrl+d", "debug run", "ctrl+d"),
			External:    b("ctrl+e", "$EDITOR", "ctrl+e"),
			Versions:    b("ctrl+o", "versions", "ctrl+o"),
			Find:        b("ctrl+f", "find", "ctrl+f"),
			FindNext:    b("ctrl+n", "next match", "ctrl+n"),
			FindPrev:    b("ctrl+p", "prev match", "ctrl+p"),
			NextProblem: b("ctrl+g", "next problem", "ctrl+g"),
			Undo:        b("ctrl+z", "undo", "ctrl+z"),
			Redo:        b("ctrl+y", "redo", "ctrl+y", "ctrl+shift+z"),
			SelectAll:   b("ctrl+a", "select all", "ctrl+a"),
			Copy:        b("alt+c", "copy", "alt+c", "alt+w"),
			Cut:         b("ctrl+x", "cut", "ctrl+x"),
			Paste:       b("ctrl+v", "paste", "ctrl+v"),
			Help:        b("f1", "help", "f1"),
			Back:        b("esc", "back", "esc"),
			Complete:    b("tab/ctrl+space", "complete (after a word)", "ctrl+space", "ctrl+@"),
		},
		Text: TextKeys{
			Left:              b("←", "left", "left", "shift+left"),
			Right:             b("→", "right", "right", "shift+right"),
			Up:                b("↑", "up", "up", "shift+up"),
			Down:              b("↓", "down", "down", "shift+down"),
			WordLeft:          b("ctrl+←", "word left", "ctrl+left", "alt+left", "alt+b", "ctrl+shift+left", "alt+shift+left"),
			WordRight:         b("ctrl+→", "word right", "ctrl+right", "alt+right", "alt+f", "ctrl+shift+right", "alt+shift+right"),
			Home:              b("home", "line start", "home", "shift+home"),
			End:               b("end", "line end", "end", "shift+end"),
			DocStart:          b("ctrl+home", "top", "ctrl+home", "ctrl+shift+home"),
			DocEnd:            b("ctrl+end", "bottom", "ctrl+end", "ctrl+shift+end"),
			PageUp:            b("pgup", "page up", "pgup", "shift+pgup"),
			PageDown:          b("pgdn", "page down", "pgdown", "shift+pgdown"),
			Select:            b("shift+move", "select", "shift+left"),
			Newline:           b("enter", "new line", "enter"),
			Backspace:         b("backspace", "delete left", "backspace", "ctrl+h"),
			Delete:            b("delete", "delete right", "delete"),
			DeleteWord:        b("ctrl+w", "delete word left", "ctrl+w", "alt+backspace", "ctrl+backspace"),
			DeleteWordForward: b("alt+d", "delete word right", "alt+d", "ctrl+delete"),
			Indent:            b("tab", "indent", "tab"),
			Dedent:            b("shift+tab", "dedent", "shift+tab"),
		},
		Versions: VersionKeys{
			Diff:     b("enter", "diff", "enter"),
			Mark:     b("space", "compare with…", "space"),
			Open:     b("o", "open in editor", "o"),
			DiffMode: b("v", "unified/side by side", "v"),
		},
		Debug: DebugKeys{
			Again:  b("ctrl+d", "run again", "ctrl+d"),
			Cancel: b("esc", "cancel run", "esc", "ctrl+c"),
			Run:    b("ctrl+d", "run", "ctrl+d"),
			Final:  b("f", "final table / changelog", "f"),
		},
		Diag: DiagKeys{
			OpenVertex:      b("enter", "open vertex", "enter"),
			OpenSubtask:     b("enter", "its TaskManager", "enter"),
			OpenCheckpoint:  b("enter", "open checkpoint", "enter"),
			OpenTaskManager: b("enter", "open TaskManager", "enter"),
			Layout:          b("v", "layout", "v"),
			Flame:           b("f", "flame graph", "f"),
			FlameType:       b("t", "on-CPU/off-CPU/full", "t"),
			ZoomIn:          b("enter", "zoom in", "enter"),
			ZoomOut:         b("esc/bksp", "zoom out", "esc", "backspace"),
			ThreadDump:      b("t", "thread dump", "t"),
			TaskManagerLog:  b("l", "TaskManager log", "l"),
			Config:          b("c", "Flink config", "c"),
			FailureLog:      b("L", "log at failure", "L"),
			Chain:           b("enter", "expand/fold", "enter"),
		},
		Charts: ChartKeys{
			Add:     b("a/enter", "chart it", "a", "enter"),
			Remove:  b("d", "remove chart", "d"),
			Agg:     b("s", "sum/max/min/avg", "s"),
			Charted: b("c", "charted only", "c"),
		},
		Build: BuildKeys{
			Start:  b("b", "build", "b"),
			Cancel: b("x", "cancel build", "x"),
		},
		Form: FormKeys{
			Toggle:    b("←/→", "choose", "left", "right", "h", "l", "tab", "shift+tab"),
			Confirm:   b("enter", "do it", "enter"),
			Cancel:    b("esc", "cancel", "esc"),
			NextField: b("tab", "next field", "tab"),
			PrevField: b("shift+tab", "prev field", "shift+tab"),
			Submit:    b("ctrl+s", "create", "ctrl+s"),
			Complete:  b("tab", "complete", "tab"),

			Older:       b("o", "another restore point", "o"),
			NonRestored: b("n", "allow non-restored state", "n"),
			EditJob:     b("e", "edit the SQL first", "e"),
		},
	}
}

// AllKeys is the keymap with every key enabled, to recognise a key that a
// screen has disabled, so that it can say why nothing happens.
var AllKeys = NewKeyMap()

// SetReadOnly blocks, when readOnly, every key that changes something: the
// actions on jobs, creating and adopting jobs, saving and submitting SQL.
// Blocked, they are hidden from the footer and the help and match no key.
func (k *KeyMap) SetReadOnly(readOnly bool) {
	a := AllKeys
	for _, b := range []struct {
		key  *key.Binding
		twin key.Binding
		why  string
	}{
		{&k.Action.Pause, a.Action.Pause, "read-only: actions are disabled"},
		{&k.Action.Kill, a.Action.Kill, "read-only: actions are disabled"},
		{&k.Action.Delete, a.Action.Delete, "read-only: actions are disabled"},
		{&k.Action.Restart, a.Action.Restart, "read-only: actions are disabled"},
		{&k.Action.Resubmit, a.Action.Resubmit, "read-only: actions are disabled"},
		{&k.Action.Savepoint, a.Action.Savepoint, "read-only: actions are disabled"},
		{&k.Detail.Restore, a.Detail.Restore, "read-only: actions are disabled"},
		{&k.Jobs.Create, a.Jobs.Create, ""},
		{&k.Cluster.Adopt, a.Cluster.Adopt, "read-only: adopting is disabled"},
		{&k.Cluster.Mark, a.Cluster.Mark, "read-only: adopting is disabled"},
		{&k.Cluster.MarkAll, a.Cluster.MarkAll, "read-only: adopting is disabled"},
		{&k.Catalog.EditTable, a.Catalog.EditTable, "read-only: the catalog cannot be changed"},
		{&k.Catalog.SetVar, a.Catalog.SetVar, "read-only: variables cannot be changed"},
		{&k.Catalog.EditVar, a.Catalog.EditVar, "read-only: variables cannot be changed"},
		{&k.Catalog.UnsetVar, a.Catalog.UnsetVar, "read-only: variables cannot be changed"},
		{&k.Alerts.Ack, a.Alerts.Ack, "read-only: alerts cannot be acknowledged or silenced"},
		{&k.Alerts.Silence, a.Alerts.Silence, "read-only: alerts cannot be acknowledged or silenced"},
		{&k.Alerts.Unsilence, a.Alerts.Unsilence, "read-only: alerts cannot be acknowledged or silenced"},
		{&k.Alerts.Undo, a.Alerts.Undo, "read-only: alerts cannot be acknowledged or silenced"},
		{&k.Editor.Save, a.Editor.Save, "read-only: saving and submitting are disabled"},
		{&k.Editor.Submit, a.Editor.Submit, "read-only: saving and submitting are disabled"},
		{&k.Build.Start, a.Build.Start, "read-only: builds are disabled"},
		{&k.Build.Cancel, a.Build.Cancel, "read-only: builds are disabled"},
		{&k.Charts.Add, a.Charts.Add, "read-only: charts cannot be added or removed"},
		{&k.Charts.Remove, a.Charts.Remove, "read-only: charts cannot be added or removed"},
	} {
		if readOnly {
			k.Block(b.key, b.twin, b.why)
		} else {
			b.key.SetEnabled(true)
		}
	}
}

// Block turns off b, a key of k whose twin is the same key of AllKeys, and
// records why: pressed, Refused says so.
func (k *KeyMap) Block(b *key.Binding, twin key.Binding, why string) {
	b.SetEnabled(false)
	k.blocked = append(k.blocked, blockedKey{twin: twin, why: why})
}

// Refused reports a key that Block turned off, among the keys a screen
// answers to (bindings of AllKeys), and why ("" for a key that says
// nothing).
func (k *KeyMap) Refused(msg tea.KeyPressMsg, among ...key.Binding) (why string, ok bool) {
	if !key.Matches(msg, among...) {
		return "", false
	}
	// Only a key of among counts: another screen's key on the same letter
	// (the cluster's a adopts) is not why this one is off.
	for _, b := range k.blocked {
		if key.Matches(msg, b.twin) && slices.ContainsFunc(among, func(a key.Binding) bool { return sameBinding(a, b.twin) }) {
			return b.why, true
		}
	}
	return "", false
}

// sameBinding reports two bindings of the same keys and help.
func sameBinding(a, b key.Binding) bool {
	return slices.Equal(a.Keys(), b.Keys()) && a.Help() == b.Help()
}

// Bindings lists the global keys, for every view's help.
func (k GlobalKeys) Bindings() []key.Binding {
	return []key.Binding{k.Help, k.Command, k.Back, k.Quit}
}

// Bindings lists the moves every list shares (not Enter and Refresh, whose
// meaning differs by view).
func (k NavKeys) Bindings() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown}
}

// Bindings lists the actions on jobs.
func (k ActionKeys) Bindings() []key.Binding {
	return []key.Binding{k.Pause, k.Kill, k.Delete, k.Restart, k.Resubmit, k.Savepoint}
}
