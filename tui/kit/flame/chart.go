package flame

import (
	"strings"

	"github.com/palink/palink/tui/kit"
)

// Kinds of span.
const (
	spanFrame = iota // a frame at least a cell wide
	spanTail         // the callees too narrow to draw, merged: "…░░"
	spanShade        // under a tail, where those callees' callees are
)

// span is a run of cells of one chart row.
type span struct {
	x0, x1 int32
	node   int32
	kind   uint8
	hot    bool
}

// chart is the spans of the rows on screen, each row left to right.
type chart [][]span

// add appends s to a row. A tail narrower than a cell is drawn a cell
// wide, which may overlap the next span: a frame wins over a tail.
func (c chart) add(row int, s span) {
	r := c[row]
	if n := len(r); n > 0 && s.x0 < r[n-1].x1 {
		if last := &r[n-1]; last.kind != spanFrame && s.kind == spanFrame {
			if last.x1 = s.x0; last.x1 <= last.x0 {
				r = r[:n-1]
			}
		} else {
			s.x0 = last.x1
		}
	}
	if s.x0 < s.x1 {
		c[row] = append(r, s)
	} else {
		c[row] = r
	}
}

// place maps a range of samples, from the zoom root's start, to cells.
// Floors of cumulative offsets tile siblings without gaps or overlaps.
func place(off, ext, width, total int64) (x0, x1 int32) {
	return int32(off * width / total), int32((off + ext) * width / total)
}

// layout lays out rows depths of the zoom root's subtree from depth top
// down, width cells wide. It visits only frames at least a cell wide and
// their first callee too narrow to be: the rest of the siblings, sorted
// hottest first, are narrower still, and are drawn as one tail.
func (t *Tree) layout(zoom int32, top, rows, width int) chart {
	c := make(chart, rows)
	total := t.f[zoom].ext
	if total <= 0 || rows <= 0 || width <= 0 {
		return c
	}
	w := int64(width)
	base := t.f[zoom].depth + int32(top)
	type item struct {
		node int32
		off  int64 // samples before it, from the zoom root's start
		hot  bool
		tail bool  // node is the first callee of a tail ending at end
		end  int64 // a tail's end
	}
	stack := []item{{node: zoom, hot: true}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f := &t.f[it.node]
		row := int(f.depth - base)
		if row >= rows {
			continue
		}
		if it.tail {
			x0, x1 := place(it.off, it.end-it.off, w, total)
			x1 = max(x1, x0+1)
			for r := max(row, 0); r < rows && r <= row+int(f.tailH); r++ {
				kind := uint8(spanShade)
				if r == row {
					kind = spanTail
				}
				c.add(r, span{x0: x0, x1: x1, node: it.node, kind: kind})
			}
			continue
		}
		x0, x1 := place(it.off, f.ext, w, total)
		if row >= 0 {
			c.add(row, span{x0: x0, x1: x1, node: it.node, kind: spanFrame, hot: it.hot})
		}
		if row+1 >= rows {
			continue
		}
		ks := t.children(it.node)
		visible := 0
		for visible < len(ks) && t.f[ks[visible]].ext*w >= total {
			visible++
		}
		// Pushed in reverse, so that each row fills left to right: the
		// tail (rightmost) first, then the callees from the last.
		off := it.off
		for _, k := range ks[:visible] {
			off += t.f[k].ext
		}
		if visible < len(ks) {
			stack = append(stack, item{node: ks[visible], off: off, tail: true, end: it.off + f.sub})
		}
		for j := visible - 1; j >= 0; j-- {
			off -= t.f[ks[j]].ext
			stack = append(stack, item{node: ks[j], off: off, hot: it.hot && j == 0})
		}
	}
	return c
}

// row lists the frames at least a cell wide at a depth below the zoom
// root, left to right: where ←/→ go.
func (t *Tree) row(zoom int32, depth int32, width int) []int32 {
	total := t.f[zoom].ext
	if total <= 0 || depth < t.f[zoom].depth {
		return nil
	}
	w := int64(width)
	var out []int32
	stack := []int32{zoom}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t.f[n].depth == depth {
			out = append(out, n)
			continue
		}
		ks := t.children(n)
		for j := len(ks) - 1; j >= 0; j-- {
			if t.f[ks[j]].ext*w >= total {
				stack = append(stack, ks[j])
			}
		}
	}
	return out
}

// visible reports that a frame is drawn at least a cell wide under the
// zoom root: its cells, counted from the zoom root's start.
func (t *Tree) visible(zoom, n int32, width int) bool {
	for p := n; p >= 0; p = t.f[p].parent {
		if p == zoom {
			return t.f[n].ext*int64(width) >= t.f[zoom].ext && t.f[zoom].ext > 0
		}
	}
	return false
}

// paint is a style's opening and closing sequences.
type paint [2]string

// painter holds the sequences of every look of a cell, taken once.
type painter struct {
	frame, hot, narrow [nFamilies]paint
	cursor, match, dim paint
}

// draw writes the chart's rows, width cells each.
func (t *Tree) draw(b *strings.Builder, c chart, width int, p *painter, cursor int32, match []bool) {
	for i, row := range c {
		if i > 0 {
			b.WriteByte('\n')
		}
		x := int32(0)
		for _, s := range row {
			if s.x0 > x {
				b.WriteString(strings.Repeat(" ", int(s.x0-x)))
			}
			t.drawSpan(b, s, p, cursor, match)
			x = s.x1
		}
		if int(x) < width {
			b.WriteString(strings.Repeat(" ", width-int(x)))
		}
	}
}

func (t *Tree) drawSpan(b *strings.Builder, s span, p *painter, cursor int32, match []bool) {
	w := int(s.x1 - s.x0)
	switch s.kind {
	case spanTail:
		b.WriteString(p.dim[0] + "…" + strings.Repeat("░", w-1) + p.dim[1])
		return
	case spanShade:
		b.WriteString(p.dim[0] + strings.Repeat("░", w) + p.dim[1])
		return
	}
	f := &t.f[s.node]
	look := p.frame[f.family]
	if s.hot {
		look = p.hot[f.family]
	}
	if w == 1 {
		look = p.narrow[f.family]
	}
	if match != nil && match[s.node] {
		look = p.match
	}
	if s.node == cursor {
		look = p.cursor
	}
	if w == 1 {
		b.WriteString(look[0] + "▌" + look[1])
		return
	}
	// The last cell stays blank, so that neighbours of one colour part.
	text := label(f.name, w-1)
	b.WriteString(look[0])
	b.WriteString(text)
	b.WriteString(strings.Repeat(" ", w-1-kit.Width(text)))
	b.WriteString(look[1])
	b.WriteByte(' ')
}
