package dag

import (
	"math"
	"slices"
)

// Sizes, in cells.
const (
	maxInner   = 28 // a box's text width when there is room
	minInnerLR = 16 // narrower than this, left to right gives way to top down
	minInnerTB = 12 // and top down to the list
	boxPad     = 4  // two borders and a space each side
	// tbPortStep spaces the edges entering a box from above so that each
	// has room for its label beside it: "│ HASH ".
	tbPortStep = 7
	sweeps     = 3 // rounds of down and up alignment
)

// pt is a point in layout axes: p along the layers (x left to right, y top
// down), q across them.
type pt struct{ p, q int }

// seg is one hop of a link's chain, between adjacent layers.
type seg struct {
	link   int
	a, b   int // nodes
	qa, qb int // ports: where it leaves a and enters b, across the layers
	track  int // the lane of the gap where it turns across; -1 when straight
}

// geom is a layered graph placed in layout axes for one width of boxes.
type geom struct {
	lg     *layered
	lr     bool
	inner  int   // text width of every box
	size   []int // per node, extent across the layers
	q      []int // per node, start across the layers
	segs   []seg // by link, in chain order
	first  []int // per link, its first seg
	tracks []int // per gap, lanes used
	thick  []int // per layer, extent along the layers
}

func boxHeight(v Vertex) int { return 3 + len(v.Lines) }

// newGeom places every node across the layers, then ports and lanes.
// Left to right, none of it depends on the box width, which is why
// leftRight can try several widths over one geom.
func newGeom(lg *layered, lr bool, inner, width int) *geom {
	g := &geom{lg: lg, lr: lr, inner: inner}
	g.size = make([]int, len(lg.layer))
	for v := range g.size {
		switch {
		case lg.isDummy(v):
			g.size[v] = 1
		case lr:
			g.size[v] = boxHeight(lg.verts[v])
		default:
			g.size[v] = inner + boxPad
		}
	}
	g.place(sweeps)
	if !lr && width > 0 && g.extent() > width {
		// Straightening spread a layer wider than the screen: the
		// compact placement fits, as topDown checked.
		g.place(0)
	}
	g.thick = make([]int, len(lg.layers))
	for i, layer := range lg.layers {
		g.thick[i] = 1
		for _, v := range layer {
			switch {
			case lg.isDummy(v):
			case lr:
				g.thick[i] = inner + boxPad
			default:
				g.thick[i] = max(g.thick[i], boxHeight(lg.verts[v]))
			}
		}
	}
	g.ports()
	g.assignTracks()
	return g
}

// spacing is the room between two neighbours of a layer: top down, boxes
// side by side need two columns to read apart.
func (g *geom) spacing(a, b int) int {
	if !g.lr && !g.lg.isDummy(a) && !g.lg.isDummy(b) {
		return 2
	}
	return 1
}

func (g *geom) center(v int) int { return g.q[v] + (g.size[v]-1)/2 }

func (g *geom) extent() int {
	e := 0
	for v, q := range g.q {
		e = max(e, q+g.size[v])
	}
	return e
}

// place stacks each layer centred on the widest, then aligns every node
// with its neighbours, sweeping down and up.
func (g *geom) place(rounds int) {
	lg := g.lg
	g.q = make([]int, len(lg.layer))
	ext := func(layer []int) int {
		e := 0
		for j, v := range layer {
			e += g.size[v]
			if j > 0 {
				e += g.spacing(layer[j-1], v)
			}
		}
		return e
	}
	widest := 0
	for _, layer := range lg.layers {
		widest = max(widest, ext(layer))
	}
	for _, layer := range lg.layers {
		at := (widest - ext(layer)) / 2
		for j, v := range layer {
			if j > 0 {
				at += g.size[layer[j-1]] + g.spacing(layer[j-1], v)
			}
			g.q[v] = at
		}
	}
	var buf []block
	for range rounds {
		for i := 1; i < len(lg.layers); i++ {
			buf = g.align(lg.layers[i], lg.pred, buf)
		}
		for i := len(lg.layers) - 2; i >= 0; i-- {
			buf = g.align(lg.layers[i], lg.succ, buf)
		}
	}
	least := math.MaxInt
	for _, q := range g.q {
		least = min(least, q)
	}
	for v := range g.q {
		g.q[v] -= least
	}
}

// block is a run of a layer's nodes that pool-adjacent-violators merged:
// they sit at their weighted mean, as close to their targets as the order
// and the spacing allow.
type block struct {
	sum, w float64
	n      int
}

func (b block) mean() float64 { return b.sum / b.w }

// align moves a layer's nodes towards the mean centre of their neighbours
// in nb, keeping their order and spacing: minimising the squared distance
// under those constraints is an isotonic regression once each node's
// offset in a compact stack is subtracted, which PAV solves in one pass.
func (g *geom) align(layer []int, nb [][]int, blocks []block) []block {
	blocks = blocks[:0]
	off := 0
	for j, v := range layer {
		if j > 0 {
			off += g.size[layer[j-1]] + g.spacing(layer[j-1], v)
		}
		t, w := float64(g.q[v]), 0.1 // unconnected: stays unless pushed
		if len(nb[v]) > 0 {
			c := 0
			for _, u := range nb[v] {
				c += g.center(u)
			}
			t = float64(c)/float64(len(nb[v])) - float64((g.size[v]-1)/2)
			w = 1
			if g.lg.isDummy(v) {
				w = 2 // long edges run straight before boxes do
			}
		}
		blocks = append(blocks, block{sum: (t - float64(off)) * w, w: w, n: 1})
		for k := len(blocks); k > 1 && blocks[k-2].mean() > blocks[k-1].mean(); k-- {
			blocks[k-2].sum += blocks[k-1].sum
			blocks[k-2].w += blocks[k-1].w
			blocks[k-2].n += blocks[k-1].n
			blocks = blocks[:k-1]
		}
	}
	j, off := 0, 0
	for _, b := range blocks {
		y := int(math.Round(b.mean()))
		for range b.n {
			v := layer[j]
			if j > 0 {
				off += g.size[layer[j-1]] + g.spacing(layer[j-1], v)
			}
			g.q[v] = y + off
			j++
		}
	}
	return blocks
}

// face is where ports may go on a node's sides: inside the border, spread
// apart top down so that labels fit beside them.
func (g *geom) face(v int) (lo, hi, step int) {
	switch {
	case g.lg.isDummy(v):
		return g.q[v], g.q[v], 1
	case g.lr:
		return g.q[v] + 1, g.q[v] + g.size[v] - 2, 1
	}
	return g.q[v] + 2, g.q[v] + g.size[v] - 3, tbPortStep
}

// ports gives every hop its own port on both sides, ordered by where its
// other end sits so that hops leaving one box do not cross each other.
func (g *geom) ports() {
	lg := g.lg
	g.first = make([]int, len(lg.links))
	for li, l := range lg.links {
		g.first[li] = len(g.segs)
		for k := 0; k+1 < len(l.chain); k++ {
			g.segs = append(g.segs, seg{link: li, a: l.chain[k], b: l.chain[k+1], track: -1})
		}
	}
	outs := make([][]int, len(lg.layer))
	ins := make([][]int, len(lg.layer))
	for i, s := range g.segs {
		outs[s.a] = append(outs[s.a], i)
		ins[s.b] = append(ins[s.b], i)
	}
	for v := range outs {
		lo, hi, step := g.face(v)
		g.sortBy(outs[v], func(s seg) int { return g.center(s.b) })
		for j, p := range spread(len(outs[v]), lo, hi, g.center(v), step) {
			g.segs[outs[v][j]].qa = p
		}
		g.sortBy(ins[v], func(s seg) int { return g.center(s.a) })
		for j, p := range spread(len(ins[v]), lo, hi, g.center(v), step) {
			g.segs[ins[v][j]].qb = p
		}
	}
}

func (g *geom) sortBy(ids []int, key func(seg) int) {
	slices.SortStableFunc(ids, func(a, b int) int {
		if ka, kb := key(g.segs[a]), key(g.segs[b]); ka != kb {
			return ka - kb
		}
		return g.segs[a].link - g.segs[b].link
	})
}

// spread places k ports step apart around center within [lo, hi], closer
// when they do not fit, sharing when even one apart does not.
func spread(k, lo, hi, center, step int) []int {
	if k == 0 {
		return nil
	}
	hi = max(hi, lo)
	out := make([]int, k)
	if k == 1 {
		out[0] = min(max(center, lo), hi)
		return out
	}
	s := step
	for s > 1 && (k-1)*s > hi-lo {
		s--
	}
	if (k-1)*s > hi-lo {
		for i := range out {
			out[i] = lo + i*(hi-lo)/(k-1)
		}
		return out
	}
	start := min(max(center-(k-1)*s/2, lo), hi-(k-1)*s)
	for i := range out {
		out[i] = start + i*s
	}
	return out
}

// net is the hops of one gap that share a line across it: one hop, or
// several leaving the same port when a box has more edges than rows.
type net struct {
	segs   []int
	lo, hi int
	down   bool
}

// assignTracks gives every hop that turns its own lane in the gap, as a
// channel router does: lanes are shared by hops whose spans do not
// overlap, and a hop leaving at the row where another enters must turn
// left of it, or their stubs would run into one line.
func (g *geom) assignTracks() {
	lg := g.lg
	g.tracks = make([]int, max(len(lg.layers)-1, 0))
	byGap := make([][]int, len(g.tracks))
	for i, s := range g.segs {
		if s.qa != s.qb {
			k := lg.layer[s.a]
			byGap[k] = append(byGap[k], i)
		}
	}
	for k, ids := range byGap {
		g.tracks[k] = g.lanes(ids)
	}
}

func (g *geom) lanes(ids []int) int {
	if len(ids) == 0 {
		return 0
	}
	var nets []net
	byPort := map[[2]int]int{}
	for _, i := range ids {
		s := g.segs[i]
		key := [2]int{s.a, s.qa}
		k, ok := byPort[key]
		if !ok {
			k = len(nets)
			byPort[key] = k
			nets = append(nets, net{lo: s.qa, hi: s.qa, down: s.qb > s.qa})
		}
		n := &nets[k]
		n.segs = append(n.segs, i)
		n.lo, n.hi = min(n.lo, s.qb), max(n.hi, s.qb)
	}
	// before[a] lists the nets that must turn right of net a.
	entering := map[int][]int{}
	for k, n := range nets {
		for _, i := range n.segs {
			entering[g.segs[i].qb] = append(entering[g.segs[i].qb], k)
		}
	}
	before := make([][]int, len(nets))
	indeg := make([]int, len(nets))
	for a, n := range nets {
		for _, b := range entering[g.segs[n.segs[0]].qa] {
			if b != a {
				before[a] = append(before[a], b)
				indeg[b]++
			}
		}
	}
	// Parallel hops turn in the order that keeps them from crossing: going
	// down, the one leaving lower turns first; going up, the one leaving
	// higher.
	rank := func(k int) (int, int) {
		n := nets[k]
		qa := g.segs[n.segs[0]].qa
		if n.down {
			return 0, -qa
		}
		return 1, qa
	}
	better := func(a, b int) bool {
		a1, a2 := rank(a)
		b1, b2 := rank(b)
		return a1 < b1 || a1 == b1 && (a2 < b2 || a2 == b2 && a < b)
	}
	lane := make([]int, len(nets))
	minLane := make([]int, len(nets))
	for k := range lane {
		lane[k] = -1
	}
	var used [][][2]int
	for range nets {
		pick := -1
		for k := range nets {
			if lane[k] < 0 && indeg[k] == 0 && (pick < 0 || better(k, pick)) {
				pick = k
			}
		}
		if pick < 0 { // a cycle of constraints: give way somewhere
			for k := range nets {
				if lane[k] < 0 && (pick < 0 || better(k, pick)) {
					pick = k
				}
			}
		}
		n := nets[pick]
		t := minLane[pick]
		for ; t < len(used); t++ {
			if free(used[t], n.lo, n.hi) {
				break
			}
		}
		if t == len(used) {
			used = append(used, nil)
		}
		used[t] = append(used[t], [2]int{n.lo, n.hi})
		lane[pick] = t
		for _, b := range before[pick] {
			indeg[b]--
			minLane[b] = max(minLane[b], t+1)
		}
		for _, i := range n.segs {
			g.segs[i].track = t
		}
	}
	return len(used)
}

func free(spans [][2]int, lo, hi int) bool {
	for _, s := range spans {
		if lo <= s[1] && s[0] <= hi {
			return false
		}
	}
	return true
}
