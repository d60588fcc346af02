package stream

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/palink/palink/join/debug/value"
)

// The window top-N at its boundaries (see window_bounds_test.go).

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
