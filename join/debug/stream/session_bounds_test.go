package stream

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/palink/palink/join/debug/value"
)

// The session windows at their boundaries (see window_bounds_test.go).

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
