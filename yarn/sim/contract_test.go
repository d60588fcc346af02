package sim

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// The official specs are kept in the repository (yarn/testdata/reference, copied verbatim from shared/reference).
const specDir = "../testdata/reference/flink"

// loadRouter loads one OpenAPI file. Two documented departures of the real
// servers from these files are applied, and only these:
//   - ResourceID loses its [0-9a-f]{32} pattern: on YARN, TaskManager ids
//     are container ids (reference README §3, YarnResourceManagerDriver).
//   - AsynchronousOperationResult.operation's oneOf becomes anyOf: its
//     three alternatives are open objects, so every object matches all of
//     them and no response could ever satisfy oneOf.
func loadRouter(t *testing.T, rel string) routers.Router {
	t.Helper()
	r, _ := loadSpec(t, rel)
	return r
}

// loadSpec loads one OpenAPI file with the departures of loadRouter, and
// returns its router and the document.
func loadSpec(t *testing.T, rel string) (routers.Router, *openapi3.T) {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromFile(filepath.Join(specDir, rel))
	if err != nil {
		t.Fatalf("load spec %s (yarn/testdata/reference): %v", rel, err)
	}
	if s := doc.Components.Schemas["ResourceID"]; s != nil {
		s.Value.Pattern = ""
	}
	if s := doc.Components.Schemas["AsynchronousOperationResult"]; s != nil {
		if op := s.Value.Properties["operation"]; op != nil && len(op.Value.OneOf) > 0 {
			op.Value.AnyOf, op.Value.OneOf = op.Value.OneOf, nil
		}
	}
	r, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatalf("router for %s: %v", rel, err)
	}
	return r, doc
}

// flavour is one Flink version and the spec files it is checked against.
type flavour struct {
	version    string
	dispatcher string
	gateway    map[string]string // API version → spec file
}

var flavours = []flavour{
	{"2.1.0", "rest_v1_dispatcher.yml", map[string]string{"v1": "rest_v1_sql_gateway.yml", "v2": "rest_v2_sql_gateway.yml",
		"v3": "rest_v3_sql_gateway.yml", "v4": "rest_v4_sql_gateway.yml"}},
	{"2.0.0", "flink-2.0/rest_v1_dispatcher.yml", map[string]string{"v1": "flink-2.0/rest_v1_sql_gateway.yml",
		"v2": "flink-2.0/rest_v2_sql_gateway.yml", "v3": "flink-2.0/rest_v3_sql_gateway.yml", "v4": "flink-2.0/rest_v4_sql_gateway.yml"}},
	{"1.20.1", "flink-1.20/rest_v1_dispatcher.yml", map[string]string{"v1": "flink-1.20/rest_v1_sql_gateway.yml",
		"v2": "flink-1.20/rest_v2_sql_gateway.yml", "v3": "flink-1.20/rest_v3_sql_gateway.yml"}},
}

// validator checks every response that passes through its transport.
type validator struct {
	t          *testing.T
	c          *Cluster
	dispatcher routers.Router
	doc        *openapi3.T // the dispatcher spec
	gateway    map[string]routers.Router
	latest     string
	base       http.RoundTripper

	mu      sync.Mutex
	covered map[string]int // "METHOD /spec/path" (or wire-checked path) → responses checked
}

func newValidator(t *testing.T, c *Cluster, f flavour) *validator {
	v := &validator{t: t, c: c, gateway: map[string]routers.Router{}, base: http.DefaultTransport, covered: map[string]int{}}
	v.dispatcher, v.doc = loadSpec(t, f.dispatcher)
	for ver, file := range f.gateway {
		v.gateway[ver] = loadRouter(t, file)
		if ver > v.latest {
			v.latest = ver
		}
	}
	return v
}

func (v *validator) client() *http.Client {
	return &http.Client{Transport: v, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func (v *validator) cover(key string) {
	v.mu.Lock()
	v.covered[key]++
	v.mu.Unlock()
}

var reVersion = regexp.MustCompile(`^/(v[1-9])(/.*)$`)

func (v *validator) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := v.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	v.check(req, resp, body)
	return resp, nil
}

func (v *validator) check(req *http.Request, resp *http.Response, body []byte) {
	t := v.t
	t.Helper()
	p := req.URL.Path
	if req.URL.Host == strings.TrimPrefix(v.c.NodeManagerURL(), "http://") {
		v.checkContainerLogs("nm", req, resp, body)
		return
	}
	if strings.HasPrefix(v.c.LogServerURL(), "http://"+req.URL.Host+"/") {
		v.checkContainerLogs("log server", req, resp, body)
		return
	}
	gwHost := strings.TrimPrefix(v.c.GatewayURL(), "http://")
	isGateway := req.URL.Host == gwHost
	if !isGateway && !strings.HasPrefix(p, "/proxy/") {
		for _, rm := range v.c.RMURLs() {
			if req.URL.Host == strings.TrimPrefix(rm, "http://") {
				return // RM JSON is checked against the doc's examples instead
			}
		}
	}
	router, version := v.dispatcher, ""
	if strings.HasPrefix(p, "/proxy/") {
		parts := strings.SplitN(strings.TrimPrefix(p, "/proxy/"), "/", 2)
		p = "/" + parts[1]
	}
	if m := reVersion.FindStringSubmatch(p); m != nil {
		version, p = m[1], m[2]
	}
	if isGateway {
		if version == "" {
			version = v.latest
		}
		router = v.gateway[version]
		if router == nil {
			if resp.StatusCode != 404 {
				t.Errorf("%s %s: version %s is not served by this gateway, yet answered %d", req.Method, req.URL, version, resp.StatusCode)
			}
			return
		}
	}
	if resp.StatusCode >= 300 {
		v.checkFlinkError(req, resp, body)
		return
	}
	// Endpoints whose wire format departs from the spec (reference README
	// §4.1 and §5) are checked against the real shape.
	switch {
	case strings.HasSuffix(p, "/metrics") || strings.HasSuffix(p, "/watermarks"):
		v.checkMetricArray(req, body)
		v.cover(req.Method + " wire:" + templatePath(p))
		return
	case isGateway && strings.Contains(p, "/result/"):
		v.checkFetch(req, body)
		v.cover(req.Method + " wire:/sessions/{session_handle}/operations/{operation_handle}/result/{token}")
		return
	case isLogFile(p):
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
			t.Errorf("%s %s: log file served as %q, want text/plain", req.Method, req.URL, ct)
		}
		v.cover(req.Method + " text:" + templatePath(p))
		return
	case strings.HasSuffix(p, "/yarn-cancel"):
		v.cover(req.Method + " unspecified:/jobs/{jobid}/yarn-cancel")
		return
	case reJobConfig.MatchString(p):
		v.checkJobConfig(req, body)
		v.cover(req.Method + " wire:/jobs/{jobid}/config")
		return
	}
	u := *req.URL
	u.Path, u.RawPath = p, ""
	r2 := req.Clone(context.Background())
	r2.URL = &u
	route, params, err := router.FindRoute(r2)
	if err != nil {
		t.Errorf("%s %s answered %d but the spec has no such route: %v", req.Method, req.URL, resp.StatusCode, err)
		return
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: r2, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status: resp.StatusCode, Header: resp.Header,
		Options: &openapi3filter.Options{MultiError: true, IncludeResponseStatus: true},
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Errorf("%s %s: response does not match the spec (%s %s): %v\nbody: %.600s", req.Method, req.URL, route.Method, route.Path, err, body)
	}
	v.cover(route.Method + " " + route.Path)
}

var reTemplate = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`/jobs/[0-9a-f]{32}`), "/jobs/{jobid}"},
	{regexp.MustCompile(`/vertices/[0-9a-f]{32}`), "/vertices/{vertexid}"},
	{regexp.MustCompile(`/taskmanagers/container_[^/]+`), "/taskmanagers/{taskmanagerid}"},
	{regexp.MustCompile(`/jobmanager/logs/[^/]+`), "/jobmanager/logs/{filename}"},
	{regexp.MustCompile(`/subtasks/\d+/metrics`), "/subtasks/{subtaskindex}/metrics"},
	{regexp.MustCompile(`/containers/container_[^/]+`), "/containers/{containerid}"},
	{regexp.MustCompile(`/logs/[^/]+$`), "/logs/{filename}"},
}

func templatePath(p string) string {
	for _, r := range reTemplate {
		p = r.re.ReplaceAllString(p, r.repl)
	}
	return p
}

func isLogFile(p string) bool {
	return strings.HasSuffix(p, "/log") || strings.HasSuffix(p, "/stdout") || strings.Contains(p, "/logs/")
}

// exercise drives every endpoint of the brief through client.
func exercise(t *testing.T, c *Cluster, hc *http.Client) {
	prev := client
	client = hc
	defer func() { client = prev }()

	// A per-job application with a running job.
	out, err := c.Submit(t.Context(), SubmitRequest{Name: "contract", Parallelism: 3,
		Config: map[string]string{"rest.flamegraph.enabled": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	var app appJSON
	eventually(t, "app RUNNING", func() bool { app = rmApp(t, c, out.AppID); return app.AMRPCAddress != "" })
	jm := "http://" + app.AMRPCAddress
	jid := out.JobID
	eventually(t, "job RUNNING with checkpoints", func() bool {
		var cps jobCheckpoints
		mustJSON(t, "GET", jm+"/jobs/"+jid+"/checkpoints", nil, 200, &cps)
		return cps.Counts.Completed >= 2
	})
	for _, p := range []string{"/config", "/v1/config", "/overview", "/jobs", "/jobs/overview", "/jobs/metrics",
		"/jobs/metrics?get=uptime,numRestarts&agg=max,sum", "/taskmanagers", "/jobmanager/config", "/jobmanager/logs"} {
		mustJSON(t, "GET", jm+p, nil, 200, nil)
	}
	// Through the web proxy too.
	mustJSON(t, "GET", app.TrackingURL+"jobs/overview", nil, 200, nil)
	for _, p := range []string{"", "/status", "/plan", "/checkpoints", "/checkpoints/config", "/exceptions",
		"/exceptions?maxExceptions=1", "/metrics", "/metrics?get=uptime,numberOfCompletedCheckpoints,lastCheckpointExternalPath"} {
		mustJSON(t, "GET", jm+"/v1/jobs/"+jid+p, nil, 200, nil)
	}
	var cps jobCheckpoints
	mustJSON(t, "GET", jm+"/jobs/"+jid+"/checkpoints", nil, 200, &cps)
	mustJSON(t, "GET", fmt.Sprintf("%s/jobs/%s/checkpoints/details/%d", jm, jid, cps.History[0].ID), nil, 200, nil)
	var details struct {
		Vertices []struct {
			ID string `json:"id"`
		} `json:"vertices"`
	}
	mustJSON(t, "GET", jm+"/jobs/"+jid, nil, 200, &details)
	for _, vx := range details.Vertices {
		base := jm + "/jobs/" + jid + "/vertices/" + vx.ID
		for _, p := range []string{"", "/metrics", "/metrics?get=0.numRecordsInPerSecond,1.busyTimeMsPerSecond",
			"/subtasks/metrics", "/subtasks/metrics?get=numRecordsOutPerSecond,backPressuredTimeMsPerSecond&agg=sum,max,min,avg",
			"/backpressure", "/watermarks", "/subtasktimes", "/taskmanagers", "/subtasks/1/metrics",
			"/subtasks/0/metrics?get=numRecordsIn,busyTimeMsPerSecond"} {
			mustJSON(t, "GET", base+p, nil, 200, nil)
		}
		// The history moves on with the simulated clock (a loaded machine
		// spends simulated minutes above): ask for the newest checkpoint now.
		mustJSON(t, "GET", jm+"/jobs/"+jid+"/checkpoints", nil, 200, &cps)
		mustJSON(t, "GET", fmt.Sprintf("%s/jobs/%s/checkpoints/details/%d/subtasks/%s", jm, jid, cps.History[0].ID, vx.ID), nil, 200, nil)
		// The first flame graph request starts the sampling (endTimestamp -3).
		for _, typ := range []string{"", "?type=ON_CPU", "?type=OFF_CPU&subtaskindex=1"} {
			eventually(t, "flame graph "+typ, func() bool {
				var fg struct {
					End  int64           `json:"endTimestamp"`
					Data json.RawMessage `json:"data"`
				}
				mustJSON(t, "GET", base+"/flamegraph"+typ, nil, 200, &fg)
				return fg.End > 0 && len(fg.Data) > 0
			})
		}
	}
	mustJSON(t, "GET", jm+"/jobs/"+jid+"/config", nil, 200, nil)
	var tms struct {
		TaskManagers []struct {
			ID string `json:"id"`
		} `json:"taskmanagers"`
	}
	mustJSON(t, "GET", jm+"/taskmanagers", nil, 200, &tms)
	if len(tms.TaskManagers) != 2 {
		t.Fatalf("parallelism 3 with 2 slots per TaskManager: %d TaskManagers, want 2", len(tms.TaskManagers))
	}
	tm := jm + "/taskmanagers/" + tms.TaskManagers[0].ID
	mustJSON(t, "GET", tm+"/logs", nil, 200, nil)
	mustJSON(t, "GET", tm, nil, 200, nil)
	mustJSON(t, "GET", tm+"/thread-dump", nil, 200, nil)
	mustJSON(t, "GET", tm+"/thread-dump?mode=FULL", nil, 200, nil)
	mustJSON(t, "GET", tm+"/metrics", nil, 200, nil)
	mustJSON(t, "GET", tm+"/metrics?get=Status.JVM.Memory.Heap.Used,Status.JVM.CPU.Load", nil, 200, nil)

	// The containers' logs on their NodeManager while the application runs.
	rm := c.ActiveRMURL()
	var conts struct {
		Containers struct {
			Container []struct {
				ID       string `json:"containerId"`
				NodeHTTP string `json:"nodeHttpAddress"`
			} `json:"container"`
		} `json:"containers"`
	}
	mustJSON(t, "GET", rm+"/ws/v1/cluster/apps/"+out.AppID+"/appattempts/"+attemptIDOf(out.AppID, 1)+"/containers", nil, 200, &conts)
	if len(conts.Containers.Container) != 3 {
		t.Fatalf("a JobManager and 2 TaskManagers: %d containers", len(conts.Containers.Container))
	}
	tmContainer := conts.Containers.Container[1]
	nm := tmContainer.NodeHTTP + "/ws/v1/node/containers/" + tmContainer.ID
	mustJSON(t, "GET", nm+"/logs", nil, 200, nil)
	for _, q := range []string{"", "?size=4096", "?size=-4096"} {
		if r := do(t, "GET", nm+"/logs/taskmanager.log"+q, nil); r.status != 200 {
			t.Errorf("GET %s: %s", nm+"/logs/taskmanager.log"+q, r)
		}
	}
	for _, p := range []string{tm + "/log", tm + "/stdout", tm + "/logs/taskmanager.log", jm + "/jobmanager/log",
		jm + "/jobmanager/stdout", jm + "/jobmanager/logs/jobmanager.log"} {
		if r := do(t, "GET", p, nil); r.status != 200 || len(r.body) == 0 {
			t.Errorf("GET %s: %d, %d bytes", p, r.status, len(r.body))
		}
	}
	if err := c.InterruptJob(jid); err != nil {
		t.Fatal(err)
	}
	mustJSON(t, "GET", jm+"/jobs/"+jid+"/exceptions", nil, 200, nil)
	eventually(t, "job RUNNING again", func() bool { return jobStatus(t, jm, jid) == "RUNNING" })

	// Savepoint, then stop-with-savepoint, polled to the end.
	poll := func(trigger string) {
		eventually(t, "operation COMPLETED", func() bool {
			var op struct {
				Status struct{ ID string } `json:"status"`
			}
			mustJSON(t, "GET", jm+"/jobs/"+jid+"/savepoints/"+trigger, nil, 200, &op)
			return op.Status.ID == "COMPLETED"
		})
	}
	var trig struct {
		RequestID string `json:"request-id"`
	}
	mustJSON(t, "POST", jm+"/jobs/"+jid+"/savepoints", map[string]any{"target-directory": "hdfs:///sp", "cancel-job": false}, 202, &trig)
	poll(trig.RequestID)
	// The savepoint is disposed of through the dispatcher; a second
	// disposal of it fails as Flink's does (no _metadata any more).
	var sp struct {
		Operation struct{ Location string } `json:"operation"`
	}
	mustJSON(t, "GET", jm+"/jobs/"+jid+"/savepoints/"+trig.RequestID, nil, 200, &sp)
	for i, wantFail := range []bool{false, true} {
		mustJSON(t, "POST", jm+"/savepoint-disposal", map[string]any{"savepoint-path": sp.Operation.Location}, 200, &trig)
		var op struct {
			Status    struct{ ID string } `json:"status"`
			Operation struct {
				Failure *struct{ Class string } `json:"failure-cause"`
			} `json:"operation"`
		}
		mustJSON(t, "GET", jm+"/savepoint-disposal/"+trig.RequestID, nil, 200, &op)
		if op.Status.ID != "COMPLETED" || (op.Operation.Failure != nil) != wantFail {
			t.Errorf("disposal %d of %s: %+v", i+1, sp.Operation.Location, op)
		}
	}
	if snap, _ := c.App(out.AppID); len(snap.Disposals) != 2 || snap.Disposals[0].Path != sp.Operation.Location || snap.Disposals[0].Error != "" || snap.Disposals[1].Error == "" {
		t.Errorf("disposals recorded: %+v", snap.Disposals)
	}
	mustJSON(t, "POST", jm+"/jobs/"+jid+"/stop", map[string]any{"targetDirectory": "hdfs:///sp", "drain": true}, 202, &trig)
	poll(trig.RequestID)

	// Once the application ended, the NodeManager sends its containers'
	// logs to the log server, which serves them aggregated.
	eventually(t, "app FINISHED", func() bool { return rmApp(t, c, out.AppID).State == "FINISHED" })
	if r := do(t, "GET", nm+"/logs", nil); r.status != http.StatusTemporaryRedirect ||
		!strings.HasPrefix(r.header.Get("Location"), c.LogServerURL()+"/containers/") {
		t.Errorf("NodeManager after the end: %s %v", r, r.header)
	}
	ahs := c.LogServerURL() + "/containers/" + tmContainer.ID
	mustJSON(t, "GET", ahs+"/logs", nil, 200, nil)
	if r := do(t, "GET", ahs+"/logs/taskmanager.log?size=-2000", nil); r.status != 200 {
		t.Errorf("aggregated log: %s", r)
	}
	if r := do(t, "GET", nm+"/logs/taskmanager.out", nil); r.status != http.StatusTemporaryRedirect {
		t.Errorf("NodeManager file after the end: %s", r)
	}
	mustJSON(t, "GET", rm+"/conf?name=yarn.log.server.web-service.url", nil, 200, nil)

	// A session cluster: jars, run, cancel.
	sess, err := c.Submit(t.Context(), SubmitRequest{Mode: ModeSession, Name: "shared"})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "session RUNNING", func() bool { app = rmApp(t, c, sess.AppID); return app.AMRPCAddress != "" })
	sjm := "http://" + app.AMRPCAddress
	mustJSON(t, "GET", sjm+"/jars", nil, 200, nil)
	jarID := uploadJar(t, sjm, "wordcount.jar", "org.example.WordCount")
	var run struct {
		JobID string `json:"jobid"`
	}
	mustJSON(t, "POST", sjm+"/jars/"+jarID+"/run", map[string]any{"programArgsList": []string{"--in", "x"}, "parallelism": 2}, 200, &run)
	eventually(t, "jar job RUNNING", func() bool { return jobStatus(t, sjm, run.JobID) == "RUNNING" })
	mustJSON(t, "PATCH", sjm+"/jobs/"+run.JobID+"?mode=cancel", nil, 202, nil)
	mustJSON(t, "POST", sjm+"/jars/"+jarID+"/run?entry-class=org.example.Other", nil, 200, &run)
	mustJSON(t, "GET", sjm+"/jobs/"+run.JobID+"/yarn-cancel", nil, 202, nil)
	mustJSON(t, "GET", sjm+"/jars", nil, 200, nil)
	mustJSON(t, "DELETE", sjm+"/jars/"+jarID, nil, 200, nil)

	// The SQL Gateway, in every version it serves and unversioned.
	versions := c.gatewayVersions()
	for _, ver := range append(versions, "") {
		prefix := c.GatewayURL()
		if ver != "" {
			prefix += "/" + ver
		}
		mustJSON(t, "GET", prefix+"/api_versions", nil, 200, nil)
		mustJSON(t, "GET", prefix+"/info", nil, 200, nil)
		var s struct {
			SessionHandle string `json:"sessionHandle"`
		}
		mustJSON(t, "POST", prefix+"/sessions", map[string]any{"properties": map[string]string{"parallelism.default": "2"}}, 200, &s)
		session := prefix + "/sessions/" + s.SessionHandle
		mustJSON(t, "GET", session, nil, 200, nil)
		mustJSON(t, "POST", session+"/heartbeat", nil, 200, nil)
		if ver != "v1" {
			mustJSON(t, "POST", session+"/configure-session", map[string]any{"statement": ddl}, 200, nil)
			mustJSON(t, "GET", session+"/complete-statement", map[string]any{"statement": "SEL", "position": 3}, 200, nil)
		} else {
			runSQLAt(t, session, ddl, "")
		}
		format := "JSON"
		if ver == "v1" {
			format = ""
		}
		for _, sql := range []string{"SET 'pipeline.name' = 'contract-sql'", "SET", "SHOW TABLES", "SELECT 1, 'two' AS b",
			"EXPLAIN INSERT INTO orders SELECT * FROM orders", "RESET 'pipeline.name'"} {
			runSQLAt(t, session, sql, format)
		}
		// Cancel an INSERT while its per-job cluster deploys (tens of
		// milliseconds at this clock speed; retried if the machine is slower).
		for attempt := 0; ; attempt++ {
			var op struct {
				OperationHandle string `json:"operationHandle"`
			}
			mustJSON(t, "POST", session+"/statements", map[string]any{"statement": "INSERT INTO orders SELECT * FROM orders",
				"executionConfig": map[string]string{"execution.target": "yarn-per-job"}}, 200, &op)
			ops := session + "/operations/" + op.OperationHandle
			mustJSON(t, "GET", ops+"/status", nil, 200, nil)
			r := do(t, "POST", ops+"/cancel", nil)
			mustJSON(t, "DELETE", ops+"/close", nil, 200, nil)
			if r.status == 200 {
				break
			}
			if attempt == 5 {
				t.Fatalf("cancel never caught a running operation: %s", r)
			}
		}
		mustJSON(t, "DELETE", session, nil, 200, nil)
	}
}

// runSQLAt runs a statement in a session URL and fetches it to the end.
func runSQLAt(t *testing.T, session, sql, format string) {
	t.Helper()
	var op struct {
		OperationHandle string `json:"operationHandle"`
	}
	mustJSON(t, "POST", session+"/statements", map[string]any{"statement": sql, "executionTimeout": 0}, 200, &op)
	url := session + "/operations/" + op.OperationHandle + "/result/0"
	if format != "" {
		url += "?rowFormat=" + format
	}
	for i := 0; ; i++ {
		var res fetchResult
		mustJSON(t, "GET", url, nil, 200, &res)
		if res.NextResultURI == "" {
			if res.ResultType != "EOS" {
				t.Fatalf("%s: ended with %s", sql, res.ResultType)
			}
			return
		}
		u, err := url2abs(session, res.NextResultURI)
		if err != nil {
			t.Fatal(err)
		}
		url = u
		if i > 10000 {
			t.Fatalf("%s: never ends", sql)
		}
		if res.ResultType == "NOT_READY" {
			time.Sleep(2 * time.Millisecond)
		}
	}
}

func url2abs(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	r, err := b.Parse(ref)
	if err != nil {
		return "", err
	}
	return r.String(), nil
}

// uploadJar uploads a minimal jar whose manifest names mainClass.
func uploadJar(t *testing.T, jm, name, mainClass string) string {
	t.Helper()
	var jarBuf bytes.Buffer
	zw := zip.NewWriter(&jarBuf)
	w, _ := zw.Create("META-INF/MANIFEST.MF")
	fmt.Fprintf(w, "Manifest-Version: 1.0\r\nMain-Class: %s\r\n", mainClass)
	_ = zw.Close()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("jarfile", name)
	_, _ = fw.Write(jarBuf.Bytes())
	_ = mw.Close()
	req, _ := http.NewRequestWithContext(t.Context(), "POST", jm+"/jars/upload", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var up struct {
		Filename string `json:"filename"`
		Status   string `json:"status"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&up); err != nil || resp.StatusCode != 200 || up.Status != "success" {
		t.Fatalf("upload: %d %+v %v", resp.StatusCode, up, err)
	}
	return filepath.Base(up.Filename)
}

func TestContractEveryResponseMatchesTheSpecs(t *testing.T) {
	for _, f := range flavours {
		t.Run(f.version, func(t *testing.T) {
			o := fastOptions()
			o.FlinkVersion = f.version
			c := startCluster(t, o)
			v := newValidator(t, c, f)
			exercise(t, c, v.client())
			// Every endpoint of the brief was checked at least once.
			want := []string{
				"GET /config", "GET /overview", "GET /jobs", "GET /jobs/overview", "GET /jobs/{jobid}",
				"GET /jobs/{jobid}/status", "PATCH /jobs/{jobid}", "GET /jobs/{jobid}/plan",
				"GET /jobs/{jobid}/checkpoints", "GET /jobs/{jobid}/checkpoints/config",
				"GET /jobs/{jobid}/checkpoints/details/{checkpointid}", "POST /jobs/{jobid}/savepoints",
				"GET /jobs/{jobid}/savepoints/{triggerid}", "POST /jobs/{jobid}/stop",
				"POST /savepoint-disposal", "GET /savepoint-disposal/{triggerid}", "GET /jobs/{jobid}/exceptions",
				"GET /jobs/{jobid}/vertices/{vertexid}", "GET /jobs/{jobid}/vertices/{vertexid}/backpressure",
				"GET /taskmanagers", "GET /taskmanagers/{taskmanagerid}/logs", "GET /jobmanager/config",
				"GET /jobmanager/logs", "GET /jars", "POST /jars/upload", "POST /jars/{jarid}/run", "DELETE /jars/{jarid}",
				"GET wire:/jobs/metrics", "GET wire:/jobs/{jobid}/metrics", "GET wire:/jobs/{jobid}/vertices/{vertexid}/metrics",
				"GET wire:/jobs/{jobid}/vertices/{vertexid}/subtasks/metrics", "GET wire:/jobs/{jobid}/vertices/{vertexid}/watermarks",
				"GET text:/jobmanager/log", "GET text:/jobmanager/logs/{filename}", "GET text:/taskmanagers/{taskmanagerid}/log",
				"GET unspecified:/jobs/{jobid}/yarn-cancel",
				"GET /jobs/{jobid}/vertices/{vertexid}/subtasktimes", "GET /jobs/{jobid}/vertices/{vertexid}/taskmanagers",
				"GET /jobs/{jobid}/vertices/{vertexid}/flamegraph", "GET wire:/jobs/{jobid}/vertices/{vertexid}/subtasks/{subtaskindex}/metrics",
				"GET /jobs/{jobid}/checkpoints/details/{checkpointid}/subtasks/{vertexid}", "GET wire:/jobs/{jobid}/config",
				"GET /taskmanagers/{taskmanagerid}", "GET /taskmanagers/{taskmanagerid}/thread-dump",
				"GET wire:/taskmanagers/{taskmanagerid}/metrics",
				"GET nm:/ws/v1/node/containers/{containerid}/logs", "GET nm:/ws/v1/node/containers/{containerid}/logs/{filename}",
				"GET nm:/ws/v1/node/containers/{containerid}/logs redirect", "GET nm:/ws/v1/node/containers/{containerid}/logs/{filename} redirect",
				"GET log server:/ws/v1/applicationhistory/containers/{containerid}/logs",
				"GET log server:/ws/v1/applicationhistory/containers/{containerid}/logs/{filename}",
				"GET /api_versions", "GET /info", "POST /sessions", "GET /sessions/{session_handle}",
				"DELETE /sessions/{session_handle}", "POST /sessions/{session_handle}/heartbeat",
				"POST /sessions/{session_handle}/configure-session", "GET /sessions/{session_handle}/complete-statement",
				"POST /sessions/{session_handle}/statements", "GET /sessions/{session_handle}/operations/{operation_handle}/status",
				"POST /sessions/{session_handle}/operations/{operation_handle}/cancel",
				"DELETE /sessions/{session_handle}/operations/{operation_handle}/close",
				"GET wire:/sessions/{session_handle}/operations/{operation_handle}/result/{token}",
			}
			var missing []string
			for _, k := range want {
				if v.covered[k] == 0 {
					missing = append(missing, k)
				}
			}
			if len(missing) > 0 {
				keys := sortedKeys(v.covered)
				sort.Strings(keys)
				t.Errorf("endpoints never checked: %v\nchecked: %v", missing, keys)
			}
		})
	}
}

// attemptIDOf is the id of an application's attempt n.
func attemptIDOf(appID string, n int) string {
	return fmt.Sprintf("appattempt_%s_%06d", strings.TrimPrefix(appID, "application_"), n)
}
