package cli

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/tui"
)

// tourTUI opens the TUI over the planted store, as `palink` does, and
// visits every screen its command line opens, a job's detail and its tabs,
// its raw record, its editor, a command's log and a catalog table: no
// frame it draws holds a planted value.
func tourTUI(t *testing.T, e *cliEnv, p planted, ctx context.Context) {
	t.Helper()
	g := &globals{configPath: e.config, output: outTable}
	env, err := g.openEnv(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	tctx, stop := context.WithCancel(ctx)
	defer stop()
	rec := &frames{}
	// The real program loop (its renderer, the real Cmds, the change
	// stream), keys sent as a terminal's.
	prog := tea.NewProgram(recorder{Model: tui.New(tctx, env.svc, tui.Options{Context: "test", User: "ops", Debugger: newDebugger(env.cfg, nil)}), f: rec},
		tea.WithContext(tctx), tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(160, 50), tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() { _, err := prog.Run(); done <- err }()
	// shows waits until a frame since the last mark shows text.
	shows := func(text string, d time.Duration) bool {
		for deadline := time.Now().Add(d); !strings.Contains(rec.since(), text); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				return false
			}
		}
		return true
	}
	key := func(keys ...string) {
		for _, k := range keys {
			switch k {
			case "enter":
				prog.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
			case "esc":
				prog.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
			case "tab":
				prog.Send(tea.KeyPressMsg{Code: tea.KeyTab})
			default:
				for _, r := range k {
					prog.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
				}
			}
		}
	}
	// step presses keys and waits for what they open to show.
	step := func(want string, keys ...string) {
		t.Helper()
		rec.mark()
		key(keys...)
		if !shows(want, 30*time.Second) {
			t.Fatalf("the TUI never showed %q after %q; its last frame:\n%s", want, keys, rec.last())
		}
	}
	// home goes back to the unfiltered jobs list, however deep the tour is.
	home := func() {
		t.Helper()
		for range 6 {
			rec.mark()
			key("esc")
			if shows("┌ Jobs · all clusters ─", 2*time.Second) { // unfiltered: a filter would follow the title
				return
			}
		}
		t.Fatalf("esc never led back to the jobs list; its last frame:\n%s", rec.last())
	}
	step("plant-jar")
	step("1/1", "/", "plant-sql", "enter")
	step("Exceptions", "enter")
	for range 9 {
		key("tab")
		time.Sleep(300 * time.Millisecond) // each tab loads what it shows
	}
	step(`"nodes"`, "y")
	home()
	step("plant-sql · SQL", "/", "plant-sql", "enter", "e")
	home()
	step("SUBMIT", ":", "cmd", "enter")
	step("plant-gone · log", "enter") // the newest: the gateway's refusal
	home()
	step("SUBMIT", ":", "cmd", "enter")
	step("Program Arguments", "j", "enter") // the one before: the exec deployer's output
	home()
	step("Tables @", ":", "tables", "enter")
	step("password", "enter")
	home()
	step("mask", ":", "udfs", "enter")
	home()
	step("dedup", ":", "projects", "enter")
	home()
	step("Queues", ":", "cluster sim", "enter")
	home()
	step("lerts", ":", "alerts", "enter")
	prog.Quit()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	all := rec.all()
	if l := p.leak(all); l != "" {
		i := strings.Index(all, l)
		t.Errorf("the TUI shows %q: …%s…", l, all[max(0, i-300):min(len(all), i+300)])
	}
	if !strings.Contains(all, "${s_cmd}") {
		t.Error("no frame showed a ${name} reference: the tour did not look where the values would be")
	}
}

// frames keeps every frame a TUI drew, its styles stripped.
type frames struct {
	mu     sync.Mutex
	b      strings.Builder
	marked int // where since starts
	lastAt int
}

func (f *frames) add(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lastAt = f.b.Len()
	f.b.WriteString(ansi.Strip(s))
	f.b.WriteString("\n\f\n")
}

// mark starts what since returns at the next frame.
func (f *frames) mark() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.marked = f.b.Len()
}

func (f *frames) since() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.b.String()[f.marked:]
}

func (f *frames) last() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.b.String()[f.lastAt:]
}

func (f *frames) all() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.b.String()
}

// recorder is a TUI that keeps each frame it draws.
type recorder struct {
	tea.Model
	f *frames
}

func (r recorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := r.Model.Update(msg)
	r.Model = m
	return r, cmd
}

func (r recorder) View() tea.View {
	v := r.Model.View()
	r.f.add(v.Content)
	return v
}
