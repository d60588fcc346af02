package tui

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// -update rewrites the golden files in testdata/. teatest's golden package
// defines the same flag; both then follow it.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files in testdata/")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// timerMsg is what a timer Cmd returns under the harness: the timer is
// recorded, not waited for; fire delivers it when a test wants.
type Timer struct {
	D   time.Duration
	Msg func(time.Time) tea.Msg
}

// pendingReadMsg stands for a read of the change stream; tests deliver
// changes as changeMsg themselves.
type pendingReadMsg struct{}

// harness drives a Model synchronously: it feeds a message to Update, runs
// the Cmds it returns (against the fake, which answers at once) and feeds
// their messages back, until nothing is left but timers.
type harness struct {
	T      testing.TB
	F      *Fake
	m      *Model
	Timers []Timer
	Seen   []tea.Msg
}

func newHarness(t testing.TB, f *Fake, w, h int, opts Options) *harness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	opts.Now = func() time.Time { return Now }
	if opts.Theme == ThemeAuto {
		opts.Theme = ThemeDark
	}
	m := New(ctx, f, opts)
	m.env.After = func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		return func() tea.Msg { return Timer{D: d, Msg: fn} }
	}
	m.env.ReadChange = func(context.Context, <-chan api.Change, int) tea.Cmd {
		return func() tea.Msg { return pendingReadMsg{} }
	}
	hs := &harness{T: t, F: f, m: m}
	hs.Send(tea.WindowSizeMsg{Width: w, Height: h})
	hs.Run(m.Init())
	return hs
}

func (h *harness) Send(msgs ...tea.Msg) {
	h.T.Helper()
	for _, msg := range msgs {
		_, cmd := h.m.Update(msg)
		h.Run(cmd)
	}
}

func (h *harness) Run(cmd tea.Cmd) {
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
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case Timer:
			h.Timers = append(h.Timers, msg)
		case pendingReadMsg:
		default:
			h.Seen = append(h.Seen, msg)
			_, next := h.m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// press sends keys by name: "j", "enter", "ctrl+k", "space", "R".
func (h *harness) Press(keys ...string) {
	h.T.Helper()
	for _, k := range keys {
		h.Send(Key(k))
	}
}

// typeText types every rune of s.
func (h *harness) Type(s string) {
	h.T.Helper()
	for _, r := range s {
		h.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// fire delivers the pending timers whose message has the type of like.
func (h *harness) Fire(like tea.Msg) {
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

// change delivers a change as the watch stream would.
func (h *harness) Change(c api.Change) {
	h.T.Helper()
	h.Send(kit.ChangeMsg{Gen: h.m.watchGen, Change: c})
}

// screen is the rendered frame without styles, for assertions.
func (h *harness) Screen() string { return ansi.Strip(h.m.render()) }

func (h *harness) MustShow(subs ...string) {
	h.T.Helper()
	s := h.Screen()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			h.T.Fatalf("screen lacks %q:\n%s", sub, s)
		}
	}
}

func (h *harness) MustNotShow(subs ...string) {
	h.T.Helper()
	s := h.Screen()
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			h.T.Fatalf("screen shows %q:\n%s", sub, s)
		}
	}
}

// flashText is the flash line's text.
func (h *harness) Flash() string { return h.m.flash.Text() }

// keyPress builds the key message a terminal sends for a key name.
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

// pinned renders styled output as a 256-colour terminal would receive it,
// so golden files do not depend on the machine's terminal.
func Pinned(s string) string {
	var b strings.Builder
	w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.ANSI256}
	if _, err := w.WriteString(s); err != nil {
		panic(err)
	}
	return b.String()
}

// golden compares got with testdata/<name>.golden (-update rewrites it).
func Golden(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test ./tui -run %s -update to create it): %v", t.Name(), err)
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("%s differs from the golden file at line %d (run with -update if the change is intended)\n got: %s\nwant: %s\n got (escaped): %q\nwant (escaped): %q\n\nwhole screen:\n%s",
				path, i+1, ansi.Strip(g), ansi.Strip(w), g, w, ansi.Strip(got))
		}
	}
	t.Fatalf("%s differs from the golden file", path)
}

// goldenSizes are the terminal sizes every view is pinned at.
var Sizes = []struct{ w, h int }{{120, 40}, {80, 24}}

// goldenFrame pins the whole frame at both sizes.
func goldenFrame(t *testing.T, name string, setup func(h *harness)) {
	t.Helper()
	for _, sz := range Sizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			h := newHarness(t, NewFixture(), sz.w, sz.h, Options{Context: "test"})
			setup(h)
			frame := h.m.render()
			if got := len(strings.Split(frame, "\n")); got != sz.h {
				t.Fatalf("frame has %d lines, want %d", got, sz.h)
			}
			for i, l := range strings.Split(frame, "\n") {
				if w := ansi.StringWidth(l); w > sz.w {
					t.Fatalf("line %d is %d cells wide, more than %d: %q", i+1, w, sz.w, ansi.Strip(l))
				}
			}
			Golden(t, fmt.Sprintf("%s_%dx%d", name, sz.w, sz.h), Pinned(frame))
		})
	}
}

func SizeMsg(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

func Strip(s string) string { return ansi.Strip(s) }
