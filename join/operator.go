package join

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Mode is the output order of an Operator: Flink's AsyncDataStream.OutputMode.
type Mode int

const (
	// Ordered emits results in input order (Flink's OrderedStreamElementQueue).
	Ordered Mode = iota
	// Unordered emits results as they complete, but never across a watermark
	// (Flink's UnorderedStreamElementQueue).
	Unordered
)

// String names the mode as Flink's 'table.exec.async-lookup.output-mode' does.
func (m Mode) String() string {
	switch m {
	case Ordered:
		return "ORDERED"
	case Unordered:
		return "ALLOW_UNORDERED"
	default:
		return fmt.Sprintf("Mode(%d)", int(m))
	}
}

// Element is a record or a watermark.
type Element[T any] struct {
	Value     T
	Timestamp int64 // the record's event time, or the watermark's time
	Watermark bool
}

// Func looks one input up; it must return soon after ctx is done.
//
// ctx carries the input's deadline (Options.Timeout) and is cancelled when the
// run ends, so a database driver given ctx aborts the query by itself.
type Func[I, O any] func(ctx context.Context, in I) ([]O, error)

// Options configure an Operator, as the arguments of Flink's
// AsyncDataStream.orderedWait / unorderedWait(WithRetry) do.
type Options struct {
	Mode     Mode
	Capacity int           // most elements in the queue at once; 0 means 100
	Timeout  time.Duration // per input, across all attempts; 0 means 3 minutes; < 0 means none
	Retry    *Retry        // nil: a single attempt
}

// Defaults of Options, those of Flink's table.exec.async-lookup.* settings.
const (
	DefaultCapacity = 100
	DefaultTimeout  = 3 * time.Minute
)

// ErrTimeout is wrapped by the error of an input whose lookup did not finish
// within Options.Timeout.
var ErrTimeout = errors.New("async lookup timed out")

// Operator is Flink's AsyncWaitOperator: it runs Func for up to Capacity
// inputs at once and emits their results in the order Options.Mode asks for.
// It holds configuration only; Run may be called any number of times, also
// concurrently.
type Operator[I, O any] struct {
	fn        Func[I, O]
	opts      Options
	onTimeout func(in I) ([]O, error)
}

// New returns an operator that looks inputs up with fn.
func New[I, O any](fn Func[I, O], opts Options) *Operator[I, O] {
	return &Operator[I, O]{fn: fn, opts: opts}
}

// WithTimeoutHandler makes a timed-out input emit h's result instead of
// failing the run (Flink's AsyncFunction.timeout); its late real result is
// ignored. An error from h fails the run. It sets the handler on op and
// returns op.
func (op *Operator[I, O]) WithTimeoutHandler(h func(in I) ([]O, error)) *Operator[I, O] {
	op.onTimeout = h
	return op
}

// Options returns the options op runs with, defaults filled in.
func (op *Operator[I, O]) Options() Options {
	o := op.opts
	if o.Capacity == 0 {
		o.Capacity = DefaultCapacity
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	return o
}

func (op *Operator[I, O]) validate() error {
	o := op.opts
	switch {
	case op.fn == nil:
		return errors.New("async lookup: no lookup function")
	case o.Mode != Ordered && o.Mode != Unordered:
		return fmt.Errorf("async lookup: unknown output mode %d", int(o.Mode))
	case o.Capacity < 0:
		return fmt.Errorf("async lookup: capacity %d is negative", o.Capacity)
	case o.Retry != nil && o.Retry.MaxAttempts < 1:
		return fmt.Errorf("async lookup: retry max attempts %d, want at least 1", o.Retry.MaxAttempts)
	}
	return nil
}

// Run reads in until it is closed, emits to out, waits for every input in
// flight, closes out and returns nil. It returns the first failure (an error
// after retries, as an *InputError; a timeout wraps ErrTimeout) or ctx.Err(),
// also closing out; then nothing still pending is emitted, and no goroutine
// it started outlives it.
//
// Unlike Flink's endInput, which gives up pending retries, Run keeps retrying
// after in is closed: a bounded debug run must give the rows the stream would.
func (op *Operator[I, O]) Run(ctx context.Context, in <-chan Element[I], out chan<- Element[O]) error {
	if out != nil {
		defer close(out)
	}
	if err := op.validate(); err != nil {
		return err
	}
	opts := op.Options()
	r := &run[I, O]{
		op:       op,
		timeout:  opts.Timeout,
		capacity: opts.Capacity,
		done:     make(chan *entry[I, O], opts.Capacity),
	}
	r.ctx, r.cancel = context.WithCancel(ctx)
	defer r.cancel()
	if opts.Mode == Ordered {
		r.q = newOrderedQueue[I, O](opts.Capacity)
	} else {
		r.q = &unorderedQueue[I, O]{}
	}
	return r.loop(ctx, in, out)
}

// run is the state of one Run. Only Run's goroutine touches it, except the
// fields a worker fills in its own entry before handing it back on done.
type run[I, O any] struct {
	op       *Operator[I, O]
	ctx      context.Context // cancelled when the run ends, for any reason
	cancel   context.CancelFunc
	timeout  time.Duration
	capacity int

	q        queue[I, O]
	size     int   // elements in the queue: records in flight or not yet emitted, and watermarks
	inflight int   // workers that have not handed their entry back
	records  int64 // records admitted so far, for InputError.Index
	done     chan *entry[I, O]
	wg       sync.WaitGroup
	free     *entry[I, O] // entries to reuse: at most Capacity are ever live
}

func (r *run[I, O]) loop(ctx context.Context, in <-chan Element[I], out chan<- Element[O]) error {
	var (
		cur      *entry[I, O] // the entry being emitted; its results leave together
		next     int          // index of its next result
		inClosed bool
	)
	ctxDone := ctx.Done()
	for {
		// A cancelled run emits nothing more, even if out happens to be ready.
		select {
		case <-ctxDone:
			return r.abort(ctx.Err())
		default:
		}
		if cur == nil {
			cur = r.nextToEmit()
			next = 0
		}
		if inClosed && r.size == 0 {
			r.wg.Wait()
			return nil
		}

		var inCh <-chan Element[I]
		if !inClosed && r.size < r.capacity {
			inCh = in // a full queue stops reading: backpressure
		}
		var outCh chan<- Element[O]
		var el Element[O]
		if cur != nil {
			outCh = out
			if cur.in.Watermark {
				el = Element[O]{Timestamp: cur.in.Timestamp, Watermark: true}
			} else {
				el = Element[O]{Value: cur.results[next], Timestamp: cur.in.Timestamp}
			}
		}

		select {
		case <-ctxDone:
			return r.abort(ctx.Err())
		case e, ok := <-inCh:
			if !ok {
				inClosed = true
				continue
			}
			r.admit(e)
		case e := <-r.done:
			r.inflight--
			if e.err != nil {
				if err := ctx.Err(); err != nil {
					return r.abort(err) // the lookup saw the run's cancellation first
				}
				return r.abort(e.err)
			}
			e.finished = true
			r.q.completed(e)
		case outCh <- el:
			next++
			if cur.in.Watermark || next == len(cur.results) {
				r.release(cur)
				cur = nil
			}
		}
	}
}

// nextToEmit returns the next entry whose results may leave, dropping the
// finished entries that have nothing to emit on the way.
func (r *run[I, O]) nextToEmit() *entry[I, O] {
	for {
		e := r.q.peek()
		if e == nil || e.in.Watermark || len(e.results) > 0 {
			return e
		}
		r.release(e) // an empty result emits nothing and blocks nothing
	}
}

// release frees the slot of the entry at the head of the queue: a slot frees
// when its element has been emitted, not when it completed.
func (r *run[I, O]) release(e *entry[I, O]) {
	r.q.pop()
	r.size--
	*e = entry[I, O]{next: r.free}
	r.free = e
}

func (r *run[I, O]) admit(el Element[I]) {
	e := r.free
	if e != nil {
		r.free = e.next
		e.next = nil
	} else {
		e = new(entry[I, O])
	}
	e.in = el
	r.size++
	if el.Watermark {
		e.finished = true // watermarks are complete on arrival and leave in their place
		r.q.push(e)
		return
	}
	e.index = r.records
	r.records++
	r.q.push(e)
	r.inflight++
	r.wg.Add(1)
	// The timeout clock starts now, when the input got its slot.
	var deadline time.Time
	if r.timeout > 0 {
		deadline = time.Now().Add(r.timeout)
	}
	go r.work(e, deadline)
}

// abort ends the run with err: it stops every lookup, waits for the workers
// and returns err. Nothing pending is emitted.
func (r *run[I, O]) abort(err error) error {
	r.cancel()
	for r.inflight > 0 {
		<-r.done
		r.inflight--
	}
	r.wg.Wait()
	return err
}

// work looks one input up, with its retries, and hands the entry back on done.
func (r *run[I, O]) work(e *entry[I, O], deadline time.Time) {
	defer r.wg.Done()
	ctx := r.ctx
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(r.ctx, deadline)
		defer cancel()
	}
	e.results, e.err = r.lookup(ctx, e)
	r.done <- e
}

// lookup runs the attempts of one input (Flink's RetryableResultHandlerDelegator).
func (r *run[I, O]) lookup(ctx context.Context, e *entry[I, O]) ([]O, error) {
	retry := r.op.opts.Retry
	for attempt := 1; ; attempt++ {
		res, err := r.op.call(ctx, e.in.Value)
		if r.ctx.Err() != nil {
			return nil, r.ctx.Err() // the run is over; abort ignores this
		}
		if ctx.Err() != nil {
			// Timed out: final, never retried, and a result that came too late is ignored.
			return r.timedOut(e, attempt)
		}
		if !retryable(retry, res, err) || attempt >= retry.MaxAttempts {
			if err != nil {
				return nil, &InputError[I]{Input: e.in.Value, Timestamp: e.in.Timestamp, Index: e.index, Attempts: attempt, Err: err}
			}
			return res, nil
		}
		if retry.Backoff == nil {
			continue
		}
		if d := retry.Backoff(attempt); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				if r.ctx.Err() != nil {
					return nil, r.ctx.Err()
				}
				return r.timedOut(e, attempt)
			}
		}
	}
}

// retryable says whether an attempt's outcome asks for another attempt.
func retryable[O any](retry *Retry, res []O, err error) bool {
	switch {
	case retry == nil:
		return false
	case err != nil:
		return retry.IfError == nil || retry.IfError(err)
	default:
		return retry.IfEmpty && len(res) == 0
	}
}

func (r *run[I, O]) timedOut(e *entry[I, O], attempts int) ([]O, error) {
	fail := func(err error) error {
		return &InputError[I]{Input: e.in.Value, Timestamp: e.in.Timestamp, Index: e.index, Attempts: attempts, Err: err}
	}
	if r.op.onTimeout == nil {
		return nil, fail(fmt.Errorf("%w after %v", ErrTimeout, r.timeout))
	}
	res, err := r.op.handleTimeout(e.in.Value)
	if err != nil {
		return nil, fail(fmt.Errorf("%w after %v, and the timeout handler failed: %w", ErrTimeout, r.timeout, err))
	}
	return res, nil
}

// call runs fn, turning a panic into an error: one bad row must not take the
// whole console down.
func (op *Operator[I, O]) call(ctx context.Context, in I) (res []O, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("lookup panicked: %v", p)
		}
	}()
	return op.fn(ctx, in)
}

func (op *Operator[I, O]) handleTimeout(in I) (res []O, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("panicked: %v", p)
		}
	}()
	return op.onTimeout(in)
}

// InputError is the failure of one input's lookup, which fails the run.
type InputError[I any] struct {
	Input     I
	Timestamp int64
	Index     int64 // the record's position in the input, from 0, watermarks not counted
	Attempts  int   // attempts made
	Err       error
}

// Error names the record and the cause; the input's value is left out, as it
// may be large or hold secrets: callers that want it have Input.
func (e *InputError[I]) Error() string {
	if e.Attempts > 1 {
		return fmt.Sprintf("lookup of record #%d (timestamp %d), %d attempts: %v", e.Index, e.Timestamp, e.Attempts, e.Err)
	}
	return fmt.Sprintf("lookup of record #%d (timestamp %d): %v", e.Index, e.Timestamp, e.Err)
}

// Unwrap returns the cause.
func (e *InputError[I]) Unwrap() error { return e.Err }
