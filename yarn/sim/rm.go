package sim

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rmServer is one ResourceManager's listener.
type rmServer struct {
	idx     int
	url     string // http://host:port
	srv     *http.Server
	startMs int64 // its start time, the cluster timestamp of the ids it issues
	appSeq  int   // the sequence number of the last application id it issued
}

// rmHA is the cluster's ResourceManagers and which of them is active, as
// ZooKeeper-based RM HA elects it. It is guarded by the cluster lock.
type rmHA struct {
	rms    []*rmServer
	active int // index of the active RM; -1 while none is
}

// activeRM returns the active RM, or nil while none is.
func (h *rmHA) activeRM() *rmServer {
	if h.active < 0 || h.active >= len(h.rms) {
		return nil
	}
	return h.rms[h.active]
}

// failover makes the next RM the active one and returns its index. With a
// single RM it changes nothing.
func (h *rmHA) failover() int {
	if len(h.rms) < 2 {
		return h.active
	}
	h.active = (h.active + 1) % len(h.rms)
	if h.active < 0 {
		h.active = 0
	}
	return h.active
}

// rmKind tells the fault kind of a request to an RM listener.
func rmKind(r *http.Request) Kind {
	if len(r.URL.Path) >= 7 && r.URL.Path[:7] == "/proxy/" {
		return KindProxy
	}
	return KindRM
}

// rmAPI serves the ResourceManager REST API on every RM listener, with the
// web proxy and the simulator's admin API beside it, and a standby RM's
// redirects in front. It answers from the YARN side of the simulation
// under the cluster lock.
type rmAPI struct {
	mu          *sync.Mutex // the cluster lock
	clock       Clock
	host        string
	requireUser bool // Options.RequireUser
	ha          *rmHA
	yarn        *yarnApps
	jms         *jobManagers // a running app's amRPCAddress opens its JobManager
	proxy       http.Handler // the web proxy, /proxy/<appId>/
	admin       *admin       // the simulator's own API, /sim/
}

// clusterInfo is the RM's {"clusterInfo":{…}} (ResourceManagerRest.md, Cluster Information API).
type clusterInfo struct {
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

const hadoopVersion = "3.3.6"

// Container sizes (YARN rounds requests up to its 1024 MB minimum allocation).
const (
	jmContainerMB = 2048
	tmContainerMB = 4096
	slotsPerTM    = 2
	nodeMB        = 65536
	nodeVCores    = 32
)

// handler serves one ResourceManager's listener: the RM REST API, the web
// proxy and the simulator's admin API.
func (api *rmAPI) handler(rm *rmServer) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ws/v1/cluster", api.info(rm))
	mux.HandleFunc("GET /ws/v1/cluster/info", api.info(rm))
	mux.HandleFunc("GET /ws/v1/cluster/metrics", api.metrics)
	mux.HandleFunc("GET /ws/v1/cluster/scheduler", api.scheduler)
	mux.HandleFunc("GET /ws/v1/cluster/apps", api.listApps(rm))
	mux.HandleFunc("GET /ws/v1/cluster/apps/{id}", api.getApp(rm))
	mux.HandleFunc("GET /ws/v1/cluster/apps/{id}/appattempts", api.attempts)
	mux.HandleFunc("GET /ws/v1/cluster/apps/{id}/state", api.appState)
	mux.HandleFunc("PUT /ws/v1/cluster/apps/{id}/state", api.killApp(rm))
	mux.HandleFunc("/ws/", func(w http.ResponseWriter, r *http.Request) {
		writeRemoteException(w, http.StatusNotFound, "NotFoundException", "org.apache.hadoop.yarn.webapp.NotFoundException",
			"java.lang.Exception: no resource "+r.URL.Path)
	})
	mux.HandleFunc("GET /cluster/app/{id}", api.appPage)
	mux.Handle("/proxy/", api.proxy)
	api.admin.routes(mux)
	return api.standbyFilter(rm, mux)
}

// standbyFilter answers for a standby RM as Hadoop's RMWebAppFilter does:
// a 307 to the active RM with a one-line text body, except for the paths
// it never redirects (cluster/info, the proxy, …).
func (api *rmAPI) standbyFilter(rm *rmServer, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if strings.HasPrefix(p, "/sim/") || p == "/ws/v1/cluster/info" || p == "/cluster" ||
			strings.HasPrefix(p, "/proxy/") || p == "/conf" || p == "/stacks" || p == "/logLevel" || p == "/logs" || p == "/isActive" {
			next.ServeHTTP(w, r)
			return
		}
		api.mu.Lock()
		standby := api.ha.active != rm.idx
		var activeURL string
		if a := api.ha.activeRM(); a != nil {
			activeURL = a.url
		}
		api.mu.Unlock()
		if !standby {
			next.ServeHTTP(w, r)
			return
		}
		uri := r.URL.RequestURI()
		w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
		if activeURL != "" {
			w.Header().Set("Location", activeURL+uri)
			w.WriteHeader(http.StatusTemporaryRedirect)
			fmt.Fprintf(w, "This is standby RM. The redirect url is: %s\n", html.EscapeString(uri))
			return
		}
		// No active RM: Hadoop asks the browser to retry later.
		retry := 5
		w.Header().Set("Refresh", fmt.Sprintf("%d;url=%s%s", retry, rm.url, uri))
		w.WriteHeader(http.StatusTemporaryRedirect)
		fmt.Fprintf(w, "Can not find any active RM. Will retry in next %d seconds.\nHA Zookeeper Connection State: CONNECTED\n", retry)
	})
}

func (api *rmAPI) info(rm *rmServer) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		api.mu.Lock()
		ha := "ACTIVE"
		if api.ha.active != rm.idx {
			ha = "STANDBY"
		}
		zk := "ResourceManager HA is not enabled."
		if len(api.ha.rms) > 1 {
			zk = "CONNECTED"
		}
		api.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]clusterInfo{"clusterInfo": {
			ID: rm.startMs, StartedOn: rm.startMs, State: "STARTED", HAState: ha,
			RMStateStoreName:              "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore",
			ResourceManagerVersion:        hadoopVersion,
			ResourceManagerBuildVersion:   hadoopVersion + " from sim by palink source checksum 0",
			ResourceManagerVersionBuiltOn: "2023-06-18T08:22Z",
			HadoopVersion:                 hadoopVersion,
			HadoopBuildVersion:            hadoopVersion + " from sim by palink source checksum 0",
			HadoopVersionBuiltOn:          "2023-06-18T08:22Z",
			HAZooKeeperConnectionState:    zk,
		}})
	}
}

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

func (api *rmAPI) nodeHost(node int) (nodeID, httpAddr string) {
	return fmt.Sprintf("%s:%d", api.host, 45454+node), fmt.Sprintf("%s:%d", api.host, 8042+node)
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
		_, httpAddr := api.nodeHost(at.node)
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
		total := float64(api.yarn.nodes * nodeMB)
		j.ClusterUsagePercentage = round1(float64(mb) / total * 100)
		j.QueueUsagePercentage = round1(float64(mb) / (total * queueShare(a.queue)) * 100)
	}
	secs := end.Sub(a.submitted).Seconds()
	j.MemorySeconds = int64(secs * float64(jmContainerMB+2*tmContainerMB))
	j.VcoreSeconds = int64(secs * 3)
	return j
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

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

var reAppID = regexp.MustCompile(`^application_\d+_\d+$`)

// lookupApp finds and advances an app, or answers 400/404 as the RM does.
// The cluster lock must be held.
func (api *rmAPI) lookupApp(w http.ResponseWriter, id string) (*app, bool) {
	if !reAppID.MatchString(id) {
		writeRemoteException(w, http.StatusBadRequest, "BadRequestException", "org.apache.hadoop.yarn.webapp.BadRequestException",
			"java.lang.IllegalArgumentException: Invalid ApplicationId: "+id)
		return nil, false
	}
	a := api.yarn.get(id, api.clock.Now())
	if a == nil {
		writeRemoteException(w, http.StatusNotFound, "NotFoundException", "org.apache.hadoop.yarn.webapp.NotFoundException",
			"java.lang.Exception: app with id: "+id+" not found")
		return nil, false
	}
	return a, true
}

func badRequest(w http.ResponseWriter, msg string) {
	writeRemoteException(w, http.StatusBadRequest, "BadRequestException", "org.apache.hadoop.yarn.webapp.BadRequestException",
		"java.lang.Exception: "+msg)
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

type attemptJSON struct {
	ID              int    `json:"id"`
	NodeID          string `json:"nodeId"`
	NodeHTTPAddress string `json:"nodeHttpAddress"`
	LogsLink        string `json:"logsLink"`
	ContainerID     string `json:"containerId"`
	StartTime       int64  `json:"startTime"`
	AppAttemptState string `json:"appAttemptState"`
}

func (api *rmAPI) attempts(w http.ResponseWriter, r *http.Request) {
	api.mu.Lock()
	defer api.mu.Unlock()
	a, ok := api.lookupApp(w, r.PathValue("id"))
	if !ok {
		return
	}
	var out []attemptJSON
	for _, at := range a.attempts {
		nodeID, httpAddr := api.nodeHost(at.node)
		out = append(out, attemptJSON{ID: at.n, NodeID: nodeID, NodeHTTPAddress: httpAddr,
			LogsLink:    "http://" + httpAddr + "/node/containerlogs/" + at.container + "/" + a.user,
			ContainerID: at.container, StartTime: at.start.UnixMilli(), AppAttemptState: at.state})
	}
	if len(out) == 0 {
		writeJSON(w, http.StatusOK, map[string]any{"appAttempts": nil})
		return
	}
	writeJSON(w, http.StatusOK, map[string]map[string][]attemptJSON{"appAttempts": {"appAttempt": out}})
}

type appState struct {
	State       string `json:"state"`
	Diagnostics string `json:"diagnostics,omitempty"`
}

func (api *rmAPI) appState(w http.ResponseWriter, r *http.Request) {
	api.mu.Lock()
	defer api.mu.Unlock()
	a, ok := api.lookupApp(w, r.PathValue("id"))
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, appState{State: a.state})
}

// killApp is PUT /apps/{id}/state (RMWebServices.updateAppState): only
// KILLED is a valid target; the first answer is 202 with a Location while
// the kill is in progress, 200 once the app is in a final state.
func (api *rmAPI) killApp(rm *rmServer) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if api.requireUser && r.URL.Query().Get("user.name") == "" {
			writeRemoteException(w, http.StatusUnauthorized, "AuthorizationException",
				"org.apache.hadoop.security.authorize.AuthorizationException", "Unable to obtain user name, user not authenticated")
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		var target appState
		if err == nil {
			err = json.Unmarshal(body, &target)
		}
		if err != nil {
			badRequest(w, "Could not parse the request body as {\"state\": …}: "+err.Error())
			return
		}
		api.mu.Lock()
		defer api.mu.Unlock()
		a, ok := api.lookupApp(w, r.PathValue("id"))
		if !ok {
			return
		}
		if strings.ToUpper(target.State) == a.state {
			writeJSON(w, http.StatusOK, appState{State: a.state})
			return
		}
		if strings.ToUpper(target.State) != yarnKilled {
			badRequest(w, "Only 'KILLED' is allowed as a target state.")
			return
		}
		if yarnFinal(a.state) {
			writeJSON(w, http.StatusOK, appState{State: a.state})
			return
		}
		api.yarn.kill(a, api.clock.Now())
		w.Header().Set("Location", rm.url+"/ws/v1/cluster/apps/"+a.id)
		writeJSON(w, http.StatusAccepted, appState{State: a.state})
	}
}

// appPage is a minimal RM web UI page, where History tracking URLs lead.
func (api *rmAPI) appPage(w http.ResponseWriter, r *http.Request) {
	api.mu.Lock()
	a := api.yarn.get(r.PathValue("id"), api.clock.Now())
	var state, final, diag string
	if a != nil {
		state, final, diag = a.state, a.final, a.diag
	}
	api.mu.Unlock()
	if a == nil {
		http.Error(w, "Application not found: "+r.PathValue("id"), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<html><head><title>Application %s</title></head><body><h1>Application %s</h1>"+
		"<p>YarnApplicationState: %s</p><p>FinalStatus Reported by AM: %s</p><pre>%s</pre></body></html>\n",
		html.EscapeString(a.id), html.EscapeString(a.id), state, final, html.EscapeString(diag))
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
