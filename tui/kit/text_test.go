package kit

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func textEnv() *Env {
	e := NewEnv(context.Background(), nil, false)
	e.Keys, e.Styles = NewKeyMap(), DarkStyles()
	return e
}

func press(s Screen, code rune, text string) {
	s.Update(tea.KeyPressMsg{Code: code, Text: text})
}

// A long value is never cut without a way to see it: the cut says so, →
// scrolls to the rest, and w wraps it instead (#12).
func TestTextScreenScrollsSidewaysAndWraps(t *testing.T) {
	long := `  "vertices": "` + strings.Repeat("x", 70) + `THE-END"`
	m := NewTextLines(textEnv(), "raw", []string{"{", long, "}"})
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	view := ansi.Strip(m.View())
	if strings.Contains(view, "THE-END") || !strings.Contains(view, "→") || !strings.Contains(view, "→ scrolls · w wraps") {
		t.Fatalf("the cut line does not say it goes on:\n%s", view)
	}
	for range 4 {
		press(m, tea.KeyRight, "")
	}
	view = ansi.Strip(m.View())
	if !strings.Contains(view, "THE-END") {
		t.Fatalf("→ did not reach the end of the line:\n%s", view)
	}
	press(m, tea.KeyLeft, "")
	press(m, tea.KeyLeft, "")
	press(m, tea.KeyLeft, "")
	press(m, tea.KeyLeft, "")
	press(m, 'w', "w")
	view = ansi.Strip(m.View())
	if !strings.Contains(view, "THE-END") || !strings.Contains(view, `"vertices"`) || !strings.Contains(view, "wrapped") {
		t.Fatalf("w did not wrap the line whole:\n%s", view)
	}
	for _, l := range strings.Split(view, "\n") {
		if w := ansi.StringWidth(l); w != 40 {
			t.Fatalf("a line is %d wide: %q", w, l)
		}
	}
	// Wrapped, the rows scroll as lines do; the last row is reachable.
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 4})
	press(m, 'G', "G")
	if !strings.Contains(ansi.Strip(m.View()), "}") {
		t.Fatalf("G did not reach the last line:\n%s", ansi.Strip(m.View()))
	}
}
