package core_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// CreateJobs (the demo's large fleet, issue 28) writes a batch of jobs to
// a transaction, each job as CreateJob writes it, and tells watchers of
// every one.
func TestCreateJobsWritesABatchATransaction(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	const n = 1200
	var counter *countingStore
	f := newRetainedFleet(t, 0, nil, nil, func(o *core.Options) {
		counter = &countingStore{Store: o.Store}
		o.Store = counter
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changes, err := f.svc.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rs := make([]api.CreateJobRequest, n)
	for i := range rs {
		rs[i] = api.CreateJobRequest{Name: fmt.Sprintf("fleet-%d", i), Cluster: "sim", Kind: model.KindSQL,
			Spec: model.Spec{SQL: fmt.Sprintf("INSERT INTO sink SELECT %d FROM src;", i)}, Parallelism: 2, Issuer: "demo"}
	}
	before := counter.updates.Load()
	created, err := f.svc.CreateJobs(ctx, rs)
	if err != nil {
		t.Fatal(err)
	}
	if got := counter.updates.Load() - before; got != 3 {
		t.Errorf("%d jobs in %d write transactions, want 3 (500 a transaction)", n, got)
	}
	if len(created) != n || created[0].Name != "fleet-0" || created[n-1].Name != fmt.Sprintf("fleet-%d", n-1) {
		t.Fatalf("created %d jobs, want %d in the order asked", len(created), n)
	}
	jobs, err := f.svc.ListJobs(ctx, api.JobFilter{})
	if err != nil || len(jobs) != n {
		t.Fatalf("%d jobs listed (%v), want %d", len(jobs), err, n)
	}
	// Each as CreateJob makes it: a draft with its script, its first
	// history entry, its audit.
	d, err := f.svc.Job(ctx, "fleet-777")
	if err != nil {
		t.Fatal(err)
	}
	if d.Job.State != model.StateNone || d.Job.Parallelism != 2 || d.Spec.SQL != rs[777].Spec.SQL || d.Spec.Author != "demo" ||
		len(d.Events) != 1 || d.Events[0].Reason != "created by demo (SQL v1)" {
		t.Errorf("fleet-777: %s, parallelism %d, spec %+v, events %+v", d.Job.State, d.Job.Parallelism, d.Spec, d.Events)
	}
	seen := map[string]bool{}
	timeout := time.After(time.Minute)
	for len(seen) < n {
		select {
		case c := <-changes:
			if c.Kind == api.JobChanged && c.Job != nil && c.Event != nil {
				seen[c.Job.Name] = true
			}
		case <-timeout:
			t.Fatalf("watchers were told of %d of the %d jobs", len(seen), n)
		}
	}

	// Every request is checked before anything is written.
	before = counter.updates.Load()
	bad := []api.CreateJobRequest{rs[0], {Name: "elsewhere", Cluster: "nowhere", Kind: model.KindSQL, Spec: model.Spec{SQL: "x"}}}
	bad[0].Name = "fresh"
	if _, err := f.svc.CreateJobs(ctx, bad); err == nil || !strings.Contains(err.Error(), `unknown cluster "nowhere"`) {
		t.Errorf("a request of an unknown cluster: %v", err)
	}
	twice := []api.CreateJobRequest{bad[0], bad[0]}
	if _, err := f.svc.CreateJobs(ctx, twice); !errors.Is(err, store.ErrExists) {
		t.Errorf("a name given twice: %v, want ErrExists", err)
	}
	if got := counter.updates.Load() - before; got != 0 {
		t.Errorf("refused requests opened %d write transactions", got)
	}
	// A name taken in the store refuses its batch, and says which.
	if _, err := f.svc.CreateJobs(ctx, []api.CreateJobRequest{bad[0], rs[5]}); err == nil || !strings.Contains(err.Error(), "fleet-5") {
		t.Errorf("a taken name: %v", err)
	}
	if _, err := f.svc.Job(ctx, "fresh"); err == nil {
		t.Error("the batch with a taken name was written in part")
	}
}
