package core_test

import (
	"slices"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/yarn/sim"
)

// TestAdoptAllOnlyTheNamedApplications: AdoptAll with AppIDs (the cluster
// view's marked rows) adopts those applications and no other, in the dry
// run and for real, and still skips one a job already owns; an id that
// is not an unmanaged application of the cluster is simply not adopted.
func TestAdoptAllOnlyTheNamedApplications(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	var apps []string
	for _, name := range []string{"etl-a", "etl-b", "etl-c", "etl-d"} {
		sub, err := e.Sim.Submit(e.Ctx, sim.SubmitRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		apps = append(apps, sub.AppID)
	}
	owned, err := e.Svc.Adopt(e.Ctx, api.AdoptRequest{Cluster: "sim", AppID: apps[3], Name: "owned-d"})
	if err != nil {
		t.Fatal(err)
	}
	req := api.AdoptAllRequest{Cluster: "sim", AppIDs: []string{apps[2], apps[0], apps[3], "application_0_0"}, DryRun: true}
	adopted := func(res api.AdoptAllResult) []string {
		var out []string
		for _, a := range res.Adopted {
			out = append(out, a.AppID+" "+a.Name)
		}
		return out
	}
	want := []string{apps[0] + " etl-a", apps[2] + " etl-c"} // in id order; d is owned-d's
	dry, err := e.Svc.AdoptAll(e.Ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := adopted(dry); !slices.Equal(got, want) {
		t.Fatalf("dry run of %v: %v, want %v", req.AppIDs, got, want)
	}
	req.DryRun = false
	res, err := e.Svc.AdoptAll(e.Ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := adopted(res); !slices.Equal(got, want) {
		t.Fatalf("adopted %v, want %v", got, want)
	}
	jobs, err := e.Svc.ListJobs(e.Ctx, api.JobFilter{})
	if err != nil {
		t.Fatal(err)
	}
	byApp := map[string]string{}
	for _, j := range jobs {
		byApp[j.AppID] = j.Name
	}
	if len(jobs) != 3 || byApp[apps[1]] != "" || byApp[apps[3]] != owned.Name {
		t.Errorf("jobs after: %v; want etl-a, etl-c and owned-d, etl-b left alone", byApp)
	}
}
