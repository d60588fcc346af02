package stream

import (
	"fmt"
	"testing"
	"time"

	"github.com/palink/palink/join/debug/value"
)

// TestKinds: the four row kinds print as Flink prints them and read back;
// +I and +U add to a table, -U and -D take away.
func TestKinds(t *testing.T) {
	for k, want := range map[Kind]struct {
		s    string
		adds bool
	}{Insert: {"+I", true}, UpdateBefore: {"-U", false}, UpdateAfter: {"+U", true}, Delete: {"-D", false}} {
		if k.String() != want.s || k.Adds() != want.adds {
			t.Errorf("%d: %s adds %v, want %s adds %v", k, k, k.Adds(), want.s, want.adds)
		}
		if back, ok := ParseKind(want.s); !ok || back != k {
			t.Errorf("ParseKind(%q) = %v, %v", want.s, back, ok)
		}
	}
	if _, ok := ParseKind("+X"); ok {
		t.Error(`ParseKind("+X") is a kind`)
	}
}

func rec(k Kind, vals ...any) Rec { return Rec{Kind: k, Row: value.Row(vals)} }

// logOf writes a changelog as +I[a, 1] strings.
func logOf(rs []Rec) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s%v", r.Kind, r.Row))
	}
	return out
}

func rowsOf(rs []value.Row) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, fmt.Sprint(r))
	}
	return out
}

// TestCollectorFinalTable: a sink with a primary key upserts by it and an
// upsert sink receives no -U; one without a key applies each retraction to
// an equal row; an append-only sink keeps only Keep rows in memory but
// counts them all and passes every one on.
func TestCollectorFinalTable(t *testing.T) {
	changes := []Rec{
		rec(Insert, int64(1), "a"), rec(Insert, int64(2), "b"), rec(UpdateBefore, int64(1), "a"), rec(UpdateAfter, int64(1), "a2"),
		rec(Insert, int64(2), "b"), rec(Delete, int64(2), "b"),
	}
	push := func(c *Collector) {
		t.Helper()
		for _, r := range changes {
			if err := c.Push(r); err != nil {
				t.Fatal(err)
			}
		}
	}

	keyed := &Collector{Key: []int{0}, Upsert: true}
	push(keyed)
	sameLog(t, "upsert sink's changelog", logOf(keyed.Changes), []string{"+I[1 a]", "+I[2 b]", "+U[1 a2]", "+I[2 b]", "-D[2 b]"})
	sameLog(t, "upsert sink's table", rowsOf(keyed.Final()), []string{"[1 a2]"})
	if keyed.Count != [4]int64{3, 0, 1, 1} {
		t.Errorf("counts %v", keyed.Count)
	}

	bag := &Collector{}
	push(bag)
	sameLog(t, "retracting sink's table", rowsOf(bag.Final()), []string{"[2 b]", "[1 a2]"})
	if bag.FinalRows() != 2 {
		t.Errorf("FinalRows() = %d", bag.FinalRows())
	}

	var seen int
	log := &Collector{AppendOnly: true, Keep: 2, OnChange: func(Rec) error { seen++; return nil }}
	for i := range 5 {
		if err := log.Push(rec(Insert, int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	sameLog(t, "append-only sink's rows kept", rowsOf(log.Final()), []string{"[0]", "[1]"})
	if log.FinalRows() != 5 || seen != 5 {
		t.Errorf("FinalRows() = %d, OnChange saw %d; want 5 and 5", log.FinalRows(), seen)
	}

	limited := &Collector{AppendOnly: true, Limit: 2}
	for i := range 3 {
		if err := limited.Push(rec(Insert, int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	if !limited.Done() || limited.Total() != 2 {
		t.Errorf("a sink limited to 2 rows: done %v after %d", limited.Done(), limited.Total())
	}
}

// collect is an operator's output, written down.
func collect(f *Fan) *[]Rec {
	var got []Rec
	f.To(&appender{&got})
	return &got
}

type appender struct{ rs *[]Rec }

func (a *appender) Push(r Rec) error         { *a.rs = append(*a.rs, r); return nil }
func (a *appender) Watermark(ts int64) error { return nil }

// TestNormalizeRowKinds: an upsert stream becomes a changelog: a key's
// first row +I, a new row for it -U and +U, an unchanged one nothing, a
// deletion -D of the row held, a deletion of a key not held nothing.
func TestNormalizeRowKinds(t *testing.T) {
	n := NewNormalize([]int{0})
	got := collect(&n.Out)
	for _, r := range []Rec{
		rec(Insert, "k1", "a"), rec(Insert, "k1", "a"), rec(UpdateAfter, "k1", "b"), rec(Delete, "k2", nil), rec(Delete, "k1", nil),
	} {
		if err := n.Push(r); err != nil {
			t.Fatal(err)
		}
	}
	sameLog(t, "ChangelogNormalize", logOf(*got), []string{"+I[k1 a]", "-U[k1 a]", "+U[k1 b]", "-D[k1 b]"})
	if s := n.State(); s.Rows != 0 {
		t.Errorf("state after every key was deleted: %+v", s)
	}
}

// TestDedupRowKinds: keeping the first row by processing time emits +I
// once per key; keeping the last retracts the row held (-U, +U); by event
// time the first row is the earliest, whenever it comes.
func TestDedupRowKinds(t *testing.T) {
	at := func(s int) any { return t0.Add(time.Duration(s) * time.Second) }
	in := []Rec{rec(Insert, "k", "x", at(20)), rec(Insert, "k", "y", at(10)), rec(Insert, "k", "z", at(30))}
	for _, tc := range []struct {
		name     string
		time     int
		keepLast bool
		want     []string
	}{
		{"first row, processing time", -1, false, []string{"+I[k x]"}},
		{"last row, processing time", -1, true, []string{"+I[k x]", "-U[k x]", "+U[k y]", "-U[k y]", "+U[k z]"}},
		{"first row, event time", 2, false, []string{"+I[k x]", "-U[k x]", "+U[k y]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDedup([]int{0}, tc.time, tc.keepLast)
			got := collect(&d.Out)
			for _, r := range in {
				if err := d.Push(r); err != nil {
					t.Fatal(err)
				}
			}
			short := make([]Rec, len(*got))
			for i, r := range *got {
				short[i] = Rec{Kind: r.Kind, Row: r.Row[:2]}
			}
			sameLog(t, tc.name, logOf(short), tc.want)
		})
	}
}

// TestGraphSamplesPeakState: the report keeps the most state an operator
// held at a sample, beside what it holds at the end.
func TestGraphSamplesPeakState(t *testing.T) {
	g := &Graph{}
	n := NewNormalize([]int{0})
	g.Add("ChangelogNormalize", n)
	g.Add("Calc", &Calc{})
	for _, r := range []Rec{rec(Insert, "a"), rec(Insert, "b"), rec(Insert, "c")} {
		if err := n.Push(r); err != nil {
			t.Fatal(err)
		}
	}
	if held := g.Sample(); held != 3 {
		t.Errorf("Sample() = %d rows held, want 3", held)
	}
	for _, k := range []string{"a", "b"} {
		if err := n.Push(rec(Delete, k)); err != nil {
			t.Fatal(err)
		}
	}
	reps := g.Reports()
	if len(reps) != 1 || reps[0].Name != "ChangelogNormalize" {
		t.Fatalf("reports %+v: want the one stateful operator", reps)
	}
	if r := reps[0]; r.Peak.Rows != 3 || r.State.Rows != 1 || r.Peak.Bytes <= r.State.Bytes {
		t.Errorf("report %+v: want a peak of 3 rows, 1 at the end, fewer bytes at the end", r)
	}
}
