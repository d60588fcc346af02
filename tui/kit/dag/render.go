package dag

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/tui/kit"
)

// Directions of a line through a cell.
const (
	north uint8 = 1 << iota
	east
	south
	west
)

// lineGlyph and dashGlyph draw a cell by the directions its lines take.
// Edges turn with rounded corners so that they never read as a box's.
var (
	lineGlyph = [16]string{"", "│", "─", "╰", "│", "│", "╭", "├", "─", "╯", "─", "┴", "╮", "┤", "┬", "┼"}
	dashGlyph = [16]string{"", "╎", "╌", "╰", "╎", "╎", "╭", "├", "╌", "╯", "╌", "┴", "╮", "┤", "┬", "┼"}
)

type cell struct {
	s     string // a grapheme; "" is blank or a line
	role  role
	mask  uint8
	solid bool // some line through it is a forward edge
	wide  bool // s takes two cells
	cont  bool // the second half of a wide grapheme
}

// canvas is the viewport's cells; writes outside it are dropped, so only
// what shows costs anything.
type canvas struct {
	view  Rect
	cells []cell
}

func (c *canvas) at(x, y int) *cell {
	if !c.view.contains(x, y) {
		return nil
	}
	return &c.cells[(y-c.view.Y)*c.view.W+x-c.view.X]
}

// Render draws the part of the drawing inside view as view.H lines of
// exactly view.W cells. cursor and hot are vertex IDs ("" for none).
func (d *Drawing) Render(st *Styles, view Rect, cursor, hot string) string {
	if view.W <= 0 || view.H <= 0 {
		return ""
	}
	c := &canvas{view: view, cells: make([]cell, view.W*view.H)}
	for _, l := range d.lines {
		c.polyline(l)
	}
	cur, hasCur := d.ids[cursor]
	h, hasHot := d.ids[hot]
	for v, b := range d.boxes {
		if b.X >= view.X+view.W || b.Y >= view.Y+view.H || b.X+b.W <= view.X || b.Y+b.H <= view.Y {
			continue
		}
		d.box(c, v, hasCur && v == cur, hasHot && v == h)
	}
	for _, m := range d.marks {
		if p := c.at(m.x, m.y); p != nil {
			g := m.glyph
			if hasCur && m.on == cur {
				g = heavyTee[g]
			}
			*p = cell{s: g, role: m.role}
		}
	}
	for _, t := range d.labels {
		c.text(t)
	}
	for _, t := range d.texts {
		c.text(t)
	}
	return c.string(st.codes())
}

// polyline sets the directions of every cell the line passes.
func (c *canvas) polyline(l polyline) {
	for i := 0; i+1 < len(l.pts); i++ {
		a, b := l.pts[i], l.pts[i+1]
		if a[1] == b[1] { // across
			x0, x1 := min(a[0], b[0]), max(a[0], b[0])
			for x := max(x0, c.view.X); x <= x1 && x < c.view.X+c.view.W; x++ {
				var m uint8
				if x < x1 {
					m |= east
				}
				if x > x0 {
					m |= west
				}
				c.line(x, a[1], m, l.back)
			}
			continue
		}
		y0, y1 := min(a[1], b[1]), max(a[1], b[1])
		for y := max(y0, c.view.Y); y <= y1 && y < c.view.Y+c.view.H; y++ {
			var m uint8
			if y < y1 {
				m |= south
			}
			if y > y0 {
				m |= north
			}
			c.line(a[0], y, m, l.back)
		}
	}
}

func (c *canvas) line(x, y int, m uint8, back bool) {
	p := c.at(x, y)
	if p == nil || m == 0 {
		return
	}
	p.mask |= m
	p.solid = p.solid || !back
	if p.solid {
		p.role = roleEdge
	} else {
		p.role = roleBack
	}
}

var (
	thinBox  = [6]string{"┌", "┐", "└", "┘", "─", "│"}
	heavyBox = [6]string{"┏", "┓", "┗", "┛", "━", "┃"}
	heavyTee = map[string]string{"├": "┣", "┬": "┳", "┤": "┫", "┴": "┻"}
)

// box draws a vertex: its border (heavy under the cursor, with ⚠ when
// highlighted and ↻ when it feeds itself), its title and its figures.
func (d *Drawing) box(c *canvas, v int, cursor, hot bool) {
	b := d.boxes[v]
	glyphs, border, title := thinBox, roleBorder, roleTitle
	if cursor {
		glyphs, border, title = heavyBox, roleBorderCursor, roleTitleCursor
	}
	if hot {
		border = roleBorderHot
		if !cursor {
			title = roleTitleHot
		}
	}
	for y := b.Y; y < b.Y+b.H; y++ {
		for x := b.X; x < b.X+b.W; x++ {
			p := c.at(x, y)
			if p == nil {
				continue
			}
			var g string
			switch {
			case y == b.Y && x == b.X:
				g = glyphs[0]
			case y == b.Y && x == b.X+b.W-1:
				g = glyphs[1]
			case y == b.Y+b.H-1 && x == b.X:
				g = glyphs[2]
			case y == b.Y+b.H-1 && x == b.X+b.W-1:
				g = glyphs[3]
			case y == b.Y || y == b.Y+b.H-1:
				g = glyphs[4]
			case x == b.X || x == b.X+b.W-1:
				g = glyphs[5]
			}
			*p = cell{s: g, role: border}
			if g == "" && y == b.Y+1 && cursor {
				p.role = title // the whole title row reversed, like a list's cursor
			}
		}
	}
	if hot && b.W >= 5 {
		c.text(text{x: b.X + 2, y: b.Y, max: 1, s: "⚠", role: border})
	}
	if d.self[v] && b.W >= 7 {
		c.text(text{x: b.X + b.W - 3, y: b.Y, max: 1, s: "↻", role: border})
	}
	inner := b.W - boxPad
	vx := d.verts[v]
	c.text(text{x: b.X + 2, y: b.Y + 1, max: inner, s: shorten(vx.Title, inner), role: title})
	for i, l := range vx.Lines {
		if i+2 >= b.H-1 {
			break
		}
		c.text(text{x: b.X + 2, y: b.Y + 2 + i, max: inner, s: kit.Truncate(l.Text, inner), role: toneRole(l.Tone)})
	}
}

// text writes graphemes from (t.x, t.y), at most t.max cells.
func (c *canvas) text(t text) {
	if t.y < c.view.Y || t.y >= c.view.Y+c.view.H {
		return
	}
	s := t.s
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = ansi.Strip(s)
	}
	if t.onlyEmpty {
		room := 0
		for room < t.max && c.empty(t.x+room, t.y, 1) {
			room++
		}
		if room < 2 {
			return
		}
		s, t.onlyEmpty = kit.Truncate(s, room), false
	}
	w := 0
	for len(s) > 0 {
		g, gw := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		s = s[len(g):]
		if gw == 0 || g == "\n" || g == "\t" {
			continue
		}
		if w+gw > t.max {
			return
		}
		x := t.x + w
		p, q := c.at(x, t.y), c.at(x+1, t.y)
		switch {
		case gw == 1 && p != nil:
			*p = cell{s: g, role: t.role}
		case gw == 2 && p != nil && q != nil:
			*p = cell{s: g, role: t.role, wide: true}
			*q = cell{cont: true, role: t.role}
		case gw == 2 && p != nil: // half of it would fall outside the view
			*p = cell{s: " ", role: t.role}
		case gw == 2 && q != nil:
			*q = cell{s: " ", role: t.role}
		}
		w += gw
	}
}

func (c *canvas) empty(x, y, w int) bool {
	for i := range w {
		if p := c.at(x+i, y); p != nil && (p.s != "" || p.mask != 0 || p.cont) {
			return false
		}
	}
	return true
}

// string joins the cells into lines, opening a style only where the role
// changes.
func (c *canvas) string(k *codes) string {
	var b strings.Builder
	b.Grow(len(c.cells) * 2)
	for y := range c.view.H {
		if y > 0 {
			b.WriteByte('\n')
		}
		cur := roleNone
		row := c.cells[y*c.view.W : (y+1)*c.view.W]
		for i := range row {
			p := &row[i]
			g := p.s
			switch {
			case p.cont && i > 0 && row[i-1].wide:
				continue
			case p.cont, p.wide && (i+1 == len(row) || !row[i+1].cont):
				g = " " // a wide grapheme half overwritten
			}
			if g == "" && p.mask != 0 {
				if p.solid {
					g = lineGlyph[p.mask]
				} else {
					g = dashGlyph[p.mask]
				}
			}
			r := p.role
			if g == "" {
				g = " "
				if r != roleTitleCursor {
					r = roleNone
				}
			}
			if r != cur {
				b.WriteString(k[cur][1])
				b.WriteString(k[r][0])
				cur = r
			}
			b.WriteString(g)
		}
		b.WriteString(k[cur][1])
	}
	return b.String()
}
