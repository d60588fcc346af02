package kit

import (
	"slices"

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

// LineCursor is a cursor over a scrolled list of lines of which only some
// can be selected (the detail's Checkpoints, Commands, Exceptions and Logs
// tabs): it rests only on selectable lines, and where there is none it
// scrolls the text instead. (A viewport scrolls but has no cursor, and a
// list's items cannot be headings and blank lines the cursor skips.)
type LineCursor struct {
	Cursor int // the selected line
	Offset int // the first line on screen
}

// Key moves for a navigation key over the selectable lines sel (indexes
// into n lines, height of them on screen), or scrolls when sel is empty.
// It reports whether msg was a navigation key.
func (c *LineCursor) Key(k KeyMap, msg tea.KeyPressMsg, sel []int, n, height int) bool {
	if len(sel) == 0 {
		return ListNav(k, msg, &c.Offset, max(n-height, 0)+1, height)
	}
	if off := c.Cursor < c.Offset || c.Cursor >= c.Offset+height; off && slices.Contains(sel, c.Cursor) && key.Matches(msg, k.Nav.Up, k.Nav.Down) {
		// The cursor is below what the text shows first (a tab that leads
		// with figures): a step shows it before it moves it.
		c.Offset = ScrollTo(c.Cursor, c.Offset, height, n)
		return true
	}
	pos := max(slices.Index(sel, c.Cursor), 0)
	if !ListNav(k, msg, &pos, len(sel), height) {
		return false
	}
	c.Cursor = sel[pos]
	c.Offset = ScrollTo(c.Cursor, c.Offset, height, n)
	return true
}

// On is the selected line: the cursor's, or the first selectable one when
// the cursor rests on none; -1 when no line can be selected.
func (c *LineCursor) On(sel []int) int {
	switch {
	case len(sel) == 0:
		return -1
	case slices.Contains(sel, c.Cursor):
		return c.Cursor
	}
	return sel[0]
}

// Fix puts the cursor on a selectable line and the offset in range, for
// lines that changed since the last move; View calls it.
func (c *LineCursor) Fix(sel []int, n, height int) {
	if on := c.On(sel); on >= 0 {
		c.Cursor = on
	}
	c.Offset = Clamp(c.Offset, 0, max(n-height, 0))
}

// Window is the lines on screen, [from, to).
func (c *LineCursor) Window(n, height int) (from, to int) {
	return c.Offset, min(c.Offset+height, n)
}

// List is a cursor over n rows shown page rows at a time, scrolled so that
// the cursor stays on screen: the rows of the jobs table and of the
// commands, alerts and versions lists. (Not bubbles' table: the screens
// draw their rows with pure row functions that colour single cells, which
// the table's plain string cells and whole-row styles would not keep.)
type List struct {
	Cursor int // the selected row
	Offset int // the first row on screen
}

// Key moves for a navigation key and reports whether msg was one.
func (l *List) Key(k KeyMap, msg tea.KeyPressMsg, n, page int) bool {
	if !ListNav(k, msg, &l.Cursor, n, page) {
		return false
	}
	l.Offset = ScrollTo(l.Cursor, l.Offset, page, n)
	return true
}

// Follow is where a cursor goes when the rows change from prev to rows: to
// the row of the item it was on (by id); when that item is gone or
// filtered out, to the nearest of its old neighbours still shown, the one
// below first (it takes the item's place); with nothing to go by, it stays
// in range. So a row that arrives above the cursor never moves it onto
// another item, and a key acts on what the user chose.
func Follow[T any](prev []T, cursor int, rows []T, id func(T) string) int {
	if cursor < 0 || cursor >= len(prev) || len(rows) == 0 {
		return Clamp(cursor, 0, len(rows)-1)
	}
	was := id(prev[cursor])
	if i := slices.IndexFunc(rows, func(r T) bool { return id(r) == was }); i >= 0 {
		return i
	}
	at := make(map[string]int, len(rows))
	for i, r := range rows {
		at[id(r)] = i
	}
	for d := 1; d < len(prev); d++ {
		if i := cursor + d; i < len(prev) {
			if r, ok := at[id(prev[i])]; ok {
				return r
			}
		}
		if i := cursor - d; i >= 0 {
			if r, ok := at[id(prev[i])]; ok {
				return r
			}
		}
	}
	return Clamp(cursor, 0, len(rows)-1)
}

// Fit keeps the cursor on one of n rows, and on screen.
func (l *List) Fit(n, page int) {
	l.Cursor = Clamp(l.Cursor, 0, n-1)
	l.Offset = ScrollTo(l.Cursor, l.Offset, page, n)
}
