package sim

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

// The answers whose wire format departs from the spec (reference README
// §4.1 and §5, and the Flink and Hadoop sources), and Hadoop's NodeManager
// and log server, are checked against their real shapes here.

var reJobConfig = regexp.MustCompile(`^/jobs/[0-9a-f]{32}/config$`)

// checkJobConfig checks the documented departure of GET /jobs/{jobid}/config:
// Flink's JobConfigInfo.Serializer writes "jid", "name" and
// "execution-config" (an ExecutionConfigInfo of the spec), not the spec's
// jobId, jobName and executionConfigInfo.
func (v *validator) checkJobConfig(req *http.Request, body []byte) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		v.t.Errorf("%s %s: not a JSON object: %s", req.Method, req.URL, body)
		return
	}
	if got := strings.Join(sortedKeys(m), ","); got != "execution-config,jid,name" {
		v.t.Errorf("%s %s: keys %s, want the wire's execution-config, jid, name", req.Method, req.URL, got)
	}
	var exec any
	_ = json.Unmarshal(m["execution-config"], &exec)
	s := v.doc.Components.Schemas["ExecutionConfigInfo"].Value
	if err := s.VisitJSON(exec, openapi3.MultiErrors()); err != nil {
		v.t.Errorf("%s %s: execution-config is not the spec's ExecutionConfigInfo: %v", req.Method, req.URL, err)
	}
}

// checkContainerLogs checks the NodeManager's and the log server's
// answers against Hadoop's shapes (NodeManagerRest.md, NMWebServices,
// LogToolUtils): a list of ContainerLogsInfo, or a file framed by its
// header and trailer, or a redirect to where the logs are now.
func (v *validator) checkContainerLogs(who string, req *http.Request, resp *http.Response, body []byte) {
	t := v.t
	key := req.Method + " " + who + ":" + templatePath(req.URL.Path)
	switch {
	case resp.StatusCode == http.StatusTemporaryRedirect:
		if resp.Header.Get("Location") == "" {
			t.Errorf("%s %s: a redirect without Location", req.Method, req.URL)
		}
		v.cover(key + " redirect")
		return
	case resp.StatusCode != http.StatusOK:
		return
	case strings.HasSuffix(req.URL.Path, "/logs"):
		var w struct {
			Info []struct {
				Files []struct {
					FileName string `json:"fileName"`
					FileSize string `json:"fileSize"`
					Modified string `json:"lastModifiedTime"`
				} `json:"containerLogInfo"`
				Type        string `json:"logAggregationType"`
				ContainerID string `json:"containerId"`
				NodeID      string `json:"nodeId"`
			} `json:"containerLogsInfo"`
		}
		if err := json.Unmarshal(body, &w); err != nil || len(w.Info) == 0 {
			t.Errorf("%s %s: not {\"containerLogsInfo\":[…]}: %v: %s", req.Method, req.URL, err, body)
			return
		}
		for _, in := range w.Info {
			if in.Type != "LOCAL" && in.Type != "AGGREGATED" || !strings.HasPrefix(in.ContainerID, "container_") || in.NodeID == "" {
				t.Errorf("%s %s: container log info %+v", req.Method, req.URL, in)
			}
			for _, f := range in.Files {
				if _, err := time.Parse("Mon Jan 02 15:04:05 -0700 2006", f.Modified); err != nil || f.FileName == "" || f.FileSize == "" {
					t.Errorf("%s %s: file %+v", req.Method, req.URL, f)
				}
			}
		}
	default:
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
			t.Errorf("%s %s: a log file as %q", req.Method, req.URL, ct)
		}
		text := string(body)
		if !strings.HasPrefix(text, "Container: ") || !strings.Contains(text, "\nLogLength:") ||
			!strings.Contains(text, "\nLogContents:\n") || !strings.Contains(text, "End of LogType:") {
			t.Errorf("%s %s: not Hadoop's framed log text: %.300s", req.Method, req.URL, text)
		}
	}
	v.cover(key)
}

// checkFlinkError checks Flink's ErrorResponseBody, {"errors":[…]}.
func (v *validator) checkFlinkError(req *http.Request, resp *http.Response, body []byte) {
	if resp.StatusCode == http.StatusMethodNotAllowed && strings.HasPrefix(req.URL.Path, "/proxy/") {
		return // the YARN proxy's own answer
	}
	var e map[string]any
	if err := json.Unmarshal(body, &e); err != nil {
		v.t.Errorf("%s %s: error %d is not JSON: %v: %s", req.Method, req.URL, resp.StatusCode, err, body)
		return
	}
	errs, ok := e["errors"].([]any)
	if len(e) != 1 || !ok || len(errs) == 0 {
		v.t.Errorf("%s %s: error %d is not Flink's {\"errors\":[…]}: %s", req.Method, req.URL, resp.StatusCode, body)
	}
}

// checkMetricArray checks the bare metric arrays of README §4.1: a JSON
// array of {"id", "value"?} or, aggregated, {"id", "min"?, "max"?, …}.
func (v *validator) checkMetricArray(req *http.Request, body []byte) {
	var arr []map[string]any
	if err := json.Unmarshal(body, &arr); err != nil {
		v.t.Errorf("%s %s: metrics are not a bare JSON array of objects: %v: %s", req.Method, req.URL, err, body)
		return
	}
	aggregated := strings.HasSuffix(req.URL.Path, "/subtasks/metrics") || strings.HasSuffix(req.URL.Path, "jobs/metrics")
	for _, m := range arr {
		if _, ok := m["id"].(string); !ok {
			v.t.Errorf("%s %s: metric without a string id: %v", req.Method, req.URL, m)
		}
		for k, val := range m {
			switch {
			case k == "id":
			case k == "value" && !aggregated:
				if _, ok := val.(string); !ok {
					v.t.Errorf("%s %s: metric value %v is not a string", req.Method, req.URL, val)
				}
			case aggregated && (k == "min" || k == "max" || k == "avg" || k == "sum" || k == "skew"):
				if _, ok := val.(float64); !ok {
					v.t.Errorf("%s %s: aggregate %s=%v is not a number", req.Method, req.URL, k, val)
				}
			default:
				v.t.Errorf("%s %s: unexpected metric field %q", req.Method, req.URL, k)
			}
		}
	}
}

// checkFetch checks the fetch-results wire shape of README §5.
func (v *validator) checkFetch(req *http.Request, body []byte) {
	t := v.t
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Errorf("fetch %s: not a JSON object: %s", req.URL, body)
		return
	}
	var rt string
	_ = json.Unmarshal(m["resultType"], &rt)
	keys := sortedKeys(m)
	if rt == "NOT_READY" {
		if strings.Join(keys, ",") != "nextResultUri,resultType" {
			t.Errorf("fetch %s: NOT_READY carries %v, want only resultType and nextResultUri", req.URL, keys)
		}
		return
	}
	if rt != "PAYLOAD" && rt != "EOS" {
		t.Errorf("fetch %s: resultType %q", req.URL, rt)
	}
	if _, ok := m["queryResult"]; ok {
		t.Errorf("fetch %s: has the spec's queryResult; the wire name is isQueryResult", req.URL)
	}
	var isQuery bool
	if err := json.Unmarshal(m["isQueryResult"], &isQuery); err != nil {
		t.Errorf("fetch %s: isQueryResult missing or not a boolean: %s", req.URL, body)
	}
	var kind string
	if _ = json.Unmarshal(m["resultKind"], &kind); kind != "SUCCESS" && kind != "SUCCESS_WITH_CONTENT" {
		t.Errorf("fetch %s: resultKind %q", req.URL, kind)
	}
	if raw, ok := m["jobID"]; ok {
		var id string
		if json.Unmarshal(raw, &id); !reHex32.MatchString(id) {
			t.Errorf("fetch %s: jobID %s", req.URL, raw)
		}
	}
	_, hasNext := m["nextResultUri"]
	if hasNext != (rt == "PAYLOAD") {
		t.Errorf("fetch %s: %s with nextResultUri present=%v", req.URL, rt, hasNext)
	}
	var res struct {
		Columns   []map[string]json.RawMessage `json:"columns"`
		RowFormat string                       `json:"rowFormat"`
		Data      []map[string]json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(m["results"], &res); err != nil {
		t.Errorf("fetch %s: results: %v", req.URL, err)
		return
	}
	var rawResults map[string]any
	_ = json.Unmarshal(m["results"], &rawResults)
	if got := strings.Join(sortedKeys(rawResults), ","); got != "columns,data,rowFormat" {
		t.Errorf("fetch %s: results has %s, want columns,data,rowFormat", req.URL, got)
	}
	for _, col := range res.Columns {
		if strings.Join(sortedKeys(col), ",") != "comment,logicalType,name" {
			t.Errorf("fetch %s: column %v, want name, logicalType, comment", req.URL, sortedKeys(col))
		}
	}
	for _, row := range res.Data {
		if strings.Join(sortedKeys(row), ",") != "fields,kind" {
			t.Errorf("fetch %s: row %v, want kind and fields", req.URL, sortedKeys(row))
		}
	}
	if res.RowFormat != "JSON" && res.RowFormat != "PLAIN_TEXT" {
		t.Errorf("fetch %s: rowFormat %q", req.URL, res.RowFormat)
	}
}
