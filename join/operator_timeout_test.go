package join

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

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
