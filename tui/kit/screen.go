package kit

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Screen is one view on the root model's stack. Update returns the screen
// itself (or a replacement), so the root needs no type assertions.
//
// The root sends key and paste messages to the top screen only, and every
// other message (results, changes, ticks, the body size as a
// tea.WindowSizeMsg) to every screen on the stack, so a screen below the top
// stays current.
type Screen interface {
	Update(msg tea.Msg) (Screen, tea.Cmd)
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

// Dialog is a modal box over the current screen: it gets every key until it
// closes by returning a nil Dialog.
type Dialog interface {
	Update(msg tea.Msg) (Dialog, tea.Cmd)
	// View renders the box for a terminal of the given size.
	View(width, height int) string
	ShortHelp() []key.Binding
}

// KeyUpdater is a screen whose state blocks keys (KeyMap.Block): while it
// is on top, the root lets it adapt the session's keymap after every
// message, so that the footer and the help show only what works.
type KeyUpdater interface {
	UpdateKeys(k *KeyMap)
}

// Interrupter is a screen that takes ctrl-c for itself at times: a debug
// run cancels, an editor with unsaved edits warns once. handled false lets
// the root quit.
type Interrupter interface {
	Interrupt() (cmd tea.Cmd, handled bool)
}

// Backer is a screen that takes esc for itself at times, before the root
// closes it: a kept filter is cleared first. handled false lets the root
// close the screen.
type Backer interface {
	Back() (cmd tea.Cmd, handled bool)
}

// Closer is a screen that holds requests in flight: the root calls Close
// when it takes the screen off the stack, which cancels them (a thread
// dump of a slow TaskManager is not worth waiting for once the user has
// left).
type Closer interface {
	Close()
}
