package logview_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// clipboard is what the last clipboard Cmd the harness ran set, "" for
// none: tea.SetClipboard's message, which the program writes to the
// terminal as OSC 52.
func clipboard(h *tuitest.Harness) string {
	for i := len(h.Seen) - 1; i >= 0; i-- {
		if fmt.Sprintf("%T", h.Seen[i]) == "tea.setClipboardMsg" {
			return fmt.Sprint(h.Seen[i])
		}
	}
	return ""
}

// jmLine is line i of the JobManager log (from 0), without its newline.
func jmLine(i int) string {
	return strings.Split(string(jmLog), "\n")[i]
}

// c copies the current line, the current match or else the top line, to
// the clipboard, and says which (#29 item 12).
func TestLogViewerCopiesTheCurrentLine(t *testing.T) {
	h := logHarness(t, 120, 40)
	openJMLog(h)

	// From the top the viewer knows the lines' numbers.
	h.Press("g", "j", "j")
	h.Press("c")
	if got := clipboard(h); got != jmLine(2) {
		t.Fatalf("copied %q, want the top line %q", got, jmLine(2))
	}
	if f := h.Flash(); !strings.HasPrefix(f, "copied line 3 ") {
		t.Fatalf("flash %q", f)
	}

	// A search's current match is the current line.
	h.Press("E")
	h.MustShow("Lookup failed (line 150)")
	h.Press("c")
	if got := clipboard(h); !strings.HasSuffix(got, "Lookup failed (line 150)") {
		t.Fatalf("copied %q, want the match", got)
	}
	if f := h.Flash(); !strings.HasPrefix(f, "copied line 151 ") {
		t.Fatalf("flash %q", f)
	}

	// Read from the tail, the lines' numbers are not known: the line is
	// named by where it is.
	h.Press("G", "k")
	h.Press("c")
	top := strings.Split(strings.Split(h.Screen(), "\n")[2], "│")[1]
	if got := clipboard(h); !strings.HasPrefix(got, strings.TrimSpace(top)) {
		t.Fatalf("copied %q, the top line is %q", got, top)
	}
	if f := h.Flash(); !strings.HasPrefix(f, "copied the line at 1.8 MiB ") {
		t.Fatalf("flash %q", f)
	}
}

// The copy reaches the terminal as OSC 52, which a terminal honours also
// at the end of an SSH session.
func TestProgramLogViewerCopiesWithOSC52(t *testing.T) {
	f := tuitest.WithLogs(tuitest.NewFixture())
	tm := apptest.Program(t, f, tui.Options{})
	tuitest.WaitFor(t, tm, "orders-enrich")
	tm.Type("/orders-enrich")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("l")
	tuitest.WaitFor(t, tm, "jobmanager.err", "stdout") // Flink's list, which leads
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "19999)")
	tm.Type("g")
	tuitest.WaitFor(t, tm, "(line 0)")
	tm.Type("c")
	want := []byte("\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(jmLine(0))))
	var out []byte
	for deadline := time.Now().Add(20 * time.Second); !bytes.Contains(out, want); time.Sleep(10 * time.Millisecond) {
		b, err := io.ReadAll(tm.Output())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
		if time.Now().After(deadline) {
			t.Fatalf("the terminal never got OSC 52 with the first line; it got %q", out)
		}
	}
}
