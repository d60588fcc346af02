package dag

import (
	"slices"
	"sort"
)

// link is a kept edge between real vertices, in the caller's direction.
type link struct {
	from, to int
	label    string
	// back is an edge reversed to break a cycle: it is laid out from `to`
	// to `from`, and drawn with its arrow at the start of its chain.
	back  bool
	chain []int // nodes in layout direction, from first to last, dummies between
}

// layered is a graph after the layering: nodes 0..n-1 are the vertices,
// nodes from n on are the one-cell dummies of edges spanning layers.
type layered struct {
	verts   []Vertex // kept vertices, in input order
	ids     map[string]int
	self    []bool // vertex has an edge to itself
	links   []link
	dropped int

	layer      []int
	pred, succ [][]int // per node, neighbours in the adjacent layers
	owner      []int   // per dummy node (index-n), the link it carries
	layers     [][]int // nodes by layer, in order
	pos        []int   // index of a node in its layer
}

func (lg *layered) n() int { return len(lg.verts) }

func (lg *layered) isDummy(v int) bool { return v >= len(lg.verts) }

// build indexes the graph, breaks its cycles, layers and orders it.
func build(g Graph) *layered {
	lg := &layered{ids: make(map[string]int, len(g.Vertices))}
	for _, v := range g.Vertices {
		if _, dup := lg.ids[v.ID]; dup {
			continue
		}
		lg.ids[v.ID] = len(lg.verts)
		lg.verts = append(lg.verts, v)
	}
	n := len(lg.verts)
	lg.self = make([]bool, n)
	for _, e := range g.Edges {
		f, okf := lg.ids[e.From]
		t, okt := lg.ids[e.To]
		switch {
		case !okf || !okt:
			lg.dropped++
		case f == t:
			lg.self[f] = true
		default:
			lg.links = append(lg.links, link{from: f, to: t, label: e.Label})
		}
	}
	lg.breakCycles()
	lg.assignLayers()
	lg.addDummies()
	lg.order(8)
	return lg
}

// ends is a link's ends in layout direction.
func (l *link) ends() (a, b int) {
	if l.back {
		return l.to, l.from
	}
	return l.from, l.to
}

// breakCycles marks back edges by a depth-first search that starts from the
// sources in input order, so that a pipeline's natural direction wins and
// only the edge closing an iteration is reversed.
func (lg *layered) breakCycles() {
	n := lg.n()
	out := make([][]int, n)
	indeg := make([]int, n)
	for i, l := range lg.links {
		out[l.from] = append(out[l.from], i)
		indeg[l.to]++
	}
	roots := make([]int, 0, n)
	for v := range n {
		if indeg[v] == 0 {
			roots = append(roots, v)
		}
	}
	for v := range n {
		if indeg[v] != 0 {
			roots = append(roots, v)
		}
	}
	const (
		white = iota
		grey
		black
	)
	state := make([]uint8, n)
	type frame struct{ v, next int }
	var stack []frame
	for _, r := range roots {
		if state[r] != white {
			continue
		}
		state[r] = grey
		stack = append(stack[:0], frame{r, 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == len(out[top.v]) {
				state[top.v] = black
				stack = stack[:len(stack)-1]
				continue
			}
			li := out[top.v][top.next]
			top.next++
			w := lg.links[li].to
			switch state[w] {
			case grey:
				lg.links[li].back = true
			case white:
				state[w] = grey
				stack = append(stack, frame{w, 0})
			}
		}
	}
}

// assignLayers puts each vertex one layer after its furthest predecessor,
// then pulls each source to just before its nearest successor: a lookup
// table's source sits next to the join it feeds, not in the first column
// with a long edge across the picture.
func (lg *layered) assignLayers() {
	n := lg.n()
	out := make([][]int, n)
	indeg := make([]int, n)
	for _, l := range lg.links {
		a, b := l.ends()
		out[a] = append(out[a], b)
		indeg[b]++
	}
	lg.layer = make([]int, n)
	queue := make([]int, 0, n)
	left := slices.Clone(indeg)
	for v := range n {
		if indeg[v] == 0 {
			queue = append(queue, v)
		}
	}
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		for _, w := range out[v] {
			lg.layer[w] = max(lg.layer[w], lg.layer[v]+1)
			if left[w]--; left[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	for v := range n {
		if indeg[v] != 0 || len(out[v]) == 0 {
			continue
		}
		nearest := -1
		for _, w := range out[v] {
			if nearest < 0 || lg.layer[w] < nearest {
				nearest = lg.layer[w]
			}
		}
		lg.layer[v] = nearest - 1
	}
}

// addDummies splits every link spanning more than one layer with a dummy
// node per layer crossed, and builds the adjacent-layer neighbour lists.
func (lg *layered) addDummies() {
	n := lg.n()
	lg.pred = make([][]int, n)
	lg.succ = make([][]int, n)
	for i := range lg.links {
		l := &lg.links[i]
		a, b := l.ends()
		l.chain = append(l.chain[:0], a)
		prev := a
		for k := lg.layer[a] + 1; k < lg.layer[b]; k++ {
			d := len(lg.layer)
			lg.layer = append(lg.layer, k)
			lg.pred = append(lg.pred, nil)
			lg.succ = append(lg.succ, nil)
			lg.owner = append(lg.owner, i)
			lg.succ[prev] = append(lg.succ[prev], d)
			lg.pred[d] = append(lg.pred[d], prev)
			l.chain = append(l.chain, d)
			prev = d
		}
		lg.succ[prev] = append(lg.succ[prev], b)
		lg.pred[b] = append(lg.pred[b], prev)
		l.chain = append(l.chain, b)
	}
	depth := 0
	for _, k := range lg.layer {
		depth = max(depth, k+1)
	}
	lg.layers = make([][]int, depth)
	// Initial order: vertices in input order, then dummies, so that the
	// first sweep starts from what the caller wrote.
	for v := range lg.layer {
		lg.layers[lg.layer[v]] = append(lg.layers[lg.layer[v]], v)
	}
	lg.pos = make([]int, len(lg.layer))
	lg.renumber()
}

func (lg *layered) renumber() {
	for _, l := range lg.layers {
		for i, v := range l {
			lg.pos[v] = i
		}
	}
}

// order sorts each layer by the barycenter of its neighbours, sweeping down
// and up, and keeps the order with the fewest crossings seen.
func (lg *layered) order(passes int) {
	best := lg.crossings()
	saved := cloneLayers(lg.layers)
	bary := make([]float64, len(lg.layer))
	for it := 0; it < passes && best > 0; it++ {
		if it%2 == 0 {
			for i := 1; i < len(lg.layers); i++ {
				lg.sortLayer(lg.layers[i], lg.pred, bary)
			}
		} else {
			for i := len(lg.layers) - 2; i >= 0; i-- {
				lg.sortLayer(lg.layers[i], lg.succ, bary)
			}
		}
		if c := lg.crossings(); c < best {
			best = c
			saved = cloneLayers(lg.layers)
		}
	}
	lg.layers = saved
	lg.renumber()
}

func cloneLayers(ls [][]int) [][]int {
	out := make([][]int, len(ls))
	for i, l := range ls {
		out[i] = slices.Clone(l)
	}
	return out
}

// sortLayer orders a layer by the mean position of each node's neighbours;
// a node without any keeps its place, so unconnected parts do not drift.
func (lg *layered) sortLayer(layer []int, nb [][]int, bary []float64) {
	for _, v := range layer {
		if len(nb[v]) == 0 {
			bary[v] = float64(lg.pos[v])
			continue
		}
		s := 0
		for _, w := range nb[v] {
			s += lg.pos[w]
		}
		bary[v] = float64(s) / float64(len(nb[v]))
	}
	sort.SliceStable(layer, func(i, j int) bool { return bary[layer[i]] < bary[layer[j]] })
	for i, v := range layer {
		lg.pos[v] = i
	}
}

// crossings counts edge crossings between adjacent layers: the inversions
// of the lower ends once edges are sorted by their upper ends, counted with
// a Fenwick tree.
func (lg *layered) crossings() int {
	total := 0
	var pairs [][2]int
	var tree []int
	for i := 0; i+1 < len(lg.layers); i++ {
		pairs = pairs[:0]
		for _, v := range lg.layers[i] {
			for _, w := range lg.succ[v] {
				pairs = append(pairs, [2]int{lg.pos[v], lg.pos[w]})
			}
		}
		slices.SortFunc(pairs, func(a, b [2]int) int {
			if a[0] != b[0] {
				return a[0] - b[0]
			}
			return a[1] - b[1]
		})
		size := len(lg.layers[i+1])
		tree = slices.Grow(tree[:0], size+1)[:size+1]
		clear(tree)
		seen := 0
		for _, p := range pairs {
			// edges seen so far whose lower end is right of this one's
			notGreater := 0
			for k := p[1] + 1; k > 0; k -= k & -k {
				notGreater += tree[k]
			}
			total += seen - notGreater
			for k := p[1] + 1; k <= size; k += k & -k {
				tree[k]++
			}
			seen++
		}
	}
	return total
}
