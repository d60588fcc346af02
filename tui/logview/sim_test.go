package logview_test

import (
	"context"
	"path/filepath"
	"runtime"
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
// whose logs are 200 MB each (generated on the fly by the simulator and
// read by range): the log viewer opens, follows, pages and searches such a
// log with the heap staying flat. (The TUI itself never imports core; only
// this test does, to drive it.)

// simService is core.Local over a simulator, with one running SQL job.
func simService(t *testing.T, logSize int64) *core.Local {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	ctx, cancel := context.WithCancel(context.Background())
	c, err := sim.New(sim.Options{Seed: 9, Speed: 30, LogSize: logSize})
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
	svc, err := core.NewLocal(core.Options{Store: st, Clusters: []clusters.Spec{{Name: "sim", RM: c.RMURLs(), SQLGateway: c.GatewayURL(), User: "ops", Deploy: clusters.Deploy{SavepointDir: "hdfs:///flink/savepoints"}}}, User: "tester", Poll: 20 * time.Millisecond, NoJitter: true})
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
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		j, err := svc.SyncJob(ctx, "orders")
		if err != nil {
			t.Fatal(err)
		}
		if j.State == model.StateRunning {
			return svc
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job never ran: %s", j.State)
		}
	}
}

// newDriver is the harness over a service of core, keeping no message:
// the heap it measures is the TUI's.
func newDriver(t *testing.T, svc api.Service) *tuitest.Harness {
	h := tuitest.Drive(t, nil, 120, 40, func(ctx context.Context) tea.Model {
		return tui.New(ctx, svc, tui.Options{Context: "sim", Theme: tui.ThemeDark, RequestTimeout: time.Minute})
	})
	h.Forget()
	return h
}

func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}

func TestLogViewerOnA200MBLogFromTheSimulator(t *testing.T) {
	const size = 200 << 20
	svc := simService(t, size)
	ctx := context.Background()
	// The simulator's lines are 160 bytes; read one to search for later,
	// 40 MB from the start.
	lineAt := func(at int64) string {
		off := at / 160 * 160
		ch, err := svc.ReadLog(ctx, api.LogRequest{JobRef: "orders", Offset: off, Limit: 160})
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimRight(string(ch.Data), " \n")
	}
	early := lineAt(40 << 20)

	d := newDriver(t, svc)
	d.MustShow("orders")
	d.Press("l")
	d.MustShow("JobManager", "200.0 MiB", "YARN containers")
	before := heapInUse()
	// The heap is measured after each stage: the viewer may hold a few
	// chunks, never what it has read.
	check := func(stage string) {
		t.Helper()
		grew := heapInUse() - before
		t.Logf("heap after %s: %+.1f MiB", stage, float64(grew)/(1<<20))
		if grew > 8<<20 {
			t.Errorf("the heap grew by %d MiB after %s", grew>>20, stage)
		}
	}
	d.Press("enter")
	v, ok := d.Top().(*logview.Viewer)
	if !ok {
		t.Fatalf("enter opened %T", d.Top())
	}
	d.MustShow("orders · JobManager log", "200.0 MiB / 200.0 MiB · 100%")

	// Follow: every poll reads from the end, a bounded read that finds
	// nothing new in the simulator's fixed-size log, and the view stays.
	d.Press("f")
	for range 5 {
		d.Fire(logview.PollMsg{})
	}
	d.MustShow("● following", "200.0 MiB / 200.0 MiB · 100%")
	if !v.AtBottom() {
		t.Fatal("following left the bottom")
	}
	check("following")

	// Filter for a line 40 MB from the start: the viewer reads the log
	// back from its end a chunk at a time, 160 MB, holding what matches
	// (one line); enter reads the window around it.
	d.Press("/")
	d.Send(tea.PasteMsg{Content: early[:23]}) // the timestamp, one per line
	d.Press("enter")
	d.MustShow(early[:100], "1 line in the whole log")
	check("a filter over 200 MB")
	d.Press("enter")
	if _, ok := v.Match(); !ok {
		t.Fatalf("no match for %q (flash %q)", early[:23], d.Flash())
	}
	d.MustShow(early[:100], "n/N for more")
	if v.WinBytes() > logview.WindowMax {
		t.Fatalf("the window holds %d bytes", v.WinBytes())
	}
	hit, _ := v.Match()
	check("showing the match")
	// Paging up 16 MB from the hit reads chunk after chunk, and the window
	// stays bounded.
	for range 2800 {
		d.Press("pgup")
		if v.WinBytes() > logview.WindowMax {
			t.Fatalf("the window holds %d bytes", v.WinBytes())
		}
	}
	if v.TopOffset() > hit-14<<20 {
		t.Errorf("2800 pages up from %d, the view is at %d", hit, v.TopOffset())
	}
	check("paging up 14 MB")
	d.Press("g")
	d.MustShow("0 B / 200.0 MiB · 0%")
	d.Press("G")
	d.MustShow("200.0 MiB / 200.0 MiB")
	check("jumping to the top and the bottom")
}
