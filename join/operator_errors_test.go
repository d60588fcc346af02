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
