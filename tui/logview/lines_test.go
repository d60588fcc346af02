package logview_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// paddedLong is the line of paddedLog that is long for real: its
// exception name lies past the right edge at every size.
const paddedLong = 250

// paddedText is line i of paddedLog without its padding.
func paddedText(i int) string {
	if i == paddedLong {
		return fmt.Sprintf("2026-03-14 09:%02d:%02d,000 WARN  Task [] - lookup of key %s failed: java.lang.IllegalStateException: pool closed", i/60, i%60, strings.Repeat("k", 120))
	}
	return fmt.Sprintf("2026-03-14 09:%02d:%02d,000 INFO  CheckpointCoordinator [] - Completed checkpoint %d (padded %d)", i/60, i%60, 8000+i, i)
}

// paddedLog is a log as Flink's simulator and some appenders write it:
// every line padded with spaces to 159 characters, some ending in CRLF,
// one long for real.
func paddedLog() []byte {
	var b bytes.Buffer
	for i := range 300 {
		line := paddedText(i)
		eol := "\n"
		if i%7 == 3 {
			eol = "\r\n"
		}
		b.WriteString(line + strings.Repeat(" ", max(159-len(line), 0)) + eol)
	}
	return b.Bytes()
}

// withPaddedLog gives orders-enrich's JobManager the padded log.
func withPaddedLog(f *tuitest.Fake) *tuitest.Fake {
	f = tuitest.WithLogs(f)
	f.ReplaceLog("j001", api.LogRef{}, paddedLog())
	return f
}

// textRows are the rows of log text on screen: between the box's top edge
// and its status line, without the box's sides.
func textRows(h *tuitest.Harness) []string {
	var rows []string
	lines := strings.Split(h.Screen(), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "│") || i+2 >= len(lines) || strings.HasPrefix(lines[i+1], "└") {
			continue // not a row of the box, or its status line
		}
		rows = append(rows, strings.TrimSuffix(strings.TrimPrefix(l, "│"), "│"))
	}
	return rows
}

// Padding is not text: a padded short line takes one row when wrapped
// (no blank row after it) and is not marked cut; the one long line is,
// and a match past the right edge is scrolled into view (#29 item 12).
func TestLogViewerTrimsPaddingBeforeWrappingOrCutting(t *testing.T) {
	for _, size := range tuitest.Sizes {
		t.Run(tuitest.SizeName(size.W, size.H), func(t *testing.T) {
			h := apptest.New(t, withPaddedLog(tuitest.NewFixture()), size.W, size.H, tui.Options{Context: "test"})
			openJMLog(h)
			cols := size.W - 2
			for _, r := range textRows(h) {
				var m, sec int
				if _, err := fmt.Sscanf(r, "2026-03-14 09:%d:%d,", &m, &sec); err != nil {
					t.Fatalf("row %q is not a line's start", r)
				}
				long := len(paddedText(m*60+sec)) > cols
				if cut := strings.HasSuffix(r, "…"); cut != long {
					t.Errorf("marked cut: %v, is longer than %d columns: %v: %q", cut, cols, long, r)
				}
			}

			// E finds the exception past the right edge and scrolls to it.
			h.Press("E")
			h.MustShow("IllegalStateException")

			h.Press("G", "w")
			h.MustShow("wrap")
			rows := textRows(h)
			for i, r := range rows {
				if strings.TrimSpace(r) == "" {
					t.Fatalf("row %d of the wrapped log is blank:\n%s", i, strings.Join(rows, "\n"))
				}
			}
			if last := strings.TrimSpace(rows[len(rows)-1]); !strings.HasSuffix(last, "(padded 299)") {
				t.Fatalf("the wrapped view ends with %q", last)
			}
		})
	}
}

func TestGoldenLogViewerPaddedMatchSideways(t *testing.T) {
	apptest.GoldenFrame(t, "log_viewer_padded_match", withPaddedLog, tui.Options{}, func(h *tuitest.Harness) {
		openJMLog(h)
		h.Press("E")
	})
}

func TestGoldenLogViewerPaddedWrap(t *testing.T) {
	apptest.GoldenFrame(t, "log_viewer_padded_wrap", withPaddedLog, tui.Options{}, func(h *tuitest.Harness) {
		openJMLog(h)
		h.Press("w")
	})
}
