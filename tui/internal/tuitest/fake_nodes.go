package tuitest

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/palink/palink/core/api"
)

// ClusterNodes implements api.Service: the cluster's nodes as f.Nodes has
// them, in core's order (the ones out of service first).
func (f *Fake) ClusterNodes(ctx context.Context, cluster string) ([]api.ClusterNode, error) {
	f.record("ClusterNodes %s", cluster)
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	ns, ok := f.Nodes[cluster]
	if !ok {
		return nil, fmt.Errorf("list the nodes of cluster %s: not found", cluster)
	}
	return slices.Clone(ns), nil
}

// fixtureNodes are prod's nine NodeManagers, which add up to its overview's
// metrics (six active with 48 GiB and 24 vcores used of 96 GiB and 48, one
// unhealthy), plus a lost and a decommissioned one; and staging's two.
func fixtureNodes(ago func(time.Duration) time.Time) map[string][]api.ClusterNode {
	const mb, vc = 16384, 8
	run := func(host string, containers int, usedMB, usedVC int64) api.ClusterNode {
		return api.ClusterNode{ID: host + ":45454", Host: host, Rack: "/rack-1", State: "RUNNING", LastHealthUpdate: ago(3 * time.Second),
			Containers: containers, MemoryUsedMB: usedMB, MemoryTotalMB: mb, VCoresUsed: usedVC, VCoresTotal: vc, Version: "3.3.6"}
	}
	out := func(host, state, report string, since time.Duration) api.ClusterNode {
		return api.ClusterNode{ID: host + ":45454", Host: host, Rack: "/rack-2", State: state, HealthReport: report,
			LastHealthUpdate: ago(since), MemoryTotalMB: mb, VCoresTotal: vc, Version: "3.3.6"}
	}
	return map[string][]api.ClusterNode{
		"prod": {
			out("node7.prod", "UNHEALTHY", "1/1 local-dirs usable space is below configured utilization percentage/no more usable space [ /data/yarn/local : used space above threshold of 90.0% ]", 10*time.Minute),
			out("node8.prod", "LOST", "", 2*time.Hour),
			out("node10.prod", "DECOMMISSIONED", "", 26*time.Hour),
			run("node1.prod", 4, 16384, 8),
			run("node2.prod", 3, 12288, 6),
			run("node3.prod", 2, 8192, 4),
			run("node4.prod", 2, 8192, 4),
			run("node5.prod", 1, 4096, 2),
			run("node9.prod", 0, 0, 0),
		},
		"staging": {
			run("stg1.staging", 1, 4096, 2),
			run("stg2.staging", 1, 4096, 2),
		},
	}
}
