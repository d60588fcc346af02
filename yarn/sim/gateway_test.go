package sim

import (
	"strings"
	"testing"
	"time"
)

func TestGatewayVersionsAndRowFormat(t *testing.T) {
	clock := NewManualClock(time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC))
	c := startCluster(t, Options{Seed: 2, Clock: clock})
	var v struct {
		Versions []string `json:"versions"`
	}
	mustJSON(t, "GET", c.GatewayURL()+"/api_versions", nil, 200, &v)
	if strings.Join(v.Versions, ",") != "V1,V2,V3,V4" {
		t.Errorf("api_versions %v", v.Versions)
	}
	old := startCluster(t, Options{Seed: 2, FlinkVersion: "1.20.1"})
	mustJSON(t, "GET", old.GatewayURL()+"/api_versions", nil, 200, &v)
	if strings.Join(v.Versions, ",") != "V1,V2,V3" {
		t.Errorf("1.20 api_versions %v", v.Versions)
	}
	if r := do(t, "GET", old.GatewayURL()+"/v4/info", nil); r.status != 404 {
		t.Errorf("1.20 gateway answered /v4: %s", r)
	}

	for _, ver := range []string{"v1", "v2", "v4"} {
		session := gwSession(t, c, ver, nil)
		var op struct {
			OperationHandle string `json:"operationHandle"`
		}
		mustJSON(t, "POST", session+"/statements", map[string]string{"statement": "SELECT 1, 'x' AS s"}, 200, &op)
		result := session + "/operations/" + op.OperationHandle + "/result/0"
		// Not ready at first (the query takes simulated time).
		var res fetchResult
		mustJSON(t, "GET", result+"?rowFormat=JSON", nil, 200, &res)
		if res.ResultType != "NOT_READY" || res.NextResultURI == "" {
			t.Errorf("%s: first fetch %+v, want NOT_READY with a next URI", ver, res)
		}
		if ver == "v1" {
			mustJSON(t, "GET", result, nil, 200, nil) // v1 has no rowFormat
			continue
		}
		r := mustJSON(t, "GET", result, nil, 400, nil)
		if !strings.Contains(string(r.body), "rowFormat") {
			t.Errorf("%s: missing rowFormat: %s", ver, r)
		}
		if !strings.HasPrefix(res.NextResultURI, "/"+ver+"/sessions/") || !strings.HasSuffix(res.NextResultURI, "?rowFormat=JSON") {
			t.Errorf("%s: nextResultUri %q", ver, res.NextResultURI)
		}
		clock.Advance(time.Second)
		res = fetchResult{}
		mustJSON(t, "GET", result+"?rowFormat=PLAIN_TEXT", nil, 200, &res)
		if !res.IsQueryResult || res.JobID == "" || len(res.Results.Data) != 1 || res.Results.RowFormat != "PLAIN_TEXT" {
			t.Fatalf("%s: SELECT payload %+v", ver, res)
		}
		if f := res.Results.Data[0].Fields; f[0] != "1" || f[1] != "x" || res.Results.Columns[1].Name != "s" {
			t.Errorf("%s: row %v columns %+v", ver, f, res.Results.Columns)
		}
		if res.Results.Columns[0].LogicalType["type"] != "INTEGER" {
			t.Errorf("%s: EXPR$0 type %v", ver, res.Results.Columns[0].LogicalType)
		}
		var eos fetchResult
		mustJSON(t, "GET", c.GatewayURL()+res.NextResultURI, nil, 200, &eos)
		if eos.ResultType != "EOS" || eos.NextResultURI != "" || len(eos.Results.Data) != 0 {
			t.Errorf("%s: after the payload %+v, want EOS without nextResultUri", ver, eos)
		}
	}
}

func TestGatewaySessionStatements(t *testing.T) {
	c := startCluster(t, Options{Seed: 2, Speed: 100})
	session := gwSession(t, c, "v3", map[string]string{"parallelism.default": "4"})
	runSQL(t, c, session, "SET 'table.exec.state.ttl' = '1 h'")
	var props struct {
		Properties map[string]string `json:"properties"`
	}
	mustJSON(t, "GET", session, nil, 200, &props)
	if props.Properties["table.exec.state.ttl"] != "1 h" || props.Properties["parallelism.default"] != "4" {
		t.Errorf("session properties %v", props.Properties)
	}
	set := runSQL(t, c, session, "SET;")
	found := false
	for _, row := range set.Results.Data {
		found = found || row.Fields[0] == "table.exec.state.ttl" && row.Fields[1] == "1 h"
	}
	if !found || set.Results.Columns[0].Name != "key" {
		t.Errorf("SET lists %+v", set.Results)
	}
	runSQL(t, c, session, "RESET 'table.exec.state.ttl'")
	props.Properties = nil // decoding into a map merges
	mustJSON(t, "GET", session, nil, 200, &props)
	if _, ok := props.Properties["table.exec.state.ttl"]; ok {
		t.Errorf("RESET left %v", props.Properties)
	}

	ok := runSQL(t, c, session, "CREATE TABLE src (a INT) WITH ('connector' = 'datagen')")
	if ok.ResultKind != "SUCCESS" || ok.Results.Data[0].Fields[0] != "OK" {
		t.Errorf("CREATE TABLE result %+v", ok)
	}
	runSQL(t, c, session, "CREATE TEMPORARY VIEW v AS SELECT * FROM src")
	runSQL(t, c, session, "CREATE FUNCTION f AS 'org.example.F'")
	tables := runSQL(t, c, session, "SHOW TABLES")
	var names []string
	for _, row := range tables.Results.Data {
		names = append(names, row.Fields[0].(string))
	}
	if strings.Join(names, ",") != "src,v" || tables.Results.Columns[0].Name != "table name" {
		t.Errorf("SHOW TABLES: %v", names)
	}
	plan := runSQL(t, c, session, "EXPLAIN SELECT * FROM src")
	if s, _ := plan.Results.Data[0].Fields[0].(string); !strings.Contains(s, "== Optimized Execution Plan ==") || !strings.Contains(s, "src") {
		t.Errorf("EXPLAIN: %v", plan.Results.Data)
	}
	// A dynamic table option shows in the plan as Flink's planner prints
	// the scan's OPTIONS hint.
	plan = runSQL(t, c, session, "EXPLAIN SELECT * FROM src /*+ OPTIONS('rows-per-second' = '5', 'fields.v.length'='9') */")
	if s, _ := plan.Results.Data[0].Fields[0].(string); !strings.Contains(s,
		"LogicalTableScan(table=[[default_catalog, default_database, src]], hints=[[[OPTIONS inheritPath:[] options:{rows-per-second=5, fields.v.length=9}]]])") {
		t.Errorf("EXPLAIN with an OPTIONS hint:\n%s", s)
	}

	// Errors: the operation is ERROR and fetching it answers Flink's 500.
	for _, bad := range []string{"INSERT INTO nowhere SELECT * FROM src", "INSERT INTO src SELECT * FROM missing", "FROBNICATE"} {
		var op struct {
			OperationHandle string `json:"operationHandle"`
		}
		mustJSON(t, "POST", session+"/statements", map[string]string{"statement": bad}, 200, &op)
		var st struct {
			Status string `json:"status"`
		}
		eventually(t, "ERROR status", func() bool {
			mustJSON(t, "GET", session+"/operations/"+op.OperationHandle+"/status", nil, 200, &st)
			return st.Status == "ERROR"
		})
		r := mustJSON(t, "GET", session+"/operations/"+op.OperationHandle+"/result/0?rowFormat=JSON", nil, 500, nil)
		if !strings.Contains(string(r.body), "Internal server error.") {
			t.Errorf("%q: %s", bad, r)
		}
	}
	mustJSON(t, "DELETE", session, nil, 200, nil)
	r := mustJSON(t, "GET", session, nil, 500, nil)
	if !strings.Contains(string(r.body), "does not exist") {
		t.Errorf("closed session: %s", r)
	}
}

func TestGatewayTargetsSessionClusterAndStatementSets(t *testing.T) {
	c := startCluster(t, fastOptions())
	sess, err := c.Submit(t.Context(), SubmitRequest{Mode: ModeSession, Name: "shared-session"})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "session cluster RUNNING", func() bool { a, _ := c.App(sess.AppID); return a.State == "RUNNING" })
	session := gwSession(t, c, "v2", map[string]string{"execution.target": "yarn-session", "yarn.application.id": sess.AppID})
	setupTables(t, c, session)
	runSQL(t, c, session, "CREATE TABLE audit (id BIGINT) WITH ('connector' = 'print')")
	before := len(c.Apps())
	res := runSQL(t, c, session, `EXECUTE STATEMENT SET BEGIN
		INSERT INTO enriched SELECT id, amount FROM orders;
		INSERT INTO audit SELECT id FROM orders;
	END;`)
	if res.JobID == "" {
		t.Fatalf("statement set result %+v", res)
	}
	if n := len(c.Apps()); n != before {
		t.Errorf("a yarn-session INSERT created an application (%d → %d)", before, n)
	}
	a, _ := c.App(sess.AppID)
	if len(a.Jobs) != 1 || a.Jobs[0].ID != res.JobID {
		t.Fatalf("session app jobs %+v, want the statement set's job", a.Jobs)
	}
	eventually(t, "session job RUNNING", func() bool { a, _ = c.App(sess.AppID); return a.Jobs[0].State == "RUNNING" })
	// Cancelling a session job leaves the session running.
	jm := "http://" + a.JMAddress
	mustJSON(t, "PATCH", jm+"/jobs/"+res.JobID+"?mode=CANCEL", nil, 202, nil)
	eventually(t, "job CANCELED", func() bool { return jobStatus(t, jm, res.JobID) == "CANCELED" })
	time.Sleep(50 * time.Millisecond) // > dShutdown at this speed: a per-job cluster would be gone
	if a, _ := c.App(sess.AppID); a.State != "RUNNING" {
		t.Errorf("session app %s after cancelling its job", a.State)
	}
	r := mustJSON(t, "PATCH", jm+"/jobs/"+res.JobID+"?mode=cancel", nil, 409, nil)
	if !strings.Contains(string(r.body), "already reached another terminal state (CANCELED)") {
		t.Errorf("second cancel: %s", r)
	}
	r = mustJSON(t, "PATCH", jm+"/jobs/"+res.JobID+"?mode=stop", nil, 308, nil)
	if !strings.Contains(string(r.body), `The termination mode \"stop\" has been removed`) {
		t.Errorf("mode=stop: %s", r)
	}

	// A yarn-session target that is not a running session fails the INSERT.
	bad := gwSession(t, c, "v2", map[string]string{"execution.target": "yarn-session", "yarn.application.id": "application_1_0001"})
	setupTables(t, c, bad)
	var op struct {
		OperationHandle string `json:"operationHandle"`
	}
	mustJSON(t, "POST", bad+"/statements", map[string]string{"statement": "INSERT INTO enriched SELECT * FROM orders"}, 200, &op)
	eventually(t, "ERROR", func() bool {
		var st struct{ Status string }
		mustJSON(t, "GET", bad+"/operations/"+op.OperationHandle+"/status", nil, 200, &st)
		return st.Status == "ERROR"
	})
}

func TestGatewayApplicationModeAndStateRecoveryPath(t *testing.T) {
	c := startCluster(t, fastOptions())
	first, _ := c.Submit(t.Context(), SubmitRequest{Name: "first"})
	var cp string
	eventually(t, "a checkpoint", func() bool {
		a, _ := c.App(first.AppID)
		cp = a.Jobs[0].LatestCheckpoint
		return cp != ""
	})
	if err := c.KillApp(first.AppID); err != nil {
		t.Fatal(err)
	}
	// A retained checkpoint survives the kill and can be restored (2.x key).
	jid, app, jm := submitInsert(t, c, map[string]string{"execution.target": "yarn-application", "yarn.tags": "appmode",
		"execution.state-recovery.path": cp})
	if app.Name != "Flink Application Cluster" {
		t.Errorf("application-mode default name %q", app.Name)
	}
	var cps jobCheckpoints
	mustJSON(t, "GET", jm+"/jobs/"+jid+"/checkpoints", nil, 200, &cps)
	if cps.Latest.Restored == nil || cps.Latest.Restored.ExternalPath != cp || cps.Latest.Restored.IsSavepoint {
		t.Errorf("restored %+v, want the checkpoint %s", cps.Latest.Restored, cp)
	}
}
