package dag

import (
	"strings"

	"github.com/palink/palink/tui/kit"
)

// Options shape a layout.
type Options struct {
	// Width is the room across, in cells; 0 is unbounded: left to right,
	// with the widest boxes.
	Width int
	// Mode forces a layout, even one wider than Width; Auto picks the
	// first of left to right, top down and the list that fits.
	Mode Mode
}

// Drawing is a graph laid out: boxes, edges and labels on a canvas that may
// be larger than the screen, ready to render any part of it. It holds no
// styles and no cursor, so one layout serves every frame until the graph or
// the width changes.
type Drawing struct {
	mode    Mode
	w, h    int
	verts   []Vertex
	ids     map[string]int
	self    []bool
	dropped int
	inner   int

	boxes  []Rect // per vertex
	lines  []polyline
	marks  []mark
	labels []text
	texts  []text // the list's lines under each box

	// Navigation, in layout direction (a back edge counts backwards).
	layer    []int   // per vertex
	rows     [][]int // vertices by layer, in order
	seq      []int   // every vertex, layer by layer
	up, down [][]int // per vertex, its neighbours upstream and downstream
}

type polyline struct {
	pts  [][2]int // x, y
	back bool
}

// mark is a single glyph: an arrowhead, or the tee where an edge leaves a
// box.
type mark struct {
	x, y  int
	glyph string
	role  role
	on    int // the vertex whose border a tee sits on, -1 for an arrowhead
}

// text is a run of characters; onlyEmpty stops it at the first cell already
// drawn, for labels beside lines.
type text struct {
	x, y, max int
	s         string
	role      role
	onlyEmpty bool
}

// Layout lays the graph out for a width. It is pure: the same graph and
// options give the same drawing.
func Layout(g Graph, o Options) *Drawing {
	lg := build(g)
	if lg.n() == 0 {
		return lg.newDrawing(List)
	}
	switch o.Mode {
	case LeftRight:
		return lg.leftRight(o.Width, true)
	case TopDown:
		return lg.topDown(o.Width, true)
	case List:
		return lg.list(o.Width)
	}
	if d := lg.leftRight(o.Width, false); d != nil {
		return d
	}
	if d := lg.topDown(o.Width, false); d != nil {
		return d
	}
	return lg.list(o.Width)
}

// Mode is the layout the drawing uses, never Auto.
func (d *Drawing) Mode() Mode { return d.mode }

// Size is the whole canvas, in cells.
func (d *Drawing) Size() (w, h int) { return d.w, d.h }

// Dropped counts the edges left out because they named no known vertex.
func (d *Drawing) Dropped() int { return d.dropped }

// Box is where a vertex's box sits on the canvas.
func (d *Drawing) Box(id string) (Rect, bool) {
	v, ok := d.ids[id]
	if !ok {
		return Rect{}, false
	}
	return d.boxes[v], true
}

// widest is the text width that shows every box whole, up to maxInner;
// titles count without their argument lists, which shorten drops first.
func (lg *layered) widest() int {
	w := 1
	for _, v := range lg.verts {
		w = max(w, kit.Width(stripArgs(v.Title)))
		for _, l := range v.Lines {
			w = max(w, kit.Width(l.Text))
		}
	}
	return min(w, maxInner)
}

func (lg *layered) newDrawing(m Mode) *Drawing {
	n := lg.n()
	d := &Drawing{
		mode: m, verts: lg.verts, ids: lg.ids, self: lg.self, dropped: lg.dropped,
		boxes: make([]Rect, n), layer: make([]int, n),
		up: make([][]int, n), down: make([][]int, n),
	}
	for _, layer := range lg.layers {
		var row []int
		for _, v := range layer {
			if !lg.isDummy(v) {
				d.layer[v] = len(d.rows)
				row = append(row, v)
			}
		}
		if len(row) > 0 {
			d.rows = append(d.rows, row)
			d.seq = append(d.seq, row...)
		}
	}
	for _, l := range lg.links {
		a, b := l.ends()
		d.down[a] = appendNew(d.down[a], b)
		d.up[b] = appendNew(d.up[b], a)
	}
	return d
}

func appendNew(s []int, v int) []int {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// leftRight lays the layers out as columns, with the widest boxes that fit:
// labels are shortened (FORWARD to FWD) when that buys wider boxes. It
// returns nil when even minInnerLR does not fit, unless forced.
func (lg *layered) leftRight(width int, force bool) *Drawing {
	want := lg.widest()
	g := newGeom(lg, true, want, 0)
	try := func(short bool) (int, []int) {
		lw := g.labelWidths(short)
		if width <= 0 {
			return want, lw
		}
		sum := 0
		for _, s := range g.gapSizes(lw) {
			sum += s
		}
		return min(want, (width-sum)/len(lg.layers)-boxPad), lw
	}
	inner, lw := try(false)
	short := false
	if inner < want {
		if i, l := try(true); i > inner {
			inner, lw, short = i, l, true
		}
	}
	if need := min(want, minInnerLR); inner < need {
		if !force {
			return nil
		}
		inner = need
	}
	g.inner = inner
	for i := range g.thick {
		g.thick[i] = inner + boxPad
	}
	return g.drawing(lw, short)
}

// topDown lays the layers out as rows, with boxes narrow enough that the
// widest row fits; nil when that is under minInnerTB, unless forced.
func (lg *layered) topDown(width int, force bool) *Drawing {
	want := lg.widest()
	inner := want
	if width > 0 {
		for _, layer := range lg.layers {
			boxes, rest := 0, 0 // rest: the dummies' columns and the spacing
			for j, v := range layer {
				if lg.isDummy(v) {
					rest++
				} else {
					boxes++
				}
				if j > 0 {
					rest++
					if !lg.isDummy(v) && !lg.isDummy(layer[j-1]) {
						rest++
					}
				}
			}
			if boxes > 0 {
				inner = min(inner, (width-rest)/boxes-boxPad)
			}
		}
	}
	if need := min(want, minInnerTB); inner < need {
		if !force {
			return nil
		}
		inner = need
	}
	g := newGeom(lg, false, inner, width)
	return g.drawing(g.labelWidths(true), true)
}

// labelWidths is the widest label entering each gap's targets.
func (g *geom) labelWidths(short bool) []int {
	lw := make([]int, len(g.tracks))
	for li, l := range g.lg.links {
		if l.label == "" {
			continue
		}
		last := g.segs[g.first[li]+len(l.chain)-2]
		k := g.lg.layer[last.a]
		lw[k] = max(lw[k], kit.Width(labelText(l.label, short)))
	}
	return lw
}

// gapSizes is each gap's extent along the layers: a stub out of the box,
// the lanes, then left to right a stub and the label, top down a row for
// the label beside the line (the stub's, when no hop turns), and the
// arrowhead.
func (g *geom) gapSizes(lw []int) []int {
	out := make([]int, len(g.tracks))
	for k, t := range g.tracks {
		switch {
		case g.lr && lw[k] > 0:
			out[k] = t + 3 + lw[k] + 1
		case g.lr:
			out[k] = t + 3
		case lw[k] > 0 && t > 0: // top down, the label goes beside the line
			out[k] = t + 3
		default: // on the stub's row when nothing turns
			out[k] = t + 2
		}
	}
	return out
}

// Glyphs of edge ends, by layout: left to right, top down.
var (
	teeOut  = [2]string{"├", "┬"}
	arrowIn = [2]string{"►", "▼"}
	arrowBk = [2]string{"◄", "▲"}
	teeBack = [2]string{"┤", "┴"}
)

// drawing turns a geom into boxes, polylines, ends and labels on the
// canvas.
func (g *geom) drawing(lw []int, short bool) *Drawing {
	lg := g.lg
	mode, axis := LeftRight, 0
	if !g.lr {
		mode, axis = TopDown, 1
	}
	d := lg.newDrawing(mode)
	d.inner = g.inner
	gaps := g.gapSizes(lw)
	at := make([]int, len(lg.layers)) // each layer's start along the layers
	for k := 1; k < len(at); k++ {
		at[k] = at[k-1] + g.thick[k-1] + gaps[k-1]
	}
	xy := func(p pt) [2]int {
		if g.lr {
			return [2]int{p.p, p.q}
		}
		return [2]int{p.q, p.p}
	}
	boxW := g.inner + boxPad
	for v := range lg.verts {
		k := lg.layer[v]
		if g.lr {
			d.boxes[v] = Rect{X: at[k], Y: g.q[v], W: boxW, H: g.size[v]}
		} else {
			d.boxes[v] = Rect{X: g.q[v], Y: at[k], W: boxW, H: g.thick[k]}
		}
	}
	for li, l := range lg.links {
		var pts []pt
		var last seg
		for k := range len(l.chain) - 1 {
			s := g.segs[g.first[li]+k]
			gk := lg.layer[s.a]
			start, end := at[gk]+g.thick[gk], at[gk+1]-1
			if k == 0 {
				pts = append(pts, pt{start - 1, s.qa})
			}
			if s.track >= 0 {
				turn := start + 1 + s.track
				pts = append(pts, pt{turn, s.qa}, pt{turn, s.qb})
			}
			pts = append(pts, pt{end, s.qb})
			if lg.isDummy(s.b) {
				pts = append(pts, pt{at[gk+1] + g.thick[gk+1] - 1, s.qb})
			}
			last = s
		}
		pl := polyline{back: l.back}
		for _, p := range pts {
			pl.pts = append(pl.pts, xy(p))
		}
		d.lines = append(d.lines, pl)
		first, end := pts[0], pts[len(pts)-1]
		at := func(p pt, glyph string, r role, on int) mark {
			c := xy(p)
			return mark{x: c[0], y: c[1], glyph: glyph, role: r, on: on}
		}
		if l.back {
			d.marks = append(d.marks,
				at(pt{first.p + 1, first.q}, arrowBk[axis], roleBack, -1),
				at(pt{end.p + 1, end.q}, teeBack[axis], roleBack, l.from))
		} else {
			d.marks = append(d.marks,
				at(first, teeOut[axis], roleEdge, l.from),
				at(end, arrowIn[axis], roleEdge, -1))
		}
		if l.label == "" {
			continue
		}
		s := labelText(l.label, short)
		if g.lr {
			w := kit.Width(s)
			d.labels = append(d.labels, text{x: end.p - 1 - w, y: last.qb, max: w, s: s, role: roleLabel})
		} else {
			d.labels = append(d.labels, text{x: last.qb + 2, y: end.p - 1, max: maxLabel, s: s, role: roleLabel, onlyEmpty: true})
		}
	}
	for _, b := range d.boxes {
		d.w, d.h = max(d.w, b.X+b.W), max(d.h, b.Y+b.H)
	}
	return d
}

// list is the last resort: the boxes one under another, layer by layer,
// each with where its edges come from (◄─) and go (─►) beside it, or under
// it when the screen is too narrow for both.
func (lg *layered) list(width int) *Drawing {
	d := lg.newDrawing(List)
	inner := lg.widest()
	if width > 0 {
		inner = max(min(inner, width-boxPad), 1)
	}
	d.inner = inner
	boxW := inner + boxPad
	beside := width <= 0 || width-boxW-1 >= minInnerLR+8
	ins := make([][]int, lg.n())
	outs := make([][]int, lg.n())
	for li, l := range lg.links {
		ins[l.to] = append(ins[l.to], li)
		outs[l.from] = append(outs[l.from], li)
	}
	y := 0
	for _, v := range d.seq {
		h := boxHeight(lg.verts[v])
		d.boxes[v] = Rect{X: 0, Y: y, W: boxW, H: h}
		ex, ey := 1, y+h
		if beside {
			ex, ey = boxW+1, y+1
		}
		room := width - ex - 3
		if width <= 0 {
			room = maxInner + maxLabel + 2
		}
		n := 0
		add := func(li int, in bool) {
			l := lg.links[li]
			glyph, r, other := "─►", roleEdge, l.to
			if in {
				glyph, other = "◄─", l.from
			}
			if l.back {
				glyph, r = "↺ ", roleBack
			}
			label := labelText(l.label, false)
			title := shorten(lg.verts[other].Title, max(room-kit.Width(label)-2, room/2))
			d.texts = append(d.texts,
				text{x: ex, y: ey + n, max: 2, s: glyph, role: r},
				text{x: ex + 3, y: ey + n, max: room, s: title, role: roleNormal})
			end := ex + 3 + kit.Width(title)
			if label != "" {
				d.texts = append(d.texts, text{x: end + 2, y: ey + n, max: max(room-kit.Width(title)-2, 0), s: label, role: roleLabel})
				end += 2 + kit.Width(label)
			}
			d.w = max(d.w, min(end, max(width, boxW)))
			n++
		}
		for _, li := range ins[v] {
			add(li, true)
		}
		for _, li := range outs[v] {
			add(li, false)
		}
		d.w = max(d.w, boxW)
		if beside {
			y += max(h, 1+n) + 1
		} else {
			y += h + max(n, 1)
		}
	}
	d.h = y
	return d
}

var shortLabels = map[string]string{
	"FORWARD": "FWD", "REBALANCE": "REBAL", "RESCALE": "RESC", "BROADCAST": "BCAST",
	"SHUFFLE": "SHUF", "GLOBAL": "GLOB", "CUSTOM": "CUST", "HASH": "HASH",
}

// labelText is a ship strategy as drawn: Flink's known ones shortened when
// asked, anything else cut to fit.
func labelText(s string, short bool) string {
	s = strings.TrimSpace(s)
	if !short {
		return kit.Truncate(s, maxLabel)
	}
	if v, ok := shortLabels[strings.ToUpper(s)]; ok {
		return v
	}
	return kit.Truncate(s, 5)
}

const maxLabel = 12
