package logview

import (
	"charm.land/bubbles/v2/key"

	"github.com/palink/palink/tui/kit"
)

// shortHelp is the footer's keys.
func shortHelp(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Log.Follow, k.Log.Search, k.Log.NextMatch, k.Log.PrevMatch, k.Log.FirstError, k.Log.Copy, k.Log.Wrap, k.Log.Save}
}

// Help is the viewer's keys in groups, for its `?` help and the keymap
// keymap.
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{
		append(k.Nav.Bindings(), k.Log.ScrollSide),
		{k.Log.Follow, k.Log.Wrap, k.Nav.Refresh},
		{k.Log.Search, k.Log.NextMatch, k.Log.PrevMatch, k.Log.FirstError},
		{k.Log.Copy, k.Log.Save},
	}
}
