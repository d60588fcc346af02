package core

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/yarn"
)

// nodeLister is the part of Local that lists a cluster's YARN nodes:
// the RM's word, ordered for a person.
type nodeLister struct {
	specs    []clusters.Spec
	clusters map[string]*clusters.Cluster
	now      func() time.Time
}

// ClusterNodes implements Service: the RM's nodes, the ones out of service
// first (nodeOrder).
func (l nodeLister) ClusterNodes(ctx context.Context, name string) ([]api.ClusterNode, error) {
	cl := l.clusters[name]
	if cl == nil {
		return nil, fmt.Errorf("list the nodes of cluster %q: not configured (known: %s)", name, strings.Join(clusterNames(l.specs), ", "))
	}
	ns, err := cl.RM.Nodes(ctx)
	cl.Observe(err, l.now())
	if err != nil {
		return nil, fmt.Errorf("list the nodes of cluster %s: %w", name, err)
	}
	out := make([]api.ClusterNode, 0, len(ns))
	for _, n := range ns {
		out = append(out, clusterNode(n))
	}
	slices.SortStableFunc(out, nodeOrder)
	return out, nil
}

func clusterNode(n yarn.Node) api.ClusterNode {
	c := api.ClusterNode{ID: n.ID, Host: n.NodeHostName, Rack: n.Rack, State: n.State, HealthReport: n.HealthReport,
		Containers: n.NumContainers, MemoryUsedMB: n.UsedMemoryMB, MemoryTotalMB: n.TotalMB(),
		VCoresUsed: n.UsedVirtualCores, VCoresTotal: n.TotalVCores(), Version: n.Version}
	if n.LastHealthUpdate > 0 {
		c.LastHealthUpdate = time.UnixMilli(n.LastHealthUpdate)
	}
	return c
}

// nodeTrouble ranks a node state by how much it needs a person: a node
// that fails its health checks or stopped answering first, then those
// leaving or gone, then the running ones.
func nodeTrouble(state string) int {
	switch state {
	case yarn.NodeUnhealthy:
		return 0
	case yarn.NodeLost:
		return 1
	case yarn.NodeDecommissioning:
		return 2
	case yarn.NodeDecommissioned, yarn.NodeShutdown, yarn.NodeRebooted:
		return 3
	case yarn.NodeRunning:
		return 5
	}
	return 4 // NEW, or a state palink does not know
}

// nodeOrder puts the nodes that need a person first, each rank by id, so
// a node keeps its place from one refresh to the next.
func nodeOrder(a, b api.ClusterNode) int {
	return cmp.Or(cmp.Compare(nodeTrouble(a.State), nodeTrouble(b.State)), strings.Compare(a.ID, b.ID))
}
