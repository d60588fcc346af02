package yarn

import "encoding/json"

// Metric is one metric value. Flink sends values as strings and leaves
// Value out when it is null (and when listing available metrics).
type Metric struct {
	ID    string `json:"id"`
	Value string `json:"value,omitempty"`
}

// UnmarshalJSON accepts a numeric value too.
func (m *Metric) UnmarshalJSON(b []byte) error {
	var w struct {
		ID    string     `json:"id"`
		Value flexString `json:"value"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	m.ID, m.Value = w.ID, string(w.Value)
	return nil
}

// AggregatedMetric is one metric aggregated over subtasks; only the
// requested aggregations are set.
type AggregatedMetric struct {
	ID   string   `json:"id"`
	Min  *float64 `json:"min,omitempty"`
	Max  *float64 `json:"max,omitempty"`
	Avg  *float64 `json:"avg,omitempty"`
	Sum  *float64 `json:"sum,omitempty"`
	Skew *float64 `json:"skew,omitempty"`
}

// UnmarshalJSON accepts the aggregates as numbers or numeric strings.
func (m *AggregatedMetric) UnmarshalJSON(b []byte) error {
	var w struct {
		ID   string     `json:"id"`
		Min  *flexFloat `json:"min"`
		Max  *flexFloat `json:"max"`
		Avg  *flexFloat `json:"avg"`
		Sum  *flexFloat `json:"sum"`
		Skew *flexFloat `json:"skew"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	f := func(p *flexFloat) *float64 {
		if p == nil {
			return nil
		}
		v := float64(*p)
		return &v
	}
	*m = AggregatedMetric{ID: w.ID, Min: f(w.Min), Max: f(w.Max), Avg: f(w.Avg), Sum: f(w.Sum), Skew: f(w.Skew)}
	return nil
}

// Backpressure is GET /jobs/:id/vertices/:vid/backpressure.
type Backpressure struct {
	Status            string                `json:"status"` // deprecated | ok
	BackpressureLevel string                `json:"backpressureLevel"`
	EndTimestamp      int64                 `json:"end-timestamp"`
	Subtasks          []SubtaskBackpressure `json:"subtasks"`
}

// SubtaskBackpressure is one subtask's back pressure.
type SubtaskBackpressure struct {
	Subtask                 int                   `json:"subtask"`
	AttemptNumber           int                   `json:"attempt-number"`
	BackpressureLevel       string                `json:"backpressureLevel"`
	Ratio                   float64               `json:"ratio"`
	IdleRatio               float64               `json:"idleRatio"`
	BusyRatio               float64               `json:"busyRatio"`
	OtherConcurrentAttempts []SubtaskBackpressure `json:"other-concurrent-attempts"`
}

// MaxRatio is the worst subtask's back-pressure ratio (0..1).
func (b Backpressure) MaxRatio() float64 {
	var m float64
	for _, s := range b.Subtasks {
		m = max(m, s.Ratio)
	}
	return m
}

// TaskManager is one entry of GET /taskmanagers (TaskManagerInfo). On
// YARN, ID is the container id.
type TaskManager struct {
	ID                     string          `json:"id"`
	Path                   string          `json:"path"`
	DataPort               int             `json:"dataPort"`
	JMXPort                int             `json:"jmxPort"`
	TimeSinceLastHeartbeat int64           `json:"timeSinceLastHeartbeat"`
	SlotsNumber            int             `json:"slotsNumber"`
	FreeSlots              int             `json:"freeSlots"`
	TotalResource          ResourceProfile `json:"totalResource"`
	FreeResource           ResourceProfile `json:"freeResource"`
	Hardware               struct {
		CPUCores       int   `json:"cpuCores"`
		PhysicalMemory int64 `json:"physicalMemory"`
		FreeMemory     int64 `json:"freeMemory"`
		ManagedMemory  int64 `json:"managedMemory"`
	} `json:"hardware"`
	MemoryConfiguration map[string]int64 `json:"memoryConfiguration"`
	Blocked             bool             `json:"blocked"`
	AssignedTasks       int              `json:"assignedTasks"` // 2.3+
}

// ResourceProfile is a TaskManager's resources.
type ResourceProfile struct {
	CPUCores          float64            `json:"cpuCores"`
	TaskHeapMemory    int64              `json:"taskHeapMemory"`
	TaskOffHeapMemory int64              `json:"taskOffHeapMemory"`
	ManagedMemory     int64              `json:"managedMemory"`
	NetworkMemory     int64              `json:"networkMemory"`
	ExtendedResources map[string]float64 `json:"extendedResources"`
}

// LogInfo is one log file of a JobManager or TaskManager.
type LogInfo struct {
	Name  string `json:"name"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
}
