package agent

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"log/slog"
	"net"
	"net/rpc"
	"slices"
	"sync"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// Roles decide what each user on the agent's socket may do (model.Role).
// Empty Operators makes every user an operator. Admins define what runs
// (projects and their build commands, secret commands, the catalog, UDFs)
// and are given by name only: an empty list leaves the agent's own user
// as the only admin, since whatever an admin defines runs as that user or
// its build user.
type Roles struct {
	Operators []string
	Admins    []string
	// Self is the agent's own OS user (CurrentUser), always an admin: it
	// owns the store and the config anyway. `palink agent` sets it.
	Self string
}

// Of is the role of user.
func (r Roles) Of(user string) model.Role {
	switch {
	case (r.Self != "" && user == r.Self) || slices.Contains(r.Admins, user):
		return model.Admin
	case len(r.Operators) == 0 || slices.Contains(r.Operators, user):
		return model.Operator
	}
	return model.Viewer
}

// Global is user's role of palink's own once palink has teams: on what
// belongs to no team and on every team's jobs. Only the agent's own user
// and the users the config names have one; every other user's roles are
// their teams' (an empty operators: list makes nobody an operator here).
func (r Roles) Global(user string) model.Role {
	switch {
	case (r.Self != "" && user == r.Self) || slices.Contains(r.Admins, user):
		return model.Admin
	case slices.Contains(r.Operators, user):
		return model.Operator
	}
	return model.NoRole
}

// Caller is the guard's caller for user: their role while palink has no
// teams, their role of palink's own once it has, and who owns what.
func (o ServeOptions) Caller(user string, readOnly bool, where string) api.Caller {
	return api.Caller{User: user, Role: o.Roles.Of(user), Global: o.Roles.Global(user), ReadOnly: readOnly, Where: where, Tenancy: o.Tenancy}
}

// ServeOptions describe what an agent serves.
type ServeOptions struct {
	Roles Roles
	// Tenancy says who owns what once palink has teams (core.Local's);
	// nil: roles hold on everything.
	Tenancy api.Tenancy
	// Tokens are automation's static tokens, each naming a user
	// (LoadTokens); a client that presents one is its user, whoever it
	// runs as.
	Tokens Tokens
	// Store names the store the service owns, for clients that check they
	// reached the agent of the store they meant.
	Store string
	Log   *slog.Logger
}

// Serve answers agent clients on ln until ctx is done, each connection as
// the OS user at its other end.
func Serve(ctx context.Context, ln net.Listener, svc api.Service, o ServeOptions) error {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	go func() { <-ctx.Done(); ln.Close() }()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("agent: accept: %w", err)
		}
		uid, err := peerUID(conn)
		if err != nil {
			o.Log.Warn("agent: refusing a connection", "err", err)
			conn.Close()
			continue
		}
		user := loginName(uid)
		wg.Add(1)
		go func() {
			defer wg.Done()
			connCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			h := &session{ctx: connCtx, store: o.Store, readOnly: svc.ReadOnly(), inner: svc, opts: o}
			h.as(user)
			srv := rpc.NewServer()
			if err := srv.RegisterName("Palink", h); err != nil {
				o.Log.Error("agent: register", "err", err)
				conn.Close()
				return
			}
			go func() { <-connCtx.Done(); conn.Close() }()
			srv.ServeConn(conn)
		}()
	}
}

// session serves one connection, for one user.
type session struct {
	ctx   context.Context
	svc   api.Service
	user  string
	store string
	role  model.Role
	// readOnly: the agent itself runs --read-only, whatever the role.
	readOnly bool
	// inner is the service behind the guard, opts what the agent serves:
	// a token's user gets a guard of their own (Token).
	inner api.Service
	opts  ServeOptions

	// mu orders a token before every other call: once a call has started,
	// the session's user is fixed.
	mu      sync.Mutex
	started bool

	watchOnce sync.Once
	watch     <-chan api.Change
	watchErr  error
}

// Request is one call of a Service method, its arguments gob-encoded.
type Request struct {
	Method string
	Args   []byte
}

// Reply is a call's result, gob-encoded, or its failure as a code and a
// message.
type Reply struct {
	Result []byte
	Code   api.Code
	Msg    string
}

// Call runs one method of the table for this session's user. A failure
// travels in the reply, so that its code survives net/rpc, which carries
// only error text.
func (h *session) Call(req Request, reply *Reply) error {
	if req.Method == "Token" {
		err := h.token(req.Args)
		if err != nil {
			reply.Code, reply.Msg = api.CodeOf(err), err.Error()
		}
		reply.Result, _ = encode(box[none]{})
		return nil
	}
	h.mu.Lock()
	h.started = true
	h.mu.Unlock()
	m, ok := methods[req.Method]
	decl, declared := declaration(req.Method)
	if !ok || !declared {
		return fmt.Errorf("agent: no method %q (a newer palink's client?)", req.Method)
	}
	result, err := h.run(decl, m, req.Args)
	reply.Result = result
	if err != nil {
		reply.Code, reply.Msg = api.CodeOf(err), err.Error()
	}
	return nil
}

// as makes the session user's: every call goes through the guard (the
// role check of each method's declaration, the caller's name in what it
// writes, and the teams).
func (h *session) as(user string) {
	h.user, h.role = user, h.opts.Roles.Of(user)
	h.svc = api.Guard(h.inner, h.opts.Caller(user, h.readOnly, " on this agent"))
}

// run runs a call on the guarded service, which refuses what the caller's
// role may not do (api.Guard), within the method's declared time.
func (h *session) run(decl api.Method, m method, args []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(h.ctx, decl.Timeout)
	defer cancel()
	return m.run(ctx, h, args)
}

// box carries a value through gob, which cannot send a nil slice or an
// empty result on its own.
type box[T any] struct{ V T }

func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(v); err != nil {
		return nil, fmt.Errorf("agent: encode %T: %w", v, err)
	}
	return b.Bytes(), nil
}

func decode[T any](b []byte) (T, error) {
	var v T
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&v); err != nil {
		return v, fmt.Errorf("agent: decode %T: %w", v, err)
	}
	return v, nil
}
