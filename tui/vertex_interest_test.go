package tui

import (
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/diagnose"
	"github.com/palink/palink/tui/internal/tuitest"
)

// TestInterestNamesTheVertexOnScreen: while the vertex view is on top,
// the interest names the vertex and its subtasks on screen besides its
// job (core samples their backpressure and watermarks for the
// sparklines); a TaskManager opened from it, or leaving it, drops them.
func TestInterestNamesTheVertexOnScreen(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.OpenDetail("orders-enrich")
	h.Press("shift+tab", "shift+tab")
	h.MustShow("bottleneck LookupJoin[3]")
	h.Press("enter")
	v, ok := h.m.top().(*diagnose.Vertex)
	if !ok {
		t.Fatalf("enter opened %T, want the vertex view", h.m.top())
	}
	got, _ := f.LastInterest()
	want := api.VertexInterest{JobID: "j001", VertexID: tuitest.LookupVertex, From: 0, To: h.m.bodySize().Height - 3}
	if got.Detail != "j001" || got.Vertex != want || v.OnScreen() != want {
		t.Fatalf("in the vertex view the interest is %+v, want the job in depth and %+v", got, want)
	}
	h.Press("?")
	if got, _ := f.LastInterest(); got.Vertex != want {
		t.Errorf("help over the vertex view dropped its subtasks: %+v", got)
	}
	h.Press("esc", "enter") // its TaskManager
	if got, _ := f.LastInterest(); !got.Vertex.IsZero() || got.Detail != "j001" {
		t.Errorf("with a TaskManager over the vertex view the interest is %+v, want the job alone", got)
	}
	h.Press("esc", "esc")
	if got, _ := f.LastInterest(); !got.Vertex.IsZero() || got.Detail != "j001" {
		t.Errorf("back on the graph the interest is %+v, want the job alone", got)
	}
}
