package yarn

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"testing/iotest"
)

// The decoders face whatever a server, proxy or half-dead JobManager sends.
// These targets hold them to one promise: an error, never a panic. Seeds are
// the spec-shaped fixtures and a few broken variants; run longer with
// `make fuzz`.

func seed(f *testing.F, names ...string) {
	for _, n := range names {
		body := fixture(f, n)
		f.Add([]byte(body))
		f.Add([]byte(body[:len(body)/2])) // truncated
	}
	f.Add([]byte(`null`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`<html>502 Bad Gateway</html>`))
}

func FuzzDecodeApps(f *testing.F) {
	seed(f, "rm_apps.json")
	f.Add([]byte(`{"apps":null}`))
	f.Add([]byte(`{"apps":{"app":{"id":"application_1_0001","priority":"x"}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		// The array-first decoding must read exactly what the flexible
		// one reads, and fail where it fails.
		var fast, flex appsResponse
		ferr, xerr := fast.decodeBody(b), json.Unmarshal(b, &flex)
		if (ferr == nil) != (xerr == nil) {
			t.Fatalf("array first: %v; flexible: %v", ferr, xerr)
		}
		if ferr == nil && !reflect.DeepEqual(fast.list(), flex.list()) {
			t.Fatalf("array first read %+v, flexible %+v", fast.list(), flex.list())
		}
		for _, a := range fast.list() {
			_ = a.Tags()
			_ = a.Final()
		}
	})
}

func FuzzDecodeScheduler(f *testing.F) {
	seed(f, "rm_scheduler_capacity.json", "rm_scheduler_fair.json", "rm_scheduler_fifo.json")
	f.Add([]byte(`{"scheduler":{"schedulerInfo":{"type":"capacityScheduler","capacity":"1e400","queues":{"queue":{"queueName":7}}}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var w struct {
			Scheduler struct {
				SchedulerInfo Scheduler `json:"schedulerInfo"`
			} `json:"scheduler"`
		}
		if json.Unmarshal(b, &w) == nil {
			_ = w.Scheduler.SchedulerInfo.Flatten()
		}
	})
}

func FuzzDecodeJobDetails(f *testing.F) {
	seed(f, "flink_job_details_2x.json", "flink_job_details_116.json")
	f.Add([]byte(`{"application-id":{"bytes":"!!"},"vertices":[{"slotSharingGroupId":{"bytes":"AAAA"}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var v JobDetails
		_ = json.Unmarshal(b, &v)
	})
}

func FuzzDecodeCheckpoints(f *testing.F) {
	seed(f, "flink_checkpoints.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		var v CheckpointStats
		_ = json.Unmarshal(b, &v)
		var op asyncResult
		if json.Unmarshal(b, &op) == nil {
			_ = op.operation().Failure.Message()
		}
	})
}

func FuzzDecodeMetrics(f *testing.F) {
	f.Add([]byte(`[{"id":"numRestarts","value":"3"},{"id":"x"}]`))
	f.Add([]byte(`[{"id":"a","min":1,"max":"2.5","sum":"NaN"}]`))
	f.Add([]byte(`{"metrics":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var m []Metric
		_ = json.Unmarshal(b, &m)
		var a []AggregatedMetric
		_ = json.Unmarshal(b, &a)
	})
}

func FuzzDecodeFetchResults(f *testing.F) {
	f.Add([]byte(fetchPage(ResultPayload, jobID, "/v2/sessions/s/operations/o/result/1?rowFormat=JSON", jobIDColumns,
		`{"kind":"INSERT","fields":["`+jobID+`"]}`)))
	f.Add([]byte(fetchPage(ResultNotReady, "", "/v2/sessions/s/operations/o/result/0?rowFormat=JSON", "")))
	f.Add([]byte(`{"resultType":"EOS","results":{"columns":[],"data":[]}}`))
	f.Add([]byte(`{"resultType":"PAYLOAD","results":{"columnInfos":[{"name":"a","logicalType":null}],"data":[{"kind":"INSERT","fields":[1e999]}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		pg, err := decodeFetch(b)
		if err != nil {
			return
		}
		switch pg.Type {
		case ResultNotReady, ResultPayload, ResultEOS:
		default:
			t.Fatalf("accepted result type %q", pg.Type)
		}
		_, _ = InsertJobID(Result{Columns: pg.Columns, Rows: pg.Rows, JobID: pg.JobID})
	})
}

func FuzzErrorBodies(f *testing.F) {
	f.Add([]byte(`{"errors":["Internal server error.","<Exception on server side:\nx\nCaused by: y\n>"]}`))
	f.Add([]byte(`{"RemoteException":{"exception":"NotFoundException","message":"java.lang.Exception: app not found"}}`))
	f.Add([]byte("\xff\xfe plain text with invalid utf-8 \x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		e := httpError("GET", "http://h:1/p", 500, b)
		msg := e.Error()
		if len(msg) > 1000 {
			t.Fatalf("message of %d bytes", len(msg))
		}
		_ = excerptAround(b, json.Unmarshal(b, new(any)))
	})
}

// FuzzDecodeFlameGraph: the streaming decoder reads whatever a JobManager
// sends as it would read it whole (a byte a read or all at once), and the
// frames it keeps hang together: each frame's parent comes before it, one
// level up, and holds at least its value.
func FuzzDecodeFlameGraph(f *testing.F) {
	seed(f, "flink_flamegraph.json")
	f.Add(flameJSON(30, 5))
	f.Add([]byte(`{"endTimestamp":1,"data":{"name":"a\u00e9\ud83d","value":"x","children":null}}`))
	f.Add([]byte(`{"endTimestamp":1,"data":{"name":1,"value":2.5,"children":[{"children":[]}, 3]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := decodeFlameGraph(bytes.NewReader(b), 50, 0)
		g1, err1 := decodeFlameGraph(iotest.OneByteReader(bytes.NewReader(b)), 50, 0)
		if (err == nil) != (err1 == nil) || !reflect.DeepEqual(g, g1) {
			t.Fatalf("whole: %+v %v; a byte a read: %+v %v", g, err, g1, err1)
		}
		for i, fr := range g.Frames {
			if i == 0 && fr.Parent != -1 || i > 0 && (fr.Parent < 0 || fr.Parent >= i || g.Frames[fr.Parent].Depth != fr.Depth-1 || g.Frames[fr.Parent].Value < fr.Value) {
				t.Fatalf("frame %d %+v does not hang from its parent: %+v", i, fr, g.Frames)
			}
		}
	})
}
