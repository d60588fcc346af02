package yarn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const (
	sess = "2f9f4c1e-6b1d-4d7e-9a4a-3c2b1a0f9e8d"
	opID = "7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
)

// fetchPage renders a fetch response the way FetchResultsResponseBodySerializer
// writes it (reference README §5).
func fetchPage(resultType, jobID, next string, columns string, rows ...string) string {
	if resultType == ResultNotReady {
		return fmt.Sprintf(`{"resultType":"NOT_READY","nextResultUri":%q}`, next)
	}
	b := fmt.Sprintf(`{"resultType":%q,"isQueryResult":%v`, resultType, jobID == "")
	if jobID != "" {
		b += fmt.Sprintf(`,"jobID":%q`, jobID)
	}
	b += fmt.Sprintf(`,"resultKind":"SUCCESS_WITH_CONTENT","results":{"columns":%s,"rowFormat":"JSON","data":[%s]}`,
		columns, strings.Join(rows, ","))
	if next != "" {
		b += fmt.Sprintf(`,"nextResultUri":%q`, next)
	}
	return b + "}"
}

const jobIDColumns = `[{"name":"job id","logicalType":{"type":"VARCHAR","nullable":true,"length":2147483647},"comment":null}]`

func newGateway(t *testing.T, base string) *SQLGateway {
	t.Helper()
	c, err := NewSQLGateway(base, fastOpts())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSQLGatewayInsertFlow(t *testing.T) {
	ctx := context.Background()
	gw := newFake(t)
	gw.json("GET", "/api_versions", 200, `{"versions":["V1","V2","V3","V4"]}`)
	gw.json("POST", "/v4/sessions", 200, `{"sessionHandle":"`+sess+`"}`)
	gw.json("POST", "/v4/sessions/"+sess+"/configure-session", 200, `{}`)
	gw.json("POST", "/v4/sessions/"+sess+"/statements", 200, `{"operationHandle":"`+opID+`"}`)
	base := "/v4/sessions/" + sess + "/operations/" + opID + "/result/"
	var zero atomic.Int32
	gw.on("GET", base+"0", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("rowFormat") != "JSON" {
			jsonHandler(400, `{"errors":["rowFormat is required"]}`)(w, r)
			return
		}
		if zero.Add(1) <= 2 { // NOT_READY for a while, pointing at the same token
			jsonHandler(200, fetchPage(ResultNotReady, "", base+"0?rowFormat=JSON", ""))(w, r)
			return
		}
		jsonHandler(200, fetchPage(ResultPayload, jobID, base+"1?rowFormat=JSON", jobIDColumns,
			`{"kind":"INSERT","fields":["`+jobID+`"]}`))(w, r)
	}).times(3)
	gw.json("GET", base+"1", 200, fetchPage(ResultEOS, jobID, "", jobIDColumns))
	c := newGateway(t, gw.URL())

	s, err := c.OpenSession(ctx, SessionRequest{Name: "palink-orders", Properties: map[string]string{"execution.target": "yarn-per-job"}})
	if err != nil || s != sess {
		t.Fatalf("session %q err %v", s, err)
	}
	mustEqual(t, "negotiated", c.Version(), 4)
	mustEqual(t, "open body", gw.lastBody("POST", "/v4/sessions"),
		`{"sessionName":"palink-orders","properties":{"execution.target":"yarn-per-job"}}`)
	if err := c.ConfigureSession(ctx, s, "SET 'pipeline.name' = 'orders';", 0); err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "configure body", gw.lastBody("POST", "/v4/sessions/"+sess+"/configure-session"),
		`{"statement":"SET 'pipeline.name' = 'orders';"}`)

	res, err := c.ExecuteAndFetch(ctx, s, StatementRequest{
		Statement:        "INSERT INTO enriched SELECT * FROM orders",
		ExecutionConfig:  map[string]string{"parallelism.default": "4"},
		ExecutionTimeout: 30 * time.Second,
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "execute body", gw.lastBody("POST", "/v4/sessions/"+sess+"/statements"),
		`{"statement":"INSERT INTO enriched SELECT * FROM orders","executionTimeout":30000,"executionConfig":{"parallelism.default":"4"}}`)
	mustEqual(t, "jobID", res.JobID, jobID)
	mustEqual(t, "rows", len(res.Rows), 1)
	mustEqual(t, "column", res.Columns[0].Name, JobIDColumn)
	mustEqual(t, "column type", res.Columns[0].LogicalType.String(), "VARCHAR")
	mustEqual(t, "is query", res.IsQuery, false)
	id, ok := InsertJobID(res)
	if !ok || id != jobID {
		t.Errorf("InsertJobID = %q %v", id, ok)
	}
	res.JobID = "" // gateways before 1.17 send only the column
	if id, ok := InsertJobID(res); !ok || id != jobID {
		t.Errorf("InsertJobID from the column = %q %v", id, ok)
	}
	if _, ok := InsertJobID(Result{}); ok {
		t.Error("InsertJobID of nothing reported an id")
	}
}

func TestSQLGatewayQueryPagesAndLimit(t *testing.T) {
	ctx := context.Background()
	gw := newFake(t)
	gw.json("GET", "/sqlgw/api_versions", 200, `{"versions":["V1","V2"]}`)
	base := "/v2/sessions/" + sess + "/operations/" + opID + "/result/"
	cols := `[{"name":"id","logicalType":{"type":"BIGINT","nullable":false},"comment":"key"},{"name":"name","logicalType":{"type":"VARCHAR","nullable":true,"length":10},"comment":null}]`
	gw.json("GET", "/sqlgw"+base+"0", 200, fetchPage(ResultPayload, "", base+"1?rowFormat=JSON", cols,
		`{"kind":"INSERT","fields":[9007199254740993,"a"]}`, `{"kind":"INSERT","fields":[2,null]}`)).times(2)
	gw.json("GET", "/sqlgw"+base+"1", 200, fetchPage(ResultPayload, "", base+"2?rowFormat=JSON", cols)).times(2)
	gw.json("GET", "/sqlgw"+base+"2", 200, fetchPage(ResultPayload, "", base+"3?rowFormat=JSON", cols,
		`{"kind":"UPDATE_AFTER","fields":[3,"c"]}`)).times(2)
	gw.json("GET", "/sqlgw"+base+"3", 200, fetchPage(ResultEOS, "", "", cols)).times(1)
	c := newGateway(t, gw.URL()+"/sqlgw/") // a gateway behind a path prefix

	res, err := c.FetchAll(ctx, sess, opID, 0)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "rows", len(res.Rows), 3)
	mustEqual(t, "is query", res.IsQuery, true)
	mustEqual(t, "BIGINT keeps every digit", res.Rows[0].Fields[0].(json.Number).String(), "9007199254740993")
	mustEqual(t, "null field", res.Rows[1].Fields[1], any(nil))
	mustEqual(t, "row kind", res.Rows[2].Kind, "UPDATE_AFTER")
	mustEqual(t, "type", res.Columns[0].LogicalType.String(), "BIGINT NOT NULL")
	mustEqual(t, "comment", res.Columns[0].Comment, "key")

	res, err = c.FetchAll(ctx, sess, opID, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 || !res.Truncated {
		t.Errorf("limited fetch: %d rows, truncated %v", len(res.Rows), res.Truncated)
	}
	res, err = c.FetchAll(ctx, sess, opID, 3)
	if err != nil || len(res.Rows) != 3 {
		t.Fatalf("limit 3: %d rows err %v", len(res.Rows), err)
	}
}

func TestSQLGatewayV1(t *testing.T) {
	ctx := context.Background()
	gw := newFake(t)
	gw.json("GET", "/api_versions", 200, `{"versions":["V1"]}`)
	base := "/v1/sessions/" + sess + "/operations/" + opID + "/result/"
	gw.on("GET", base+"0", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery != "" {
			t.Errorf("v1 fetch sent a query: %s", r.URL.RawQuery)
		}
		// 1.16's response: no isQueryResult, jobID or resultKind yet.
		jsonHandler(200, `{"results":{"columns":[{"name":"EXPR$0","logicalType":{"type":"INTEGER","nullable":false},"comment":null}],"data":[{"kind":"INSERT","fields":[1]}]},"resultType":"PAYLOAD","nextResultUri":"`+base+`1"}`)(w, r)
	})
	gw.json("GET", base+"1", 200, `{"results":{"columns":[],"data":[]},"resultType":"EOS","nextResultUri":null}`)
	c := newGateway(t, gw.URL())

	if err := c.ConfigureSession(ctx, sess, "SET 'a'='b'", 0); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("configure-session on v1: err = %v", err)
	}
	res, err := c.FetchAll(ctx, sess, opID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || res.Rows[0].Fields[0].(json.Number) != "1" || res.Columns[0].Name != "EXPR$0" {
		t.Errorf("result = %+v", res)
	}
}

func TestSQLGatewaySessionAndOperationCalls(t *testing.T) {
	ctx := context.Background()
	gw := newFake(t)
	gw.json("GET", "/api_versions", 200, `{"versions":["V1","V2","V3","V4","V5"]}`)
	gw.json("GET", "/v4/info", 200, `{"productName":"Apache Flink","version":"2.0.0"}`)
	gw.json("GET", "/v4/sessions/"+sess, 200, `{"properties":{"execution.target":"yarn-session","yarn.application.id":"application_1_0001"}}`)
	gw.json("POST", "/v4/sessions/"+sess+"/heartbeat", 200, `{}`)
	gw.json("GET", "/v4/sessions/"+sess+"/operations/"+opID+"/status", 200, `{"status":"RUNNING"}`)
	gw.json("POST", "/v4/sessions/"+sess+"/operations/"+opID+"/cancel", 200, `{"status":"CANCELED"}`)
	gw.json("DELETE", "/v4/sessions/"+sess+"/operations/"+opID+"/close", 200, `{"status":"CLOSED"}`)
	gw.json("DELETE", "/v4/sessions/"+sess, 200, `{"status":"CLOSED"}`)
	c := newGateway(t, gw.URL())

	info, err := c.Info(ctx)
	if err != nil || info.Version != "2.0.0" {
		t.Fatalf("info %+v err %v", info, err)
	}
	mustEqual(t, "unknown V5 ignored", c.Version(), 4)
	props, err := c.SessionConfig(ctx, sess)
	if err != nil || props["yarn.application.id"] != "application_1_0001" {
		t.Fatalf("props %v err %v", props, err)
	}
	if err := c.Heartbeat(ctx, sess); err != nil {
		t.Fatal(err)
	}
	for _, call := range []struct {
		f    func(context.Context, string, string) (string, error)
		want string
	}{{c.OperationStatus, OpRunning}, {c.CancelOperation, OpCanceled}, {c.CloseOperation, OpClosed}} {
		if got, err := call.f(ctx, sess, opID); err != nil || got != call.want {
			t.Errorf("got %q err %v, want %s", got, err, call.want)
		}
	}
	if st, err := c.CloseSession(ctx, sess); err != nil || st != "CLOSED" {
		t.Fatalf("close %q err %v", st, err)
	}
	mustEqual(t, "api_versions asked once", gw.hits("GET", "/api_versions"), 1)
}

func TestSQLGatewayErrors(t *testing.T) {
	ctx := context.Background()
	gw := newFake(t)
	gw.json("GET", "/api_versions", 200, `{"versions":["V3"]}`)
	base := "/v3/sessions/" + sess + "/operations/" + opID + "/result/0"
	gw.json("GET", base, 500, `{"errors":["Internal server error.","<Exception on server side:\norg.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.\n\tat org.apache.flink.table.gateway.rest.handler.statement.FetchResultsHandler.handleRequest(FetchResultsHandler.java:91)\nCaused by: org.apache.flink.table.gateway.service.utils.SqlExecutionException: Failed to execute the operation 7c1d.\nCaused by: org.apache.flink.table.api.ValidationException: SQL validation failed. Object 'orderz' not found\n\tat org.apache.flink...\n\nEnd of exception on server side>"]}`)
	gw.json("POST", "/v3/sessions/"+sess+"/statements", 404, `{"errors":["Session '`+sess+`' does not exist."]}`)
	c := newGateway(t, gw.URL())

	_, err := c.FetchAll(ctx, sess, opID, 0)
	var he *HTTPError
	if !errors.As(err, &he) {
		t.Fatalf("err = %v", err)
	}
	mustEqual(t, "root cause", he.RootCause(), "org.apache.flink.table.api.ValidationException: SQL validation failed. Object 'orderz' not found")
	if !strings.HasSuffix(err.Error(), ": 500 Internal Server Error: org.apache.flink.table.api.ValidationException: SQL validation failed. Object 'orderz' not found") {
		t.Errorf("message = %q", err)
	}
	_, err = c.Execute(ctx, sess, StatementRequest{Statement: "SELECT 1"})
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("err = %v", err)
	}

	t.Run("no version in common", func(t *testing.T) {
		gw := newFake(t)
		gw.json("GET", "/api_versions", 200, `{"versions":["V9"]}`)
		_, err := newGateway(t, gw.URL()).OpenSession(ctx, SessionRequest{})
		if !errors.Is(err, ErrUnsupported) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("waiting ends with ctx", func(t *testing.T) {
		gw := newFake(t)
		gw.json("GET", "/api_versions", 200, `{"versions":["V2"]}`)
		p := "/v2/sessions/" + sess + "/operations/" + opID + "/result/0"
		gw.json("GET", p, 200, fetchPage(ResultNotReady, "", p+"?rowFormat=JSON", ""))
		// Long enough for the first poll on a loaded machine (the fake
		// requires one): the wait is what ends it, not the answer.
		ctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		_, err := newGateway(t, gw.URL()).FetchAll(ctx, sess, opID, 0)
		if !errors.Is(err, ErrTimeout) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("bad result type", func(t *testing.T) {
		var de *DecodeError
		gw := newFake(t)
		gw.json("GET", "/api_versions", 200, `{"versions":["V2"]}`)
		gw.json("GET", "/v2/sessions/"+sess+"/operations/"+opID+"/result/0", 200, `{"resultType":"MAYBE"}`)
		_, err := newGateway(t, gw.URL()).FetchPage(ctx, sess, opID, 0)
		if !errors.As(err, &de) || !strings.Contains(err.Error(), `unknown resultType "MAYBE"`) {
			t.Fatalf("err = %v", err)
		}
	})
}
