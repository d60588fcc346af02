package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// access says who may call a method.
type access int

const (
	toView access = iota // anyone who may reach the socket
	toAct                // an operator, on an agent that is not read-only
	toRead               // an operator: bulk reads, and running SQL as the agent
)

var (
	errViewer      = model.ErrReadOnly
	errNotOperator = model.ErrForbidden
)

// method is one Service method as the agent serves it.
type method struct {
	access  access
	what    string // the action, in a refusal
	timeout time.Duration
	run     func(ctx context.Context, h *session, args []byte) ([]byte, error)
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

// of serves a Service method as it is, given as a method expression.
func of[A, R any](f func(api.Service, context.Context, A) (R, error)) func(context.Context, *session, []byte) ([]byte, error) {
	return call(func(ctx context.Context, h *session, a A) (R, error) { return f(h.svc, ctx, a) })
}

// diag serves a DiagnoseService method, when the agent's service has them.
func diag[A, R any](f func(api.DiagnoseService, context.Context, A) (R, error)) func(context.Context, *session, []byte) ([]byte, error) {
	return call(func(ctx context.Context, h *session, a A) (R, error) {
		d, ok := h.svc.(api.DiagnoseService)
		if !ok {
			var zero R
			return zero, errors.New("this agent cannot diagnose jobs: upgrade it")
		}
		return f(d, ctx, a)
	})
}

// none is the argument or result of a call that has none.
type none struct{}

// SpecArgs are SaveSpec's arguments.
type SpecArgs struct {
	Ref  string
	Spec model.Spec
}

// WaitArgs are WaitCommand's: the agent waits at most Wait, and the client
// calls again until the command ends.
type WaitArgs struct {
	ID   string
	Wait time.Duration
}

// ExplainArgs are Explain's.
type ExplainArgs struct {
	Cluster, SQL string
}

// Info says who the agent thinks the caller is.
type Info struct {
	User     string
	ReadOnly bool
	Store    string
}

// methods is every call the agent answers. A viewer (a user outside
// Roles.Operators) may read what a console shows one job or one list at a
// time, and ask the cluster for the truth (SyncJob). Only an operator may
// change anything, copy the store in bulk (Backup: every spec of every job
// with whatever secrets their SQL holds, and the audit log), or have the
// agent run SQL on a cluster's gateway under its identity (Explain runs the
// script's DDL there).
var methods = map[string]method{
	"ListJobs":        {run: of(api.Service.ListJobs)},
	"Job":             {run: of(api.Service.Job)},
	"SyncJob":         {run: of(api.Service.SyncJob)},
	"Specs":           {run: of(api.Service.Specs)},
	"Command":         {run: of(api.Service.Command)},
	"Commands":        {run: of(api.Service.Commands)},
	"ClusterOverview": {run: of(api.Service.ClusterOverview)},
	"Logs":            {run: of(api.Service.Logs)},
	"ReadLog":         {run: of(api.Service.ReadLog)},
	"FindInLog":       {run: of(api.Service.FindInLog)},
	"JobMetrics":      {run: of(api.Service.JobMetrics)},
	"Alerts":          {run: of(api.Service.Alerts)},
	"JobGraph":        {run: diag(api.DiagnoseService.JobGraph)},
	"Vertex":          {run: diag(api.DiagnoseService.Vertex)},
	"Checkpoints":     {run: diag(api.DiagnoseService.Checkpoints)},
	"Checkpoint":      {run: diag(api.DiagnoseService.Checkpoint)},
	"TaskManagers":    {run: diag(api.DiagnoseService.TaskManagers)},
	"TaskManager":     {run: diag(api.DiagnoseService.TaskManager)},
	"FlinkConfig":     {run: diag(api.DiagnoseService.FlinkConfig)},
	"FlameGraph":      {run: diag(api.DiagnoseService.FlameGraph)},
	"Exceptions":      {run: diag(api.DiagnoseService.Exceptions)},
	"ContainerLogs":   {run: diag(api.DiagnoseService.ContainerLogs)},
	"Tables":          {run: of(api.Service.Tables)},
	"Table":           {run: of(api.Service.Table)},
	"PutTable": {access: toAct, what: "change the table catalog", run: call(func(ctx context.Context, h *session, r api.PutTableRequest) (api.TableChange, error) {
		r.Author = h.user
		return h.svc.PutTable(ctx, r)
	})},
	"RemoveTable": {access: toAct, what: "change the table catalog", run: call(func(ctx context.Context, h *session, r api.TableRef) (api.TableChange, error) {
		r.Issuer = h.user
		return h.svc.RemoveTable(ctx, r)
	})},
	"Vars": {run: of(api.Service.Vars)},
	"SetVar": {access: toAct, what: "set a variable", run: call(func(ctx context.Context, h *session, v model.Variable) (model.Variable, error) {
		v.Author = h.user
		return h.svc.SetVar(ctx, v)
	})},
	"RemoveVar": {access: toAct, what: "remove a variable", run: call(func(ctx context.Context, h *session, r api.VarRef) (none, error) {
		r.Issuer = h.user
		return none{}, h.svc.RemoveVar(ctx, r)
	})},
	"Clusters": {run: call(func(ctx context.Context, h *session, _ none) ([]api.ClusterStatus, error) {
		return h.svc.Clusters(ctx)
	})},
	"SetInterest": {run: call(func(ctx context.Context, h *session, r api.InterestRequest) (none, error) {
		return none{}, h.svc.SetInterest(ctx, r)
	})},
	"Info": {run: call(func(_ context.Context, h *session, _ none) (Info, error) {
		return Info{User: h.user, ReadOnly: !h.mayAct, Store: h.store}, nil
	})},
	"Plan": {run: call(func(ctx context.Context, h *session, r api.ActionRequest) (api.ActionPlan, error) {
		p, err := h.svc.Plan(ctx, r)
		if err == nil && !h.mayAct {
			p.Allowed, p.Reason = false, "user "+h.user+" is a viewer on this agent"
		}
		return p, err
	})},
	// Act names its action in a refusal, so it checks the role itself.
	"Act": {run: call(func(ctx context.Context, h *session, r api.ActionRequest) (model.Command, error) {
		if !h.mayAct {
			return model.Command{}, fmt.Errorf("%s: user %s is a viewer on this agent: %w", strings.ToLower(r.Kind.String()), h.user, errViewer)
		}
		r.Issuer = h.user
		return h.svc.Act(ctx, r)
	})},
	"CreateJob": {access: toAct, what: "create job", run: call(func(ctx context.Context, h *session, r api.CreateJobRequest) (model.Job, error) {
		r.Issuer = h.user
		return h.svc.CreateJob(ctx, r)
	})},
	"SaveSpec": {access: toAct, what: "save spec", run: call(func(ctx context.Context, h *session, a SpecArgs) (model.Spec, error) {
		a.Spec.Author = h.user
		return h.svc.SaveSpec(ctx, a.Ref, a.Spec)
	})},
	"ActOnAlert": {access: toAct, what: "act on alert", run: call(func(ctx context.Context, h *session, a api.AlertAction) (model.Alert, error) {
		a.Issuer = h.user
		return h.svc.ActOnAlert(ctx, a)
	})},
	"DisposeSavepoint": {access: toAct, what: "dispose savepoint", timeout: 5 * time.Minute, run: call(func(ctx context.Context, h *session, r api.DisposeRequest) (model.RestorePoint, error) {
		r.Issuer = h.user
		return h.svc.DisposeSavepoint(ctx, r)
	})},
	"AddProject": {access: toAct, what: "add project", run: call(func(ctx context.Context, h *session, p model.Project) (model.Project, error) {
		p.CreatedBy = h.user
		return h.svc.AddProject(ctx, p)
	})},
	"Projects": {run: call(func(ctx context.Context, h *session, _ struct{}) ([]model.Project, error) {
		return h.svc.Projects(ctx)
	})},
	"BuildProject": {access: toAct, what: "build project", timeout: 6 * time.Hour, run: call(func(ctx context.Context, h *session, r api.BuildRequest) (model.Artifact, error) {
		r.Issuer, r.Log = h.user, nil
		return h.svc.BuildProject(ctx, r)
	})},
	"Artifacts":   {run: of(api.Service.Artifacts)},
	"BuildStatus": {run: of(api.Service.BuildStatus)},
	"UDFs": {run: call(func(ctx context.Context, h *session, _ none) ([]api.UDFView, error) {
		return h.svc.UDFs(ctx)
	})},
	"AddUDF": {access: toAct, what: "add function", run: call(func(ctx context.Context, h *session, r api.AddUDFRequest) (model.UDF, error) {
		r.UDF.Author = h.user
		return h.svc.AddUDF(ctx, r)
	})},
	"RemoveUDF": {access: toAct, what: "remove function", run: call(func(ctx context.Context, h *session, r api.RemoveUDFRequest) (api.UDFRemoval, error) {
		r.Issuer = h.user
		return h.svc.RemoveUDF(ctx, r)
	})},
	"Adopt": {access: toAct, what: "adopt", run: call(func(ctx context.Context, h *session, r api.AdoptRequest) (model.Job, error) {
		r.Issuer = h.user
		return h.svc.Adopt(ctx, r)
	})},
	"Backup": {access: toRead, what: "back up the store", timeout: 10 * time.Minute, run: call(func(ctx context.Context, h *session, _ none) ([]byte, error) {
		var b bytes.Buffer
		_, err := h.svc.Backup(ctx, &b)
		return b.Bytes(), err
	})},
	"FlinkVersion": {run: of(api.Service.FlinkVersion)},
	"Explain": {access: toRead, what: "explain on the SQL Gateway", run: call(func(ctx context.Context, h *session, a ExplainArgs) (string, error) {
		return h.svc.Explain(ctx, a.Cluster, a.SQL)
	})},
	// WaitCommand is one bounded round: a command that has not ended
	// when the round is over is answered as it stands, and asked for again.
	"WaitCommand": {timeout: time.Hour, run: call(func(ctx context.Context, h *session, a WaitArgs) (model.Command, error) {
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
	"WatchNext": {timeout: time.Hour, run: call(func(_ context.Context, h *session, wait time.Duration) ([]api.Change, error) {
		return h.watchNext(wait)
	})},
}

func init() {
	for name, m := range methods {
		if m.timeout == 0 {
			m.timeout = time.Minute
			methods[name] = m
		}
	}
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
