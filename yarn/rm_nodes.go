package yarn

import (
	"context"
	"net/url"
	"strings"
)

// Node states of the Cluster Nodes API.
const (
	NodeNew             = "NEW"
	NodeRunning         = "RUNNING"
	NodeUnhealthy       = "UNHEALTHY"
	NodeDecommissioning = "DECOMMISSIONING"
	NodeDecommissioned  = "DECOMMISSIONED"
	NodeLost            = "LOST"
	NodeRebooted        = "REBOOTED"
	NodeShutdown        = "SHUTDOWN"
)

// Node is one NodeManager as the RM reports it (ResourceManagerRest.md,
// "Elements of the node object"). A node out of the scheduler (lost,
// unhealthy, decommissioned) reports nothing used and nothing available.
type Node struct {
	Rack                  string              `json:"rack"`
	State                 string              `json:"state"`
	ID                    string              `json:"id"`
	NodeHostName          string              `json:"nodeHostName"`
	NodeHTTPAddress       string              `json:"nodeHTTPAddress"`
	LastHealthUpdate      int64               `json:"lastHealthUpdate"` // ms since the epoch
	Version               string              `json:"version"`
	HealthReport          string              `json:"healthReport"`
	NumContainers         int                 `json:"numContainers"`
	UsedMemoryMB          int64               `json:"usedMemoryMB"`
	AvailMemoryMB         int64               `json:"availMemoryMB"`
	UsedVirtualCores      int64               `json:"usedVirtualCores"`
	AvailableVirtualCores int64               `json:"availableVirtualCores"`
	ResourceUtilization   NodeUtilization     `json:"resourceUtilization"`
	TotalResource         *NodeTotalResources `json:"totalResource,omitempty"`
}

// NodeUtilization is what a node's processes use of the machine.
type NodeUtilization struct {
	NodePhysicalMemoryMB                 int64   `json:"nodePhysicalMemoryMB"`
	NodeVirtualMemoryMB                  int64   `json:"nodeVirtualMemoryMB"`
	NodeCPUUsage                         float64 `json:"nodeCPUUsage"`
	AggregatedContainersPhysicalMemoryMB int64   `json:"aggregatedContainersPhysicalMemoryMB"`
	AggregatedContainersVirtualMemoryMB  int64   `json:"aggregatedContainersVirtualMemoryMB"`
	ContainersCPUUsage                   float64 `json:"containersCPUUsage"`
}

// NodeTotalResources is a node's own memory (MB) and vcores; RMs before
// Hadoop 2.8 do not send it.
type NodeTotalResources struct {
	Memory int64 `json:"memory"`
	VCores int64 `json:"vCores"`
}

// TotalMB is the node's memory: its total resource when the RM sends it,
// else what is used and available on it.
func (n Node) TotalMB() int64 {
	if n.TotalResource != nil && n.TotalResource.Memory > 0 {
		return n.TotalResource.Memory
	}
	return n.UsedMemoryMB + n.AvailMemoryMB
}

// TotalVCores is the node's vcores, as TotalMB its memory.
func (n Node) TotalVCores() int64 {
	if n.TotalResource != nil && n.TotalResource.VCores > 0 {
		return n.TotalResource.VCores
	}
	return n.UsedVirtualCores + n.AvailableVirtualCores
}

// Nodes lists the cluster's NodeManagers; with states, only those in them
// (the RM lists every state when none is asked).
func (c *ResourceManager) Nodes(ctx context.Context, states ...string) ([]Node, error) {
	var q url.Values
	if len(states) > 0 {
		q = url.Values{"states": {strings.Join(states, ",")}}
	}
	var w struct {
		Nodes *struct {
			Node listOf[Node] `json:"node"`
		} `json:"nodes"`
	}
	if err := c.get(ctx, clusterPath+"nodes", q, "nodes", &w, nil); err != nil {
		return nil, err
	}
	if w.Nodes == nil {
		return nil, nil
	}
	return w.Nodes.Node, nil
}
