package editor_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	_ "modernc.org/sqlite"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/localrun"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/editor"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/probe"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

// fakeDebugger plays a scripted run: its events, then the channel closes.
// With hold, it sends the first event and waits for ctx (a run that goes
// on until cancelled).
type fakeDebugger struct {
	mu     sync.Mutex
	events []api.DebugEvent
	hold   bool
	reqs   []api.DebugRequest
}

// It knows no sample files and no stand-ins.
func (d *fakeDebugger) SampleFile(string) (string, bool) { return "", false }
func (d *fakeDebugger) StandIn(string) (string, bool)    { return "", false }

func (d *fakeDebugger) Debug(ctx context.Context, r api.DebugRequest) (<-chan api.DebugEvent, error) {
	d.mu.Lock()
	d.reqs = append(d.reqs, r)
	evs, hold := d.events, d.hold
	d.mu.Unlock()
	if r.SQL == "" {
		return nil, errors.New("debug run: the job's SQL is empty")
	}
	ch := make(chan api.DebugEvent, len(evs))
	if !hold {
		for _, ev := range evs {
			ch <- ev
		}
		close(ch)
		return ch, nil
	}
	go func() {
		defer close(ch)
		ch <- evs[0]
		<-ctx.Done()
	}()
	return ch, nil
}

func (d *fakeDebugger) requests() []api.DebugRequest {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]api.DebugRequest(nil), d.reqs...)
}

// enrichRun is a finished run of enrichSQL over three orders.
func enrichRun(err error) []api.DebugEvent {
	cols := []api.DebugColumn{{Name: "order_id", Type: "BIGINT"}, {Name: "name", Type: "STRING"}}
	row := func(in int64, lat time.Duration, vals ...string) api.DebugEvent {
		return api.DebugEvent{Kind: api.DebugRowReceived, Row: &api.DebugRow{Sink: "enriched", Values: vals, Input: in, Lookup: lat}}
	}
	evs := []api.DebugEvent{
		{Kind: api.DebugStarted, Sources: []api.DebugSource{{Table: "orders", File: "/data/orders.jsonl", Total: 3}},
			Sinks: []api.DebugSink{{Name: "enriched", Columns: cols}}, Lookups: []api.DebugLookup{{Table: "users", Where: "dim-db"}}},
		row(1, 1800*time.Microsecond, "1", "Alice"),
		{Kind: api.DebugProgress, Read: map[string]int64{"orders": 2}, Elapsed: 400 * time.Millisecond},
		row(2, 6200*time.Microsecond, "2", "NULL"),
	}
	fin := api.DebugEvent{Kind: api.DebugFinished, Read: map[string]int64{"orders": 3}, Elapsed: 1200 * time.Millisecond, Err: err,
		Sinks: []api.DebugSink{{Name: "enriched", Columns: cols, Rows: 3}}}
	if err == nil {
		evs = append(evs, row(3, 900*time.Microsecond, "3", "Bob"))
		fin.Lookups = []api.DebugLookup{{Table: "users", Where: "dim-db", Mode: "ordered", Capacity: 100, Lookups: 3, Queries: 2, CacheHit: 1.0 / 3}}
	}
	return append(evs, fin)
}

func debugHarness(t *testing.T, d api.DebugBench, w, hgt int) *tuitest.Harness {
	t.Helper()
	return apptest.New(t, withVersions(tuitest.NewFixture()), w, hgt, tui.Options{Context: "test", Debugger: d})
}

func TestDebugRunFromTheEditor(t *testing.T) {
	d := &fakeDebugger{events: enrichRun(nil)}
	h := debugHarness(t, d, 120, 40)
	ed := openEditor(h, "orders-enrich")
	h.Type("-- try\n") // a debug run takes the editor's text, saved or not
	chord(h, "ctrl+d")
	if !editor.IsDebugForm(h.Top()) {
		t.Fatalf("ctrl+d opened %T", h.Top())
	}
	// The form lists the sources to feed; the lookup table and the sink are not sources.
	h.MustShow("Debug run of orders-enrich", "orders=")
	h.MustNotShow("users=", "enriched=")
	h.Type("/data/orders.jsonl")
	h.Press("tab")
	h.Type("50")
	chord(h, "ctrl+d")
	reqs := d.requests()
	if len(reqs) != 1 || reqs[0].Data["orders"] != "/data/orders.jsonl" || reqs[0].Limit != 50 || reqs[0].SQL != ed.Text() {
		t.Fatalf("requests %+v", reqs)
	}
	if _, ok := editor.DebugRun(h.Top()); !ok {
		t.Fatalf("the run shows on %T", h.Top())
	}
	h.MustShow("orders.jsonl (3 rows)", "lookup users @ dim-db · ordered, capacity 100",
		"3/3", "lookup p50 1.8 ms  p99 6.2 ms", "cache hit 33%", "✓ done in 1.2s",
		"INPUT   LOOKUP     order_id  name", "1       1.8 ms     1         Alice", "2       6.2 ms     2         NULL")
	// Back in the editor, ctrl+d remembers the files of this job.
	h.Press("esc")
	if h.Top() != kit.Screen(ed) {
		t.Fatalf("esc after the run left %T", h.Top())
	}
	chord(h, "ctrl+d")
	h.MustShow("orders=/data/orders.jsonl")
	h.Press("esc")
}

func TestDebugRunNamesTheFailingRow(t *testing.T) {
	d := &fakeDebugger{events: enrichRun(errors.New("debug run: /data/orders.jsonl line 3, column amount: not a DOUBLE: \"x\""))}
	h := debugHarness(t, d, 120, 40)
	openEditor(h, "orders-enrich")
	chord(h, "ctrl+d")
	h.Type("/data/orders.jsonl")
	chord(h, "ctrl+d")
	h.MustShow("✖ failed", "/data/orders.jsonl line 3, column amount: not a DOUBLE", "1       1.8 ms")
	// ctrl+d runs it again.
	chord(h, "ctrl+d")
	if n := len(d.requests()); n != 2 {
		t.Fatalf("%d runs after ctrl+d on the result, want 2", n)
	}
}

func TestDebugFormChecksItsInput(t *testing.T) {
	h := debugHarness(t, &fakeDebugger{events: enrichRun(nil)}, 120, 40)
	openEditor(h, "orders-enrich")
	chord(h, "ctrl+d")
	chord(h, "ctrl+d") // orders= without a file
	h.MustShow("line 1: which file feeds orders?")
	h.Press("tab")
	h.Type("ten")
	h.Press("tab")
	h.Type("/x.csv")
	chord(h, "ctrl+d")
	h.MustShow(`limit "ten": want a whole number`)
	if !editor.IsDebugForm(h.Top()) {
		t.Fatal("a bad form started a run")
	}
}

func TestDebugNeedsADebugger(t *testing.T) {
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	openEditor(h, "orders-enrich")
	chord(h, "ctrl+d")
	if !strings.Contains(h.Flash(), "debug runs are not available") {
		t.Fatalf("flash %q", h.Flash())
	}
}

// knowingDebugger is a debugger that knows more than how to run, as
// core's local runner does: a sample file of orders, a stand-in for mask.
type knowingDebugger struct{ fakeDebugger }

func (*knowingDebugger) SampleFile(table string) (string, bool) {
	return "/samples/orders.jsonl", table == "orders"
}

func (*knowingDebugger) StandIn(function string) (string, bool) {
	return "mask(s)=UPPER(s)", strings.EqualFold(function, "mask")
}

// TestDebugFormOffersWhatTheDebuggerKnows: what the session's debugger
// knows beside running (a table's sample file, a stand-in for a user
// function) is filled in the form, and a run takes it as it is.
func TestDebugFormOffersWhatTheDebuggerKnows(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	f.Versions["j001"][2].SQL = strings.Replace(enrichSQL, "u.name FROM", "mask(u.name) FROM", 1)
	d := &knowingDebugger{fakeDebugger{events: enrichRun(nil)}}
	h := apptest.New(t, f, 120, 40, tui.Options{Context: "test", Debugger: d})
	openEditor(h, "orders-enrich")
	chord(h, "ctrl+d")
	h.MustShow("orders=/samples/orders.jsonl", "mask(s)=UPPER(s)")
	chord(h, "ctrl+d")
	reqs := d.requests()
	if len(reqs) != 1 || reqs[0].Data["orders"] != "/samples/orders.jsonl" || !slices.Equal(reqs[0].StandIns, []string{"mask(s)=UPPER(s)"}) {
		t.Fatalf("requests %+v", reqs)
	}
}

func TestGoldenDebugRun(t *testing.T) {
	apptest.GoldenFrame(t, "debug_run", withVersions, tui.Options{Debugger: &fakeDebugger{events: enrichRun(nil)}}, func(h *tuitest.Harness) {
		openEditor(h, "orders-enrich")
		chord(h, "ctrl+d")
		h.Type("/data/orders.jsonl")
		chord(h, "ctrl+d")
	})
}

// sqliteJob is a job whose lookup table is in an SQLite file, and its
// orders file: a real debug run, as join's tests make one.
func sqliteJob(t *testing.T) (job, orders string) {
	t.Helper()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "dim.db")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"CREATE TABLE users (id BIGINT, name VARCHAR(50))", "INSERT INTO users VALUES (1, 'Alice'), (2, 'Bob')"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	orders = filepath.Join(dir, "orders.jsonl")
	if err := os.WriteFile(orders, []byte(`{"order_id": 1, "user_id": 1, "amount": 50}
{"order_id": 2, "user_id": 2, "amount": 5}
{"order_id": 3, "user_id": 9, "amount": 10}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	job = strings.Replace(enrichSQL, "'url' = 'jdbc:mysql://dim-db:3306/app'", "'url' = 'jdbc:sqlite:"+dbPath+"'", 1)
	return job, orders
}

func TestDebugRunAgainstSQLite(t *testing.T) {
	job, orders := sqliteJob(t)
	f := withVersions(tuitest.NewFixture())
	f.Versions["j001"][2].SQL = job
	h := apptest.New(t, f, 120, 40, tui.Options{Context: "test", Debugger: &localrun.Debugger{}})
	openEditor(h, "orders-enrich")
	chord(h, "ctrl+d")
	h.Type(orders)
	chord(h, "ctrl+d")
	h.MustShow("orders.jsonl (3 rows)", "lookup users @ dim.db · ordered, capacity 100", "3/3", "✓ done in",
		"order_id  name", "Alice", "Bob")
	s, _ := editor.DebugRun(h.Top())
	if len(s.Rows) != 3 || s.Err != nil {
		t.Fatalf("rows %+v, err %v", s.Rows, s.Err)
	}
	for _, r := range s.Rows {
		if r.Lookup <= 0 {
			t.Errorf("row %v has no lookup latency", r.Values)
		}
	}
	if s.Rows[2].Values[1] != "NULL" {
		t.Errorf("the order of an unknown user joined %q, want NULL", s.Rows[2].Values[1])
	}
}

// A run that goes on is cancelled by esc (or ctrl+c), which leaves the
// program running.
func TestProgramCancelsADebugRun(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	d := &fakeDebugger{events: enrichRun(nil)[:1], hold: true}
	tm := apptest.Program(t, f, tui.Options{Debugger: d})
	tuitest.WaitFor(t, tm, "orders-enrich")
	tm.Type("/orders-enrich")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "1/1")
	tm.Type("e")
	tuitest.WaitFor(t, tm, "no problems", "LEFT JOIN users")
	tm.Send(tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl})
	tuitest.WaitFor(t, tm, "Debug run of orders-enrich")
	tm.Type("/data/orders.jsonl")
	tm.Send(tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl})
	tuitest.WaitFor(t, tm, "running", "waiting for the first row")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tuitest.WaitFor(t, tm, "cancelled")
	top := probe.Of(tuitest.Final(t, tm)).Top()
	if s, ok := editor.DebugRun(top); !ok || s.Running || !s.Stopped {
		t.Fatalf("after ctrl+c: %T", top)
	}
}

func TestProgramEditValidateSave(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	tm := apptest.Program(t, f, tui.Options{})
	tuitest.WaitFor(t, tm, "orders-enrich")
	tm.Type("/orders-enrich")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "1/1")
	tm.Type("e")
	tuitest.WaitFor(t, tm, "✓ no problems", "LEFT JOIN users")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl})
	tm.Type("\nINSERT INTO nowhere SELECT 1;")
	tuitest.WaitFor(t, tm, "(edited)", "✖ 1 error", "unknown sink table 'nowhere'")
	tm.Send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	// The renderer rewrites only what changed: "SQL v7 (edited) · job"
	// becomes "SQL v" kept, then "8 · job RUNNING" written.
	tuitest.WaitFor(t, tm, "8 · job RUNNING")
	tuitest.Final(t, tm)
	if vs, _ := f.SpecsOf("j001"); len(vs) != 4 || !strings.Contains(vs[3].SQL, "nowhere") {
		t.Fatalf("saved versions %d", len(vs))
	}
	if j, _ := f.SyncJob(context.Background(), "j001"); j.SpecVersion != 8 || j.Kind != model.KindSQL {
		t.Errorf("job at v%d", j.SpecVersion)
	}
}

// An updating sink's rows show their change kind in an OP column.
func TestDebugRunShowsChangeKinds(t *testing.T) {
	cols := []api.DebugColumn{{Name: "usr", Type: "STRING"}, {Name: "n", Type: "BIGINT"}}
	row := func(kind string, vals ...string) api.DebugEvent {
		return api.DebugEvent{Kind: api.DebugRowReceived, Row: &api.DebugRow{Sink: "counts", Kind: kind, Values: vals, Input: 1}}
	}
	d := &fakeDebugger{events: []api.DebugEvent{
		{Kind: api.DebugStarted, Sources: []api.DebugSource{{Table: "orders", File: "/data/orders.jsonl", Total: 2}},
			Sinks: []api.DebugSink{{Name: "counts", Columns: cols}}},
		row("+I", "a", "1"), row("-U", "a", "1"), row("+U", "a", "2"),
		{Kind: api.DebugFinished, Read: map[string]int64{"orders": 2}, Sinks: []api.DebugSink{{Name: "counts", Columns: cols, Rows: 1}}},
	}}
	h := debugHarness(t, d, 120, 40)
	openEditor(h, "orders-enrich")
	chord(h, "ctrl+d")
	h.Type("/data/orders.jsonl")
	chord(h, "ctrl+d")
	h.MustShow("OP  usr  n", "+I  a    1", "-U  a    1", "+U  a    2")
}

// f switches a finished run between the changelog an updating sink
// received and the table it ends up holding.
func TestDebugRunSwitchesToTheFinalTable(t *testing.T) {
	cols := []api.DebugColumn{{Name: "usr", Type: "STRING"}, {Name: "n", Type: "BIGINT"}}
	row := func(kind string, vals ...string) api.DebugEvent {
		return api.DebugEvent{Kind: api.DebugRowReceived, Row: &api.DebugRow{Sink: "counts", Kind: kind, Values: vals, Input: 1}}
	}
	d := &fakeDebugger{events: []api.DebugEvent{
		{Kind: api.DebugStarted, Sources: []api.DebugSource{{Table: "orders", File: "/data/orders.jsonl", Total: 3}},
			Sinks: []api.DebugSink{{Name: "counts", Columns: cols}}},
		row("+I", "a", "1"), row("+I", "b", "7"), row("-U", "a", "1"), row("+U", "a", "2"),
		{Kind: api.DebugFinished, Read: map[string]int64{"orders": 3}, Sinks: []api.DebugSink{{Name: "counts", Columns: cols, Rows: 2,
			Updating: true, Final: [][]string{{"a", "2"}, {"b", "7"}}}}},
	}}
	h := debugHarness(t, d, 120, 40)
	openEditor(h, "orders-enrich")
	chord(h, "ctrl+d")
	h.Type("/data/orders.jsonl")
	chord(h, "ctrl+d")
	h.MustShow("changelog (f: final tables)", "OP  usr  n", "-U  a    1")
	h.Type("f")
	h.MustShow("final tables (f: changelog)", "usr  n", "a    2", "b    7")
	h.MustNotShow("-U", "INPUT", "a    1")
	h.Type("f")
	h.MustShow("OP  usr  n", "-U  a    1", "+U  a    2")
}

// TestDebugRunSaysWhatIgnoreParseErrorsSkipped: a source whose
// ignore-parse-errors passed over records and fields says so above the
// rows, with the first lines, where Flink would say nothing.
func TestDebugRunSaysWhatIgnoreParseErrorsSkipped(t *testing.T) {
	evs := enrichRun(nil)
	evs[len(evs)-1].Skipped = []api.DebugSkipped{{Table: "orders", File: "orders.jsonl", Rows: 2, Fields: 1, Lines: []int64{4, 9, 12}}}
	d := &fakeDebugger{events: evs}
	for _, w := range []int{120, 60} {
		h := debugHarness(t, d, w, 30)
		openEditor(h, "orders-enrich")
		chord(h, "ctrl+d")
		h.Type("/data/orders.jsonl")
		chord(h, "ctrl+d")
		h.MustShow("⚠ orders: 2 records skipped, 1 field NULL")
		if w >= 100 {
			h.MustShow("⚠ orders: 2 records skipped, 1 field NULL by ignore-parse-errors (lines 4, 9, 12)")
		}
	}
}
