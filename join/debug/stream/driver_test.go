package stream

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/join/debug/value"
)

// recorder is a sink that writes down what reaches it, rows and
// watermarks, in order.
type recorder struct {
	name string
	log  *[]string
}

func (r recorder) Push(rec Rec) error {
	*r.log = append(*r.log, fmt.Sprintf("%s %s%v", r.name, rec.Kind, rec.Row))
	return nil
}

func (r recorder) Watermark(ts int64) error {
	switch ts {
	case MaxTime:
		*r.log = append(*r.log, r.name+" wm end")
	case Idle:
		*r.log = append(*r.log, r.name+" idle")
	default:
		*r.log = append(*r.log, r.name+" wm "+FromMillis(ts).Format("15:04:05"))
	}
	return nil
}

// rows is a Reader over rows.
type rows struct {
	rs []value.Row
	i  int
}

func (r *rows) Next() (Rec, bool, error) {
	if r.i >= len(r.rs) {
		return Rec{}, false, nil
	}
	r.i++
	return Rec{Row: r.rs[r.i-1], Src: int64(r.i)}, true, nil
}

func (r *rows) Close() error { return nil }

var t0 = time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)

// events is a source of rows (name, seconds after 10:00) with a watermark
// five seconds behind the latest row, recorded into log.
func events(name string, log *[]string, at ...int) *Source {
	r := &rows{}
	for i, s := range at {
		r.rs = append(r.rs, value.Row{fmt.Sprintf("%s%d", name, i+1), t0.Add(time.Duration(s) * time.Second)})
	}
	src := &Source{Name: name, Reader: r, Rowtime: 1, Watermark: func(row value.Row) (int64, bool, error) {
		ms, ok := Millis(row[1])
		return ms - 5000, ok, nil
	}}
	src.Out.To(recorder{name: name, log: log})
	return src
}

// short drops the rows' timestamps from a log: "o +I[o1]".
func short(log []string) []string {
	out := make([]string, len(log))
	for i, l := range log {
		if j := strings.Index(l, " 2024-01-01"); j > 0 {
			l = l[:j] + "]"
		}
		out[i] = l
	}
	return out
}

func sameLog(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// TestWatermarkPolicy: after every row (the default) a source's watermark
// follows its latest row, never going back for a late one; after every N
// rows it moves every N; at the end there is only the final one.
func TestWatermarkPolicy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy Policy
		want   []string
	}{
		{"every row", EveryRow, []string{"o +I[o1]", "o wm 10:00:05", "o +I[o2]", "o wm 10:00:25", "o +I[o3]", "o +I[o4]", "o wm 10:00:35", "o wm end"}},
		{"every 2 rows", 2, []string{"o +I[o1]", "o +I[o2]", "o wm 10:00:25", "o +I[o3]", "o +I[o4]", "o wm 10:00:35", "o wm end"}},
		{"at the end", AtEnd, []string{"o +I[o1]", "o +I[o2]", "o +I[o3]", "o +I[o4]", "o wm end"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log []string
			d := &Driver{Sources: []*Source{events("o", &log, 10, 30, 20, 40)}, Graph: &Graph{}, Policy: tc.policy}
			if err := d.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			sameLog(t, tc.name, short(log), tc.want)
		})
	}
}

// TestDriverReadsTheEarliestRowFirst: of several sources with a
// WATERMARK, the row with the earliest event time among their next rows
// comes first; each source's own order is kept.
func TestDriverReadsTheEarliestRowFirst(t *testing.T) {
	var log []string
	d := &Driver{Sources: []*Source{events("o", &log, 10, 30, 25), events("s", &log, 20, 40)}, Graph: &Graph{}, Policy: AtEnd}
	if err := d.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	sameLog(t, "order", short(log), []string{"o +I[o1]", "s +I[s1]", "o +I[o2]", "o +I[o3]", "s +I[s2]", "o wm end", "s wm end"})
}

// TestIdleSource: with an idle timeout, a source the simulated clock has
// left behind is marked idle; it is active again with its next watermark
// past the one it had (as Flink's valve realigns an input that resumes).
func TestIdleSource(t *testing.T) {
	var log []string
	a, b := events("a", &log, 10, 20, 30, 40, 50), events("b", &log, 15, 60)
	d := &Driver{Sources: []*Source{a, b}, Graph: &Graph{}, Step: 1000, IdleTimeout: 2500}
	if err := d.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	sameLog(t, "idle", short(log), []string{
		"a +I[a1]", "a wm 10:00:05", "b +I[b1]", "b wm 10:00:10", "a +I[a2]", "a wm 10:00:15", "a +I[a3]", "a wm 10:00:25",
		"a +I[a4]", "a wm 10:00:35", "b idle", "a +I[a5]", "a wm 10:00:45",
		"b +I[b2]", "b wm 10:00:55", "a wm end", "b wm end",
	})
}

// TestMergeTakesTheMinimumOfActiveInputs: an operator's watermark is the
// least of its inputs', leaving idle ones out; none while all are idle.
func TestMergeTakesTheMinimumOfActiveInputs(t *testing.T) {
	m := NewMerge(2)
	steps := []struct {
		in   int
		ts   int64
		want int64
		ok   bool
	}{
		{0, 100, MinTime, true}, // input 1 has none yet
		{1, 50, 50, true},
		{1, Idle, 100, true},
		{0, Idle, MaxTime, false},
		{1, 70, 70, true}, // active again
		{0, 90, 70, true}, // an input's watermark never goes back: input 0 stays at 100
		{1, 200, 100, true},
	}
	for i, s := range steps {
		got, ok := m.Set(s.in, s.ts)
		if ok != s.ok || ok && got != s.want {
			t.Errorf("step %d (input %d at %d): %d, %v; want %d, %v", i, s.in, s.ts, got, ok, s.want, s.ok)
		}
	}
}

// TestFan: a watermark goes on only when it advances (idleness always),
// and each of several consumers gets its own copy of a row.
func TestFan(t *testing.T) {
	var log []string
	var f Fan
	f.To(recorder{name: "x", log: &log})
	for _, ts := range []int64{t0.UnixMilli(), t0.UnixMilli(), t0.UnixMilli() - 1, Idle, t0.UnixMilli() + 1000} {
		if err := f.Watermark(ts); err != nil {
			t.Fatal(err)
		}
	}
	sameLog(t, "watermarks", log, []string{"x wm 10:00:00", "x idle", "x wm 10:00:01"})
	if f.Current() != t0.UnixMilli()+1000 {
		t.Errorf("Current() = %d", f.Current())
	}

	var g Fan
	keep := &keeper{}
	g.To(keep)
	g.To(keep)
	if err := g.Push(Rec{Row: value.Row{"a"}}); err != nil {
		t.Fatal(err)
	}
	keep.got[0][0] = "changed"
	if keep.got[1][0] != "a" {
		t.Errorf("the second consumer's row changed with the first's: %v", keep.got)
	}
}

type keeper struct{ got []value.Row }

func (k *keeper) Push(r Rec) error         { k.got = append(k.got, r.Row); return nil }
func (k *keeper) Watermark(ts int64) error { return nil }
