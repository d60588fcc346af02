package kit

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
)

// Pager scrolls lines a page at a time with the NavKeys: a bubbles
// viewport holds the offset and does the moves. It does not draw: its
// owner draws Window's lines in a Box, which fits each line with "…"
// where a viewport would cut it.
type Pager struct {
	vp viewport.Model
}

// NewPager makes an empty pager.
func NewPager() Pager { return Pager{vp: viewport.New()} }

// SetSize sets the width and the rows on screen (at least one), keeping
// the offset in range.
func (p *Pager) SetSize(width, rows int) {
	p.vp.SetWidth(max(width, 1))
	p.vp.SetHeight(max(rows, 1))
	p.vp.SetYOffset(p.vp.YOffset())
}

// SetLines replaces the lines, keeping the offset in range.
func (p *Pager) SetLines(lines []string) {
	p.vp.SetContentLines(lines)
	p.vp.SetYOffset(p.vp.YOffset())
}

// Key scrolls for a navigation key and reports whether msg was one.
func (p *Pager) Key(k NavKeys, msg tea.KeyPressMsg) bool {
	switch {
	case key.Matches(msg, k.Up):
		p.vp.ScrollUp(1)
	case key.Matches(msg, k.Down):
		p.vp.ScrollDown(1)
	case key.Matches(msg, k.Top):
		p.vp.GotoTop()
	case key.Matches(msg, k.Bottom):
		p.vp.GotoBottom()
	case key.Matches(msg, k.PageUp):
		p.vp.PageUp()
	case key.Matches(msg, k.PageDown):
		p.vp.PageDown()
	default:
		return false
	}
	return true
}

// Offset is the first line on screen.
func (p *Pager) Offset() int { return p.vp.YOffset() }

// Window is the lines on screen of n, [from, to).
func (p *Pager) Window(n int) (from, to int) {
	from = min(p.vp.YOffset(), n)
	return from, min(from+p.vp.Height(), n)
}

// AtEnd reports that the last line is on screen.
func (p *Pager) AtEnd() bool { return p.vp.AtBottom() }

// ToEnd scrolls to the last page.
func (p *Pager) ToEnd() { p.vp.GotoBottom() }

// ToTop scrolls to the first line.
func (p *Pager) ToTop() { p.vp.GotoTop() }
