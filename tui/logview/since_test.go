package logview_test

import (
	"strings"
	"testing"

	"github.com/palink/palink/tui/internal/tuitest"
)

// topRow is the first row of log text on screen.
func topRow(h *tuitest.Harness) string { return textRows(h)[0] }

// 1, 2 and 3 show the log's last 1, 5 and 15 minutes by its own
// timestamps (k9s' since keys; Flink's log4j stamps, read by the rules of
// `palink logs --since`); 0 the whole log again. Reading up, g, a search,
// E and the filter all stop at the first line of the period (#29 item 12).
func TestLogViewerSincePresets(t *testing.T) {
	h := logHarness(t, 120, 40)
	openJMLog(h) // one line a second; the last, line 19999, at 13:45:22

	h.Press("2")
	if top := topRow(h); !strings.HasPrefix(top, "2026-03-14 13:40:22,000") || !strings.Contains(top, "(line 19699)") {
		t.Fatalf("since 5m shows from %q", top)
	}
	h.MustShow("since 5m (from 13:40:22)")
	h.Press("g")
	h.Press("pgup", "pgup", "k")
	if top := topRow(h); !strings.Contains(top, "(line 19699)") {
		t.Fatalf("g and up went past the period's first line, to %q", top)
	}

	h.Press("1")
	if top := topRow(h); !strings.HasPrefix(top, "2026-03-14 13:44:22,000") {
		t.Fatalf("since 1m shows from %q", top)
	}
	// E looks for the first error of the period, not of the log.
	h.Press("E")
	h.MustShow("Lookup failed (line 19990)")
	h.MustNotShow("Lookup failed (line 150)")
	// The filter too.
	h.Press("/")
	h.Type("lookup")
	h.Press("enter")
	h.MustShow("Lookup failed (line 19990)", "filter “lookup”: 1 line since 13:44:22")
	h.MustNotShow("(line 9000)")
	h.Press("esc")

	// 0: the whole log.
	h.Press("0")
	h.MustNotShow("since 1m")
	h.Press("g")
	if top := topRow(h); !strings.Contains(top, "(line 0)") {
		t.Fatalf("the whole log starts with %q", top)
	}
}

// A log without timestamps has no last minutes: said.
func TestLogViewerSinceNeedsTimestamps(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.SelectJob("orders-enrich")
	h.Press("l", "j", "j", "enter") // jobmanager.err, empty
	h.Press("1")
	if f := h.Flash(); !strings.Contains(f, "since 1m: no line of the log's last MiB starts with a timestamp") {
		t.Fatalf("flash %q", f)
	}
}

func TestGoldenLogViewerSince(t *testing.T) {
	goldenFrame(t, "log_viewer_since", func(h *tuitest.Harness) {
		openJMLog(h)
		h.Press("2")
	})
}
