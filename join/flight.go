package join

import (
	"context"
	"errors"
	"sync"
)

// flight makes identical keys in flight one query: the first caller queries,
// the others wait for its rows (golang.org/x/sync/singleflight, plus
// contexts: a waiter leaves when its own context ends, and if the query
// failed only because the first caller's context ended, a waiter whose own
// context is alive queries again instead of inheriting that failure).
type flight struct {
	mu    sync.Mutex
	calls map[string]*flightCall
}

type flightCall struct {
	done    chan struct{}
	rows    []Row
	err     error
	waiters int
}

// do returns fn's rows for key, calling fn only if no call for key is in
// flight. shared says the rows came from another caller's query.
func (f *flight) do(ctx context.Context, key string, fn func() ([]Row, error)) (rows []Row, shared bool, err error) {
	for {
		f.mu.Lock()
		if f.calls == nil {
			f.calls = map[string]*flightCall{}
		}
		c, inFlight := f.calls[key]
		if !inFlight {
			c = &flightCall{done: make(chan struct{})}
			f.calls[key] = c
			f.mu.Unlock()
			c.rows, c.err = fn()
			f.mu.Lock()
			delete(f.calls, key)
			f.mu.Unlock()
			close(c.done)
			return c.rows, false, c.err
		}
		c.waiters++
		f.mu.Unlock()
		select {
		case <-c.done:
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
		if c.err != nil && isContextError(c.err) && ctx.Err() == nil {
			continue // the leader gave up, not the database: ask again
		}
		return c.rows, true, c.err
	}
}

func isContextError(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// waiting counts the callers waiting for another's query.
func (f *flight) waiting() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		n += c.waiters
	}
	return n
}
