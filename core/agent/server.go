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
)

// Roles decide who may act through the agent. Empty Operators means every
// user may act.
type Roles struct {
	Operators []string
}

func (r Roles) operator(user string) bool {
	return len(r.Operators) == 0 || slices.Contains(r.Operators, user)
}

// ServeOptions describe what an agent serves.
type ServeOptions struct {
	Roles Roles
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
			op := o.Roles.operator(user)
			h := &session{ctx: connCtx, svc: svc, user: user, store: o.Store, operator: op, mayAct: op && !svc.ReadOnly()}
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
	// operator: the user is one of Roles.Operators; mayAct: an operator on
	// an agent that is not read-only.
	operator bool
	mayAct   bool

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
	m, ok := methods[req.Method]
	if !ok {
		return fmt.Errorf("agent: no method %q (a newer palink's client?)", req.Method)
	}
	result, err := h.run(m, req.Args)
	reply.Result = result
	if err != nil {
		reply.Code, reply.Msg = api.CodeOf(err), err.Error()
	}
	return nil
}

func (h *session) run(m method, args []byte) ([]byte, error) {
	switch {
	case m.access == toAct && !h.mayAct:
		return nil, fmt.Errorf("%s: user %s is a viewer on this agent: %w", m.what, h.user, errViewer)
	case m.access == toRead && !h.operator:
		return nil, fmt.Errorf("%s: user %s is a viewer on this agent; ask an operator: %w", m.what, h.user, errNotOperator)
	}
	ctx, cancel := context.WithTimeout(h.ctx, m.timeout)
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
