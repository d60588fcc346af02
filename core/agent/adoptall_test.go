package agent_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestAdoptAllThroughTheAgent: 5,000 running applications no palink
// deployed, half of them sharing a YARN name with another, are adopted
// by one call through the agent's socket: every one a job in
// DEPLOY_SUCCEEDED owning its application, names made unique in the
// applications' id order, a few transactions, none adopted twice; the
// filters select by queue and user, and a dry run writes nothing.
func TestAdoptAllThroughTheAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	e := coretest.New(t, sim.Options{}, nil)
	r := serveAgent(t, e, agent.Roles{})
	const apps = 5000
	for i := 0; i < apps; i++ {
		name := fmt.Sprintf("etl-%d", i/2) // two applications per name
		queue, user := "default", "flink"
		if i%10 == 0 {
			queue, user = "adhoc", "ana"
		}
		if _, err := e.Sim.Submit(e.Ctx, sim.SubmitRequest{Name: name, Queue: queue, User: user}); err != nil {
			t.Fatal(err)
		}
	}
	dry, err := r.AdoptAll(e.Ctx, api.AdoptAllRequest{Cluster: "sim", Queue: "adhoc", User: "ana", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(dry.Adopted) != apps/10 || !dry.DryRun || dry.Transactions != 0 {
		t.Fatalf("dry run of queue adhoc, user ana: %d applications, %d transactions; want %d, none", len(dry.Adopted), dry.Transactions, apps/10)
	}
	if jobs, _ := r.ListJobs(e.Ctx, api.JobFilter{}); len(jobs) != 0 {
		t.Fatalf("a dry run made %d jobs", len(jobs))
	}
	start := time.Now()
	res, err := r.AdoptAll(e.Ctx, api.AdoptAllRequest{Cluster: "sim"})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("adopted %d applications in %s (%.0f/s), %d transactions", len(res.Adopted), took, float64(len(res.Adopted))/took.Seconds(), res.Transactions)
	if len(res.Adopted) != apps || res.Transactions > apps/500+1 {
		t.Fatalf("adopted %d of %d in %d transactions", len(res.Adopted), apps, res.Transactions)
	}
	// Names: the first of each pair (by application id) keeps it, the
	// second gets -2.
	seen := map[string]bool{}
	for i, a := range res.Adopted {
		want := fmt.Sprintf("etl-%d", i/2)
		if i%2 == 1 {
			want += "-2"
		}
		if a.Name != want || seen[a.AppID] {
			t.Fatalf("application %d (%s) adopted as %q, want %q", i, a.AppID, a.Name, want)
		}
		seen[a.AppID] = true
	}
	jobs, err := r.ListJobs(e.Ctx, api.JobFilter{})
	if err != nil {
		t.Fatal(err)
	}
	owners := map[string]int{}
	for _, j := range jobs {
		if j.State != model.StateDeploySucceeded {
			t.Fatalf("job %s is %s, want DEPLOY_SUCCEEDED", j.Name, j.State)
		}
		owners[j.AppID]++
	}
	if len(jobs) != apps || len(owners) != apps {
		t.Fatalf("%d jobs owning %d applications, want %d each", len(jobs), len(owners), apps)
	}
	// Again: nothing left to adopt.
	again, err := r.AdoptAll(e.Ctx, api.AdoptAllRequest{Cluster: "sim"})
	if err != nil || len(again.Adopted) != 0 {
		t.Fatalf("adopting again: %d adopted, %v; want none", len(again.Adopted), err)
	}
}
