package join

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// runBench feeds n records to op and discards the output.
func runBench(b *testing.B, op *Operator[int, int], n int) {
	b.Helper()
	runBenchAt(b, op, n, nil)
}

// runBenchAt is runBench that calls midway when half the records have been fed.
func runBenchAt(b *testing.B, op *Operator[int, int], n int, midway func()) {
	b.Helper()
	in := make(chan Element[int], 1024)
	out := make(chan Element[int], 1024)
	errc := make(chan error, 1)
	go func() { errc <- op.Run(context.Background(), in, out) }()
	go func() {
		defer close(in)
		for i := range n {
			if i == n/2 && midway != nil {
				midway()
			}
			in <- Element[int]{Value: i, Timestamp: int64(i)}
		}
	}()
	got := 0
	for range out {
		got++
	}
	if err := <-errc; err != nil {
		b.Fatal(err)
	}
	if got != n {
		b.Fatalf("%d outputs for %d inputs", got, n)
	}
}

var oneResult = []int{1} // shared: the operator never writes to results

// delayLine completes lookups exactly L after they start. Go's timers
// overshoot by 0.2-0.5ms on a loaded 2-core machine, which at L=2ms would be
// the benchmark's main error, not the operator's. Every lookup takes the same
// L, so due times come in start order and a FIFO holds them; one goroutine
// spins (yielding) while lookups are pending and sleeps when none are.
type delayLine struct {
	latency time.Duration
	mu      sync.Mutex
	fifo    []pendingLookup
	wake    chan struct{}
	stop    chan struct{}
	stopped chan struct{}
}

type pendingLookup struct {
	due  time.Time
	done chan struct{}
}

func newDelayLine(latency time.Duration) *delayLine {
	d := &delayLine{latency: latency, wake: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	go d.loop()
	return d
}

func (d *delayLine) close() { close(d.stop); <-d.stopped }

func (d *delayLine) wait(ctx context.Context) error {
	p := pendingLookup{due: time.Now().Add(d.latency), done: make(chan struct{})}
	d.mu.Lock()
	d.fifo = append(d.fifo, p)
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
	select {
	case <-p.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (d *delayLine) loop() {
	defer close(d.stopped)
	for {
		d.mu.Lock()
		now := time.Now()
		n := 0
		for n < len(d.fifo) && !d.fifo[n].due.After(now) {
			close(d.fifo[n].done)
			n++
		}
		d.fifo = d.fifo[n:]
		empty := len(d.fifo) == 0
		d.mu.Unlock()
		if empty {
			select {
			case <-d.wake:
			case <-d.stop:
				return
			}
			continue
		}
		runtime.Gosched()
	}
}

// With lookups of fixed latency L and capacity C the bound is C/L inputs per
// second; the operator must reach 90% of it in both modes.
func BenchmarkThroughput(b *testing.B) {
	const (
		capacity = 100
		inputs   = 100_000
	)
	for _, latency := range []time.Duration{2 * time.Millisecond, 20 * time.Millisecond} {
		for _, clock := range []string{"exact", "timer"} {
			if latency > 2*time.Millisecond && clock == "exact" {
				continue // a 20ms lookup is long enough for Go's timers
			}
			n := inputs
			if latency > 2*time.Millisecond {
				n = inputs / 10 // the same 2s
			}
			for _, mode := range modes {
				b.Run(fmt.Sprintf("%v/C=%d/L=%v/%s", mode, capacity, latency, clock), func(b *testing.B) {
					benchThroughput(b, mode, capacity, latency, clock == "exact", n)
				})
			}
		}
	}
}

func benchThroughput(b *testing.B, mode Mode, capacity int, latency time.Duration, exact bool, inputs int) {
	var lookups, busy atomic.Int64
	var line *delayLine
	if exact {
		line = newDelayLine(latency)
		defer line.close()
	}
	fn := func(ctx context.Context, _ int) ([]int, error) {
		began := time.Now()
		if exact {
			if err := line.wait(ctx); err != nil {
				return nil, err
			}
		} else {
			t := time.NewTimer(latency)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		busy.Add(int64(time.Since(began)))
		lookups.Add(1)
		return oneResult, nil
	}
	op := New(fn, Options{Mode: mode, Capacity: capacity})
	b.ResetTimer()
	began := time.Now()
	for range b.N {
		runBench(b, op, inputs)
	}
	elapsed := time.Since(began)
	perSec := float64(b.N*inputs) / elapsed.Seconds()
	bound := float64(capacity) / latency.Seconds()
	observed := time.Duration(busy.Load() / lookups.Load())
	b.ReportMetric(perSec, "inputs/s")
	b.ReportMetric(perSec/bound, "of-C/L")
	// The ratio to C/L with the latency the lookups really had.
	b.ReportMetric(perSec/(float64(capacity)/observed.Seconds()), "of-C/observed-L")
	b.ReportMetric(float64(observed.Microseconds()), "µs/lookup")
	b.ReportMetric(0, "ns/op")
}

// The operator's own cost per element, with lookups that take no time.
func BenchmarkOverhead(b *testing.B) {
	const inputs = 100_000
	fn := func(context.Context, int) ([]int, error) { return oneResult, nil }
	for _, mode := range modes {
		for _, capacity := range []int{1, 100} {
			b.Run(fmt.Sprintf("%v/C=%d", mode, capacity), func(b *testing.B) {
				op := New(fn, Options{Mode: mode, Capacity: capacity})
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				b.ResetTimer()
				for range b.N {
					runBench(b, op, inputs)
				}
				b.StopTimer()
				runtime.ReadMemStats(&after)
				n := float64(b.N * inputs)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/element")
				b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/element")
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "B/element")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// Memory stays flat in the number of inputs: at most Capacity entries live.
// Midway through the run a garbage collection measures the live heap.
func BenchmarkMemory(b *testing.B) {
	fn := func(context.Context, int) ([]int, error) { return oneResult, nil }
	for _, inputs := range []int{10_000, 1_000_000} {
		b.Run(fmt.Sprintf("inputs=%d", inputs), func(b *testing.B) {
			op := New(fn, Options{Mode: Unordered, Capacity: 100})
			live := func() uint64 {
				runtime.GC()
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				return m.HeapAlloc
			}
			var before runtime.MemStats
			base := live()
			runtime.ReadMemStats(&before)
			var growth uint64
			b.ResetTimer()
			for range b.N {
				runBenchAt(b, op, inputs, func() {
					if v := live(); v > base {
						growth = max(growth, v-base)
					}
				})
			}
			b.StopTimer()
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N*inputs), "alloc-B/element")
			b.ReportMetric(float64(growth)/1024, "live-heap-growth-KiB")
			b.ReportMetric(0, "ns/op")
		})
	}
}
