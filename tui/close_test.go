package tui

import (
	"testing"

	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

// closingScreen records that the root closed it.
type closingScreen struct {
	*kit.TextScreen
	closed bool
}

func (s *closingScreen) Close() { s.closed = true }

// A screen that holds requests is closed when it leaves the stack, by esc
// or by :jobs, so that its requests end with it.
func TestTheRootClosesTheScreensItPops(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	a := &closingScreen{TextScreen: kit.NewTextScreen(h.m.env, "a", "a")}
	b := &closingScreen{TextScreen: kit.NewTextScreen(h.m.env, "b", "b")}
	h.Send(kit.PushMsg{Screen: a}, kit.PushMsg{Screen: b})
	h.Press("esc")
	if !b.closed || a.closed {
		t.Fatalf("after esc: a closed %v, b closed %v", a.closed, b.closed)
	}
	h.Send(kit.PushMsg{Screen: b})
	b.closed = false
	h.Press(":")
	h.Type("jobs")
	h.Press("enter")
	if !a.closed || !b.closed {
		t.Fatalf("after :jobs: a closed %v, b closed %v", a.closed, b.closed)
	}
}
