package join

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// Flink's testOrderedWaitTimeoutHandling / testUnorderedWaitTimeoutHandling:
// without a handler a timeout fails the run, and the input emits nothing.
func TestTimeoutFailsRun(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			s := newStub()
			h := start(t, New(s.fn, Options{Mode: mode, Capacity: 4, Timeout: 300 * time.Millisecond}))
			h.send(rec(1, 1), rec(2, 2))
			c := s.started(t, 2)
			c[1].complete(10)
			h.expect(rec(10, 1))
			began := time.Now()
			got, err := h.drain() // record 2 never completes
			if !errors.Is(err, ErrTimeout) {
				t.Fatalf("Run: %v, want ErrTimeout", err)
			}
			var ie *InputError[int]
			if !errors.As(err, &ie) || ie.Input != 2 || ie.Index != 1 || ie.Timestamp != 2 {
				t.Fatalf("Run: %#v, want an InputError for record 2", err)
			}
			if len(got) != 0 {
				t.Fatalf("emitted %v after the timeout", got)
			}
			if time.Since(began) > 2*time.Second {
				t.Fatalf("timeout took %v", time.Since(began))
			}
		})
	}
}

// Flink's testProcessingTimeWithTimeoutFunction: a handler's result replaces a
// timed-out lookup, in its place; the late real result is ignored.
func TestTimeoutHandler(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			late := make(chan struct{})
			fn := func(ctx context.Context, in int) ([]int, error) {
				if in == 2 {
					<-ctx.Done()
					close(late)
					return []int{999}, nil // too late: must be ignored
				}
				return []int{in}, nil
			}
			var handled []int
			op := New(fn, Options{Mode: mode, Capacity: 4, Timeout: 200 * time.Millisecond}).
				WithTimeoutHandler(func(in int) ([]int, error) {
					handled = append(handled, in)
					return []int{in * 3}, nil
				})
			got, err := runAll(t, op, []Element[int]{rec(1, 1), rec(2, 2), wm(2), rec(3, 3)})
			if err != nil {
				t.Fatal(err)
			}
			<-late
			if !slices.Equal(handled, []int{2}) {
				t.Fatalf("handler called for %v, want [2]", handled)
			}
			want := []Element[int]{rec(1, 1), rec(6, 2), wm(2), rec(3, 3)}
			if mode == Ordered && !slices.Equal(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			if len(got) != 4 || got[2] != wm(2) || got[3] != rec(3, 3) || !slices.Equal(sortedRecords(got), sortedRecords(want)) {
				t.Fatalf("got %v, want %v (records before the watermark in any order)", got, want)
			}
		})
	}
}

func TestTimeoutHandlerErrorFailsRun(t *testing.T) {
	boom := errors.New("no default for this key")
	fn := func(ctx context.Context, in int) ([]int, error) { <-ctx.Done(); return nil, ctx.Err() }
	op := New(fn, Options{Timeout: 10 * time.Millisecond}).
		WithTimeoutHandler(func(int) ([]int, error) { return nil, boom })
	_, err := runAll(t, op, []Element[int]{rec(1, 1)})
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, boom) {
		t.Fatalf("Run: %v, want ErrTimeout and the handler's error", err)
	}
}

// The timeout clock of an input starts when it gets its slot, not when it was
// offered: with capacity 1 the second input waits ~300ms for its slot and
// then takes 200ms, within its 400ms timeout.
func TestTimeoutClockStartsAtSlot(t *testing.T) {
	fn := func(ctx context.Context, in int) ([]int, error) {
		d := 200 * time.Millisecond
		if in == 1 {
			d = 300 * time.Millisecond
		}
		select {
		case <-time.After(d):
			return []int{in}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	op := New(fn, Options{Mode: Ordered, Capacity: 1, Timeout: 400 * time.Millisecond})
	got, err := runAll(t, op, []Element[int]{rec(1, 1), rec(2, 2)})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !slices.Equal(got, []Element[int]{rec(1, 1), rec(2, 2)}) {
		t.Fatalf("got %v", got)
	}
}

// Flink's testProcessingTimeAlwaysTimeoutFunctionWithRetry: a timeout is
// final, never retried, and with a handler its result is emitted.
func TestTimeoutIsNeverRetried(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			var attempts [3]atomic.Int32
			fn := func(ctx context.Context, in int) ([]int, error) {
				attempts[in].Add(1)
				<-ctx.Done()
				return nil, errors.New("dummy error") // retryable, but the input timed out
			}
			op := New(fn, Options{Mode: mode, Capacity: 4, Timeout: 30 * time.Millisecond,
				Retry: &Retry{MaxAttempts: 6, Backoff: FixedDelay(time.Millisecond), IfEmpty: true}}).
				WithTimeoutHandler(func(int) ([]int, error) { return []int{-1}, nil })
			got, err := runAll(t, op, []Element[int]{rec(1, 0), rec(2, 0)})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, []Element[int]{rec(-1, 0), rec(-1, 0)}) {
				t.Fatalf("got %v", got)
			}
			if attempts[1].Load() != 1 || attempts[2].Load() != 1 {
				t.Fatalf("attempts %d and %d, want 1 each", attempts[1].Load(), attempts[2].Load())
			}
		})
	}
}

// A timeout during the backoff between attempts ends the input at once.
func TestTimeoutDuringBackoff(t *testing.T) {
	var attempts atomic.Int32
	fn := func(context.Context, int) ([]int, error) {
		attempts.Add(1)
		return nil, errors.New("connection refused")
	}
	op := New(fn, Options{Timeout: 40 * time.Millisecond, Retry: &Retry{MaxAttempts: 3, Backoff: FixedDelay(time.Hour)}})
	began := time.Now()
	_, err := runAll(t, op, []Element[int]{rec(1, 1)})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Run: %v, want ErrTimeout", err)
	}
	if d := time.Since(began); d > 2*time.Second {
		t.Fatalf("took %v: the backoff outlived the timeout", d)
	}
	if attempts.Load() != 1 {
		t.Fatalf("%d attempts, want 1", attempts.Load())
	}
}

// A negative timeout means none.
func TestNoTimeout(t *testing.T) {
	s := newStub()
	h := start(t, New(s.fn, Options{Timeout: -1}))
	h.send(rec(1, 1))
	c := s.next(t)
	if _, ok := c.ctx.Deadline(); ok {
		t.Fatal("lookup context has a deadline, want none")
	}
	c.complete(1)
	h.expect(rec(1, 1))
	if _, err := h.finish(); err != nil {
		t.Fatal(err)
	}
}

func TestLookupContextCarriesDeadline(t *testing.T) {
	s := newStub()
	h := start(t, New(s.fn, Options{})) // 0: three minutes
	before := time.Now()
	h.send(rec(1, 1))
	c := s.next(t)
	dl, ok := c.ctx.Deadline()
	if !ok || dl.Before(before.Add(DefaultTimeout)) || dl.After(time.Now().Add(DefaultTimeout)) {
		t.Fatalf("deadline %v (set %v), want three minutes from admission", dl, ok)
	}
	c.complete(1)
	h.expect(rec(1, 1))
	if _, err := h.finish(); err != nil {
		t.Fatal(err)
	}
}

// Flink's testProcessingTimeWithRetry: empty results are retried; when the
// attempts run out the last (empty) result emits nothing.
func TestRetryIfEmpty(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			var mu sync.Mutex
			tries := map[int]int{}
			fn := func(_ context.Context, in int) ([]int, error) {
				mu.Lock()
				tries[in]++
				n := tries[in]
				mu.Unlock()
				if in%2 == 1 || n < 3 { // odd inputs never find anything; even ones on the third try
					return nil, nil
				}
				return []int{in * 2}, nil
			}
			op := New(fn, Options{Mode: mode, Capacity: 6, Timeout: 5 * time.Second,
				Retry: &Retry{MaxAttempts: 3, Backoff: FixedDelay(time.Millisecond), IfEmpty: true}})
			var els, want []Element[int]
			for i := 1; i <= 8; i++ {
				els = append(els, rec(i, int64(i)))
				if i%2 == 0 {
					want = append(want, rec(2*i, int64(i)))
				}
			}
			got, err := runAll(t, op, els)
			if err != nil {
				t.Fatal(err)
			}
			if mode == Ordered && !slices.Equal(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			if !slices.Equal(sortedRecords(got), want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			for i := 1; i <= 8; i++ {
				if tries[i] != 3 {
					t.Errorf("input %d tried %d times, want 3", i, tries[i])
				}
			}
		})
	}
}

func TestEmptyResultNotRetriedWithoutIfEmpty(t *testing.T) {
	var tries atomic.Int32
	fn := func(context.Context, int) ([]int, error) { tries.Add(1); return nil, nil }
	op := New(fn, Options{Retry: &Retry{MaxAttempts: 5}})
	got, err := runAll(t, op, []Element[int]{rec(1, 1)})
	if err != nil || len(got) != 0 || tries.Load() != 1 {
		t.Fatalf("got %v, %v after %d tries; want nothing after 1", got, err, tries.Load())
	}
}

func TestRetryErrorThenSuccess(t *testing.T) {
	var tries atomic.Int32
	var delays []int
	fn := func(context.Context, int) ([]int, error) {
		if tries.Add(1) < 3 {
			return nil, errors.New("deadlock detected")
		}
		return []int{7}, nil
	}
	op := New(fn, Options{Retry: &Retry{MaxAttempts: 3, Backoff: func(n int) time.Duration {
		delays = append(delays, n)
		return 5 * time.Millisecond
	}}}) // IfError nil: every error is retried
	began := time.Now()
	got, err := runAll(t, op, []Element[int]{rec(1, 1)})
	if err != nil || !slices.Equal(got, []Element[int]{rec(7, 1)}) {
		t.Fatalf("got %v, %v", got, err)
	}
	if !slices.Equal(delays, []int{1, 2}) {
		t.Fatalf("backoff asked for attempts %v, want [1 2]", delays)
	}
	if d := time.Since(began); d < 10*time.Millisecond {
		t.Fatalf("took %v, want the two 5ms backoffs", d)
	}
}

// When the attempts run out the last error fails the run.
func TestRetryExhaustedFailsWithLastError(t *testing.T) {
	var tries atomic.Int32
	fn := func(context.Context, int) ([]int, error) {
		return nil, fmt.Errorf("attempt %d: %w", tries.Add(1), errTransient)
	}
	op := New(fn, Options{Retry: &Retry{MaxAttempts: 4, IfError: func(err error) bool { return errors.Is(err, errTransient) }}})
	got, err := runAll(t, op, []Element[int]{rec(1, 1)})
	if err == nil || !errors.Is(err, errTransient) || tries.Load() != 4 {
		t.Fatalf("Run: %v after %d tries, want the 4th attempt's error", err, tries.Load())
	}
	if want := "attempt 4: transient"; err.Error() != want {
		t.Fatalf("error %q, want %q: the last attempt's, as the lookup returned it", err, want)
	}
	if len(got) != 0 {
		t.Fatalf("emitted %v", got)
	}
}

var errTransient = errors.New("transient")

// An error that IfError rejects fails at once.
func TestRetryRejectedErrorFailsAtOnce(t *testing.T) {
	permanent := errors.New("syntax error")
	var tries atomic.Int32
	fn := func(context.Context, int) ([]int, error) { tries.Add(1); return nil, permanent }
	op := New(fn, Options{Retry: &Retry{MaxAttempts: 5, IfError: func(err error) bool { return errors.Is(err, errTransient) }}})
	_, err := runAll(t, op, []Element[int]{rec(1, 1)})
	if !errors.Is(err, permanent) || tries.Load() != 1 {
		t.Fatalf("Run: %v after %d tries, want the error after 1", err, tries.Load())
	}
}

// Flink's testOrderedWaitUserExceptionHandling / testUnorderedWaitUserExceptionHandling.
func TestErrorFailsRun(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			boom := errors.New("relation \"dim\" does not exist")
			fn := func(ctx context.Context, in int) ([]int, error) {
				if in == 3 {
					return nil, boom
				}
				<-ctx.Done() // the others are stopped by the failure
				return nil, ctx.Err()
			}
			op := New(fn, Options{Mode: mode, Capacity: 10})
			got, err := runAll(t, op, []Element[int]{rec(1, 1), rec(2, 2), rec(3, 3), rec(4, 4)})
			if err != boom {
				t.Fatalf("Run: %v, want record 3's error as the lookup returned it", err)
			}
			if len(got) != 0 {
				t.Fatalf("emitted %v", got)
			}
		})
	}
}

func TestPanicBecomesError(t *testing.T) {
	fn := func(context.Context, int) ([]int, error) { panic("index out of range") }
	_, err := runAll(t, New(fn, Options{}), []Element[int]{rec(1, 1)})
	if err == nil || !strings.Contains(err.Error(), "panicked: index out of range") {
		t.Fatalf("Run: %v, want the panic as an error", err)
	}
}

// On cancellation nothing pending is emitted and Run returns promptly.
func TestCancelWhileLookupsRun(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			s := newStub()
			h := start(t, New(s.fn, Options{Mode: mode, Capacity: 4}))
			h.send(rec(1, 1), rec(2, 2), rec(3, 3))
			c := s.started(t, 3)
			c[2].complete(20) // finished, but behind record 1 in Ordered mode
			if mode == Unordered {
				h.expect(rec(20, 2))
			}
			h.cancel()
			began := time.Now()
			got, err := h.drain()
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Run: %v, want context.Canceled", err)
			}
			if len(got) != 0 {
				t.Fatalf("emitted %v after cancel", got)
			}
			if d := time.Since(began); d > time.Second {
				t.Fatalf("Run took %v to return", d)
			}
		})
	}
}

// Cancellation while out is not read: results that are ready are not emitted.
func TestCancelWhileOutputBlocked(t *testing.T) {
	s := newStub()
	h := start(t, New(s.fn, Options{Capacity: 2}))
	h.send(rec(1, 1))
	s.next(t).complete(10, 11)
	time.Sleep(10 * time.Millisecond) // the result reaches the operator, which waits on out
	h.cancel()
	time.Sleep(10 * time.Millisecond) // Run sees the cancellation before anyone reads out
	got, err := h.drain()
	if !errors.Is(err, context.Canceled) || len(got) != 0 {
		t.Fatalf("got %v, %v; want nothing and context.Canceled", got, err)
	}
}

// Cancellation while waiting for input.
func TestCancelWhileIdle(t *testing.T) {
	h := start(t, New(double, Options{}))
	h.cancel()
	if got, err := h.drain(); !errors.Is(err, context.Canceled) || len(got) != 0 {
		t.Fatalf("got %v, %v", got, err)
	}
}

// A lookup sees the run's cancellation through its context.
func TestLookupContextCancelledWithRun(t *testing.T) {
	s := newStub()
	h := start(t, New(s.fn, Options{Timeout: -1}))
	h.send(rec(1, 1))
	c := s.next(t)
	h.cancel()
	select {
	case <-c.ctx.Done():
	case <-time.After(wait):
		t.Fatal("lookup context not cancelled")
	}
	h.drain()
}

// A retry waiting out its backoff is stopped by cancellation too.
func TestCancelDuringBackoff(t *testing.T) {
	tried := make(chan struct{}, 1)
	fn := func(context.Context, int) ([]int, error) {
		tried <- struct{}{}
		return nil, errTransient
	}
	ctx, cancel := context.WithCancel(context.Background())
	in := make(chan Element[int], 1)
	out := make(chan Element[int])
	in <- rec(1, 1)
	errc := make(chan error, 1)
	noLeak(t)
	go func() {
		errc <- New(fn, Options{Retry: &Retry{MaxAttempts: 2, Backoff: FixedDelay(time.Hour)}}).Run(ctx, in, out)
	}()
	<-tried
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(wait):
		t.Fatal("Run did not return")
	}
	if _, ok := <-out; ok {
		t.Fatal("out not closed")
	}
}

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

// Run keeps its retries going after in is closed (unlike Flink's endInput):
// the rows of a bounded run are those of the stream.
func TestRetriesContinueAfterInputEnds(t *testing.T) {
	var tries atomic.Int32
	fn := func(context.Context, int) ([]int, error) {
		if tries.Add(1) < 4 {
			return nil, nil
		}
		return []int{1}, nil
	}
	op := New(fn, Options{Retry: &Retry{MaxAttempts: 4, Backoff: FixedDelay(2 * time.Millisecond), IfEmpty: true}})
	got, err := runAll(t, op, []Element[int]{rec(1, 1)})
	if err != nil || !slices.Equal(got, []Element[int]{rec(1, 1)}) {
		t.Fatalf("got %v, %v", got, err)
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

// Flink's AsyncRetryStrategiesTest.
func TestDelays(t *testing.T) {
	fixed := FixedDelay(100 * time.Millisecond)
	if fixed(1) != 100*time.Millisecond || fixed(10) != 100*time.Millisecond {
		t.Fatal("fixed delay")
	}
	exp := ExponentialDelay(100*time.Millisecond, 2*time.Second, 2)
	for attempt, want := range map[int]time.Duration{0: 100 * time.Millisecond, 1: 100 * time.Millisecond, 2: 200 * time.Millisecond,
		3: 400 * time.Millisecond, 5: 1600 * time.Millisecond, 6: 2 * time.Second, 60: 2 * time.Second, 5000: 2 * time.Second} {
		if got := exp(attempt); got != want {
			t.Errorf("exponential(%d) = %v, want %v", attempt, got, want)
		}
	}
}

// A lookup that gives up by itself at its deadline (as a driver whose socket
// deadline comes from ctx.Deadline does) has timed out: the handler runs.
func TestErrorAtDeadlineIsATimeout(t *testing.T) {
	fn := func(ctx context.Context, in int) ([]int, error) {
		dl, _ := ctx.Deadline()
		time.Sleep(time.Until(dl))
		return nil, errors.New("i/o timeout")
	}
	op := New(fn, Options{Timeout: 20 * time.Millisecond, Retry: &Retry{MaxAttempts: 5}}).
		WithTimeoutHandler(func(in int) ([]int, error) { return []int{-in}, nil })
	got, err := runAll(t, op, []Element[int]{rec(1, 1)})
	if err != nil || !slices.Equal(got, []Element[int]{rec(-1, 1)}) {
		t.Fatalf("got %v, %v", got, err)
	}
}
