package stream

import (
	"fmt"
	"sort"

	"github.com/palink/palink/join/debug/value"
)

// WindowKind is a window TVF's kind.
type WindowKind uint8

// The window TVFs with a fixed set of windows per row.
const (
	Tumble WindowKind = iota
	Hop
	Cumulate
	// Session gives each row the window [ts, ts + Size), which a
	// SessionAgg merges with its key's overlapping ones.
	Session
)

// Windows assigns rows to windows as Flink's window assigners do, in
// epoch milliseconds: Size is TUMBLE's and HOP's size and CUMULATE's max
// size; Step is HOP's slide and CUMULATE's step.
type Windows struct {
	Kind       WindowKind
	Size, Step int64
	Offset     int64
}

// floorMod is Java's Math.floorMod.
func floorMod(a, b int64) int64 { return ((a % b) + b) % b }

// startWithOffset is Flink's TimeWindow.getWindowStartWithOffset.
func startWithOffset(ts, offset, size int64) int64 { return ts - floorMod(ts-offset, size) }

// Assign gives the windows [start, end) of a row at ts, in the order
// Flink's assigners list them (HOP's latest first).
func (w Windows) Assign(ts int64) [][2]int64 {
	switch w.Kind {
	case Hop:
		var out [][2]int64
		last := startWithOffset(ts, w.Offset, w.Step)
		for start := last; start > ts-w.Size; start -= w.Step {
			out = append(out, [2]int64{start, start + w.Size})
		}
		return out
	case Session:
		return [][2]int64{{ts, ts + w.Size}}
	case Cumulate:
		var out [][2]int64
		start := startWithOffset(ts, w.Offset, w.Size)
		for end := startWithOffset(ts, w.Offset, w.Step) + w.Step; end <= start+w.Size; end += w.Step {
			out = append(out, [2]int64{start, end})
		}
		return out
	}
	start := startWithOffset(ts, w.Offset, w.Size)
	return [][2]int64{{start, start + w.Size}}
}

// WindowTVF is a window table function (TUMBLE, HOP, CUMULATE over event
// time): each row once per window it falls in, with window_start,
// window_end and window_time added. A row whose time is NULL is dropped.
type WindowTVF struct {
	W Windows
	// Time is the time column; Millis gives its value in epoch
	// milliseconds (a TIMESTAMP_LTZ's in the session time zone), Window
	// the window columns' values of a window.
	Time   int
	Millis func(v any) (int64, bool)
	Window func(start, end int64) (ws, we, wt any)
	Out    Fan
}

// Push assigns one row.
func (t *WindowTVF) Push(r Rec) error {
	ts, ok := t.Millis(r.Row[t.Time])
	if !ok {
		return nil
	}
	for _, w := range t.W.Assign(ts) {
		row := make(value.Row, len(r.Row), len(r.Row)+3)
		copy(row, r.Row)
		ws, we, wt := t.Window(w[0], w[1])
		row = append(row, ws, we, wt)
		if err := t.Out.Push(Rec{Kind: r.Kind, Row: row, Src: r.Src, Lat: r.Lat}); err != nil {
			return err
		}
	}
	return nil
}

// Watermark passes the watermark on.
func (t *WindowTVF) Watermark(ts int64) error { return t.Out.Watermark(ts) }

// WindowAgg is Flink's WindowAggregate over a window TVF: per key and
// window, the aggregates of its rows, emitted once (+I) when the
// watermark passes the window's end; a row for a window that has already
// fired is late and dropped.
//
// Its input row is the key columns first (Keys of them, the window's
// start and end among them, End the end's position), then the columns
// AggSpec's Arg and Filter point at; its output row is the keys and then
// the aggregates' results.
type WindowAgg struct {
	Keys int
	End  int
	Aggs []AggSpec
	// Millis reads the window end's value, in epoch milliseconds.
	Millis func(v any) (int64, bool)
	// Proc says the windows are by processing time: they fire as the
	// clock passes their end (ProcTime), not on the watermark, and those
	// open at the end of the input never fire (as in Flink).
	Proc bool
	Out  Fan

	keyIdx []int
	groups map[string]*winGroup
	seq    int64
	wm     int64
	late   int64
}

type winGroup struct {
	seq  int64
	end  int64
	keys value.Row
	accs []acc
}

// NewWindowAgg is a WindowAggregate of keys leading key columns, the
// window's end at end.
func NewWindowAgg(keys, end int, aggs []AggSpec, millis func(any) (int64, bool)) *WindowAgg {
	w := &WindowAgg{Keys: keys, End: end, Aggs: aggs, Millis: millis, groups: map[string]*winGroup{}, wm: MinTime}
	for i := 0; i < keys; i++ {
		w.keyIdx = append(w.keyIdx, i)
	}
	return w
}

// Push adds one row to its window, or drops it as late.
func (w *WindowAgg) Push(r Rec) error {
	end, ok := w.Millis(r.Row[w.End])
	if !ok {
		return nil
	}
	if end-1 <= w.wm {
		w.late++
		return nil
	}
	k := value.Key(r.Row, w.keyIdx)
	g, ok := w.groups[k]
	if !ok {
		g = &winGroup{seq: w.seq, end: end, keys: append(value.Row(nil), r.Row[:w.Keys]...), accs: make([]acc, len(w.Aggs))}
		w.seq++
		for i, s := range w.Aggs {
			g.accs[i] = newAcc(s)
		}
		w.groups[k] = g
	}
	for i, s := range w.Aggs {
		if s.Filter >= 0 && r.Row[s.Filter] != true {
			continue
		}
		var v any = true
		if s.Arg >= 0 {
			v = r.Row[s.Arg]
		}
		var err error
		if r.Kind.Adds() {
			err = g.accs[i].add(v)
		} else {
			err = g.accs[i].retract(v)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Watermark fires the windows it passes, earliest end first (a window's
// keys in the order they came), then passes it on.
func (w *WindowAgg) Watermark(ts int64) error {
	if ts == Idle {
		return w.Out.Watermark(ts)
	}
	if w.Proc {
		return w.Out.Watermark(ts)
	}
	w.wm = max(w.wm, ts)
	return w.fire(ts)
}

// ProcTime fires the processing-time windows the clock has passed.
func (w *WindowAgg) ProcTime(now int64) error {
	if !w.Proc {
		return nil
	}
	return w.fire(now)
}

// fire emits the windows whose end ts passes, earliest end first (a
// window's keys in the order they came); by event time it then passes the
// watermark on.
func (w *WindowAgg) fire(ts int64) error {
	var due []*winGroup
	var keys []string
	for k, g := range w.groups {
		if g.end-1 <= ts {
			due = append(due, g)
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		delete(w.groups, k)
	}
	sort.Slice(due, func(i, j int) bool {
		if due[i].end != due[j].end {
			return due[i].end < due[j].end
		}
		return due[i].seq < due[j].seq
	})
	for _, g := range due {
		row := make(value.Row, w.Keys+len(w.Aggs))
		copy(row, g.keys)
		for i, a := range g.accs {
			row[w.Keys+i] = a.result()
		}
		if err := w.Out.Push(Rec{Kind: Insert, Row: row}); err != nil {
			return err
		}
	}
	if w.Proc {
		return nil
	}
	return w.Out.Watermark(ts)
}

// State is the windows not fired yet, and the late rows dropped.
func (w *WindowAgg) State() State {
	s := State{Rows: int64(len(w.groups)), Late: w.late}
	if w.Proc && len(w.groups) > 0 {
		s.Open = fmt.Sprintf("%d processing-time windows not fired", len(w.groups))
	}
	for k, g := range w.groups {
		s.Bytes += int64(len(k)) + int64(value.SizeRow(g.keys))
		for _, a := range g.accs {
			s.Bytes += a.size()
		}
	}
	return s
}
