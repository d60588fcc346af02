package tui

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// These scenarios run the real program loop (bubbletea, its renderer, the
// real Cmds and the change stream) against the fake, and wait for content
// on the rendered output; they never sleep.

func startProgram(t *testing.T, f *Fake, opts Options) *teatest.TestModel {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if opts.Now == nil {
		opts.Now = func() time.Time { return Now }
	}
	opts.Theme = ThemeDark
	tm := teatest.NewTestModel(t, New(ctx, f, opts), teatest.WithInitialTermSize(120, 40))
	t.Cleanup(func() { _ = tm.Quit() })
	return tm
}

// screens replays each program's output onto a terminal grid, so that a
// wait sees the screen a user sees, not the diff the renderer wrote.
var screens sync.Map // *teatest.TestModel → *vterm

// waitFor waits until the screen shows every text (each within one line).
// The bound is generous because CI machines run the whole suite with -race
// at once; a passing wait returns as soon as the text shows.
func waitFor(t *testing.T, tm *teatest.TestModel, texts ...string) {
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

func finalModel(t *testing.T, tm *teatest.TestModel) *Model {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
}

func TestProgramFilterAndOpenByKeyboard(t *testing.T) {
	f := NewFixture()
	tm := startProgram(t, f, Options{})
	waitFor(t, tm, "orders-enrich", "fraud-scoring")
	tm.Type("/state:FAILED")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "1/1")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "OutOfMemoryError")
	m := finalModel(t, tm)
	if d, ok := m.top().(*detailScreen); !ok || d.data.job.Name != "fraud-scoring" {
		t.Fatalf("the keyboard did not open fraud-scoring's detail: %T", m.top())
	}
}

func TestProgramPauseWithConfirmationAndProgress(t *testing.T) {
	f := NewFixture()
	tm := startProgram(t, f, Options{})
	waitFor(t, tm, "user-features")
	tm.Type("/user")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("p")
	waitFor(t, tm, "Pause user-features?", "Cancel")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "queued for user-features")
	// The scheduler's progress arrives through Watch.
	f.Finish("c000042", true, "savepoint hdfs:///sp/uf-1")
	waitFor(t, tm, "succeeded")
	m := finalModel(t, tm)
	if j := m.jobs.byID["j004"]; j.State != model.StateFinished {
		t.Errorf("user-features is %s after its pause succeeded", j.State)
	}
	if !slices.Contains(f.Calls(), "Act PAUSE j004 - ") {
		t.Errorf("calls %v", f.Calls())
	}
}

func TestProgramStaysResponsiveWhenTheServiceIsSlowOrDown(t *testing.T) {
	f := NewFixture()
	tm := startProgram(t, f, Options{RequestTimeout: 300 * time.Millisecond})
	waitFor(t, tm, "orders-enrich")

	// The cluster becomes slow, and sync says so.
	f.SetDelay(time.Hour)
	f.Emit(api.Change{Kind: api.ClusterChanged, Cluster: &api.ClusterStatus{
		Name: "prod", Connected: false, LastOK: Now.Add(-95 * time.Second), LastError: "timeout"}})
	waitFor(t, tm, "prod down", "1m")

	// An action waits on the service; keys still answer at once.
	tm.Type("/clicks-to")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("s")
	waitFor(t, tm, "planning savepoint of clicks-to-hudi")
	tm.Type("?")
	waitFor(t, tm, "Help")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	// The call gives up after the request timeout and says so.
	waitFor(t, tm, "plan savepoint of clicks-to-hudi: context deadline exceeded")

	// A refresh that cannot answer leaves the table as it was.
	tm.Send(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	// The renderer redraws only what changed: the flash keeps its old tail
	// (": context deadline exceeded"), so only the new head is written.
	waitFor(t, tm, "list jobs:")
	m := finalModel(t, tm)
	if len(m.jobs.rows) != 1 || len(m.jobs.byID) != 10 {
		t.Errorf("a failed refresh changed the table: %d rows of %d", len(m.jobs.rows), len(m.jobs.byID))
	}
}

// syncBuffer is a writer safe to read while the program writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	r  int
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// Read returns what was written since the last Read.
func (s *syncBuffer) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.r >= s.b.Len() {
		return 0, io.EOF
	}
	n := copy(p, s.b.Bytes()[s.r:])
	s.r += n
	return n, nil
}

func (s *syncBuffer) all() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// colourSGR matches an SGR sequence that sets a foreground colour.
var colourSGR = regexp.MustCompile(`\x1b\[[0-9;]*(3[0-7]|38;5;[0-9]+|9[0-7])m`)

func TestRunHonoursNoColorAndEnds(t *testing.T) {
	for _, tc := range []struct {
		name   string
		env    []string
		colour bool
	}{
		{"256 colours", []string{"TERM=xterm-256color", "TTY_FORCE=1"}, true},
		{"NO_COLOR", []string{"TERM=xterm-256color", "TTY_FORCE=1", "NO_COLOR=1"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			in, inW := io.Pipe()
			defer inW.Close()
			out := &syncBuffer{}
			done := make(chan error, 1)
			go func() {
				done <- Run(ctx, NewFixture(), Options{Input: in, Output: out, Environ: tc.env, Width: 120, Height: 40,
					Theme: ThemeDark, Now: func() time.Time { return Now }})
			}()
			teatest.WaitFor(t, out, func(b []byte) bool { return bytes.Contains([]byte(ansi.Strip(string(b))), []byte("orders-enrich")) },
				teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("Run ended with %v after its context was cancelled", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not end when its context was cancelled")
			}
			if got := colourSGR.FindString(out.all()); (got != "") != tc.colour {
				t.Errorf("colour in the output: %q, want colour %v", got, tc.colour)
			}
		})
	}
}

// withOrdersFamily adds jobs whose names extend orders-enrich, so that a
// filter for orders-enrich matches several rows.
func withOrdersFamily(f *Fake) *Fake {
	for i := 2; i <= 5; i++ {
		j := model.Job{ID: fmt.Sprintf("j1%02d", i), Name: fmt.Sprintf("orders-enrich-%d", i), Kind: model.KindSQL,
			Cluster: "staging", State: model.StateRunning, StartedAt: Now.Add(-time.Hour)}
		f.Jobs = append(f.Jobs, api.JobView{Job: j})
	}
	return f
}

// Issue 9a: a filter puts the cursor on its first match, so the action
// that follows names that job and is done to it, wherever the cursor was.
func TestProgramFilterThenActNamesTheFirstMatch(t *testing.T) {
	f := withOrdersFamily(NewFixture())
	tm := startProgram(t, f, Options{})
	waitFor(t, tm, "orders-enrich-5")
	tm.Type("jjjjjjjjj") // the cursor on orders-enrich-4, a match but not the first
	waitFor(t, tm, "10/14")
	tm.Type("/orders-enrich")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "filter: orders-enrich", "1/5")
	tm.Type("p")
	waitFor(t, tm, "Pause orders-enrich?", "Cancel")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "queued for orders-enrich")
	finalModel(t, tm)
	var acts []string
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, "Act ") {
			acts = append(acts, c)
		}
	}
	if !slices.Equal(acts, []string{"Act PAUSE j001 - "}) {
		t.Errorf("Act calls %v, want one pause of orders-enrich (j001)", acts)
	}
}

// Issue 9b: sorted by backpressure, the figures change between two marks,
// so the rows would move under the operator. While jobs are marked the
// order holds (and says so), the marks land on the rows the operator saw,
// and the bulk dialog lists exactly those jobs, which are the ones acted on.
func TestProgramMarksHoldALiveSort(t *testing.T) {
	f := NewFixture()
	tm := startProgram(t, f, Options{})
	waitFor(t, tm, "orders-enrich")
	tm.Type(strings.Repeat("o", int(colBP)) + "O") // by BP, highest first
	waitFor(t, tm, "BP▼")
	space := tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	tm.Type("g")
	tm.Send(space) // clicks-to-hudi (87%); the cursor goes to payments-dedup (31%)
	waitFor(t, tm, "✓ 1 marked", "sort paused")

	// user-features' backpressure rises above all; payments-dedup's falls.
	f.Mu.Lock()
	f.Jobs[3].Figures.Backpressure = 0.95
	f.Jobs[1].Figures.Backpressure = 0.01
	users, payments := f.Jobs[3], f.Jobs[1]
	f.Mu.Unlock()
	// The stream is read in order: once the second change shows, both are in.
	f.Emit(api.Change{Kind: api.JobChanged, Job: &payments})
	f.Emit(api.Change{Kind: api.JobChanged, Job: &users})
	waitFor(t, tm, "95%") // the values refresh in place

	tm.Send(space) // payments-dedup, where it was seen
	tm.Send(space) // orders-enrich, the next row as seen
	waitFor(t, tm, "✓ 3 marked")
	tm.Type("p")
	waitFor(t, tm, "Pause 3 of 3 marked jobs?", "sort paused",
		"✓ clicks-to-hudi  Flink will stop", "✓ payments-dedup  Flink will stop", "✓ orders-enrich  Flink will stop")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "PAUSE queued for 3 jobs")
	m := finalModel(t, tm)
	var acts []string
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, "Act ") {
			acts = append(acts, c)
		}
	}
	slices.Sort(acts)
	if want := []string{"Act PAUSE j001 - ", "Act PAUSE j002 - ", "Act PAUSE j003 - "}; !slices.Equal(acts, want) {
		t.Errorf("Act calls %v, want %v", acts, want)
	}
	// The marks are spent, and the order catches up.
	if len(m.jobs.marks) != 0 || m.jobs.held != nil {
		t.Errorf("after the action: marks %v, order held %v", m.jobs.marks, m.jobs.held != nil)
	}
	if got := m.jobs.rows[0].Name; got != "user-features" {
		t.Errorf("the order did not catch up: %s first", got)
	}
}
