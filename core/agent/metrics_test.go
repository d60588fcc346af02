package agent_test

import (
	"context"
	"testing"
	"time"

	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestMetricsAndAlertsOverTheAgent: a TUI on the agent's socket declares
// the job it shows, the agent's collector measures it and its series comes
// back over the socket, and a failure's alert lists there too.
func TestMetricsAndAlertsOverTheAgent(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	e.CreateSQL("watched")
	if c := e.Act("watched", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	j := e.SyncUntil("watched", "RUNNING", coretest.Running)
	r := serveAgent(t, e, agent.Roles{})
	if err := r.SetInterest(e.Ctx, api.InterestRequest{Client: "tui-1", Detail: j.ID}); err != nil {
		t.Fatal(err)
	}
	// The agent's sync loop runs the collector (its first round at once).
	ctx, cancel := context.WithCancel(e.Ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = e.Svc.RunSync(ctx) }()
	defer func() { cancel(); <-done }()

	var s api.MetricsSeries
	for deadline := time.Now().Add(30 * time.Second); len(s.Recent) == 0; time.Sleep(50 * time.Millisecond) {
		var err error
		if s, err = r.JobMetrics(e.Ctx, "watched"); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no figures over the socket: %+v", s)
		}
	}
	p := s.Latest()
	if s.JobID != j.ID || p.RecordsIn <= 0 || len(s.Vertices) == 0 || p.Lag != api.Unknown && p.Lag < 0 {
		t.Errorf("series over the socket: %+v, latest %+v", s, p)
	}

	if err := e.Sim.FailJob(j.AppID); err != nil {
		t.Fatal(err)
	}
	e.SyncUntil("watched", "FAILED", func(j model.Job) bool { return j.State == model.StateFailed })
	var as []model.Alert
	for deadline := time.Now().Add(30 * time.Second); len(as) == 0; time.Sleep(100 * time.Millisecond) {
		var err error
		if as, err = r.Alerts(e.Ctx, api.AlertFilter{JobRef: "watched", States: []model.AlertState{model.AlertFiring}}); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatal("no firing alert over the socket")
		}
	}
	if as[0].Rule != "job-failed" || as[0].JobID != j.ID {
		t.Errorf("alert over the socket: %+v", as[0])
	}
}
