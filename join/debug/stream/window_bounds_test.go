package stream

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/palink/palink/join/debug/value"
)

// These tests hold the windows to Flink's boundaries, to the millisecond:
// a window [start, end) fires when the watermark (or, by processing time,
// the clock) reaches end - 1, its maxTimestamp, not before and not after
// (TimeWindowUtil.isWindowFired: progress >= end - 1); a row is late, and
// dropped, when its window has fired by that same rule (the slicing and
// window operators' processElement; for a session, the window it merges
// into: MergingWindowProcessFunction drops a row only when that is late).
// Times are plain epoch milliseconds.

// ms reads a time column that holds epoch milliseconds.
func ms(v any) (int64, bool) {
	x, ok := v.(int64)
	return x, ok
}

// capture is a sink that keeps what reaches it, rows as "+I[...]" and
// watermarks as "wm N"; with fail set, a push fails.
type capture struct {
	got  []string
	fail error
}

func (c *capture) Push(r Rec) error {
	if c.fail != nil {
		return c.fail
	}
	c.got = append(c.got, fmt.Sprintf("%s%v", r.Kind, r.Row))
	return nil
}

func (c *capture) Watermark(ts int64) error {
	c.got = append(c.got, fmt.Sprintf("wm %d", ts))
	return nil
}

// take returns what arrived since the last take.
func (c *capture) take() string {
	s := strings.Join(c.got, "; ")
	c.got = nil
	return s
}

func count() AggSpec { return AggSpec{Func: "COUNT", Arg: -1, Filter: -1} }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestWindowsAssignAtTheirBoundaries(t *testing.T) {
	cases := []struct {
		name string
		w    Windows
		ts   int64
		want string
	}{
		{"tumble: the last millisecond of a window", Windows{Kind: Tumble, Size: 1000}, 1999, "[[1000 2000]]"},
		{"tumble: the first of the next", Windows{Kind: Tumble, Size: 1000}, 2000, "[[2000 3000]]"},
		{"tumble: before the epoch", Windows{Kind: Tumble, Size: 1000}, -1, "[[-1000 0]]"},
		{"tumble: the epoch", Windows{Kind: Tumble, Size: 1000}, 0, "[[0 1000]]"},
		{"tumble with an offset: its last millisecond", Windows{Kind: Tumble, Size: 1000, Offset: 200}, 1199, "[[200 1200]]"},
		{"tumble with an offset: the next", Windows{Kind: Tumble, Size: 1000, Offset: 200}, 1200, "[[1200 2200]]"},
		{"tumble with an offset, before the epoch", Windows{Kind: Tumble, Size: 1000, Offset: 200}, -900, "[[-1800 -800]]"},
		{"hop: latest window first", Windows{Kind: Hop, Size: 3000, Step: 1000}, 2500, "[[2000 5000] [1000 4000] [0 3000]]"},
		{"hop: a window's end is not in it", Windows{Kind: Hop, Size: 3000, Step: 1000}, 3000, "[[3000 6000] [2000 5000] [1000 4000]]"},
		{"hop: the last millisecond of the oldest", Windows{Kind: Hop, Size: 3000, Step: 1000}, 2999, "[[2000 5000] [1000 4000] [0 3000]]"},
		{"hop with an offset", Windows{Kind: Hop, Size: 3000, Step: 1000, Offset: 500}, 500, "[[500 3500] [-500 2500] [-1500 1500]]"},
		{"cumulate: every step up to the max", Windows{Kind: Cumulate, Size: 3000, Step: 1000}, 1500, "[[0 2000] [0 3000]]"},
		{"cumulate: the last millisecond", Windows{Kind: Cumulate, Size: 3000, Step: 1000}, 2999, "[[0 3000]]"},
		{"cumulate: the first of the next", Windows{Kind: Cumulate, Size: 3000, Step: 1000}, 3000, "[[3000 4000] [3000 5000] [3000 6000]]"},
		{"cumulate: the first step's last millisecond", Windows{Kind: Cumulate, Size: 3000, Step: 1000}, 999, "[[0 1000] [0 2000] [0 3000]]"},
		{"cumulate with an offset", Windows{Kind: Cumulate, Size: 3000, Step: 1000, Offset: 100}, 1100, "[[100 2100] [100 3100]]"},
		{"session: the row's own gap", Windows{Kind: Session, Size: 1000}, 1500, "[[1500 2500]]"},
	}
	for _, c := range cases {
		if got := fmt.Sprint(c.w.Assign(c.ts)); got != c.want {
			t.Errorf("%s: Assign(%d) = %s, want %s", c.name, c.ts, got, c.want)
		}
	}
}

// TestWindowTVFAddsTheWindowColumns: each row once per window, with
// window_start, window_end and window_time added after its columns; a row
// without a time is dropped; a failing consumer's error comes back.
func TestWindowTVFAddsTheWindowColumns(t *testing.T) {
	out := &capture{}
	tvf := &WindowTVF{W: Windows{Kind: Hop, Size: 2000, Step: 1000}, Time: 1, Millis: ms,
		Window: func(start, end int64) (any, any, any) { return start, end, end - 1 }}
	tvf.Out.To(out)
	must(t, tvf.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(1500)}}))
	must(t, tvf.Push(Rec{Kind: Insert, Row: value.Row{"b", nil}}))
	must(t, tvf.Watermark(1700))
	if got, want := out.take(), "+I[a 1500 1000 3000 2999]; +I[a 1500 0 2000 1999]; wm 1700"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	out.fail = errors.New("sink down")
	if err := tvf.Push(Rec{Kind: Insert, Row: value.Row{"c", int64(1)}}); !errors.Is(err, out.fail) {
		t.Errorf("a failing consumer: %v", err)
	}
}

// windowAgg is COUNT(*) per key and window over rows (key, window_end).
func windowAgg(out *capture) *WindowAgg {
	w := NewWindowAgg(2, 1, []AggSpec{count()}, ms)
	w.Out.To(out)
	return w
}

func TestWindowAggFiresWhenTheWatermarkReachesEndMinusOne(t *testing.T) {
	out := &capture{}
	w := windowAgg(out)
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	must(t, w.Watermark(1998))
	if got := out.take(); got != "wm 1998" {
		t.Fatalf("a watermark one millisecond short of the window's last fired it: %s", got)
	}
	must(t, w.Watermark(1999))
	if got := out.take(); got != "+I[a 2000 1]; wm 1999" {
		t.Fatalf("the watermark at the window's last millisecond: %s, want it fired, then the watermark", got)
	}
	must(t, w.Watermark(5000))
	if got := out.take(); got != "wm 5000" {
		t.Errorf("a window fired twice: %s", got)
	}
}

func TestWindowAggLateRowCutoff(t *testing.T) {
	out := &capture{}
	w := windowAgg(out)
	must(t, w.Watermark(1998))
	// end - 1 = 1999 > 1998: in time.
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	must(t, w.Watermark(1999))
	// The window has fired: late, whatever its key.
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"b", int64(2000)}}))
	// The next window is in time.
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"b", int64(2001)}}))
	if s := w.State(); s.Late != 2 || s.Rows != 1 {
		t.Errorf("late %d, open %d; want 2 late, 1 open", s.Late, s.Rows)
	}
	must(t, w.Watermark(2000))
	if got, want := out.take(), "wm 1998; +I[a 2000 1]; wm 1999; +I[b 2001 1]; wm 2000"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// A row without a window end is no row of a window, late or not.
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"c", nil}}))
	if s := w.State(); s.Late != 2 || s.Rows != 0 {
		t.Errorf("a row without a window end: late %d, open %d", s.Late, s.Rows)
	}
}

// TestWindowAggFiresInOrder: the windows a watermark passes fire earliest
// end first, each window's keys in the order they came.
func TestWindowAggFiresInOrder(t *testing.T) {
	out := &capture{}
	w := windowAgg(out)
	for _, r := range []value.Row{{"e", int64(3000)}, {"d", int64(2000)}, {"c", int64(2000)}, {"b", int64(2000)}, {"a", int64(2000)}, {"f", int64(4000)}} {
		must(t, w.Push(Rec{Kind: Insert, Row: r}))
	}
	must(t, w.Watermark(3999))
	if got, want := out.take(), "+I[d 2000 1]; +I[c 2000 1]; +I[b 2000 1]; +I[a 2000 1]; +I[e 3000 1]; +I[f 4000 1]; wm 3999"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// Many keys of one window fire in the order they came (a map of them
	// alone would give them in any order).
	var want []string
	for i := range 40 {
		k := fmt.Sprintf("k%02d", (i*7)%40)
		must(t, w.Push(Rec{Kind: Insert, Row: value.Row{k, int64(5000)}}))
		want = append(want, fmt.Sprintf("+I[%s 5000 1]", k))
	}
	must(t, w.Watermark(4999))
	if got := out.take(); got != strings.Join(want, "; ")+"; wm 4999" {
		t.Errorf("many keys: %s", got)
	}
}

// TestWindowAggArgumentsAndFilters: COUNT(x) counts x's non-NULL values,
// FILTER keeps the rows whose condition is TRUE, retractions take away;
// any column may be an argument or a condition, the first one too.
func TestWindowAggArgumentsAndFilters(t *testing.T) {
	out := &capture{}
	// Rows (flag, window_end, x): keys flag and window_end.
	w := NewWindowAgg(2, 1, []AggSpec{
		{Func: "COUNT", Arg: 0, Filter: -1}, // COUNT(flag)
		{Func: "COUNT", Arg: -1, Filter: 0}, // COUNT(*) FILTER (WHERE flag)
		{Func: "SUM", Arg: 2, Filter: -1, In: value.Type{Kind: value.BigInt}, Out: value.Type{Kind: value.BigInt}},
	}, ms)
	w.Out.To(out)
	for _, r := range []Rec{
		{Kind: Insert, Row: value.Row{true, int64(1000), int64(5)}},
		{Kind: Insert, Row: value.Row{true, int64(1000), int64(7)}},
		{Kind: UpdateBefore, Row: value.Row{true, int64(1000), int64(7)}},
		{Kind: Insert, Row: value.Row{false, int64(1000), int64(1)}},
		{Kind: Insert, Row: value.Row{nil, int64(1000), int64(2)}},
	} {
		must(t, w.Push(r))
	}
	must(t, w.Watermark(999))
	if got, want := out.take(), "+I[true 1000 1 1 5]; +I[false 1000 1 0 1]; +I[<nil> 1000 0 0 2]; wm 999"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// An aggregate that cannot take a value says so.
	if err := w.Push(Rec{Kind: Insert, Row: value.Row{true, int64(2000), "x"}}); err == nil || !strings.HasPrefix(err.Error(), "SUM of ") {
		t.Errorf("SUM of a string: %v", err)
	}
}

// TestWindowAggByProcessingTime: processing-time windows fire as the clock
// reaches end - 1, never on a watermark (which they pass on), and what
// fires them passes no watermark.
func TestWindowAggByProcessingTime(t *testing.T) {
	out := &capture{}
	w := windowAgg(out)
	w.Proc = true
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	must(t, w.ProcTime(1998))
	if got := out.take(); got != "" {
		t.Fatalf("before the clock reached the window's last millisecond: %s", got)
	}
	must(t, w.ProcTime(1999))
	if got := out.take(); got != "+I[a 2000 1]" {
		t.Errorf("the clock at the window's last millisecond: %s (and no watermark)", got)
	}
	if s := w.State(); s.Open != "" {
		t.Errorf("nothing open, yet: %q", s.Open)
	}
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(3000)}}))
	must(t, w.Watermark(5000))
	if got := out.take(); got != "wm 5000" {
		t.Errorf("a watermark fired a processing-time window, or was held: %s", got)
	}
	if s := w.State(); s.Open != "1 processing-time windows not fired" {
		t.Errorf("open: %q", s.Open)
	}
	// By event time the clock fires nothing.
	ev := windowAgg(out)
	must(t, ev.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	must(t, ev.ProcTime(9999))
	if got := out.take(); got != "" {
		t.Errorf("an event-time window fired on the clock: %s", got)
	}
}

// TestWindowAggIdleAndErrors: an idle input's mark passes without firing;
// a failing consumer's error comes back from the watermark that fires.
func TestWindowAggIdleAndErrors(t *testing.T) {
	out := &capture{}
	w := windowAgg(out)
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	must(t, w.Watermark(Idle))
	if got := out.take(); got != fmt.Sprintf("wm %d", Idle) {
		t.Errorf("idle: %s", got)
	}
	out.fail = errors.New("sink down")
	if err := w.Watermark(1999); !errors.Is(err, out.fail) {
		t.Errorf("a failing consumer: %v", err)
	}
	w = windowAgg(out)
	w.Proc = true
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000)}}))
	if err := w.ProcTime(1999); !errors.Is(err, out.fail) {
		t.Errorf("a failing consumer, by processing time: %v", err)
	}
}
