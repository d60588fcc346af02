package tui

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/detail"
	"github.com/palink/palink/tui/internal/tuitest"
)

// These scenarios run the real program loop (bubbletea, its renderer, the
// real Cmds and the change stream) against the fake, and wait for content
// on the rendered output; they never sleep.

func startProgram(t *testing.T, f *tuitest.Fake, opts Options) *teatest.TestModel {
	t.Helper()
	if opts.Now == nil {
		opts.Now = func() time.Time { return tuitest.Now }
	}
	if opts.User == "" {
		opts.User = "ops"
	}
	opts.Theme = ThemeDark
	return tuitest.Program(t, func(ctx context.Context) tea.Model { return New(ctx, f, opts) })
}

func finalModel(t *testing.T, tm *teatest.TestModel) *Model {
	t.Helper()
	return tuitest.Final(t, tm).(*Model)
}

func TestProgramFilterAndOpenByKeyboard(t *testing.T) {
	f := tuitest.NewFixture()
	tm := startProgram(t, f, Options{})
	tuitest.WaitFor(t, tm, "orders-enrich", "fraud-scoring")
	tm.Type("/state:FAILED")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "1/1")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "OutOfMemoryError")
	m := finalModel(t, tm)
	if d, ok := m.top().(*detail.Screen); !ok || d.Title() != "fraud-scoring" {
		t.Fatalf("the keyboard did not open fraud-scoring's detail: %T", m.top())
	}
}

func TestProgramPauseWithConfirmationAndProgress(t *testing.T) {
	f := tuitest.NewFixture()
	tm := startProgram(t, f, Options{})
	tuitest.WaitFor(t, tm, "user-features")
	tm.Type("/user")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("p")
	tuitest.WaitFor(t, tm, "Pause user-features?", "Cancel")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "queued for user-features")
	// The scheduler's progress arrives through Watch.
	f.Finish("c000042", true, "savepoint hdfs:///sp/uf-1")
	tuitest.WaitFor(t, tm, "succeeded")
	m := finalModel(t, tm)
	if j, _ := m.jobs.Job("j004"); j.State != model.StateFinished {
		t.Errorf("user-features is %s after its pause succeeded", j.State)
	}
	if !slices.Contains(f.Calls(), "Act PAUSE j004 - ") {
		t.Errorf("calls %v", f.Calls())
	}
}

func TestProgramStaysResponsiveWhenTheServiceIsSlowOrDown(t *testing.T) {
	f := tuitest.NewFixture()
	tm := startProgram(t, f, Options{RequestTimeout: 300 * time.Millisecond})
	tuitest.WaitFor(t, tm, "orders-enrich")

	// The cluster becomes slow, and sync says so.
	f.SetDelay(time.Hour)
	f.Emit(api.Change{Kind: api.ClusterChanged, Cluster: &api.ClusterStatus{
		Name: "prod", Connected: false, LastOK: tuitest.Now.Add(-95 * time.Second), LastError: "timeout"}})
	tuitest.WaitFor(t, tm, "prod down", "1m")

	// An action waits on the service; keys still answer at once.
	tm.Type("/clicks-to")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("s")
	tuitest.WaitFor(t, tm, "planning savepoint of clicks-to-hudi")
	tm.Type("?")
	tuitest.WaitFor(t, tm, "Help")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	// The call gives up after the request timeout and says so.
	tuitest.WaitFor(t, tm, "plan savepoint of clicks-to-hudi: context deadline exceeded")

	// A refresh that cannot answer leaves the table as it was.
	tm.Send(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	// The renderer redraws only what changed: the flash keeps its old tail
	// (": context deadline exceeded"), so only the new head is written.
	tuitest.WaitFor(t, tm, "list jobs:")
	m := finalModel(t, tm)
	if m.jobs.Len() != 1 || len(m.jobs.Names()) != 10 {
		t.Errorf("a failed refresh changed the table: %d rows of %d", m.jobs.Len(), len(m.jobs.Names()))
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
		// https://no-color.org: any non-empty value, where the terminal
		// library reads only a boolean.
		{"NO_COLOR=yes", []string{"TERM=xterm-256color", "TTY_FORCE=1", "NO_COLOR=yes"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			in, inW := io.Pipe()
			defer inW.Close()
			out := &syncBuffer{}
			done := make(chan error, 1)
			go func() {
				done <- Run(ctx, tuitest.NewFixture(), Options{Input: in, Output: out, Environ: tc.env, Width: 120, Height: 40,
					Theme: ThemeDark, Now: func() time.Time { return tuitest.Now }})
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
			if !tc.colour && !regexp.MustCompile(`fraud-scoring[^│]*✖ FAILED`).MatchString(ansi.Strip(out.all())) {
				t.Error("without colour, the FAILED row carries no symbol")
			}
		})
	}
}

// From a FAILED job in the jobs list to its innermost cause and the line
// of the failing TaskManager's log that reports it, in at most 6 keys
// (#13). fraud-scoring's application is gone: the log is its YARN
// container's, found through ContainerLogs and read through ReadLog.
func TestProgramFromAFailedJobToItsCauseAndLogLine(t *testing.T) {
	f := tuitest.NewFixture()
	tm := startProgram(t, f, Options{})
	tuitest.WaitFor(t, tm, "fraud-scoring", "FAILED")
	keys := 0
	press := func(ks ...rune) {
		for _, k := range ks {
			keys++
			tm.Send(tea.KeyPressMsg{Code: k, Text: string(k)})
		}
	}
	press('j', 'j') // the table is sorted by name: ad-clicks-agg, clicks-to-hudi, fraud-scoring
	press('E')
	// The failure's first line is its innermost cause, not "Recovery is suppressed".
	tuitest.WaitFor(t, tm, "fraud-scoring", "Root cause", "07:12:03     java.lang.OutOfMemoryError: Java heap space")
	press('L')
	tuitest.WaitFor(t, tm, "taskmanager.log", "2026-03-14 07:12:03,412 WARN", "Score (3/4)#3 switched from RUNNING to FAILED", "java.lang.OutOfMemoryError: Java heap space")
	if keys > 6 {
		t.Errorf("it took %d keys, more than 6", keys)
	}
	if !f.Called("ContainerLogs j005") || !f.Called("ReadLog j005 {TaskManager: Name:taskmanager.log Stdout:false Container:"+tuitest.FraudTM) {
		t.Errorf("calls %v", f.Calls())
	}
}
