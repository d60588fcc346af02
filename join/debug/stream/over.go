package stream

import (
	"sort"

	"github.com/palink/palink/join/debug/value"
)

// Over is Flink's OVER aggregation, ordered by a time attribute: each row
// with the aggregates of its frame — the rows of its partition up to it
// (UNBOUNDED PRECEDING), the Preceding rows before it (ROWS), or those at
// most Preceding milliseconds older (RANGE). By event time rows wait for
// the watermark and are taken in time order (under RANGE the rows of one
// time share their results). Which row is late and dropped follows Flink's
// functions: with an unbounded frame one at or before the watermark
// (AbstractRowTimeUnboundedPrecedingOver); with a bounded frame only one at
// or before the last time its partition already emitted (0 before any),
// whatever the watermark (RowTime{Rows,Range}BoundedPrecedingFunction's
// lastTriggeringTs): such a row waits for the watermark's next advance. By
// processing time each row is emitted as it comes.
type Over struct {
	Partition []int
	// Time is the rowtime column; -1: processing time.
	Time int
	// Range says the frame is by time, not by rows; Preceding is its
	// bound (rows or milliseconds), -1 unbounded.
	Range     bool
	Preceding int64
	Aggs      []AggSpec
	Out       Fan

	parts map[string]*overPart
	order []string
	wm    int64
	late  int64
}

type overPart struct {
	accs    []acc
	frame   []Rec // rows in the frame, oldest first (bounded frames)
	pending []Rec // rows waiting for the watermark
	fired   int64 // the time of the rows last emitted (bounded frames)
}

// NewOver is an OVER aggregation.
func NewOver(partition []int, time int, rng bool, preceding int64, aggs []AggSpec) *Over {
	return &Over{Partition: partition, Time: time, Range: rng, Preceding: preceding, Aggs: aggs, parts: map[string]*overPart{}, wm: MinTime}
}

func (o *Over) part(r Rec) *overPart {
	k := value.Key(r.Row, o.Partition)
	p, ok := o.parts[k]
	if !ok {
		p = &overPart{accs: make([]acc, len(o.Aggs))}
		for i, s := range o.Aggs {
			p.accs[i] = newAcc(s)
		}
		o.parts[k] = p
		o.order = append(o.order, k)
	}
	return p
}

func (o *Over) ts(r Rec) int64 {
	if o.Time < 0 {
		return 0
	}
	t, _ := Millis(r.Row[o.Time])
	return t
}

// Push takes one row.
func (o *Over) Push(r Rec) error {
	if o.Time < 0 {
		return o.process(o.part(r), []Rec{r})
	}
	if _, ok := Millis(r.Row[o.Time]); !ok || o.Preceding < 0 && o.ts(r) <= o.wm {
		o.late++
		return nil
	}
	p := o.part(r)
	if o.Preceding >= 0 && o.ts(r) <= p.fired {
		o.late++
		return nil
	}
	p.pending = append(p.pending, r)
	return nil
}

func (o *Over) step(p *overPart, r Rec, add bool) error {
	for i, s := range o.Aggs {
		if s.Filter >= 0 && r.Row[s.Filter] != true {
			continue
		}
		var v any = true
		if s.Arg >= 0 {
			v = r.Row[s.Arg]
		}
		var err error
		if add {
			err = p.accs[i].add(v)
		} else {
			err = p.accs[i].retract(v)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// process adds rows of one time (one row under ROWS) and emits them.
func (o *Over) process(p *overPart, rows []Rec) error {
	emit := func(r Rec) error {
		row := make(value.Row, len(r.Row), len(r.Row)+len(o.Aggs))
		copy(row, r.Row)
		for _, a := range p.accs {
			row = append(row, a.result())
		}
		return o.Out.Emit(Insert, row, r)
	}
	if !o.Range {
		for _, r := range rows {
			if err := o.step(p, r, true); err != nil {
				return err
			}
			if o.Preceding >= 0 {
				p.frame = append(p.frame, r)
				for int64(len(p.frame)) > o.Preceding+1 {
					if err := o.step(p, p.frame[0], false); err != nil {
						return err
					}
					p.frame = p.frame[1:]
				}
			}
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range rows {
		if err := o.step(p, r, true); err != nil {
			return err
		}
		if o.Preceding >= 0 {
			p.frame = append(p.frame, r)
		}
	}
	if o.Preceding >= 0 {
		now := o.ts(rows[0])
		for len(p.frame) > 0 && o.ts(p.frame[0]) < now-o.Preceding {
			if err := o.step(p, p.frame[0], false); err != nil {
				return err
			}
			p.frame = p.frame[1:]
		}
	}
	for _, r := range rows {
		if err := emit(r); err != nil {
			return err
		}
	}
	return nil
}

// Watermark emits the rows it passes, in time order, then passes it on.
func (o *Over) Watermark(ts int64) error {
	if ts == Idle || o.Time < 0 {
		return o.Out.Watermark(ts)
	}
	if ts <= o.wm {
		// Flink's timers fire as the watermark advances: a row taken at
		// or behind it (a bounded frame's) waits for the next advance.
		return o.Out.Watermark(ts)
	}
	o.wm = ts
	for _, k := range o.order {
		p := o.parts[k]
		var due, keep []Rec
		for _, r := range p.pending {
			if o.ts(r) <= ts {
				due = append(due, r)
			} else {
				keep = append(keep, r)
			}
		}
		p.pending = keep
		sort.SliceStable(due, func(i, j int) bool { return o.ts(due[i]) < o.ts(due[j]) })
		for len(due) > 0 {
			n := 1
			if o.Range {
				for n < len(due) && o.ts(due[n]) == o.ts(due[0]) {
					n++
				}
			}
			if err := o.process(p, due[:n]); err != nil {
				return err
			}
			p.fired = o.ts(due[n-1])
			due = due[n:]
		}
	}
	return o.Out.Watermark(ts)
}

// State is the rows held and the late rows dropped.
func (o *Over) State() State {
	s := State{Late: o.late}
	for _, p := range o.parts {
		for _, r := range p.frame {
			s.Rows++
			s.Bytes += int64(value.SizeRow(r.Row))
		}
		for _, r := range p.pending {
			s.Rows++
			s.Bytes += int64(value.SizeRow(r.Row))
		}
		for _, a := range p.accs {
			s.Bytes += a.size()
		}
	}
	return s
}
