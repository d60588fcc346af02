package stream

import "github.com/palink/palink/join/debug/value"

// Calc is a stateless projection and filter (Flink's Calc): each record's
// row through Fn, its kind kept.
type Calc struct {
	// Fn gives the output row, or keep false to drop the record.
	Fn  func(in Rec) (out value.Row, keep bool, err error)
	Out Fan
}

// Push computes one record.
func (c *Calc) Push(r Rec) error {
	row, keep, err := c.Fn(r)
	if err != nil || !keep {
		return err
	}
	r.Row = row
	return c.Out.Push(r)
}

// Watermark passes the watermark on.
func (c *Calc) Watermark(ts int64) error { return c.Out.Watermark(ts) }

// FlatMap gives any number of rows for each record, of its kind (a
// correlated UNNEST or table function).
type FlatMap struct {
	Fn  func(in Rec, emit func(value.Row) error) error
	Out Fan
}

// Push computes one record.
func (f *FlatMap) Push(r Rec) error {
	return f.Fn(r, func(row value.Row) error {
		return f.Out.Push(Rec{Kind: r.Kind, Row: row, Src: r.Src, Lat: r.Lat})
	})
}

// Watermark passes the watermark on.
func (f *FlatMap) Watermark(ts int64) error { return f.Out.Watermark(ts) }

// Union is UNION ALL: the records of all its inputs, and the minimum of
// their watermarks.
type Union struct {
	Out   Fan
	merge *Merge
}

// NewUnion is the union of n inputs.
func NewUnion(n int) *Union { return &Union{merge: NewMerge(n)} }

// Input is input i.
func (u *Union) Input(i int) Out { return unionInput{u, i} }

type unionInput struct {
	u *Union
	i int
}

func (in unionInput) Push(r Rec) error { return in.u.Out.Push(r) }

func (in unionInput) Watermark(ts int64) error {
	if wm, ok := in.u.merge.Set(in.i, ts); ok {
		return in.u.Out.Watermark(wm)
	}
	return nil
}

// Limit passes the first N records (Flink's streaming LIMIT over an
// append-only input), then is done.
type Limit struct {
	N    int64
	seen int64
	Out  Fan
}

// Push passes a record while under the limit.
func (l *Limit) Push(r Rec) error {
	if l.seen >= l.N {
		return nil
	}
	l.seen++
	return l.Out.Push(r)
}

// Watermark passes the watermark on.
func (l *Limit) Watermark(ts int64) error { return l.Out.Watermark(ts) }

// Done says whether the limit is reached.
func (l *Limit) Done() bool { return l.seen >= l.N }
