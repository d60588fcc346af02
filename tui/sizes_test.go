package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/tui/internal/tuitest"
)

// Every view fits every terminal from the smallest palink draws up: no
// line wider than the terminal, exactly its height, the frame's borders
// whole (#12). The golden files pin 120×40, 80×24 and 60×20; this sweeps
// the sizes between.
func TestEveryViewFitsEverySize(t *testing.T) {
	views := []struct {
		name string
		open func(h *harness)
	}{
		{"jobs", func(h *harness) {}},
		{"help", func(h *harness) { h.Press("?") }},
		{"detail tabs", func(h *harness) { h.OpenDetail("orders-enrich") }},
		{"raw", func(h *harness) { h.SelectJob("orders-enrich"); h.Press("y") }},
		{"commands", func(h *harness) { h.Press(":"); h.Type("cmd"); h.Press("enter") }},
		{"command log", func(h *harness) { h.Press(":"); h.Type("cmd"); h.Press("enter", "enter") }},
		{"alerts", func(h *harness) { h.Press(":"); h.Type("alerts"); h.Press("enter") }},
		{"projects", func(h *harness) { h.Press(":"); h.Type("projects"); h.Press("enter") }},
		{"udfs", func(h *harness) { h.Press(":"); h.Type("udfs"); h.Press("enter") }},
		{"cluster", func(h *harness) { h.Press(":"); h.Type("cluster prod"); h.Press("enter") }},
		{"editor", func(h *harness) { h.SelectJob("orders-enrich"); h.Press("e") }},
		{"editor · catalog", func(h *harness) { h.SelectJob("orders-enrich"); h.Press("e") }},
		{"create", func(h *harness) { h.Press("n") }},
		{"log viewer", func(h *harness) { h.SelectJob("orders-enrich"); h.Press("l", "enter") }},
		{"kill dialog", func(h *harness) { h.SelectJob("orders-enrich"); h.Press("ctrl+k") }},
		{"metric browser", func(h *harness) { h.SelectJob("orders-enrich"); h.Press("M") }},
		{"vertex · metric browser", func(h *harness) {
			h.OpenDetail("orders-enrich")
			h.Press("shift+tab", "shift+tab", "enter")
			h.Press("M")
		}},
		{"vertex", func(h *harness) { h.OpenDetail("orders-enrich"); h.Press("shift+tab", "shift+tab", "enter") }},
	}
	for _, v := range views {
		for _, sz := range [][2]int{{40, 8}, {50, 15}, {60, 20}, {70, 22}, {80, 24}, {100, 30}, {120, 40}, {160, 50}} {
			f := tuitest.WithLogs(tuitest.NewFixture())
			f.SetAlerts(tuitest.FixtureAlerts())
			if strings.HasSuffix(v.name, "catalog") {
				f.SetTables("prod", tuitest.FixtureTables()) // the strip under the editor's title
			}
			h := newHarness(t, f, sz[0], sz[1], Options{Context: "test"})
			v.open(h)
			check := func(what string) {
				frame := h.Render()
				lines := strings.Split(frame, "\n")
				if len(lines) != sz[1] {
					t.Fatalf("%s at %dx%d: %d lines", what, sz[0], sz[1], len(lines))
				}
				for i, l := range lines {
					if w := ansi.StringWidth(l); w != sz[0] {
						t.Fatalf("%s at %dx%d: line %d is %d wide: %q", what, sz[0], sz[1], i+1, w, ansi.Strip(l))
					}
				}
			}
			check(v.name)
			if v.name == "detail tabs" {
				for range 7 {
					h.Press("tab")
					check(v.name + " · " + h.m.top().Title())
				}
			}
		}
	}
}
