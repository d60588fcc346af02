// Package probe lets the TUI's test harness (internal/tuitest) reach the
// few parts of the root model that tests look at, without widening package
// tui's API: tui fills Of in when it is loaded. Only tests use it.
package probe

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// App is the root model as a test sees it.
type App interface {
	// Swap replaces the Cmds that wait (timers and the change stream's
	// reads), so that a test runs every other Cmd synchronously.
	Swap(after kit.TimerFunc, read func(ctx context.Context, ch <-chan api.Change, gen int) tea.Cmd)
	// Top is the screen on top of the stack.
	Top() kit.Screen
	// Dialog is the dialog over it, or nil.
	Dialog() kit.Dialog
	// Flash is the flash line's text; ClearFlash clears it.
	Flash() string
	ClearFlash()
	// WatchGen is the change stream's generation, for a test's changes.
	WatchGen() int
	// Render is the whole frame.
	Render() string
	// Tick is the clock's message that it is now.
	Tick(now time.Time) tea.Msg
	// Table is the jobs table at the bottom of the stack.
	Table() kit.Screen
	// SelectedJob is the name of the job under the jobs table's cursor,
	// and Jobs the number of rows the table shows.
	SelectedJob() string
	Jobs() int
}

// Of is the probe of a root model (a *tui.Model); tui sets it.
var Of func(m tea.Model) App
