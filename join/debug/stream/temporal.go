package stream

import (
	"sort"

	"github.com/palink/palink/join/debug/value"
)

// TemporalJoin is Flink's event-time temporal join against a versioned
// table (TemporalRowTimeJoinOperator): a left row waits until the
// watermark of both inputs passes its time, then joins the right row of
// its key that was valid at that time — the latest version at or before
// it, none after a deletion. An inner join drops a left row without one; a
// LEFT join pads it with NULLs. Its output is append-only (+I).
type TemporalJoin struct {
	Left bool // a LEFT join
	// Key gives each side's key; ok false for a NULL.
	Key [2]func(value.Row) (string, bool, error)
	// Time gives each side's row time in epoch milliseconds.
	Time  [2]func(value.Row) (int64, bool)
	Cond  func(value.Row) (bool, error)
	Width [2]int
	Out   Fan

	pending  []Rec
	versions map[string][]version
	merge    *Merge
	seq      int64
}

type version struct {
	at  int64
	seq int64
	row value.Row // nil: deleted
}

// NewTemporalJoin is an event-time temporal join.
func NewTemporalJoin(left bool) *TemporalJoin {
	return &TemporalJoin{Left: left, versions: map[string][]version{}, merge: NewMerge(2)}
}

// Input is side i (0 the probe side, 1 the versioned table).
func (j *TemporalJoin) Input(i int) Out { return temporalInput{j, i} }

type temporalInput struct {
	j *TemporalJoin
	i int
}

func (in temporalInput) Push(r Rec) error {
	if in.i == 0 {
		in.j.pending = append(in.j.pending, r)
		return nil
	}
	return in.j.pushVersion(r)
}

func (in temporalInput) Watermark(ts int64) error {
	if wm, ok := in.j.merge.Set(in.i, ts); ok {
		return in.j.fire(wm)
	}
	return nil
}

func (j *TemporalJoin) pushVersion(r Rec) error {
	if r.Kind == UpdateBefore {
		return nil // a version ends when the next begins
	}
	key, ok, err := j.Key[1](r.Row)
	if err != nil || !ok {
		return err
	}
	at, _ := j.Time[1](r.Row)
	v := version{at: at, seq: j.seq, row: r.Row}
	j.seq++
	if r.Kind == Delete {
		v.row = nil
	}
	list := append(j.versions[key], v)
	sort.SliceStable(list, func(a, b int) bool { return list[a].at < list[b].at })
	j.versions[key] = list
	return nil
}

// fire joins the left rows the watermark has passed, in time order.
func (j *TemporalJoin) fire(wm int64) error {
	var due, keep []Rec
	for _, r := range j.pending {
		if t, ok := j.Time[0](r.Row); ok && t <= wm {
			due = append(due, r)
		} else if ok {
			keep = append(keep, r)
		}
	}
	j.pending = keep
	sort.SliceStable(due, func(a, b int) bool {
		ta, _ := j.Time[0](due[a].Row)
		tb, _ := j.Time[0](due[b].Row)
		return ta < tb
	})
	for _, r := range due {
		t, _ := j.Time[0](r.Row)
		var match value.Row
		if key, ok, err := j.Key[0](r.Row); err != nil {
			return err
		} else if ok {
			for _, v := range j.versions[key] {
				if v.at > t {
					break
				}
				match = v.row
			}
		}
		out := make(value.Row, j.Width[0]+j.Width[1])
		copy(out, r.Row)
		if match != nil {
			copy(out[j.Width[0]:], match)
			if j.Cond != nil {
				ok, err := j.Cond(out)
				if err != nil {
					return err
				}
				if !ok {
					match = nil
					clear(out[j.Width[0]:])
				}
			}
		}
		if match == nil && !j.Left {
			continue
		}
		if err := j.Out.Emit(Insert, out, r); err != nil {
			return err
		}
	}
	return j.Out.Watermark(wm)
}

// State is the rows waiting and the versions kept.
func (j *TemporalJoin) State() State {
	s := State{Rows: int64(len(j.pending))}
	for _, r := range j.pending {
		s.Bytes += int64(value.SizeRow(r.Row))
	}
	for _, list := range j.versions {
		for _, v := range list {
			s.Rows++
			s.Bytes += int64(value.SizeRow(v.row))
		}
	}
	return s
}
