package tui

import (
	"context"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
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
	cfg := &config.Config{Clusters: []config.Cluster{{Name: "sim", RM: c.RMURLs(), SQLGateway: c.GatewayURL(), User: "ops",
		Deploy: config.Deploy{SavepointDir: "hdfs:///flink/savepoints"}}}}
	cfg.ApplyDefaults()
	clusters, err := core.NewClusters(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := core.NewLocal(core.Options{Store: st, Config: cfg, Clusters: clusters, User: "tester", Poll: 20 * time.Millisecond, NoJitter: true})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = svc.RunScheduler(ctx) }()
	t.Cleanup(func() { cancel(); <-done; st.Close(); c.Close() })

	if _, err := svc.CreateJob(ctx, core.CreateJobRequest{Name: "orders", Cluster: "sim", Kind: model.KindSQL, Spec: model.Spec{
		SQL: "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen');\nCREATE TABLE snk (id BIGINT) WITH ('connector' = 'blackhole');\nINSERT INTO snk SELECT id FROM src;"}}); err != nil {
		t.Fatal(err)
	}
	cmd, err := svc.Act(ctx, core.ActionRequest{JobRef: "orders", Kind: model.CmdSubmit})
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

// driver runs the root model synchronously like the harness, but keeps
// no message: the heap it measures is the TUI's.
type driver struct {
	t      *testing.T
	m      *Model
	timers []Timer
}

func newDriver(t *testing.T, svc api.Service) *driver {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	m := New(ctx, svc, Options{Context: "sim", Theme: ThemeDark, RequestTimeout: time.Minute})
	m.env.After = func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		return func() tea.Msg { return Timer{D: d, Msg: fn} }
	}
	m.env.ReadChange = func(context.Context, <-chan api.Change, int) tea.Cmd {
		return func() tea.Msg { return pendingReadMsg{} }
	}
	d := &driver{t: t, m: m}
	d.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	d.run(m.Init())
	return d
}

func (d *driver) send(msg tea.Msg) {
	_, cmd := d.m.Update(msg)
	d.run(cmd)
}

func (d *driver) run(cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil, pendingReadMsg:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case Timer:
			d.timers = append(d.timers, msg)
		default:
			_, next := d.m.Update(msg)
			queue = append(queue, next)
		}
	}
}

func (d *driver) press(keys ...string) {
	for _, k := range keys {
		d.send(Key(k))
	}
}

func (d *driver) typeText(s string) {
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// fire delivers the pending timers of like's type.
func (d *driver) fire(like tea.Msg) {
	var keep []Timer
	var due []tea.Msg
	for _, tm := range d.timers {
		if msg := tm.Msg(time.Now()); reflect.TypeOf(msg) == reflect.TypeOf(like) {
			due = append(due, msg)
		} else {
			keep = append(keep, tm)
		}
	}
	d.timers = keep
	for _, msg := range due {
		d.send(msg)
	}
}

func (d *driver) mustShow(subs ...string) {
	d.t.Helper()
	s := ansi.Strip(d.m.render())
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			d.t.Fatalf("screen lacks %q:\n%s\nflash: %s", sub, s, d.m.flash.Text())
		}
	}
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
	// The simulator's lines are 160 bytes; read two of them to search for
	// later, 8 MB and 40 MB before the end.
	lineAt := func(back int64) string {
		off := (size/160 - back/160) * 160
		ch, err := svc.ReadLog(ctx, api.LogRequest{JobRef: "orders", Offset: off, Limit: 160})
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimRight(string(ch.Data), " \n")
	}
	near, far := lineAt(8<<20), lineAt(40<<20)

	d := newDriver(t, svc)
	d.mustShow("orders")
	d.press("l")
	d.mustShow("JobManager", "200.0 MiB", "YARN containers")
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
	d.press("enter")
	v, ok := d.m.top().(*logViewer)
	if !ok {
		t.Fatalf("enter opened %T", d.m.top())
	}
	d.mustShow("orders · JobManager log", "200.0 MiB / 200.0 MiB · 100%")

	// Follow: every poll reads from the end, a bounded read that finds
	// nothing new in the simulator's fixed-size log, and the view stays.
	d.press("f")
	for range 5 {
		d.fire(logPollMsg{})
	}
	d.mustShow("● following", "200.0 MiB / 200.0 MiB · 100%")
	if !v.atBottom() {
		t.Fatal("following left the bottom")
	}
	check("following")

	// Search backward for a line 8 MB up, then one 32 MB further: the
	// service scans 32 MiB per call (the second search takes two) and the
	// window is read around each hit.
	for _, want := range []string{near, far} {
		d.press("/")
		d.typeText(want[:23]) // the timestamp, one per line
		d.press("enter")      // forward: nothing below
		d.press("N")
		if v.match == nil {
			t.Fatalf("no match for %q (flash %q)", want[:23], d.m.flash.Text())
		}
		d.mustShow(want[:100], "n/N for more")
		if len(v.win.data) > logWindowMax {
			t.Fatalf("the window holds %d bytes", len(v.win.data))
		}
	}
	check("two searches over 40 MB")
	// Paging up 16 MB from the hit reads chunk after chunk, and the window
	// stays bounded.
	hit := v.match.off
	for range 2800 {
		d.press("pgup")
		if len(v.win.data) > logWindowMax {
			t.Fatalf("the window holds %d bytes", len(v.win.data))
		}
	}
	if v.topOffset() > hit-14<<20 {
		t.Errorf("2800 pages up from %d, the view is at %d", hit, v.topOffset())
	}
	check("paging up 14 MB")
	d.press("g")
	d.mustShow("0 B / 200.0 MiB · 0%")
	d.press("G")
	d.mustShow("200.0 MiB / 200.0 MiB")
	check("jumping to the top and the bottom")
}
