package stream

import (
	"fmt"
	"sort"

	"github.com/palink/palink/join/debug/value"
)

// SessionAgg is Flink's window aggregate over SESSION windows: each row
// opens the window [ts, ts + gap) of its key, merged with the key's
// windows it overlaps; a window is emitted once (+I) when the watermark
// passes its end, with the merged window's start, end and time. A row
// whose session — its own window merged with those it touches — has
// already been passed by the watermark is late and dropped.
//
// Its input is the WindowTVF's rows reduced to keys and arguments as for
// WindowAgg: Start and End are the positions of window_start and
// window_end (and Time of window_time, -1 if not grouped) among the keys.
type SessionAgg struct {
	Keys             int
	Start, End, Time int
	Aggs             []AggSpec
	// Proc says the sessions are by processing time: a session fires as
	// the clock passes its end (ProcTime), not on the watermark, and one
	// open at the end of the input never fires (as in Flink).
	Proc bool
	// Millis reads window_start and window_end as instants (epoch ms) and
	// Local writes an instant back as the window's TIMESTAMP: for windows
	// of a TIMESTAMP_LTZ, in the session time zone, so sessions merge and
	// fire by instants as Flink's. nil: Millis and FromMillis (UTC).
	Millis func(any) (int64, bool)
	Local  func(int64) any
	Out    Fan

	keyIdx   []int
	sessions map[string][]*session
	order    []string
	seq      int64
	wm       int64
	late     int64
}

type session struct {
	seq        int64
	start, end int64
	keys       value.Row
	rows       []value.Row
}

// NewSessionAgg is a session window aggregate.
func NewSessionAgg(keys, start, end, time int, aggs []AggSpec) *SessionAgg {
	s := &SessionAgg{Keys: keys, Start: start, End: end, Time: time, Aggs: aggs, sessions: map[string][]*session{}, wm: MinTime}
	for i := 0; i < keys; i++ {
		if i != start && i != end && i != time {
			s.keyIdx = append(s.keyIdx, i)
		}
	}
	if s.keyIdx == nil {
		s.keyIdx = []int{}
	}
	return s
}

// Push adds one row to its key's sessions, merging those it overlaps.
func (s *SessionAgg) Push(r Rec) error {
	millis := s.Millis
	if millis == nil {
		millis = Millis
	}
	start, ok1 := millis(r.Row[s.Start])
	end, ok2 := millis(r.Row[s.End])
	if !ok1 || !ok2 {
		return nil
	}
	k := value.Key(r.Row, s.keyIdx)
	list, seen := s.sessions[k]
	merged := &session{seq: s.seq, start: start, end: end, keys: append(value.Row(nil), r.Row[:s.Keys]...), rows: []value.Row{r.Row}}
	var keep []*session
	for _, w := range list {
		if w.start <= merged.end && w.end >= merged.start {
			merged.start, merged.end = min(merged.start, w.start), max(merged.end, w.end)
			merged.seq = min(merged.seq, w.seq)
			merged.rows = append(w.rows, merged.rows...)
			continue
		}
		keep = append(keep, w)
	}
	// Late is judged on the session the row joins, as Flink's
	// MergingWindowProcessFunction does: its own window may have passed
	// the watermark while a session it touches has not. (A session that
	// took in an open one is open: only a row alone can be late.)
	if merged.end-1 <= s.wm {
		s.late++
		return nil
	}
	if !seen {
		s.order = append(s.order, k)
	}
	s.seq++
	s.sessions[k] = append(keep, merged)
	return nil
}

// Watermark fires the sessions it passes, earliest end first.
func (s *SessionAgg) Watermark(ts int64) error {
	if ts == Idle || s.Proc {
		return s.Out.Watermark(ts)
	}
	s.wm = max(s.wm, ts)
	if err := s.fire(ts); err != nil {
		return err
	}
	return s.Out.Watermark(ts)
}

// ProcTime fires the processing-time sessions the clock has passed.
func (s *SessionAgg) ProcTime(now int64) error {
	if !s.Proc {
		return nil
	}
	return s.fire(now)
}

// fire emits the sessions whose end ts passes, earliest end first.
func (s *SessionAgg) fire(ts int64) error {
	var due []*session
	for _, k := range s.order {
		var keep []*session
		for _, w := range s.sessions[k] {
			if w.end-1 <= ts {
				due = append(due, w)
			} else {
				keep = append(keep, w)
			}
		}
		if len(keep) == 0 {
			delete(s.sessions, k)
		} else {
			s.sessions[k] = keep
		}
	}
	if len(due) > 0 {
		var order []string
		for _, k := range s.order {
			if _, ok := s.sessions[k]; ok {
				order = append(order, k)
			}
		}
		s.order = order
	}
	sort.SliceStable(due, func(i, j int) bool {
		if due[i].end != due[j].end {
			return due[i].end < due[j].end
		}
		return due[i].seq < due[j].seq
	})
	for _, w := range due {
		accs := make([]acc, len(s.Aggs))
		for i, sp := range s.Aggs {
			accs[i] = newAcc(sp)
		}
		for _, row := range w.rows {
			for i, sp := range s.Aggs {
				if sp.Filter >= 0 && row[sp.Filter] != true {
					continue
				}
				var v any = true
				if sp.Arg >= 0 {
					v = row[sp.Arg]
				}
				if err := accs[i].add(v); err != nil {
					return err
				}
			}
		}
		out := make(value.Row, s.Keys, s.Keys+len(s.Aggs))
		copy(out, w.keys)
		local := s.Local
		if local == nil {
			local = func(ms int64) any { return FromMillis(ms) }
		}
		out[s.Start], out[s.End] = local(w.start), local(w.end)
		if s.Time >= 0 {
			out[s.Time] = FromMillis(w.end - 1)
		}
		for _, a := range accs {
			out = append(out, a.result())
		}
		if err := s.Out.Push(Rec{Kind: Insert, Row: out}); err != nil {
			return err
		}
	}
	return nil
}

// State is the sessions open and the late rows dropped.
func (s *SessionAgg) State() State {
	st := State{Late: s.late}
	for _, list := range s.sessions {
		for _, w := range list {
			st.Rows++
			for _, r := range w.rows {
				st.Bytes += int64(value.SizeRow(r))
			}
		}
	}
	if s.Proc && st.Rows > 0 {
		st.Open = fmt.Sprintf("%d processing-time sessions not fired", st.Rows)
	}
	return st
}
