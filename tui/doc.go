// Package tui is palink's terminal UI (bubbletea v2). This package is the
// root: the Model that owns the terminal size, the global keys, the stack
// of screens (the jobs table at the bottom) with a dialog over it, the `:`
// command line, the header (version, context, user, clusters, counts,
// clock), footer and flash line (frame.go, header.go), the hint for a key
// a view does not know (unknownkey.go), the change stream (stream.go), the action flow — plan, confirm, act — that every
// screen starts with a message (actions.go, confirm.go, resubmit.go), and
// the interest in the jobs on screen and the alert badge (observe.go).
//
// What the screens share is in tui/kit: the Screen and Dialog interfaces,
// the Env, the keymap in groups, the styles, the flash, the Refresher that
// keeps one load in flight, lists, the pager and the messages a screen
// sends the root to open another (kit.OpenDetailMsg, kit.PushMsg, …). The
// screens are feature packages that import kit and never each other nor
// this package: jobs, detail, diagnose, editor (with sqlview), logview,
// commands, cluster, alerts, projects, tables, create, metrics (the metric browser). The root imports them all; nothing imports the
// root but the CLI.
//
// The root wires one api.Service into the Env; each screen package names
// what it may ask of core in its svc.go, a Service composed of core/api's
// role interfaces (the jobs table: api.JobService), and its Cmds reach
// core only through that (kit.Call[Service]). What a screen needs beside
// core is given to it, never found by asserting a value: the editor's
// debug runs get the debugger, its sample files and its stand-ins apart
// (editor.Debugging, options.go). The root's own calls go through
// appService (svc.go). TestScreensUseTheirService holds the screens to it.
//
// Entry points: Run opens the UI on a terminal; New builds the root model
// for a caller that runs its own tea.Program; KeymapMarkdown documents the
// keys for the README, from the same bindings that handle them.
//
// It renders and dispatches only: no I/O of its own. Every call to
// api.Service is a tea.Cmd, and changes arrive through Service.Watch as
// messages. It imports neither net/http, bbolt, store nor yarn; it reaches
// them only through core (TestImportBoundary).
//
// Tests: golden files of every view at 120×40, 80×24 and 60×20, each in
// the testdata of the package whose view it pins (go test ./tui/...
// -update rewrites them), and a sweep that every view fills every size
// from 40×8 up (TestEveryViewFitsEverySize); Update tests that drive the whole TUI with keys against
// an in-memory fake service (internal/tuitest, internal/apptest); teatest
// scenarios; and e2e/e2e.sh, which drives `palink demo` in tmux.
package tui
