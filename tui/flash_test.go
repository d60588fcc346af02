package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

// A flash goes when its cause is gone: the list that failed to load loads.
func TestFlashGoesWhenItsCauseIsGone(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	f.SetFail(tuitest.ErrClusterDown)
	h.Press("ctrl+r")
	if !strings.Contains(h.Flash(), "list jobs: connection refused") {
		t.Fatalf("flash %q", h.Flash())
	}
	f.SetFail(nil)
	h.Press("ctrl+r")
	if h.Flash() != "" {
		t.Errorf("the load worked and its error stays: %q", h.Flash())
	}
	// An unrelated flash is not taken away by it.
	h.Send(kit.FlashMsg{Level: kit.FlashWarn, Text: "something else"})
	h.Send(kit.ClearFlashMsg{Key: "load:jobs"})
	if h.Flash() != "something else" {
		t.Errorf("clearing a cause took another flash: %q", h.Flash())
	}
}

// A flash about a screen goes when the screen is left; the session's
// (an action's progress and outcome) stays.
func TestFlashOfAScreenGoesWithIt(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.Press(":")
	h.Type("cmd")
	h.Press("enter", "z")
	if !strings.Contains(h.Flash(), "z does nothing in Commands") {
		t.Fatalf("flash %q", h.Flash())
	}
	h.Press("esc")
	if h.Flash() != "" {
		t.Errorf("the commands view's flash stayed on the jobs table: %q", h.Flash())
	}

	h.SelectJob("user-features")
	h.Press("p", "tab", "enter")
	if h.Flash() != "PAUSE #42 queued for user-features…" {
		t.Fatalf("flash %q", h.Flash())
	}
	h.Press("enter") // the detail: the command runs on
	if h.Flash() != "PAUSE #42 queued for user-features…" {
		t.Errorf("the action's progress went with the screen: %q", h.Flash())
	}
	f.Finish("c000042", true, "savepoint hdfs:///sp/uf-1")
	for _, c := range drain(f) {
		h.Change(c)
	}
	if got := h.Flash(); !strings.HasPrefix(got, "PAUSE #42 of user-features succeeded") {
		t.Errorf("the end did not replace the progress: %q", got)
	}
}

// A busy flash outlives an ordinary one: the work's result replaces it.
func TestBusyFlashStaysUntilReplaced(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.Timers = nil
	h.Send(kit.FlashMsg{Level: kit.FlashInfo, Text: "saving…", Key: "k", Busy: true})
	if len(h.Timers) != 1 || h.Timers[0].D < time.Minute {
		t.Fatalf("a busy flash lives %v", h.Timers)
	}
	if !strings.Contains(h.Screen(), "◌ saving…") {
		t.Errorf("a busy flash does not look busy:\n%s", h.Screen())
	}
	h.Send(kit.FlashMsg{Level: kit.FlashInfo, Text: "saved", Key: "k"})
	if h.Flash() != "saved" || !strings.Contains(h.Screen(), "ⓘ saved") {
		t.Errorf("flash %q", h.Flash())
	}
}
