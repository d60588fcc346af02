package dag

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

// sizes are the goldens' terminals: the TUI's two, and a narrow one.
var sizes = [][2]int{{120, 40}, {80, 24}, {60, 20}}

func view(t *testing.T, g Graph, w, h int, setup func(m *Model)) string {
	t.Helper()
	m := New(g, NewStyles(kit.DarkStyles()))
	m.SetSize(w, h)
	if setup != nil {
		setup(&m)
	}
	out := m.View()
	checkFrame(t, out, w, h)
	return out
}

// checkFrame holds a view to its size: h lines of exactly w cells.
func checkFrame(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Fatalf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("line %d is %d cells wide, want %d: %q", i+1, got, w, ansi.Strip(l))
		}
	}
}

func golden(t *testing.T, name string, g Graph, setup func(m *Model)) {
	t.Helper()
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			tuitest.Golden(t, fmt.Sprintf("%s_%dx%d", name, sz[0], sz[1]), tuitest.Pinned(view(t, g, sz[0], sz[1], setup)))
		})
	}
}

func TestGoldenLookupJoin(t *testing.T) {
	golden(t, "lookup_join", lookupJoin(), func(m *Model) { m.SetHighlight("join") })
}

func TestGoldenFanInOut(t *testing.T) {
	golden(t, "fan_in_out", fanInOut(), func(m *Model) {
		m.SetHighlight("join")
		m.Select("calc")
	})
}

func TestGoldenCycle(t *testing.T) {
	golden(t, "cycle", iteration(), func(m *Model) { m.Select("tail") })
}

// The 200-vertex graph fits no picture at these widths: the list, around
// the cursor.
func TestGoldenBig(t *testing.T) {
	golden(t, "big", big(200), func(m *Model) {
		m.SetHighlight("v120")
		m.Select("v117")
	})
}

// Forced left to right, the 200-vertex graph scrolls both ways to keep
// the cursor in sight.
func TestGoldenBigLeftRight(t *testing.T) {
	golden(t, "big_left_right", big(200), func(m *Model) {
		m.SetMode(LeftRight)
		m.SetHighlight("v120")
		m.Select("v117")
	})
}
