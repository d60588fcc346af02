package kit

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Clamp limits v to [lo, hi]; when hi < lo, lo wins.
func Clamp(v, lo, hi int) int {
	if v > hi {
		v = hi
	}
	if v < lo {
		v = lo
	}
	return v
}

// ScrollTo keeps cursor within the window [offset, offset+page).
func ScrollTo(cursor, offset, page, n int) int {
	if page <= 0 {
		return 0
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+page {
		offset = cursor - page + 1
	}
	return Clamp(offset, 0, max(n-page, 0))
}

// ListNav moves a cursor in a list of n rows shown page rows at a time, for
// every list screen. It answers whether the key was a navigation key.
func ListNav(k KeyMap, msg tea.KeyPressMsg, cursor *int, n, page int) bool {
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
	*cursor = Clamp(*cursor, 0, n-1)
	return true
}
