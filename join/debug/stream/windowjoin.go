package stream

import (
	"fmt"
	"sort"

	"github.com/palink/palink/join/debug/value"
)

// WindowJoin is Flink's window join: both inputs are windowed the same
// way and joined per window and key when the watermark of both passes the
// window's end — matching pairs, and for an outer side the rows that found
// no match, padded with NULLs. A row for a window already fired is late and
// dropped. Its output is append-only (+I).
type WindowJoin struct {
	Outer [2]bool
	Key   [2]func(value.Row) (string, bool, error)
	// End gives each side's window end, in epoch milliseconds.
	End   [2]func(value.Row) (int64, bool)
	Cond  func(value.Row) (bool, error)
	Width [2]int
	// Proc says both sides' windows are by processing time: a window
	// joins as the clock passes its end (ProcTime), not on the watermark.
	Proc bool
	Out  Fan

	wins  map[int64]*winJoin
	wm    int64
	late  int64
	merge *Merge
}

type winJoin struct {
	keys  []string
	sides map[string]*[2][]value.Row
}

// NewWindowJoin is a window join.
func NewWindowJoin() *WindowJoin {
	return &WindowJoin{wins: map[int64]*winJoin{}, wm: MinTime, merge: NewMerge(2)}
}

// Input is side i (0 left, 1 right).
func (j *WindowJoin) Input(i int) Out { return wjInput{j, i} }

type wjInput struct {
	j *WindowJoin
	i int
}

func (in wjInput) Push(r Rec) error { return in.j.push(in.i, r) }

func (in wjInput) Watermark(ts int64) error {
	if wm, ok := in.j.merge.Set(in.i, ts); ok {
		if in.j.Proc {
			return in.j.Out.Watermark(wm)
		}
		in.j.wm = max(in.j.wm, wm)
		if err := in.j.fire(wm); err != nil {
			return err
		}
		return in.j.Out.Watermark(wm)
	}
	return nil
}

// ProcTime joins the processing-time windows the clock has passed.
func (j *WindowJoin) ProcTime(now int64) error {
	if !j.Proc {
		return nil
	}
	return j.fire(now)
}

func (j *WindowJoin) push(side int, r Rec) error {
	end, ok := j.End[side](r.Row)
	if !ok {
		return nil
	}
	if end-1 <= j.wm {
		j.late++
		return nil
	}
	key, kok, err := j.Key[side](r.Row)
	if err != nil {
		return err
	}
	if !kok {
		key = "\x00null" + string(rune('0'+side)) // a NULL key matches nothing
	}
	w, ok := j.wins[end]
	if !ok {
		w = &winJoin{sides: map[string]*[2][]value.Row{}}
		j.wins[end] = w
	}
	s, ok := w.sides[key]
	if !ok {
		s = &[2][]value.Row{}
		w.sides[key] = s
		w.keys = append(w.keys, key)
	}
	s[side] = append(s[side], r.Row)
	return nil
}

func (j *WindowJoin) joined(l, r value.Row) value.Row {
	out := make(value.Row, j.Width[0]+j.Width[1])
	copy(out, l)
	copy(out[j.Width[0]:], r)
	return out
}

// fire joins the windows whose end wm passes, earliest first.
func (j *WindowJoin) fire(wm int64) error {
	var ends []int64
	for end := range j.wins {
		if end-1 <= wm {
			ends = append(ends, end)
		}
	}
	sort.Slice(ends, func(a, b int) bool { return ends[a] < ends[b] })
	emit := func(row value.Row) error { return j.Out.Push(Rec{Kind: Insert, Row: row}) }
	for _, end := range ends {
		w := j.wins[end]
		delete(j.wins, end)
		for _, k := range w.keys {
			s := w.sides[k]
			matchedR := make([]bool, len(s[1]))
			for _, l := range s[0] {
				matched := false
				for ri, r := range s[1] {
					out := j.joined(l, r)
					if j.Cond != nil {
						ok, err := j.Cond(out)
						if err != nil {
							return err
						}
						if !ok {
							continue
						}
					}
					matched, matchedR[ri] = true, true
					if err := emit(out); err != nil {
						return err
					}
				}
				if !matched && j.Outer[0] {
					if err := emit(j.joined(l, nil)); err != nil {
						return err
					}
				}
			}
			if j.Outer[1] {
				for ri, r := range s[1] {
					if !matchedR[ri] {
						if err := emit(j.joined(nil, r)); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// State is the rows waiting and the late rows dropped.
func (j *WindowJoin) State() State {
	s := State{Late: j.late}
	if j.Proc && len(j.wins) > 0 {
		s.Open = fmt.Sprintf("%d processing-time windows not joined", len(j.wins))
	}
	for _, w := range j.wins {
		for _, sides := range w.sides {
			for _, rows := range sides {
				for _, r := range rows {
					s.Rows++
					s.Bytes += int64(value.SizeRow(r))
				}
			}
		}
	}
	return s
}
