package yarn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

const (
	lookupVertex = "90bea66de1c231edf33913ecd54406c1"
	tmID         = "container_1732860000000_0042_01_000003"
)

func TestFlinkDiagnosticReadsDecodeSpecShapes(t *testing.T) {
	ctx := context.Background()
	px := newFake(t)
	jp := proxy + "/jobs/" + jobID
	px.json("GET", jp+"/plan", 200, fixture(t, "flink_plan.json"))
	px.json("GET", jp+"/vertices/"+lookupVertex, 200, fixture(t, "flink_vertex_details.json"))
	px.json("GET", jp+"/vertices/"+lookupVertex+"/subtasktimes", 200, fixture(t, "flink_subtasktimes.json"))
	px.json("GET", jp+"/vertices/"+lookupVertex+"/taskmanagers", 200, fixture(t, "flink_vertex_taskmanagers.json"))
	px.json("GET", jp+"/vertices/"+lookupVertex+"/subtasks/1/metrics", 200, `[{"id":"numRecordsInPerSecond","value":"12.5"}]`)
	px.json("GET", jp+"/checkpoints/details/42/subtasks/"+lookupVertex, 200, fixture(t, "flink_checkpoint_subtasks.json"))
	px.json("GET", proxy+"/taskmanagers/"+tmID, 200, fixture(t, "flink_taskmanager_details.json"))
	px.json("GET", proxy+"/taskmanagers/"+tmID+"/metrics", 200, `[{"id":"Status.JVM.Memory.Heap.Used","value":"301989888"}]`)
	px.json("GET", proxy+"/jobmanager/config", 200, fixture(t, "flink_jobmanager_config.json"))
	px.json("GET", jp+"/config", 200, fixture(t, "flink_job_config.json"))
	c := newFlink(t, px.URL()+proxy+"/", "", fastOpts())

	plan, err := c.Plan(ctx, jobID)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Nodes) != 3 || plan.Nodes[1].Inputs[0].ID != plan.Nodes[0].ID || plan.Nodes[2].Inputs[0].ShipStrategy != "REBALANCE" {
		t.Fatalf("plan edges: %+v", plan.Nodes)
	}

	v, err := c.Vertex(ctx, jobID, lookupVertex)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Subtasks) != 2 || v.Subtasks[1].Metrics.ReadRecords != 10000 || v.Subtasks[1].HostName() != "host-8.example.com" ||
		v.Subtasks[0].TaskManagerID != tmID || v.Aggregated.Metrics["read-records"]["max"] != 10000 {
		t.Fatalf("vertex: %+v", v)
	}
	times, err := c.SubtaskTimes(ctx, jobID, lookupVertex)
	if err != nil || times.Subtasks[0].Timestamps["RUNNING"] != 1732860099933 {
		t.Fatalf("subtask times: %+v %v", times, err)
	}
	vtm, err := c.VertexTaskManagers(ctx, jobID, lookupVertex)
	if err != nil || vtm.TaskManagers[0].TaskManagerID != tmID || vtm.TaskManagers[0].StatusCounts["RUNNING"] != 1 {
		t.Fatalf("vertex TaskManagers: %+v %v", vtm, err)
	}
	ms, err := c.SubtaskMetricValues(ctx, jobID, lookupVertex, 1, "numRecordsInPerSecond")
	if err != nil || len(ms) != 1 || ms[0].Value != "12.5" {
		t.Fatalf("subtask metrics: %+v %v", ms, err)
	}
	if q := px.lastQuery("GET", jp+"/vertices/"+lookupVertex+"/subtasks/1/metrics"); q != "get=numRecordsInPerSecond" {
		t.Errorf("subtask metrics query %q", q)
	}

	cs, err := c.CheckpointSubtasks(ctx, jobID, 42, lookupVertex)
	if err != nil {
		t.Fatal(err)
	}
	slow := cs.Subtasks[1]
	if !slow.Completed() || slow.Checkpoint.Async != 8500 || slow.Alignment.Duration != 450 || slow.StartDelay != 60 ||
		cs.Subtasks[2].Completed() || cs.Summary.CheckpointDuration.Async.Max != 8500 {
		t.Fatalf("checkpoint subtasks: %+v", cs)
	}

	tm, err := c.TaskManager(ctx, tmID)
	if err != nil {
		t.Fatal(err)
	}
	if tm.Host() != "host-7.example.com" || tm.Metrics.HeapUsed != 301989888 || len(tm.Metrics.GarbageCollectors) != 2 ||
		tm.Metrics.GarbageCollectors[0].Count != 1520 || tm.AllocatedSlots[0].JobID != jobID || tm.SlotsNumber != 2 {
		t.Fatalf("TaskManager: %+v", tm)
	}

	tmm, err := c.TaskManagerMetrics(ctx, tmID, "Status.JVM.Memory.Heap.Used", "Status.JVM.CPU.Load")
	if err != nil || len(tmm) != 1 || tmm[0].Value != "301989888" {
		t.Fatalf("TaskManager metrics: %+v %v", tmm, err)
	}
	if q := px.lastQuery("GET", proxy+"/taskmanagers/"+tmID+"/metrics"); q != "get=Status.JVM.Memory.Heap.Used%2CStatus.JVM.CPU.Load" {
		t.Errorf("TaskManager metrics query %q", q)
	}

	conf, err := c.JobManagerConfig(ctx)
	if err != nil || len(conf) != 4 || conf[1].Key != "rest.flamegraph.enabled" {
		t.Fatalf("JobManager config: %+v %v", conf, err)
	}
	jc, err := c.JobConfig(ctx, jobID)
	if err != nil || jc.JobID != jobID || jc.Name != "orders-enrich" || jc.ExecutionConfig.JobParallelism != 4 ||
		jc.ExecutionConfig.UserConfig["lookup.timeout"] != "3s" {
		t.Fatalf("job config: %+v %v", jc, err)
	}
}

func TestJobConfigReadsTheSpecNamesToo(t *testing.T) {
	var jc JobConfig
	err := jc.UnmarshalJSON([]byte(`{"jobId":"` + jobID + `","jobName":"x","executionConfigInfo":{"job-parallelism":3}}`))
	if err != nil || jc.JobID != jobID || jc.Name != "x" || jc.ExecutionConfig.JobParallelism != 3 {
		t.Fatalf("%+v %v", jc, err)
	}
}

func TestFlameGraphDecodesStatesAndFrames(t *testing.T) {
	ctx := context.Background()
	fg := "/jobs/" + jobID + "/vertices/" + lookupVertex + "/flamegraph"
	cases := []struct {
		name, body, status string
		frames             int
	}{
		{"ready", fixture(t, "flink_flamegraph.json"), FlameReady, 7},
		{"disabled", `{"endTimestamp":-2}`, FlameDisabled, 0},
		{"waiting", `{"endTimestamp":-3}`, FlameWaiting, 0},
		{"terminated", `{"endTimestamp":-1}`, FlameTerminated, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.json("GET", fg, 200, tc.body)
			c := newFlink(t, f.URL(), "", fastOpts())
			g, err := c.FlameGraph(ctx, jobID, lookupVertex, FlameGraphRequest{Type: FlameOffCPU, Subtask: -1})
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != tc.status || len(g.Frames) != tc.frames || g.Truncated {
				t.Fatalf("got status %s, %d frames, truncated %v", g.Status, len(g.Frames), g.Truncated)
			}
			if q := f.lastQuery("GET", fg); q != "type=OFF_CPU" {
				t.Errorf("query %q", q)
			}
			if tc.frames == 0 {
				return
			}
			root, park := g.Frames[0], g.Frames[5]
			if root.Name != "root" || root.Value != 100 || root.Parent != -1 ||
				park.Name != "jdk.internal.misc.Unsafe.park:-2" || park.Depth != 5 || park.Value != 70 || g.Frames[park.Parent].Depth != 4 {
				t.Fatalf("frames: %+v", g.Frames)
			}
		})
	}
}

// flameJSON writes a flame graph of n frames: a spine of depth deep, the
// rest as siblings at the bottom, every field order Flink uses.
func flameJSON(n, deep int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"endTimestamp":1732863600000,"data":`)
	for d := 0; d < deep; d++ {
		fmt.Fprintf(&b, `{"name":"org.apache.flink.streaming.runtime.tasks.StreamTask.frame%d:%d","value":%d,"children":[`, d, d, n)
	}
	for i := 0; i < n-deep; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"com.example.udf.Leaf%d.eval:%d","value":1,"children":[]}`, i%977, i)
	}
	for d := 0; d < deep; d++ {
		b.WriteString("]}")
	}
	b.WriteString("}")
	return b.Bytes()
}

func TestFlameGraphIsBoundedAndSaysTruncated(t *testing.T) {
	big := flameJSON(50_000, 40)
	g, err := decodeFlameGraph(bytes.NewReader(big), 0, 0)
	if err != nil || g.Truncated || len(g.Frames) != 50_000 || g.Frames[0].Value != 50_000 {
		t.Fatalf("50k frames within the defaults: %d frames, truncated %v (%s), %v", len(g.Frames), g.Truncated, g.Why, err)
	}
	g, err = decodeFlameGraph(bytes.NewReader(big), 1000, 0)
	if err != nil || !g.Truncated || len(g.Frames) != 1000 || !strings.Contains(g.Why, "1000 frames") {
		t.Fatalf("frame cap: %d frames, truncated %v (%s), %v", len(g.Frames), g.Truncated, g.Why, err)
	}
	g, err = decodeFlameGraph(bytes.NewReader(big), 0, 200_000)
	if err != nil || !g.Truncated || len(g.Frames) == 0 || len(g.Frames) >= 50_000 || !strings.Contains(g.Why, "bytes") {
		t.Fatalf("byte cap: %d frames, truncated %v (%s), %v", len(g.Frames), g.Truncated, g.Why, err)
	}
	if g.Frames[0].Value < g.Frames[1].Value {
		t.Errorf("a cut graph keeps each frame at least its children's total: %+v", g.Frames[:2])
	}
	g, err = decodeFlameGraph(bytes.NewReader(flameJSON(MaxFlameDepth+50, MaxFlameDepth+20)), 0, 0)
	if err != nil || !g.Truncated || !strings.Contains(g.Why, "deeper") {
		t.Fatalf("depth cap: truncated %v (%s), %v", g.Truncated, g.Why, err)
	}
	if _, err := decodeFlameGraph(strings.NewReader(`{"endTimestamp":1,"data":[1]}`), 0, 0); err == nil {
		t.Error("a body that is not a flame graph decodes")
	}
}

func TestThreadDumpIsBoundedAndSaysTruncated(t *testing.T) {
	ctx := context.Background()
	var b bytes.Buffer
	b.WriteString(`{"threadInfos":[`)
	stack := strings.Repeat(`\tat org.apache.flink.runtime.taskmanager.Task.run(Task.java:566)\n`, 40)
	for i := 0; b.Len() < 20<<20; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"threadName":"thread-%d","stringifiedThreadInfo":"\"thread-%d\" Id=%d RUNNABLE\n%s"}`, i, i, i, stack)
	}
	b.WriteString(`]}`)
	dump := b.Bytes()
	f := newFake(t)
	f.on("GET", "/taskmanagers/"+tmID+"/thread-dump", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(dump)
	}).times(2)
	c := newFlink(t, f.URL(), "", fastOpts())
	td, err := c.ThreadDump(ctx, tmID, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if !td.Truncated || td.Bytes > 1<<20 || len(td.Threads) == 0 || td.Threads[0].ThreadName != "thread-0" {
		t.Fatalf("20 MB dump with a 1 MB cap: truncated %v, %d bytes read, %d threads", td.Truncated, td.Bytes, len(td.Threads))
	}
	td, err = c.ThreadDump(ctx, tmID, 32<<20)
	if err != nil || td.Truncated || !strings.HasPrefix(td.Threads[1].StringifiedThreadInfo, `"thread-1" Id=1 RUNNABLE`) {
		t.Fatalf("whole dump: truncated %v, %v", td.Truncated, err)
	}
}

// A JobManager that stops sending halfway through a body: the call ends
// with the caller's deadline, as a timeout, and leaks nothing.
func TestStreamedReadsEndWithTheCallersDeadline(t *testing.T) {
	f := newFake(t)
	f.on("GET", "/taskmanagers/"+tmID+"/thread-dump", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"threadInfos":[{"threadName":"a","stringifiedThreadInfo":"x"},`)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	c := newFlink(t, f.URL(), "", fastOpts())
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	_, err := c.ThreadDump(ctx, tmID, 0)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("want ErrTimeout, got %v", err)
	}
}

func TestDiagnosticReadsMapErrors(t *testing.T) {
	f := newFake(t)
	f.json("GET", "/jobs/"+jobID+"/config", 404, `{"errors":["org.apache.flink.runtime.rest.NotFoundException: Job `+jobID+` not found"]}`)
	f.json("GET", "/taskmanagers/nope/thread-dump", 404, `{"errors":["Could not find TaskExecutor nope."]}`)
	c := newFlink(t, f.URL(), "", fastOpts())
	if _, err := c.JobConfig(context.Background(), jobID); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "not found") {
		t.Errorf("job config of a missing job: %v", err)
	}
	if _, err := c.ThreadDump(context.Background(), "nope", 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("thread dump of a missing TaskManager: %v", err)
	}
}

func BenchmarkDecodeFlameGraph50k(b *testing.B) {
	body := flameJSON(50_000, 40)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		g, err := decodeFlameGraph(bytes.NewReader(body), 0, 0)
		if err != nil || len(g.Frames) != 50_000 {
			b.Fatal(len(g.Frames), err)
		}
	}
}

func TestFlameGraphNamesAreUnescaped(t *testing.T) {
	body := `{"data":{"name":"root","value":1,"children":[{"value":1,"children":[],"name":"a\"b\\c.\u00e9\ud83d\ude00:1"}]},"endTimestamp":5}`
	g, err := decodeFlameGraph(strings.NewReader(body), 0, 0)
	if err != nil || len(g.Frames) != 2 || g.Frames[1].Name != "a\"b\\c.é😀:1" || g.EndTimestamp != 5 || g.Status != FlameReady {
		t.Fatalf("%+v %v", g, err)
	}
}

// BenchmarkDecodeVertexP1000 decodes the details of a vertex of
// parallelism 1,000 as a JobManager sends them.
func BenchmarkDecodeVertexP1000(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"id":"` + lookupVertex + `","name":"LookupJoin[3] -> Calc[4]","maxParallelism":1024,"parallelism":1000,"now":1732863600000,"subtasks":[`)
	for i := 0; i < 1000; i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `{"subtask":%d,"status":"RUNNING","attempt":0,"endpoint":"host-%d.example.com:39021","start-time":1732860100000,"end-time":-1,"duration":3500000,`+
			`"metrics":{"read-bytes":%d,"read-bytes-complete":true,"write-bytes":90000,"write-bytes-complete":true,"read-records":%d,"read-records-complete":true,"write-records":500,"write-records-complete":true,"accumulated-backpressured-time":10,"accumulated-idle-time":200,"accumulated-busy-time":3000.0},`+
			`"taskmanager-id":"container_1732860000000_0042_01_%06d","status-duration":{"CREATED":3,"SCHEDULED":10,"DEPLOYING":120,"INITIALIZING":800,"RUNNING":3499067}}`,
			i, i%50, i*180, i, i/2+2)
	}
	buf.WriteString(`]}`)
	resp := &response{status: 200, body: buf.Bytes(), url: "http://jm/jobs/x/vertices/y"}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		var v VertexDetails
		if err := decode("GET", resp, "vertex details", &v); err != nil || len(v.Subtasks) != 1000 {
			b.Fatal(err)
		}
	}
}
