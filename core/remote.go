package core

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/rpc"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// The agent protocol: Go's net/rpc (gob) over a unix socket. The socket
// tells the agent which OS user is on the other end (SO_PEERCRED): that user
// is recorded as the issuer of actions and decides the role (viewer or
// operator); the client's own claim is ignored. Watch is a long poll.
// Where the socket lies and whom a client trusts there: remote_socket.go.

// Roles decide who may act through the agent. Empty Operators means every
// user may act.
type Roles struct {
	Operators []string
}

func (r Roles) operator(user string) bool {
	if len(r.Operators) == 0 {
		return true
	}
	for _, o := range r.Operators {
		if o == user {
			return true
		}
	}
	return false
}

// Serve answers agent clients on l until ctx is done.
func Serve(ctx context.Context, l net.Listener, svc *Local, roles Roles) error {
	go func() { <-ctx.Done(); l.Close() }()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		conn, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("agent: accept: %w", err)
		}
		uid, err := peerUID(conn)
		if err != nil {
			svc.log.Warn("agent: refusing a connection", "err", err)
			conn.Close()
			continue
		}
		user := loginName(uid)
		wg.Add(1)
		go func() {
			defer wg.Done()
			connCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			srv := rpc.NewServer()
			op := roles.operator(user)
			h := &rpcHandler{ctx: connCtx, svc: svc, user: user, operator: op, mayAct: op && !svc.ReadOnly()}
			if err := srv.RegisterName("Palink", h); err != nil {
				svc.log.Error("agent: register", "err", err)
				conn.Close()
				return
			}
			go func() { <-connCtx.Done(); conn.Close() }()
			srv.ServeConn(conn)
		}()
	}
}

// rpcHandler serves one connection, for one user.
//
// A viewer (a user outside Roles.Operators) may read what a console shows
// one job or one list at a time: jobs, a job with its current spec and its
// spec versions, commands, clusters, logs, metrics, alerts and the change
// stream; SyncJob too, which only asks the cluster for the truth. Only an
// operator may change anything (create, save, act, adopt), copy the store in
// bulk (Backup: every spec of every job with the secrets their SQL may hold,
// and the audit log), or have the agent run SQL on a cluster's gateway under
// its identity (Explain runs the script's DDL there).
type rpcHandler struct {
	ctx  context.Context
	svc  *Local
	user string
	// operator: the user is one of Roles.Operators; mayAct: an operator on
	// an agent that is not read-only.
	operator bool
	mayAct   bool

	watchOnce sync.Once
	watch     <-chan api.Change
}

// Empty is an argument or reply without content.
type Empty struct{}

func (h *rpcHandler) call(timeout time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(h.ctx, timeout)
}

// mustOperate refuses changes to viewers and on a read-only agent.
func (h *rpcHandler) mustOperate(what string) error {
	if !h.mayAct {
		return fmt.Errorf("%s: user %s is a viewer on this agent", what, h.user)
	}
	return nil
}

// mustBeOperator refuses to viewers what only operators may read or run.
func (h *rpcHandler) mustBeOperator(what string) error {
	if !h.operator {
		return fmt.Errorf("%s: user %s is a viewer on this agent; ask an operator", what, h.user)
	}
	return nil
}

// ListJobs is Service.ListJobs.
func (h *rpcHandler) ListJobs(f api.JobFilter, out *[]api.JobView) (err error) {
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	*out, err = h.svc.ListJobs(ctx, f)
	return err
}

// Job is Service.Job.
func (h *rpcHandler) Job(ref string, out *api.JobDetail) (err error) {
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	*out, err = h.svc.Job(ctx, ref)
	return err
}

// SyncJob is Service.SyncJob.
func (h *rpcHandler) SyncJob(ref string, out *model.Job) (err error) {
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	*out, err = h.svc.SyncJob(ctx, ref)
	return err
}

// CreateJob is Service.CreateJob.
func (h *rpcHandler) CreateJob(r api.CreateJobRequest, out *model.Job) (err error) {
	if err := h.mustOperate("create job"); err != nil {
		return err
	}
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	r.Issuer = h.user
	*out, err = h.svc.CreateJob(ctx, r)
	return err
}

// SaveSpecArgs are SaveSpec's arguments.
type SaveSpecArgs struct {
	Ref  string
	Spec model.Spec
}

// SaveSpec is Service.SaveSpec.
func (h *rpcHandler) SaveSpec(a SaveSpecArgs, out *model.Spec) (err error) {
	if err := h.mustOperate("save spec"); err != nil {
		return err
	}
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	a.Spec.Author = h.user
	*out, err = h.svc.SaveSpec(ctx, a.Ref, a.Spec)
	return err
}

// Specs is Service.Specs.
func (h *rpcHandler) Specs(ref string, out *[]model.Spec) (err error) {
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	*out, err = h.svc.Specs(ctx, ref)
	return err
}

// Plan is Service.Plan.
func (h *rpcHandler) Plan(r api.ActionRequest, out *api.ActionPlan) (err error) {
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	*out, err = h.svc.Plan(ctx, r)
	if err == nil && !h.mayAct {
		out.Allowed, out.Reason = false, "user "+h.user+" is a viewer on this agent"
	}
	return err
}

// Act is Service.Act; the issuer is the connection's OS user.
func (h *rpcHandler) Act(r api.ActionRequest, out *model.Command) (err error) {
	if err := h.mustOperate(strings.ToLower(r.Kind.String())); err != nil {
		return err
	}
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	r.Issuer = h.user
	*out, err = h.svc.Act(ctx, r)
	return err
}

// WaitArgs are WaitCommand's arguments: the agent waits at most Wait, and
// the client calls again until the command ends.
type WaitArgs struct {
	ID   string
	Wait time.Duration
}

// WaitCommand is one bounded round of Service.WaitCommand.
func (h *rpcHandler) WaitCommand(a WaitArgs, out *model.Command) error {
	ctx, cancel := h.call(a.Wait)
	defer cancel()
	c, err := h.svc.WaitCommand(ctx, a.ID)
	*out = c
	if errors.Is(err, context.DeadlineExceeded) && h.ctx.Err() == nil {
		return nil // not ended yet: the client asks again
	}
	return err
}

// Command is Service.Command.
func (h *rpcHandler) Command(id string, out *model.Command) (err error) {
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	*out, err = h.svc.Command(ctx, id)
	return err
}

// Commands is Service.Commands.
func (h *rpcHandler) Commands(f api.CommandFilter, out *[]model.Command) (err error) {
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	*out, err = h.svc.Commands(ctx, f)
	return err
}

// Clusters is Service.Clusters.
func (h *rpcHandler) Clusters(_ Empty, out *[]api.ClusterStatus) (err error) {
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	*out, err = h.svc.Clusters(ctx)
	return err
}

// ClusterOverview is Service.ClusterOverview.
func (h *rpcHandler) ClusterOverview(name string, out *api.ClusterOverview) (err error) {
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	*out, err = h.svc.ClusterOverview(ctx, name)
	return err
}

// Adopt is Service.Adopt.
func (h *rpcHandler) Adopt(r api.AdoptRequest, out *model.Job) (err error) {
	if err := h.mustOperate("adopt"); err != nil {
		return err
	}
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	r.Issuer = h.user
	*out, err = h.svc.Adopt(ctx, r)
	return err
}

// Backup returns a consistent copy of the agent's store: every spec version
// of every job (with whatever secrets their SQL holds) and the whole audit
// log, so only operators may take it.
func (h *rpcHandler) Backup(_ Empty, out *[]byte) error {
	if err := h.mustBeOperator("back up the store"); err != nil {
		return err
	}
	ctx, cancel := h.call(10 * time.Minute)
	defer cancel()
	var buf bytes.Buffer
	if _, err := h.svc.st.Backup(ctx, &buf); err != nil {
		return err
	}
	*out = buf.Bytes()
	return nil
}

// Info says who the agent thinks the caller is.
type Info struct {
	User     string
	ReadOnly bool
	Store    string
}

// Info reports the caller's identity and role.
func (h *rpcHandler) Info(_ Empty, out *Info) error {
	*out = Info{User: h.user, ReadOnly: !h.mayAct, Store: h.svc.st.Path()}
	return nil
}

// WatchNext returns the next changes, waiting up to Wait for the first.
func (h *rpcHandler) WatchNext(wait time.Duration, out *[]api.Change) error {
	h.watchOnce.Do(func() { h.watch = h.svc.hub.subscribe(h.ctx) })
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case c, ok := <-h.watch:
		if !ok {
			return errors.New("agent is stopping")
		}
		*out = append(*out, c)
	case <-t.C:
		return nil
	}
	for len(*out) < 256 {
		select {
		case c, ok := <-h.watch:
			if !ok {
				return nil
			}
			*out = append(*out, c)
		default:
			return nil
		}
	}
	return nil
}

// Remote is a Service that talks to `palink agent` over its unix socket.
type Remote struct {
	c    *rpc.Client
	info Info
	// readOnly is this client's own --read-only: it refuses actions before
	// asking the agent.
	readOnly bool
}

// SetReadOnly makes this client refuse every action, whatever the agent
// would allow (palink --read-only).
func (r *Remote) SetReadOnly() { r.readOnly = true }

var _ api.Service = (*Remote)(nil)

// Backup writes a consistent copy of the agent's store to w.
func (r *Remote) Backup(ctx context.Context, w io.Writer) (int64, error) {
	var b []byte
	if err := r.call(ctx, "Backup", Empty{}, &b); err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

// Info is what the agent said of this connection.
func (r *Remote) Info() Info { return r.info }

// Close ends the connection.
func (r *Remote) Close() error { return r.c.Close() }

// call runs one RPC bounded by ctx.
func (r *Remote) call(ctx context.Context, method string, args, reply any) error {
	call := r.c.Go("Palink."+method, args, reply, make(chan *rpc.Call, 1))
	select {
	case <-ctx.Done():
		return ctx.Err()
	case c := <-call.Done:
		if c.Error != nil {
			var se rpc.ServerError
			if errors.As(c.Error, &se) {
				return remoteError(se)
			}
			return fmt.Errorf("agent: %w", c.Error)
		}
		return nil
	}
}

// remoteError keeps the agent's message and restores the sentinel errors
// callers test for.
func remoteError(se rpc.ServerError) error {
	msg := string(se)
	return &RemoteError{Msg: msg, notFound: strings.Contains(msg, "not found")}
}

// RemoteError is an error the agent returned.
type RemoteError struct {
	Msg      string
	notFound bool
}

func (e *RemoteError) Error() string { return e.Msg }

// NotFound reports whether the agent could not find the entity.
func (e *RemoteError) NotFound() bool { return e.notFound }

// ListJobs implements Service.
func (r *Remote) ListJobs(ctx context.Context, f api.JobFilter) (out []api.JobView, err error) {
	return out, r.call(ctx, "ListJobs", f, &out)
}

// Job implements Service.
func (r *Remote) Job(ctx context.Context, ref string) (out api.JobDetail, err error) {
	return out, r.call(ctx, "Job", ref, &out)
}

// SyncJob implements Service.
func (r *Remote) SyncJob(ctx context.Context, ref string) (out model.Job, err error) {
	return out, r.call(ctx, "SyncJob", ref, &out)
}

// CreateJob implements Service.
func (r *Remote) CreateJob(ctx context.Context, req api.CreateJobRequest) (out model.Job, err error) {
	if r.readOnly {
		return out, api.ReadOnly("create job")
	}
	return out, r.call(ctx, "CreateJob", req, &out)
}

// SaveSpec implements Service.
func (r *Remote) SaveSpec(ctx context.Context, ref string, s model.Spec) (out model.Spec, err error) {
	if r.readOnly {
		return out, api.ReadOnly("save spec")
	}
	return out, r.call(ctx, "SaveSpec", SaveSpecArgs{Ref: ref, Spec: s}, &out)
}

// Specs implements Service.
func (r *Remote) Specs(ctx context.Context, ref string) (out []model.Spec, err error) {
	return out, r.call(ctx, "Specs", ref, &out)
}

// Plan implements Service.
func (r *Remote) Plan(ctx context.Context, req api.ActionRequest) (out api.ActionPlan, err error) {
	err = r.call(ctx, "Plan", req, &out)
	if err == nil && r.readOnly {
		out.Allowed, out.Reason = false, "palink is read-only"
	}
	return out, err
}

// Act implements Service.
func (r *Remote) Act(ctx context.Context, req api.ActionRequest) (out model.Command, err error) {
	if r.readOnly {
		return out, api.ReadOnly(strings.ToLower(req.Kind.String()))
	}
	return out, r.call(ctx, "Act", req, &out)
}

// WaitCommand implements Service.
func (r *Remote) WaitCommand(ctx context.Context, id string) (model.Command, error) {
	for {
		var c model.Command
		if err := r.call(ctx, "WaitCommand", WaitArgs{ID: id, Wait: 20 * time.Second}, &c); err != nil {
			return c, err
		}
		if c.State.Final() {
			return c, nil
		}
	}
}

// Command implements Service.
func (r *Remote) Command(ctx context.Context, id string) (out model.Command, err error) {
	return out, r.call(ctx, "Command", id, &out)
}

// Commands implements Service.
func (r *Remote) Commands(ctx context.Context, f api.CommandFilter) (out []model.Command, err error) {
	return out, r.call(ctx, "Commands", f, &out)
}

// Clusters implements Service.
func (r *Remote) Clusters(ctx context.Context) (out []api.ClusterStatus, err error) {
	return out, r.call(ctx, "Clusters", Empty{}, &out)
}

// ClusterOverview implements Service.
func (r *Remote) ClusterOverview(ctx context.Context, name string) (out api.ClusterOverview, err error) {
	return out, r.call(ctx, "ClusterOverview", name, &out)
}

// Adopt implements Service.
func (r *Remote) Adopt(ctx context.Context, req api.AdoptRequest) (out model.Job, err error) {
	if r.readOnly {
		return out, api.ReadOnly("adopt")
	}
	return out, r.call(ctx, "Adopt", req, &out)
}

// ReadOnly implements Service: true for viewers and read-only clients.
func (r *Remote) ReadOnly() bool { return r.readOnly || r.info.ReadOnly }

// Watch implements Service with a long poll.
func (r *Remote) Watch(ctx context.Context) (<-chan api.Change, error) {
	out := make(chan api.Change)
	go func() {
		defer close(out)
		for ctx.Err() == nil {
			var batch []api.Change
			if err := r.call(ctx, "WatchNext", 20*time.Second, &batch); err != nil {
				return
			}
			for _, c := range batch {
				select {
				case out <- c:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}
