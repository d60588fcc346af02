package join

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"
	"weak"

	"pgregory.net/rapid"
)

// qe makes queue entries: positive values are records, others watermarks.
func qe(v int) *entry[int, int] {
	if v <= 0 {
		return &entry[int, int]{in: Element[int]{Timestamp: int64(-v), Watermark: true}, finished: true}
	}
	return &entry[int, int]{in: Element[int]{Value: v}}
}

// emit pops every element that may leave now and names them: records by
// value, watermarks as "w<ts>".
func emit(q queue[int, int]) []string {
	var got []string
	for e := q.peek(); e != nil; e = q.peek() {
		if e.in.Watermark {
			got = append(got, fmt.Sprintf("w%d", e.in.Timestamp))
		} else {
			got = append(got, fmt.Sprint(e.in.Value))
		}
		q.pop()
	}
	return got
}

func finish(q queue[int, int], e *entry[int, int]) {
	e.finished = true
	q.completed(e)
}

// Flink's OrderedStreamElementQueueTest#testCompletionOrder.
func TestOrderedQueueCompletionOrder(t *testing.T) {
	q := newOrderedQueue[int, int](4)
	r1, r2, w3, r4 := qe(1), qe(2), qe(-3), qe(4)
	for _, e := range []*entry[int, int]{r1, r2, w3, r4} {
		q.push(e)
	}
	steps := []struct {
		complete *entry[int, int]
		want     []string
	}{
		{r2, nil},
		{r1, []string{"1", "2", "w3"}},
		{r4, []string{"4"}},
	}
	for i, s := range steps {
		finish(q, s.complete)
		if got := emit(q); !slices.Equal(got, s.want) {
			t.Fatalf("step %d: emitted %v, want %v", i, got, s.want)
		}
	}
	if q.count != 0 {
		t.Fatalf("%d left", q.count)
	}
}

// Flink's UnorderedStreamElementQueueTest#testCompletionOrder.
func TestUnorderedQueueCompletionOrder(t *testing.T) {
	q := &unorderedQueue[int, int]{}
	r1, r2, w3, r4, r5, w6, r7 := qe(1), qe(2), qe(-3), qe(4), qe(5), qe(-6), qe(7)
	for _, e := range []*entry[int, int]{r1, r2, w3, r4, r5, w6, r7} {
		q.push(e)
	}
	steps := []struct {
		complete *entry[int, int]
		want     []string
	}{
		{r2, []string{"2"}},
		{r4, nil}, // behind w3
		{r1, []string{"1", "w3", "4"}},
		{r7, nil}, // behind w6, which waits for r5
		{r5, []string{"5", "w6", "7"}},
	}
	for i, s := range steps {
		finish(q, s.complete)
		if got := emit(q); !slices.Equal(got, s.want) {
			t.Fatalf("step %d: emitted %v, want %v", i, got, s.want)
		}
	}
	if q.first == nil || q.first != q.last || q.first.size != 0 {
		t.Fatal("queue not left with one empty open segment")
	}
	// Segments are reused, and an emptied run of records before a watermark is dropped.
	r8, w9 := qe(8), qe(-9)
	q.push(w9)
	if got := emit(q); !slices.Equal(got, []string{"w9"}) {
		t.Fatalf("emitted %v", got)
	}
	q.push(r8)
	finish(q, r8)
	if got := emit(q); !slices.Equal(got, []string{"8"}) {
		t.Fatalf("emitted %v", got)
	}
}

// TestUnorderedQueueReusesSegments: watermarks cut the stream into
// segments; in a steady stream of records and watermarks the emptied ones
// are reused, so the queue allocates nothing per element.
func TestUnorderedQueueReusesSegments(t *testing.T) {
	q := &unorderedQueue[int, int]{}
	r1, w, r2 := qe(1), qe(-2), qe(3)
	cycle := func() {
		r1.next, r2.next = nil, nil
		q.push(r1)
		q.push(w)
		q.push(r2)
		finish(q, r2)
		finish(q, r1)
		for e := q.peek(); e != nil; e = q.peek() {
			q.pop()
		}
	}
	cycle() // the first cycle makes the segments
	if allocs := testing.AllocsPerRun(100, cycle); allocs != 0 {
		t.Errorf("%.1f allocations per record-watermark-record cycle, want 0", allocs)
	}
}

// TestOrderedQueueLetsGoOfWhatLeft: an element that left the ordered queue
// is not kept alive by its slot (its results may be large; an idle stream
// would hold the last capacity-many until new records overwrite them).
func TestOrderedQueueLetsGoOfWhatLeft(t *testing.T) {
	q := newOrderedQueue[int, int](4)
	left := func() weak.Pointer[entry[int, int]] {
		e := qe(1)
		e.results = make([]int, 1<<16)
		q.push(e)
		finish(q, e)
		if q.peek() != e {
			t.Fatal("finished head does not leave")
		}
		q.pop()
		return weak.Make(e)
	}()
	runtime.GC()
	runtime.GC()
	if left.Value() != nil {
		t.Error("the ordered queue still holds an element that left it")
	}
	runtime.KeepAlive(q)
}

// Flink's StreamElementQueueTest: a watermark into an empty queue leaves at once.
func TestQueuesWatermarkOnly(t *testing.T) {
	for name, q := range map[string]queue[int, int]{"ordered": newOrderedQueue[int, int](2), "unordered": &unorderedQueue[int, int]{}} {
		q.push(qe(-1))
		q.push(qe(-2))
		if got := emit(q); !slices.Equal(got, []string{"w1", "w2"}) {
			t.Fatalf("%s: emitted %v", name, got)
		}
	}
}

// The operator's output against a model of Flink's semantics, for random
// streams, capacities, latencies and result counts.
func TestOperatorProperties(t *testing.T) {
	if testing.Short() {
		t.Skip("property test")
	}
	noLeak(t)
	rapid.Check(t, func(rt *rapid.T) {
		mode := rapid.SampledFrom(modes).Draw(rt, "mode")
		capacity := rapid.IntRange(1, 6).Draw(rt, "capacity")
		n := rapid.IntRange(0, 25).Draw(rt, "n")
		var els []Element[int]
		delay := map[int]time.Duration{}
		count := map[int]int{}
		for i := range n {
			if rapid.IntRange(0, 4).Draw(rt, "kind") == 0 {
				els = append(els, wm(int64(i)))
				continue
			}
			v := i + 1
			els = append(els, rec(v, int64(i)))
			delay[v] = time.Duration(rapid.IntRange(0, 300).Draw(rt, "µs")) * time.Microsecond
			count[v] = rapid.IntRange(0, 3).Draw(rt, "results")
		}
		fn := func(ctx context.Context, v int) ([]int, error) {
			select {
			case <-time.After(delay[v]):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			var out []int
			for k := range count[v] {
				out = append(out, v*10+k)
			}
			return out, nil
		}
		got, err := collect(New(fn, Options{Mode: mode, Capacity: capacity}), els)
		if err != nil {
			rt.Fatal(err)
		}
		// The model: each record's results in a row, watermarks in place.
		var want []Element[int]
		for _, e := range els {
			if e.Watermark {
				want = append(want, e)
				continue
			}
			for k := range count[e.Value] {
				want = append(want, rec(e.Value*10+k, e.Timestamp))
			}
		}
		if mode == Ordered {
			if !slices.Equal(got, want) {
				rt.Fatalf("got %v\nwant %v", got, want)
			}
			return
		}
		gs, ws := segments(got), segments(want)
		if len(gs) != len(ws) {
			rt.Fatalf("got %v\nwant %v: watermarks differ", got, want)
		}
		for i := range gs {
			if gs[i].wm != ws[i].wm || !slices.Equal(sortedRecords(gs[i].recs), sortedRecords(ws[i].recs)) {
				rt.Fatalf("segment %d: got %v\nwant %v", i, got, want)
			}
			// The results of one input leave together and in their order.
			for j := 1; j < len(gs[i].recs); j++ {
				prev, cur := gs[i].recs[j-1].Value, gs[i].recs[j].Value
				if cur/10 == prev/10 && cur != prev+1 || cur/10 != prev/10 && cur%10 != 0 {
					rt.Fatalf("results interleaved: %v", got)
				}
			}
		}
	})
}

type seg struct {
	recs []Element[int]
	wm   Element[int] // the watermark that ends the segment, zero for the last
}

func segments(els []Element[int]) []seg {
	out := []seg{{}}
	for _, e := range els {
		if e.Watermark {
			out[len(out)-1].wm = e
			out = append(out, seg{})
			continue
		}
		out[len(out)-1].recs = append(out[len(out)-1].recs, e)
	}
	return out
}

// collect runs op over els and returns everything it emitted.
func collect(op *Operator[int, int], els []Element[int]) ([]Element[int], error) {
	in := make(chan Element[int])
	out := make(chan Element[int])
	errc := make(chan error, 1)
	go func() { errc <- op.Run(context.Background(), in, out) }()
	go func() {
		defer close(in)
		for _, e := range els {
			in <- e
		}
	}()
	var got []Element[int]
	for e := range out {
		got = append(got, e)
	}
	return got, <-errc
}
