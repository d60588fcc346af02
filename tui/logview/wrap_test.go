package logview_test

import (
	"strings"
	"testing"
)

// A search finds matches before the current position too: it wraps
// around the log, says so, and stops where it began (#12).
func TestLogSearchWrapsAround(t *testing.T) {
	h := logHarness(t, 120, 40)
	v := openJMLog(h)
	h.Press("g")
	h.Press("/")
	h.Type("line 1999")
	h.Press("enter")
	if got := lineOfMatch(v); !strings.Contains(got, "(line 1999)") {
		t.Fatalf("forward from the top: match on %q", got)
	}
	// Backward: nothing above, so on from the bottom.
	h.Press("N")
	if got := lineOfMatch(v); !strings.Contains(got, "(line 19999)") {
		t.Fatalf("N wrapped to %q", got)
	}
	if f := h.Flash(); f != "search for “line 1999” wrapped: on from the bottom" {
		t.Errorf("flash %q", f)
	}
	// Forward past the last: on from the top.
	h.Press("n")
	if got := lineOfMatch(v); !strings.Contains(got, "(line 1999)") {
		t.Fatalf("n wrapped to %q", got)
	}
	if f := h.Flash(); f != "search for “line 1999” wrapped: on from the top" {
		t.Errorf("flash %q", f)
	}

	// A single match: the search comes back to it and says so.
	h.Press("/")
	h.Type("line 12345)")
	h.Press("enter")
	at, _ := v.Match()
	h.Press("n")
	if got, _ := v.Match(); got != at || !strings.Contains(h.Flash(), "“line 12345)” matches only here") {
		t.Errorf("n on the only match: at %d (was %d), flash %q", got, at, h.Flash())
	}

	// None: the whole log was searched.
	h.Press("/")
	h.Type("no such text")
	h.Press("enter")
	if f := h.Flash(); !strings.Contains(f, "no match for “no such text” in the whole log") {
		t.Errorf("flash %q", f)
	}
}
