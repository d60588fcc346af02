package logview

import (
	"charm.land/bubbles/v2/key"

	"github.com/palink/palink/tui/kit"
)

// shortHelp is the footer's keys.
func shortHelp(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Log.Filter, k.Log.Follow, k.Log.NextMatch, k.Log.PrevMatch, k.Log.Since, k.Log.FirstError, k.Log.Copy, k.Log.Wrap, k.Log.Save}
}

// filterShow and filterClear are what enter and esc do to a filter.
func filterShow() key.Binding {
	return key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "show filtered line in log"))
}

func filterClear() key.Binding {
	return key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop filter scan, clear filter"))
}

// filterHelp is the footer's keys while the viewer is filtered.
func filterHelp(k kit.KeyMap, scanning bool) []key.Binding {
	esc := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter"))
	if scanning {
		esc = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop scan"))
	}
	show := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "show in log"))
	return []key.Binding{esc, show, k.Log.NextMatch, k.Log.PrevMatch, k.Log.Copy, k.Log.Filter, k.Log.Since, k.Log.Follow, k.Log.Wrap}
}

// Help is the viewer's keys in groups, for its `?` help and the keymap
// keymap.
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{
		append(k.Nav.Bindings(), k.Log.ScrollSide),
		{k.Log.Follow, k.Log.Since, k.Log.Wrap, k.Nav.Refresh},
		{k.Log.Filter, k.Log.NextMatch, k.Log.PrevMatch, k.Log.FirstError},
		{filterShow(), filterClear()},
		{k.Log.Copy, k.Log.Save},
	}
}
