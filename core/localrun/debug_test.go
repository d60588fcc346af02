package localrun_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/localrun"
	"github.com/palink/palink/model"
)

// dimSQL is a catalog table's definition: a datagen table of 3 rows.
const dimSQL = "CREATE TABLE dim (id BIGINT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3')"

// debugJob is a small job with a lookup join against an SQLite file: the
// enrich job of the SQL editor's sketch.
func debugJob(t *testing.T) (sqlText, ordersFile string) {
	t.Helper()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "dim.db")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE users (id BIGINT, name VARCHAR(50))",
		"INSERT INTO users VALUES (1, 'Alice'), (2, 'Bob')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	ordersFile = filepath.Join(dir, "orders.jsonl")
	orders := `{"order_id": 1, "user_id": 1, "amount": 50}
{"order_id": 2, "user_id": 2, "amount": 5}

{"order_id": 3, "user_id": 9, "amount": 10}
`
	if err := os.WriteFile(ordersFile, []byte(orders), 0o600); err != nil {
		t.Fatal(err)
	}
	sqlText = `CREATE TABLE orders (
  order_id BIGINT, user_id BIGINT, amount DOUBLE, proc_time AS PROCTIME()
) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
CREATE TABLE users (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED)
  WITH ('connector' = 'jdbc', 'url' = 'jdbc:sqlite:` + dbPath + `', 'table-name' = 'users');
CREATE TABLE enriched (order_id BIGINT, name STRING, doubled DOUBLE, big BOOLEAN) WITH ('connector' = 'print');
INSERT INTO enriched
SELECT o.order_id, u.name, o.amount * 2, o.amount > 20
FROM orders AS o
LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id;
`
	return sqlText, ordersFile
}

// drain reads a run to its end.
func drain(t *testing.T, ch <-chan api.DebugEvent) []api.DebugEvent {
	t.Helper()
	var evs []api.DebugEvent
	timeout := time.After(30 * time.Second)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return evs
			}
			evs = append(evs, ev)
		case <-timeout:
			t.Fatalf("the run did not end; events so far: %+v", evs)
		}
	}
}

func TestDebuggerStreamsARun(t *testing.T) {
	job, orders := debugJob(t)
	d := &localrun.Debugger{Now: func() time.Time { return time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC) }, Progress: time.Millisecond}
	ch, err := d.Debug(context.Background(), api.DebugRequest{SQL: job, Data: map[string]string{"orders": orders}})
	if err != nil {
		t.Fatal(err)
	}
	evs := drain(t, ch)
	first, last := evs[0], evs[len(evs)-1]
	if first.Kind != api.DebugStarted || last.Kind != api.DebugFinished {
		t.Fatalf("events run %s … %s, want started … finished", first.Kind, last.Kind)
	}
	if len(first.Sources) != 1 || first.Sources[0].Table != "orders" || first.Sources[0].File != orders || first.Sources[0].Total != 3 {
		t.Errorf("sources %+v: want orders from its file, 3 rows", first.Sources)
	}
	if len(first.Sinks) != 1 || first.Sinks[0].Name != "enriched" || len(first.Sinks[0].Columns) != 4 || first.Sinks[0].Columns[3].Name != "big" {
		t.Errorf("sinks %+v: want enriched with its 4 DDL columns", first.Sinks)
	}
	if len(first.Lookups) != 1 || first.Lookups[0].Table != "users" || first.Lookups[0].Where != "dim.db" {
		t.Errorf("lookups %+v: want users @ dim.db", first.Lookups)
	}
	var rows []api.DebugRow
	for _, ev := range evs {
		if ev.Kind == api.DebugRowReceived {
			rows = append(rows, *ev.Row)
		}
	}
	want := map[string]string{"1": "1 Alice 100.0 TRUE", "2": "2 Bob 10.0 FALSE", "3": "3 NULL 20.0 FALSE"}
	if len(rows) != 3 {
		t.Fatalf("rows %+v, want 3", rows)
	}
	for _, r := range rows {
		if got := strings.Join(r.Values, " "); got != want[r.Values[0]] {
			t.Errorf("row %q, want %q", got, want[r.Values[0]])
		}
		if r.Sink != "enriched" || r.Lookup <= 0 || r.Input < 1 || r.Input > 4 {
			t.Errorf("row %+v: want its sink, input line and lookup time", r)
		}
	}
	if last.Err != nil {
		t.Fatalf("run failed: %v", last.Err)
	}
	if last.Read["orders"] != 3 || last.Received != 3 || len(last.Sinks) != 1 || last.Sinks[0].Rows != 3 {
		t.Errorf("finished: read %v, received %d, sinks %+v", last.Read, last.Received, last.Sinks)
	}
	if l := last.Lookups; len(l) != 1 || l[0].Lookups != 3 || l[0].Mode != "ordered" || l[0].Capacity != 100 || l[0].Where != "dim.db" || l[0].P99 <= 0 {
		t.Errorf("lookup report %+v", last.Lookups)
	}
}

// The finished event carries the rows with their types, written as
// `palink debug` prints them.
func TestDebuggerFinishedCarriesTheOutput(t *testing.T) {
	job, orders := debugJob(t)
	ch, err := (&localrun.Debugger{}).Debug(context.Background(), api.DebugRequest{SQL: job, Data: map[string]string{"orders": orders}})
	if err != nil {
		t.Fatal(err)
	}
	evs := drain(t, ch)
	fin := evs[len(evs)-1]
	if fin.Kind != api.DebugFinished || fin.Err != nil || fin.Output == nil {
		t.Fatalf("finished %+v: want the output", fin)
	}
	var text, rows strings.Builder
	if err := fin.Output.WriteText(&text); err != nil || !strings.Contains(text.String(), "enriched: 3 rows\norder_id | name  | doubled | big") ||
		!strings.Contains(text.String(), "lookup users: 3 lookups") {
		t.Errorf("text (%v):\n%s", err, text.String())
	}
	if err := fin.Output.WriteRows(&rows, 0); err != nil || !strings.Contains(rows.String(), `{"order_id":1,"name":"Alice","doubled":100.0,"big":true}`) {
		t.Errorf("rows (%v):\n%s", err, rows.String())
	}
	if err := fin.Output.WriteRows(&rows, 1); err == nil {
		t.Error("rows of a sink the run does not have")
	}
}

func TestDebuggerReportsTheFailingRow(t *testing.T) {
	orders := filepath.Join(t.TempDir(), "orders.jsonl")
	if err := os.WriteFile(orders, []byte("{\"order_id\": 1, \"amount\": 5}\n{\"order_id\": \"x\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// No lookup join here: debug.Run may then report the cancelled open of
	// the lookup table instead of the row (reported to the lead).
	job := `CREATE TABLE orders (order_id BIGINT, amount DOUBLE) WITH ('connector' = 'kafka');
CREATE TABLE sink (order_id BIGINT) WITH ('connector' = 'print');
INSERT INTO sink SELECT order_id FROM orders WHERE amount > 1;`
	ch, err := (&localrun.Debugger{}).Debug(context.Background(), api.DebugRequest{SQL: job, Data: map[string]string{"orders": orders}})
	if err != nil {
		t.Fatal(err)
	}
	evs := drain(t, ch)
	last := evs[len(evs)-1]
	if last.Kind != api.DebugFinished || last.Err == nil || !strings.Contains(last.Err.Error(), "line 2") {
		t.Fatalf("last event %+v: want a failure naming line 2", last)
	}
}

func TestDebuggerRefusesWhatItCannotRun(t *testing.T) {
	ch, err := (&localrun.Debugger{}).Debug(context.Background(), api.DebugRequest{SQL: `
CREATE TABLE t (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE TABLE s (a INT, n BIGINT) WITH ('connector' = 'print');
INSERT INTO s SELECT a, CAST(SUM(a) OVER (PARTITION BY a ORDER BY a) AS BIGINT) FROM t;`})
	if err != nil {
		t.Fatal(err)
	}
	evs := drain(t, ch)
	if ev := evs[0]; ev.Kind != api.DebugStarted || len(ev.Sources) != 1 || ev.Sources[0].Total != 5 || ev.Sources[0].File != "" {
		t.Errorf("started %+v: want the datagen source with its 5 rows", ev)
	}
	last := evs[len(evs)-1]
	if last.Err == nil || !strings.Contains(last.Err.Error(), "line 4:") || !strings.Contains(strings.ToLower(last.Err.Error()), "over") {
		t.Fatalf("finished with %v, want a refusal of OVER at its line", last.Err)
	}
	if _, err := (&localrun.Debugger{}).Debug(context.Background(), api.DebugRequest{SQL: "  "}); err == nil {
		t.Error("an empty job started a run")
	}
}

func TestDebuggerCancelStopsTheRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := (&localrun.Debugger{}).Debug(ctx, api.DebugRequest{SQL: `
CREATE TABLE t (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '20', 'number-of-rows' = '100000');
CREATE TABLE s (a BIGINT) WITH ('connector' = 'print');
INSERT INTO s SELECT a FROM t;`})
	if err != nil {
		t.Fatal(err)
	}
	for ev := range ch {
		if ev.Kind == api.DebugStarted && (len(ev.Sources) != 1 || ev.Sources[0].Total != 100000) {
			t.Errorf("started %+v", ev)
		}
		if ev.Kind == api.DebugRowReceived {
			cancel()
			break
		}
	}
	// The channel closes soon, whether or not the reader goes on reading.
	done := make(chan struct{})
	go func() {
		for range ch {
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the run went on after cancel")
	}
}

// A team's sample directory feeds the sources nobody gave a file for, and a
// lookup table's production URL is redirected to a local copy: the job as
// deployed runs unchanged.
func TestDebuggerTakesSamplesAndRedirectsLookups(t *testing.T) {
	job, orders := debugJob(t)
	dbPath := filepath.Join(filepath.Dir(orders), "dim.db")
	const prod = "jdbc:mysql://dim-db.prod:3306/app"
	job = strings.Replace(job, "jdbc:sqlite:"+dbPath, prod, 1)
	if !strings.Contains(job, prod) {
		t.Fatal("the job does not name the production database")
	}
	d := &localrun.Debugger{Samples: []string{t.TempDir(), filepath.Dir(orders)}, Databases: map[string]string{prod: "jdbc:sqlite:" + dbPath}}
	if p, ok := d.SampleFile("orders"); !ok || p != orders {
		t.Fatalf("SampleFile(orders) = %q, %v; want %s", p, ok, orders)
	}
	if p, ok := d.SampleFile("payments"); ok {
		t.Fatalf("SampleFile(payments) = %q with no such file", p)
	}
	evs := drain(t, mustDebug(t, d, api.DebugRequest{SQL: job}))
	first, last := evs[0], evs[len(evs)-1]
	if len(first.Sources) != 1 || first.Sources[0].File != orders || first.Sources[0].Total != 3 {
		t.Errorf("sources %+v: want orders from the sample directory", first.Sources)
	}
	if len(first.Lookups) != 1 || first.Lookups[0].Where != "dim.db" {
		t.Errorf("lookups %+v: want users @ dim.db, the redirected copy", first.Lookups)
	}
	if last.Err != nil || last.Received != 3 {
		t.Fatalf("finished: err %v, %d rows, want 3", last.Err, last.Received)
	}
	var names []string
	for _, ev := range evs {
		if ev.Kind == api.DebugRowReceived {
			names = append(names, ev.Row.Values[1])
		}
	}
	if strings.Join(names, ",") != "Alice,Bob,NULL" {
		t.Errorf("names %v, want the local copy's Alice, Bob and a miss", names)
	}

	// A file given for the run wins over the sample.
	other := filepath.Join(t.TempDir(), "one.jsonl")
	if err := os.WriteFile(other, []byte(`{"order_id": 7, "user_id": 2, "amount": 1}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	evs = drain(t, mustDebug(t, d, api.DebugRequest{SQL: job, Data: map[string]string{"ORDERS": other}}))
	if fin := evs[len(evs)-1]; fin.Err != nil || fin.Received != 1 {
		t.Errorf("with a file of one order: err %v, %d rows", fin.Err, fin.Received)
	}
}

func mustDebug(t *testing.T, d *localrun.Debugger, r api.DebugRequest) <-chan api.DebugEvent {
	t.Helper()
	ch, err := d.Debug(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// A sink that received updates finishes with the table it ends up holding.
func TestDebuggerFinishedCarriesAnUpdatingSinksFinalTable(t *testing.T) {
	data := filepath.Join(t.TempDir(), "clicks.jsonl")
	if err := os.WriteFile(data, []byte(`{"usr": "a"}`+"\n"+`{"usr": "b"}`+"\n"+`{"usr": "a"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	evs := drain(t, mustDebug(t, &localrun.Debugger{}, api.DebugRequest{SQL: `
CREATE TABLE clicks (usr STRING) WITH ('connector' = 'kafka', 'topic' = 'c', 'format' = 'json');
CREATE TABLE counts (usr STRING, n BIGINT, PRIMARY KEY (usr) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'n', 'key.format' = 'json', 'value.format' = 'json');
INSERT INTO counts SELECT usr, COUNT(*) FROM clicks GROUP BY usr;`, Data: map[string]string{"clicks": data}}))
	fin := evs[len(evs)-1]
	if fin.Kind != api.DebugFinished || fin.Err != nil || len(fin.Sinks) != 1 {
		t.Fatalf("finished %+v", fin)
	}
	s := fin.Sinks[0]
	got := fmt.Sprint(s.Final)
	if !s.Updating || got != "[[a 2] [b 1]]" && got != "[[b 1] [a 2]]" {
		t.Errorf("sink %s: updating %v, final %v; want a 2 and b 1", s.Name, s.Updating, got)
	}
}

// TestDebugInjectsTheCatalog: a debug run of a job without DDL for its
// source gets the catalog's.
func TestDebugInjectsTheCatalog(t *testing.T) {
	d := &localrun.Debugger{}
	ch, err := d.Debug(t.Context(), api.DebugRequest{
		SQL:     "CREATE TABLE out_t (id BIGINT, name STRING) WITH ('connector' = 'blackhole');\nINSERT INTO out_t SELECT id, name FROM dim;",
		Catalog: []model.CatalogTable{{Cluster: "sim", Name: "dim", Version: 4, SQL: dimSQL}, {Cluster: "sim", Name: "out_t", Version: 1, SQL: "CREATE TABLE out_t (id BIGINT) WITH ('connector' = 'print')"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var started, fin api.DebugEvent
	for ev := range ch {
		switch ev.Kind {
		case api.DebugStarted:
			started = ev
		case api.DebugFinished:
			fin = ev
		}
	}
	if fin.Err != nil {
		t.Fatal(fin.Err)
	}
	if strings.Join(started.Injected, " ") != "dim@v4" || strings.Join(started.Shadowed, " ") != "out_t@v1" {
		t.Errorf("injected %v, shadowed %v; want dim@v4 and out_t@v1", started.Injected, started.Shadowed)
	}
	if len(fin.Sinks) != 1 || fin.Sinks[0].Rows != 3 {
		t.Errorf("sinks %+v, want 3 rows", fin.Sinks)
	}
}
