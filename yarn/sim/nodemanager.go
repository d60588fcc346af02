package sim

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// nodeLogs serves YARN container logs the way Hadoop does (NMWebServices,
// AHSWebServices and LogServlet):
//
//   - one NodeManager web server for every simulated node (a single-host
//     mini cluster's NodeManagers would share a host too; the node ids keep
//     them apart): GET /ws/v1/node/containers/{id}/logs lists a live
//     container's files (LOCAL), GET …/logs/{file}?size=N serves one as
//     text framed by Hadoop's header and trailer. A container whose
//     application ended is no longer on the node: both redirect (307) to
//     the log server, as a NodeManager with yarn.log.server.web-service.url
//     does;
//   - the log server (the timeline server's application history) under
//     /ws/v1/applicationhistory, with the same two routes for the
//     aggregated logs (AGGREGATED) of applications that ended; for a
//     running one it redirects to the NodeManager.
//
// The RM's /conf names the log server (yarn.log.server.web-service.url).
// The files are the generated logs of logs.go: a TaskManager's
// taskmanager.log is the same file Flink's REST API serves.
type nodeLogs struct {
	mu     *sync.Mutex // the cluster lock
	clock  Clock
	host   string
	yarn   *yarnApps
	jms    *jobManagers
	nmURL  string // http://host:port of the NodeManagers
	ahsURL string // http://host:port of the log server
	nmSrv  *http.Server
	ahsSrv *http.Server
}

// ahsBase is the log server's web services base, the RM's
// yarn.log.server.web-service.url.
func (n *nodeLogs) ahsBase() string { return n.ahsURL + "/ws/v1/applicationhistory" }

// start opens both listeners.
func (n *nodeLogs) start(serve func(*http.Server, net.Listener)) error {
	for _, l := range []struct {
		url *string
		srv **http.Server
		h   http.Handler
	}{{&n.nmURL, &n.nmSrv, n.nmHandler()}, {&n.ahsURL, &n.ahsSrv, n.ahsHandler()}} {
		ln, err := net.Listen("tcp", net.JoinHostPort(n.host, "0"))
		if err != nil {
			return err
		}
		*l.url = "http://" + ln.Addr().String()
		*l.srv = &http.Server{Handler: l.h, ReadHeaderTimeout: 10 * time.Second}
		serve(*l.srv, ln)
	}
	return nil
}

func (n *nodeLogs) close() {
	for _, s := range []*http.Server{n.nmSrv, n.ahsSrv} {
		if s != nil {
			_ = s.Close()
		}
	}
}

// nodeHTTP is the web address of every node's NodeManager ("" before Start).
func (n *nodeLogs) nodeHTTP() string { return strings.TrimPrefix(n.nmURL, "http://") }

var reContainer = regexp.MustCompile(`^container_(?:e\d+_)?(\d+)_(\d+)_(\d+)_(\d+)$`)

// container is one YARN container of an application, with what it ran.
type container struct {
	id      string
	a       *app
	attempt int
	n       int // 1: the AM (the JobManager), 2…: TaskManagers
	node    int
	live    bool
	start   time.Time
}

// findContainer resolves a container id to its application, or says why not.
func (n *nodeLogs) findContainer(id string, now time.Time) (*container, int, string) {
	m := reContainer.FindStringSubmatch(id)
	if m == nil {
		return nil, http.StatusBadRequest, "invalid container id, " + id
	}
	attempt, _ := strconv.Atoi(m[3])
	num, _ := strconv.Atoi(m[4])
	a := n.yarn.get("application_"+m[1]+"_"+m[2], now)
	if a == nil || attempt < 1 || attempt > len(a.attempts) || num < 1 || num > 1+tmCount(a) {
		return nil, http.StatusNotFound, "container with id, " + id + ", not found"
	}
	at := a.attempts[attempt-1]
	c := &container{id: id, a: a, attempt: attempt, n: num, node: n.yarn.containerNode(a, at, num), start: a.logStart(attempt),
		live: a.state == yarnRunning && attempt == len(a.attempts) && (num == 1 || num <= a.containers())}
	return c, 0, ""
}

// tmCount is how many TaskManager containers an application's attempt
// has or had: enough slots for its jobs (a session keeps four).
func tmCount(a *app) int {
	slots := 0
	for _, j := range a.jobs {
		slots += j.parallelism
	}
	if a.mode == ModeSession && slots < 4 {
		slots = 4
	}
	if a.mode == "" {
		return 0
	}
	return (slots + slotsPerTM - 1) / slotsPerTM
}

// files are a container's log files, by name.
func (n *nodeLogs) files(c *container) map[string]*logFile {
	kind, owner := "jobmanager", uint64(0)
	if c.n > 1 {
		kind, owner = "taskmanager", uint64(c.n-1)
	}
	fs := n.jms.logFiles(c.a, kind, owner, c.start)
	size := int64(12 * logLine)
	fs["prelaunch.out"] = &logFile{seed: c.a.seed ^ owner ^ 0x77, size: size / 4, start: c.start, kind: kind, out: true}
	fs["prelaunch.err"] = &logFile{size: 0, start: c.start, kind: kind}
	return fs
}

// nodeID is the NodeManager id of a node.
func (n *nodeLogs) nodeID(node int) string { return fmt.Sprintf("%s:%d", n.host, 45454+node) }

func (n *nodeLogs) nmHandler() http.Handler {
	mux := http.NewServeMux()
	for _, p := range []string{"/ws/v1/node/containers/{cid}/logs/{file}", "/ws/v1/node/containerlogs/{cid}/{file}"} {
		mux.HandleFunc("GET "+p, func(w http.ResponseWriter, r *http.Request) { n.serveFile(w, r, false) })
	}
	mux.HandleFunc("GET /ws/v1/node/containers/{cid}/logs", func(w http.ResponseWriter, r *http.Request) { n.serveList(w, r, false) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeRemoteException(w, http.StatusNotFound, "NotFoundException", "org.apache.hadoop.yarn.webapp.NotFoundException",
			"java.lang.Exception: no resource "+r.URL.Path)
	})
	return mux
}

func (n *nodeLogs) ahsHandler() http.Handler {
	mux := http.NewServeMux()
	for _, p := range []string{"/ws/v1/applicationhistory/containers/{cid}/logs/{file}", "/ws/v1/applicationhistory/containerlogs/{cid}/{file}"} {
		mux.HandleFunc("GET "+p, func(w http.ResponseWriter, r *http.Request) { n.serveFile(w, r, true) })
	}
	mux.HandleFunc("GET /ws/v1/applicationhistory/containers/{cid}/logs", func(w http.ResponseWriter, r *http.Request) { n.serveList(w, r, true) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeRemoteException(w, http.StatusNotFound, "NotFoundException", "org.apache.hadoop.yarn.webapp.NotFoundException",
			"java.lang.Exception: no resource "+r.URL.Path)
	})
	return mux
}

// resolve finds the container of a request, or answers for it: an error,
// or a redirect to where its logs are now (the log server for an ended
// application's container, the NodeManager for a live one).
func (n *nodeLogs) resolve(w http.ResponseWriter, r *http.Request, aggregated bool) (*container, map[string]*logFile, time.Time, bool) {
	n.mu.Lock()
	now := n.clock.Now()
	c, status, msg := n.findContainer(r.PathValue("cid"), now)
	if c == nil {
		n.mu.Unlock()
		writeRemoteException(w, status, "NotFoundException", "org.apache.hadoop.yarn.webapp.NotFoundException", "java.lang.Exception: "+msg)
		return nil, nil, now, false
	}
	rest := strings.TrimPrefix(r.URL.Path, "/ws/v1/node")
	rest = strings.TrimPrefix(rest, "/ws/v1/applicationhistory")
	switch {
	case !aggregated && !c.live:
		n.mu.Unlock()
		q := r.URL.Query()
		q.Set("redirected_from_node", "true")
		http.Redirect(w, r, n.ahsBase()+rest+"?"+q.Encode(), http.StatusTemporaryRedirect)
		return nil, nil, now, false
	case aggregated && c.live && r.URL.Query().Get("redirected_from_node") != "true":
		n.mu.Unlock()
		http.Redirect(w, r, n.nmURL+"/ws/v1/node"+rest+"?"+r.URL.RawQuery, http.StatusTemporaryRedirect)
		return nil, nil, now, false
	case aggregated && !yarnFinal(c.a.state):
		// Aggregation runs when the application ends.
		n.mu.Unlock()
		writeRemoteException(w, http.StatusNotFound, "NotFoundException", "org.apache.hadoop.yarn.webapp.NotFoundException",
			"java.lang.Exception: Can not find the aggregated logs of "+c.id+" yet: the application is still running")
		return nil, nil, now, false
	}
	files := n.files(c)
	n.mu.Unlock()
	return c, files, now, true
}

// hadoopTime is Hadoop's Times.format.
func hadoopTime(t time.Time) string { return t.UTC().Format("Mon Jan 02 15:04:05 -0700 2006") }

func (n *nodeLogs) serveList(w http.ResponseWriter, r *http.Request, aggregated bool) {
	c, files, now, ok := n.resolve(w, r, aggregated)
	if !ok {
		return
	}
	kind := "LOCAL"
	if aggregated {
		kind = "AGGREGATED"
	}
	var infos []map[string]string
	for _, name := range sortedKeys(files) {
		infos = append(infos, map[string]string{"fileName": name, "fileSize": strconv.FormatInt(files[name].size, 10),
			"lastModifiedTime": hadoopTime(now)})
	}
	// Jersey 1 (Hadoop 3.3) renders the list of ContainerLogsInfo under
	// its element name.
	writeJSON(w, http.StatusOK, map[string]any{"containerLogsInfo": []map[string]any{{
		"containerLogInfo": infos, "logAggregationType": kind, "containerId": c.id, "nodeId": n.nodeID(c.node)}}})
}

func (n *nodeLogs) serveFile(w http.ResponseWriter, r *http.Request, aggregated bool) {
	c, files, now, ok := n.resolve(w, r, aggregated)
	if !ok {
		return
	}
	name := r.PathValue("file")
	f, found := files[name]
	if !found {
		http.Error(w, "Cannot find this log on the local disk.", http.StatusNotFound)
		return
	}
	size := f.size
	if s := r.URL.Query().Get("size"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			http.Error(w, "Invalid size parameter: "+s, http.StatusBadRequest)
			return
		}
		size = v
	}
	// LogToolUtils.outputContainerLogThroughZeroCopy: the first size
	// bytes, or the last -size.
	start, length := int64(0), f.size
	switch {
	case size < 0 && -size < f.size:
		start, length = f.size+size, -size
	case size >= 0 && size < f.size:
		length = size
	}
	kind := "LOCAL"
	if aggregated {
		kind = "AGGREGATED"
	}
	head := fmt.Sprintf("Container: %s on %s\n", c.id, n.nodeID(c.node))
	head += "LogAggregationType: " + kind + "\n" + strings.Repeat("=", len(head)-1) + "\n"
	head += "LogType:" + name + "\nLogLastModifiedTime:" + hadoopTime(now) + "\nLogLength:" + strconv.FormatInt(f.size, 10) + "\nLogContents:\n"
	end := "End of LogType:" + name + "."
	tail := end
	if c.live {
		tail += "This log file belongs to a running container (" + c.id + ") and so may not be complete.\n"
	} else {
		tail += "\n"
	}
	tail += strings.Repeat("*", len(end)+50) + "\n\n"
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = io.WriteString(w, head)
	if length > 0 {
		_, _ = io.Copy(w, io.NewSectionReader(f, start, length))
	}
	_, _ = io.WriteString(w, tail)
}

// appContainers is GET /ws/v1/cluster/apps/{id}/appattempts/{attemptid}/containers
// on the RM: the live containers of the running application's current
// attempt (the RM knows no others).
func (api *rmAPI) appContainers(w http.ResponseWriter, r *http.Request) {
	api.mu.Lock()
	defer api.mu.Unlock()
	a, ok := api.lookupApp(w, r.PathValue("id"))
	if !ok {
		return
	}
	now := api.clock.Now()
	var out []map[string]any
	at := a.current()
	if at != nil && a.state == yarnRunning && r.PathValue("attempt") == attemptID(a, at.n) {
		for k := 1; k <= a.containers(); k++ {
			c, _, _ := api.logs.findContainer(containerID(a, at.n, k), now)
			if c == nil {
				continue
			}
			mb := tmContainerMB
			if k == 1 {
				mb = jmContainerMB
			}
			out = append(out, map[string]any{
				"containerId": c.id, "allocatedMB": mb, "allocatedVCores": 1, "assignedNodeId": api.logs.nodeID(c.node),
				"priority": 0, "startedTime": c.start.UnixMilli(), "finishedTime": 0, "elapsedTime": now.Sub(c.start).Milliseconds(),
				"logUrl":              "http://" + api.logs.nodeHTTP() + "/node/containerlogs/" + c.id + "/" + a.user,
				"containerExitStatus": 0, "containerState": "RUNNING", "nodeHttpAddress": "http://" + api.logs.nodeHTTP(),
				"nodeId": api.logs.nodeID(c.node), "allocatedResources": []map[string]any{{"key": "memory-mb", "value": mb}, {"key": "vcores", "value": 1}},
			})
		}
	}
	if len(out) == 0 {
		writeJSON(w, http.StatusOK, map[string]any{"containers": nil})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"containers": map[string]any{"container": out}})
}

// conf is the RM's /conf (ConfServlet): one property with ?name=, else all
// of them, as JSON.
func (api *rmAPI) conf(w http.ResponseWriter, r *http.Request) {
	api.mu.Lock()
	props := map[string]string{
		"yarn.log-aggregation-enable":         "true",
		"yarn.log.server.web-service.url":     api.logs.ahsBase(),
		"yarn.log.server.url":                 api.logs.ahsURL + "/applicationhistory/logs",
		"yarn.nodemanager.remote-app-log-dir": "/tmp/logs",
	}
	api.mu.Unlock()
	entry := func(k string) map[string]any {
		return map[string]any{"key": k, "value": props[k], "isFinal": false, "resource": "yarn-site.xml"}
	}
	if name := r.URL.Query().Get("name"); name != "" {
		if _, ok := props[name]; !ok {
			http.Error(w, "Property "+name+" not found", http.StatusNotFound)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"property": entry(name)})
		return
	}
	var all []map[string]any
	for _, k := range sortedKeys(props) {
		all = append(all, entry(k))
	}
	writeJSON(w, http.StatusOK, map[string]any{"properties": all})
}
