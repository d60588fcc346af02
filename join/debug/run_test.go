package debug

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/join"
	"github.com/palink/palink/join/internal/dbtest"
)

const ordersJSONL = `{"order_id": 100, "user_id": 1, "amount": 9.5, "status": "paid"}
{"order_id": 101, "user_id": 2, "amount": 1, "status": "paid", "ignored": [1, 2]}
{"order_id": 102, "user_id": 3, "amount": 2.25, "status": "paid"}

{"order_id": 103, "user_id": null, "amount": 3, "status": "paid"}
{"order_id": 104, "user_id": 4, "amount": 4, "status": "cancelled"}
{"order_id": 105, "user_id": 5, "amount": 5.5, "status": "paid"}
{"order_id": 106, "USER_ID": 1, "amount": 6}
`

func enrichJob(d *dbtest.DB, table string) string {
	auth := ""
	if d.User != "" {
		auth = fmt.Sprintf(", 'username' = '%s', 'password' = '%s'", d.User, d.Pass)
	}
	return fmt.Sprintf(`
SET 'table.exec.async-lookup.buffer-capacity' = '4';
SET 'table.exec.async-lookup.timeout' = '30 s';
CREATE TABLE orders (
  order_id BIGINT,
  user_id BIGINT,
  amount DECIMAL(10, 2),
  status STRING,
  proc_time AS PROCTIME()
) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
CREATE TABLE users (
  id BIGINT, name STRING, tier STRING, score DECIMAL(10, 2), since DATE, updated TIMESTAMP(3), active BOOLEAN
) WITH ('connector' = 'jdbc', 'url' = '%s', 'table-name' = '%s'%s,
  'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '100');
CREATE TABLE enriched (order_id BIGINT, name STRING, tier STRING, total DECIMAL(10, 2), big BOOLEAN, since DATE)
  WITH ('connector' = 'print');
INSERT INTO enriched
SELECT /*+ LOOKUP('table'='u', 'output-mode'='allow_unordered') */
  o.order_id, UPPER(u.name), COALESCE(u.tier, 'none'), o.amount * 2,
  CASE WHEN o.amount > 5 THEN TRUE ELSE FALSE END, u.since
FROM orders AS o
LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id
WHERE o.status IS NULL OR o.status <> 'cancelled';
`, d.JDBCURL, table, auth)
}

var wantEnriched = []join.Row{
	{int64(100), "ANN", "gold", "19.00", true, date(2024, 1, 2)},
	{int64(101), "BOB", "silver", "2.00", false, date(2023, 12, 31)},
	{int64(101), "BOB2", "bronze", "2.00", false, date(2023, 6, 1)},
	{int64(102), nil, "none", "4.50", false, nil},
	{int64(103), nil, "none", "6.00", false, nil},
	{int64(105), "EVE", "gold", "11.00", true, date(2020, 2, 29)},
	{int64(106), "ANN", "gold", "12.00", true, date(2024, 1, 2)},
}

// The same debug job gives the same rows on SQLite, PostgreSQL and MariaDB.
func TestDebugLookupJoinSameRowsOnAllDatabases(t *testing.T) {
	orders := writeFile(t, "orders.jsonl", ordersJSONL)
	for _, db := range dbtest.All {
		t.Run(db.Name, func(t *testing.T) {
			d := db.Open(t)
			table := d.CreateUsers(t)
			var mu sync.Mutex
			var streamed []SinkRow
			var read []int64
			res, err := runSQL(context.Background(), enrichJob(d, table), Options{
				Data: map[string]string{"orders": orders}, Now: func() time.Time { return fixedNow },
				OnRow:  func(r SinkRow) { mu.Lock(); streamed = append(streamed, r); mu.Unlock() },
				OnRead: func(table string, n int64) { mu.Lock(); read = append(read, n); mu.Unlock() },
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Sinks) != 1 || res.Sinks[0].Name != "enriched" {
				t.Fatalf("sinks %+v", res.Sinks)
			}
			got := res.Sinks[0].Rows
			sortRows(got)
			want := slices.Clone(wantEnriched)
			sortRows(want)
			if !rowsEqual(got, want) {
				t.Fatalf("got\n%v\nwant\n%v", got, want)
			}
			if len(streamed) != len(want) {
				t.Fatalf("OnRow saw %d rows", len(streamed))
			}
			if total, err := CountRows(orders); err != nil || total != 7 || !slices.Equal(read, []int64{1, 2, 3, 5, 6, 7, 8}) {
				t.Fatalf("read lines %v of %d (%v)", read, total, err)
			}
			for _, r := range streamed {
				if r.Input < 1 || r.Input > 8 || r.Lookup <= 0 {
					t.Fatalf("streamed row %+v: want its input line and lookup time", r)
				}
			}
			if len(res.Lookups) != 1 {
				t.Fatalf("lookups %+v", res.Lookups)
			}
			l := res.Lookups[0]
			if l.Config.Options.Capacity != 4 || l.Config.Options.Mode != join.Unordered || l.Config.Options.Timeout != 30*time.Second {
				t.Fatalf("lookup config %+v: want SET capacity and timeout, hint's output mode", l.Config.Options)
			}
			// user 1 twice (cached once), NULL user asks nothing.
			// The cancelled order is filtered before its lookup; user 1 is cached the
			// second time; the NULL user asks nothing.
			// (Both lookups of user 1 may be in flight at once: then they share one query.)
			if l.Stats.Lookups != 6 || l.Stats.Queries != 4 || l.Stats.Cache.Hits+l.Stats.Shared != 1 || len(l.Latency) != 6 {
				t.Fatalf("lookup stats %+v, %d latencies", l.Stats, len(l.Latency))
			}
		})
	}
}

func TestDebugExpressions(t *testing.T) {
	data := writeFile(t, "t.csv", "id,name,price,qty,dt,note\n"+
		"1,apple,1.25,4,2024-01-31,\n"+
		"2,Banana split,0.10,,2024-02-29,\"x, y\"\n"+
		"3,cherry,,7,,ok\n")
	job := `
CREATE TABLE t (id INT, name STRING, price DECIMAL(5, 2), qty INT, dt DATE, note STRING) WITH ('connector' = 'filesystem');
SELECT id,
  price * qty AS total,
  CAST(price AS DOUBLE) * 2 AS dbl,
  qty / 2 AS half, qty % 3 AS rest,
  CASE id WHEN 1 THEN 'one' WHEN 2 THEN 'two' END AS word,
  name LIKE '%an%' AS has_an, id IN (1, 3) AS odd, id BETWEEN 2 AND 3 AS late,
  qty IS NULL AS no_qty, NOT (id = 1) AS not_one,
  CHAR_LENGTH(name) AS len, SUBSTRING(name FROM 2 FOR 3) AS sub, TRIM(BOTH 'a' FROM name) AS trimmed,
  CONCAT_WS('-', name, note) AS joined, name || '!' AS bang, INITCAP(name) AS cap, LPAD(CAST(id AS STRING), 3, '0') AS padded,
  EXTRACT(MONTH FROM dt) AS m, DATE_FORMAT(dt, 'yyyy/MM/dd') AS fmt, CAST('42' AS INT) + 1 AS num,
  TRY_CAST(note AS INT) AS bad, IF(qty > 5, 'many', 'few') AS how_many, ROUND(CAST(price AS DOUBLE), 1) AS r,
  NULLIF(note, '') AS note_or_null, PROCTIME() AS pt
FROM t WHERE id < 10`
	res, err := runSQL(context.Background(), job, Options{Data: map[string]string{"T": data}, Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Sinks[0]
	var b bytes.Buffer
	if err := WriteTable(&b, s.Columns, s.Rows); err != nil {
		t.Fatal(err)
	}
	want := `id | total | dbl  | half | rest | word | has_an | odd   | late  | no_qty | not_one | len | sub | trimmed      | joined            | bang          | cap          | padded | m    | fmt        | num | bad  | how_many | r    | note_or_null | pt
-- | ----- | ---- | ---- | ---- | ---- | ------ | ----- | ----- | ------ | ------- | --- | --- | ------------ | ----------------- | ------------- | ------------ | ------ | ---- | ---------- | --- | ---- | -------- | ---- | ------------ | -----------------------
1  | 5.00  | 2.5  | 2    | 1    | one  | FALSE  | TRUE  | FALSE | FALSE  | FALSE   | 5   | ppl | pple         | apple-            | apple!        | Apple        | 001    | 1    | 2024/01/31 | 43  | NULL | few      | 1.3  | NULL         | 2024-05-06 07:08:09.000
2  | NULL  | 0.2  | NULL | NULL | two  | TRUE   | FALSE | TRUE  | TRUE   | TRUE    | 12  | ana | Banana split | Banana split-x, y | Banana split! | Banana Split | 002    | 2    | 2024/02/29 | 43  | NULL | few      | 0.1  | x, y         | 2024-05-06 07:08:09.000
3  | NULL  | NULL | 3    | 1    | NULL | FALSE  | TRUE  | TRUE  | FALSE  | TRUE    | 6   | her | cherry       | cherry-ok         | cherry!       | Cherry       | 003    | NULL | NULL       | 43  | NULL | many     | NULL | ok           | 2024-05-06 07:08:09.000
`
	if got := b.String(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDebugDatagenAndLimit(t *testing.T) {
	job := `
CREATE TABLE gen (id BIGINT, score INT, name STRING, flag BOOLEAN) WITH (
  'connector' = 'datagen', 'number-of-rows' = '50', 'rows-per-second' = '100000',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '10', 'fields.id.end' = '1000',
  'fields.score.min' = '1', 'fields.score.max' = '6', 'fields.name.length' = '5');
CREATE TABLE sink (id BIGINT, score INT, name STRING, flag BOOLEAN) WITH ('connector' = 'blackhole');
INSERT INTO sink SELECT * FROM gen WHERE score >= 1;
SELECT id FROM gen LIMIT 3;`
	res, err := runSQL(context.Background(), job, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows := res.Sinks[0].Rows
	if len(rows) != 50 || rows[0][0] != int64(10) || rows[49][0] != int64(59) {
		t.Fatalf("%d rows, first %v, last %v", len(rows), rows[0], rows[len(rows)-1])
	}
	for _, r := range rows {
		if s := r[1].(int64); s < 1 || s > 6 || len(r[2].(string)) != 5 {
			t.Fatalf("row %v out of its options", r)
		}
	}
	again, _ := runSQL(context.Background(), job, Options{})
	if !rowsEqual(again.Sinks[0].Rows, rows) {
		t.Fatal("datagen is not repeatable")
	}
	if got := res.Sinks[1].Rows; !rowsEqual(got, []join.Row{{int64(10)}, {int64(11)}, {int64(12)}}) {
		t.Fatalf("LIMIT 3: %v", got)
	}
	res, err = runSQL(context.Background(), job, Options{Limit: 7})
	if err != nil || len(res.Sinks[0].Rows) != 7 {
		t.Fatalf("--limit 7: %v, %v", res, err)
	}
}

func TestDebugRefusesWhatItCannotRun(t *testing.T) {
	data := writeFile(t, "t.jsonl", `{"a": 1}`)
	base := "CREATE TABLE t (a INT, ts TIMESTAMP(3)) WITH ('connector' = 'kafka');\nCREATE TABLE u (a INT) WITH ('connector' = 'kafka');\n"
	// What is not run is refused at its line and column, in Flink's words
	// where Flink has them.
	for _, tc := range []struct{ sql, want string }{
		{"SELECT * FROM t ORDER BY a", "line 3:26: Sort on a non-time-attribute field is not supported."},
		{"SELECT a FROM (SELECT a, RANK() OVER (PARTITION BY a ORDER BY ts) AS r FROM t) WHERE r <= 2", "line 3:26: RANK() on streaming table is not supported currently"},
		{"SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE))", "line 3:37: The window function requires the timecol is a time attribute type, but is TIMESTAMP(3)."},
		{"SELECT JSON_OBJECTAGG(KEY a VALUE a) FROM t", "line 3:27: JSON_OBJECTAGG's key must be a character string, not INT"},
		{"SELECT * FROM u", "give its rows with --data u=FILE"},
		{"SELECT nope FROM t", "line 3:8: Column 'nope' not found in any table"},
		{"SELECT my_udf(a) FROM t", "line 3:8: No match found for function signature MY_UDF"},
		{"INSERT INTO missing SELECT a FROM t", "no CREATE TABLE for the sink"},

		{"SELECT a FROM t WHERE a > ALL (SELECT a FROM u)", "line 3:23: subqueries in WHERE other than x IN (SELECT …)"},
		{"CREATE FUNCTION f AS 'x.Y'", "line 3:1: CREATE FUNCTION: user-defined functions do not run"},
		{"SELECT FROM", "does not parse"},
	} {
		_, err := runSQL(context.Background(), base+tc.sql, Options{Data: map[string]string{"t": data}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.sql, err, tc.want)
		}
	}
}

// Errors name the input row and the reason.
func TestDebugErrorsNameTheRow(t *testing.T) {
	bad := writeFile(t, "t.jsonl", "{\"a\": 1}\n{\"a\": \"x\"}\n")
	_, err := runSQL(context.Background(), "CREATE TABLE t (a INT) WITH ('connector'='kafka'); SELECT a FROM t",
		Options{Data: map[string]string{"t": bad}})
	if err == nil || !strings.Contains(err.Error(), "line 2, column a") {
		t.Fatalf("%v", err)
	}

	d := dbtest.SQLite(t)
	table := d.CreateUsers(t)
	orders := writeFile(t, "orders.jsonl", ordersJSONL)
	job := enrichJob(d, table)
	d.Exec(t, "DROP TABLE "+d.Quote(table)) // lookups fail
	_, err = runSQL(context.Background(), job, Options{Data: map[string]string{"orders": orders}})
	if err == nil || !strings.Contains(err.Error(), "no such table") {
		t.Fatalf("%v", err)
	}
}

func TestDebugLookupErrorNamesInputRow(t *testing.T) {
	d := dbtest.SQLite(t)
	table := d.CreateUsers(t)
	orders := writeFile(t, "orders.jsonl", ordersJSONL)
	job := strings.Replace(enrichJob(d, table), "ON o.user_id = u.id", "ON o.user_id = u.id AND 1 / (o.order_id - 101) > 0", 1)
	_, err := runSQL(context.Background(), job, Options{Data: map[string]string{"orders": orders}})
	if err == nil || !strings.Contains(err.Error(), "input row 2") || !strings.Contains(err.Error(), "division by zero") {
		t.Fatalf("%v", err)
	}
}

func TestWriteJSONLines(t *testing.T) {
	var b bytes.Buffer
	cols := []join.Column{{Name: "id", Type: "BIGINT"}, {Name: "total", Type: "DECIMAL(10, 2)"}, {Name: "day", Type: "DATE"}, {Name: "ts", Type: "TIMESTAMP(3)"}, {Name: "n", Type: "STRING"}}
	rows := []join.Row{{int64(1), "12.50", date(2024, 1, 2), ts("2024-01-02 10:00:00.123"), nil}}
	if err := WriteJSONLines(&b, cols, rows); err != nil {
		t.Fatal(err)
	}
	if want := `{"id":1,"total":12.50,"day":"2024-01-02","ts":"2024-01-02 10:00:00.123","n":null}` + "\n"; b.String() != want {
		t.Fatalf("%s", b.String())
	}
}

func TestWriteDebugResult(t *testing.T) {
	d := dbtest.SQLite(t)
	table := d.CreateUsers(t)
	orders := writeFile(t, "orders.jsonl", ordersJSONL)
	job := strings.Replace(enrichJob(d, table), "'output-mode'='allow_unordered'", "'output-mode'='ordered'", 1)
	res, err := runSQL(context.Background(), job, Options{Data: map[string]string{"orders": orders}, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := res.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	wantText := `enriched: 2 rows
order_id | name | tier   | total | big   | since
-------- | ---- | ------ | ----- | ----- | ----------
100      | ANN  | gold   | 19.00 | TRUE  | 2024-01-02
101      | BOB  | silver | 2.00  | FALSE | 2023-12-31
`
	if got := text.String(); !strings.HasPrefix(got, wantText) || !strings.Contains(got, "lookup users: ") || !strings.Contains(got, "(ordered, capacity 4)") {
		t.Fatalf("got\n%s\nwant it to start with\n%s", got, wantText)
	}
	var js bytes.Buffer
	if err := res.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	// A row a line; DECIMAL keeps its scale (19.00, not 19).
	for _, want := range []string{`"name": "enriched"`, `"order_id":100,`, `"total":19.00,`, `"since":"2024-01-02"`, `"table": "users"`} {
		if !strings.Contains(js.String(), want) {
			t.Fatalf("JSON %s\nlacks %s", js.String(), want)
		}
	}
	if !json.Valid(js.Bytes()) {
		t.Fatalf("not JSON:\n%s", js.String())
	}
}

// Two lookups in a row, the second keyed by an expression of the first's output.
func TestDebugChainedLookups(t *testing.T) {
	d := dbtest.SQLite(t)
	table := d.CreateUsers(t)
	orders := writeFile(t, "orders.jsonl", ordersJSONL)
	job := enrichJob(d, table)
	job = job[:strings.Index(job, "CREATE TABLE enriched")] + `
SELECT /*+ LOOKUP('table'='nxt', 'async'='false') */ o.order_id, u.name, nxt.name AS next_name
FROM orders AS o
JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON u.id = o.user_id
LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS nxt ON nxt.id = u.id + 1 AND nxt.active
WHERE o.amount < 6`
	res, err := runSQL(context.Background(), job, Options{Data: map[string]string{"orders": orders}})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Sinks[0].Rows
	sortRows(got)
	// 1 → 2 has two rows, one active (bob2); 2 → 3 none; 4 → 5 eve (active); 100 and 106 are >= 6.
	want := []join.Row{{int64(101), "bob", nil}, {int64(101), "bob2", nil}, {int64(104), "dan", "eve"}, {int64(105), "eve", nil}}
	sortRows(want)
	if !rowsEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if len(res.Lookups) != 2 || res.Lookups[1].Config.Async || res.Lookups[1].Config.Options.Capacity != 1 {
		t.Fatalf("lookups %+v", res.Lookups)
	}
}

// Cancelling a run stops it at once, whatever its stages are doing.
func TestDebugCancel(t *testing.T) {
	job := `CREATE TABLE g (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '1000000000', 'rows-per-second' = '5',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '1000000000');
SELECT id FROM g`
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan struct{})
	var once sync.Once
	errc := make(chan error, 1)
	go func() {
		_, err := runSQL(ctx, job, Options{OnRow: func(SinkRow) { once.Do(func() { close(first) }) }})
		errc <- err
	}()
	<-first
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(wait):
		t.Fatal("Run did not return after cancel")
	}
}

// LIMIT stops an unbounded source once it has its rows.
func TestDebugLimitStopsUnboundedSource(t *testing.T) {
	job := `CREATE TABLE g (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '1000000000', 'rows-per-second' = '1000',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '1000000000');
SELECT id * 10 AS x FROM (SELECT id FROM g WHERE id > 2 LIMIT 4)`
	done := make(chan struct{})
	var res *Result
	var err error
	go func() {
		defer close(done)
		res, err = runSQL(context.Background(), job, Options{})
	}()
	select {
	case <-done:
	case <-time.After(wait):
		t.Fatal("the run did not stop at its LIMIT")
	}
	if err != nil || !rowsEqual(res.Sinks[0].Rows, []join.Row{{int64(30)}, {int64(40)}, {int64(50)}, {int64(60)}}) {
		t.Fatalf("%v, %v", res, err)
	}
}

// An unbounded datagen table runs until the run's row limit.
func TestDebugUnboundedDatagenNeedsLimit(t *testing.T) {
	job := `CREATE TABLE g (id INT, v DOUBLE) WITH ('connector' = 'datagen', 'fields.v.min' = '1', 'fields.v.max' = '2');
SELECT id, v FROM g`
	if _, err := runSQL(context.Background(), job, Options{}); err == nil || !strings.Contains(err.Error(), "unbounded") {
		t.Fatalf("%v", err)
	}
	res, err := runSQL(context.Background(), job, Options{Limit: 5})
	if err != nil || len(res.Sinks[0].Rows) != 5 {
		t.Fatalf("%v, %v", res, err)
	}
	for _, r := range res.Sinks[0].Rows {
		if v := r[1].(float64); v < 1 || v > 2 {
			t.Fatalf("v %v outside its min and max", v)
		}
	}
}

// A bad source row that fails before the lookup table is open: the run
// reports the row, not the cancellation it caused in the lookup stage.
func TestDebugEarlySourceErrorWinsOverLookupSetup(t *testing.T) {
	d := dbtest.SQLite(t)
	table := d.CreateUsers(t)
	bad := writeFile(t, "orders.jsonl", "{\"order_id\": \"not a number\", \"user_id\": 1}\n")
	for i := 0; i < 20; i++ { // the race between the two stages goes both ways
		_, err := runSQL(context.Background(), enrichJob(d, table), Options{Data: map[string]string{"orders": bad}})
		if err == nil || !strings.Contains(err.Error(), "line 1, column order_id") || strings.Contains(err.Error(), "context canceled") {
			t.Fatalf("run %d: %v", i, err)
		}
	}
}
