package stream

import "sort"

// State is what an operator holds at a moment: rows (or entries) of
// state, their estimated bytes, and the rows it dropped as late.
type State struct {
	Rows  int64
	Bytes int64
	Late  int64
	// Open says what is still waiting at the end of the input, in words
	// ("3 processing-time windows not fired").
	Open string
}

// Stateful is an operator with state to report.
type Stateful interface {
	State() State
}

// ProcTimer is an operator with processing-time timers: the driver tells
// it each time the simulated clock moves.
type ProcTimer interface {
	ProcTime(now int64) error
}

// Finisher is an operator with something to do at the end of the input,
// after the final watermark: an asynchronous operator drains what is in
// flight.
type Finisher interface {
	Finish() error
}

// Doner is an output that needs no more rows (a LIMIT or a sink's row
// limit that was reached).
type Doner interface {
	Done() bool
}

// Graph is the operators of a run, in the order they were made, which is
// an order in which every operator comes after its inputs.
type Graph struct {
	nodes []node
	sinks []Doner
}

type node struct {
	name string
	op   any
	peak State
}

// Report is what one operator did and holds: its state at the end of the
// input, and the most it held at a Sample.
type Report struct {
	Name  string
	State State
	Peak  State
}

// Add records an operator under a name in Flink's words (GroupAggregate,
// WindowAggregate, Join, Rank, …).
func (g *Graph) Add(name string, op any) {
	g.nodes = append(g.nodes, node{name: name, op: op})
}

// AddSink records an output whose end ends the run once every one says
// it is done.
func (g *Graph) AddSink(d Doner) { g.sinks = append(g.sinks, d) }

// Done says whether every sink is done (and the run can stop reading).
func (g *Graph) Done() bool {
	if len(g.sinks) == 0 {
		return false
	}
	for _, s := range g.sinks {
		if !s.Done() {
			return false
		}
	}
	return true
}

// ProcTime tells every operator with processing-time timers that the
// clock moved to now, upstream operators first.
func (g *Graph) ProcTime(now int64) error {
	for _, n := range g.nodes {
		if p, ok := n.op.(ProcTimer); ok {
			if err := p.ProcTime(now); err != nil {
				return err
			}
		}
	}
	return nil
}

// Finish ends the input of every operator, upstream first.
func (g *Graph) Finish() error {
	for _, n := range g.nodes {
		if f, ok := n.op.(Finisher); ok {
			if err := f.Finish(); err != nil {
				return err
			}
		}
	}
	return nil
}

// Sample takes the state of every stateful operator and keeps the
// highest each reached (rows and bytes apart); it returns the rows of state
// held in all. A bounded run ends by firing every timer, so the state at
// the end says little of what a run held: the driver samples as it goes.
func (g *Graph) Sample() int64 {
	var total int64
	for i := range g.nodes {
		n := &g.nodes[i]
		if s, ok := n.op.(Stateful); ok {
			st := s.State()
			n.peak.Rows, n.peak.Bytes = max(n.peak.Rows, st.Rows), max(n.peak.Bytes, st.Bytes)
			total += st.Rows
		}
	}
	return total
}

// Reports is the state of every stateful operator.
func (g *Graph) Reports() []Report {
	var out []Report
	for _, n := range g.nodes {
		if s, ok := n.op.(Stateful); ok {
			st := s.State()
			peak := n.peak
			peak.Rows, peak.Bytes, peak.Late, peak.Open = max(peak.Rows, st.Rows), max(peak.Bytes, st.Bytes), st.Late, st.Open
			out = append(out, Report{Name: n.name, State: st, Peak: peak})
		}
	}
	return out
}

// ordered is a set of keys in the order they came, for state that must be
// visited in arrival order (windows of a key, keys of a table).
type ordered[V any] struct {
	m    map[string]*entry[V]
	next int64
}

type entry[V any] struct {
	seq int64
	v   V
}

func newOrdered[V any]() *ordered[V] { return &ordered[V]{m: map[string]*entry[V]{}} }

func (o *ordered[V]) get(k string) (V, bool) {
	e, ok := o.m[k]
	if !ok {
		var zero V
		return zero, false
	}
	return e.v, true
}

func (o *ordered[V]) put(k string, v V) {
	if e, ok := o.m[k]; ok {
		e.v = v
		return
	}
	o.m[k] = &entry[V]{seq: o.next, v: v}
	o.next++
}

func (o *ordered[V]) del(k string) { delete(o.m, k) }

func (o *ordered[V]) len() int { return len(o.m) }

// keys is the keys in arrival order.
func (o *ordered[V]) keys() []string {
	ks := make([]string, 0, len(o.m))
	for k := range o.m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return o.m[ks[i]].seq < o.m[ks[j]].seq })
	return ks
}
