// Package tui is palink's terminal UI (bubbletea v2): a root model with a
// screen stack, one model per screen and per reusable component, keymaps and
// styles each in one place.
//
// It renders and dispatches only: no I/O of its own. It talks to core.Service
// through tea.Cmds and never imports net/http, bbolt or yarn.
package tui
