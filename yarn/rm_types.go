package yarn

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"sync"
	"time"
)

// YARN application states (YarnApplicationState).
const (
	AppNew       = "NEW"
	AppNewSaving = "NEW_SAVING"
	AppSubmitted = "SUBMITTED"
	AppAccepted  = "ACCEPTED"
	AppRunning   = "RUNNING"
	AppFinished  = "FINISHED"
	AppFailed    = "FAILED"
	AppKilled    = "KILLED"
)

// Final application statuses (FinalApplicationStatus). ENDED is in the
// Hadoop source enum though not in the REST doc.
const (
	FinalUndefined = "UNDEFINED"
	FinalSucceeded = "SUCCEEDED"
	FinalFailed    = "FAILED"
	FinalKilled    = "KILLED"
	FinalEnded     = "ENDED"
)

// AppStateFinal reports whether a YARN application state is terminal.
func AppStateFinal(state string) bool {
	switch strings.ToUpper(state) {
	case AppFinished, AppFailed, AppKilled:
		return true
	}
	return false
}

// Application is the RM's app object (ResourceManagerRest.md, "Elements of
// the app object"), every documented field with its wire name. Fields a
// user may not see under the RM's security settings stay zero.
type Application struct {
	ID          string  `json:"id"`
	User        string  `json:"user"`
	Name        string  `json:"name"`
	Queue       string  `json:"queue"`
	State       string  `json:"state"`
	FinalStatus string  `json:"finalStatus"`
	Progress    float64 `json:"progress"`
	// TrackingUI is "ApplicationMaster", "History", or "UNASSIGNED" while
	// the tracking URL is not ready.
	TrackingUI string `json:"trackingUI"`
	// TrackingURL is the RM-proxied URL of the AM's web UI; for Flink, the
	// JobManager REST API. It changes when the JobManager fails over.
	TrackingURL     string `json:"trackingUrl"`
	Diagnostics     string `json:"diagnostics"`
	ClusterID       int64  `json:"clusterId"`
	ApplicationType string `json:"applicationType"`
	// ApplicationTags is the comma-separated wire form; see Tags.
	ApplicationTags   string      `json:"applicationTags"`
	Priority          AppPriority `json:"priority"`
	StartedTime       int64       `json:"startedTime"`
	FinishedTime      int64       `json:"finishedTime"`
	ElapsedTime       int64       `json:"elapsedTime"`
	AMContainerLogs   string      `json:"amContainerLogs"`
	AMHostHTTPAddress string      `json:"amHostHttpAddress"`
	// AMRPCAddress is host:port of the AM's RPC endpoint; Flink registers
	// its REST port there, so it is the JobManager's direct address. Empty
	// when the RM has none.
	AMRPCAddress               string            `json:"amRPCAddress"`
	AllocatedMB                int64             `json:"allocatedMB"`
	AllocatedVCores            int64             `json:"allocatedVCores"`
	RunningContainers          int               `json:"runningContainers"`
	MemorySeconds              int64             `json:"memorySeconds"`
	VcoreSeconds               int64             `json:"vcoreSeconds"`
	QueueUsagePercentage       float64           `json:"queueUsagePercentage"`
	ClusterUsagePercentage     float64           `json:"clusterUsagePercentage"`
	PreemptedResourceMB        int64             `json:"preemptedResourceMB"`
	PreemptedResourceVCores    int64             `json:"preemptedResourceVCores"`
	NumNonAMContainerPreempted int               `json:"numNonAMContainerPreempted"`
	NumAMContainerPreempted    int               `json:"numAMContainerPreempted"`
	LogAggregationStatus       string            `json:"logAggregationStatus"`
	UnmanagedApplication       bool              `json:"unmanagedApplication"`
	AppNodeLabelExpression     string            `json:"appNodeLabelExpression"`
	AMNodeLabelExpression      string            `json:"amNodeLabelExpression"`
	ResourceRequests           []ResourceRequest `json:"resourceRequests,omitempty"`
}

// ResourceRequest is one outstanding container request of an application,
// listed unless the query deselects "resourceRequests".
type ResourceRequest struct {
	Capability          ResourceSpec `json:"capability"`
	NodeLabelExpression string       `json:"nodeLabelExpression"`
	NumContainers       int          `json:"numContainers"`
	Priority            struct {
		Priority int `json:"priority"`
	} `json:"priority"`
	RelaxLocality bool   `json:"relaxLocality"`
	ResourceName  string `json:"resourceName"`
}

// ResourceSpec is a container size.
type ResourceSpec struct {
	Memory       int64 `json:"memory"`
	VirtualCores int64 `json:"virtualCores"`
}

// AppPriority is an application's priority, documented as a string but
// sent as a number; kept as text. It decodes itself, not the Application:
// a method on the whole application made encoding/json scan each of the
// fleet's applications twice more on every list.
type AppPriority string

// UnmarshalJSON accepts the priority as number or string.
func (p *AppPriority) UnmarshalJSON(b []byte) error {
	var s flexString
	if err := s.UnmarshalJSON(b); err != nil {
		return err
	}
	*p = AppPriority(s)
	return nil
}

// Tags splits ApplicationTags. YARN lower-cases tags on submission.
func (a Application) Tags() []string {
	var tags []string
	for _, t := range strings.Split(a.ApplicationTags, ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	return tags
}

// Started is StartedTime as a time (zero when unset).
func (a Application) Started() time.Time { return millis(a.StartedTime) }

// Finished is FinishedTime as a time (zero while running).
func (a Application) Finished() time.Time { return millis(a.FinishedTime) }

// Final reports whether the application has ended.
func (a Application) Final() bool { return AppStateFinal(a.State) }

func millis(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// AppAttempt is one attempt to run an application's master; a Flink
// JobManager failover shows as a new attempt.
type AppAttempt struct {
	// ID is documented as a string and sent as a number; kept as text.
	ID              string `json:"id"`
	NodeID          string `json:"nodeId"`
	NodeHTTPAddress string `json:"nodeHttpAddress"`
	LogsLink        string `json:"logsLink"`
	ContainerID     string `json:"containerId"`
	StartTime       int64  `json:"startTime"`
	AppAttemptState string `json:"appAttemptState"`
}

// UnmarshalJSON accepts the id as number or string.
func (a *AppAttempt) UnmarshalJSON(b []byte) error {
	type plain AppAttempt
	w := struct {
		*plain
		ID flexString `json:"id"`
	}{plain: (*plain)(a)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	a.ID = string(w.ID)
	return nil
}

// ClusterInfo is the RM's clusterInfo object.
type ClusterInfo struct {
	ID                            int64  `json:"id"`
	StartedOn                     int64  `json:"startedOn"`
	State                         string `json:"state"`
	HAState                       string `json:"haState"`
	RMStateStoreName              string `json:"rmStateStoreName"`
	ResourceManagerVersion        string `json:"resourceManagerVersion"`
	ResourceManagerBuildVersion   string `json:"resourceManagerBuildVersion"`
	ResourceManagerVersionBuiltOn string `json:"resourceManagerVersionBuiltOn"`
	HadoopVersion                 string `json:"hadoopVersion"`
	HadoopBuildVersion            string `json:"hadoopBuildVersion"`
	HadoopVersionBuiltOn          string `json:"hadoopVersionBuiltOn"`
	HAZooKeeperConnectionState    string `json:"haZooKeeperConnectionState"`
}

// ClusterMetrics is the RM's clusterMetrics object.
type ClusterMetrics struct {
	AppsSubmitted         int   `json:"appsSubmitted"`
	AppsCompleted         int   `json:"appsCompleted"`
	AppsPending           int   `json:"appsPending"`
	AppsRunning           int   `json:"appsRunning"`
	AppsFailed            int   `json:"appsFailed"`
	AppsKilled            int   `json:"appsKilled"`
	ReservedMB            int64 `json:"reservedMB"`
	AvailableMB           int64 `json:"availableMB"`
	AllocatedMB           int64 `json:"allocatedMB"`
	TotalMB               int64 `json:"totalMB"`
	ReservedVirtualCores  int64 `json:"reservedVirtualCores"`
	AvailableVirtualCores int64 `json:"availableVirtualCores"`
	AllocatedVirtualCores int64 `json:"allocatedVirtualCores"`
	TotalVirtualCores     int64 `json:"totalVirtualCores"`
	ContainersAllocated   int   `json:"containersAllocated"`
	ContainersReserved    int   `json:"containersReserved"`
	ContainersPending     int   `json:"containersPending"`
	TotalNodes            int   `json:"totalNodes"`
	ActiveNodes           int   `json:"activeNodes"`
	LostNodes             int   `json:"lostNodes"`
	UnhealthyNodes        int   `json:"unhealthyNodes"`
	DecommissioningNodes  int   `json:"decommissioningNodes"`
	DecommissionedNodes   int   `json:"decommissionedNodes"`
	RebootedNodes         int   `json:"rebootedNodes"`
	ShutdownNodes         int   `json:"shutdownNodes"`
}

// Scheduler types reported in schedulerInfo.type.
const (
	SchedulerCapacity = "capacityScheduler"
	SchedulerFair     = "fairScheduler"
	SchedulerFifo     = "fifoScheduler"
)

// Scheduler is the RM's schedulerInfo. Which fields are set depends on
// Type: the capacity scheduler fills the queue fields and Queues; the fair
// scheduler fills RootQueue; the fifo scheduler fills the Fifo* fields.
// Extra keeps every key this type does not name (capacity vectors, ACLs,
// health, …) as raw JSON, so nothing the RM sent is lost.
type Scheduler struct {
	Type string `json:"type"`

	// Capacity scheduler: the root queue's own figures and its children.
	Capacity         float64         `json:"capacity"`
	UsedCapacity     float64         `json:"usedCapacity"`
	MaxCapacity      float64         `json:"maxCapacity"`
	QueueName        string          `json:"queueName"`
	QueuePath        string          `json:"queuePath"`
	Weight           float64         `json:"weight"`
	NormalizedWeight float64         `json:"normalizedWeight"`
	MaxParallelApps  int             `json:"maxParallelApps"`
	Mode             string          `json:"mode"`
	Queues           *CapacityQueues `json:"queues,omitempty"`

	// Fair scheduler.
	RootQueue *FairQueue `json:"rootQueue,omitempty"`

	// Fifo scheduler.
	QState                 string `json:"qstate"`
	MinQueueMemoryCapacity int64  `json:"minQueueMemoryCapacity"`
	MaxQueueMemoryCapacity int64  `json:"maxQueueMemoryCapacity"`
	NumNodes               int    `json:"numNodes"`
	UsedNodeCapacity       int64  `json:"usedNodeCapacity"`
	AvailNodeCapacity      int64  `json:"availNodeCapacity"`
	TotalNodeCapacity      int64  `json:"totalNodeCapacity"`
	NumContainers          int    `json:"numContainers"`

	Extra map[string]json.RawMessage `json:"-"`
}

// CapacityQueues is the capacity scheduler's `"queues":{"queue":[…]}`.
type CapacityQueues struct {
	Queue listOf[CapacityQueue] `json:"queue"`
}

// CapacityQueue is a capacity scheduler queue; leaf queues
// (Type "capacitySchedulerLeafQueueInfo") add the application and user
// figures. Extra keeps the keys this type does not name.
type CapacityQueue struct {
	Type                 string          `json:"type"`
	QueueName            string          `json:"queueName"`
	QueuePath            string          `json:"queuePath"`
	State                string          `json:"state"`
	Capacity             float64         `json:"capacity"`
	UsedCapacity         float64         `json:"usedCapacity"`
	MaxCapacity          float64         `json:"maxCapacity"`
	AbsoluteCapacity     float64         `json:"absoluteCapacity"`
	AbsoluteMaxCapacity  float64         `json:"absoluteMaxCapacity"`
	AbsoluteUsedCapacity float64         `json:"absoluteUsedCapacity"`
	NumApplications      int             `json:"numApplications"`
	MaxParallelApps      int             `json:"maxParallelApps"`
	UsedResources        string          `json:"usedResources"`
	ResourcesUsed        QueueResources  `json:"resourcesUsed"`
	Mode                 string          `json:"mode"`
	Weight               float64         `json:"weight"`
	NormalizedWeight     float64         `json:"normalizedWeight"`
	Queues               *CapacityQueues `json:"queues,omitempty"`

	NumActiveApplications        int     `json:"numActiveApplications"`
	NumPendingApplications       int     `json:"numPendingApplications"`
	NumContainers                int     `json:"numContainers"`
	AllocatedContainers          int     `json:"allocatedContainers"`
	ReservedContainers           int     `json:"reservedContainers"`
	PendingContainers            int     `json:"pendingContainers"`
	MaxApplications              int     `json:"maxApplications"`
	MaxApplicationsPerUser       int     `json:"maxApplicationsPerUser"`
	MaxActiveApplications        int     `json:"maxActiveApplications"`
	MaxActiveApplicationsPerUser int     `json:"maxActiveApplicationsPerUser"`
	UserLimit                    float64 `json:"userLimit"`
	UserLimitFactor              float64 `json:"userLimitFactor"`
	// Users is `{"user":[…]}`, or {} / null when no user has applications.
	Users *QueueUsers `json:"users,omitempty"`

	Extra map[string]json.RawMessage `json:"-"`
}

// QueueUsers is a leaf queue's `"users":{"user":[…]}`.
type QueueUsers struct {
	User listOf[QueueUser] `json:"user"`
}

// QueueUser is one user's use of a leaf queue.
type QueueUser struct {
	Username               string         `json:"username"`
	ResourcesUsed          QueueResources `json:"resourcesUsed"`
	NumActiveApplications  int            `json:"numActiveApplications"`
	NumPendingApplications int            `json:"numPendingApplications"`
}

// QueueResources is a resource object (memory in MB, vCores); Extra keeps
// the detailed resourceInformations.
type QueueResources struct {
	Memory int64                      `json:"memory"`
	VCores int64                      `json:"vCores"`
	Extra  map[string]json.RawMessage `json:"-"`
}

// FairQueue is a fair scheduler queue; leaves
// (Type "fairSchedulerLeafQueueInfo") add the application counts.
type FairQueue struct {
	Type                string         `json:"type"`
	QueueName           string         `json:"queueName"`
	SchedulingPolicy    string         `json:"schedulingPolicy"`
	MaxApps             int            `json:"maxApps"`
	MinResources        QueueResources `json:"minResources"`
	MaxResources        QueueResources `json:"maxResources"`
	UsedResources       QueueResources `json:"usedResources"`
	FairResources       QueueResources `json:"fairResources"`
	SteadyFairResources QueueResources `json:"steadyFairResources"`
	DemandResources     QueueResources `json:"demandResources"`
	ClusterResources    QueueResources `json:"clusterResources"`
	AllocatedContainers int            `json:"allocatedContainers"`
	PendingContainers   int            `json:"pendingContainers"`
	ReservedContainers  int            `json:"reservedContainers"`
	Preemptable         bool           `json:"preemptable"`
	NumActiveApps       int            `json:"numActiveApps"`
	NumPendingApps      int            `json:"numPendingApps"`
	ChildQueues         *FairQueues    `json:"childQueues,omitempty"`

	Extra map[string]json.RawMessage `json:"-"`
}

// FairQueues is the fair scheduler's `"childQueues":{"queue":[…]}`.
type FairQueues struct {
	Queue listOf[FairQueue] `json:"queue"`
}

// The numeric fields of the scheduler objects take flexFloat/flexString
// leniency (the fifo scheduler sends "usedCapacity":"NaN") and keep their
// unknown keys; both are done by decodeWithExtra.

// UnmarshalJSON decodes the named fields leniently and keeps the rest in Extra.
func (s *Scheduler) UnmarshalJSON(b []byte) error {
	type plain Scheduler
	return decodeWithExtra(b, (*plain)(s), &s.Extra)
}

// UnmarshalJSON decodes the named fields leniently and keeps the rest in Extra.
func (q *CapacityQueue) UnmarshalJSON(b []byte) error {
	type plain CapacityQueue
	return decodeWithExtra(b, (*plain)(q), &q.Extra)
}

// UnmarshalJSON decodes the named fields leniently and keeps the rest in Extra.
func (q *FairQueue) UnmarshalJSON(b []byte) error {
	type plain FairQueue
	return decodeWithExtra(b, (*plain)(q), &q.Extra)
}

// UnmarshalJSON decodes the named fields leniently and keeps the rest in Extra.
func (r *QueueResources) UnmarshalJSON(b []byte) error {
	type plain QueueResources
	return decodeWithExtra(b, (*plain)(r), &r.Extra)
}

// MarshalJSON writes the named fields and Extra back as one object.
func (s Scheduler) MarshalJSON() ([]byte, error) {
	type plain Scheduler
	return encodeWithExtra(plain(s), s.Extra)
}

// MarshalJSON writes the named fields and Extra back as one object.
func (q CapacityQueue) MarshalJSON() ([]byte, error) {
	type plain CapacityQueue
	return encodeWithExtra(plain(q), q.Extra)
}

// MarshalJSON writes the named fields and Extra back as one object.
func (q FairQueue) MarshalJSON() ([]byte, error) {
	type plain FairQueue
	return encodeWithExtra(plain(q), q.Extra)
}

// MarshalJSON writes the named fields and Extra back as one object.
func (r QueueResources) MarshalJSON() ([]byte, error) {
	type plain QueueResources
	return encodeWithExtra(plain(r), r.Extra)
}

// decodeWithExtra fills the tagged fields of the struct dst points to and
// puts every other key into extra. Numeric fields accept numbers or numeric
// strings; string fields accept strings or numbers.
func decodeWithExtra(b []byte, dst any, extra *map[string]json.RawMessage) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if raw == nil { // JSON null
		return nil
	}
	v := reflect.ValueOf(dst).Elem()
	fields := jsonFields(v.Type())
	*extra = nil
	for k, msg := range raw {
		i, ok := fields[k]
		if !ok {
			if *extra == nil {
				*extra = map[string]json.RawMessage{}
			}
			(*extra)[k] = msg
			continue
		}
		f := v.Field(i)
		var err error
		switch f.Kind() {
		case reflect.Float64:
			var x flexFloat
			err = json.Unmarshal(msg, &x)
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				x = 0 // the fifo scheduler's "NaN" is 0/0: nothing used of nothing
			}
			f.SetFloat(float64(x))
		case reflect.Int, reflect.Int64:
			var x flexFloat
			err = json.Unmarshal(msg, &x)
			f.SetInt(int64(x))
		case reflect.String:
			var x flexString
			err = json.Unmarshal(msg, &x)
			f.SetString(string(x))
		default:
			err = json.Unmarshal(msg, f.Addr().Interface())
		}
		if err != nil {
			return &json.UnmarshalTypeError{Value: clip(string(msg), 40), Type: f.Type(), Field: k}
		}
	}
	return nil
}

func encodeWithExtra(v any, extra map[string]json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, x := range extra {
		if _, named := m[k]; !named {
			m[k] = x
		}
	}
	return json.Marshal(m)
}

var fieldCache sync.Map // reflect.Type → map[string]int

// jsonFields maps the JSON names of a struct's tagged fields to their index.
func jsonFields(t reflect.Type) map[string]int {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]int)
	}
	m := map[string]int{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			m[name] = i
		}
	}
	fieldCache.Store(t, m)
	return m
}

// QueueInfo is one queue of any scheduler, flattened for display.
type QueueInfo struct {
	Name  string // the queue's full path when known (root.a.b)
	Depth int    // 0 for root's children
	// Capacity and MaxCapacity are percent of the parent (capacity
	// scheduler) or of the cluster (fair: steady fair share and max
	// resources by memory). UsedCapacity is percent of the queue's own
	// capacity (fair: of its fair share).
	Capacity     float64
	UsedCapacity float64
	MaxCapacity  float64
	Apps         int // applications in the queue (fair: active + pending)
	Leaf         bool
	State        string
}

// Flatten lists the scheduler's queues depth-first, root excluded, in the
// same shape whatever the scheduler type.
func (s Scheduler) Flatten() []QueueInfo {
	var out []QueueInfo
	switch {
	case s.Queues != nil:
		var walk func(qs []CapacityQueue, depth int, parent string)
		walk = func(qs []CapacityQueue, depth int, parent string) {
			for _, q := range qs {
				name := q.QueuePath
				if name == "" {
					name = strings.TrimPrefix(parent+"."+q.QueueName, ".")
				}
				out = append(out, QueueInfo{
					Name: name, Depth: depth, Capacity: q.Capacity, UsedCapacity: q.UsedCapacity,
					MaxCapacity: q.MaxCapacity, Apps: q.NumApplications, Leaf: q.Queues == nil,
					State: q.State,
				})
				if q.Queues != nil {
					walk(q.Queues.Queue, depth+1, name)
				}
			}
		}
		root := s.QueuePath
		if root == "" {
			root = s.QueueName
		}
		walk(s.Queues.Queue, 0, root)
	case s.RootQueue != nil:
		cluster := float64(s.RootQueue.ClusterResources.Memory)
		pct := func(v int64, of float64) float64 {
			if of <= 0 {
				return 0
			}
			return 100 * float64(v) / of
		}
		var walk func(qs []FairQueue, depth int)
		walk = func(qs []FairQueue, depth int) {
			for _, q := range qs {
				c := cluster
				if m := float64(q.ClusterResources.Memory); m > 0 {
					c = m
				}
				out = append(out, QueueInfo{
					Name: q.QueueName, Depth: depth,
					Capacity:     pct(q.SteadyFairResources.Memory, c),
					UsedCapacity: pct(q.UsedResources.Memory, float64(q.FairResources.Memory)),
					MaxCapacity:  pct(q.MaxResources.Memory, c),
					Apps:         q.NumActiveApps + q.NumPendingApps,
					Leaf:         q.ChildQueues == nil,
				})
				if q.ChildQueues != nil {
					walk(q.ChildQueues.Queue, depth+1)
				}
			}
		}
		if s.RootQueue.ChildQueues != nil {
			walk(s.RootQueue.ChildQueues.Queue, 0)
		}
	case s.Type == SchedulerFifo:
		out = append(out, QueueInfo{
			Name: "default", Capacity: 100 * s.Capacity, UsedCapacity: 100 * s.UsedCapacity,
			MaxCapacity: 100, Leaf: true, State: s.QState,
		})
	}
	return out
}
