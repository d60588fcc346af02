package core_test

import (
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestAdoptGivesATaggedApplicationToItsJob: `palink adopt` of an
// application whose tags name one of this store's jobs, such as one a
// palink from before store ids submitted and reconciliation would not take
// by itself, makes it that job's (its spec kept) instead of a new job; but
// never into a job that runs something, and never one that another store
// tagged, which becomes a job of its own.
func TestAdoptGivesATaggedApplicationToItsJob(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	submit := func(name string, tags ...string) string {
		t.Helper()
		sub, err := e.Sim.Submit(e.Ctx, sim.SubmitRequest{Name: name, JobName: name, Tags: tags})
		if err != nil {
			t.Fatal(err)
		}
		return sub.AppID
	}
	legacy := func(j model.Job) []string {
		return []string{clusters.TagPalink, clusters.JobTag(j.ID), clusters.CmdTag("c000000001")}
	}

	idle := e.CreateSQL("idle")
	app := submit("idle", legacy(idle)...)
	j, err := e.Svc.Adopt(e.Ctx, api.AdoptRequest{Cluster: "sim", AppID: app})
	if err != nil {
		t.Fatalf("adopt into idle: %v", err)
	}
	if j.ID != idle.ID || j.AppID != app || j.State != model.StateDeploySucceeded {
		t.Fatalf("adopted as %s (%s) %s app %s; want job %s with %s", j.Name, j.ID, j.State, j.AppID, idle.ID, app)
	}
	if d, err := e.Svc.Job(e.Ctx, "idle"); err != nil || !strings.Contains(d.Spec.SQL, "INSERT INTO snk") {
		t.Errorf("the job lost its spec: %v %q", err, d.Spec.SQL)
	}

	busy := e.CreateSQL("busy")
	if c := e.Act("busy", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s", c.Error)
	}
	second := submit("busy", legacy(busy)...)
	if _, err := e.Svc.Adopt(e.Ctx, api.AdoptRequest{Cluster: "sim", AppID: second}); err == nil || !strings.Contains(err.Error(), "its tags name job busy, which is DEPLOY_SUCCEEDED") {
		t.Errorf("adopt into a job that runs: %v", err)
	}
	if got := e.Job("busy"); got.AppID == second {
		t.Errorf("busy now records %s", second)
	}

	other := submit("theirs", clusters.TagPalink, clusters.StoreTag("ffffffffffff"), clusters.JobTag(idle.ID), clusters.CmdTag("c000000002-ffffffffffff"))
	j, err = e.Svc.Adopt(e.Ctx, api.AdoptRequest{Cluster: "sim", AppID: other})
	if err != nil || j.ID == idle.ID || j.Name != "theirs" || j.AppID != other {
		t.Errorf("another store's application adopted as %s (%s) app %s: %v; want a job of its own", j.Name, j.ID, j.AppID, err)
	}
}
