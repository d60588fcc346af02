package tui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/tui/internal/tuitest"
)

// sgrWith matches an SGR sequence that turns attribute n on (7 reverse,
// 2 faint), alone or with others.
func sgrWith(n string) *regexp.Regexp {
	return regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?` + n + `(?:;[0-9;]*)?m`)
}

// lineWith is the line of a frame whose text contains s, "" for none.
func lineWith(frame, s string) string {
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(ansi.Strip(l), s) {
			return l
		}
	}
	return ""
}

// Under NO_COLOR (https://no-color.org) colour carries nothing: the
// selected row is reversed, FAILED and KILLED rows carry a symbol, and a
// prompt's placeholder is faint, not read as typed text (#29).
func TestNoColorSaysWithoutColour(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.Send(tea.ColorProfileMsg{Profile: colorprofile.ASCII})
	frame := tuitest.NoColor(h.Render())
	if cur := lineWith(frame, "ad-clicks-agg"); !sgrWith("7").MatchString(cur) {
		t.Errorf("the selected row is not reversed: %q", cur)
	}
	for name, want := range map[string]string{"fraud-scoring": "✖ FAILED", "geo-enrich": "✖ DEPLOY_FAILED", "ad-clicks-agg": "■ KILLED"} {
		if l := ansi.Strip(lineWith(frame, name)); !strings.Contains(l, want) {
			t.Errorf("%s's row says no %q: %q", name, want, l)
		}
	}
	if l := ansi.Strip(lineWith(frame, "orders-enrich")); strings.Contains(l, "✖") || strings.Contains(l, "■") {
		t.Errorf("a running job's row carries a symbol: %q", l)
	}

	// The silence prompt's format is a faint placeholder.
	h.F.SetAlerts(tuitest.FixtureAlerts())
	h.Press(":")
	h.Type("alerts")
	h.Press("enter", "s")
	prompt := lineWith(tuitest.NoColor(h.Render()), "silence job-failed")
	if i := strings.Index(prompt, "0m, 2h, 1d"); i < 0 || !sgrWith("2").MatchString(prompt[:i]) {
		t.Errorf("the placeholder is not faint: %q", prompt)
	}

	// Colour comes back with a colour terminal.
	h.Press("esc", "esc")
	h.Send(tea.ColorProfileMsg{Profile: colorprofile.ANSI256})
	if l := ansi.Strip(lineWith(h.Render(), "fraud-scoring")); strings.Contains(l, "✖ FAILED") {
		t.Errorf("with colour, the row still carries the symbol: %q", l)
	}
}

func TestNoColorIsAnyNonEmptyValue(t *testing.T) {
	for env, want := range map[string]bool{"NO_COLOR=1": true, "NO_COLOR=yes": true, "NO_COLOR=0": true, "NO_COLOR=": false, "TERM=xterm": false} {
		if got := noColor([]string{"TERM=xterm-256color", env}); got != want {
			t.Errorf("%s: no colour %v, want %v", env, got, want)
		}
	}
}
