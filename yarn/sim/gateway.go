package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// sqlGateway is the Flink SQL Gateway: its listener, its sessions and
// their operations. It serves /v1…/v4 (…/v3 for Flink 1.x) and unversioned
// paths, which map to the newest version (SqlGatewayRestAPIVersion). The
// SQL it understands is in sql.go; an INSERT deploys a job through the YARN
// and Flink sides. It is guarded by the cluster lock.
type sqlGateway struct {
	mu           *sync.Mutex // the cluster lock
	clock        Clock
	host         string
	flinkVersion string
	rng          *rand.Rand // handles and ids
	yarn         *yarnApps
	flink        *flinkJobs
	sessions     map[string]*sqlSession
	lastSweep    time.Time // when idle sessions were last removed
	srv          *http.Server
	url          string // http://host:port, once listening
	// onStatement is Options.OnStatement.
	onStatement func(GatewayStatement)
	// queries is Options.Queries.
	queries QueryEngine
}

// GatewayStatement is one statement a gateway session executed.
type GatewayStatement struct {
	Session   string // the session's name
	Statement string
	At        time.Time
}

// sqlSession is one gateway session: its configuration and its catalog
// (the default in-memory catalog is per session).
type sqlSession struct {
	handle     string
	name       string
	props      map[string]string
	initial    map[string]string
	tables     map[string]tableDef // by lower-case name
	views      map[string]bool
	functions  map[string]bool
	ddl        []string // the CREATE statements it ran, for a QueryEngine
	ops        map[string]*sqlOp
	lastAccess time.Time
}

type tableDef struct {
	name  string
	kafka bool
}

// sqlOp is one operation (a statement's execution).
type sqlOp struct {
	handle   string
	status   string // INITIALIZED, PENDING, RUNNING, FINISHED, CANCELED, CLOSED, ERROR, TIMEOUT
	readyAt  time.Time
	result   *sqlResult
	err      string
	app      *app // for a submitted job: the op finishes when the job is submitted
	job      *job
	consumed bool // token 0 was served
	// engine is closed when a QueryEngine's query answered; stop cancels it.
	engine chan struct{}
	stop   context.CancelFunc
}

type column struct {
	Name        string         `json:"name"`
	LogicalType map[string]any `json:"logicalType"`
	Comment     *string        `json:"comment"`
}

type sqlResult struct {
	columns []column
	rows    [][]any
	kind    string   // SUCCESS or SUCCESS_WITH_CONTENT
	kinds   []string // each row's RowKind; nil: INSERT
	query   bool
	jobID   string
}

func stringType() map[string]any {
	return map[string]any{"type": "VARCHAR", "nullable": true, "length": 2147483647}
}

// resultOK is TableResultImpl.TABLE_RESULT_OK.
func resultOK() *sqlResult {
	return &sqlResult{columns: []column{{Name: "result", LogicalType: stringType()}}, rows: [][]any{{"OK"}}, kind: "SUCCESS"}
}

func stringRows(col string, vals []string) *sqlResult {
	r := &sqlResult{columns: []column{{Name: col, LogicalType: map[string]any{"type": "VARCHAR", "nullable": false, "length": 2147483647}}},
		kind: "SUCCESS_WITH_CONTENT", rows: [][]any{}}
	for _, v := range vals {
		r.rows = append(r.rows, []any{v})
	}
	return r
}

const sessionIdle = 10 * time.Minute // sql-gateway.session.idle-timeout

// sweep removes the sessions nobody used for sessionIdle, like the
// gateway's idle timeout, at most once a simulated minute.
func (gw *sqlGateway) sweep(now time.Time) {
	if now.Sub(gw.lastSweep) <= time.Minute {
		return
	}
	gw.lastSweep = now
	for h, s := range gw.sessions {
		if now.Sub(s.lastAccess) > sessionIdle {
			delete(gw.sessions, h)
		}
	}
}

// versions returns the API versions this gateway serves, oldest first.
func (gw *sqlGateway) versions() []string {
	if strings.HasPrefix(gw.flinkVersion, "1.") {
		return []string{"v1", "v2", "v3"}
	}
	return []string{"v1", "v2", "v3", "v4"}
}

// handler serves the SQL Gateway REST API.
func (gw *sqlGateway) handler() http.Handler {
	mux := http.NewServeMux()
	versions := gw.versions()
	latest := versions[len(versions)-1]
	handle := func(method, path, since string, fn func(g *gwReq) jmAnswer) {
		prefixes := map[string]string{"": latest}
		for _, v := range versions {
			if v >= since {
				prefixes["/"+v] = v
			}
		}
		for prefix, v := range prefixes {
			v := v
			if v < since {
				continue
			}
			mux.Handle(method+" "+prefix+path, gw.serveJSON(v, fn))
		}
	}
	handle("GET", "/api_versions", "v1", func(g *gwReq) jmAnswer {
		out := []string{}
		for _, v := range versions {
			out = append(out, strings.ToUpper(v))
		}
		return ok(map[string]any{"versions": out})
	})
	handle("GET", "/info", "v1", func(g *gwReq) jmAnswer {
		return ok(map[string]string{"productName": "Apache Flink", "version": g.gw.flinkVersion})
	})
	handle("POST", "/sessions", "v1", gwOpenSession)
	handle("GET", "/sessions/{session_handle}", "v1", withSession(gwGetSession))
	handle("DELETE", "/sessions/{session_handle}", "v1", withSession(gwCloseSession))
	handle("POST", "/sessions/{session_handle}/heartbeat", "v1", withSession(func(g *gwReq, s *sqlSession) jmAnswer {
		return jmAnswer{status: http.StatusOK}
	}))
	handle("POST", "/sessions/{session_handle}/configure-session", "v2", withSession(gwConfigure))
	handle("GET", "/sessions/{session_handle}/complete-statement", "v2", withSession(gwComplete))
	handle("POST", "/sessions/{session_handle}/statements", "v1", withSession(gwExecute))
	handle("GET", "/sessions/{session_handle}/operations/{operation_handle}/status", "v1", withOp(func(g *gwReq, s *sqlSession, op *sqlOp) jmAnswer {
		return ok(map[string]string{"status": op.status})
	}))
	handle("POST", "/sessions/{session_handle}/operations/{operation_handle}/cancel", "v1", withOp(gwCancel))
	handle("DELETE", "/sessions/{session_handle}/operations/{operation_handle}/close", "v1", withOp(func(g *gwReq, s *sqlSession, op *sqlOp) jmAnswer {
		op.status = "CLOSED"
		delete(s.ops, op.handle)
		return ok(map[string]string{"status": "CLOSED"})
	}))
	handle("GET", "/sessions/{session_handle}/operations/{operation_handle}/result/{token}", "v1", withOp(gwFetch))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeFlinkError(w, http.StatusNotFound, "Not found: "+r.URL.Path)
	})
	return mux
}

// gwReq is one gateway request, handled under the cluster lock.
type gwReq struct {
	gw      *sqlGateway
	version string // "v1" … "v4"
	now     time.Time
	r       *http.Request
}

// serveJSON runs fn under the cluster lock and writes its answer after
// the lock is released.
func (gw *sqlGateway) serveJSON(version string, fn func(g *gwReq) jmAnswer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gw.mu.Lock()
		ans := fn(&gwReq{gw: gw, version: version, now: gw.clock.Now(), r: r})
		gw.mu.Unlock()
		if ans.body == nil {
			w.Header().Set("Content-Type", "application/json; charset=UTF-8")
			w.WriteHeader(ans.status)
			_, _ = w.Write([]byte("{}"))
			return
		}
		writeJSON(w, ans.status, ans.body)
	})
}

// gwInternal answers like Flink's AbstractHandler for an unhandled
// exception: the SQL Gateway reports most failures this way, with 500.
func gwInternal(what, cause string) jmAnswer {
	return jmAnswer{status: http.StatusInternalServerError, body: flinkErrors{Errors: []string{"Internal server error.",
		"<Exception on server side:\norg.apache.flink.table.gateway.api.utils.SqlGatewayException: " + what +
			"\n\tat org.apache.flink.table.gateway.rest.handler.AbstractSqlGatewayRestHandler.respondToRequest(AbstractSqlGatewayRestHandler.java:84)\nCaused by: " +
			cause + "\n\t... 1 more\n\nEnd of exception on server side>"}}}
}

func withSession(fn func(g *gwReq, s *sqlSession) jmAnswer) func(g *gwReq) jmAnswer {
	return func(g *gwReq) jmAnswer {
		h := g.r.PathValue("session_handle")
		s := g.gw.sessions[h]
		if s != nil && g.now.Sub(s.lastAccess) > sessionIdle {
			delete(g.gw.sessions, h) // expired: nobody sent a heartbeat
			s = nil
		}
		if s == nil {
			return gwInternal("Failed to handle the request for session "+h+".",
				"org.apache.flink.table.gateway.service.utils.SqlExecutionException: Session '"+h+"' does not exist.")
		}
		s.lastAccess = g.now
		return fn(g, s)
	}
}

func withOp(fn func(g *gwReq, s *sqlSession, op *sqlOp) jmAnswer) func(g *gwReq) jmAnswer {
	return withSession(func(g *gwReq, s *sqlSession) jmAnswer {
		h := g.r.PathValue("operation_handle")
		op := s.ops[h]
		if op == nil {
			return gwInternal("Failed to handle the operation "+h+".",
				"org.apache.flink.table.gateway.service.utils.SqlExecutionException: Can not find the submitted operation in the OperationManager with the "+h+".")
		}
		g.gw.refreshOp(op, g.now)
		return fn(g, s, op)
	})
}

// uuid returns a new random UUID (session and operation handles).
func (gw *sqlGateway) uuid() string {
	h := hex32(gw.rng)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// defaults are the gateway's own configuration, under every session's.
func (gw *sqlGateway) defaults() map[string]string {
	return map[string]string{
		"execution.target":                        ModePerJob,
		"execution.runtime-mode":                  "streaming",
		"sql-gateway.session.idle-timeout":        "10 min",
		"table.exec.resource.default-parallelism": "-1",
		"rest.address":                            gw.host,
	}
}

func gwOpenSession(g *gwReq) jmAnswer {
	var body struct {
		SessionName string            `json:"sessionName"`
		Properties  map[string]string `json:"properties"`
	}
	if err := decodeBody(g.r, &body); err != nil {
		return badRequestFlink("Request did not match expected format OpenSessionRequestBody: " + err.Error())
	}
	s := &sqlSession{handle: g.gw.uuid(), name: body.SessionName, props: g.gw.defaults(),
		tables: map[string]tableDef{}, views: map[string]bool{}, functions: map[string]bool{},
		ops: map[string]*sqlOp{}, lastAccess: g.now}
	for k, v := range body.Properties {
		s.props[k] = v
	}
	s.initial = cloneMap(s.props)
	g.gw.sessions[s.handle] = s
	return ok(map[string]string{"sessionHandle": s.handle})
}

func cloneMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func gwGetSession(g *gwReq, s *sqlSession) jmAnswer {
	return ok(map[string]any{"properties": cloneMap(s.props)})
}

func gwCloseSession(g *gwReq, s *sqlSession) jmAnswer {
	delete(g.gw.sessions, s.handle)
	return ok(map[string]string{"status": "CLOSED"})
}

// gwConfigure is POST configure-session: it runs a DDL-like statement at once.
func gwConfigure(g *gwReq, s *sqlSession) jmAnswer {
	var body struct {
		Statement string `json:"statement"`
	}
	if err := decodeBody(g.r, &body); err != nil {
		return badRequestFlink("Request did not match expected format ConfigureSessionRequestBody: " + err.Error())
	}
	st := classify(body.Statement)
	switch st.kind {
	case stmtCreate, stmtDrop, stmtUse:
	default:
		return gwInternal("Failed to configure session.",
			"org.apache.flink.table.gateway.service.utils.SqlExecutionException: Unsupported statement for configuring session:"+body.Statement+
				"\nThe configureSession API only supports to execute statement of type CREATE TABLE, DROP TABLE, ALTER TABLE, CREATE DATABASE, DROP DATABASE, ALTER DATABASE, CREATE FUNCTION, DROP FUNCTION, ALTER FUNCTION, CREATE CATALOG, DROP CATALOG, USE CATALOG, USE [CATALOG.]DATABASE, CREATE VIEW, DROP VIEW, LOAD MODULE, UNLOAD MODULE, USE MODULE, ADD JAR.")
	}
	if _, err := g.gw.runDDL(s, st); err != nil {
		return gwInternal("Failed to configure session.", err.Error())
	}
	return jmAnswer{status: http.StatusOK}
}

func gwComplete(g *gwReq, s *sqlSession) jmAnswer {
	var body struct {
		Statement string `json:"statement"`
		Position  int    `json:"position"`
	}
	_ = decodeBody(g.r, &body)
	pos := min(max(body.Position, 0), len(body.Statement))
	word := body.Statement[:pos]
	if i := strings.LastIndexAny(word, " \t\n(,"); i >= 0 {
		word = word[i+1:]
	}
	cands := []string{}
	if word != "" {
		for _, kw := range []string{"SELECT", "INSERT", "INTO", "FROM", "WHERE", "CREATE", "TABLE", "VIEW", "FUNCTION", "SET", "RESET", "SHOW", "EXPLAIN", "EXECUTE", "STATEMENT", "BEGIN", "END"} {
			if strings.HasPrefix(kw, strings.ToUpper(word)) {
				cands = append(cands, kw)
			}
		}
		for _, t := range sortedKeys(s.tables) {
			if strings.HasPrefix(t, strings.ToLower(word)) {
				cands = append(cands, s.tables[t].name)
			}
		}
	}
	return ok(map[string]any{"candidates": cands})
}

func gwExecute(g *gwReq, s *sqlSession) jmAnswer {
	var body struct {
		Statement        string            `json:"statement"`
		ExecutionTimeout int64             `json:"executionTimeout"`
		ExecutionConfig  map[string]string `json:"executionConfig"`
	}
	if err := decodeBody(g.r, &body); err != nil {
		return badRequestFlink("Request did not match expected format ExecuteStatementRequestBody: " + err.Error())
	}
	op := &sqlOp{handle: g.gw.uuid(), status: "RUNNING"}
	s.ops[op.handle] = op
	if g.gw.onStatement != nil {
		g.gw.onStatement(GatewayStatement{Session: s.name, Statement: body.Statement, At: g.now})
	}
	g.gw.execute(s, op, body.Statement, body.ExecutionConfig, g.now)
	return ok(map[string]string{"operationHandle": op.handle})
}

func gwCancel(g *gwReq, s *sqlSession, op *sqlOp) jmAnswer {
	switch op.status {
	case "FINISHED", "ERROR", "CANCELED", "CLOSED", "TIMEOUT":
		return gwInternal("Failed to cancel the operation "+op.handle+".",
			"org.apache.flink.table.gateway.service.utils.SqlExecutionException: Failed to convert the Operation Status from "+op.status+" to CANCELED for "+op.handle+".")
	}
	op.status = "CANCELED"
	if op.stop != nil {
		op.stop()
	}
	if op.app != nil && !yarnFinal(op.app.state) && op.app.mode != ModeSession {
		// The deployment was still in progress: abort it.
		g.gw.yarn.kill(op.app, g.now)
	}
	return ok(map[string]string{"status": "CANCELED"})
}

// refreshOp moves an operation forward in time.
func (gw *sqlGateway) refreshOp(op *sqlOp, now time.Time) {
	if op.status != "RUNNING" {
		return
	}
	if op.app != nil {
		gw.yarn.advance(op.app, now)
		switch {
		case yarnFinal(op.app.state):
			op.status = "ERROR"
			op.err = "org.apache.flink.client.deployment.ClusterDeploymentException: Could not deploy Yarn job cluster.\nCaused by: The YARN application unexpectedly switched to state " +
				op.app.state + " during deployment.\nDiagnostics from YARN: " + op.app.diag
		case op.app.state == yarnRunning && op.job.state != "" && !now.Before(op.readyAt):
			op.status = "FINISHED"
		}
		return
	}
	if op.engine != nil {
		if op.engineDone() {
			if op.err != "" {
				op.status = "ERROR"
			} else {
				op.status = "FINISHED"
			}
		}
		return
	}
	if !now.Before(op.readyAt) {
		if op.err != "" {
			op.status = "ERROR"
		} else {
			op.status = "FINISHED"
		}
	}
}

func gwFetch(g *gwReq, s *sqlSession, op *sqlOp) jmAnswer {
	format := g.r.URL.Query().Get("rowFormat")
	if g.version != "v1" {
		if format == "" {
			return badRequestFlink("Bad request, could not parse parameters: Missing required query parameter 'rowFormat'.")
		}
		if format != "JSON" && format != "PLAIN_TEXT" {
			return badRequestFlink("Bad request, could not parse parameters: Conversion of query parameter rowFormat failed for value " + format)
		}
	} else {
		format = "JSON"
	}
	token, err := strconv.ParseInt(g.r.PathValue("token"), 10, 64)
	if err != nil || token < 0 {
		return badRequestFlink("Bad request, could not parse parameters: Conversion of path parameter token failed for value " + g.r.PathValue("token"))
	}
	next := func(t int64) string {
		u := fmt.Sprintf("/%s/sessions/%s/operations/%s/result/%d", g.version, s.handle, op.handle, t)
		if g.version != "v1" {
			u += "?rowFormat=" + format
		}
		return u
	}
	switch op.status {
	case "RUNNING", "PENDING", "INITIALIZED":
		return ok(map[string]any{"resultType": "NOT_READY", "nextResultUri": next(token)})
	case "ERROR":
		return gwInternal("Failed to fetchResults.", op.err)
	case "CANCELED", "CLOSED", "TIMEOUT":
		return gwInternal("Failed to fetchResults.", "org.apache.flink.table.gateway.service.utils.SqlExecutionException: Can not fetch results from the "+
			op.status+" operation "+op.handle+".")
	}
	res := op.result
	cols := res.columns
	data := []map[string]any{}
	resultType := "EOS"
	switch {
	case token == 0:
		resultType = "PAYLOAD"
		op.consumed = true
		for _, row := range res.rows {
			fields := make([]any, len(row))
			for i, f := range row {
				if format == "PLAIN_TEXT" {
					fields[i] = fmt.Sprint(f)
				} else {
					fields[i] = f
				}
			}
			kind := "INSERT"
			if i := len(data); i < len(res.kinds) {
				kind = res.kinds[i]
			}
			data = append(data, map[string]any{"kind": kind, "fields": fields})
		}
	case token == 1 && op.consumed:
	default:
		return gwInternal("Failed to fetchResults.", fmt.Sprintf(
			"java.lang.IllegalArgumentException: Expecting token to be 0 or 1, but found %d.", token))
	}
	body := map[string]any{
		"resultType":    resultType,
		"isQueryResult": res.query,
		"resultKind":    res.kind,
		"results":       map[string]any{"columns": cols, "rowFormat": format, "data": data},
	}
	if res.jobID != "" {
		body["jobID"] = res.jobID
	}
	if resultType == "PAYLOAD" {
		body["nextResultUri"] = next(1)
	}
	return ok(body)
}
