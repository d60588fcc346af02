package sim

import (
	"container/heap"
	"sort"
	"time"
)

// eventQueue is the simulation's agenda: every app keeps its pending
// events in time order, and one heap over all apps tells the scheduler
// which apps have events due, so a tick costs the events due, not the
// number of apps. It is guarded by the cluster lock.
type eventQueue struct {
	due dueHeap
	seq uint64 // orders events scheduled for the same instant
}

// event is a scheduled state change of one application.
type event struct {
	at  time.Time
	seq uint64
	do  func(now time.Time)
}

// schedule runs do at simulated time at (in order with the app's other events).
func (q *eventQueue) schedule(a *app, at time.Time, do func(now time.Time)) {
	q.seq++
	e := &event{at: at, seq: q.seq, do: do}
	i := sort.Search(len(a.events), func(i int) bool {
		x := a.events[i]
		return x.at.After(at) || (x.at.Equal(at) && x.seq > e.seq)
	})
	a.events = append(a.events, nil)
	copy(a.events[i+1:], a.events[i:])
	a.events[i] = e
	heap.Push(&q.due, dueEntry{at: at, app: a})
}

// dueEntry is one entry of the scheduler's heap. Entries may be stale (the
// event already ran on a read); advancing then does nothing.
type dueEntry struct {
	at  time.Time
	app *app
}

type dueHeap []dueEntry

func (h dueHeap) Len() int { return len(h) }

func (h dueHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }

func (h dueHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

func (h *dueHeap) Push(x any) { *h = append(*h, x.(dueEntry)) }

func (h *dueHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// next pops an app with events due at now, or returns nil when none has.
// The app may have run them already (on a read); advancing it is then a
// no-op.
func (q *eventQueue) next(now time.Time) *app {
	if q.due.Len() == 0 || q.due[0].at.After(now) {
		return nil
	}
	return heap.Pop(&q.due).(dueEntry).app
}
