package agent_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

func serveAgent(t *testing.T, e *coretest.Env, roles agent.Roles) *agent.Client {
	t.Helper()
	return serveAgentOn(t, e, e.Svc, roles)
}

// serveAgentOn serves svc (over e's store) as an agent would.
func serveAgentOn(t *testing.T, e *coretest.Env, svc api.Service, roles agent.Roles) *agent.Client {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "a.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(e.Ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = agent.Serve(ctx, ln, svc, agent.ServeOptions{Roles: roles, Store: e.St.Path()})
	}()
	r, err := agent.Dial(e.Ctx, agent.AgentSocket{Path: sock, Configured: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); cancel(); <-done })
	return r
}

// TestAgentProtocol: a client on the agent's socket sees the jobs, acts as
// the OS user the socket reports (whatever it claims), gets changes pushed,
// and a viewer cannot act.
func TestAgentProtocol(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	e.CreateSQL("via-agent")
	r := serveAgent(t, e, agent.Roles{})
	me := core.CurrentUser()
	if r.Info().User != me || r.ReadOnly() {
		t.Fatalf("agent says user %q read-only %v, want %q operator", r.Info().User, r.ReadOnly(), me)
	}
	jobs, err := r.ListJobs(e.Ctx, api.JobFilter{})
	if err != nil || len(jobs) != 1 || jobs[0].Name != "via-agent" {
		t.Fatalf("ListJobs over the socket: %+v %v", jobs, err)
	}
	// Core's answer for each action crosses the socket whole.
	if local, err := e.Svc.ListJobs(e.Ctx, api.JobFilter{}); err != nil || len(jobs[0].Actions) == 0 || !slices.Equal(jobs[0].Actions, local[0].Actions) {
		t.Fatalf("actions over the socket %+v, locally %+v (%v)", jobs[0].Actions, local, err)
	}
	watch, err := r.Watch(e.Ctx)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Act(e.Ctx, api.ActionRequest{JobRef: "via-agent", Kind: model.CmdSubmit, Issuer: "mallory"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Issuer != me {
		t.Errorf("command issued by %q, want the socket's user %q", c.Issuer, me)
	}
	ctx, cancel := context.WithTimeout(e.Ctx, time.Minute)
	defer cancel()
	final, err := r.WaitCommand(ctx, c.ID)
	if err != nil || final.State != model.CmdSucceeded {
		t.Fatalf("wait over the socket: %s %v", final.State, err)
	}
	sawJob := false
	for !sawJob {
		select {
		case ch := <-watch:
			sawJob = ch.Kind == api.JobChanged && ch.Job != nil && ch.Job.Name == "via-agent" && ch.Job.State == model.StateDeploySucceeded
		case <-ctx.Done():
			t.Fatal("no job change pushed over the socket")
		}
	}
	// Failures keep their kind across the socket: the same sentinel matches
	// as in process, whatever the message says.
	if _, err := r.Job(e.Ctx, "nope"); !errors.Is(err, model.ErrNotFound) || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown job over the socket: %v, want a model.ErrNotFound naming it", err)
	}
	if _, err := e.Svc.Job(e.Ctx, "nope"); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("unknown job in process: %v, want model.ErrNotFound", err)
	}
	if _, err := r.Act(e.Ctx, api.ActionRequest{JobRef: "via-agent", Kind: model.CmdSubmit}); !errors.Is(err, model.ErrRefused) {
		t.Errorf("a second submit over the socket: %v, want model.ErrRefused", err)
	}

	viewer := serveAgent(t, e, agent.Roles{Operators: []string{"somebody-else"}})
	if !viewer.ReadOnly() {
		t.Error("a user outside operators is not read-only")
	}
	if _, err := viewer.Act(e.Ctx, api.ActionRequest{JobRef: "via-agent", Kind: model.CmdKill}); !errors.Is(err, model.ErrReadOnly) || !strings.Contains(err.Error(), "viewer") {
		t.Errorf("viewer kill: %v", err)
	}
	if _, err := viewer.ActOnAlert(e.Ctx, api.AlertAction{Rule: "job-failed", JobRef: "via-agent", Ack: true}); !errors.Is(err, model.ErrReadOnly) {
		t.Errorf("viewer acknowledges an alert: %v", err)
	}
	if p, err := viewer.Plan(e.Ctx, api.ActionRequest{JobRef: "via-agent", Kind: model.CmdKill}); err != nil || p.Allowed {
		t.Errorf("viewer plan allowed: %+v %v", p, err)
	}
	// A viewer reads what a console shows, one job or one list at a time …
	if jobs, err := viewer.ListJobs(e.Ctx, api.JobFilter{}); err != nil || len(jobs) != 1 {
		t.Errorf("viewer ListJobs: %d jobs, %v", len(jobs), err)
	}
	if d, err := viewer.Job(e.Ctx, "via-agent"); err != nil || d.Spec.SQL == "" {
		t.Errorf("viewer Job: %v", err)
	}
	if specs, err := viewer.Specs(e.Ctx, "via-agent"); err != nil || len(specs) != 1 {
		t.Errorf("viewer Specs: %d, %v", len(specs), err)
	}
	if cmds, err := viewer.Commands(e.Ctx, api.CommandFilter{}); err != nil || len(cmds) == 0 {
		t.Errorf("viewer Commands: %d, %v", len(cmds), err)
	}
	// … but copies no store and runs no SQL on a cluster as the agent.
	var backup bytes.Buffer
	if _, err := viewer.Backup(e.Ctx, &backup); !errors.Is(err, model.ErrForbidden) || !strings.Contains(err.Error(), "back up the store: user "+me+" is a viewer") || backup.Len() > 0 {
		t.Errorf("viewer backup: %d bytes, %v", backup.Len(), err)
	}
	if _, err := viewer.Explain(e.Ctx, "sim", "CREATE TABLE t (x INT) WITH ('connector' = 'datagen');\nINSERT INTO t SELECT 1;"); err == nil || !strings.Contains(err.Error(), "viewer") {
		t.Errorf("viewer explain: %v", err)
	}
	if _, err := r.Backup(e.Ctx, &backup); err != nil || backup.Len() == 0 {
		t.Errorf("operator backup: %d bytes, %v", backup.Len(), err)
	}
	r.SetReadOnly()
	if _, err := r.Act(e.Ctx, api.ActionRequest{JobRef: "via-agent", Kind: model.CmdKill}); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("--read-only client acted: %v", err)
	}
}
