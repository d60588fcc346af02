package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
)

// keyMap is every key the TUI answers to. Screens match keys only through
// these bindings, and the footer, the `?` help and KeymapMarkdown render from
// the same bindings, so what is documented is what works.
type keyMap struct {
	// Global keys, handled by the root model. ForceQuit works even while a
	// text field has the keyboard; it is documented through Quit.
	Quit      key.Binding
	ForceQuit key.Binding
	Help      key.Binding
	Back      key.Binding
	Command   key.Binding

	// Navigation, shared by every list.
	Up       key.Binding
	Down     key.Binding
	Top      key.Binding
	Bottom   key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Enter    key.Binding
	Refresh  key.Binding

	// Jobs view.
	Filter      key.Binding
	Mark        key.Binding
	ClearMarks  key.Binding
	Sort        key.Binding
	SortReverse key.Binding
	Create      key.Binding

	// Actions on jobs; the dangerous ones are hidden and refused in read-only mode.
	Pause     key.Binding
	Kill      key.Binding
	Restart   key.Binding
	Resubmit  key.Binding
	Savepoint key.Binding
	EditSQL   key.Binding
	Logs      key.Binding
	Metrics   key.Binding

	// Job detail.
	NextTab key.Binding
	PrevTab key.Binding
	RawJSON key.Binding
	Restore key.Binding // enter on a checkpoint: restore from it

	// Cluster view.
	Adopt       key.Binding
	NextCluster key.Binding
	PrevCluster key.Binding

	// The detail's Metrics tab.
	MetricsWindow key.Binding

	// Log viewer, and the detail's Exceptions tab.
	Follow     key.Binding
	Wrap       key.Binding
	Search     key.Binding
	NextMatch  key.Binding
	PrevMatch  key.Binding
	FirstError key.Binding
	SaveLog    key.Binding
	ScrollSide key.Binding
	Fold       key.Binding
	OpenLog    key.Binding

	// SQL editor: commands, then moving (shift extends the selection),
	// then editing. The editor has the keyboard, so its keys are chords.
	EdSave        key.Binding
	EdSubmit      key.Binding
	EdDebug       key.Binding
	EdExternal    key.Binding
	EdVersions    key.Binding
	EdFind        key.Binding
	EdFindNext    key.Binding
	EdFindPrev    key.Binding
	EdNextProblem key.Binding
	EdUndo        key.Binding
	EdRedo        key.Binding
	EdSelectAll   key.Binding
	EdCopy        key.Binding
	EdCut         key.Binding
	EdPaste       key.Binding
	EdHelp        key.Binding
	EdBack        key.Binding
	EdLeft        key.Binding
	EdRight       key.Binding
	EdUp          key.Binding
	EdDown        key.Binding
	EdWordLeft    key.Binding
	EdWordRight   key.Binding
	EdHome        key.Binding
	EdEnd         key.Binding
	EdDocStart    key.Binding
	EdDocEnd      key.Binding
	EdPageUp      key.Binding
	EdPageDown    key.Binding
	EdSelect      key.Binding // documents shift+move; never matched
	EdNewline     key.Binding
	EdBackspace   key.Binding
	EdDelete      key.Binding
	EdDeleteWord  key.Binding
	EdDeleteWordF key.Binding
	EdIndent      key.Binding
	EdDedent      key.Binding

	// SQL versions, their diff, and the debug run.
	VerDiff     key.Binding
	VerMark     key.Binding
	VerOpen     key.Binding
	DiffMode    key.Binding
	DebugAgain  key.Binding
	DebugCancel key.Binding
	FormRun     key.Binding

	// Dialogs and forms.
	Toggle    key.Binding
	Confirm   key.Binding
	Cancel    key.Binding
	NextField key.Binding
	PrevField key.Binding
	Submit    key.Binding
	Complete  key.Binding
}

// newKeyMap builds the keymap. In read-only mode the action keys are
// disabled, which hides them from the footer and help as well.
func newKeyMap(readOnly bool) keyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	k := keyMap{
		Quit:      b("q", "quit", "q", "ctrl+c"),
		ForceQuit: b("ctrl+c", "quit", "ctrl+c"),
		Help:      b("?", "help", "?"),
		Back:      b("esc", "back", "esc"),
		Command:   b(":", "command", ":"),

		Up:       b("↑/k", "up", "up", "k"),
		Down:     b("↓/j", "down", "down", "j"),
		Top:      b("g", "top", "g", "home"),
		Bottom:   b("G", "bottom", "G", "end"),
		PageUp:   b("pgup", "page up", "pgup", "ctrl+b"),
		PageDown: b("pgdn", "page down", "pgdown", "ctrl+f"),
		Enter:    b("enter", "open", "enter"),
		Refresh:  b("ctrl+r", "refresh", "ctrl+r"),

		Filter:      b("/", "filter", "/"),
		Mark:        b("space", "mark", "space"),
		ClearMarks:  b("x", "clear marks", "x"),
		Sort:        b("o", "sort column", "o"),
		SortReverse: b("O", "reverse sort", "O"),
		Create:      b("n", "new job", "n"),

		Pause:     b("p", "pause", "p"),
		Kill:      b("ctrl+k", "kill", "ctrl+k"),
		Restart:   b("r", "restart", "r"),
		Resubmit:  b("R", "resubmit", "R"),
		Savepoint: b("s", "savepoint", "s"),
		EditSQL:   b("e", "SQL", "e"),
		Logs:      b("l", "logs", "l"),
		Metrics:   b("m", "metrics", "m"),

		NextTab: b("tab", "next tab", "tab", "]"),
		PrevTab: b("shift+tab", "prev tab", "shift+tab", "["),
		RawJSON: b("y", "raw JSON", "y"),
		Restore: b("enter", "restore from it", "enter"),

		Adopt:       b("a", "adopt", "a"),
		NextCluster: b("]", "next cluster", "]", "tab"),
		PrevCluster: b("[", "prev cluster", "[", "shift+tab"),

		MetricsWindow: b("t", "5 min / 1 h", "t"),

		Follow:     b("f", "follow", "f"),
		Wrap:       b("w", "wrap", "w"),
		Search:     b("/", "search", "/"),
		NextMatch:  b("n", "next match", "n"),
		PrevMatch:  b("N", "prev match", "N"),
		FirstError: b("E", "first error", "E"),
		SaveLog:    b("ctrl+s", "save to file", "ctrl+s"),
		ScrollSide: b("←/→", "scroll sideways", "left", "right"),
		Fold:       b("enter", "expand/fold", "enter"),
		OpenLog:    b("enter", "open log", "enter"),

		EdSave:        b("ctrl+s", "save version", "ctrl+s"),
		EdSubmit:      b("ctrl+r", "submit", "ctrl+r"),
		EdDebug:       b("ctrl+d", "debug run", "ctrl+d"),
		EdExternal:    b("ctrl+e", "$EDITOR", "ctrl+e"),
		EdVersions:    b("ctrl+o", "versions", "ctrl+o"),
		EdFind:        b("ctrl+f", "find", "ctrl+f"),
		EdFindNext:    b("ctrl+n", "next match", "ctrl+n"),
		EdFindPrev:    b("ctrl+p", "prev match", "ctrl+p"),
		EdNextProblem: b("ctrl+g", "next problem", "ctrl+g"),
		EdUndo:        b("ctrl+z", "undo", "ctrl+z"),
		EdRedo:        b("ctrl+y", "redo", "ctrl+y", "ctrl+shift+z"),
		EdSelectAll:   b("ctrl+a", "select all", "ctrl+a"),
		EdCopy:        b("alt+c", "copy", "alt+c", "alt+w"),
		EdCut:         b("ctrl+x", "cut", "ctrl+x"),
		EdPaste:       b("ctrl+v", "paste", "ctrl+v"),
		EdHelp:        b("f1", "help", "f1"),
		EdBack:        b("esc", "back", "esc"),
		EdLeft:        b("←", "left", "left", "shift+left"),
		EdRight:       b("→", "right", "right", "shift+right"),
		EdUp:          b("↑", "up", "up", "shift+up"),
		EdDown:        b("↓", "down", "down", "shift+down"),
		EdWordLeft:    b("ctrl+←", "word left", "ctrl+left", "alt+left", "alt+b", "ctrl+shift+left", "alt+shift+left"),
		EdWordRight:   b("ctrl+→", "word right", "ctrl+right", "alt+right", "alt+f", "ctrl+shift+right", "alt+shift+right"),
		EdHome:        b("home", "line start", "home", "shift+home"),
		EdEnd:         b("end", "line end", "end", "shift+end"),
		EdDocStart:    b("ctrl+home", "top", "ctrl+home", "ctrl+shift+home"),
		EdDocEnd:      b("ctrl+end", "bottom", "ctrl+end", "ctrl+shift+end"),
		EdPageUp:      b("pgup", "page up", "pgup", "shift+pgup"),
		EdPageDown:    b("pgdn", "page down", "pgdown", "shift+pgdown"),
		EdSelect:      b("shift+move", "select", "shift+left"),
		EdNewline:     b("enter", "new line", "enter"),
		EdBackspace:   b("backspace", "delete left", "backspace", "ctrl+h"),
		EdDelete:      b("delete", "delete right", "delete"),
		EdDeleteWord:  b("ctrl+w", "delete word left", "ctrl+w", "alt+backspace", "ctrl+backspace"),
		EdDeleteWordF: b("alt+d", "delete word right", "alt+d", "ctrl+delete"),
		EdIndent:      b("tab", "indent", "tab"),
		EdDedent:      b("shift+tab", "dedent", "shift+tab"),

		VerDiff:     b("enter", "diff", "enter"),
		VerMark:     b("space", "compare with…", "space"),
		VerOpen:     b("o", "open in editor", "o"),
		DiffMode:    b("v", "unified/side by side", "v"),
		DebugAgain:  b("ctrl+d", "run again", "ctrl+d"),
		DebugCancel: b("esc", "cancel run", "esc", "ctrl+c"),
		FormRun:     b("ctrl+d", "run", "ctrl+d"),

		Toggle:    b("←/→", "choose", "left", "right", "h", "l", "tab", "shift+tab"),
		Confirm:   b("enter", "do it", "enter"),
		Cancel:    b("esc", "cancel", "esc"),
		NextField: b("tab", "next field", "tab"),
		PrevField: b("shift+tab", "prev field", "shift+tab"),
		Submit:    b("ctrl+s", "create", "ctrl+s"),
		Complete:  b("tab", "complete", "tab"),
	}
	if readOnly {
		for _, a := range k.actions() {
			a.SetEnabled(false)
		}
		k.Create.SetEnabled(false)
		k.Adopt.SetEnabled(false)
		k.EdSave.SetEnabled(false)
		k.EdSubmit.SetEnabled(false)
	}
	return k
}

// actions are the keys that change jobs: the ones read-only mode refuses.
func (k *keyMap) actions() []*key.Binding {
	return []*key.Binding{&k.Pause, &k.Kill, &k.Restart, &k.Resubmit, &k.Savepoint}
}

// The help sets below are what each view's footer and `?` show. They are
// methods of the keymap so that KeymapMarkdown documents exactly them.

func (k keyMap) globalHelp() []key.Binding {
	return []key.Binding{k.Help, k.Command, k.Back, k.Quit}
}

func (k keyMap) navHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown}
}

func (k keyMap) actionHelp() []key.Binding {
	return []key.Binding{k.Pause, k.Kill, k.Restart, k.Resubmit, k.Savepoint}
}

func (k keyMap) jobsShort() []key.Binding {
	return []key.Binding{k.Enter, k.Filter, k.Mark, k.Pause, k.Kill, k.Restart, k.Savepoint, k.Metrics, k.Logs}
}

func (k keyMap) jobsFull() [][]key.Binding {
	return [][]key.Binding{
		append(k.navHelp(), k.Enter),
		{k.Filter, k.Sort, k.SortReverse, k.Mark, k.ClearMarks, k.Refresh},
		append(k.actionHelp(), k.Create),
		{k.EditSQL, k.Metrics, k.Logs},
	}
}

func (k keyMap) detailShort() []key.Binding {
	return []key.Binding{k.NextTab, k.Pause, k.Kill, k.Restart, k.Resubmit, k.Savepoint, k.RawJSON}
}

func (k keyMap) detailFull() [][]key.Binding {
	return [][]key.Binding{
		append(k.navHelp(), k.Restore, k.Fold, k.OpenLog),
		{k.NextTab, k.PrevTab, k.RawJSON, k.Refresh},
		k.actionHelp(),
		{k.EditSQL, k.Metrics, k.Logs},
	}
}

func (k keyMap) commandsShort() []key.Binding {
	return []key.Binding{k.Enter, k.Refresh}
}

func (k keyMap) commandsFull() [][]key.Binding {
	return [][]key.Binding{append(k.navHelp(), k.Enter), {k.Refresh}}
}

func (k keyMap) clusterShort() []key.Binding {
	return []key.Binding{k.Adopt, k.NextCluster, k.Refresh}
}

func (k keyMap) clusterFull() [][]key.Binding {
	return [][]key.Binding{k.navHelp(), {k.Adopt, k.NextCluster, k.PrevCluster, k.Refresh}}
}

func (k keyMap) alertsShort() []key.Binding {
	return []key.Binding{k.Enter, k.Refresh}
}

func (k keyMap) alertsFull() [][]key.Binding {
	return [][]key.Binding{append(k.navHelp(), k.Enter), {k.Refresh}}
}

func (k keyMap) logShort() []key.Binding {
	return []key.Binding{k.Follow, k.Search, k.NextMatch, k.PrevMatch, k.FirstError, k.Wrap, k.SaveLog}
}

func (k keyMap) logFull() [][]key.Binding {
	return [][]key.Binding{
		append(k.navHelp(), k.ScrollSide),
		{k.Follow, k.Wrap, k.Refresh},
		{k.Search, k.NextMatch, k.PrevMatch, k.FirstError},
		{k.SaveLog},
	}
}

func (k keyMap) editorShort() []key.Binding {
	return []key.Binding{k.EdSave, k.EdDebug, k.EdExternal, k.EdSubmit, k.EdVersions, k.EdFind, k.EdHelp, k.EdBack}
}

func (k keyMap) editorFull() [][]key.Binding {
	return [][]key.Binding{
		{k.EdSave, k.EdSubmit, k.EdDebug, k.EdExternal, k.EdVersions, k.EdBack},
		{k.EdFind, k.EdFindNext, k.EdFindPrev, k.EdNextProblem, k.EdUndo, k.EdRedo},
		{k.EdSelectAll, k.EdCopy, k.EdCut, k.EdPaste, k.EdSelect, k.EdHelp},
		{k.EdLeft, k.EdRight, k.EdUp, k.EdDown, k.EdWordLeft, k.EdWordRight},
		{k.EdHome, k.EdEnd, k.EdDocStart, k.EdDocEnd, k.EdPageUp, k.EdPageDown},
		{k.EdNewline, k.EdBackspace, k.EdDelete, k.EdDeleteWord, k.EdDeleteWordF, k.EdIndent, k.EdDedent},
	}
}

func (k keyMap) versionsShort() []key.Binding {
	return []key.Binding{k.VerDiff, k.VerMark, k.VerOpen}
}

func (k keyMap) versionsFull() [][]key.Binding {
	return [][]key.Binding{append(k.navHelp(), k.VerDiff, k.VerMark, k.VerOpen)}
}

func (k keyMap) diffShort() []key.Binding {
	return []key.Binding{k.DiffMode, k.Up, k.Down}
}

func (k keyMap) diffFull() [][]key.Binding {
	return [][]key.Binding{append(k.navHelp(), k.DiffMode)}
}

func (k keyMap) debugShort(running bool) []key.Binding {
	if running {
		return []key.Binding{k.DebugCancel, k.Up, k.Down}
	}
	return []key.Binding{k.DebugAgain, k.Up, k.Down}
}

func (k keyMap) debugFull() [][]key.Binding {
	return [][]key.Binding{k.navHelp(), {k.DebugAgain, k.DebugCancel}}
}

func (k keyMap) debugFormShort() []key.Binding {
	return []key.Binding{k.FormRun, k.NextField, k.Cancel}
}

func (k keyMap) textShort() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Top, k.Bottom}
}

func (k keyMap) textFull() [][]key.Binding { return [][]key.Binding{k.navHelp()} }

func (k keyMap) dialogShort() []key.Binding {
	return []key.Binding{k.Toggle, k.Confirm, k.Cancel}
}

func (k keyMap) pickerShort() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Confirm, k.Cancel}
}

func (k keyMap) formShort() []key.Binding {
	return []key.Binding{k.NextField, k.PrevField, k.Toggle, k.Submit, k.Cancel}
}

func (k keyMap) commandLineShort() []key.Binding {
	return []key.Binding{k.Complete, k.Confirm, k.Cancel}
}

// KeymapMarkdown documents every view's keys as Markdown tables, generated
// from the same bindings that handle the keys (for the README's keymap).
// readOnly documents what a read-only session offers.
func KeymapMarkdown(readOnly bool) string {
	k := newKeyMap(readOnly)
	sections := []struct {
		title  string
		groups [][]key.Binding
	}{
		{"Everywhere", [][]key.Binding{k.globalHelp()}},
		{"Jobs (default view)", k.jobsFull()},
		{"Job detail", k.detailFull()},
		{"Metrics tab (`m`)", [][]key.Binding{{k.MetricsWindow, k.Up, k.Down}}},
		{"Log viewer (`l` opens a job's Logs tab, enter a log)", k.logFull()},
		{"SQL editor (`e`, `:sql NAME`)", k.editorFull()},
		{"SQL versions (ctrl+o in the editor)", k.versionsFull()},
		{"Version diff (enter on a version)", k.diffFull()},
		{"Debug run (ctrl+d in the editor)", append(k.debugFull(), k.debugFormShort())},
		{"Commands (`:cmd`)", k.commandsFull()},
		{"Cluster (`:cluster`)", k.clusterFull()},
		{"Alerts (`:alerts`)", k.alertsFull()},
		{"Dialogs", [][]key.Binding{k.dialogShort(), {k.Up, k.Down}}},
		{"Create-job form", [][]key.Binding{k.formShort()}},
		{"Command line (`:`)", [][]key.Binding{k.commandLineShort()}},
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
