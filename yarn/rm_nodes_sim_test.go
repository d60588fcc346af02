package yarn_test

import (
	"context"
	"testing"

	"github.com/palink/palink/yarn"
	"github.com/palink/palink/yarn/sim"
)

// TestNodesFromTheSimulator: the client lists every NodeManager of the
// simulated cluster with what runs on it, a broken node with its state
// and health report, and only the nodes of the states asked.
func TestNodesFromTheSimulator(t *testing.T) {
	o := sim.Options{Seed: 7, Apps: 20, Nodes: map[int]sim.NodeHealth{
		5: {State: sim.NodeUnhealthy, HealthReport: "1/1 log-dirs are bad: /var/log/hadoop-yarn/containers"}}}
	c := startSim(t, o)
	rm, err := yarn.NewResourceManager([]string{c.ActiveRMURL()}, quick())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ns, err := rm.Nodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != o.NodeCount() {
		t.Fatalf("%d nodes, the simulator has %d", len(ns), o.NodeCount())
	}
	m, err := rm.ClusterMetrics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var containers int
	var used int64
	for _, n := range ns {
		containers += n.NumContainers
		used += n.UsedMemoryMB
	}
	if containers != m.ContainersAllocated || used != m.AllocatedMB {
		t.Errorf("nodes hold %d containers and %d MB, the metrics say %d and %d", containers, used, m.ContainersAllocated, m.AllocatedMB)
	}
	bad, err := rm.Nodes(ctx, yarn.NodeUnhealthy)
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 1 || bad[0].HealthReport != "1/1 log-dirs are bad: /var/log/hadoop-yarn/containers" || bad[0].NumContainers != 0 || bad[0].TotalMB() != 65536 {
		t.Errorf("unhealthy nodes: %+v", bad)
	}
}
