package tuitest

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/palink/palink/tui/internal/probe"
	"github.com/palink/palink/tui/kit"
)

// Program runs the real program loop (bubbletea, its renderer, the real
// Cmds and the change stream) over the root model start builds, at 120×40;
// it quits when the test ends.
func Program(t *testing.T, start func(ctx context.Context) tea.Model) *teatest.TestModel {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	tm := teatest.NewTestModel(t, start(ctx), teatest.WithInitialTermSize(120, 40))
	t.Cleanup(func() { _ = tm.Quit() })
	return tm
}

// Final quits the program and returns its last model.
func Final(t *testing.T, tm *teatest.TestModel) tea.Model {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second))
}

// screens replays each program's output onto a terminal grid, so that a
// wait sees the screen a user sees, not the diff the renderer wrote.
var screens sync.Map // *teatest.TestModel → *Vterm

// WaitFor waits until the program's screen shows every text (each within
// one line). The bound is generous because CI machines run the whole suite
// with -race at once; a passing wait returns as soon as the text shows.
func WaitFor(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	v, _ := screens.LoadOrStore(tm, NewVterm(120, 40))
	term := v.(*Vterm)
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, err := io.ReadAll(tm.Output())
		if err != nil {
			t.Fatalf("read program output: %v", err)
		}
		term.Write(b)
		scr := term.Text()
		missing := ""
		for _, s := range texts {
			if !strings.Contains(scr, s) {
				missing = s
				break
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 20s for %q; the screen shows:\n%s", missing, scr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// ProbeTop is the screen on top of a root model's stack (a final model's).
func ProbeTop(m tea.Model) kit.Screen { return probe.Of(m).Top() }
