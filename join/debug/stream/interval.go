package stream

import (
	"sort"

	"github.com/palink/palink/join/debug/value"
)

// IntervalJoin is Flink's event-time interval join (TimeIntervalJoin):
// a left row joins the right rows of its key whose time r satisfies
// Lower ≤ l − r ≤ Upper, as either comes; rows are kept until the other
// side's watermark says no more can match, and then an outer side's row
// that matched nothing is emitted padded with NULLs. Its output is
// append-only (+I).
type IntervalJoin struct {
	Outer        [2]bool
	Key          [2]func(value.Row) (string, bool, error)
	Time         [2]func(value.Row) (int64, bool)
	Cond         func(value.Row) (bool, error)
	Lower, Upper int64
	Width        [2]int
	Out          Fan

	rows  [2]map[string][]*ivRow
	seq   int64
	wm    [2]int64
	merge *Merge
}

type ivRow struct {
	seq     int64
	row     value.Row
	ts      int64
	matched bool
	rec     Rec
}

// NewIntervalJoin is an interval join.
func NewIntervalJoin() *IntervalJoin {
	return &IntervalJoin{rows: [2]map[string][]*ivRow{{}, {}}, wm: [2]int64{MinTime, MinTime}, merge: NewMerge(2)}
}

// Input is side i (0 left, 1 right).
func (j *IntervalJoin) Input(i int) Out { return ivInput{j, i} }

type ivInput struct {
	j *IntervalJoin
	i int
}

func (in ivInput) Push(r Rec) error { return in.j.push(in.i, r) }

func (in ivInput) Watermark(ts int64) error {
	j := in.j
	if ts != Idle {
		j.wm[in.i] = max(j.wm[in.i], ts)
		// The other side's rows this side's watermark has expired.
		if err := j.expire(1 - in.i); err != nil {
			return err
		}
	}
	if wm, ok := j.merge.Set(in.i, ts); ok {
		return j.Out.Watermark(wm)
	}
	return nil
}

// window is the range of the other side's times a row at ts of side can
// match.
func (j *IntervalJoin) window(side int, ts int64) (int64, int64) {
	if side == 0 {
		return ts - j.Upper, ts - j.Lower
	}
	return ts + j.Lower, ts + j.Upper
}

func (j *IntervalJoin) joined(side int, row, other value.Row) value.Row {
	out := make(value.Row, j.Width[0]+j.Width[1])
	l, r := row, other
	if side == 1 {
		l, r = other, row
	}
	copy(out, l)
	copy(out[j.Width[0]:], r)
	return out
}

func (j *IntervalJoin) push(side int, r Rec) error {
	ts, ok := j.Time[side](r.Row)
	if !ok {
		return nil
	}
	key, kok, err := j.Key[side](r.Row)
	if err != nil {
		return err
	}
	me := &ivRow{seq: j.seq, row: r.Row, ts: ts, rec: r}
	j.seq++
	lo, hi := j.window(side, ts)
	if kok {
		for _, o := range j.rows[1-side][key] {
			if o.ts < lo || o.ts > hi {
				continue
			}
			out := j.joined(side, r.Row, o.row)
			if j.Cond != nil {
				ok, err := j.Cond(out)
				if err != nil {
					return err
				}
				if !ok {
					continue
				}
			}
			me.matched, o.matched = true, true
			if err := j.Out.Emit(Insert, out, r); err != nil {
				return err
			}
		}
	}
	// Kept while the other side may still bring a match.
	if kok && hi > j.wm[1-side] {
		j.rows[side][key] = append(j.rows[side][key], me)
		return nil
	}
	if j.Outer[side] && !me.matched {
		return j.Out.Emit(Insert, j.joined(side, r.Row, nil), r)
	}
	return nil
}

// expire drops side's rows the other side's watermark has passed,
// emitting an outer side's unmatched ones.
func (j *IntervalJoin) expire(side int) error {
	wm := j.wm[1-side]
	var gone []*ivRow
	for k, list := range j.rows[side] {
		var keep []*ivRow
		for _, e := range list {
			if _, hi := j.window(side, e.ts); hi > wm {
				keep = append(keep, e)
				continue
			}
			if j.Outer[side] && !e.matched {
				gone = append(gone, e)
			}
		}
		if len(keep) == 0 {
			delete(j.rows[side], k)
		} else {
			j.rows[side][k] = keep
		}
	}
	sort.Slice(gone, func(a, b int) bool {
		if gone[a].ts != gone[b].ts {
			return gone[a].ts < gone[b].ts
		}
		return gone[a].seq < gone[b].seq
	})
	for _, e := range gone {
		if err := j.Out.Emit(Insert, j.joined(side, e.row, nil), e.rec); err != nil {
			return err
		}
	}
	return nil
}

// State is the rows kept.
func (j *IntervalJoin) State() State {
	var s State
	for _, side := range j.rows {
		for _, list := range side {
			for _, e := range list {
				s.Rows++
				s.Bytes += int64(value.SizeRow(e.row))
			}
		}
	}
	return s
}
