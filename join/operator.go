package join

import (
	"context"
	"errors"
	"fmt"
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
// flight, closes out and returns nil. It returns the first failure (the
// lookup's last error after retries, as the lookup returned it; a timeout, as
// an *InputError that wraps ErrTimeout and names the record) or ctx.Err(),
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
	r := newRun(ctx, op)
	defer r.cancel()
	return r.loop(ctx, in, out)
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

// InputError is the timeout of one input's lookup, which fails the run: it
// names the record, and wraps ErrTimeout (and the handler's error, if the
// timeout handler failed).
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
