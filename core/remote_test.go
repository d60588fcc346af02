package core_test

import (
	"bytes"
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

func serveAgent(t *testing.T, e *simEnv, roles core.Roles) *core.Remote {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "a.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = core.Serve(ctx, ln, e.svc, roles) }()
	r, err := core.Dial(e.ctx, core.AgentSocket{Path: sock, Configured: true})
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
	e := newSimEnv(t, sim.Options{}, nil)
	e.createSQL("via-agent")
	r := serveAgent(t, e, core.Roles{})
	me := core.CurrentUser()
	if r.Info().User != me || r.ReadOnly() {
		t.Fatalf("agent says user %q read-only %v, want %q operator", r.Info().User, r.ReadOnly(), me)
	}
	jobs, err := r.ListJobs(e.ctx, api.JobFilter{})
	if err != nil || len(jobs) != 1 || jobs[0].Name != "via-agent" {
		t.Fatalf("ListJobs over the socket: %+v %v", jobs, err)
	}
	watch, err := r.Watch(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Act(e.ctx, api.ActionRequest{JobRef: "via-agent", Kind: model.CmdSubmit, Issuer: "mallory"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Issuer != me {
		t.Errorf("command issued by %q, want the socket's user %q", c.Issuer, me)
	}
	ctx, cancel := context.WithTimeout(e.ctx, time.Minute)
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
	if _, err := r.Job(e.ctx, "nope"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("unknown job over the socket: %v", err)
	}

	viewer := serveAgent(t, e, core.Roles{Operators: []string{"somebody-else"}})
	if !viewer.ReadOnly() {
		t.Error("a user outside operators is not read-only")
	}
	if _, err := viewer.Act(e.ctx, api.ActionRequest{JobRef: "via-agent", Kind: model.CmdKill}); err == nil || !strings.Contains(err.Error(), "viewer") {
		t.Errorf("viewer kill: %v", err)
	}
	if p, err := viewer.Plan(e.ctx, api.ActionRequest{JobRef: "via-agent", Kind: model.CmdKill}); err != nil || p.Allowed {
		t.Errorf("viewer plan allowed: %+v %v", p, err)
	}
	// A viewer reads what a console shows, one job or one list at a time …
	if jobs, err := viewer.ListJobs(e.ctx, api.JobFilter{}); err != nil || len(jobs) != 1 {
		t.Errorf("viewer ListJobs: %d jobs, %v", len(jobs), err)
	}
	if d, err := viewer.Job(e.ctx, "via-agent"); err != nil || d.Spec.SQL == "" {
		t.Errorf("viewer Job: %v", err)
	}
	if specs, err := viewer.Specs(e.ctx, "via-agent"); err != nil || len(specs) != 1 {
		t.Errorf("viewer Specs: %d, %v", len(specs), err)
	}
	if cmds, err := viewer.Commands(e.ctx, api.CommandFilter{}); err != nil || len(cmds) == 0 {
		t.Errorf("viewer Commands: %d, %v", len(cmds), err)
	}
	// … but copies no store and runs no SQL on a cluster as the agent.
	var backup bytes.Buffer
	if _, err := viewer.Backup(e.ctx, &backup); err == nil || !strings.Contains(err.Error(), "back up the store: user "+me+" is a viewer") || backup.Len() > 0 {
		t.Errorf("viewer backup: %d bytes, %v", backup.Len(), err)
	}
	if _, err := viewer.Explain(e.ctx, "sim", "CREATE TABLE t (x INT) WITH ('connector' = 'datagen');\nINSERT INTO t SELECT 1;"); err == nil || !strings.Contains(err.Error(), "viewer") {
		t.Errorf("viewer explain: %v", err)
	}
	if _, err := r.Backup(e.ctx, &backup); err != nil || backup.Len() == 0 {
		t.Errorf("operator backup: %d bytes, %v", backup.Len(), err)
	}
	r.SetReadOnly()
	if _, err := r.Act(e.ctx, api.ActionRequest{JobRef: "via-agent", Kind: model.CmdKill}); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("--read-only client acted: %v", err)
	}
}
