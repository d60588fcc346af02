package core

import (
	"context"
	"sync"

	"github.com/palink/palink/core/api"
)

// hub fans changes out to watchers. A watcher that reads slowly never blocks
// the publisher: its pending changes are coalesced per entity (the latest
// wins), and past maxPending entities it gets a single Resync instead.
type hub struct {
	mu   sync.Mutex
	subs map[*watcher]struct{}
}

const maxPending = 4096

type watchKey struct {
	kind api.ChangeKind
	id   string
}

type watcher struct {
	mu      sync.Mutex
	pending map[watchKey]api.Change
	order   []watchKey
	resync  bool
	wake    chan struct{}
}

func newHub() *hub { return &hub{subs: map[*watcher]struct{}{}} }

// subscribe returns a channel of changes that closes when ctx is done.
func (h *hub) subscribe(ctx context.Context) <-chan api.Change {
	w := &watcher{pending: map[watchKey]api.Change{}, wake: make(chan struct{}, 1)}
	h.mu.Lock()
	h.subs[w] = struct{}{}
	h.mu.Unlock()
	out := make(chan api.Change)
	go func() {
		defer close(out)
		defer func() {
			h.mu.Lock()
			delete(h.subs, w)
			h.mu.Unlock()
		}()
		for {
			select {
			case <-ctx.Done():
				return
			case <-w.wake:
			}
			for _, c := range w.drain() {
				select {
				case out <- c:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

func (w *watcher) drain() []api.Change {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.resync {
		w.resync = false
		return []api.Change{{Kind: api.Resync}}
	}
	out := make([]api.Change, 0, len(w.order))
	for _, k := range w.order {
		out = append(out, w.pending[k])
	}
	clear(w.pending)
	w.order = w.order[:0]
	return out
}

// publish hands c to every watcher without blocking.
func (h *hub) publish(c api.Change) {
	k := keyOf(c)
	h.mu.Lock()
	defer h.mu.Unlock()
	for w := range h.subs {
		w.mu.Lock()
		switch {
		case w.resync:
		case len(w.pending) >= maxPending:
			w.resync = true
			clear(w.pending)
			w.order = w.order[:0]
		default:
			if _, ok := w.pending[k]; !ok {
				w.order = append(w.order, k)
			}
			w.pending[k] = c
		}
		w.mu.Unlock()
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
}

func keyOf(c api.Change) watchKey {
	switch {
	case c.Job != nil:
		return watchKey{c.Kind, c.Job.ID}
	case c.Command != nil:
		return watchKey{c.Kind, c.Command.ID}
	case c.Cluster != nil:
		return watchKey{c.Kind, c.Cluster.Name}
	}
	return watchKey{kind: c.Kind}
}
