package tui

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui/internal/tuitest"
)

// harness is tuitest's harness over a root model whose internals the
// tests of this package look at.
type harness struct {
	*tuitest.Harness
	m *Model
}

func newHarness(t testing.TB, f *tuitest.Fake, w, h int, opts Options) *harness {
	t.Helper()
	opts.Now = func() time.Time { return tuitest.Now }
	if opts.User == "" {
		opts.User = "ops"
	}
	if opts.Version == "" {
		opts.Version = "v1.2.3"
	}
	if opts.Theme == ThemeAuto {
		opts.Theme = ThemeDark
	}
	var m *Model
	hs := tuitest.Drive(t, f, w, h, func(ctx context.Context) tea.Model {
		m = New(ctx, f, opts)
		return m
	})
	return &harness{Harness: hs, m: m}
}

// goldenFrame pins the whole frame at both sizes.
func goldenFrame(t *testing.T, name string, setup func(h *harness)) {
	t.Helper()
	tuitest.GoldenFrame(t, name, func(t *testing.T, w, h int) *harness {
		return newHarness(t, tuitest.NewFixture(), w, h, Options{Context: "test"})
	}, setup)
}
