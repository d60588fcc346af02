package sim

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The RM's application resources: one application, and the list with its
// filters (GET /ws/v1/cluster/apps), rendered as AppInfo.

// appJSON is one application as the RM serves it (AppInfo).
type appJSON struct {
	ID                         string  `json:"id"`
	User                       string  `json:"user"`
	Name                       string  `json:"name"`
	Queue                      string  `json:"queue"`
	State                      string  `json:"state"`
	FinalStatus                string  `json:"finalStatus"`
	Progress                   float64 `json:"progress"`
	TrackingUI                 string  `json:"trackingUI"`
	TrackingURL                string  `json:"trackingUrl,omitempty"`
	Diagnostics                string  `json:"diagnostics"`
	ClusterID                  int64   `json:"clusterId"`
	ApplicationType            string  `json:"applicationType"`
	ApplicationTags            string  `json:"applicationTags"`
	Priority                   int     `json:"priority"`
	StartedTime                int64   `json:"startedTime"`
	FinishedTime               int64   `json:"finishedTime"`
	ElapsedTime                int64   `json:"elapsedTime"`
	AMContainerLogs            string  `json:"amContainerLogs,omitempty"`
	AMHostHTTPAddress          string  `json:"amHostHttpAddress,omitempty"`
	AMRPCAddress               string  `json:"amRPCAddress,omitempty"`
	AllocatedMB                int64   `json:"allocatedMB"`
	AllocatedVCores            int64   `json:"allocatedVCores"`
	RunningContainers          int     `json:"runningContainers"`
	MemorySeconds              int64   `json:"memorySeconds"`
	VcoreSeconds               int64   `json:"vcoreSeconds"`
	QueueUsagePercentage       float64 `json:"queueUsagePercentage"`
	ClusterUsagePercentage     float64 `json:"clusterUsagePercentage"`
	PreemptedResourceMB        int64   `json:"preemptedResourceMB"`
	PreemptedResourceVCores    int64   `json:"preemptedResourceVCores"`
	NumNonAMContainerPreempted int     `json:"numNonAMContainerPreempted"`
	NumAMContainerPreempted    int     `json:"numAMContainerPreempted"`
	LogAggregationStatus       string  `json:"logAggregationStatus"`
	UnmanagedApplication       bool    `json:"unmanagedApplication"`
	AppNodeLabelExpression     string  `json:"appNodeLabelExpression"`
	AMNodeLabelExpression      string  `json:"amNodeLabelExpression"`
}

// containers is the number of containers a running app holds.
func (a *app) containers() int {
	if a.state != yarnRunning {
		if a.state == yarnAccepted && a.current() != nil && a.current().state == "LAUNCHED" {
			return 1
		}
		return 0
	}
	slots := 0
	for _, j := range a.jobs {
		if !flinkTerminal(j.state) {
			slots += j.parallelism
		}
	}
	if a.mode == ModeSession && slots < 4 {
		slots = 4 // a session keeps its TaskManagers
	}
	return 1 + (slots+slotsPerTM-1)/slotsPerTM
}

func (a *app) allocatedMB() int64 {
	n := a.containers()
	if n == 0 {
		return 0
	}
	return jmContainerMB + int64(n-1)*tmContainerMB
}

// nodeHost is the NodeManager address of node and its web address (the
// simulated NodeManagers share one web server, nodemanager.go).
func (api *rmAPI) nodeHost(node int) (nodeID, httpAddr string) {
	httpAddr = api.logs.nodeHTTP()
	if httpAddr == "" {
		httpAddr = fmt.Sprintf("%s:%d", api.host, 8042+node)
	}
	return api.logs.nodeID(node), httpAddr
}

// renderApp turns an app into the RM's JSON, as seen by the RM at rmURL.
func (api *rmAPI) renderApp(a *app, rmURL string, clusterID int64, now time.Time) appJSON {
	j := appJSON{
		ID: a.id, User: a.user, Name: a.name, Queue: a.queue, State: a.state, FinalStatus: a.final,
		Diagnostics: a.diag, ClusterID: clusterID, ApplicationType: a.appType,
		ApplicationTags: strings.Join(a.tags, ","), StartedTime: a.submitted.UnixMilli(),
		LogAggregationStatus: "NOT_START", TrackingUI: "UNASSIGNED",
	}
	end := now
	if !a.finished.IsZero() {
		j.FinishedTime = a.finished.UnixMilli()
		end = a.finished
		j.Progress = 100
		j.LogAggregationStatus = "SUCCEEDED"
	}
	j.ElapsedTime = end.Sub(a.submitted).Milliseconds()
	switch {
	case yarnFinal(a.state):
		j.TrackingUI = "History"
		j.TrackingURL = rmURL + "/cluster/app/" + a.id
	case a.state == yarnRunning:
		j.TrackingUI = "ApplicationMaster"
		j.TrackingURL = rmURL + "/proxy/" + a.id + "/"
	}
	if at := a.current(); at != nil && at.state != "SCHEDULED" {
		_, httpAddr := api.nodeHost(api.yarn.place(at.node))
		j.AMHostHTTPAddress = httpAddr
		j.AMContainerLogs = "http://" + httpAddr + "/node/containerlogs/" + at.container + "/" + a.user
		if a.state == yarnRunning {
			if jm := api.jms.ensure(a); jm != nil {
				j.AMRPCAddress = jm.addr
			}
		}
	}
	mb := a.allocatedMB()
	n := a.containers()
	if yarnFinal(a.state) {
		j.AllocatedMB, j.AllocatedVCores, j.RunningContainers = -1, -1, -1
	} else {
		j.AllocatedMB, j.AllocatedVCores, j.RunningContainers = mb, int64(n), n
		total := float64(api.yarn.capacityMB())
		j.ClusterUsagePercentage = round1(float64(mb) / total * 100)
		j.QueueUsagePercentage = round1(float64(mb) / (total * queueShare(a.queue)) * 100)
	}
	secs := end.Sub(a.submitted).Seconds()
	j.MemorySeconds = int64(secs * float64(jmContainerMB+2*tmContainerMB))
	j.VcoreSeconds = int64(secs * 3)
	return j
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

// getApp is GET /ws/v1/cluster/apps/{id}.
func (api *rmAPI) getApp(rm *rmServer) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		api.mu.Lock()
		defer api.mu.Unlock()
		a, ok := api.lookupApp(w, id)
		if !ok {
			return
		}
		writeJSON(w, http.StatusOK, map[string]appJSON{"app": api.renderApp(a, rm.url, rm.startMs, api.clock.Now())})
	}
}

// appFilter is the query of GET /ws/v1/cluster/apps.
type appFilter struct {
	states        map[string]bool
	finalStatus   string
	user, queue   string
	name          string
	types, tags   map[string]bool
	limit         int
	startedBegin  int64
	startedEnd    int64
	finishedBegin int64
	finishedEnd   int64
}

func parseAppFilter(q url.Values) (appFilter, error) {
	f := appFilter{limit: -1, startedEnd: math.MaxInt64, finishedEnd: math.MaxInt64}
	states := q.Get("states")
	if s := q.Get("state"); s != "" {
		states = s
	}
	if states != "" {
		f.states = map[string]bool{}
		for _, s := range splitList(states) {
			s = strings.ToUpper(s)
			valid := false
			for _, v := range yarnStates {
				valid = valid || v == s
			}
			if !valid {
				return f, fmt.Errorf("Invalid application-state %s specified. It should be one of %s", s, strings.Join(yarnStates, ", "))
			}
			f.states[s] = true
		}
	}
	if s := q.Get("finalStatus"); s != "" {
		s = strings.ToUpper(s)
		switch s {
		case finalUndefined, finalSucceeded, finalFailed, finalKilled, "ENDED":
		default:
			return f, fmt.Errorf("No enum constant org.apache.hadoop.yarn.api.records.FinalApplicationStatus.%s", s)
		}
		f.finalStatus = s
	}
	f.user, f.queue, f.name = q.Get("user"), q.Get("queue"), q.Get("name")
	if s := q.Get("applicationTypes"); s != "" {
		f.types = map[string]bool{}
		for _, t := range splitList(s) {
			f.types[strings.ToLower(t)] = true
		}
	}
	if s := q.Get("applicationTags"); s != "" {
		f.tags = map[string]bool{}
		for _, t := range splitList(s) {
			f.tags[strings.ToLower(t)] = true
		}
	}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return f, fmt.Errorf("limit value must be greater then 0")
		}
		f.limit = n
	}
	for _, p := range []struct {
		key string
		dst *int64
	}{{"startedTimeBegin", &f.startedBegin}, {"startedTimeEnd", &f.startedEnd},
		{"finishedTimeBegin", &f.finishedBegin}, {"finishedTimeEnd", &f.finishedEnd}} {
		if s := q.Get(p.key); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 0 {
				return f, fmt.Errorf("%s must be greater than 0", p.key)
			}
			*p.dst = n
		}
	}
	if f.startedBegin > f.startedEnd {
		return f, fmt.Errorf("startedTimeEnd must be greater than startTimeBegin")
	}
	if f.finishedBegin > f.finishedEnd {
		return f, fmt.Errorf("finishedTimeEnd must be greater than finishedTimeBegin")
	}
	return f, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func (f appFilter) match(a *app) bool {
	if f.states != nil && !f.states[a.state] {
		return false
	}
	if f.finalStatus != "" && a.final != f.finalStatus {
		return false
	}
	if f.user != "" && a.user != f.user {
		return false
	}
	// "queue will only implicitly filter on unfinished applications".
	if f.queue != "" && (queueLeaf(f.queue) != a.queue || yarnFinal(a.state)) {
		return false
	}
	if f.name != "" && a.name != f.name {
		return false
	}
	if f.types != nil && !f.types[strings.ToLower(a.appType)] {
		return false
	}
	if f.tags != nil {
		any := false
		for _, t := range a.tags {
			any = any || f.tags[t]
		}
		if !any {
			return false
		}
	}
	ms := a.submitted.UnixMilli()
	if ms < f.startedBegin || ms > f.startedEnd {
		return false
	}
	if f.finishedBegin > 0 || f.finishedEnd != math.MaxInt64 {
		if a.finished.IsZero() {
			return false
		}
		fm := a.finished.UnixMilli()
		if fm < f.finishedBegin || fm > f.finishedEnd {
			return false
		}
	}
	return true
}

// listApps is GET /ws/v1/cluster/apps, newest first.
func (api *rmAPI) listApps(rm *rmServer) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f, err := parseAppFilter(r.URL.Query())
		if err != nil {
			badRequest(w, err.Error())
			return
		}
		api.mu.Lock()
		now := api.clock.Now()
		var out []appJSON
		// Newest first, as the RM's own example lists them.
		for i := len(api.yarn.order) - 1; i >= 0; i-- {
			a := api.yarn.order[i]
			api.yarn.advance(a, now)
			if !f.match(a) {
				continue
			}
			out = append(out, api.renderApp(a, rm.url, rm.startMs, now))
			if f.limit > 0 && len(out) >= f.limit {
				break
			}
		}
		api.mu.Unlock()
		if len(out) == 0 {
			// The RM's JSON provider writes an empty list as null.
			writeJSON(w, http.StatusOK, map[string]any{"apps": nil})
			return
		}
		writeJSON(w, http.StatusOK, map[string]map[string][]appJSON{"apps": {"app": out}})
	}
}
