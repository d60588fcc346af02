package stream

import (
	"errors"
	"fmt"
	"testing"

	"github.com/palink/palink/join/debug/value"
)

// The window join at its boundaries (see window_bounds_test.go).

// windowJoin joins rows (key, window_end) of two sides by key, an inner
// join unless outer says otherwise; both sides start at watermark 0.
func windowJoin(out *capture, outer [2]bool) *WindowJoin {
	j := NewWindowJoin()
	j.Outer, j.Width = outer, [2]int{2, 2}
	for i := range 2 {
		j.Key[i] = func(r value.Row) (string, bool, error) {
			if r[0] == nil {
				return "", false, nil
			}
			return fmt.Sprint(r[0]), true, nil
		}
		j.End[i] = func(r value.Row) (int64, bool) { return ms(r[1]) }
	}
	j.Out.To(out)
	_ = j.Input(0).Watermark(0)
	_ = j.Input(1).Watermark(0)
	out.take()
	return j
}

func TestWindowJoinFiresWhenBothWatermarksReachEndMinusOne(t *testing.T) {
	out := &capture{}
	j := windowJoin(out, [2]bool{})
	l, r := j.Input(0), j.Input(1)
	must(t, l.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	must(t, r.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	must(t, l.Push(Rec{Kind: Insert, Row: value.Row{"z", int64(2000)}})) // no match: an inner join drops it
	must(t, r.Push(Rec{Kind: Insert, Row: value.Row{"y", int64(2000)}}))
	must(t, l.Watermark(1999))
	must(t, r.Watermark(1998))
	if got := out.take(); got != "wm 1998" {
		t.Fatalf("the slower side one millisecond short: %s", got)
	}
	must(t, r.Watermark(1999))
	if got := out.take(); got != "+I[a 2000 a 2000]; wm 1999" {
		t.Fatalf("both at the window's last millisecond: %s", got)
	}
}

func TestWindowJoinLateRowCutoff(t *testing.T) {
	out := &capture{}
	j := windowJoin(out, [2]bool{true, true})
	l, r := j.Input(0), j.Input(1)
	must(t, l.Watermark(1998))
	must(t, r.Watermark(1998))
	must(t, l.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}})) // in time
	must(t, l.Watermark(1999))
	must(t, r.Watermark(1999))
	must(t, r.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}})) // late
	must(t, r.Push(Rec{Kind: Insert, Row: value.Row{"b", int64(2001)}})) // in time
	if s := j.State(); s.Late != 1 || s.Rows != 1 {
		t.Errorf("late %d, waiting %d; want 1 and 1", s.Late, s.Rows)
	}
	must(t, l.Watermark(2000))
	must(t, r.Watermark(2000))
	if got, want := out.take(), "wm 1998; +I[a 2000 <nil> <nil>]; wm 1999; +I[<nil> <nil> b 2001]; wm 2000"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	must(t, l.Push(Rec{Kind: Insert, Row: value.Row{"c", nil}}))
	if s := j.State(); s.Late != 1 || s.Rows != 0 {
		t.Errorf("a row without a window: late %d, waiting %d", s.Late, s.Rows)
	}
}

// TestWindowJoinPairsInOrder: windows earliest end first, keys in the
// order they came; a condition drops pairs, and an outer side keeps its
// rows that found no match; a NULL key matches nothing.
func TestWindowJoinPairsInOrder(t *testing.T) {
	out := &capture{}
	j := windowJoin(out, [2]bool{true, false})
	j.Cond = func(r value.Row) (bool, error) {
		if r[2] == "boom" {
			return false, errors.New("condition failed")
		}
		return r[0] != "x", nil
	}
	l, r := j.Input(0), j.Input(1)
	for _, p := range []struct {
		in  Out
		row value.Row
	}{
		{l, value.Row{"b", int64(3000)}}, {r, value.Row{"b", int64(3000)}},
		{l, value.Row{"a", int64(2000)}}, {l, value.Row{"c", int64(2000)}}, {r, value.Row{"a", int64(2000)}}, {r, value.Row{"c", int64(2000)}},
		{l, value.Row{"x", int64(2000)}}, {r, value.Row{"x", int64(2000)}},
		{l, value.Row{nil, int64(2000)}}, {r, value.Row{nil, int64(2000)}},
		{l, value.Row{"d", int64(1000)}},
	} {
		must(t, p.in.Push(Rec{Kind: Insert, Row: p.row}))
	}
	must(t, l.Watermark(2999))
	must(t, r.Watermark(2999))
	want := "+I[d 1000 <nil> <nil>]; +I[a 2000 a 2000]; +I[c 2000 c 2000]; +I[x 2000 <nil> <nil>]; +I[<nil> 2000 <nil> <nil>]; " +
		"+I[b 3000 b 3000]; wm 2999"
	if got := out.take(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	must(t, l.Push(Rec{Kind: Insert, Row: value.Row{"boom", int64(4000)}}))
	must(t, r.Push(Rec{Kind: Insert, Row: value.Row{"boom", int64(4000)}}))
	must(t, r.Watermark(3999))
	if err := l.Watermark(3999); err == nil || err.Error() != "condition failed" {
		t.Errorf("a condition's error: %v", err)
	}
	must(t, l.Push(Rec{Kind: Insert, Row: value.Row{"e", int64(5000)}}))
	must(t, r.Watermark(4999))
	out.fail = errors.New("sink down")
	if err := l.Watermark(4999); !errors.Is(err, out.fail) {
		t.Errorf("a failing consumer: %v", err)
	}
}

// TestWindowJoinConditionPerPair: the condition is judged pair by pair,
// a pair it drops leaves the next ones be; a key that cannot be read, or a
// consumer that fails, says so.
func TestWindowJoinConditionPerPair(t *testing.T) {
	out := &capture{}
	j := windowJoin(out, [2]bool{true, true})
	j.Width = [2]int{2, 3}
	j.Cond = func(r value.Row) (bool, error) { return r[4] != "no", nil }
	l, r := j.Input(0), j.Input(1)
	must(t, l.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	must(t, r.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000), "no"}}))
	must(t, r.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000), "yes"}}))
	must(t, l.Watermark(1999))
	must(t, r.Watermark(1999))
	if got, want := out.take(), "+I[a 2000 a 2000 yes]; +I[<nil> <nil> a 2000 no]; wm 1999"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}

	bad := errors.New("no key")
	j.Key[1] = func(value.Row) (string, bool, error) { return "", false, bad }
	if err := r.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(3000), "yes"}}); !errors.Is(err, bad) {
		t.Errorf("a key that cannot be read: %v", err)
	}
	for _, c := range []struct {
		name string
		rows [2]value.Row
	}{
		{"a pair", [2]value.Row{{"b", int64(3000)}, {"b", int64(3000), "yes"}}},
		{"a right row alone", [2]value.Row{nil, {"c", int64(4000), "yes"}}},
	} {
		j := windowJoin(out, [2]bool{false, true})
		j.Width = [2]int{2, 3}
		for side, row := range c.rows {
			if row != nil {
				must(t, j.Input(side).Push(Rec{Kind: Insert, Row: row}))
			}
		}
		out.fail = errors.New("sink down")
		must(t, j.Input(0).Watermark(5000))
		if err := j.Input(1).Watermark(5000); !errors.Is(err, out.fail) {
			t.Errorf("%s to a failing consumer: %v", c.name, err)
		}
		out.fail = nil
	}
}

func TestWindowJoinByProcessingTime(t *testing.T) {
	out := &capture{}
	j := windowJoin(out, [2]bool{})
	j.Proc = true
	l, r := j.Input(0), j.Input(1)
	must(t, l.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	must(t, r.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	must(t, l.Watermark(5000))
	must(t, r.Watermark(5000))
	must(t, j.ProcTime(1998))
	if got := out.take(); got != "wm 5000" {
		t.Fatalf("before the clock reached the window's last millisecond: %s", got)
	}
	if s := j.State(); s.Open != "1 processing-time windows not joined" {
		t.Errorf("open: %q", s.Open)
	}
	must(t, j.ProcTime(1999))
	if got := out.take(); got != "+I[a 2000 a 2000]" {
		t.Errorf("the clock at the window's last millisecond: %s", got)
	}
	ev := windowJoin(out, [2]bool{})
	must(t, ev.Input(0).Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	must(t, ev.Input(1).Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	must(t, ev.ProcTime(9999))
	if got := out.take(); got != "" {
		t.Errorf("an event-time window joined on the clock: %s", got)
	}
}
