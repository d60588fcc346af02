package core_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// logEnv is a running SQL job on a simulator whose JobManager and
// TaskManager logs have logSize bytes each (generated on the fly).
type logEnv struct {
	t   *testing.T
	ctx context.Context
	sim *sim.Cluster
	svc *core.Local
	job model.Job
}

func newLogEnv(t *testing.T, logSize int64) *logEnv {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	ctx, cancel := context.WithCancel(context.Background())
	c, err := sim.New(sim.Options{Seed: 5, Speed: 30, LogSize: logSize})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := core.NewLocal(core.Options{Store: st, Clusters: []clusters.Spec{coretest.SimCluster(c)}, User: "tester",
		Poll: 20 * time.Millisecond, Lease: 2 * time.Second, NoJitter: true})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = svc.RunScheduler(ctx) }()
	t.Cleanup(func() { cancel(); <-done; st.Close(); c.Close() })

	e := &logEnv{t: t, ctx: ctx, sim: c, svc: svc}
	_, err = svc.CreateJob(ctx, api.CreateJobRequest{Name: "orders", Cluster: "sim", Kind: model.KindSQL, Spec: model.Spec{
		SQL: "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen');\nCREATE TABLE snk (id BIGINT) WITH ('connector' = 'blackhole');\nINSERT INTO snk SELECT id FROM src;"}})
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := svc.Act(ctx, api.ActionRequest{JobRef: "orders", Kind: model.CmdSubmit})
	if err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, time.Minute)
	defer wcancel()
	if cmd, err = svc.WaitCommand(wctx, cmd.ID); err != nil || cmd.State != model.CmdSucceeded {
		t.Fatalf("submit: %v %s %s", err, cmd.State, cmd.Error)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		j, err := svc.SyncJob(ctx, "orders")
		if err != nil {
			t.Fatal(err)
		}
		if j.State == model.StateRunning {
			e.job = j
			return e
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job never ran: %s", j.State)
		}
	}
}

func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestLogsOfA200MBLogInBoundedChunks lists a running job's logs and reads,
// searches and pages a 200 MB JobManager log on the simulator: every answer
// is one bounded chunk, the search continues call after call, and the heap
// stays small throughout.
func TestLogsOfA200MBLogInBoundedChunks(t *testing.T) {
	const size = 200 << 20
	e := newLogEnv(t, size)
	ctx := e.ctx
	before := heapInUse()

	list, err := e.svc.Logs(ctx, "orders")
	if err != nil {
		t.Fatal(err)
	}
	if list.FlinkError != "" {
		t.Fatalf("Flink logs missing: %s", list.FlinkError)
	}
	var titles []string
	var jmLog, tmOut *api.LogSource
	links := 0
	for i, s := range list.Sources {
		titles = append(titles, s.Title)
		switch {
		case s.Kind == api.LogJobManager && s.Ref == (api.LogRef{}):
			jmLog = &list.Sources[i]
		case s.Kind == api.LogTaskManager && s.Ref.Stdout && tmOut == nil:
			tmOut = &list.Sources[i]
		case s.Kind == api.LogContainer:
			links++
			if !strings.Contains(s.URL, "/node/containerlogs/container_") {
				t.Errorf("container link %q", s.URL)
			}
		}
	}
	if jmLog == nil || tmOut == nil || links == 0 {
		t.Fatalf("sources %q", titles)
	}
	if jmLog.Size != size/160*160 {
		t.Errorf("JobManager log size %d", jmLog.Size)
	}
	if titles[0] != "JobManager log" || titles[1] != "JobManager stdout" || !strings.HasPrefix(titles[2], "JobManager ") {
		t.Errorf("the JobManager's logs do not come first: %q", titles)
	}

	// The tail: one default chunk ending at the end of the file.
	tail, err := e.svc.ReadLog(ctx, api.LogRequest{JobRef: "orders", Tail: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tail.Data) != api.DefaultLogChunk || tail.Offset+int64(len(tail.Data)) != jmLog.Size || tail.More {
		t.Fatalf("tail: %d bytes at %d of %d (more %v)", len(tail.Data), tail.Offset, tail.Size, tail.More)
	}
	if !bytes.HasSuffix(tail.Data, []byte("\n")) {
		t.Error("the tail does not end with a whole line")
	}
	// A limit above the cap is cut to it.
	big, err := e.svc.ReadLog(ctx, api.LogRequest{JobRef: "orders", Offset: 100 << 20, Limit: 50 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(big.Data) != api.MaxLogChunk || big.Offset != 100<<20 || !big.More {
		t.Fatalf("a 50 MB request gave %d bytes at %d", len(big.Data), big.Offset)
	}

	// Search for a line 28 MB in: the first calls scan their budget and
	// say where to continue; a later one finds it.
	at := int64(28<<20) / 160 * 160
	ch, err := e.svc.ReadLog(ctx, api.LogRequest{JobRef: "orders", Offset: at, Limit: 160})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimRight(string(ch.Data), " \n")
	s := api.LogSearch{JobRef: "orders", Query: api.LogQuery{Text: want[:60]}, MaxScan: 8 << 20}
	var m api.LogMatch
	calls := 0
	for ; !m.Found && !m.Exhausted; calls++ {
		if m, err = e.svc.FindInLog(ctx, s); err != nil {
			t.Fatal(err)
		}
		s.From = m.Next
	}
	if !m.Found || m.Offset != at || !strings.HasPrefix(m.Line, want) || calls != 4 {
		t.Fatalf("after %d calls: found %v at %d (%q), want %d", calls, m.Found, m.Offset, m.Line, at)
	}
	// Backward from 12 MB further, the same line is found in 2 calls.
	s = api.LogSearch{JobRef: "orders", Query: s.Query, From: at + 12<<20, Backward: true, MaxScan: 8 << 20}
	m = api.LogMatch{}
	for calls = 0; !m.Found && !m.Exhausted; calls++ {
		if m, err = e.svc.FindInLog(ctx, s); err != nil {
			t.Fatal(err)
		}
		s.From = m.Next
	}
	if !m.Found || m.Offset != at || calls != 2 {
		t.Fatalf("backward after %d calls: found %v at %d, want %d", calls, m.Found, m.Offset, at)
	}
	// No ERROR in the simulator's log: the search runs to the end.
	m, err = e.svc.FindInLog(ctx, api.LogSearch{JobRef: "orders", Query: api.LogQuery{Errors: true}, From: jmLog.Size - 8<<20})
	if err != nil || m.Found || !m.Exhausted {
		t.Fatalf("error search: %+v %v", m, err)
	}

	if grew := int64(heapInUse()) - int64(before); grew > 16<<20 {
		t.Errorf("the heap grew by %d MiB reading and searching a 200 MB log", grew>>20)
	}
}

// TestSaveLogThroughTheAgent saves a TaskManager's log through the agent
// protocol: the client writes the file from bounded chunks, and it equals
// the log read directly.
func TestSaveLogThroughTheAgent(t *testing.T) {
	e := newLogEnv(t, 3<<20+17)
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(e.ctx)
	served := make(chan error, 1)
	go func() { served <- agent.Serve(ctx, ln, e.svc, agent.ServeOptions{}) }()
	defer func() { cancel(); <-served }()
	r, err := agent.Dial(ctx, agent.AgentSocket{Path: sock, Configured: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()

	list, err := r.Logs(ctx, "orders")
	if err != nil {
		t.Fatal(err)
	}
	var tm api.LogRef
	for _, s := range list.Sources {
		if s.Kind == api.LogTaskManager {
			tm = s.Ref
			break
		}
	}
	if tm.TaskManager == "" {
		t.Fatalf("no TaskManager log in %+v", list.Sources)
	}
	path := filepath.Join(t.TempDir(), "tm.log")
	saved, err := r.SaveLog(ctx, api.SaveLogRequest{JobRef: "orders", Log: tm, Path: path})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	var off int64
	for {
		ch, err := e.svc.ReadLog(ctx, api.LogRequest{JobRef: "orders", Log: tm, Offset: off, Limit: api.MaxLogChunk})
		if err != nil {
			t.Fatal(err)
		}
		h.Write(ch.Data)
		off += int64(len(ch.Data))
		if !ch.More {
			break
		}
	}
	if saved.Bytes != off || int64(len(got)) != off {
		t.Fatalf("saved %d bytes, the file has %d, the log %d", saved.Bytes, len(got), off)
	}
	if sum := sha256.Sum256(got); !bytes.Equal(sum[:], h.Sum(nil)) {
		t.Fatal("the saved file differs from the log")
	}

	// The agent searches server-side; its errors keep the job and the cause.
	m, err := r.FindInLog(ctx, api.LogSearch{JobRef: "orders", Log: tm, Query: api.LogQuery{Text: "committing offsets"}})
	if err != nil || !m.Found || !strings.Contains(m.Line, "Committing offsets") {
		t.Fatalf("search through the agent: %+v %v", m, err)
	}
	_, err = r.ReadLog(ctx, api.LogRequest{JobRef: "orders", Log: api.LogRef{TaskManager: tm.TaskManager, Name: "../../etc/passwd"}})
	if err == nil || !strings.Contains(err.Error(), "give a name from the log list") {
		t.Fatalf("a path outside the log directory: %v", err)
	}
	_, err = r.ReadLog(ctx, api.LogRequest{JobRef: "nope"})
	if err == nil || !strings.Contains(err.Error(), `job "nope"`) {
		t.Fatalf("an unknown job: %v", err)
	}
}

// TestLogsOfAStoppedJobKeepTheContainerLinks: once the application ended,
// Flink's logs are gone and the list says so, with YARN's links left.
func TestLogsOfAStoppedJobKeepTheContainerLinks(t *testing.T) {
	e := newLogEnv(t, 1<<20)
	cmd, err := e.svc.Act(e.ctx, api.ActionRequest{JobRef: "orders", Kind: model.CmdKill})
	if err != nil {
		t.Fatal(err)
	}
	if cmd, err = e.svc.WaitCommand(e.ctx, cmd.ID); err != nil || cmd.State != model.CmdSucceeded {
		t.Fatalf("kill: %v %s", err, cmd.Error)
	}
	list, err := e.svc.Logs(e.ctx, "orders")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(list.FlinkError, "is KILLED") {
		t.Errorf("FlinkError %q", list.FlinkError)
	}
	if len(list.Sources) == 0 || list.Sources[0].Kind != api.LogContainer {
		t.Fatalf("sources %+v", list.Sources)
	}
	_, err = e.svc.ReadLog(e.ctx, api.LogRequest{JobRef: "orders", Tail: true})
	if err == nil || !strings.Contains(err.Error(), "logs of job orders: application application_") {
		t.Fatalf("reading a killed job's log: %v", err)
	}
}
