package sim

import (
	"math"
	"net/http"
	"strings"
)

// The RM's cluster metrics and its capacity scheduler: a fixed queue tree
// whose usage is summed from the applications.

// clusterMetrics is {"clusterMetrics":{…}} (Cluster Metrics API).
type clusterMetrics struct {
	AppsSubmitted         int   `json:"appsSubmitted"`
	AppsCompleted         int   `json:"appsCompleted"`
	AppsPending           int   `json:"appsPending"`
	AppsRunning           int   `json:"appsRunning"`
	AppsFailed            int   `json:"appsFailed"`
	AppsKilled            int   `json:"appsKilled"`
	ReservedMB            int64 `json:"reservedMB"`
	AvailableMB           int64 `json:"availableMB"`
	AllocatedMB           int64 `json:"allocatedMB"`
	ReservedVirtualCores  int64 `json:"reservedVirtualCores"`
	AvailableVirtualCores int64 `json:"availableVirtualCores"`
	AllocatedVirtualCores int64 `json:"allocatedVirtualCores"`
	ContainersAllocated   int   `json:"containersAllocated"`
	ContainersReserved    int   `json:"containersReserved"`
	ContainersPending     int   `json:"containersPending"`
	TotalMB               int64 `json:"totalMB"`
	TotalVirtualCores     int64 `json:"totalVirtualCores"`
	TotalNodes            int   `json:"totalNodes"`
	LostNodes             int   `json:"lostNodes"`
	UnhealthyNodes        int   `json:"unhealthyNodes"`
	DecommissioningNodes  int   `json:"decommissioningNodes"`
	DecommissionedNodes   int   `json:"decommissionedNodes"`
	RebootedNodes         int   `json:"rebootedNodes"`
	ActiveNodes           int   `json:"activeNodes"`
	ShutdownNodes         int   `json:"shutdownNodes"`
}

// metrics is GET /ws/v1/cluster/metrics.
func (api *rmAPI) metrics(w http.ResponseWriter, r *http.Request) {
	api.mu.Lock()
	now := api.clock.Now()
	// Active counts the nodes in the scheduler (a decommissioning one
	// still runs containers); the others are counted by their state, and
	// only the active ones' resources make the cluster's total.
	byState := api.yarn.nodeCounts()
	m := clusterMetrics{TotalNodes: api.yarn.nodes, ActiveNodes: byState[NodeRunning] + byState[NodeDecommissioning],
		LostNodes: byState[NodeLost], UnhealthyNodes: byState[NodeUnhealthy], DecommissioningNodes: byState[NodeDecommissioning],
		DecommissionedNodes: byState[NodeDecommissioned], RebootedNodes: byState[NodeRebooted], ShutdownNodes: byState[NodeShutdown],
		TotalMB: api.yarn.capacityMB(), TotalVirtualCores: int64(api.yarn.usableNodes()) * nodeVCores}
	for _, a := range api.yarn.order {
		api.yarn.advance(a, now)
		m.AppsSubmitted++
		switch a.state {
		case yarnFinished:
			m.AppsCompleted++
		case yarnFailed:
			m.AppsFailed++
		case yarnKilled:
			m.AppsKilled++
		case yarnRunning:
			m.AppsRunning++
		default:
			m.AppsPending++
		}
		n := a.containers()
		m.ContainersAllocated += n
		m.AllocatedMB += a.allocatedMB()
		m.AllocatedVirtualCores += int64(n)
	}
	api.mu.Unlock()
	m.AvailableMB = m.TotalMB - m.AllocatedMB
	m.AvailableVirtualCores = m.TotalVirtualCores - m.AllocatedVirtualCores
	writeJSON(w, http.StatusOK, map[string]clusterMetrics{"clusterMetrics": m})
}

// queueDef is one queue of the simulated capacity scheduler.
type queueDef struct {
	name     string
	capacity float64 // percent of parent
	max      float64
	children []*queueDef
}

var rootQueue = &queueDef{name: "root", capacity: 100, max: 100, children: []*queueDef{
	{name: "default", capacity: 30, max: 100},
	{name: "streaming", capacity: 60, max: 100, children: []*queueDef{
		{name: "prod", capacity: 70, max: 100},
		{name: "dev", capacity: 30, max: 50},
	}},
	{name: "adhoc", capacity: 10, max: 40},
}}

// queueLeaf accepts a leaf name or a full path ("root.streaming.prod").
func queueLeaf(q string) string {
	if i := strings.LastIndex(q, "."); i >= 0 {
		return q[i+1:]
	}
	return q
}

func leafQueue(q string) bool {
	var find func(d *queueDef) bool
	find = func(d *queueDef) bool {
		if len(d.children) == 0 {
			return d.name == queueLeaf(q)
		}
		for _, ch := range d.children {
			if find(ch) {
				return true
			}
		}
		return false
	}
	return find(rootQueue)
}

// queueShare is a leaf's absolute capacity as a fraction of the cluster.
func queueShare(leaf string) float64 {
	var walk func(d *queueDef, abs float64) float64
	walk = func(d *queueDef, abs float64) float64 {
		abs *= d.capacity / 100
		if len(d.children) == 0 {
			if d.name == leaf {
				return abs
			}
			return 0
		}
		for _, ch := range d.children {
			if v := walk(ch, abs); v > 0 {
				return v
			}
		}
		return 0
	}
	if s := walk(rootQueue, 1); s > 0 {
		return s
	}
	return 1
}

type resources struct {
	Memory int64 `json:"memory"`
	VCores int64 `json:"vCores"`
}

// queueJSON is a capacity-scheduler queue; leaf-only fields are omitted for parents.
type queueJSON struct {
	Type                   string         `json:"type,omitempty"`
	QueuePath              string         `json:"queuePath"`
	Capacity               float64        `json:"capacity"`
	UsedCapacity           float64        `json:"usedCapacity"`
	MaxCapacity            float64        `json:"maxCapacity"`
	AbsoluteCapacity       float64        `json:"absoluteCapacity"`
	AbsoluteMaxCapacity    float64        `json:"absoluteMaxCapacity"`
	AbsoluteUsedCapacity   float64        `json:"absoluteUsedCapacity"`
	Weight                 float64        `json:"weight"`
	NormalizedWeight       float64        `json:"normalizedWeight"`
	NumApplications        int            `json:"numApplications"`
	MaxParallelApps        int            `json:"maxParallelApps"`
	QueueName              string         `json:"queueName"`
	IsAbsoluteResource     bool           `json:"isAbsoluteResource"`
	State                  string         `json:"state"`
	ResourcesUsed          resources      `json:"resourcesUsed"`
	Mode                   string         `json:"mode"`
	QueueType              string         `json:"queueType"`
	CreationMethod         string         `json:"creationMethod"`
	Queues                 *queueList     `json:"queues,omitempty"`
	NumActiveApplications  *int           `json:"numActiveApplications,omitempty"`
	NumPendingApplications *int           `json:"numPendingApplications,omitempty"`
	NumContainers          *int           `json:"numContainers,omitempty"`
	AllocatedContainers    *int           `json:"allocatedContainers,omitempty"`
	ReservedContainers     *int           `json:"reservedContainers,omitempty"`
	PendingContainers      *int           `json:"pendingContainers,omitempty"`
	MaxApplications        *int           `json:"maxApplications,omitempty"`
	MaxApplicationsPerUser *int           `json:"maxApplicationsPerUser,omitempty"`
	UserLimit              *int           `json:"userLimit,omitempty"`
	UserLimitFactor        *float64       `json:"userLimitFactor,omitempty"`
	Users                  map[string]any `json:"users,omitempty"`
	NodeLabels             []string       `json:"nodeLabels,omitempty"`
}

type queueList struct {
	Queue []queueJSON `json:"queue"`
}

type schedulerInfo struct {
	Type               string    `json:"type"`
	Capacity           float64   `json:"capacity"`
	UsedCapacity       float64   `json:"usedCapacity"`
	MaxCapacity        float64   `json:"maxCapacity"`
	Weight             float64   `json:"weight"`
	NormalizedWeight   float64   `json:"normalizedWeight"`
	QueueName          string    `json:"queueName"`
	QueuePath          string    `json:"queuePath"`
	MaxParallelApps    int       `json:"maxParallelApps"`
	IsAbsoluteResource bool      `json:"isAbsoluteResource"`
	Queues             queueList `json:"queues"`
	Mode               string    `json:"mode"`
	QueueType          string    `json:"queueType"`
	CreationMethod     string    `json:"creationMethod"`
}

type queueUse struct {
	apps, active, pending, containers int
	mb                                int64
}

// scheduler is GET /ws/v1/cluster/scheduler: the capacity scheduler's queue
// tree with each leaf's usage.
func (api *rmAPI) scheduler(w http.ResponseWriter, r *http.Request) {
	api.mu.Lock()
	now := api.clock.Now()
	use := map[string]*queueUse{}
	for _, a := range api.yarn.order {
		api.yarn.advance(a, now)
		if yarnFinal(a.state) {
			continue
		}
		u := use[a.queue]
		if u == nil {
			u = &queueUse{}
			use[a.queue] = u
		}
		u.apps++
		if a.state == yarnRunning {
			u.active++
		} else {
			u.pending++
		}
		u.containers += a.containers()
		u.mb += a.allocatedMB()
	}
	total := float64(api.yarn.capacityMB())
	api.mu.Unlock()

	var build func(d *queueDef, path string, absCap, absMax float64) (queueJSON, queueUse)
	build = func(d *queueDef, path string, absCap, absMax float64) (queueJSON, queueUse) {
		path += "." + d.name
		absCap *= d.capacity / 100
		absMax *= d.max / 100
		q := queueJSON{QueuePath: path, QueueName: d.name, Capacity: d.capacity, MaxCapacity: d.max,
			AbsoluteCapacity: round1(absCap * 100), AbsoluteMaxCapacity: round1(absMax * 100), Weight: -1,
			MaxParallelApps: math.MaxInt32, State: "RUNNING", Mode: "percentage", CreationMethod: "static"}
		var sum queueUse
		if len(d.children) > 0 {
			q.QueueType = "parent"
			q.Queues = &queueList{}
			for _, ch := range d.children {
				cq, cu := build(ch, path, absCap, absMax)
				q.Queues.Queue = append(q.Queues.Queue, cq)
				sum.apps += cu.apps
				sum.containers += cu.containers
				sum.mb += cu.mb
			}
		} else {
			q.Type, q.QueueType = "capacitySchedulerLeafQueueInfo", "leaf"
			if u := use[d.name]; u != nil {
				sum = *u
			}
			zero, maxApps, limit, factor := 0, int(10000*absCap), 100, 1.0
			active, pending, containers := sum.active, sum.pending, sum.containers
			q.NumActiveApplications, q.NumPendingApplications, q.NumContainers = &active, &pending, &containers
			q.AllocatedContainers, q.ReservedContainers, q.PendingContainers = &containers, &zero, &zero
			q.MaxApplications, q.MaxApplicationsPerUser, q.UserLimit, q.UserLimitFactor = &maxApps, &maxApps, &limit, &factor
			q.Users = map[string]any{}
			q.NodeLabels = []string{"*"}
		}
		q.NumApplications = sum.apps
		q.ResourcesUsed = resources{Memory: sum.mb, VCores: int64(sum.containers)}
		q.AbsoluteUsedCapacity = round1(float64(sum.mb) / total * 100)
		if absCap > 0 {
			q.UsedCapacity = round1(float64(sum.mb) / (total * absCap) * 100)
		}
		return q, sum
	}
	si := schedulerInfo{Type: "capacityScheduler", Capacity: 100, MaxCapacity: 100, Weight: -1,
		QueueName: "root", QueuePath: "root", MaxParallelApps: math.MaxInt32, Mode: "percentage",
		QueueType: "parent", CreationMethod: "static"}
	var used int64
	for _, ch := range rootQueue.children {
		q, u := build(ch, "root", 1, 1)
		si.Queues.Queue = append(si.Queues.Queue, q)
		used += u.mb
	}
	si.UsedCapacity = round1(float64(used) / total * 100)
	writeJSON(w, http.StatusOK, map[string]map[string]schedulerInfo{"scheduler": {"schedulerInfo": si}})
}
