package join

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// run is the state of one Run. Only Run's goroutine touches it; a worker
// fills in its own entry and hands it back on done.
//
// Each record gets a goroutine (its worker) for its attempts; Run's goroutine
// admits, emits and enforces timeouts. Because every record has the same
// timeout, deadlines come in admission order: the records that may time out
// form a list, oldest first, and one timer armed for the oldest serves them
// all (a context.WithDeadline per record costs a runtime timer and an entry in
// the parent's child map, a fifth of the operator's time).
type run[I, O any] struct {
	op       *Operator[I, O]
	ctx      context.Context // the lookups' context: ended when the run ends, for any reason
	cancel   context.CancelFunc
	timeout  time.Duration
	capacity int

	q        queue[I, O]
	size     int   // elements in the queue: records not yet emitted, and watermarks
	inflight int   // workers that have not handed their entry back
	records  int64 // records admitted so far
	done     chan *entry[I, O]
	wg       sync.WaitGroup
	inClosed bool

	cur  *entry[I, O] // the entry being emitted: its results leave together
	next int          // index of cur's next result

	oldest, newest *entry[I, O] // records in flight that may still time out
	timer          *time.Timer
	armed          bool
}

func newRun[I, O any](ctx context.Context, op *Operator[I, O]) *run[I, O] {
	opts := op.Options()
	r := &run[I, O]{
		op:       op,
		timeout:  opts.Timeout,
		capacity: opts.Capacity,
		done:     make(chan *entry[I, O], opts.Capacity), // never blocks a worker
	}
	r.ctx, r.cancel = context.WithCancel(ctx)
	if opts.Mode == Ordered {
		r.q = newOrderedQueue[I, O](opts.Capacity)
	} else {
		r.q = &unorderedQueue[I, O]{}
	}
	return r
}

func (r *run[I, O]) loop(ctx context.Context, in <-chan Element[I], out chan<- Element[O]) error {
	defer func() {
		if r.timer != nil {
			r.timer.Stop()
		}
	}()
	ctxDone := ctx.Done()
	for {
		// First everything that needs no waiting, cheaply (a one-case select
		// does not lock when it cannot proceed)...
		for progress := true; progress; {
			progress = false
			if closed(ctxDone) {
				return r.abort(ctx.Err())
			}
			if r.armed && r.fired() {
				r.expire()
			}
			for r.inflight > 0 {
				var e *entry[I, O]
				select {
				case e = <-r.done:
				default:
				}
				if e == nil {
					break
				}
				if err := r.complete(ctx, e); err != nil {
					return r.abort(err)
				}
				progress = true
			}
			for r.pending() {
				// A cancelled run emits nothing more, even if out happens to be ready.
				if closed(ctxDone) {
					return r.abort(ctx.Err())
				}
				sent := false
				select {
				case out <- r.element():
					sent = true
				default:
				}
				if !sent {
					break
				}
				r.advance()
				progress = true
			}
			for !r.inClosed && r.size < r.capacity {
				var el Element[I]
				var ok, got bool
				select {
				case el, ok = <-in:
					got = true
				default:
				}
				if !got {
					break
				}
				if !ok {
					r.inClosed = true
					break
				}
				r.admit(el)
				progress = true
			}
		}
		if r.inClosed && r.size == 0 {
			r.wg.Wait()
			return nil
		}

		// ...then wait for whatever comes first.
		var inCh <-chan Element[I]
		if !r.inClosed && r.size < r.capacity {
			inCh = in // a full queue stops reading: backpressure
		}
		var outCh chan<- Element[O]
		var el Element[O]
		if r.pending() {
			outCh, el = out, r.element()
		}
		var timerC <-chan time.Time
		if r.armed {
			timerC = r.timer.C
		}
		select {
		case <-ctxDone:
			return r.abort(ctx.Err())
		case e, ok := <-inCh:
			if !ok {
				r.inClosed = true
				continue
			}
			r.admit(e)
		case e := <-r.done:
			if err := r.complete(ctx, e); err != nil {
				return r.abort(err)
			}
		case outCh <- el:
			r.advance()
		case <-timerC:
			r.armed = false
			r.expire()
		}
	}
}

func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// pending says whether an element is ready to leave, choosing it if needed
// and dropping the finished records that have nothing to emit on the way.
func (r *run[I, O]) pending() bool {
	for r.cur == nil {
		e := r.q.peek()
		if e == nil {
			return false
		}
		if e.in.Watermark || len(e.results) > 0 {
			r.cur, r.next = e, 0
			return true
		}
		r.release() // an empty result emits nothing and blocks nothing
	}
	return true
}

func (r *run[I, O]) element() Element[O] {
	if r.cur.in.Watermark {
		return Element[O]{Timestamp: r.cur.in.Timestamp, Watermark: true}
	}
	return Element[O]{Value: r.cur.results[r.next], Timestamp: r.cur.in.Timestamp}
}

// advance notes that element() was emitted.
func (r *run[I, O]) advance() {
	r.next++
	if r.cur.in.Watermark || r.next == len(r.cur.results) {
		r.cur = nil
		r.release()
	}
}

// release frees the slot of the element at the head of the queue: a slot
// frees when its element has been emitted, not when it completed.
func (r *run[I, O]) release() {
	r.q.pop()
	r.size--
}

func (r *run[I, O]) admit(el Element[I]) {
	e := &entry[I, O]{in: el}
	r.size++
	if el.Watermark {
		e.finished = true // watermarks are complete on arrival and leave in their place
		r.q.push(e)
		return
	}
	e.index = r.records
	r.records++
	r.q.push(e)
	if r.timeout > 0 {
		// The timeout clock starts now, when the record got its slot.
		e.lc = lookupCtx{run: r.ctx, deadline: time.Now().Add(r.timeout), done: make(chan struct{})}
		e.ctx = &e.lc
		r.watch(e)
	}
	r.inflight++
	r.wg.Add(1)
	go r.work(e)
}

// complete takes a record back from its worker.
func (r *run[I, O]) complete(ctx context.Context, e *entry[I, O]) error {
	r.inflight--
	r.unwatch(e)
	if e.err != nil {
		if err := ctx.Err(); err != nil {
			return err // the lookup saw the run's cancellation first
		}
		return e.err
	}
	e.finished = true
	r.q.completed(e)
	return nil
}

// abort ends the run with err: it stops every lookup, waits for the workers
// and returns err. Nothing pending is emitted.
func (r *run[I, O]) abort(err error) error {
	r.cancel()
	for e := r.oldest; e != nil; e = e.newer {
		e.ctx.end(context.Canceled)
	}
	for r.inflight > 0 {
		<-r.done
		r.inflight--
	}
	r.wg.Wait()
	return err
}

// watch adds a record to the list of those that may time out: the newest,
// with the latest deadline.
func (r *run[I, O]) watch(e *entry[I, O]) {
	e.older = r.newest
	if r.newest == nil {
		r.oldest = e
	} else {
		r.newest.newer = e
	}
	r.newest = e
	if !r.armed {
		r.arm()
	}
}

func (r *run[I, O]) unwatch(e *entry[I, O]) {
	if e.ctx == nil || (e.older == nil && r.oldest != e) {
		return // no timeout, or already expired
	}
	if e.older == nil {
		r.oldest = e.newer
	} else {
		e.older.newer = e.newer
	}
	if e.newer == nil {
		r.newest = e.older
	} else {
		e.newer.older = e.older
	}
	e.older, e.newer = nil, nil
	// The timer may stay armed for e's deadline: expire then re-arms it.
}

func (r *run[I, O]) arm() {
	if r.oldest == nil {
		return
	}
	d := time.Until(r.oldest.ctx.deadline)
	if r.timer == nil {
		r.timer = time.NewTimer(d)
	} else {
		r.timer.Reset(d)
	}
	r.armed = true
}

func (r *run[I, O]) fired() bool {
	select {
	case <-r.timer.C:
		r.armed = false
		return true
	default:
		return false
	}
}

// expire ends the lookups whose deadline has passed; their workers hand them
// back as timed out.
func (r *run[I, O]) expire() {
	now := time.Now()
	for e := r.oldest; e != nil && !e.ctx.deadline.After(now); e = r.oldest {
		r.unwatch(e)
		e.ctx.end(context.DeadlineExceeded)
	}
	r.arm()
}

// work looks one record up, with its retries, and hands the entry back on done.
func (r *run[I, O]) work(e *entry[I, O]) {
	defer r.wg.Done()
	var ctx context.Context = r.ctx
	if e.ctx != nil {
		ctx = e.ctx
	}
	e.results, e.err = r.lookup(ctx, e)
	r.done <- e
}

// lookup runs the attempts of one record (Flink's RetryableResultHandlerDelegator).
func (r *run[I, O]) lookup(ctx context.Context, e *entry[I, O]) ([]O, error) {
	retry := r.op.opts.Retry
	for attempt := 1; ; attempt++ {
		res, err := r.op.call(ctx, e.in.Value)
		if r.ctx.Err() != nil {
			return nil, r.ctx.Err() // the run is over; abort ignores this
		}
		// Timed out: final, never retried, and a result that came too late is
		// ignored. An error at or past the deadline is the deadline's doing,
		// even before Run's timer says so: drivers set their socket deadlines
		// from ctx.Deadline().
		if ctx.Err() != nil || err != nil && e.ctx != nil && !time.Now().Before(e.ctx.deadline) {
			return r.timedOut(e, attempt)
		}
		if !retryable(retry, res, err) || attempt >= retry.MaxAttempts {
			// The lookup's own error, exactly: callers compare it with the
			// errors their lookups return.
			return res, err
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

// lookupCtx is a record's context: the run's values, the record's deadline,
// and a Done that Run closes when the deadline passes or the run ends.
type lookupCtx struct {
	run      context.Context
	deadline time.Time
	done     chan struct{}
	ended    atomic.Bool
	err      error // written once, before done is closed
}

var _ context.Context = (*lookupCtx)(nil)

// Deadline is the record's: its slot time plus the timeout.
func (c *lookupCtx) Deadline() (time.Time, bool) { return c.deadline, true }

// Done is closed by Run at the deadline or when the run ends.
func (c *lookupCtx) Done() <-chan struct{} { return c.done }

// Value is the run's context's.
func (c *lookupCtx) Value(key any) any { return c.run.Value(key) }

// Err is DeadlineExceeded or Canceled once Done is closed.
func (c *lookupCtx) Err() error {
	select {
	case <-c.done:
		return c.err
	default:
		return nil
	}
}

func (c *lookupCtx) end(err error) {
	if c.ended.CompareAndSwap(false, true) {
		c.err = err
		close(c.done)
	}
}

// String names the context for debugging.
func (c *lookupCtx) String() string { return fmt.Sprintf("join.lookupCtx(deadline %v)", c.deadline) }
