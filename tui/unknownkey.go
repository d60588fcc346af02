package tui

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui/kit"
)

// unknownKeyHint says in one line what to do instead when a key means
// nothing on screen s (a key none of its bindings, enabled or not, nor the
// global and navigation keys, has), so that a key never does nothing
// silently. It is "" for a key the screen knows.
func unknownKeyHint(k kit.KeyMap, s kit.Screen, msg tea.KeyPressMsg) string {
	if knows(s, k, msg) {
		return ""
	}
	a := kit.AllKeys
	name := msg.String()
	switch {
	case key.Matches(msg, a.Action.Kill, a.Action.Delete):
		return fmt.Sprintf("%s kills a job from the jobs table or a job's detail, not in %s", name, s.Title())
	case kit.IsActionKey(a, msg):
		return fmt.Sprintf("%s: actions on jobs work from the jobs table or a job's detail; ? lists the keys of %s", name, s.Title())
	}
	return fmt.Sprintf("%s does nothing in %s; ? lists its keys", name, s.Title())
}

// knows reports whether msg is a key of s: one of its help's, or a global
// or navigation key. A binding counts enabled or not, because a screen
// says itself why a key it turned off does nothing.
func knows(s kit.Screen, k kit.KeyMap, msg tea.KeyPressMsg) bool {
	name := msg.String()
	has := func(bs ...key.Binding) bool {
		for _, b := range bs {
			if slices.Contains(b.Keys(), name) {
				return true
			}
		}
		return false
	}
	if has(s.ShortHelp()...) || has(k.Global.Bindings()...) || has(k.Global.ForceQuit) || has(k.Nav.Bindings()...) {
		return true
	}
	for _, g := range s.FullHelp() {
		if has(g...) {
			return true
		}
	}
	return false
}
