package tui

import (
	"context"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Options configure the TUI. The zero value is usable.
type Options struct {
	// Context names what the TUI is connected to in the header, e.g. "demo",
	// the config file's context, or "agent".
	Context string
	// ReadOnly hides and refuses every action, in addition to what
	// api.Service.ReadOnly says.
	ReadOnly bool
	// Theme picks the palette; ThemeAuto follows the terminal background.
	Theme Theme
	// Scope opens the jobs view narrowed to one cluster, as `:jobs @NAME` does.
	Scope string
	// RequestTimeout bounds each call to the service, so that a slow or
	// unreachable cluster turns into an error in the flash line instead of a
	// request that never ends. Default 15s.
	RequestTimeout time.Duration
	// Now is the clock (default time.Now); tests pin it.
	Now func() time.Time
	// Debugger runs SQL jobs locally for the editor's debug run (ctrl-d);
	// nil disables it.
	Debugger api.Debugger

	// Input, Output and Environ are used by Run (defaults: the terminal and
	// os.Environ). The environment decides the colour profile: NO_COLOR,
	// TERM and COLORTERM are honoured.
	Input   io.Reader
	Output  io.Writer
	Environ []string
	// Width and Height fix the terminal size when Output is not a terminal
	// (recordings, tests); zero means ask the terminal.
	Width, Height int
}

const defaultRequestTimeout = 15 * time.Second

// env is what every screen shares: the service and the settings that do not
// change while the program runs, plus the styles and the clock, which only
// the root model updates (in Update, on the event loop). Cmds must never read
// env; they capture the values they need when they are made.
type env struct {
	ctx      context.Context
	svc      api.Service
	timeout  time.Duration
	readOnly bool
	keys     kit.KeyMap
	styles   *kit.Styles
	now      time.Time
	clock    func() time.Time
	// jobName resolves a job id to its name for views that show commands.
	jobName func(id string) string

	seq int

	// after makes timers (tea.Tick) and readChange reads the change stream
	// (nextChangeCmd). They are the only Cmds that wait; Update tests swap
	// them for ones that return at once, so that every other Cmd can be run
	// synchronously and its message fed back.
	after      func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
	readChange func(ctx context.Context, ch <-chan api.Change, gen int) tea.Cmd
}

// nextSeq numbers a request. One counter for every screen keeps the
// identities of all requests apart.
func (e *env) nextSeq() int {
	e.seq++
	return e.seq
}

func newEnv(ctx context.Context, svc api.Service, opts Options) *env {
	clock := opts.Now
	if clock == nil {
		clock = time.Now
	}
	timeout := opts.RequestTimeout
	if timeout <= 0 {
		timeout = defaultRequestTimeout
	}
	readOnly := opts.ReadOnly || svc.ReadOnly()
	return &env{
		ctx:      ctx,
		svc:      svc,
		timeout:  timeout,
		readOnly: readOnly,
		keys:     keysFor(readOnly),
		styles:   kit.StylesFor(opts.Theme),
		now:      clock(),
		clock:    clock,
		jobName:  func(id string) string { return id },

		after:      tea.Tick,
		readChange: nextChangeCmd,
	}
}

// call is what a Cmd needs to talk to the service: copied out of env when the
// Cmd is made, so that the Cmd's goroutine shares nothing with the model.
type call struct {
	ctx     context.Context
	svc     api.Service
	timeout time.Duration
}

func (e *env) call() call { return call{ctx: e.ctx, svc: e.svc, timeout: e.timeout} }

// with runs fn under the request timeout.
func (c call) with(fn func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(c.ctx, c.timeout)
	defer cancel()
	return fn(ctx)
}

// Theme picks the palette. Auto follows the terminal's background colour,
// which bubbletea asks the terminal for at start.
type Theme = kit.Theme

// Themes.
const (
	ThemeAuto  = kit.ThemeAuto
	ThemeDark  = kit.ThemeDark
	ThemeLight = kit.ThemeLight
)

// keysFor is the keymap of a session, read-only or not.
func keysFor(readOnly bool) kit.KeyMap {
	k := kit.NewKeyMap()
	k.SetReadOnly(readOnly)
	return k
}
