package kit

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
)

// TimerFunc makes a Cmd that sends fn's message after d (tea.Tick).
type TimerFunc = func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd

// Env is what every screen shares: the service and the settings that do not
// change while the program runs, plus the styles and the clock, which only
// the root model updates (in Update, on the event loop). Cmds must never read
// Env; they capture the values they need when they are made (Call).
type Env struct {
	Ctx context.Context
	// Svc is the session's whole service, as the root wires it. A screen
	// package reads it in one place only (its svc.go), narrowing it to its
	// own Service (CallOf), so that what a screen may ask of core is said
	// once (tui's TestScreensUseTheirService).
	Svc     api.Service
	Timeout time.Duration
	// Keys is the keymap every screen copies and adapts to its state.
	Keys   KeyMap
	Styles *Styles
	Now    time.Time
	Clock  func() time.Time
	// JobName resolves a job id to its name for views that show commands.
	JobName func(id string) string
	// FlinkVersions are the Flink releases of the clusters by name, as the
	// config gives them ("1.20"): the SQL editor checks a job's script for
	// its cluster's. A cluster not listed runs the newest palink knows.
	FlinkVersions map[string]string

	// After makes timers (tea.Tick) and ReadChange reads the change stream.
	// They are the only Cmds that wait; Update tests swap them for ones
	// that return at once, so that every other Cmd can be run synchronously
	// and its message fed back.
	After      TimerFunc
	ReadChange func(ctx context.Context, ch <-chan api.Change, gen int) tea.Cmd

	readOnly bool
	seq      int
}

// NewEnv makes the Env of a session over svc; readOnly refuses every
// action, in addition to what svc.ReadOnly says. The caller sets the
// styles, the keys, the clock and the change reader.
func NewEnv(ctx context.Context, svc api.Service, readOnly bool) *Env {
	return &Env{
		Ctx:      ctx,
		Svc:      svc,
		readOnly: readOnly,
		JobName:  func(id string) string { return id },
		After:    tea.Tick,
		Clock:    time.Now,
	}
}

// ReadOnly reports whether actions are refused now: asked with
// --read-only, or refused by the service (a viewer role).
func (e *Env) ReadOnly() bool { return e.readOnly || e.Svc.ReadOnly() }

// NextSeq numbers a request. One counter for every screen keeps the
// identities of all requests apart.
func (e *Env) NextSeq() int {
	e.seq++
	return e.seq
}

// Call is what a Cmd needs to talk to the service: copied out of Env when
// the Cmd is made, so that the Cmd's goroutine shares nothing with the
// model. S is the part of the service its screen uses (the screen
// package's Service, composed of api's role interfaces): through a Call a
// Cmd reaches that part and nothing else.
type Call[S any] struct {
	Ctx     context.Context
	Service S
	Timeout time.Duration
}

// CallOf copies what a Cmd needs out of the Env, with svc: e.Svc as the
// caller narrowed it, by a plain assignment (kit.CallOf[jobs.Service](e,
// e.Svc)).
func CallOf[S any](e *Env, svc S) Call[S] {
	return Call[S]{Ctx: e.Ctx, Service: svc, Timeout: e.Timeout}
}

// With runs fn under the request timeout.
func (c Call[S]) With(fn func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(c.Ctx, c.Timeout)
	defer cancel()
	return fn(ctx)
}

// Get is the Cmd of one read: fn under the request timeout, its failure
// said as what failed ("list functions: …"), and answer making the
// result message of the value or the error. fn is called in the Cmd's
// goroutine, so it must capture values only (c.Service's method, a filter).
func Get[S, T any](c Call[S], what string, fn func(ctx context.Context) (T, error), answer func(T, error) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		var v T
		err := c.With(func(ctx context.Context) (err error) {
			v, err = fn(ctx)
			return err
		})
		if err != nil {
			err = fmt.Errorf("%s: %w", what, err)
		}
		return answer(v, err)
	}
}
