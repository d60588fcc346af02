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
	// diagnoses are the api.DiagnoseService half of the calls.
	diagnoses
	// projects are the project and build calls.
	projects
	// catalogCalls are the api.CatalogService half.
	catalogCalls
	// udfCalls are the api.UDFService calls.
	udfCalls
}

// wire is a Client's connection, shared by its halves.
type wire struct {
	rc *rpc.Client
	// readOnly is this client's own --read-only: it refuses every method
	// whose declaration writes before asking the agent.
	readOnly bool
}

var (
	_ api.Service         = (*Client)(nil)
	_ api.DiagnoseService = (*Client)(nil)
)

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

// ListJobs implements api.Service.
func (c *Client) ListJobs(ctx context.Context, f api.JobFilter) ([]api.JobView, error) {
	return do[api.JobFilter, []api.JobView](ctx, c.w, "ListJobs", f)
}

// Job implements api.Service.
func (c *Client) Job(ctx context.Context, ref string) (api.JobDetail, error) {
	return do[string, api.JobDetail](ctx, c.w, "Job", ref)
}

// SyncJob implements api.Service.
func (c *Client) SyncJob(ctx context.Context, ref string) (model.Job, error) {
	return do[string, model.Job](ctx, c.w, "SyncJob", ref)
}

// CreateJob implements api.Service.
func (c *Client) CreateJob(ctx context.Context, r api.CreateJobRequest) (model.Job, error) {
	return do[api.CreateJobRequest, model.Job](ctx, c.w, "CreateJob", r)
}

// SaveSpec implements api.Service.
func (c *Client) SaveSpec(ctx context.Context, ref string, s model.Spec) (model.Spec, error) {
	return do[SpecArgs, model.Spec](ctx, c.w, "SaveSpec", SpecArgs{Ref: ref, Spec: s})
}

// Specs implements api.Service.
func (c *Client) Specs(ctx context.Context, ref string) ([]model.Spec, error) {
	return do[string, []model.Spec](ctx, c.w, "Specs", ref)
}

// Plan implements api.Service.
func (c *Client) Plan(ctx context.Context, r api.ActionRequest) (api.ActionPlan, error) {
	p, err := do[api.ActionRequest, api.ActionPlan](ctx, c.w, "Plan", r)
	if err == nil && c.w.readOnly {
		p.Allowed, p.Reason = false, "palink is read-only"
	}
	return p, err
}

// Act implements api.Service.
func (c *Client) Act(ctx context.Context, r api.ActionRequest) (model.Command, error) {
	return do[api.ActionRequest, model.Command](ctx, c.w, "Act", r)
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

// Command implements api.Service.
func (c *Client) Command(ctx context.Context, id string) (model.Command, error) {
	return do[string, model.Command](ctx, c.w, "Command", id)
}

// Commands implements api.Service.
func (c *Client) Commands(ctx context.Context, f api.CommandFilter) ([]model.Command, error) {
	return do[api.CommandFilter, []model.Command](ctx, c.w, "Commands", f)
}

// Clusters implements api.Service.
func (c *Client) Clusters(ctx context.Context) ([]api.ClusterStatus, error) {
	return do[none, []api.ClusterStatus](ctx, c.w, "Clusters", none{})
}

// ClusterOverview implements api.Service.
func (c *Client) ClusterOverview(ctx context.Context, name string) (api.ClusterOverview, error) {
	return do[string, api.ClusterOverview](ctx, c.w, "ClusterOverview", name)
}

// Adopt implements api.Service.
func (c *Client) Adopt(ctx context.Context, r api.AdoptRequest) (model.Job, error) {
	return do[api.AdoptRequest, model.Job](ctx, c.w, "Adopt", r)
}

// DisposeSavepoint implements api.Service.
func (c *Client) DisposeSavepoint(ctx context.Context, r api.DisposeRequest) (model.RestorePoint, error) {
	return do[api.DisposeRequest, model.RestorePoint](ctx, c.w, "DisposeSavepoint", r)
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

// SetInterest implements api.Service.
func (c *Client) SetInterest(ctx context.Context, r api.InterestRequest) error {
	_, err := do[api.InterestRequest, none](ctx, c.w, "SetInterest", r)
	return err
}

// JobMetrics implements api.Service.
func (c *Client) JobMetrics(ctx context.Context, ref string) (api.MetricsSeries, error) {
	return do[string, api.MetricsSeries](ctx, c.w, "JobMetrics", ref)
}

// Alerts implements api.Service.
func (c *Client) Alerts(ctx context.Context, f api.AlertFilter) ([]model.Alert, error) {
	return do[api.AlertFilter, []model.Alert](ctx, c.w, "Alerts", f)
}

// Logs implements api.Service.
func (c *Client) Logs(ctx context.Context, ref string) (api.LogList, error) {
	return do[string, api.LogList](ctx, c.w, "Logs", ref)
}

// ReadLog implements api.Service.
func (c *Client) ReadLog(ctx context.Context, r api.LogRequest) (api.LogChunk, error) {
	return do[api.LogRequest, api.LogChunk](ctx, c.w, "ReadLog", r)
}

// FindInLog implements api.Service.
func (c *Client) FindInLog(ctx context.Context, s api.LogSearch) (api.LogMatch, error) {
	return do[api.LogSearch, api.LogMatch](ctx, c.w, "FindInLog", s)
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

// Explain implements api.Service.
func (c *Client) Explain(ctx context.Context, cluster, sql string) (string, error) {
	return do[ExplainArgs, string](ctx, c.w, "Explain", ExplainArgs{Cluster: cluster, SQL: sql})
}

// FlinkVersion implements api.Service.
func (c *Client) FlinkVersion(ctx context.Context, cluster string) (string, error) {
	return do[string, string](ctx, c.w, "FlinkVersion", cluster)
}

// ActOnAlert implements api.Service.
func (c *Client) ActOnAlert(ctx context.Context, a api.AlertAction) (model.Alert, error) {
	return do[api.AlertAction, model.Alert](ctx, c.w, "ActOnAlert", a)
}
