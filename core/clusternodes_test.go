package core_test

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/yarn/sim"
)

// TestClusterNodesPutTroubleFirst: the nodes of the simulated cluster, the
// ones out of service first (unhealthy, then lost, then decommissioned)
// with their health report, then the running ones by id; what the
// running ones hold adds up to the overview's memory.
func TestClusterNodesPutTroubleFirst(t *testing.T) {
	// A stopped clock: the two reads see one moment.
	o := sim.Options{Apps: 12, Clock: sim.NewManualClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)), Nodes: map[int]sim.NodeHealth{
		9: {State: sim.NodeDecommissioned},
		3: {State: sim.NodeLost},
		6: {State: sim.NodeUnhealthy, HealthReport: "1/1 local-dirs are bad: /data/yarn/local"},
	}}
	e := coretest.New(t, o, nil)
	ns, err := e.Svc.ClusterNodes(e.Ctx, "sim")
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != o.NodeCount() {
		t.Fatalf("%d nodes, the simulator has %d", len(ns), o.NodeCount())
	}
	var states []string
	for _, n := range ns[:4] {
		states = append(states, n.State)
	}
	if got := strings.Join(states, " "); got != "UNHEALTHY LOST DECOMMISSIONED RUNNING" {
		t.Errorf("the first nodes are %s", got)
	}
	if ns[0].HealthReport != "1/1 local-dirs are bad: /data/yarn/local" || ns[0].Containers != 0 || ns[0].MemoryTotalMB == 0 || ns[0].LastHealthUpdate.IsZero() {
		t.Errorf("the unhealthy node: %+v", ns[0])
	}
	ov, err := e.Svc.ClusterOverview(e.Ctx, "sim")
	if err != nil {
		t.Fatal(err)
	}
	var used, total int64
	for i, n := range ns[3:] {
		used, total = used+n.MemoryUsedMB, total+n.MemoryTotalMB
		if i > 0 && ns[3+i-1].ID > n.ID {
			t.Errorf("running nodes out of order: %s before %s", ns[3+i-1].ID, n.ID)
		}
	}
	if used == 0 {
		t.Error("no container runs on any node")
	}
	if used != ov.Metrics.MemoryUsedMB || total != ov.Metrics.MemoryTotalMB || ov.Metrics.UnhealthyNodes != 1 {
		t.Errorf("running nodes use %d of %d MB; the overview says %d of %d, %d unhealthy", used, total, ov.Metrics.MemoryUsedMB, ov.Metrics.MemoryTotalMB, ov.Metrics.UnhealthyNodes)
	}
	if _, err := e.Svc.ClusterNodes(e.Ctx, "nowhere"); err == nil || !strings.Contains(err.Error(), `cluster "nowhere": not configured`) {
		t.Errorf("nodes of an unknown cluster: %v", err)
	}
}
