package detail_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/logview"
	"github.com/palink/palink/yarn/sim"
)

// This test runs the TUI against the real core and a simulated cluster
// (its ResourceManager, NodeManagers and log server answer as Hadoop's
// do): a job fails for good, its application ends, and the Logs tab still
// reads its JobManager's log, from the log server. (The TUI itself never
// imports core; only this test does, to drive it.)
func TestLogsTabReadsAFailedJobsJobManagerLogFromTheLogServer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	ctx, cancel := context.WithCancel(context.Background())
	c, err := sim.New(sim.Options{Seed: 5, Speed: 30})
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
	svc, err := core.NewLocal(core.Options{Store: st, Clusters: []clusters.Spec{{Name: "sim", RM: c.RMURLs(), SQLGateway: c.GatewayURL(), User: "ops",
		Deploy: clusters.Deploy{SavepointDir: "hdfs:///flink/savepoints"}}}, User: "tester", Poll: 20 * time.Millisecond, NoJitter: true})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = svc.RunScheduler(ctx) }()
	t.Cleanup(func() { cancel(); <-done; st.Close(); c.Close() })

	if _, err := svc.CreateJob(ctx, api.CreateJobRequest{Name: "orders", Cluster: "sim", Kind: model.KindSQL, Spec: model.Spec{
		SQL: "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen');\nCREATE TABLE snk (id BIGINT) WITH ('connector' = 'blackhole');\nINSERT INTO snk SELECT id FROM src;"}}); err != nil {
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
	j := syncUntil(t, svc, func(j model.Job) bool { return j.State == model.StateRunning })
	if err := c.FailJob(j.FlinkJobID); err != nil {
		t.Fatal(err)
	}
	syncUntil(t, svc, func(j model.Job) bool { return j.State == model.StateFailed })
	// The log server has the application's logs once YARN aggregated them.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		l, err := svc.ContainerLogs(ctx, "orders")
		if err == nil && l.Aggregated && len(l.Containers) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no aggregated container logs: %+v %v", l, err)
		}
	}

	h := tuitest.Drive(t, nil, 120, 40, func(ctx context.Context) tea.Model {
		return tui.New(ctx, svc, tui.Options{Context: "sim", Theme: tui.ThemeDark, RequestTimeout: time.Minute})
	})
	h.MustShow("orders")
	h.Press("l")
	h.MustShow("YARN containers · from the log server (the application ended)", "JobManager container_", "jobmanager.log",
		"TaskManager container_", "taskmanager.log")
	h.Press("enter") // the cursor rests on the JobManager's main log
	if _, ok := h.Top().(*logview.Viewer); !ok {
		t.Fatalf("enter on jobmanager.log opened %T (flash %q)", h.Top(), h.Flash())
	}
	// The viewer opens on the log's tail: its last line, as the service
	// reads it from the log server.
	var ref api.LogRef
	for _, c := range mustContainers(t, svc).Containers {
		if c.Role == "JobManager" {
			ref = api.LogRef{Container: c.ID, Name: "jobmanager.log"}
		}
	}
	ch, err := svc.ReadLog(ctx, api.LogRequest{JobRef: "orders", Log: ref, Tail: true, Limit: 4096})
	if err != nil || len(ch.Data) == 0 {
		t.Fatalf("read the JobManager's log: %v", err)
	}
	lines := strings.Split(strings.TrimRight(string(ch.Data), "\n"), "\n")
	last := strings.TrimRight(lines[len(lines)-1], " ")
	h.MustShow("orders · JobManager "+ref.Container+" jobmanager.log", "100%", last[:min(len(last), 100)])
}

func mustContainers(t *testing.T, svc *core.Local) api.ContainerLogList {
	t.Helper()
	l, err := svc.ContainerLogs(context.Background(), "orders")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// syncUntil syncs the job until cond holds.
func syncUntil(t *testing.T, svc *core.Local, cond func(model.Job) bool) model.Job {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		j, err := svc.SyncJob(context.Background(), "orders")
		if err != nil {
			t.Fatal(err)
		}
		if cond(j) {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("orders never got there: %s", j.State)
		}
	}
}
