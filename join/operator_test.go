package join

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

var modes = []Mode{Ordered, Unordered}

func double(_ context.Context, in int) ([]int, error) { return []int{in * 2}, nil }

// Flink's AsyncWaitOperatorTest#testEventTime: records around a watermark.
func TestEventTime(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			op := New(double, Options{Mode: mode, Capacity: 2, Timeout: time.Second})
			got, err := runAll(t, op, []Element[int]{rec(1, 1), rec(2, 2), wm(2), rec(3, 3)})
			if err != nil {
				t.Fatal(err)
			}
			want := []Element[int]{rec(2, 1), rec(4, 2), wm(2), rec(6, 3)}
			if mode == Ordered {
				if !slices.Equal(got, want) {
					t.Fatalf("got %v, want %v", got, want)
				}
				return
			}
			if len(got) != 4 || got[2] != wm(2) || got[3] != rec(6, 3) {
				t.Fatalf("got %v: want the watermark at index 2 and record 6 last", got)
			}
			if !slices.Equal(sortedRecords(got), sortedRecords(want)) {
				t.Fatalf("records %v, want %v", sortedRecords(got), sortedRecords(want))
			}
		})
	}
}

// Flink's AsyncWaitOperatorTest#testProcessingTime: more inputs than capacity.
func TestProcessingTime(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			op := New(double, Options{Mode: mode, Capacity: 6, Timeout: time.Second})
			var els, want []Element[int]
			for i := 1; i <= 8; i++ {
				els = append(els, rec(i, int64(i)))
				want = append(want, rec(2*i, int64(i)))
			}
			got, err := runAll(t, op, els)
			if err != nil {
				t.Fatal(err)
			}
			if mode == Ordered && !slices.Equal(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			if !slices.Equal(sortedRecords(got), want) {
				t.Fatalf("got %v, want %v in any order", got, want)
			}
		})
	}
}

// Flink's OrderedStreamElementQueueTest#testCompletionOrder through the operator:
// results leave in input order whatever order they finish in.
func TestOrderedCompletionOrder(t *testing.T) {
	s := newStub()
	h := start(t, New(s.fn, Options{Mode: Ordered, Capacity: 4, Timeout: -1}))
	h.send(rec(1, 0), rec(2, 1), wm(2), rec(3, 3))
	c := s.started(t, 3)
	c[2].complete(20)
	h.quiet(20 * time.Millisecond)
	c[1].complete(10)
	h.expect(rec(10, 0), rec(20, 1), wm(2))
	c[3].complete(30)
	h.expect(rec(30, 3))
	if got, err := h.finish(); err != nil || len(got) != 0 {
		t.Fatalf("finish: %v, %v", got, err)
	}
}

// Flink's UnorderedStreamElementQueueTest#testCompletionOrder through the
// operator: records leave as they finish, but a watermark is a barrier.
func TestUnorderedCompletionOrder(t *testing.T) {
	s := newStub()
	h := start(t, New(s.fn, Options{Mode: Unordered, Capacity: 8, Timeout: -1}))
	h.send(rec(1, 0), rec(2, 1), wm(2), rec(3, 3), rec(4, 4), wm(5), rec(5, 6), rec(6, 7))
	c := s.started(t, 6)

	c[2].complete(20)
	h.expect(rec(20, 1)) // before record 1, which is still running
	c[4].complete(40)    // behind the watermark 2: must wait for record 1
	c[6].complete(60)    // behind two watermarks
	h.quiet(20 * time.Millisecond)
	c[1].complete(10)
	h.expect(rec(10, 0), wm(2), rec(40, 4))
	h.quiet(20 * time.Millisecond) // record 3 holds watermark 5, and so record 6
	c[3].complete(30)
	h.expect(rec(30, 3), wm(5), rec(60, 7))
	c[5].complete(50)
	h.expect(rec(50, 6))
	if got, err := h.finish(); err != nil || len(got) != 0 {
		t.Fatalf("finish: %v, %v", got, err)
	}
}

func TestWatermarksAlonePassAtOnce(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			h := start(t, New(double, Options{Mode: mode, Capacity: 1}))
			for ts := int64(1); ts <= 5; ts++ {
				h.send(wm(ts))
				h.expect(wm(ts)) // not held back until a next element comes
			}
			if got, err := h.finish(); err != nil || len(got) != 0 {
				t.Fatalf("finish: %v, %v", got, err)
			}
		})
	}
}

// A record's outputs carry its timestamp and leave together, even when
// another record finishes while they are being emitted.
func TestResultsOfOneInputLeaveTogether(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			s := newStub()
			h := start(t, New(s.fn, Options{Mode: mode, Capacity: 4}))
			h.send(rec(1, 100), rec(2, 200))
			c := s.started(t, 2)
			c[1].complete(11, 12, 13)
			if got := h.recv(); got != rec(11, 100) {
				t.Fatalf("first output %v", got)
			}
			c[2].complete(21, 22)
			time.Sleep(10 * time.Millisecond) // record 2's result reaches the operator mid-emission
			h.expect(rec(12, 100), rec(13, 100), rec(21, 200), rec(22, 200))
			if got, err := h.finish(); err != nil || len(got) != 0 {
				t.Fatalf("finish: %v, %v", got, err)
			}
		})
	}
}

func TestEmptyResultEmitsNothingAndBlocksNothing(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			s := newStub()
			h := start(t, New(s.fn, Options{Mode: mode, Capacity: 2}))
			h.send(rec(1, 1), rec(2, 2))
			c := s.started(t, 2)
			c[1].complete() // empty, at the head
			c[2].complete(20)
			h.expect(rec(20, 2))
			// Both slots are free again: two more inputs are taken at once.
			h.send(rec(3, 3), rec(4, 4))
			c = s.started(t, 2)
			c[3].complete(30)
			c[4].complete()
			h.expect(rec(30, 3))
			h.send(wm(5))
			h.expect(wm(5))
			if got, err := h.finish(); err != nil || len(got) != 0 {
				t.Fatalf("finish: %v, %v", got, err)
			}
		})
	}
}

// When the queue is full the operator stops reading its input.
func TestCapacityBackpressure(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			s := newStub()
			h := start(t, New(s.fn, Options{Mode: mode, Capacity: 2}))
			h.send(rec(1, 1), rec(2, 2))
			c := s.started(t, 2)
			h.blocked(rec(3, 3), 30*time.Millisecond)
			s.none(t, 0)
			c[1].complete(10)
			h.expect(rec(10, 1))
			h.send(rec(3, 3))
			c[3] = s.next(t)
			c[2].complete(20)
			h.expect(rec(20, 2))
			c[3].complete(30)
			h.expect(rec(30, 3))
			if got, err := h.finish(); err != nil || len(got) != 0 {
				t.Fatalf("finish: %v, %v", got, err)
			}
		})
	}
}

// Capacity 0 means 100: the 101st input waits for a slot.
func TestDefaultCapacity(t *testing.T) {
	s := newStub()
	h := start(t, New(s.fn, Options{}))
	for i := range 100 {
		h.send(rec(i, int64(i)))
	}
	c := s.started(t, 100)
	h.blocked(rec(100, 100), 30*time.Millisecond)
	c[0].complete(0)
	h.expect(rec(0, 0))
	h.send(rec(100, 100))
	c[100] = s.next(t)
	for i := 1; i <= 100; i++ {
		c[i].complete(i)
	}
	got, err := h.finish()
	if err != nil || len(got) != 100 {
		t.Fatalf("finish: %d elements, %v", len(got), err)
	}
}

// In Ordered mode a finished element behind a slow head keeps its slot: a
// slot frees when its element is emitted, not when it completes.
func TestOrderedSlotFreedOnEmission(t *testing.T) {
	s := newStub()
	h := start(t, New(s.fn, Options{Mode: Ordered, Capacity: 2}))
	h.send(rec(1, 1), rec(2, 2))
	c := s.started(t, 2)
	c[2].complete(20)
	h.blocked(rec(3, 3), 30*time.Millisecond)
	c[1].complete(10)
	h.expect(rec(10, 1), rec(20, 2))
	h.send(rec(3, 3))
	s.next(t).complete(30)
	h.expect(rec(30, 3))
	if _, err := h.finish(); err != nil {
		t.Fatal(err)
	}
}

// A finished record nobody has read from out yet still holds its slot.
func TestSlotHeldUntilOutputIsTaken(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			s := newStub()
			h := start(t, New(s.fn, Options{Mode: mode, Capacity: 1}))
			h.send(rec(1, 1))
			s.next(t).complete(10)
			h.blocked(rec(2, 2), 30*time.Millisecond) // out is not read
			h.expect(rec(10, 1))
			h.send(rec(2, 2))
			s.next(t).complete(20)
			h.expect(rec(20, 2))
			if _, err := h.finish(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Watermarks take a queue slot too.
func TestWatermarkTakesASlot(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			s := newStub()
			h := start(t, New(s.fn, Options{Mode: mode, Capacity: 2}))
			h.send(rec(1, 1), wm(1))
			c := s.next(t)
			h.blocked(rec(2, 2), 30*time.Millisecond)
			c.complete(10)
			h.expect(rec(10, 1), wm(1))
			h.send(rec(2, 2))
			s.next(t).complete(20)
			h.expect(rec(20, 2))
			if _, err := h.finish(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

var errTransient = errors.New("transient")

func TestInvalidOptionsCloseOut(t *testing.T) {
	for name, op := range map[string]*Operator[int, int]{
		"negative capacity": New(double, Options{Capacity: -1}),
		"zero attempts":     New(double, Options{Retry: &Retry{}}),
		"no function":       New[int, int](nil, Options{}),
		"unknown mode":      New(double, Options{Mode: 7}),
	} {
		t.Run(name, func(t *testing.T) {
			out := make(chan Element[int])
			if err := op.Run(context.Background(), make(chan Element[int]), out); err == nil {
				t.Fatal("Run accepted invalid options")
			}
			if _, ok := <-out; ok {
				t.Fatal("out not closed")
			}
		})
	}
}

func TestEmptyInputClosesOut(t *testing.T) {
	for _, mode := range modes {
		got, err := runAll(t, New(double, Options{Mode: mode}), nil)
		if err != nil || len(got) != 0 {
			t.Fatalf("%v: got %v, %v", mode, got, err)
		}
	}
}

// An Operator holds configuration only: runs may share it.
func TestConcurrentRuns(t *testing.T) {
	op := New(double, Options{Mode: Ordered, Capacity: 3})
	var wg sync.WaitGroup
	for r := range 4 {
		wg.Go(func() {
			var els, want []Element[int]
			for i := range 50 {
				els = append(els, rec(i+r*100, int64(i)))
				want = append(want, rec(2*(i+r*100), int64(i)))
			}
			got, err := runAll(t, op, els)
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("run %d: %v, %v", r, got, err)
			}
		})
	}
	wg.Wait()
}

func TestModeString(t *testing.T) {
	if Ordered.String() != "ORDERED" || Unordered.String() != "ALLOW_UNORDERED" || Mode(9).String() != "Mode(9)" {
		t.Fatal(Ordered.String(), Unordered.String(), Mode(9).String())
	}
}

func TestOptionsDefaults(t *testing.T) {
	o := New(double, Options{}).Options()
	if o.Capacity != 100 || o.Timeout != 3*time.Minute || o.Mode != Ordered || o.Retry != nil {
		t.Fatalf("%+v", o)
	}
	o = New(double, Options{Capacity: 7, Timeout: -1, Mode: Unordered}).Options()
	if o.Capacity != 7 || o.Timeout != -1 || o.Mode != Unordered {
		t.Fatalf("%+v", o)
	}
}
