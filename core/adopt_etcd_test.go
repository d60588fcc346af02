package core_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// TestAdoptAllOnEtcd: bulk adoption into a store on etcd, whose
// transactions take 128 operations (~15 adoptions): 700 applications are
// all adopted, each by one job, in batches that fit — after the first
// batch is split down to a size etcd takes, the next start at that size
// instead of being built and refused again.
func TestAdoptAllOnEtcd(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cl, err := sim.New(sim.Options{Seed: 1, Speed: 600})
	if err != nil {
		t.Fatal(err)
	}
	if err := cl.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	const apps = 700
	for i := range apps {
		if _, err := cl.Submit(ctx, sim.SubmitRequest{Name: fmt.Sprintf("etl-%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	l, err := core.Open(store.EtcdScheme+strings.Join(c.Endpoints(), ",")+"/adopt", core.Options{NoJitter: true,
		Clusters: []clusters.Spec{{Name: "sim", RM: cl.RMURLs(), SQLGateway: cl.GatewayURL()}}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	res, err := l.AdoptAll(ctx, api.AdoptAllRequest{Cluster: "sim"})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := l.ListJobs(ctx, api.JobFilter{})
	if err != nil {
		t.Fatal(err)
	}
	owners := map[string]int{}
	for _, j := range jobs {
		owners[j.AppID]++
	}
	if len(res.Adopted) != apps || len(jobs) != apps || len(owners) != apps {
		t.Fatalf("adopted %d, %d jobs owning %d applications; want %d each", len(res.Adopted), len(jobs), len(owners), apps)
	}
	// An adoption writes 8 keys, so etcd takes 16 a transaction. The first
	// batch of 500 halves down to leaves of 15 and 16 (63 tries); the
	// other 200 then go 15 at a time (14), where halving them too would
	// take 31 more.
	first, fit := halvings(500, store.DefaultEtcdMaxTxnOps/8)
	rest, _ := halvings(200, store.DefaultEtcdMaxTxnOps/8)
	if want := first + ceilDiv(200, fit); res.Transactions != want {
		t.Errorf("%d transactions for %d adoptions, want %d (halving every batch: %d)", res.Transactions, apps, want, first+rest)
	}
}

// halvings is how many transactions a batch of n takes when each refused
// one is halved until it holds at most max, and the smallest that held.
func halvings(n, max int) (tries, smallest int) {
	if n <= max {
		return 1, n
	}
	t1, s1 := halvings(n/2, max)
	t2, s2 := halvings(n-n/2, max)
	return 1 + t1 + t2, min(s1, s2)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
