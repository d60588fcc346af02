package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/palink/palink/tui/kit"
)

// screen is one view on the root model's stack. Update returns the screen
// itself (or a replacement), so the root needs no type assertions.
//
// The root sends key and paste messages to the top screen only, and every
// other message (results, changes, ticks, the body size as a
// tea.WindowSizeMsg) to every screen on the stack, so a screen below the top
// stays current.
type screen interface {
	Update(msg tea.Msg) (screen, tea.Cmd)
	// View renders the body, exactly as large as the last WindowSizeMsg.
	View() string
	// Title names the screen in the frame and in help.
	Title() string
	// ShortHelp and FullHelp are the footer and the `?` help.
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
	// Capturing reports that a text field has the keyboard, so the root
	// passes every key (even q, : and ?) to the screen.
	Capturing() bool
}

// dialog is a modal box over the current screen: it gets every key until it
// closes by returning a nil dialog.
type dialog interface {
	Update(msg tea.Msg) (dialog, tea.Cmd)
	// View renders the box for a terminal of the given size.
	View(width, height int) string
	ShortHelp() []key.Binding
}

// listNav moves a cursor in a list of n rows shown page rows at a time, for
// every list screen. It answers whether the key was a navigation key.
func listNav(k kit.KeyMap, msg tea.KeyPressMsg, cursor *int, n, page int) bool {
	page = max(page, 1)
	switch {
	case key.Matches(msg, k.Nav.Up):
		*cursor--
	case key.Matches(msg, k.Nav.Down):
		*cursor++
	case key.Matches(msg, k.Nav.Top):
		*cursor = 0
	case key.Matches(msg, k.Nav.Bottom):
		*cursor = n - 1
	case key.Matches(msg, k.Nav.PageUp):
		*cursor -= page
	case key.Matches(msg, k.Nav.PageDown):
		*cursor += page
	default:
		return false
	}
	*cursor = kit.Clamp(*cursor, 0, n-1)
	return true
}
