package sim

import (
	"sync"
	"time"
)

// Clock tells the simulated time. Everything the cluster does (state
// transitions, checkpoints, metrics) is a function of this clock, so a fast
// or manual clock makes the simulation fast or stepwise.
type Clock interface {
	Now() time.Time
}

// scaledClock runs speed times faster than the wall clock, starting at origin.
type scaledClock struct {
	origin time.Time
	wall   time.Time
	speed  float64
}

// NewScaledClock returns a clock that reads origin now and then advances
// speed simulated seconds per wall-clock second. speed <= 0 means 1.
func NewScaledClock(origin time.Time, speed float64) Clock {
	if speed <= 0 {
		speed = 1
	}
	return &scaledClock{origin: origin, wall: time.Now(), speed: speed}
}

func (c *scaledClock) Now() time.Time {
	elapsed := time.Since(c.wall)
	return c.origin.Add(time.Duration(float64(elapsed) * c.speed))
}

// ManualClock only moves when told to; tests use it to step the simulation.
type ManualClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewManualClock returns a clock stopped at t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{t: t} }

// Now returns the clock's current time.
func (m *ManualClock) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.t
}

// Advance moves the clock forward by d.
func (m *ManualClock) Advance(d time.Duration) {
	m.mu.Lock()
	m.t = m.t.Add(d)
	m.mu.Unlock()
}

// WarpClock runs behind the wall clock, at its pace, until Forward jumps
// it ahead; it never runs past the wall clock. The demo lives an hour of
// its fleet's life in a second this way, stepping through it, and the hour
// it shows is one the simulated cluster really went through.
type WarpClock struct {
	mu     sync.Mutex
	behind time.Duration
}

// NewWarpClock returns a clock behind the wall clock by behind.
func NewWarpClock(behind time.Duration) *WarpClock {
	return &WarpClock{behind: max(behind, 0)}
}

// Now implements Clock.
func (w *WarpClock) Now() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return time.Now().Add(-w.behind)
}

// Behind is how far behind the wall clock it is.
func (w *WarpClock) Behind() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.behind
}

// Forward jumps the clock ahead by d, never past the wall clock.
func (w *WarpClock) Forward(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.behind = max(w.behind-max(d, 0), 0)
}
