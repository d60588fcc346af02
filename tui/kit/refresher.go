package kit

import tea "charm.land/bubbletea/v2"

// Refresher keeps at most one load of a screen's data in flight (k9s's
// "Dropping update"), for every screen: a refresh asked for while a load
// runs is remembered and follows it, so none is lost and none piles up.
// Each load has an identity, a sequence number from Env.NextSeq that its
// result message carries back: an answer the refresher no longer waits for
// (a load it dropped, a late answer for data the screen has left) is
// dropped.
//
// The zero value is not usable; make one with NewRefresher.
type Refresher struct {
	env   *Env
	load  func(seq int) tea.Cmd
	seq   int
	busy  bool
	again bool
}

// NewRefresher makes a refresher whose loads load makes: the Cmd of one
// load, whose message carries seq.
func NewRefresher(e *Env, load func(seq int) tea.Cmd) Refresher {
	return Refresher{env: e, load: load}
}

// Refresh starts a load, or, while one is in flight, asks for one more
// once it is answered.
func (r *Refresher) Refresh() tea.Cmd {
	if r.busy {
		r.again = true
		return nil
	}
	r.busy = true
	r.seq = r.env.NextSeq()
	return r.load(r.seq)
}

// Done takes the answer of load seq. current is false for an answer the
// refresher does not wait for, which the screen drops. next is the load
// that follows when a refresh was asked for meanwhile.
func (r *Refresher) Done(seq int) (current bool, next tea.Cmd) {
	if !r.busy || seq != r.seq {
		return false, nil
	}
	r.busy = false
	if r.again {
		r.again = false
		next = r.Refresh()
	}
	return true, next
}

// Drop forgets the load in flight, whose answer will be dropped: the
// screen has moved on to other data (another cluster, another job), and
// its next Refresh goes out at once.
func (r *Refresher) Drop() { r.busy, r.seq = false, 0 }

// Busy reports a load in flight.
func (r *Refresher) Busy() bool { return r.busy }

// Seq is the identity of the load in flight, or of the last one.
func (r *Refresher) Seq() int { return r.seq }
