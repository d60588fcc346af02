package join

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// wait bounds every blocking step of a test, so that a bug fails the test
// instead of hanging it.
const wait = 5 * time.Second

// call is one attempt of the stub lookup, which the test completes by hand.
type call struct {
	in    int
	ctx   context.Context
	reply chan reply
}

type reply struct {
	out []int
	err error
}

func (c *call) complete(out ...int) { c.reply <- reply{out: out} }
func (c *call) fail(err error)      { c.reply <- reply{err: err} }

// stub is a lookup whose attempts the test completes in any order it likes, as
// Flink's queue tests complete their entries: no sleeps decide an order.
type stub struct {
	calls chan *call
}

func newStub() *stub { return &stub{calls: make(chan *call, 1000)} }

func (s *stub) fn(ctx context.Context, in int) ([]int, error) {
	c := &call{in: in, ctx: ctx, reply: make(chan reply, 1)}
	s.calls <- c
	select {
	case r := <-c.reply:
		return r.out, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// next returns the next attempt the operator started.
func (s *stub) next(t *testing.T) *call {
	t.Helper()
	select {
	case c := <-s.calls:
		return c
	case <-time.After(wait):
		t.Fatal("no lookup started")
		return nil
	}
}

// started returns the next n attempts, by input.
func (s *stub) started(t *testing.T, n int) map[int]*call {
	t.Helper()
	m := make(map[int]*call, n)
	for range n {
		c := s.next(t)
		m[c.in] = c
	}
	return m
}

// none checks that no attempt starts within d.
func (s *stub) none(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case c := <-s.calls:
		t.Fatalf("lookup of %d started, want none", c.in)
	case <-time.After(d):
	}
}

// harness runs an operator on channels the test drives.
type harness struct {
	t      *testing.T
	in     chan Element[int]
	out    chan Element[int]
	errc   chan error
	cancel context.CancelFunc
}

func start(t *testing.T, op *Operator[int, int]) *harness {
	t.Helper()
	noLeak(t)
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{t: t, in: make(chan Element[int]), out: make(chan Element[int]), errc: make(chan error, 1), cancel: cancel}
	go func() { h.errc <- op.Run(ctx, h.in, h.out) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-h.errc:
		case <-time.After(wait):
			t.Error("Run did not return after the test")
		}
	})
	return h
}

func rec(v int, ts int64) Element[int] { return Element[int]{Value: v, Timestamp: ts} }
func wm(ts int64) Element[int]         { return Element[int]{Timestamp: ts, Watermark: true} }

func (h *harness) send(els ...Element[int]) {
	h.t.Helper()
	for _, e := range els {
		select {
		case h.in <- e:
		case <-time.After(wait):
			h.t.Fatalf("operator did not take %v", e)
		}
	}
}

// blocked checks that the operator does not take e within d: backpressure.
func (h *harness) blocked(e Element[int], d time.Duration) {
	h.t.Helper()
	select {
	case h.in <- e:
		h.t.Fatalf("operator took %v, want it to stop reading", e)
	case <-time.After(d):
	}
}

func (h *harness) recv() Element[int] {
	h.t.Helper()
	select {
	case e, ok := <-h.out:
		if !ok {
			h.t.Fatal("out closed, want an element")
		}
		return e
	case <-time.After(wait):
		h.t.Fatal("no element emitted")
	}
	return Element[int]{}
}

func (h *harness) expect(want ...Element[int]) {
	h.t.Helper()
	for _, w := range want {
		if got := h.recv(); got != w {
			h.t.Fatalf("emitted %v, want %v", got, w)
		}
	}
}

// quiet checks that nothing is emitted within d.
func (h *harness) quiet(d time.Duration) {
	h.t.Helper()
	select {
	case e, ok := <-h.out:
		if ok {
			h.t.Fatalf("emitted %v, want nothing yet", e)
		}
		h.t.Fatal("out closed, want it open")
	case <-time.After(d):
	}
}

// finish closes in, collects what is left and returns Run's error; out must be closed.
func (h *harness) finish() ([]Element[int], error) {
	h.t.Helper()
	close(h.in)
	return h.drain()
}

// drain collects out until Run closes it and returns Run's error.
func (h *harness) drain() ([]Element[int], error) {
	h.t.Helper()
	var got []Element[int]
	timer := time.After(wait)
	for {
		select {
		case e, ok := <-h.out:
			if !ok {
				select {
				case err := <-h.errc:
					h.errc <- err // for Cleanup
					return got, err
				case <-timer:
					h.t.Fatal("out closed but Run did not return")
				}
			}
			got = append(got, e)
		case <-timer:
			h.t.Fatalf("out not closed; emitted so far %v", got)
		}
	}
}

// noLeak fails the test if a goroutine of the operator is still alive once
// the test is over (a hand-made goleak).
func noLeak(t *testing.T) {
	t.Helper()
	t.Cleanup(func() {
		deadline := time.Now().Add(wait)
		for {
			buf := make([]byte, 1<<20)
			stacks := string(buf[:runtime.Stack(buf, true)])
			var leaked []string
			for _, g := range strings.Split(stacks, "\n\n") {
				if strings.Contains(g, "palink/join.(*run[") {
					leaked = append(leaked, g)
				}
			}
			if len(leaked) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d operator goroutines outlived the run:\n%s", len(leaked), strings.Join(leaked, "\n\n"))
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
}

// runAll feeds els to op, closes in and collects every output.
func runAll(t *testing.T, op *Operator[int, int], els []Element[int]) ([]Element[int], error) {
	t.Helper()
	noLeak(t)
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
	select {
	case err := <-errc:
		return got, err
	case <-time.After(wait):
		t.Fatal("Run did not return after closing out")
		return nil, nil
	}
}

// records returns the records of els, sorted by value then timestamp.
func sortedRecords(els []Element[int]) []Element[int] {
	var r []Element[int]
	for _, e := range els {
		if !e.Watermark {
			r = append(r, e)
		}
	}
	slices.SortFunc(r, func(a, b Element[int]) int {
		if a.Value != b.Value {
			return a.Value - b.Value
		}
		return int(a.Timestamp - b.Timestamp)
	})
	return r
}
