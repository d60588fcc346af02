package tui

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/editor"
	"github.com/palink/palink/tui/kit"
)

// Options configure the TUI. The zero value is usable.
type Options struct {
	// Context names what the TUI is connected to in the header, e.g. "demo",
	// the config file's context, or "agent".
	Context string
	// Version is palink's version, for the header (e.g. "v0.9.0"); empty
	// shows none. The CLI fills it from its build.
	Version string
	// User is who the session acts as, for the header: the OS user the
	// service knows the TUI by (an agent identifies its clients by their
	// OS user). Empty means the process's, from $USER or $LOGNAME.
	User string
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
	// Wall is the time of day the header's clock shows (default Now). The
	// demo's Now lives its fleet's hour an hour behind; its header still
	// shows the wall's time.
	Wall func() time.Time
	// FlinkVersions are the clusters' Flink releases by cluster name (the
	// config's flink_version): the SQL editor checks for them.
	FlinkVersions map[string]string
	// Debugger runs SQL jobs locally for the editor's debug run (ctrl-d);
	// nil disables it. The sample files of tables and the stand-ins of
	// user functions it knows, the debug form offers.
	Debugger api.DebugBench

	// Input, Output and Environ are used by Run (defaults: the terminal and
	// os.Environ). The environment decides the colour profile: NO_COLOR,
	// TERM and COLORTERM are honoured.
	Input   io.Reader
	Output  io.Writer
	Environ []string
	// Width and Height fix the terminal size when Output is not a terminal
	// (recordings, tests); zero means ask the terminal.
	Width, Height int

	// noColor starts the TUI without colour (Run sets it from NO_COLOR).
	noColor bool
}

// noColor reports NO_COLOR in environ: set to any non-empty value, as
// https://no-color.org says.
func noColor(environ []string) bool {
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "NO_COLOR="); ok && v != "" {
			return true
		}
	}
	return false
}

const defaultRequestTimeout = 15 * time.Second

func newEnv(ctx context.Context, svc api.Service, opts Options) *kit.Env {
	clock := opts.Now
	if clock == nil {
		clock = time.Now
	}
	timeout := opts.RequestTimeout
	if timeout <= 0 {
		timeout = defaultRequestTimeout
	}
	e := kit.NewEnv(ctx, svc, opts.ReadOnly)
	e.Timeout = timeout
	e.Styles = kit.StylesFor(opts.Theme)
	if opts.noColor {
		e.Styles = e.Styles.WithoutColor()
	}
	e.Now, e.Clock = clock(), clock
	e.ReadChange = nextChangeCmd
	e.FlinkVersions = opts.FlinkVersions
	return e
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

// envUser is the OS user of the process as its environment names it
// (environ, or the process's own when nil): $USER, else $LOGNAME.
func envUser(environ []string) string {
	get := os.Getenv
	if environ != nil {
		get = func(k string) string {
			for _, kv := range environ {
				if v, ok := strings.CutPrefix(kv, k+"="); ok {
					return v
				}
			}
			return ""
		}
	}
	if u := get("USER"); u != "" {
		return u
	}
	return get("LOGNAME")
}

// debugging is what the editor's debug runs get: the debugger, and what
// else it knows, each given to the editor as a dependency of its own
// (nil: none).
func (o Options) debugging() editor.Debugging {
	if o.Debugger == nil {
		return editor.Debugging{}
	}
	return editor.Debugging{Debugger: o.Debugger, Samples: o.Debugger, StandIns: o.Debugger}
}

// NoColorProfile is the program option a session whose environment sets
// NO_COLOR needs (an SSH session's, which Run does not start): the
// terminal library reads NO_COLOR as a boolean, no-color.org as any
// non-empty value. nil where environ does not set it.
func NoColorProfile(environ []string) tea.ProgramOption {
	if !noColor(environ) {
		return nil
	}
	return tea.WithColorProfile(colorprofile.ASCII)
}
