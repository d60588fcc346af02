package stream

import (
	"sort"

	"github.com/palink/palink/join/debug/value"
)

// SortKey orders rows by some of their columns, as ORDER BY does: NULLs
// first ascending and last descending, Flink's default.
type SortKey struct {
	Cols []int
	Desc []bool
}

// Compare orders two rows by the key.
func (k SortKey) Compare(a, b value.Row) int {
	for i, c := range k.Cols {
		x, y := a[c], b[c]
		var r int
		switch {
		case x == nil && y == nil:
			continue
		case x == nil:
			r = -1
		case y == nil:
			r = 1
		default:
			r, _ = value.Compare(x, y)
		}
		if k.Desc[i] {
			r = -r
		}
		if r != 0 {
			return r
		}
	}
	return 0
}

// Rank is Flink's Rank over an append-only input (AppendOnlyTopNFunction):
// the first N rows of each partition by the sort key, ties in the order
// they came. Without Number, a row entering a full top-N emits -D of the
// row it pushes out, then +I; with Number, the row number is appended to
// the output row and each row whose rank changes is updated (-U, +U), the
// row that enters at the end inserted (+I).
type Rank struct {
	Partition []int
	Sort      SortKey
	N         int64
	Number    bool
	// Retract says the input has updates (Flink's RetractableTopNFunction):
	// every row of a partition is kept, a retracted row in the top-N is
	// deleted (-D) and the row that moves up into it inserted (+I).
	Retract bool
	Out     Fan

	parts map[string][]value.Row
}

// NewRank is a top-N.
func NewRank(partition []int, sort SortKey, n int64, number bool) *Rank {
	return &Rank{Partition: partition, Sort: sort, N: n, Number: number, parts: map[string][]value.Row{}}
}

func withRank(row value.Row, rank int64) value.Row {
	out := make(value.Row, len(row)+1)
	copy(out, row)
	out[len(row)] = rank
	return out
}

// Push ranks one row.
func (r *Rank) Push(in Rec) error {
	if r.Retract && r.Number {
		return r.pushRetractNumber(in)
	}
	if r.Retract {
		return r.pushRetract(in)
	}
	k := value.Key(in.Row, r.Partition)
	buf := r.parts[k]
	full := int64(len(buf)) >= r.N
	if full && r.Sort.Compare(in.Row, buf[len(buf)-1]) >= 0 {
		return nil // not in the top-N
	}
	p := sort.Search(len(buf), func(i int) bool { return r.Sort.Compare(in.Row, buf[i]) < 0 })
	buf = append(buf, nil)
	copy(buf[p+1:], buf[p:])
	buf[p] = in.Row
	if !r.Number {
		if int64(len(buf)) > r.N {
			evicted := buf[len(buf)-1]
			buf = buf[:len(buf)-1]
			r.parts[k] = buf
			if err := r.Out.Emit(Delete, evicted, in); err != nil {
				return err
			}
		}
		r.parts[k] = buf
		return r.Out.Emit(Insert, in.Row, in)
	}
	// Each rank from the new row's on now holds the row before it.
	for i := p + 1; i < len(buf) && int64(i) <= r.N; i++ {
		if err := r.Out.Emit(UpdateBefore, withRank(buf[i], int64(i)), in); err != nil {
			return err
		}
		if err := r.Out.Emit(UpdateAfter, withRank(buf[i-1], int64(i)), in); err != nil {
			return err
		}
	}
	if int64(len(buf)) <= r.N {
		if err := r.Out.Emit(Insert, withRank(buf[len(buf)-1], int64(len(buf))), in); err != nil {
			return err
		}
	}
	if int64(len(buf)) > r.N {
		buf = buf[:r.N]
	}
	r.parts[k] = buf
	return nil
}

// pushRetract ranks one change of an updating input.
func (r *Rank) pushRetract(in Rec) error {
	k := value.Key(in.Row, r.Partition)
	buf := r.parts[k]
	if in.Kind.Adds() {
		p := sort.Search(len(buf), func(i int) bool { return r.Sort.Compare(in.Row, buf[i]) < 0 })
		buf = append(buf, nil)
		copy(buf[p+1:], buf[p:])
		buf[p] = in.Row
		r.parts[k] = buf
		if int64(p) >= r.N {
			return nil
		}
		if int64(len(buf)) > r.N {
			if err := r.Out.Emit(Delete, buf[r.N], in); err != nil {
				return err
			}
		}
		return r.Out.Emit(Insert, in.Row, in)
	}
	id := value.Key(in.Row, nil)
	at := -1
	for i, row := range buf {
		if value.Key(row, nil) == id {
			at = i
			break
		}
	}
	if at < 0 {
		return nil
	}
	gone := buf[at]
	buf = append(buf[:at:at], buf[at+1:]...)
	if len(buf) == 0 {
		delete(r.parts, k)
	} else {
		r.parts[k] = buf
	}
	if int64(at) >= r.N {
		return nil
	}
	if err := r.Out.Emit(Delete, gone, in); err != nil {
		return err
	}
	if int64(len(buf)) >= r.N {
		return r.Out.Emit(Insert, buf[r.N-1], in)
	}
	return nil
}

// Watermark passes the watermark on.
func (r *Rank) Watermark(ts int64) error { return r.Out.Watermark(ts) }

// State is the rows held.
func (r *Rank) State() State {
	var s State
	for _, buf := range r.parts {
		for _, row := range buf {
			s.Rows++
			s.Bytes += int64(value.SizeRow(row))
		}
	}
	return s
}

// Dedup is Flink's Deduplicate: ROW_NUMBER() = 1 ordered by a time
// attribute. Keeping the first row by processing time gives +I for a
// key's first row and nothing after; keeping the last gives -U of the row
// held and +U of the new one. By event time (Time ≥ 0), a row replaces the
// one held when it is earlier (first) or not older (last).
type Dedup struct {
	Partition []int
	Time      int // the rowtime column; -1: processing time
	KeepLast  bool
	Out       Fan

	rows map[string]value.Row
}

// NewDedup is a deduplication.
func NewDedup(partition []int, time int, keepLast bool) *Dedup {
	return &Dedup{Partition: partition, Time: time, KeepLast: keepLast, rows: map[string]value.Row{}}
}

// Push takes one row.
func (d *Dedup) Push(in Rec) error {
	k := value.Key(in.Row, d.Partition)
	prev, ok := d.rows[k]
	if !ok {
		d.rows[k] = in.Row
		return d.Out.Emit(Insert, in.Row, in)
	}
	replace := d.KeepLast
	if d.Time >= 0 {
		t, _ := Millis(in.Row[d.Time])
		pt, _ := Millis(prev[d.Time])
		replace = d.KeepLast && t >= pt || !d.KeepLast && t < pt
	}
	if !replace {
		return nil
	}
	d.rows[k] = in.Row
	if err := d.Out.Emit(UpdateBefore, prev, in); err != nil {
		return err
	}
	return d.Out.Emit(UpdateAfter, in.Row, in)
}

// Watermark passes the watermark on.
func (d *Dedup) Watermark(ts int64) error { return d.Out.Watermark(ts) }

// State is the rows held.
func (d *Dedup) State() State {
	s := State{Rows: int64(len(d.rows))}
	for _, r := range d.rows {
		s.Bytes += int64(value.SizeRow(r))
	}
	return s
}
