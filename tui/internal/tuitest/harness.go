package tuitest

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/internal/probe"
	"github.com/palink/palink/tui/kit"
)

// Timer is what a timer Cmd returns under the harness: the timer is
// recorded, not waited for; Fire delivers it when a test wants.
type Timer struct {
	D   time.Duration
	Msg func(time.Time) tea.Msg
}

// pendingReadMsg stands for a read of the change stream; tests deliver
// changes with Change themselves.
type pendingReadMsg struct{}

// Harness drives a root model synchronously: it feeds a message to
// Update, runs the Cmds it returns (against the fake, which answers at
// once) and feeds their messages back, until nothing is left but timers.
type Harness struct {
	T      testing.TB
	F      *Fake
	M      tea.Model
	App    probe.App
	Timers []Timer
	Seen   []tea.Msg
	forget bool
}

// Drive makes the root model that start builds over ctx (cancelled when
// the test ends), sizes it w×h and runs its Init. f is the fake the model
// talks to, or nil when it talks to another service.
func Drive(t testing.TB, f *Fake, w, h int, start func(ctx context.Context) tea.Model) *Harness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	m := start(ctx)
	app := probe.Of(m)
	app.Swap(func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		return func() tea.Msg { return Timer{D: d, Msg: fn} }
	}, func(context.Context, <-chan api.Change, int) tea.Cmd {
		return func() tea.Msg { return pendingReadMsg{} }
	})
	hs := &Harness{T: t, F: f, M: m, App: app}
	hs.Send(tea.WindowSizeMsg{Width: w, Height: h})
	hs.Run(m.Init())
	return hs
}

// Forget stops keeping the messages seen (Seen), for a test that
// measures the heap.
func (h *Harness) Forget() { h.forget, h.Seen = true, nil }

// Send feeds messages to Update, one after the other, and runs what follows.
func (h *Harness) Send(msgs ...tea.Msg) {
	h.T.Helper()
	for _, msg := range msgs {
		_, cmd := h.M.Update(msg)
		h.Run(cmd)
	}
}

// Run runs cmd and every Cmd that follows from it, but timers.
func (h *Harness) Run(cmd tea.Cmd) {
	h.T.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
			h.T.Fatal("harness: Cmds do not settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		if cmds, ok := sequence(msg); ok {
			// Each runs and its message is taken before the next runs, as
			// tea.Sequence does (the queue is first in, first out).
			queue = append(queue, cmds...)
			continue
		}
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case Timer:
			h.Timers = append(h.Timers, msg)
		case pendingReadMsg:
		default:
			if !h.forget {
				h.Seen = append(h.Seen, msg)
			}
			_, next := h.M.Update(msg)
			queue = append(queue, next)
		}
	}
}

// sequence is the Cmds of tea.Sequence's message, whose type bubbletea
// keeps to itself: a list of Cmds that is not a tea.BatchMsg.
func sequence(msg tea.Msg) ([]tea.Cmd, bool) {
	if _, batch := msg.(tea.BatchMsg); batch || msg == nil {
		return nil, false
	}
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeFor[tea.Cmd]() {
		return nil, false
	}
	cmds := make([]tea.Cmd, v.Len())
	for i := range cmds {
		cmds[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return cmds, true
}

// Press sends keys by name: "j", "enter", "ctrl+k", "space", "R".
func (h *Harness) Press(keys ...string) {
	h.T.Helper()
	for _, k := range keys {
		h.Send(Key(k))
	}
}

// Type types every rune of s.
func (h *Harness) Type(s string) {
	h.T.Helper()
	for _, r := range s {
		h.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// Fire delivers the pending timers whose message has the type of like.
func (h *Harness) Fire(like tea.Msg) {
	h.T.Helper()
	var keep []Timer
	var due []tea.Msg
	for _, tm := range h.Timers {
		msg := tm.Msg(Now)
		if reflect.TypeOf(msg) == reflect.TypeOf(like) {
			due = append(due, msg)
		} else {
			keep = append(keep, tm)
		}
	}
	h.Timers = keep
	h.Send(due...)
}

// Change delivers a change as the watch stream would.
func (h *Harness) Change(c api.Change) {
	h.T.Helper()
	h.Send(kit.ChangeMsg{Gen: h.App.WatchGen(), Change: c})
}

// Render is the whole frame, styled.
func (h *Harness) Render() string { return h.App.Render() }

// Screen is the rendered frame without styles, for assertions.
func (h *Harness) Screen() string { return ansi.Strip(h.App.Render()) }

// Top is the screen on top of the stack.
func (h *Harness) Top() kit.Screen { return h.App.Top() }

// Flash is the flash line's text.
func (h *Harness) Flash() string { return h.App.Flash() }

// MustShow fails the test unless the screen shows every text.
func (h *Harness) MustShow(subs ...string) {
	h.T.Helper()
	s := h.Screen()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			h.T.Fatalf("screen lacks %q:\n%s", sub, s)
		}
	}
}

// MustNotShow fails the test if the screen shows any of the texts.
func (h *Harness) MustNotShow(subs ...string) {
	h.T.Helper()
	s := h.Screen()
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			h.T.Fatalf("screen shows %q:\n%s", sub, s)
		}
	}
}

// SelectJob moves the jobs table's cursor to the named job with the
// keyboard.
func (h *Harness) SelectJob(name string) {
	h.T.Helper()
	h.Press("g")
	for range h.App.Jobs() {
		if h.App.SelectedJob() == name {
			return
		}
		h.Press("j")
	}
	h.T.Fatalf("job %s is not in the table", name)
}

// OpenDetail opens a job's detail with enter.
func (h *Harness) OpenDetail(name string) {
	h.T.Helper()
	h.SelectJob(name)
	h.Press("enter")
	if h.Top().Title() != name {
		h.T.Fatalf("enter on %s did not open its detail: %s is on top", name, h.Top().Title())
	}
}

// Key builds the key message a terminal sends for a key name.
func Key(s string) tea.KeyPressMsg {
	special := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "space": tea.KeySpace,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"backspace": tea.KeyBackspace,
	}
	switch {
	case s == "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case s == "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case strings.HasPrefix(s, "ctrl+"):
		return tea.KeyPressMsg{Code: rune(s[len("ctrl+")]), Mod: tea.ModCtrl}
	}
	if r, ok := special[s]; ok {
		return tea.KeyPressMsg{Code: r}
	}
	r := []rune(s)[0]
	if unicode.IsUpper(r) {
		return tea.KeyPressMsg{Code: unicode.ToLower(r), ShiftedCode: r, Text: s, Mod: tea.ModShift}
	}
	return tea.KeyPressMsg{Code: r, Text: s}
}

// Env is a screen's environment as the root makes it, over svc: the dark
// styles, every key, the clock pinned to Now; for tests of one screen.
func Env(svc api.Service) *kit.Env {
	e := kit.NewEnv(context.Background(), svc, false)
	e.Timeout = time.Minute
	e.Keys = kit.NewKeyMap()
	e.Styles = kit.DarkStyles()
	e.Now, e.Clock = Now, func() time.Time { return Now }
	return e
}

// Elapse lets d pass: it delivers the pending timers due within d, in the
// order they were set; timers set meanwhile wait for the next Elapse.
func (h *Harness) Elapse(d time.Duration) {
	h.T.Helper()
	var keep []Timer
	var due []tea.Msg
	for _, tm := range h.Timers {
		if tm.D <= d {
			due = append(due, tm.Msg(Now.Add(tm.D)))
		} else {
			keep = append(keep, tm)
		}
	}
	h.Timers = keep
	h.Send(due...)
}
