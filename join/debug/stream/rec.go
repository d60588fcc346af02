package stream

import (
	"math"
	"time"

	"github.com/palink/palink/join/debug/value"
)

// Kind is a row's change kind, Flink's RowKind.
type Kind uint8

// The row kinds: a stream of only Inserts is append-only; updates come as
// an UpdateBefore (the row as it was) and an UpdateAfter (as it is now).
const (
	Insert Kind = iota
	UpdateBefore
	UpdateAfter
	Delete
)

// String is the short form Flink prints: +I, -U, +U, -D.
func (k Kind) String() string {
	switch k {
	case Insert:
		return "+I"
	case UpdateBefore:
		return "-U"
	case UpdateAfter:
		return "+U"
	case Delete:
		return "-D"
	}
	return "?"
}

// ParseKind reads +I, -U, +U or -D.
func ParseKind(s string) (Kind, bool) {
	for k := Insert; k <= Delete; k++ {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

// Adds says whether a row of kind k adds to what it belongs to (+I, +U)
// rather than taking away (-U, -D).
func (k Kind) Adds() bool { return k == Insert || k == UpdateAfter }

// Rec is a record in flight: a row and its kind, with where it came from.
type Rec struct {
	Kind Kind
	Row  value.Row
	// Src is the source row it came from, by its number in its input (a
	// data file's line), for tracing a sink's row back.
	Src int64
	// Lat is the time the lookups on its way took.
	Lat time.Duration
}

// Watermarks are event times in epoch milliseconds, as Flink's.
const (
	// MinTime is the watermark before any.
	MinTime int64 = math.MinInt64
	// MaxTime is the watermark at the end of the input: it fires every
	// event-time timer.
	MaxTime int64 = math.MaxInt64
	// Idle marks an input idle (table.exec.source.idle-timeout): an
	// operator with several inputs leaves it out of their minimum.
	Idle int64 = math.MinInt64 + 1
)

// Out is what a stream is pushed into: an operator's input or a sink.
type Out interface {
	Push(r Rec) error
	// Watermark says no record with an event time at or before ts will
	// come any more (Idle: the input is idle until its next record).
	Watermark(ts int64) error
}

// Fan is an operator's output: it pushes to every consumer attached, and
// passes a watermark on only when it advances.
type Fan struct {
	outs []Out
	wm   int64
	set  bool
}

// To attaches a consumer.
func (f *Fan) To(o Out) { f.outs = append(f.outs, o) }

// Consumers is how many consumers are attached.
func (f *Fan) Consumers() int { return len(f.outs) }

// Push pushes r to every consumer.
func (f *Fan) Push(r Rec) error {
	if len(f.outs) == 1 {
		return f.outs[0].Push(r)
	}
	for i, o := range f.outs {
		if i > 0 {
			// Consumers may keep rows: each gets its own copy of the slice.
			r.Row = append(value.Row(nil), r.Row...)
		}
		if err := o.Push(r); err != nil {
			return err
		}
	}
	return nil
}

// Emit pushes a row of kind k, traced to the input record in.
func (f *Fan) Emit(k Kind, row value.Row, in Rec) error {
	return f.Push(Rec{Kind: k, Row: row, Src: in.Src, Lat: in.Lat})
}

// Watermark passes ts on if it is later than the last one passed (or
// marks the output idle, or active again).
func (f *Fan) Watermark(ts int64) error {
	if ts != Idle && f.set && ts <= f.wm {
		return nil
	}
	if ts != Idle {
		f.wm, f.set = ts, true
	}
	for _, o := range f.outs {
		if err := o.Watermark(ts); err != nil {
			return err
		}
	}
	return nil
}

// Current is the last watermark passed on, MinTime before any.
func (f *Fan) Current() int64 {
	if !f.set {
		return MinTime
	}
	return f.wm
}

// Merge combines the watermarks of several inputs as Flink does: the
// minimum over the inputs that are not idle.
type Merge struct {
	wm   []int64
	idle []bool
}

// NewMerge is the merge of n inputs, none with a watermark yet.
func NewMerge(n int) *Merge {
	m := &Merge{wm: make([]int64, n), idle: make([]bool, n)}
	for i := range m.wm {
		m.wm[i] = MinTime
	}
	return m
}

// Set takes input i's watermark (or idleness) and returns the combined
// one, and whether there is one (false while every input is idle).
func (m *Merge) Set(i int, ts int64) (int64, bool) {
	if ts == Idle {
		m.idle[i] = true
	} else {
		m.idle[i] = false
		m.wm[i] = max(m.wm[i], ts)
	}
	lo, any := MaxTime, false
	for j, w := range m.wm {
		if !m.idle[j] {
			lo, any = min(lo, w), true
		}
	}
	return lo, any
}

// Millis is a TIMESTAMP or TIMESTAMP_LTZ value as epoch milliseconds.
func Millis(v any) (int64, bool) {
	t, ok := v.(time.Time)
	if !ok {
		return 0, false
	}
	return t.UnixMilli(), true
}

// FromMillis is the TIMESTAMP(3) of epoch milliseconds.
func FromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }
