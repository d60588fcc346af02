package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// client does not follow redirects: the tests look at them.
var client = &http.Client{
	Timeout:       10 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) String() string { return fmt.Sprintf("%d %s", r.status, r.body) }

// decode unmarshals the body into v, failing the test if it is not JSON.
func (r reply) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r, err)
	}
}

func do(t *testing.T, method, url string, body any) reply {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, url, err)
	}
	return reply{status: resp.StatusCode, header: resp.Header, body: b}
}

// mustJSON does a request that must answer want, and decodes its body into v.
func mustJSON(t *testing.T, method, url string, body any, want int, v any) reply {
	t.Helper()
	r := do(t, method, url, body)
	if r.status != want {
		t.Fatalf("%s %s: got %s, want status %d", method, url, r, want)
	}
	if v != nil {
		r.decode(t, v)
	}
	return r
}

// eventually polls cond until it holds or 10 s of wall time pass.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// rmApp fetches /ws/v1/cluster/apps/{id} from the active RM.
func rmApp(t *testing.T, c *Cluster, id string) appJSON {
	t.Helper()
	var got struct {
		App appJSON `json:"app"`
	}
	mustJSON(t, "GET", c.ActiveRMURL()+"/ws/v1/cluster/apps/"+id, nil, 200, &got)
	return got.App
}

// gwSession opens a SQL Gateway session and returns its base URL.
func gwSession(t *testing.T, c *Cluster, version string, props map[string]string) string {
	t.Helper()
	var s struct {
		SessionHandle string `json:"sessionHandle"`
	}
	mustJSON(t, "POST", c.GatewayURL()+"/"+version+"/sessions", map[string]any{"sessionName": "test", "properties": props}, 200, &s)
	if s.SessionHandle == "" {
		t.Fatal("open session: no sessionHandle")
	}
	return c.GatewayURL() + "/" + version + "/sessions/" + s.SessionHandle
}

type fetchResult struct {
	ResultType    string `json:"resultType"`
	IsQueryResult bool   `json:"isQueryResult"`
	JobID         string `json:"jobID"`
	ResultKind    string `json:"resultKind"`
	NextResultURI string `json:"nextResultUri"`
	Results       struct {
		Columns []struct {
			Name        string         `json:"name"`
			LogicalType map[string]any `json:"logicalType"`
		} `json:"columns"`
		RowFormat string `json:"rowFormat"`
		Data      []struct {
			Kind   string `json:"kind"`
			Fields []any  `json:"fields"`
		} `json:"data"`
	} `json:"results"`
}

// runSQL executes a statement and fetches its first payload; it fails the
// test if the operation errs.
func runSQL(t *testing.T, c *Cluster, session, sql string) fetchResult {
	t.Helper()
	var op struct {
		OperationHandle string `json:"operationHandle"`
	}
	mustJSON(t, "POST", session+"/statements", map[string]string{"statement": sql}, 200, &op)
	url := session + "/operations/" + op.OperationHandle + "/result/0?rowFormat=JSON"
	var res fetchResult
	eventually(t, "result of "+sql, func() bool {
		r := do(t, "GET", url, nil)
		if r.status != 200 {
			t.Fatalf("fetch %q: %s", sql, r)
		}
		res = fetchResult{}
		r.decode(t, &res)
		return res.ResultType != "NOT_READY"
	})
	return res
}
