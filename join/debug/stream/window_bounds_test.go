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

// sessionAgg is a session aggregate of COUNT(*) over rows (key,
// window_start, window_end), gap 1000: each row's window is [ts, ts+1000).
func sessionAgg(out *capture) *SessionAgg {
	s := NewSessionAgg(3, 1, 2, -1, []AggSpec{count()})
	s.Millis, s.Local = ms, func(v int64) any { return v }
	s.Out.To(out)
	return s
}

func row(key string, ts int64) Rec {
	return Rec{Kind: Insert, Row: value.Row{key, ts, ts + 1000}}
}

func TestSessionFiresWhenTheWatermarkReachesEndMinusOne(t *testing.T) {
	out := &capture{}
	s := sessionAgg(out)
	must(t, s.Push(row("a", 1000)))
	must(t, s.Watermark(1998))
	if got := out.take(); got != "wm 1998" {
		t.Fatalf("a watermark one millisecond short of the session's last fired it: %s", got)
	}
	must(t, s.Watermark(1999))
	if got := out.take(); got != "+I[a 1000 2000 1]; wm 1999" {
		t.Fatalf("the watermark at the session's last millisecond: %s", got)
	}
}

// TestSessionsMergeWhenTheyTouch: windows that overlap or touch ([1000,
// 2000) and [2000, 3000): Flink's TimeWindow.intersects) are one session;
// one millisecond apart they are two. Merging keeps the session's place
// among the others.
func TestSessionsMergeWhenTheyTouch(t *testing.T) {
	out := &capture{}
	s := sessionAgg(out)
	for _, r := range []Rec{row("a", 1000), row("b", 2001), row("a", 2000), row("b", 1000), row("a", 500)} {
		must(t, s.Push(r))
	}
	must(t, s.Watermark(MaxTime))
	if got, want := out.take(), fmt.Sprintf("+I[b 1000 2000 1]; +I[a 500 3000 3]; +I[b 2001 3001 1]; wm %d", MaxTime); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// A row that joins one of its key's sessions leaves the others be.
	s = sessionAgg(out)
	for _, r := range []Rec{row("m", 0), row("m", 5000), row("m", 500)} {
		must(t, s.Push(r))
	}
	must(t, s.Watermark(5999))
	if got, want := out.take(), "+I[m 0 1500 2]; +I[m 5000 6000 1]; wm 5999"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestSessionLateRowCutoff: a row is late only when the session it
// belongs to — its own window merged with those it touches — has fired:
// its own window may have passed the watermark while the session it
// joins has not (Flink drops by the merged window).
func TestSessionLateRowCutoff(t *testing.T) {
	out := &capture{}
	s := sessionAgg(out)
	must(t, s.Push(row("a", 2000))) // [2000, 3000)
	must(t, s.Watermark(1998))
	must(t, s.Push(row("b", 999)))  // [999, 1999): fired at 1998, late
	must(t, s.Push(row("b", 1000))) // [1000, 2000): end - 1 = 1999 > 1998, in time
	must(t, s.Watermark(1999))      // fires b's session
	must(t, s.Push(row("c", 999)))  // [999, 1999) alone: late
	// [1000, 2000) has passed the watermark, but it touches a's open
	// session, which it joins: [1000, 3000).
	must(t, s.Push(row("a", 1000)))
	if st := s.State(); st.Late != 2 {
		t.Errorf("late %d, want 2", st.Late)
	}
	must(t, s.Watermark(2999))
	if got, want := out.take(), "wm 1998; +I[b 1000 2000 1]; wm 1999; +I[a 1000 3000 2]; wm 2999"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// After a's session fired, a row that would have joined it is late.
	must(t, s.Push(row("a", 1999)))
	if st := s.State(); st.Late != 3 || st.Rows != 0 {
		t.Errorf("late %d, open %d; want 3 late, none open", st.Late, st.Rows)
	}
	must(t, s.Push(Rec{Kind: Insert, Row: value.Row{"d", nil, nil}}))
	if st := s.State(); st.Late != 3 || st.Rows != 0 {
		t.Errorf("a row without a window: late %d, open %d", st.Late, st.Rows)
	}
}

// TestSessionsFireInOrder: earliest end first, then in the order the
// sessions began; window_time is the session's last millisecond.
func TestSessionsFireInOrder(t *testing.T) {
	out := &capture{}
	s := NewSessionAgg(4, 1, 2, 3, []AggSpec{count()})
	s.Millis, s.Local = ms, func(v int64) any { return v }
	s.Out.To(out)
	for _, r := range []value.Row{{"c", int64(3000), int64(4000), nil}, {"b", int64(1000), int64(2000), nil}, {"a", int64(1000), int64(2000), nil},
		{"d", int64(0), int64(1000), nil}, {"d", int64(500), int64(1500), nil}} {
		must(t, s.Push(Rec{Kind: Insert, Row: r}))
	}
	must(t, s.Watermark(5000))
	want := "+I[d 0 1500 1970-01-01 00:00:01.499 +0000 UTC 2]; +I[b 1000 2000 1970-01-01 00:00:01.999 +0000 UTC 1]; " +
		"+I[a 1000 2000 1970-01-01 00:00:01.999 +0000 UTC 1]; +I[c 3000 4000 1970-01-01 00:00:03.999 +0000 UTC 1]; wm 5000"
	if got := out.take(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Equal ends fire in the order the sessions began — a merged session
	// keeps its first row's place, whichever key came first.
	for _, r := range []value.Row{{"p", int64(10_000), int64(11_000), nil}, {"q", int64(13_000), int64(14_000), nil},
		{"p", int64(13_000), int64(14_000), nil}, {"x", int64(20_000), int64(21_000), nil}, {"y", int64(20_500), int64(21_500), nil},
		{"x", int64(20_500), int64(21_500), nil}} {
		must(t, s.Push(Rec{Kind: Insert, Row: r}))
	}
	must(t, s.Watermark(21_499))
	want = "+I[p 10000 11000 1970-01-01 00:00:10.999 +0000 UTC 1]; +I[q 13000 14000 1970-01-01 00:00:13.999 +0000 UTC 1]; " +
		"+I[p 13000 14000 1970-01-01 00:00:13.999 +0000 UTC 1]; +I[x 20000 21500 1970-01-01 00:00:21.499 +0000 UTC 2]; " +
		"+I[y 20500 21500 1970-01-01 00:00:21.499 +0000 UTC 1]; wm 21499"
	if got := out.take(); got != want {
		t.Errorf("equal ends: got  %s\nwant %s", got, want)
	}
	// What fired is gone; what is open still fires, once.
	must(t, s.Push(Rec{Kind: Insert, Row: value.Row{"e", int64(26000), int64(27000), nil}}))
	must(t, s.Watermark(26999))
	if got := out.take(); got != "+I[e 26000 27000 1970-01-01 00:00:26.999 +0000 UTC 1]; wm 26999" {
		t.Errorf("after: %s", got)
	}
}

// TestSessionArgumentsAndFilters: as a window aggregate's, the first
// column too.
func TestSessionArgumentsAndFilters(t *testing.T) {
	out := &capture{}
	// Rows (flag, window_start, window_end): the key is flag.
	s := NewSessionAgg(3, 1, 2, -1, []AggSpec{{Func: "COUNT", Arg: -1, Filter: 0}, {Func: "COUNT", Arg: 0, Filter: -1}})
	s.Millis, s.Local = ms, func(v int64) any { return v }
	s.Out.To(out)
	for _, r := range []value.Row{{true, int64(0), int64(1000)}, {false, int64(0), int64(1000)}, {nil, int64(0), int64(1000)}} {
		must(t, s.Push(Rec{Kind: Insert, Row: r}))
	}
	must(t, s.Watermark(999))
	if got, want := out.take(), "+I[true 0 1000 1 1]; +I[false 0 1000 0 1]; +I[<nil> 0 1000 0 0]; wm 999"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// An aggregate that cannot take a value says so, when the session fires.
	s = NewSessionAgg(3, 1, 2, -1, []AggSpec{{Func: "SUM", Arg: 0, Filter: -1}})
	s.Millis, s.Local = ms, func(v int64) any { return v }
	s.Out.To(out)
	must(t, s.Push(Rec{Kind: Insert, Row: value.Row{"x", int64(0), int64(1000)}}))
	if err := s.Watermark(999); err == nil || !strings.HasPrefix(err.Error(), "SUM of ") {
		t.Errorf("SUM of a string: %v", err)
	}
	// window_time may be the first key; it is no key of the session.
	s = NewSessionAgg(4, 1, 2, 0, []AggSpec{count()})
	s.Millis, s.Local = ms, func(v int64) any { return v }
	s.Out.To(out)
	must(t, s.Push(Rec{Kind: Insert, Row: value.Row{"t1", int64(0), int64(1000), "k"}}))
	must(t, s.Push(Rec{Kind: Insert, Row: value.Row{"t2", int64(500), int64(1500), "k"}}))
	must(t, s.Watermark(1499))
	if got, want := out.take(), "+I[1970-01-01 00:00:01.499 +0000 UTC 0 1500 k 2]; wm 1499"; got != want {
		t.Errorf("window_time first: got %s, want %s", got, want)
	}
}

func TestSessionByProcessingTimeAndErrors(t *testing.T) {
	out := &capture{}
	s := sessionAgg(out)
	s.Proc = true
	must(t, s.Push(row("a", 1000)))
	must(t, s.Watermark(5000))
	must(t, s.ProcTime(1998))
	if got := out.take(); got != "wm 5000" {
		t.Fatalf("before the clock reached the session's last millisecond: %s", got)
	}
	must(t, s.ProcTime(1999))
	if got := out.take(); got != "+I[a 1000 2000 1]" {
		t.Errorf("the clock at the session's last millisecond: %s", got)
	}
	must(t, s.Push(row("a", 3000)))
	if st := s.State(); st.Open != "1 processing-time sessions not fired" {
		t.Errorf("open: %q", st.Open)
	}
	ev := sessionAgg(out)
	must(t, ev.Push(row("a", 1000)))
	must(t, ev.ProcTime(9999))
	must(t, ev.Watermark(Idle))
	if got := out.take(); got != fmt.Sprintf("wm %d", Idle) {
		t.Errorf("an event-time session on the clock, or idle: %s", got)
	}
	out.fail = errors.New("sink down")
	if err := ev.Watermark(1999); !errors.Is(err, out.fail) {
		t.Errorf("a failing consumer: %v", err)
	}
}

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

// windowRank is the top 2 of rows (key, window_end, v) per key and
// window, by v.
func windowRank(out *capture, number bool) *WindowRank {
	w := NewWindowRank([]int{0, 1}, 1, SortKey{Cols: []int{2}, Desc: []bool{false}}, 2, number)
	w.Millis = ms
	w.Out.To(out)
	return w
}

func TestWindowRankFiresWhenTheWatermarkReachesEndMinusOne(t *testing.T) {
	out := &capture{}
	w := windowRank(out, true)
	for _, v := range []int64{3, 1, 2} {
		must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000), v}}))
	}
	must(t, w.Watermark(1998))
	if got := out.take(); got != "wm 1998" {
		t.Fatalf("a watermark one millisecond short of the window's last fired it: %s", got)
	}
	must(t, w.Watermark(1999))
	if got := out.take(); got != "+I[a 2000 1 1]; +I[a 2000 2 2]; wm 1999" {
		t.Fatalf("the watermark at the window's last millisecond: %s", got)
	}
}

func TestWindowRankLateRowCutoff(t *testing.T) {
	out := &capture{}
	w := windowRank(out, false)
	must(t, w.Watermark(1998))
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000), int64(1)}})) // in time
	must(t, w.Watermark(1999))
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000), int64(0)}})) // late
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2001), int64(0)}})) // in time
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"a", nil, int64(0)}}))         // no window
	if s := w.State(); s.Late != 1 || s.Rows != 1 {
		t.Errorf("late %d, waiting %d; want 1 and 1", s.Late, s.Rows)
	}
	must(t, w.Watermark(2000))
	if got, want := out.take(), "wm 1998; +I[a 2000 1]; wm 1999; +I[a 2001 0]; wm 2000"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestWindowRankOrder: windows earliest end first, partitions in the
// order they came, rows by the sort key (ties in arrival order), the
// first N of each.
func TestWindowRankOrder(t *testing.T) {
	out := &capture{}
	w := windowRank(out, true)
	for _, r := range []value.Row{
		{"z", int64(3000), int64(1)},
		{"b", int64(2000), int64(5)}, {"a", int64(2000), int64(9)}, {"b", int64(2000), int64(4)}, {"a", int64(2000), int64(9)},
		{"c", int64(2000), int64(1)}, {"a", int64(2000), int64(8)}, {"d", int64(2000), int64(1)},
	} {
		must(t, w.Push(Rec{Kind: Insert, Row: r}))
	}
	must(t, w.Watermark(2999))
	want := "+I[b 2000 4 1]; +I[b 2000 5 2]; +I[a 2000 8 1]; +I[a 2000 9 2]; +I[c 2000 1 1]; +I[d 2000 1 1]; +I[z 3000 1 1]; wm 2999"
	if got := out.take(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Many partitions of one window fire in the order they came (a map
	// of them alone would give them in any order).
	many := windowRank(out, false)
	var want2 []string
	for i := range 40 {
		k := fmt.Sprintf("k%02d", (i*7)%40)
		must(t, many.Push(Rec{Kind: Insert, Row: value.Row{k, int64(2000), int64(i)}}))
		want2 = append(want2, fmt.Sprintf("+I[%s 2000 %d]", k, i))
	}
	must(t, many.Watermark(1999))
	if got := out.take(); got != strings.Join(want2, "; ")+"; wm 1999" {
		t.Errorf("many partitions: %s", got)
	}
	// Ties keep their order: the first of two equal rows ranks first.
	tie := windowRank(out, false)
	tie.Sort = SortKey{Cols: []int{2}, Desc: []bool{false}}
	must(t, tie.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000), int64(1), "first"}}))
	must(t, tie.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000), int64(1), "second"}}))
	must(t, tie.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000), int64(1), "third"}}))
	must(t, tie.Watermark(1999))
	if got := out.take(); got != "+I[a 2000 1 first]; +I[a 2000 1 second]; wm 1999" {
		t.Errorf("ties: %s", got)
	}
}

func TestWindowRankByProcessingTimeAndErrors(t *testing.T) {
	out := &capture{}
	w := windowRank(out, false)
	w.Millis = nil // the column is a TIMESTAMP: Millis reads it
	w.Proc = true
	end := FromMillis(2000)
	must(t, w.Push(Rec{Kind: Insert, Row: value.Row{"a", end, int64(1)}}))
	must(t, w.Watermark(5000))
	must(t, w.ProcTime(1998))
	if got := out.take(); got != "wm 5000" {
		t.Fatalf("before the clock reached the window's last millisecond: %s", got)
	}
	if s := w.State(); s.Open != "1 processing-time windows not fired" {
		t.Errorf("open: %q", s.Open)
	}
	must(t, w.ProcTime(1999))
	if got := out.take(); got != fmt.Sprintf("+I[a %v 1]", end) {
		t.Errorf("the clock at the window's last millisecond: %s", got)
	}
	ev := windowRank(out, false)
	must(t, ev.Push(Rec{Kind: Insert, Row: value.Row{"a", int64(2000), int64(1)}}))
	must(t, ev.ProcTime(9999))
	must(t, ev.Watermark(Idle))
	if got := out.take(); got != fmt.Sprintf("wm %d", Idle) {
		t.Errorf("an event-time window on the clock, or idle: %s", got)
	}
	out.fail = errors.New("sink down")
	if err := ev.Watermark(1999); !errors.Is(err, out.fail) {
		t.Errorf("a failing consumer: %v", err)
	}
}
