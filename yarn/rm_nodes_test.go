package yarn

import (
	"context"
	"testing"
)

// TestNodesDocExampleDecodesWithoutLoss: the doc's Cluster Nodes API
// example (testdata/rm_nodes.json, ResourceManagerRest.md L5596) decodes
// with every field kept, states go as the RM's query parameter, and an
// empty list (Jersey's null) is no error.
func TestNodesDocExampleDecodesWithoutLoss(t *testing.T) {
	ctx := context.Background()
	f := newFake(t)
	f.json("GET", "/ws/v1/cluster/nodes", 200, fixture(t, "rm_nodes.json")).times(2)
	rm := newRM(t, fastOpts(), f.URL())
	ns, err := rm.Nodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	assertNoFieldLost(t, fixture(t, "rm_nodes.json"), at("nodes", "node"), ns)
	if len(ns) != 2 {
		t.Fatalf("%d nodes, want 2", len(ns))
	}
	n := ns[0]
	mustEqual(t, "state", n.State, NodeRunning)
	mustEqual(t, "id", n.ID, "host.domain.com:54158")
	mustEqual(t, "availMemoryMB", n.AvailMemoryMB, int64(8192))
	// The list example has no totalResource: used + available is the total.
	mustEqual(t, "total MB", n.TotalMB(), int64(8192))
	mustEqual(t, "total vcores", n.TotalVCores(), int64(8))
	if q := f.lastQuery("GET", "/ws/v1/cluster/nodes"); q != "" {
		t.Errorf("no states asked, query %q", q)
	}
	if _, err := rm.Nodes(ctx, NodeUnhealthy, NodeLost); err != nil {
		t.Fatal(err)
	}
	if q := f.lastQuery("GET", "/ws/v1/cluster/nodes"); q != "states=UNHEALTHY%2CLOST" {
		t.Errorf("states query %q", q)
	}

	empty := newFake(t)
	empty.json("GET", "/ws/v1/cluster/nodes", 200, `{"nodes":null}`)
	ns, err = newRM(t, fastOpts(), empty.URL()).Nodes(ctx, NodeShutdown)
	if err != nil || len(ns) != 0 {
		t.Errorf("no node: %v, %v", ns, err)
	}
}
