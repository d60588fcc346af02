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
	User string
	// ReadOnly: the caller may change nothing (a viewer, or a read-only agent).
	ReadOnly bool
	Role     model.Role
	Store    string
}

// methods is every call the agent answers: each declared API method
// (api.Methods, which says who may call it) that does not run in the
// caller's own process, and the protocol's own calls (protocol).
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
	"PutTable": {run: call(func(ctx context.Context, h *session, r api.PutTableRequest) (api.TableChange, error) {
		r.Author = h.user
		return h.svc.PutTable(ctx, r)
	})},
	"RemoveTable": {run: call(func(ctx context.Context, h *session, r api.TableRef) (api.TableChange, error) {
		r.Issuer = h.user
		return h.svc.RemoveTable(ctx, r)
	})},
	"Vars": {run: of(api.Service.Vars)},
	"SetVar": {run: call(func(ctx context.Context, h *session, v model.Variable) (model.Variable, error) {
		v.Author = h.user
		return h.svc.SetVar(ctx, v)
	})},
	"RemoveVar": {run: call(func(ctx context.Context, h *session, r api.VarRef) (none, error) {
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
		return Info{User: h.user, ReadOnly: h.readOnly || !h.role.Allows(model.Operator), Role: h.role, Store: h.store}, nil
	})},
	"Plan": {run: call(func(ctx context.Context, h *session, r api.ActionRequest) (api.ActionPlan, error) {
		p, err := h.svc.Plan(ctx, r)
		if err == nil {
			if m, _ := api.MethodOf("Act"); m.Refusal(h.role, h.readOnly, "user "+h.user, " on this agent") != nil {
				p.Allowed, p.Reason = false, "user "+h.user+" is a "+h.role.String()+" on this agent"
				if h.readOnly {
					p.Reason = "the agent is read-only"
				}
			}
		}
		return p, err
	})},
	"Act": {run: call(func(ctx context.Context, h *session, r api.ActionRequest) (model.Command, error) {
		r.Issuer = h.user
		return h.svc.Act(ctx, r)
	})},
	"CreateJob": {run: call(func(ctx context.Context, h *session, r api.CreateJobRequest) (model.Job, error) {
		r.Issuer = h.user
		return h.svc.CreateJob(ctx, r)
	})},
	"SaveSpec": {run: call(func(ctx context.Context, h *session, a SpecArgs) (model.Spec, error) {
		a.Spec.Author = h.user
		return h.svc.SaveSpec(ctx, a.Ref, a.Spec)
	})},
	"ActOnAlert": {run: call(func(ctx context.Context, h *session, a api.AlertAction) (model.Alert, error) {
		a.Issuer = h.user
		return h.svc.ActOnAlert(ctx, a)
	})},
	"DisposeSavepoint": {run: call(func(ctx context.Context, h *session, r api.DisposeRequest) (model.RestorePoint, error) {
		r.Issuer = h.user
		return h.svc.DisposeSavepoint(ctx, r)
	})},
	"AddProject": {run: call(func(ctx context.Context, h *session, p model.Project) (model.Project, error) {
		p.CreatedBy = h.user
		return h.svc.AddProject(ctx, p)
	})},
	"Projects": {run: call(func(ctx context.Context, h *session, _ struct{}) ([]model.Project, error) {
		return h.svc.Projects(ctx)
	})},
	"BuildProject": {run: call(func(ctx context.Context, h *session, r api.BuildRequest) (model.Artifact, error) {
		r.Issuer, r.Log = h.user, nil
		return h.svc.BuildProject(ctx, r)
	})},
	"Artifacts":   {run: of(api.Service.Artifacts)},
	"BuildStatus": {run: of(api.Service.BuildStatus)},
	"UDFs": {run: call(func(ctx context.Context, h *session, _ none) ([]api.UDFView, error) {
		return h.svc.UDFs(ctx)
	})},
	"AddUDF": {run: call(func(ctx context.Context, h *session, r api.AddUDFRequest) (model.UDF, error) {
		r.UDF.Author = h.user
		return h.svc.AddUDF(ctx, r)
	})},
	"RemoveUDF": {run: call(func(ctx context.Context, h *session, r api.RemoveUDFRequest) (api.UDFRemoval, error) {
		r.Issuer = h.user
		return h.svc.RemoveUDF(ctx, r)
	})},
	"Adopt": {run: call(func(ctx context.Context, h *session, r api.AdoptRequest) (model.Job, error) {
		r.Issuer = h.user
		return h.svc.Adopt(ctx, r)
	})},
	"Backup": {run: call(func(ctx context.Context, h *session, _ none) ([]byte, error) {
		var b bytes.Buffer
		_, err := h.svc.Backup(ctx, &b)
		return b.Bytes(), err
	})},
	"FlinkVersion": {run: of(api.Service.FlinkVersion)},
	"Explain": {run: call(func(ctx context.Context, h *session, a ExplainArgs) (string, error) {
		return h.svc.Explain(ctx, a.Cluster, a.SQL)
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
