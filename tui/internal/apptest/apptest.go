// Package apptest starts the whole TUI (tui.New) for the tests of the
// feature packages, which see a feature through the frame the root draws
// around it: the header, the footer, the flash line, the screen stack.
// (tui's own tests cannot import it: it imports tui.)
package apptest

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/tuitest"
)

// New drives the TUI over f at w×h, its clock pinned to tuitest.Now and,
// unless opts says otherwise, in the dark theme, as user ops of palink
// Version.
func New(t testing.TB, f *tuitest.Fake, w, h int, opts tui.Options) *tuitest.Harness {
	t.Helper()
	opts = pinned(opts)
	opts.Now = func() time.Time { return tuitest.Now }
	if opts.Theme == tui.ThemeAuto {
		opts.Theme = tui.ThemeDark
	}
	return tuitest.Drive(t, f, w, h, func(ctx context.Context) tea.Model { return tui.New(ctx, f, opts) })
}

// GoldenFrame pins the frame that setup leaves, at every size of
// tuitest.Sizes, over the fixture as fix changes it (nil: as it is).
func GoldenFrame(t *testing.T, name string, fix func(*tuitest.Fake) *tuitest.Fake, opts tui.Options, setup func(h *tuitest.Harness)) {
	t.Helper()
	if opts.Context == "" {
		opts.Context = "test"
	}
	tuitest.GoldenFrame(t, name, func(t *testing.T, w, h int) *tuitest.Harness {
		f := tuitest.NewFixture()
		if fix != nil {
			f = fix(f)
		}
		return New(t, f, w, h, opts)
	}, setup)
}

// Program runs the real program loop over f, as tuitest.Program does.
func Program(t *testing.T, f *tuitest.Fake, opts tui.Options) *teatest.TestModel {
	t.Helper()
	opts = pinned(opts)
	if opts.Now == nil {
		opts.Now = func() time.Time { return tuitest.Now }
	}
	opts.Theme = tui.ThemeDark
	return tuitest.Program(t, func(ctx context.Context) tea.Model { return tui.New(ctx, f, opts) })
}

// Version is the palink version the tests' header shows.
const Version = "v1.2.3"

// pinned fixes what the header would take from the machine: the user.
func pinned(opts tui.Options) tui.Options {
	if opts.User == "" {
		opts.User = "ops"
	}
	if opts.Version == "" {
		opts.Version = Version
	}
	return opts
}
