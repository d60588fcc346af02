package agent

import (
	"context"
	"fmt"
	"io"
	"net/rpc"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/logs"
	"github.com/palink/palink/model"
)

// Client is an api.Service that talks to `palink agent` over its socket.
type Client struct {
	w    *wire
	info Info
}

// wire is a Client's connection, shared by its halves.
type wire struct {
	rc *rpc.Client
	// readOnly is this client's own --read-only: it refuses every method
	// whose declaration writes before asking the agent.
	readOnly bool
}

// do runs one method on the agent, bounded by ctx; the agent's failure
// comes back as an *api.Error that matches its model sentinel. A method
// the declaration says writes is refused here under --read-only.
func do[A, R any](ctx context.Context, w *wire, method string, a A) (R, error) {
	var zero R
	if m, ok := api.MethodOf(method); ok && w.readOnly {
		if err := m.Refusal(model.Admin, true, "", ""); err != nil {
			return zero, err
		}
	}
	args, err := encode(box[A]{a})
	if err != nil {
		return zero, err
	}
	var reply Reply
	call := w.rc.Go("Palink.Call", Request{Method: method, Args: args}, &reply, make(chan *rpc.Call, 1))
	select {
	case <-ctx.Done():
		return zero, ctx.Err()
	case done := <-call.Done:
		if done.Error != nil {
			return zero, fmt.Errorf("agent: %w", done.Error)
		}
	}
	if reply.Code != "" {
		return zero, &api.Error{Code: reply.Code, Msg: reply.Msg}
	}
	r, err := decode[box[R]](reply.Result)
	return r.V, err
}

// SetReadOnly makes this client refuse every action, whatever the agent
// would allow (palink --read-only).
func (c *Client) SetReadOnly() { c.w.readOnly = true }

// Info is what the agent said of this connection.
func (c *Client) Info() Info { return c.info }

// Close ends the connection.
func (c *Client) Close() error { return c.w.rc.Close() }

// ReadOnly implements api.Service: true for viewers and read-only clients.
func (c *Client) ReadOnly() bool { return c.w.readOnly || c.info.ReadOnly }

// Backup implements api.Service: a consistent copy of the agent's store.
func (c *Client) Backup(ctx context.Context, w io.Writer) (int64, error) {
	b, err := do[none, []byte](ctx, c.w, "Backup", none{})
	if err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

// Plan implements api.Service.
func (c *Client) Plan(ctx context.Context, r api.ActionRequest) (api.ActionPlan, error) {
	p, err := do[api.ActionRequest, api.ActionPlan](ctx, c.w, "Plan", r)
	if err == nil && c.w.readOnly {
		p.Allowed, p.Reason = false, "palink is read-only"
	}
	return p, err
}

// WaitCommand implements api.Service, a bounded round at a time.
func (c *Client) WaitCommand(ctx context.Context, id string) (model.Command, error) {
	for {
		cmd, err := do[WaitArgs, model.Command](ctx, c.w, "WaitCommand", WaitArgs{ID: id, Wait: 20 * time.Second})
		if err != nil || cmd.State.Final() {
			return cmd, err
		}
	}
}

// Watch implements api.Service with a long poll.
func (c *Client) Watch(ctx context.Context) (<-chan api.Change, error) {
	out := make(chan api.Change)
	go func() {
		defer close(out)
		for ctx.Err() == nil {
			batch, err := do[time.Duration, []api.Change](ctx, c.w, "WatchNext", 20*time.Second)
			if err != nil {
				return
			}
			for _, ch := range batch {
				select {
				case out <- ch:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}

// BuildProject implements api.Service; the agent runs the build, and its
// log comes with the artifact: neither the log writer nor the progress
// callback crosses the socket.
func (c *Client) BuildProject(ctx context.Context, r api.BuildRequest) (model.Artifact, error) {
	r.Log, r.Progress = nil, nil
	return do[api.BuildRequest, model.Artifact](ctx, c.w, "BuildProject", r)
}

// SaveLog implements api.Service: the agent sends the log chunk by chunk
// and this process writes the file.
func (c *Client) SaveLog(ctx context.Context, r api.SaveLogRequest) (api.SavedLog, error) {
	read := func(ctx context.Context, offset int64, tail bool, limit int64) (api.LogChunk, error) {
		return c.ReadLog(ctx, api.LogRequest{JobRef: r.JobRef, Log: r.Log, Offset: offset, Tail: tail, Limit: limit})
	}
	s, err := logs.Save(ctx, read, r.Path)
	if err != nil {
		return s, fmt.Errorf("save %s of job %s: %w", logs.Title(r.Log), r.JobRef, err)
	}
	return s, nil
}
