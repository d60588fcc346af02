package agent

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// method is one Service method as the agent serves it: how it runs. Who
// may call it, and for how long, is its declaration in core/api (one place
// for the agent, its client and the tests that walk every method).
type method struct {
	run func(ctx context.Context, h *session, args []byte) ([]byte, error)
}

// call adapts a typed handler to the wire: arguments and result in a box.
func call[A, R any](f func(ctx context.Context, h *session, a A) (R, error)) func(context.Context, *session, []byte) ([]byte, error) {
	return func(ctx context.Context, h *session, b []byte) ([]byte, error) {
		a, err := decode[box[A]](b)
		if err != nil {
			return nil, err
		}
		r, err := f(ctx, h, a.V)
		if err != nil {
			return nil, err
		}
		return encode(box[R]{r})
	}
}

// none is the argument or result of a call that has none.
type none struct{}

// WaitArgs are WaitCommand's: the agent waits at most Wait, and the client
// calls again until the command ends.
type WaitArgs struct {
	ID   string
	Wait time.Duration
}

// Info says who the agent thinks the caller is.
type Info struct {
	User string
	// ReadOnly: the caller may change nothing (a viewer, or a read-only agent).
	ReadOnly bool
	Role     model.Role
	Store    string
}

// methods is every call the agent answers: the generated handlers of the
// declared API methods (calls_gen.go), the hand-written ones of the methods
// declared Custom (custom), and the protocol's own (protocol). Who may make
// each call is its declaration's word (session.run).
var methods = func() map[string]method {
	out := map[string]method{}
	for _, m := range []map[string]method{generated, custom} {
		for name, h := range m {
			out[name] = h
		}
	}
	return out
}()

// custom are the handlers written by hand: the protocol's Info, the calls
// declared Custom, and Watch as the WatchNext long poll.
var custom = map[string]method{
	"Info": {run: call(func(ctx context.Context, h *session, _ none) (Info, error) {
		i := Info{User: h.user, ReadOnly: h.readOnly || !h.role.Allows(model.Operator), Role: h.role, Store: h.store}
		if h.opts.Tenancy == nil || h.role == model.Admin {
			return i, nil // no team can give more than an admin has
		}
		// With teams, the role that counts is the caller's best: what
		// they may do somewhere (each call is checked where it acts). The
		// handshake must not wait on a store that does not answer (a
		// client dials with a short deadline): then the role outside the
		// teams stands, which can only show less than the caller may do.
		ctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		id, err := h.svc.WhoAmI(ctx)
		switch {
		case errors.Is(err, model.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
			return i, nil
		case err != nil:
			return i, err // e.g. a user in no team, told why
		}
		i.Role, i.ReadOnly = id.Role, id.ReadOnly
		for _, t := range id.Teams {
			i.Role = max(i.Role, t.Role)
		}
		return i, nil
	})},
	// Plan is as the guard says (it tells the truth of the caller).
	"Plan": {run: call(func(ctx context.Context, h *session, r api.ActionRequest) (api.ActionPlan, error) {
		return h.svc.Plan(ctx, r)
	})},
	// BuildProject's log does not cross the socket as it comes: it comes
	// with the artifact (and BuildStatus shows a running build's).
	"BuildProject": {run: call(func(ctx context.Context, h *session, r api.BuildRequest) (model.Artifact, error) {
		r.Log, r.Progress = nil, nil
		return h.svc.BuildProject(ctx, r)
	})},
	// Backup's copy crosses the socket whole.
	"Backup": {run: call(func(ctx context.Context, h *session, _ none) ([]byte, error) {
		var b bytes.Buffer
		_, err := h.svc.Backup(ctx, &b)
		return b.Bytes(), err
	})},
	// WaitCommand is one bounded round: a command that has not ended
	// when the round is over is answered as it stands, and asked for again.
	"WaitCommand": {run: call(func(ctx context.Context, h *session, a WaitArgs) (model.Command, error) {
		ctx, cancel := context.WithTimeout(ctx, a.Wait)
		defer cancel()
		c, err := h.svc.WaitCommand(ctx, a.ID)
		if errors.Is(err, context.DeadlineExceeded) && h.ctx.Err() == nil {
			return c, nil
		}
		return c, err
	})},
	// WatchNext is the change stream as a long poll: the changes that came,
	// waiting up to wait for the first.
	"WatchNext": {run: call(func(_ context.Context, h *session, wait time.Duration) ([]api.Change, error) {
		return h.watchNext(wait)
	})},
}

// protocol are the agent's own calls, which no API method declares: any
// user on the socket may make them (Info says who the agent thinks they
// are).
var protocol = map[string]api.Method{
	"Info": {Name: "Info", Role: model.Viewer, Timeout: api.DefaultTimeout},
}

// wireNames are the calls that serve a declared method in another shape:
// WatchNext is Watch as a long poll.
var wireNames = map[string]string{"WatchNext": "Watch"}

// declaration is the declaration of the method a call serves.
func declaration(call string) (api.Method, bool) {
	if m, ok := protocol[call]; ok {
		return m, true
	}
	name := call
	if n, ok := wireNames[call]; ok {
		name = n
	}
	m, ok := api.MethodOf(name)
	return m, ok && !m.Local
}

// watchNext returns the changes that came since the last call, waiting up
// to wait for the first.
func (h *session) watchNext(wait time.Duration) ([]api.Change, error) {
	h.watchOnce.Do(func() { h.watch, h.watchErr = h.svc.Watch(h.ctx) })
	if h.watchErr != nil {
		return nil, h.watchErr
	}
	var out []api.Change
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case c, ok := <-h.watch:
		if !ok {
			return nil, errors.New("agent is stopping")
		}
		out = append(out, c)
	case <-t.C:
		return nil, nil
	}
	for len(out) < 256 {
		select {
		case c, ok := <-h.watch:
			if !ok {
				return out, nil
			}
			out = append(out, c)
		default:
			return out, nil
		}
	}
	return out, nil
}
