package logview_test

import (
	"strings"
	"testing"
)

// A search finds matches before the current position too: it wraps
// around the log, says so, and stops where it began (#12). `/` filters;
// enter keeps the filter and enter again shows its newest line in the log,
// as a search's match, from which n and N go on.
func TestLogSearchWrapsAround(t *testing.T) {
	h := logHarness(t, 120, 40)
	v := openJMLog(h)
	h.Press("/")
	h.Type("line 1999")
	h.Press("enter", "enter")
	if got := lineOfMatch(v); !strings.Contains(got, "(line 19999)") {
		t.Fatalf("the filter's newest line: match on %q", got)
	}
	// Forward: nothing below, so on from the top.
	h.Press("n")
	if got := lineOfMatch(v); !strings.Contains(got, "(line 1999)") {
		t.Fatalf("n wrapped to %q", got)
	}
	if f := h.Flash(); f != "search for “line 1999” wrapped: on from the top" {
		t.Errorf("flash %q", f)
	}
	// Backward past the first: on from the bottom.
	h.Press("N")
	if got := lineOfMatch(v); !strings.Contains(got, "(line 19999)") {
		t.Fatalf("N wrapped to %q", got)
	}
	if f := h.Flash(); f != "search for “line 1999” wrapped: on from the bottom" {
		t.Errorf("flash %q", f)
	}

	// A single match: the search comes back to it and says so.
	h.Press("/")
	h.Type("line 12345)")
	h.Press("enter", "enter")
	at, _ := v.Match()
	h.Press("n")
	if got, _ := v.Match(); got != at || !strings.Contains(h.Flash(), "“line 12345)” matches only here") {
		t.Errorf("n on the only match: at %d (was %d), flash %q", got, at, h.Flash())
	}

	// None: the whole log was filtered, and there is nothing to show.
	h.Press("/")
	h.Type("no such text")
	h.Press("enter")
	h.MustShow("no line matches “no such text” in the whole log")
	h.Press("enter")
	if f := h.Flash(); f != "filter: no line to show" {
		t.Errorf("flash %q", f)
	}
}
