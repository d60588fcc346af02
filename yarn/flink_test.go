package yarn

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
)

const (
	jobID    = "0f8a6c3b2d1e4f5a6b7c8d9e0f1a2b3c"
	vertexID = "cbc357ccb763df2852fee8c4fc7d55f2"
	appID    = "application_1732860000000_0042"
	proxy    = "/proxy/" + appID
)

// yarnProxy makes f answer like the RM web proxy for methods it does not
// forward: 405 to anything but GET and PUT (WebAppProxyServlet).
func yarnProxy(f *fake, path string) {
	for _, m := range []string{"POST", "PATCH", "DELETE"} {
		f.on(m, path, func(w http.ResponseWriter, r *http.Request) {
			f.t.Errorf("%s %s reached the YARN proxy, which answers 405", r.Method, r.URL.Path)
			http.Error(w, "HTTP ERROR 405 Method Not Allowed", http.StatusMethodNotAllowed)
		}).optional()
	}
}

func newFlink(t *testing.T, read, direct string, o Options) *Flink {
	t.Helper()
	c, err := NewFlink(read, direct, o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestFlinkReadsThroughProxyAndDecodesSpecShapes(t *testing.T) {
	ctx := context.Background()
	px := newFake(t)
	px.json("GET", proxy+"/config", 200, fixture(t, "flink_config.json"))
	px.json("GET", proxy+"/overview", 200, fixture(t, "flink_overview.json"))
	px.json("GET", proxy+"/jobs/overview", 200, fixture(t, "flink_jobs_overview.json"))
	px.json("GET", proxy+"/jobs/"+jobID, 200, fixture(t, "flink_job_details_2x.json"))
	px.json("GET", proxy+"/jobs/"+jobID+"/status", 200, `{"status":"RUNNING"}`)
	px.json("GET", proxy+"/jobs/"+jobID+"/checkpoints", 200, fixture(t, "flink_checkpoints.json"))
	px.json("GET", proxy+"/jobs/"+jobID+"/checkpoints/config", 200, fixture(t, "flink_checkpoint_config.json"))
	px.json("GET", proxy+"/jobs/"+jobID+"/exceptions", 200, fixture(t, "flink_exceptions_2x.json"))
	px.json("GET", proxy+"/jobs/"+jobID+"/vertices/"+vertexID+"/backpressure", 200, fixture(t, "flink_backpressure.json"))
	px.json("GET", proxy+"/taskmanagers", 200, fixture(t, "flink_taskmanagers.json"))
	px.json("GET", proxy+"/jars", 200, fixture(t, "flink_jars.json"))
	// The tracking URL as the RM gives it, trailing slash included.
	c := newFlink(t, px.URL()+proxy+"/", "", fastOpts())

	t.Run("config", func(t *testing.T) {
		v, err := c.Config(ctx)
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "flink_config.json"), at(), v)
		mustEqual(t, "flink-version", v.FlinkVersion, "2.0.0")
		mustEqual(t, "web-cancel", v.Features.WebCancel, true)
	})
	t.Run("overview", func(t *testing.T) {
		v, err := c.Overview(ctx)
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "flink_overview.json"), at(), v)
		mustEqual(t, "slots-total", v.SlotsTotal, 4)
	})
	t.Run("jobs", func(t *testing.T) {
		v, err := c.Jobs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// Every field but the task counts, which nothing shows and sync
		// would decode for every job every cycle.
		withoutTasks := func(m map[string]any) any {
			jobs := at("jobs")(m).([]any)
			for _, j := range jobs {
				delete(j.(map[string]any), "tasks")
			}
			return jobs
		}
		assertNoFieldLost(t, fixture(t, "flink_jobs_overview.json"), withoutTasks, v)
		if len(v) != 2 || v[0].ID != jobID || v[0].LastModification == 0 || v[1].State != JobCanceled {
			t.Errorf("jobs = %+v", v)
		}
		mustEqual(t, "jobType", v[0].JobType, "STREAMING")
	})
	t.Run("job details", func(t *testing.T) {
		v, err := c.Job(ctx, jobID)
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "flink_job_details_2x.json"), at(), v)
		mustEqual(t, "state", v.State, JobRunning)
		mustEqual(t, "job-type", v.JobType, "STREAMING")
		mustEqual(t, "vertices", len(v.Vertices), 2)
		mustEqual(t, "vertex parallelism", v.Vertices[0].Parallelism, 4)
		mustEqual(t, "write-records", v.Vertices[0].Metrics.WriteRecords, int64(987654))
		mustEqual(t, "slot sharing group (hex on the wire)", v.Vertices[0].SlotSharingGroupID, "a9f3b2c1d0e9f8a7b6c5d4e3f2a1b0c9")
		mustEqual(t, "application-id", v.ApplicationID, "1a2b3c4d5e6f70819a0b1c2d3e4f5a6b")
		mustEqual(t, "timestamps RUNNING", v.Timestamps["RUNNING"], int64(1732860001000))
		if !json.Valid(v.Raw) || !strings.Contains(string(v.Raw), `"orders-enrich"`) {
			t.Errorf("Raw is not the body as served: %.80s", v.Raw)
		}
	})
	t.Run("status", func(t *testing.T) {
		s, err := c.JobStatus(ctx, jobID)
		if err != nil || s != JobRunning {
			t.Fatalf("status %q err %v", s, err)
		}
	})
	t.Run("checkpoints", func(t *testing.T) {
		v, err := c.Checkpoints(ctx, jobID)
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "flink_checkpoints.json"), at(), v)
		mustEqual(t, "completed", v.Counts.Completed, int64(10))
		mustEqual(t, "latest completed path", v.Latest.Completed.ExternalPath,
			"hdfs:///flink/checkpoints/"+jobID+"/chk-11")
		mustEqual(t, "latest savepoint", v.Latest.Savepoint.IsSavepoint, true)
		mustEqual(t, "failure message", v.Latest.Failed.FailureMessage, "Checkpoint expired before completing.")
		mustEqual(t, "restored path", v.Latest.Restored.ExternalPath, "hdfs:///flink/savepoints/savepoint-7d3e2c-0a9f8e7d6c5b")
		mustEqual(t, "history[0] class", v.History[0].ClassName, "in_progress")
		mustEqual(t, "task acks", v.History[0].Tasks[vertexID].NumAcknowledgedSubtasks, 2)
		mustEqual(t, "p90 duration", v.Summary.EndToEndDuration.P90, 800.0)
	})
	t.Run("checkpoint config", func(t *testing.T) {
		v, err := c.CheckpointConfig(ctx, jobID)
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "flink_checkpoint_config.json"), at(), v)
		mustEqual(t, "interval", v.Interval, int64(60000))
		mustEqual(t, "externalized", v.Externalization.Enabled, true)
	})
	t.Run("exceptions 2.x", func(t *testing.T) {
		v, err := c.Exceptions(ctx, jobID, 0)
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "flink_exceptions_2x.json"), at(), v)
		e := v.History.Entries[0]
		mustEqual(t, "root name", e.ExceptionName, "java.lang.RuntimeException: lookup timed out")
		mustEqual(t, "label", e.FailureLabels["type"], "USER")
		mustEqual(t, "concurrent", len(e.ConcurrentExceptions), 1)
		mustEqual(t, "concurrent task", e.ConcurrentExceptions[0].TaskName, "LookupJoin[3] -> Sink: enriched[4] (3/4)#0")
	})
	t.Run("backpressure", func(t *testing.T) {
		v, err := c.Backpressure(ctx, jobID, vertexID)
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "flink_backpressure.json"), at(), v)
		mustEqual(t, "max ratio", v.MaxRatio(), 0.87)
		mustEqual(t, "other attempts", len(v.Subtasks[1].OtherConcurrentAttempts), 1)
	})
	t.Run("taskmanagers", func(t *testing.T) {
		v, err := c.TaskManagers(ctx)
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "flink_taskmanagers.json"), at("taskmanagers"), v)
		mustEqual(t, "container id", v[0].ID, "container_1732860000000_0042_01_000003")
		mustEqual(t, "managed memory", v[0].TotalResource.ManagedMemory, int64(512))
		mustEqual(t, "assignedTasks", v[0].AssignedTasks, 2)
	})
	t.Run("jars", func(t *testing.T) {
		v, err := c.Jars(ctx)
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "flink_jars.json"), at(), v)
		mustEqual(t, "entry class", v.Files[0].Entry[0].Name, "com.example.OrdersEnrich")
	})
}

func TestFlinkOlderAndNewerShapes(t *testing.T) {
	ctx := context.Background()
	jm := newFake(t)
	jm.json("GET", "/jobs/"+jobID, 200, fixture(t, "flink_job_details_116.json"))
	jm.json("GET", "/jobs/"+jobID+"/exceptions", 200, fixture(t, "flink_exceptions_120.json"))
	c := newFlink(t, jm.URL(), "", fastOpts())

	d, err := c.Job(ctx, jobID)
	if err != nil {
		t.Fatal(err)
	}
	assertNoFieldLost(t, fixture(t, "flink_job_details_116.json"), at(), d)
	mustEqual(t, "state", d.State, JobRestarting)
	mustEqual(t, "no job-type before 1.17", d.JobType, "")
	mustEqual(t, "vertex status", d.Vertices[0].Status, "CANCELING")

	ex, err := c.Exceptions(ctx, jobID, 0)
	if err != nil {
		t.Fatal(err)
	}
	assertNoFieldLost(t, fixture(t, "flink_exceptions_120.json"), at(), ex)
	if !strings.HasPrefix(ex.RootException, "java.lang.RuntimeException: lookup timed out") {
		t.Errorf("root-exception = %q", ex.RootException)
	}
	mustEqual(t, "all-exceptions", len(ex.AllExceptions), 1)
	mustEqual(t, "all-exceptions location", ex.AllExceptions[0].Location, "host-7.example.com:39021")
	mustEqual(t, "history entry location (1.x)", ex.History.Entries[0].Location, "host-7.example.com:39021")

	t.Run("spec-shaped ids and NaN", func(t *testing.T) {
		var v JobDetails
		body := `{"jid":"` + jobID + `","state":"RUNNING","application-id":{"bytes":"GisMTV5vCBmgscLT5PWmtg==","lowerPart":1,"upperPart":2},
		"vertices":[{"id":"` + vertexID + `","slotSharingGroupId":"ab","metrics":{"accumulated-busy-time":"NaN"}}]}`
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		mustEqual(t, "application-id from object", v.ApplicationID, "1a2b0c4d5e6f0819a0b1c2d3e4f5a6b6")
		if bt := v.Vertices[0].Metrics.AccumulatedBusyTime; !math.IsNaN(bt) {
			t.Errorf("accumulated-busy-time = %v, want NaN", bt)
		}
	})
}

func TestFlinkActionsGoToTheDirectBase(t *testing.T) {
	ctx := context.Background()
	px := newFake(t)
	yarnProxy(px, proxy+"/jobs/"+jobID+"/savepoints")
	yarnProxy(px, proxy+"/jobs/"+jobID+"/stop")
	yarnProxy(px, proxy+"/jobs/"+jobID)
	yarnProxy(px, proxy+"/jars/upload")
	jm := newFake(t)
	c := newFlink(t, px.URL()+proxy+"/", jm.Host(), fastOpts()) // amRPCAddress form

	trig := NewTriggerID()
	jm.json("POST", "/jobs/"+jobID+"/savepoints", 202, `{"request-id":"`+trig+`"}`)
	jm.json("POST", "/jobs/"+jobID+"/stop", 202, `{"request-id":"`+trig+`"}`)
	jm.json("POST", "/jobs/"+jobID+"/checkpoints", 202, `{"request-id":"`+trig+`"}`)
	jm.json("PATCH", "/jobs/"+jobID, 202, `{}`)
	jm.json("DELETE", "/jars/x.jar", 200, `{}`)

	got, err := c.TriggerSavepoint(ctx, jobID, SavepointRequest{TargetDirectory: "hdfs:///sp", CancelJob: true,
		FormatType: FormatNative, TriggerID: trig})
	if err != nil || got != trig {
		t.Fatalf("trigger %q err %v", got, err)
	}
	var sp map[string]any
	json.Unmarshal([]byte(jm.lastBody("POST", "/jobs/"+jobID+"/savepoints")), &sp)
	want := map[string]any{"target-directory": "hdfs:///sp", "cancel-job": true, "formatType": "NATIVE", "triggerId": trig}
	if len(sp) != len(want) {
		t.Errorf("savepoint body %v, want %v", sp, want)
	}
	for k, v := range want {
		if sp[k] != v {
			t.Errorf("savepoint body %s = %v, want %v", k, sp[k], v)
		}
	}

	if _, err := c.StopWithSavepoint(ctx, jobID, StopRequest{TargetDirectory: "hdfs:///sp", Drain: true}); err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "stop body", jm.lastBody("POST", "/jobs/"+jobID+"/stop"), `{"targetDirectory":"hdfs:///sp","drain":true}`)

	if _, err := c.TriggerCheckpoint(ctx, jobID, CheckpointRequest{CheckpointType: CheckpointFull}); err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "checkpoint body", jm.lastBody("POST", "/jobs/"+jobID+"/checkpoints"), `{"checkpointType":"FULL"}`)

	if err := c.Cancel(ctx, jobID); err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "cancel query", jm.lastQuery("PATCH", "/jobs/"+jobID), "mode=cancel")

	if err := c.DeleteJar(ctx, "x.jar"); err != nil {
		t.Fatal(err)
	}
}

func TestFlinkWithoutDirectBase(t *testing.T) {
	ctx := context.Background()
	px := newFake(t)
	yarnProxy(px, proxy+"/jobs/"+jobID+"/savepoints")
	px.json("GET", proxy+"/jobs/"+jobID+"/yarn-cancel", 202, `{}`)
	c := newFlink(t, px.URL()+proxy, "", fastOpts())

	if err := c.Cancel(ctx, jobID); err != nil {
		t.Fatalf("cancel through the proxy: %v", err)
	}
	_, err := c.TriggerSavepoint(ctx, jobID, SavepointRequest{})
	if !errors.Is(err, ErrNoDirectAddress) {
		t.Fatalf("err = %v, want ErrNoDirectAddress", err)
	}
	want := "POST " + proxy + "/jobs/" + jobID + "/savepoints on " + px.Host() + ": " + ErrNoDirectAddress.Error()
	mustEqual(t, "message", err.Error(), want)
	for _, act := range []func() error{
		func() error { _, err := c.StopWithSavepoint(ctx, jobID, StopRequest{}); return err },
		func() error { _, err := c.RunJar(ctx, "x.jar", JarRunRequest{}); return err },
		func() error { _, err := c.UploadJar(ctx, "x.jar", strings.NewReader("PK")); return err },
		func() error { return c.DeleteJar(ctx, "x.jar") },
	} {
		if err := act(); !errors.Is(err, ErrNoDirectAddress) {
			t.Errorf("err = %v, want ErrNoDirectAddress", err)
		}
	}
}

func TestFlinkCancelFallsBackWhenTheJobManagerIsUnreachable(t *testing.T) {
	px := newFake(t)
	px.json("GET", proxy+"/jobs/"+jobID+"/yarn-cancel", 202, `{}`)
	o := fastOpts()
	if err := newFlink(t, px.URL()+proxy, deadAddr(t), o).Cancel(context.Background(), jobID); err != nil {
		t.Fatal(err)
	}

	t.Run("not when the request may have reached it", func(t *testing.T) {
		px := newFake(t)
		jm := newFake(t)
		jm.on("PATCH", "/jobs/"+jobID, resetConn)
		err := newFlink(t, px.URL()+proxy, jm.URL(), o).Cancel(context.Background(), jobID)
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestFlinkWaitSavepoint(t *testing.T) {
	ctx := context.Background()
	trig := NewTriggerID()
	path := "/jobs/" + jobID + "/savepoints/" + trig
	t.Run("completed", func(t *testing.T) {
		jm := newFake(t)
		var n atomic.Int32
		jm.on("GET", path, func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) < 3 {
				jsonHandler(200, `{"status":{"id":"IN_PROGRESS"}}`)(w, r)
				return
			}
			jsonHandler(200, `{"status":{"id":"COMPLETED"},"operation":{"location":"hdfs:///sp/savepoint-0f8a6c-1234"}}`)(w, r)
		}).times(3)
		op, err := newFlink(t, jm.URL(), "", fastOpts()).WaitSavepoint(ctx, jobID, trig)
		if err != nil {
			t.Fatal(err)
		}
		mustEqual(t, "location", op.Location, "hdfs:///sp/savepoint-0f8a6c-1234")
	})
	t.Run("failed", func(t *testing.T) {
		jm := newFake(t)
		jm.json("GET", path, 200, `{"status":{"id":"COMPLETED"},"operation":{"failure-cause":{"class":"java.util.concurrent.CompletionException","stack-trace":"java.util.concurrent.CompletionException: org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint Coordinator is suspending.\n\tat java.base/...","serialized-throwable":"rO0ABXNy"}}}`)
		op, err := newFlink(t, jm.URL(), "", fastOpts()).WaitSavepoint(ctx, jobID, trig)
		var of *OperationFailedError
		if !errors.As(err, &of) || !strings.Contains(err.Error(), "Checkpoint Coordinator is suspending") {
			t.Fatalf("err = %v", err)
		}
		if !op.Done || op.Failure == nil || op.Failure.Class != "java.util.concurrent.CompletionException" {
			t.Errorf("op = %+v", op)
		}
	})
	t.Run("checkpoint trigger status", func(t *testing.T) {
		jm := newFake(t)
		jm.json("GET", "/jobs/"+jobID+"/checkpoints/"+trig, 200, `{"status":{"id":"COMPLETED"},"operation":{"checkpointId":42}}`)
		op, err := newFlink(t, jm.URL(), "", fastOpts()).WaitCheckpoint(ctx, jobID, trig)
		if err != nil || op.CheckpointID != 42 {
			t.Fatalf("op %+v err %v", op, err)
		}
	})
}

func TestFlinkMetricsAreBareArrays(t *testing.T) {
	ctx := context.Background()
	jm := newFake(t)
	jm.json("GET", "/jobs/"+jobID+"/metrics", 200, `[{"id":"numRestarts","value":"3"},{"id":"uptime","value":"3600000"}]`)
	jm.json("GET", "/jobs/"+jobID+"/vertices/"+vertexID+"/metrics", 200, `[{"id":"0.numRecordsInPerSecond","value":"1523.4"},{"id":"0.currentInputWatermark"}]`)
	jm.json("GET", "/jobs/"+jobID+"/vertices/"+vertexID+"/subtasks/metrics", 200,
		`[{"id":"numRecordsInPerSecond","max":812.5,"sum":3050.0},{"id":"backPressuredTimeMsPerSecond","max":"950.0","sum":"1000"}]`)
	jm.json("GET", "/jobs/"+jobID+"/vertices/"+vertexID+"/watermarks", 200, `[{"id":"0.currentInputWatermark","value":"1732863599000"}]`)
	c := newFlink(t, jm.URL(), "", fastOpts())

	m, err := c.JobMetrics(ctx, jobID, "numRestarts", "uptime")
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "get", jm.lastQuery("GET", "/jobs/"+jobID+"/metrics"), "get=numRestarts%2Cuptime")
	if len(m) != 2 || m[0] != (Metric{"numRestarts", "3"}) {
		t.Errorf("metrics = %+v", m)
	}
	vm, err := c.VertexMetrics(ctx, jobID, vertexID)
	if err != nil || len(vm) != 2 || vm[1].Value != "" || vm[0].Value != "1523.4" {
		t.Fatalf("vertex metrics %+v err %v", vm, err)
	}
	am, err := c.SubtaskMetrics(ctx, jobID, vertexID, []string{"numRecordsInPerSecond", "backPressuredTimeMsPerSecond"}, []string{"sum", "max"})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := url.ParseQuery(jm.lastQuery("GET", "/jobs/"+jobID+"/vertices/"+vertexID+"/subtasks/metrics"))
	mustEqual(t, "agg", q.Get("agg"), "sum,max")
	mustEqual(t, "get", q.Get("get"), "numRecordsInPerSecond,backPressuredTimeMsPerSecond")
	if am[0].Max == nil || *am[0].Max != 812.5 || am[0].Min != nil || *am[1].Sum != 1000 {
		t.Errorf("aggregated = %+v", am)
	}
	wm, err := c.Watermarks(ctx, jobID, vertexID)
	if err != nil || wm[0].Value != "1732863599000" {
		t.Fatalf("watermarks %+v err %v", wm, err)
	}
}

func TestFlinkJars(t *testing.T) {
	ctx := context.Background()
	jm := newFake(t)
	const stored = "/tmp/flink-web-4c3b/flink-web-upload/4c3b5a8e-9f1d-4e2a-b7c6-1d2e3f4a5b6c_orders-enrich.jar"
	jm.on("POST", "/jars/upload", func(w http.ResponseWriter, r *http.Request) {
		mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "multipart/form-data" {
			t.Errorf("upload content type %q", r.Header.Get("Content-Type"))
		}
		mr := multipart.NewReader(r.Body, params["boundary"])
		part, err := mr.NextPart()
		if err != nil {
			t.Fatal(err)
		}
		mustEqual(t, "form field", part.FormName(), "jarfile")
		mustEqual(t, "file name", part.FileName(), "orders-enrich.jar")
		mustEqual(t, "part content type", part.Header.Get("Content-Type"), "application/x-java-archive")
		b, _ := io.ReadAll(part)
		mustEqual(t, "jar bytes", string(b), "PK\x03\x04jar")
		jsonHandler(200, `{"filename":"`+stored+`","status":"success"}`)(w, r)
	})
	jm.json("POST", "/jars/4c3b5a8e-9f1d-4e2a-b7c6-1d2e3f4a5b6c_orders-enrich.jar/run", 200,
		`{"jobid":"`+jobID+`","applicationId":"1a2b3c4d5e6f70819a0b1c2d3e4f5a6b"}`)
	c := newFlink(t, "", jm.URL(), fastOpts())

	up, err := c.UploadJar(ctx, "/home/ops/build/orders-enrich.jar", strings.NewReader("PK\x03\x04jar"))
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "jar id", up.ID, "4c3b5a8e-9f1d-4e2a-b7c6-1d2e3f4a5b6c_orders-enrich.jar")
	res, err := c.RunJar(ctx, up.ID, JarRunRequest{
		EntryClass: "com.example.OrdersEnrich", ProgramArgsList: []string{"--topic", "orders"}, Parallelism: 4,
		SavepointPath: "hdfs:///sp/savepoint-1", AllowNonRestoredState: true, ClaimMode: ClaimModeNoClaim,
	})
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "jobid", res.JobID, jobID)
	mustEqual(t, "applicationId", res.ApplicationID, "1a2b3c4d5e6f70819a0b1c2d3e4f5a6b")
	var body map[string]any
	json.Unmarshal([]byte(jm.lastBody("POST", "/jars/"+up.ID+"/run")), &body)
	for k, v := range map[string]any{"entryClass": "com.example.OrdersEnrich", "parallelism": 4.0,
		"savepointPath": "hdfs:///sp/savepoint-1", "allowNonRestoredState": true, "restoreMode": "NO_CLAIM"} {
		if body[k] != v {
			t.Errorf("run body %s = %v, want %v", k, body[k], v)
		}
	}
	if args, _ := body["programArgsList"].([]any); len(args) != 2 || args[1] != "orders" {
		t.Errorf("programArgsList = %v", body["programArgsList"])
	}
}

func TestJobManagerBasesFromApplication(t *testing.T) {
	running := Application{ID: appID, State: AppRunning, TrackingUI: "ApplicationMaster",
		TrackingURL: "http://rm1:8088/proxy/" + appID + "/", AMRPCAddress: "host-1:40321"}
	for _, tc := range []struct {
		name         string
		app          Application
		tls          bool
		read, direct string
		ok           bool
	}{
		{"running", running, false, "http://rm1:8088/proxy/" + appID + "/", "http://host-1:40321", true},
		{"running with TLS REST", running, true, "http://rm1:8088/proxy/" + appID + "/", "https://host-1:40321", true},
		{"JobManager not up", Application{ID: appID, State: AppAccepted, TrackingUI: "UNASSIGNED"}, false, "", "", false},
		{"no RPC address", Application{ID: appID, State: AppRunning, TrackingUI: "ApplicationMaster",
			TrackingURL: "http://rm1:8088/proxy/" + appID + "/"}, false, "http://rm1:8088/proxy/" + appID + "/", "", true},
		{"finished", Application{ID: appID, State: AppFinished, TrackingUI: "History",
			TrackingURL: "http://rm1:8088/cluster/app/" + appID, AMRPCAddress: "host-1:40321"}, false, "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			read, direct, ok := JobManagerBases(tc.app, tc.tls)
			if read != tc.read || direct != tc.direct || ok != tc.ok {
				t.Errorf("got %q %q %v, want %q %q %v", read, direct, ok, tc.read, tc.direct, tc.ok)
			}
		})
	}
	root := newFlink(t, "http://placeholder:1", "", Options{})
	if _, err := root.ForApplication(Application{ID: appID, State: AppKilled}, false); !errors.Is(err, ErrUnavailable) {
		t.Errorf("err = %v", err)
	}
	c, err := root.ForApplication(running, false)
	if err != nil || c.DirectBase() != "http://host-1:40321" || c.t != root.t {
		t.Errorf("ForApplication = %v %v", c, err)
	}
}

func TestFlinkExecutionResult(t *testing.T) {
	jm := newFake(t)
	// JobResultSerializer's names, as 2.x writes them.
	jm.json("GET", "/jobs/"+jobID+"/execution-result", 200, `{"status":{"id":"COMPLETED"},"job-execution-result":{
		"id":"`+jobID+`","name":"orders-enrich","application-status":"FAILED","accumulator-results":{},"net-runtime":5012,
		"failure-cause":{"class":"java.lang.RuntimeException","stack-trace":"java.lang.RuntimeException: lookup timed out\n\tat x","serialized-throwable":"rO0"},
		"application-id":"1a2b3c4d5e6f70819a0b1c2d3e4f5a6b","start-time":1732860000000,"end-time":1732860005012}}`)
	jm.json("GET", "/jobs/"+vertexID+"/execution-result", 200, `{"status":{"id":"IN_PROGRESS"}}`)
	c := newFlink(t, jm.URL(), "", fastOpts())
	r, err := c.ExecutionResult(context.Background(), jobID)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Done || r.ApplicationStatus != "FAILED" || r.NetRuntime != 5012 || r.Name != "orders-enrich" ||
		r.Failure.Message() != "java.lang.RuntimeException: lookup timed out" || r.EndTime != 1732860005012 {
		t.Errorf("result = %+v", r)
	}
	r, err = c.ExecutionResult(context.Background(), vertexID)
	if err != nil || r.Done {
		t.Errorf("running job: %+v %v", r, err)
	}
	var w executionResultWire // the spec's bean names (2.4 spec)
	json.Unmarshal([]byte(`{"status":{"id":"COMPLETED"},"job-execution-result":{"jobId":"`+jobID+`","jobStatus":"CANCELED","netRuntime":7}}`), &w)
	if r := w.result(); r.ApplicationStatus != "CANCELED" || r.JobID != jobID || r.NetRuntime != 7 {
		t.Errorf("spec-named result = %+v", r)
	}
}

// TestFlinkDisposeSavepoint: the disposal goes to the direct base with the
// spec's SavepointDisposalRequest, then its status is polled until
// COMPLETED; a failure-cause is the error.
func TestFlinkDisposeSavepoint(t *testing.T) {
	ctx := context.Background()
	trig := NewTriggerID()
	t.Run("completed", func(t *testing.T) {
		jm := newFake(t)
		jm.json("POST", "/savepoint-disposal", 200, `{"request-id":"`+trig+`"}`)
		var n atomic.Int32
		jm.on("GET", "/savepoint-disposal/"+trig, func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) < 2 {
				jsonHandler(200, `{"status":{"id":"IN_PROGRESS"}}`)(w, r)
				return
			}
			jsonHandler(200, `{"status":{"id":"COMPLETED"},"operation":{}}`)(w, r)
		}).times(2)
		if err := newFlink(t, jm.URL(), jm.Host(), fastOpts()).DisposeSavepoint(ctx, "hdfs:///sp/savepoint-1"); err != nil {
			t.Fatal(err)
		}
		mustEqual(t, "disposal body", jm.lastBody("POST", "/savepoint-disposal"), `{"savepoint-path":"hdfs:///sp/savepoint-1"}`)
	})
	t.Run("failed", func(t *testing.T) {
		jm := newFake(t)
		jm.json("POST", "/savepoint-disposal", 200, `{"request-id":"`+trig+`"}`)
		jm.json("GET", "/savepoint-disposal/"+trig, 200, `{"status":{"id":"COMPLETED"},"operation":{"failure-cause":{"class":"java.io.FileNotFoundException","stack-trace":"java.io.FileNotFoundException: Cannot find meta data file '_metadata' in directory 'hdfs:///sp/savepoint-1'.\n\tat org.apache.flink...","serialized-throwable":"rO0ABXNy"}}}`)
		err := newFlink(t, jm.URL(), jm.Host(), fastOpts()).DisposeSavepoint(ctx, "hdfs:///sp/savepoint-1")
		var of *OperationFailedError
		if !errors.As(err, &of) || !strings.Contains(err.Error(), "Cannot find meta data file") {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestCheckpointsWithoutAFileAreNeverRestorePoints: a checkpoint Flink
// keeps only in the JobManager's memory reads as one without a path
// wherever it appears, and every Flink call that returns checkpoints
// decodes them through a decodeBody that says so.
func TestCheckpointsWithoutAFileAreNeverRestorePoints(t *testing.T) {
	const mem = `{"id":7,"status":"COMPLETED","external_path":"<checkpoint-not-externally-addressable>"}`
	const file = `{"id":6,"status":"COMPLETED","external_path":"hdfs:///ck/chk-6"}`
	var s CheckpointStats
	body := `{"latest":{"completed":` + mem + `,"savepoint":` + mem + `,"failed":` + mem + `},"history":[` + mem + `,` + file + `]}`
	if err := decode("GET", &response{status: 200, body: []byte(body)}, "checkpoints", &s); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*Checkpoint{"completed": s.Latest.Completed, "savepoint": s.Latest.Savepoint,
		"failed": s.Latest.Failed, "history[0]": &s.History[0]} {
		if c == nil || c.ID != 7 || c.ExternalPath != "" {
			t.Errorf("%s: %+v, want id 7 without a path", name, c)
		}
	}
	mustEqual(t, "a checkpoint with a file", s.History[1].ExternalPath, "hdfs:///ck/chk-6")
	var one Checkpoint
	if err := decode("GET", &response{status: 200, body: []byte(mem)}, "checkpoint", &one); err != nil || one.ExternalPath != "" {
		t.Errorf("details: %+v, %v", one, err)
	}

	holds := func(typ reflect.Type) bool {
		seen := map[reflect.Type]bool{}
		var walk func(reflect.Type) bool
		walk = func(t reflect.Type) bool {
			if seen[t] {
				return false
			}
			seen[t] = true
			switch t.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
				return walk(t.Elem())
			case reflect.Struct:
				if t == reflect.TypeFor[Checkpoint]() {
					return true
				}
				for f := range t.Fields() {
					if walk(f.Type) {
						return true
					}
				}
			}
			return false
		}
		return walk(typ)
	}
	ft := reflect.TypeFor[*Flink]()
	for m := range ft.Methods() {
		for i := range m.Type.NumOut() {
			out := m.Type.Out(i)
			if out.Kind() == reflect.Pointer || !holds(out) {
				continue
			}
			if !reflect.PointerTo(out).Implements(reflect.TypeFor[bodyDecoder]()) {
				t.Errorf("Flink.%s returns %s, which holds checkpoints but has no decodeBody to clear their memory-only paths", m.Name, out)
			}
		}
	}
}
