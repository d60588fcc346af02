package sim

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The NodeManagers as the RM reports them (Cluster Nodes API): every node
// RUNNING unless Options.Nodes or PUT /sim/nodes/{n} says otherwise, each
// holding the containers of the running applications placed on it. A
// node that is not RUNNING or DECOMMISSIONING is out of the scheduler, as
// in YARN: it holds no container (they go to the next usable node), its
// resources leave the cluster's total, and the metrics count it where it
// belongs (lost, unhealthy, decommissioned, …).

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

var nodeStates = []string{NodeNew, NodeRunning, NodeUnhealthy, NodeDecommissioning, NodeDecommissioned, NodeLost, NodeRebooted, NodeShutdown}

// NodeHealth is what the RM reports of a NodeManager out of the ordinary:
// its state (one of the Node* constants) and health report.
type NodeHealth struct {
	State        string
	HealthReport string
}

// NodeCount is how many NodeManagers a cluster of these options has.
func (o Options) NodeCount() int { return 20 + o.Apps/4 }

// nodeStatus is what the simulator was told of a node, and since when.
type nodeStatus struct {
	state  string
	report string
	since  time.Time
}

// nodeState is node's state and health report, and since when.
func (y *yarnApps) nodeState(node int) nodeStatus {
	if h, ok := y.health[node]; ok {
		return h
	}
	return nodeStatus{state: NodeRunning}
}

// usable reports whether the scheduler places containers on node.
func (y *yarnApps) usable(node int) bool {
	s := y.nodeState(node).state
	return s == NodeRunning || s == NodeDecommissioning
}

// place is where a container drawn for node runs: there, or on the next
// usable node when it is out of the scheduler.
func (y *yarnApps) place(node int) int {
	for i := 0; i < y.nodes; i++ {
		if n := (node + i) % y.nodes; y.usable(n) {
			return n
		}
	}
	return node
}

// usableNodes counts the nodes in the scheduler.
func (y *yarnApps) usableNodes() int {
	n := y.nodes
	for node := range y.health {
		if !y.usable(node) {
			n--
		}
	}
	return n
}

// capacityMB is the cluster's memory: its usable nodes'.
func (y *yarnApps) capacityMB() int64 { return int64(y.usableNodes()) * nodeMB }

// containerNode is the node container num (1: the AM) of attempt at runs on.
func (y *yarnApps) containerNode(a *app, at *attempt, num int) int {
	if num <= 1 {
		return y.place(at.node)
	}
	return y.place(int(noise(a.seed, uint64(num*31+at.n))*float64(y.nodes)) % y.nodes)
}

// nodeUse is what runs on one node.
type nodeUse struct {
	containers int
	mb, vcores int64
}

// uses sums the containers of the running applications per node; the
// caller holds the cluster lock and has advanced every application.
func (y *yarnApps) uses() map[int]nodeUse {
	out := map[int]nodeUse{}
	for _, a := range y.order {
		n := a.containers()
		at := a.current()
		if n == 0 || at == nil {
			continue
		}
		for num := 1; num <= n; num++ {
			node := y.containerNode(a, at, num)
			u := out[node]
			u.containers++
			u.vcores++
			if num == 1 {
				u.mb += jmContainerMB
			} else {
				u.mb += tmContainerMB
			}
			out[node] = u
		}
	}
	return out
}

// setNodeState changes what the RM reports of node: its state and
// health report. Its containers move to usable nodes while it is out of
// the scheduler. The caller holds the cluster lock.
func (y *yarnApps) setNodeState(node int, h NodeHealth, now time.Time) error {
	if node < 0 || node >= y.nodes {
		return fmt.Errorf("set node state: node %d: %w (the cluster has nodes 0 to %d)", node, ErrNotFound, y.nodes-1)
	}
	state := strings.ToUpper(h.State)
	if !contains(nodeStates, state) {
		return fmt.Errorf("set node state: %q: %w (one of %s)", h.State, ErrInvalid, strings.Join(nodeStates, ", "))
	}
	if y.health == nil {
		y.health = map[int]nodeStatus{}
	}
	y.health[node] = nodeStatus{state: state, report: h.HealthReport, since: now}
	return nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// nodeJSON is one node of the Cluster Nodes API (ResourceManagerRest.md,
// "Elements of the node object").
type nodeJSON struct {
	Rack                  string          `json:"rack"`
	State                 string          `json:"state"`
	ID                    string          `json:"id"`
	NodeHostName          string          `json:"nodeHostName"`
	NodeHTTPAddress       string          `json:"nodeHTTPAddress"`
	LastHealthUpdate      int64           `json:"lastHealthUpdate"`
	Version               string          `json:"version"`
	HealthReport          string          `json:"healthReport"`
	NumContainers         int             `json:"numContainers"`
	UsedMemoryMB          int64           `json:"usedMemoryMB"`
	AvailMemoryMB         int64           `json:"availMemoryMB"`
	UsedVirtualCores      int64           `json:"usedVirtualCores"`
	AvailableVirtualCores int64           `json:"availableVirtualCores"`
	ResourceUtilization   nodeUtilization `json:"resourceUtilization"`
	TotalResource         nodeResource    `json:"totalResource"`
}

type nodeUtilization struct {
	NodePhysicalMemoryMB                 int64   `json:"nodePhysicalMemoryMB"`
	NodeVirtualMemoryMB                  int64   `json:"nodeVirtualMemoryMB"`
	NodeCPUUsage                         float64 `json:"nodeCPUUsage"`
	AggregatedContainersPhysicalMemoryMB int64   `json:"aggregatedContainersPhysicalMemoryMB"`
	AggregatedContainersVirtualMemoryMB  int64   `json:"aggregatedContainersVirtualMemoryMB"`
	ContainersCPUUsage                   float64 `json:"containersCPUUsage"`
}

type nodeResource struct {
	Memory int64 `json:"memory"`
	VCores int64 `json:"vCores"`
}

// renderNode is node as the RM reports it. A node out of the scheduler
// has no report there: nothing used, nothing available (RMWebServices
// leaves them 0), its total still its own.
func (api *rmAPI) renderNode(node int, u nodeUse, now time.Time) nodeJSON {
	id, httpAddr := api.nodeHost(node)
	h := api.yarn.nodeState(node)
	n := nodeJSON{Rack: fmt.Sprintf("/rack-%d", node/10+1), State: h.state, ID: id, NodeHostName: api.host,
		NodeHTTPAddress: httpAddr, LastHealthUpdate: now.UnixMilli(), Version: hadoopVersion, HealthReport: h.report,
		TotalResource: nodeResource{Memory: nodeMB, VCores: nodeVCores}}
	if !h.since.IsZero() && !api.yarn.usable(node) {
		n.LastHealthUpdate = h.since.UnixMilli()
	}
	if api.yarn.usable(node) {
		n.NumContainers, n.UsedMemoryMB, n.UsedVirtualCores = u.containers, u.mb, u.vcores
		n.AvailMemoryMB, n.AvailableVirtualCores = nodeMB-u.mb, nodeVCores-u.vcores
		// Containers use most of what they hold; the OS a little more.
		phys := u.mb*7/10 + 1024
		n.ResourceUtilization = nodeUtilization{NodePhysicalMemoryMB: phys, NodeVirtualMemoryMB: phys,
			NodeCPUUsage:                         round1(0.02+float64(u.vcores)/nodeVCores*0.6*100) / 100,
			AggregatedContainersPhysicalMemoryMB: u.mb * 7 / 10, AggregatedContainersVirtualMemoryMB: u.mb * 7 / 10,
			ContainersCPUUsage: round1(float64(u.vcores)/nodeVCores*0.6*100) / 100}
	}
	return n
}

// nodes is GET /ws/v1/cluster/nodes[?states=S1,S2]: every node (the RM
// lists every state when none is asked), in node order.
func (api *rmAPI) nodes(w http.ResponseWriter, r *http.Request) {
	want := map[string]bool{}
	for _, s := range strings.Split(r.URL.Query().Get("states"), ",") {
		s = strings.ToUpper(strings.TrimSpace(s))
		if s == "" {
			continue
		}
		if !contains(nodeStates, s) {
			writeRemoteException(w, http.StatusBadRequest, "BadRequestException", "org.apache.hadoop.yarn.webapp.BadRequestException",
				"java.lang.IllegalArgumentException: No enum constant org.apache.hadoop.yarn.api.records.NodeState."+s)
			return
		}
		want[s] = true
	}
	api.mu.Lock()
	now := api.clock.Now()
	for _, a := range api.yarn.order {
		api.yarn.advance(a, now)
	}
	uses := api.yarn.uses()
	var out []nodeJSON
	for node := 0; node < api.yarn.nodes; node++ {
		if len(want) == 0 || want[api.yarn.nodeState(node).state] {
			out = append(out, api.renderNode(node, uses[node], now))
		}
	}
	api.mu.Unlock()
	if len(out) == 0 {
		// Jersey writes an empty collection as null.
		writeJSON(w, http.StatusOK, map[string]any{"nodes": nil})
		return
	}
	writeJSON(w, http.StatusOK, map[string]map[string][]nodeJSON{"nodes": {"node": out}})
}

// node is GET /ws/v1/cluster/nodes/{id}.
func (api *rmAPI) node(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	api.mu.Lock()
	defer api.mu.Unlock()
	now := api.clock.Now()
	for node := 0; node < api.yarn.nodes; node++ {
		if nid, _ := api.nodeHost(node); nid == id {
			for _, a := range api.yarn.order {
				api.yarn.advance(a, now)
			}
			writeJSON(w, http.StatusOK, map[string]nodeJSON{"node": api.renderNode(node, api.yarn.uses()[node], now)})
			return
		}
	}
	writeRemoteException(w, http.StatusNotFound, "NotFoundException", "org.apache.hadoop.yarn.webapp.NotFoundException",
		"java.lang.Exception: nodeId, "+id+", is not found")
}

// nodeCounts are the metrics' node counts by state.
func (y *yarnApps) nodeCounts() map[string]int {
	out := map[string]int{}
	for node := 0; node < y.nodes; node++ {
		out[y.nodeState(node).state]++
	}
	return out
}
