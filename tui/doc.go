// Package tui is palink's terminal UI (bubbletea v2): a root model with a
// screen stack (jobs, job detail, log viewer, commands, cluster, help, text), dialogs
// over it (confirm, resubmit, adopt), one file per screen and component,
// keymaps in keys.go and styles in styles.go.
//
// Entry points: Run opens the UI on a terminal; New builds the root model
// for a caller that runs its own tea.Program; KeymapMarkdown documents the
// keys for the README.
//
// It renders and dispatches only: no I/O of its own. Every call to
// api.Service is a tea.Cmd, and changes arrive through Service.Watch as
// messages. It imports neither net/http, bbolt, store nor yarn; it reaches
// them only through core (TestImportBoundary).
//
// Tests: golden files of every view at 120×40 and 80×24 (go test ./tui
// -update rewrites them), Update tests that drive the root model with keys
// against an in-memory fake service, teatest scenarios, and e2e/e2e.sh,
// which drives `palink demo` in tmux.
package tui
