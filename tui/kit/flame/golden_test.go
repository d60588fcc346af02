package flame

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

func newModel(t testing.TB, root Node, w, h int) Model {
	t.Helper()
	m := New(Build(root), NewStyles(kit.DarkStyles()))
	m, _ = m.Update(tuitest.SizeMsg(w, h))
	return m
}

// press sends keys and returns the frame under the cursor after each.
func press(m *Model, keys ...string) []string {
	var at []string
	for _, k := range keys {
		*m, _ = m.Update(tuitest.Key(k))
		at = append(at, m.Cursor().Name)
	}
	return at
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

func golden(t *testing.T, name string, setup func(m *Model)) {
	t.Helper()
	for _, sz := range tuitest.Sizes {
		t.Run(tuitest.SizeName(sz.W, sz.H), func(t *testing.T) {
			m := newModel(t, lookupJoin(t), sz.W, sz.H)
			if setup != nil {
				setup(&m)
			}
			out := m.View()
			checkFrame(t, out, sz.W, sz.H)
			tuitest.Golden(t, fmt.Sprintf("%s_%s", name, tuitest.SizeName(sz.W, sz.H)), tuitest.Pinned(out))
		})
	}
}

// The lookup join's flame graph with the cursor on the hottest path, down
// at the user's lookup function.
func TestGoldenLookupJoin(t *testing.T) {
	golden(t, "lookup_join", func(m *Model) {
		press(m, strings.Split(strings.Repeat("down ", 16), " ")[:16]...)
	})
}

// Zoomed into the lookup join operator: its callees take the whole width.
func TestGoldenZoomed(t *testing.T) {
	golden(t, "lookup_join_zoomed", func(m *Model) {
		for m.Cursor().Name != "org.apache.flink.table.runtime.operators.join.lookup.LookupJoinRunner.processElement:93" {
			press(m, "down")
		}
		press(m, "enter", "down", "down")
	})
}

// A search for the database driver marks its frames and says their share.
func TestGoldenSearch(t *testing.T) {
	golden(t, "lookup_join_search", func(m *Model) {
		m.SetSearch("mysql")
		press(m, "n")
	})
}

func keyOf(k string) tea.KeyPressMsg { return tuitest.Key(k) }
