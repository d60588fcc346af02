package stream

import (
	"fmt"
	"math/big"

	"github.com/palink/palink/join/debug/value"
)

// AggSpec is one aggregate call: its function, where its argument and
// FILTER condition are in the input row, and its types.
type AggSpec struct {
	// Func is COUNT, SUM, SUM0, AVG, MIN or MAX.
	Func string
	// Arg is the argument's column; -1 for COUNT(*).
	Arg int
	// Filter is the FILTER (WHERE …) condition's column; -1 without one.
	Filter   int
	Distinct bool
	In, Out  value.Type
	// Sep is LISTAGG's separator.
	Sep string
	// Absent is JSON_OBJECTAGG's and JSON_ARRAYAGG's ABSENT ON NULL.
	Absent bool
}

// AggType is the result type Flink gives an aggregate of an argument of
// type in, or an error for an argument it does not take.
func AggType(fn string, in value.Type) (value.Type, error) {
	switch fn {
	case "COUNT":
		return value.Type{Kind: value.BigInt, NotNull: true}, nil
	case "MIN", "MAX", "FIRST_VALUE", "LAST_VALUE":
		return in.Nullable(), nil
	case "LISTAGG":
		return value.TString, nil
	case "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "STDDEV", "VARIANCE":
		if in.Kind == value.Decimal {
			// Calcite's AVG_AGG_FUNCTION type, by Flink's type system.
			return value.Dec(38, max(6, in.Scale)), nil
		}
		if !in.IsInteger() && in.Kind != value.Float && in.Kind != value.Double {
			return value.Type{}, fmt.Errorf("%s does not take %s", fn, in)
		}
		return in.Nullable(), nil
	case "JSON_OBJECTAGG", "JSON_ARRAYAGG":
		return value.Type{Kind: value.Varchar, Precision: value.MaxLength, NotNull: true}, nil
	case "BOOL_AND", "BOOL_OR":
		if in.Kind != value.Boolean {
			return value.Type{}, fmt.Errorf("%s does not take %s", fn, in)
		}
		return value.TBool, nil
	case "ARRAY_AGG":
		return value.ArrayOf(in), nil
	case "COLLECT":
		m := value.MultisetOf(in)
		m.NotNull = true
		return m, nil
	case "SUM", "SUM0", "AVG":
		if !in.IsNumeric() {
			return value.Type{}, fmt.Errorf("%s does not take %s", fn, in)
		}
		out := in.Nullable()
		if in.Kind == value.Decimal {
			out = value.Dec(38, in.Scale)
			if fn == "AVG" {
				out = value.Dec(38, max(6, in.Scale))
			}
		}
		if fn == "SUM0" {
			out.NotNull = true
		}
		return out, nil
	}
	return value.Type{}, fmt.Errorf("aggregate function %s is not supported in debug runs yet", fn)
}

// acc is an aggregate's accumulator, with retraction.
type acc interface {
	add(v any) error
	retract(v any) error
	result() any
	size() int64
}

func newAcc(s AggSpec) acc {
	var a acc
	switch s.Func {
	case "COUNT":
		a = &countAcc{}
	case "SUM", "SUM0", "AVG":
		a = &sumAcc{fn: s.Func, in: s.In, out: s.Out}
	case "MIN", "MAX":
		a = &minMaxAcc{max: s.Func == "MAX", vals: map[string]*counted{}}
	case "LISTAGG", "FIRST_VALUE", "LAST_VALUE", "ARRAY_AGG", "COLLECT":
		a = &listAcc{fn: s.Func, sep: s.Sep}
	case "BOOL_AND", "BOOL_OR":
		a = &boolAcc{and: s.Func == "BOOL_AND"}
	case "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "STDDEV", "VARIANCE":
		a = &varAcc{fn: s.Func, t: s.In, out: s.Out}
	case "JSON_OBJECTAGG", "JSON_ARRAYAGG":
		a = &jsonAcc{object: s.Func == "JSON_OBJECTAGG", absent: s.Absent}
	}
	if s.Distinct {
		a = &distinctAcc{inner: a, seen: map[string]int64{}}
	}
	return a
}

type countAcc struct{ n int64 }

func (c *countAcc) add(v any) error {
	if v != nil {
		c.n++
	}
	return nil
}

func (c *countAcc) retract(v any) error {
	if v != nil {
		c.n--
	}
	return nil
}

func (c *countAcc) result() any { return c.n }
func (c *countAcc) size() int64 { return 16 }

// sumAcc is SUM, SUM0 and AVG: the sum and the count of non-NULL values
// (Flink's SumWithRetract and Avg): NULL when no value is left.
type sumAcc struct {
	fn      string
	in, out value.Type
	i       int64
	f       float64
	r       *big.Rat
	n       int64
}

func (s *sumAcc) step(v any, sign int64) error {
	if v == nil {
		return nil
	}
	s.n += sign
	switch x := v.(type) {
	case int64:
		s.i += sign * x
	case float64:
		s.f += float64(sign) * x
	case *big.Rat:
		if s.r == nil {
			s.r = new(big.Rat)
		}
		if sign > 0 {
			s.r.Add(s.r, x)
		} else {
			s.r.Sub(s.r, x)
		}
	default:
		return fmt.Errorf("%s of %s", s.fn, value.Guess(v, nil))
	}
	return nil
}

func (s *sumAcc) add(v any) error     { return s.step(v, 1) }
func (s *sumAcc) retract(v any) error { return s.step(v, -1) }
func (s *sumAcc) size() int64         { return 48 }

func (s *sumAcc) result() any {
	if s.n == 0 {
		if s.fn == "SUM0" {
			switch {
			case s.out.Kind == value.Decimal:
				return value.Round(new(big.Rat), s.out)
			case s.out.IsInteger():
				return int64(0)
			}
			return 0.0
		}
		return nil
	}
	switch {
	case s.in.IsInteger():
		if s.fn == "AVG" {
			return value.Wrap(s.i/s.n, s.out) // Java's long division
		}
		return value.Wrap(s.i, s.out)
	case s.in.Kind == value.Decimal:
		r := new(big.Rat)
		if s.r != nil {
			r.Set(s.r)
		}
		if s.fn == "AVG" {
			r.Quo(r, new(big.Rat).SetInt64(s.n))
		}
		return value.Round(r, s.out)
	}
	f := s.f
	if s.fn == "AVG" {
		f /= float64(s.n)
	}
	if s.out.Kind == value.Float {
		return float64(float32(f))
	}
	return f
}

type counted struct {
	v any
	n int64
}

// minMaxAcc is MIN and MAX with retraction: every value with its count
// (Flink's MinWithRetract keeps a map view of them).
type minMaxAcc struct {
	max  bool
	vals map[string]*counted
	best any
	ok   bool // best is current
}

func (m *minMaxAcc) add(v any) error {
	if v == nil {
		return nil
	}
	k := value.Key([]any{v}, nil)
	if c, ok := m.vals[k]; ok {
		c.n++
		return nil
	}
	m.vals[k] = &counted{v: v, n: 1}
	if m.ok && m.best != nil {
		c, err := value.Compare(v, m.best)
		if err != nil {
			return err
		}
		if m.max && c > 0 || !m.max && c < 0 {
			m.best = v
		}
		return nil
	}
	m.ok = false
	return nil
}

func (m *minMaxAcc) retract(v any) error {
	if v == nil {
		return nil
	}
	k := value.Key([]any{v}, nil)
	c, ok := m.vals[k]
	if !ok {
		return nil
	}
	if c.n--; c.n <= 0 {
		delete(m.vals, k)
		m.ok = false
	}
	return nil
}

func (m *minMaxAcc) result() any {
	if m.ok {
		return m.best
	}
	var best any
	for _, c := range m.vals {
		if best == nil {
			best = c.v
			continue
		}
		if r, err := value.Compare(c.v, best); err == nil && (m.max && r > 0 || !m.max && r < 0) {
			best = c.v
		}
	}
	m.best, m.ok = best, true
	return best
}

func (m *minMaxAcc) size() int64 {
	n := int64(48)
	for k := range m.vals {
		n += int64(len(k)) + 24
	}
	return n
}

// distinctAcc passes a value to its inner accumulator when it is first
// seen and takes it back when its last copy is retracted (Flink's
// DISTINCT aggregates keep a map view of the values seen).
type distinctAcc struct {
	inner acc
	seen  map[string]int64
}

func (d *distinctAcc) add(v any) error {
	if v == nil {
		return nil
	}
	k := value.Key([]any{v}, nil)
	d.seen[k]++
	if d.seen[k] == 1 {
		return d.inner.add(v)
	}
	return nil
}

func (d *distinctAcc) retract(v any) error {
	if v == nil {
		return nil
	}
	k := value.Key([]any{v}, nil)
	n, ok := d.seen[k]
	if !ok {
		return nil
	}
	if n <= 1 {
		delete(d.seen, k)
		return d.inner.retract(v)
	}
	d.seen[k] = n - 1
	return nil
}

func (d *distinctAcc) result() any { return d.inner.result() }

func (d *distinctAcc) size() int64 {
	n := d.inner.size()
	for k := range d.seen {
		n += int64(len(k)) + 16
	}
	return n
}

// GroupAgg is Flink's GroupAggregate (GROUP BY without a window, with
// retraction): per key, the aggregates over the rows added and not taken
// back. The first row of a key emits +I; a change emits -U of the old
// result and +U of the new (nothing when the result is unchanged); the
// retraction of a key's last row emits -D.
//
// Its input row is the key columns first (Keys of them), then the
// columns AggSpec's Arg and Filter point at; its output row is the keys
// and then the aggregates' results.
type GroupAgg struct {
	Keys int
	Aggs []AggSpec
	Out  Fan

	keyIdx []int
	groups map[string]*group
}

type group struct {
	accs []acc
	rows int64
	prev value.Row
}

// NewGroupAgg is a GroupAggregate of keys leading key columns.
func NewGroupAgg(keys int, aggs []AggSpec) *GroupAgg {
	g := &GroupAgg{Keys: keys, Aggs: aggs, groups: map[string]*group{}}
	for i := 0; i < keys; i++ {
		g.keyIdx = append(g.keyIdx, i)
	}
	return g
}

// Push takes one change of the input.
func (g *GroupAgg) Push(r Rec) error {
	k := value.Key(r.Row, g.keyIdx)
	if g.keyIdx == nil {
		k = ""
	}
	st, ok := g.groups[k]
	adds := r.Kind.Adds()
	if !ok {
		if !adds {
			return nil // a retraction of nothing held
		}
		st = &group{accs: make([]acc, len(g.Aggs))}
		for i, s := range g.Aggs {
			st.accs[i] = newAcc(s)
		}
		g.groups[k] = st
	}
	for i, s := range g.Aggs {
		if s.Filter >= 0 && r.Row[s.Filter] != true {
			continue
		}
		var v any = true // COUNT(*) counts every row
		if s.Arg >= 0 {
			v = r.Row[s.Arg]
		}
		var err error
		if adds {
			err = st.accs[i].add(v)
		} else {
			err = st.accs[i].retract(v)
		}
		if err != nil {
			return fmt.Errorf("aggregate %d: %w", i+1, err)
		}
	}
	if adds {
		st.rows++
	} else {
		st.rows--
	}
	if st.rows <= 0 {
		delete(g.groups, k)
		if st.prev != nil {
			return g.Out.Emit(Delete, st.prev, r)
		}
		return nil
	}
	row := make(value.Row, g.Keys+len(g.Aggs))
	copy(row, r.Row[:g.Keys])
	for i, a := range st.accs {
		row[g.Keys+i] = a.result()
	}
	prev := st.prev
	st.prev = row
	if prev == nil {
		return g.Out.Emit(Insert, row, r)
	}
	if value.Key(prev, nil) == value.Key(row, nil) {
		return nil // unchanged: Flink emits nothing
	}
	if err := g.Out.Emit(UpdateBefore, prev, r); err != nil {
		return err
	}
	return g.Out.Emit(UpdateAfter, row, r)
}

// Watermark passes the watermark on.
func (g *GroupAgg) Watermark(ts int64) error { return g.Out.Watermark(ts) }

// State is the groups held and their accumulators.
func (g *GroupAgg) State() State {
	s := State{Rows: int64(len(g.groups))}
	for k, st := range g.groups {
		s.Bytes += int64(len(k)) + int64(value.SizeRow(st.prev))
		for _, a := range st.accs {
			s.Bytes += a.size()
		}
	}
	return s
}
