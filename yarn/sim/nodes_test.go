package sim

import (
	"net/http"
	"testing"
)

// The Cluster Nodes API (ResourceManagerRest.md): nodes.json is the doc's
// list example (L5596), node.json its single node (L5790).

type simNodes struct {
	Nodes *struct {
		Node []nodeJSON `json:"node"`
	} `json:"nodes"`
}

func listNodes(t *testing.T, url string) []nodeJSON {
	t.Helper()
	var got simNodes
	mustJSON(t, "GET", url, nil, 200, &got)
	if got.Nodes == nil {
		return nil
	}
	return got.Nodes.Node
}

func TestNodesHaveTheDocFields(t *testing.T) {
	o := Options{Seed: 11, Apps: 30}
	c := startCluster(t, o)
	rm := c.ActiveRMURL()
	none := map[string]bool{}
	// The list's example lacks totalResource, which the table lists.
	list := getAny(t, rm+"/ws/v1/cluster/nodes")
	shape(t, "nodes", list, fixture(t, "nodes.json"), map[string]bool{"totalResource": true}, none, true)
	ns := listNodes(t, rm+"/ws/v1/cluster/nodes")
	if len(ns) != o.NodeCount() || len(ns) == 0 {
		t.Fatalf("%d nodes listed, the cluster has %d", len(ns), o.NodeCount())
	}
	one := getAny(t, rm+"/ws/v1/cluster/nodes/"+ns[3].ID)
	shape(t, "node", one, fixture(t, "node.json"), none, none, true)
	mustJSON(t, "GET", rm+"/ws/v1/cluster/nodes/nowhere:1", nil, 404, nil)
	mustJSON(t, "GET", rm+"/ws/v1/cluster/nodes?states=SLEEPY", nil, 400, nil)
}

// TestNodesAddUpToTheMetrics: what the nodes hold is what the cluster
// metrics say is allocated, container for container, and each node's used
// and available make its total.
func TestNodesAddUpToTheMetrics(t *testing.T) {
	o := Options{Seed: 3, Apps: 40}
	c := startCluster(t, o)
	rm := c.ActiveRMURL()
	check := func(t *testing.T) {
		t.Helper()
		var m struct{ ClusterMetrics clusterMetrics }
		mustJSON(t, "GET", rm+"/ws/v1/cluster/metrics", nil, 200, &m)
		var containers int
		var mb, vcores, totalMB int64
		active := 0
		for _, n := range listNodes(t, rm+"/ws/v1/cluster/nodes") {
			containers += n.NumContainers
			mb += n.UsedMemoryMB
			vcores += n.UsedVirtualCores
			if n.State == NodeRunning || n.State == NodeDecommissioning {
				active++
				totalMB += n.TotalResource.Memory
				if n.UsedMemoryMB+n.AvailMemoryMB != n.TotalResource.Memory || n.UsedVirtualCores+n.AvailableVirtualCores != n.TotalResource.VCores {
					t.Errorf("node %s: used %d + available %d MB is not its total %d", n.ID, n.UsedMemoryMB, n.AvailMemoryMB, n.TotalResource.Memory)
				}
			} else if n.NumContainers != 0 || n.UsedMemoryMB != 0 || n.AvailMemoryMB != 0 {
				t.Errorf("node %s is %s but holds %d containers, %d MB used, %d available", n.ID, n.State, n.NumContainers, n.UsedMemoryMB, n.AvailMemoryMB)
			}
		}
		cm := m.ClusterMetrics
		if containers != cm.ContainersAllocated || mb != cm.AllocatedMB || vcores != cm.AllocatedVirtualCores {
			t.Errorf("the nodes hold %d containers, %d MB, %d vcores; the metrics say %d, %d, %d",
				containers, mb, vcores, cm.ContainersAllocated, cm.AllocatedMB, cm.AllocatedVirtualCores)
		}
		if active != cm.ActiveNodes || totalMB != cm.TotalMB {
			t.Errorf("%d active nodes with %d MB; the metrics say %d with %d", active, totalMB, cm.ActiveNodes, cm.TotalMB)
		}
		if containers == 0 {
			t.Error("no container runs anywhere")
		}
	}
	t.Run("all running", check)

	// Break three nodes through the admin API; their containers move on.
	for n, body := range map[int]string{
		1: `{"state":"UNHEALTHY","healthReport":"1/1 local-dirs usable space is below configured utilization percentage/no more usable space"}`,
		2: `{"state":"LOST"}`,
		4: `{"state":"DECOMMISSIONED","healthReport":"decommissioned by admin"}`,
	} {
		mustJSON(t, "PUT", rm+"/sim/nodes/"+itoa(int64(n)), body, 200, nil)
	}
	t.Run("three out", check)
	var m struct{ ClusterMetrics clusterMetrics }
	mustJSON(t, "GET", rm+"/ws/v1/cluster/metrics", nil, 200, &m)
	if cm := m.ClusterMetrics; cm.UnhealthyNodes != 1 || cm.LostNodes != 1 || cm.DecommissionedNodes != 1 || cm.ActiveNodes != o.NodeCount()-3 || cm.TotalNodes != o.NodeCount() {
		t.Errorf("metrics after three nodes went: %+v", cm)
	}
	bad := listNodes(t, rm+"/ws/v1/cluster/nodes?states=unhealthy,LOST")
	if len(bad) != 2 || bad[0].State != NodeUnhealthy || bad[1].State != NodeLost {
		t.Fatalf("states=unhealthy,LOST listed %+v", bad)
	}
	if bad[0].HealthReport == "" || bad[0].ID != c.logs.nodeID(1) {
		t.Errorf("the unhealthy node: %+v", bad[0])
	}
	if got := listNodes(t, rm+"/ws/v1/cluster/nodes?states=SHUTDOWN"); got != nil {
		t.Errorf("states=SHUTDOWN listed %d nodes", len(got))
	}
	mustJSON(t, "PUT", rm+"/sim/nodes/999", `{"state":"LOST"}`, http.StatusNotFound, nil)
	mustJSON(t, "PUT", rm+"/sim/nodes/3", `{"state":"ASLEEP"}`, http.StatusBadRequest, nil)
}

// TestNodesOutOfServiceFromTheStart: Options.Nodes starts a cluster with
// nodes out of service, and refuses a node or a state it does not have.
func TestNodesOutOfServiceFromTheStart(t *testing.T) {
	o := Options{Seed: 5, Apps: 8, Nodes: map[int]NodeHealth{7: {State: NodeUnhealthy, HealthReport: "disk full"}}}
	c := startCluster(t, o)
	bad := listNodes(t, c.ActiveRMURL()+"/ws/v1/cluster/nodes?states=UNHEALTHY")
	if len(bad) != 1 || bad[0].ID != c.logs.nodeID(7) || bad[0].HealthReport != "disk full" {
		t.Errorf("unhealthy nodes: %+v", bad)
	}
	for _, n := range []map[int]NodeHealth{{o.NodeCount(): {State: NodeLost}}, {1: {State: "ASLEEP"}}} {
		if _, err := New(Options{Apps: 8, Nodes: n}); err == nil {
			t.Errorf("New took nodes %v", n)
		}
	}
}
