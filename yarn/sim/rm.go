package sim

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
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
	requireUser bool        // Options.RequireUser
	auth        *authFilter // secure mode; nil without
	ha          *rmHA
	yarn        *yarnApps
	jms         *jobManagers // a running app's amRPCAddress opens its JobManager
	proxy       http.Handler // the web proxy, /proxy/<appId>/
	admin       *admin       // the simulator's own API, /sim/
	logs        *nodeLogs    // the NodeManagers and the log server
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
	mux.HandleFunc("GET /ws/v1/cluster/nodes", api.nodes)
	mux.HandleFunc("GET /ws/v1/cluster/nodes/{id}", api.node)
	mux.HandleFunc("GET /ws/v1/cluster/apps", api.listApps(rm))
	mux.HandleFunc("GET /ws/v1/cluster/apps/{id}", api.getApp(rm))
	mux.HandleFunc("GET /ws/v1/cluster/apps/{id}/appattempts", api.attempts)
	mux.HandleFunc("GET /ws/v1/cluster/apps/{id}/state", api.appState)
	mux.HandleFunc("PUT /ws/v1/cluster/apps/{id}/state", api.killApp(rm))
	mux.HandleFunc("GET /ws/v1/cluster/apps/{id}/appattempts/{attempt}/containers", api.appContainers)
	mux.HandleFunc("GET /conf", api.conf)
	mux.HandleFunc("/ws/", func(w http.ResponseWriter, r *http.Request) {
		writeRemoteException(w, http.StatusNotFound, "NotFoundException", "org.apache.hadoop.yarn.webapp.NotFoundException",
			"java.lang.Exception: no resource "+r.URL.Path)
	})
	mux.HandleFunc("GET /cluster/app/{id}", api.appPage)
	mux.Handle("/proxy/", api.proxy)
	api.admin.routes(mux)
	if api.auth != nil {
		// Hadoop's authentication filter runs before the RM's own filters.
		return api.auth.wrap(api.standbyFilter(rm, mux))
	}
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

// info is GET /ws/v1/cluster/info, as RM rm answers it.
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

type attemptJSON struct {
	ID              int    `json:"id"`
	NodeID          string `json:"nodeId"`
	NodeHTTPAddress string `json:"nodeHttpAddress"`
	LogsLink        string `json:"logsLink"`
	ContainerID     string `json:"containerId"`
	StartTime       int64  `json:"startTime"`
	AppAttemptState string `json:"appAttemptState"`
}

// attempts is GET /ws/v1/cluster/apps/{id}/appattempts.
func (api *rmAPI) attempts(w http.ResponseWriter, r *http.Request) {
	api.mu.Lock()
	defer api.mu.Unlock()
	a, ok := api.lookupApp(w, r.PathValue("id"))
	if !ok {
		return
	}
	var out []attemptJSON
	for _, at := range a.attempts {
		nodeID, httpAddr := api.nodeHost(api.yarn.place(at.node))
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

// appState is GET /ws/v1/cluster/apps/{id}/state.
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
		if user, ok := caller(r); ok && !api.auth.mayModify(user, a) {
			// RMWebServices.killApp: ClientRMService's AccessControlException
			// as a ForbiddenException.
			writeRemoteException(w, http.StatusForbidden, "ForbiddenException", "org.apache.hadoop.yarn.webapp.ForbiddenException",
				fmt.Sprintf("java.lang.Exception: User %s cannot perform operation MODIFY_APP on %s", user, a.id))
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
