package tui

import (
	"strings"
	"testing"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
)

// The resubmit chooser names every restore point by the last part of its
// path (chk-N, savepoint-…) and says its age at every width: a path too
// long for the dialog loses its middle, never its end (#29).
func TestResubmitChooserKeepsEachPointsName(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 20}} {
		t.Run(tuitest.SizeName(size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, tuitest.NewFixture(), size[0], size[1], Options{})
			h.OpenDetail("orders-enrich")
			h.F.Jobs[0].State = model.StateFinished // as if paused meanwhile
			h.Press("ctrl+r", "R")
			h.MustShow("Resubmit orders-enrich — restore from?")
			for _, want := range [][2]string{
				{"latest savepoint", "savepoint-7f3a21"}, {"latest checkpoint", "chk-8812"}, {"savepoint", "savepoint-11aa02"},
			} {
				line := optionLine(h.Screen(), want[0]+" ")
				if line == "" || !strings.Contains(line, want[1]) || !strings.Contains(line, " ago") {
					t.Errorf("%s: the option reads %q, want its age and %s", want[0], line, want[1])
				}
			}
		})
	}
}

// optionLine is the chooser's line that starts with label.
func optionLine(screen, label string) string {
	for _, l := range strings.Split(screen, "\n") {
		if i := strings.Index(l, "│ "); i >= 0 {
			l = strings.TrimLeft(l[i+len("│ "):], "▸ ")
			if strings.HasPrefix(l, label) {
				return l
			}
		}
	}
	return ""
}
