package cli

import (
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// constructsDDL is the tables of the construct jobs: orders and users with
// event time, rates an upsert-kafka versioned table, dbz a debezium-json
// changelog.
const constructsDDL = `CREATE TABLE orders (id INT, usr STRING, amount INT, tags ARRAY<STRING>, ts TIMESTAMP(3), pt AS PROCTIME(),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'kafka', 'format' = 'json');
CREATE TABLE users (usr STRING, name STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'kafka', 'format' = 'json');
CREATE TABLE rates (usr STRING, rate INT, ut TIMESTAMP(3), WATERMARK FOR ut AS ut, PRIMARY KEY (usr) NOT ENFORCED)
  WITH ('connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json');
CREATE TABLE dbz (id INT, usr STRING) WITH ('connector' = 'kafka', 'format' = 'debezium-json');
`

var constructsData = map[string]string{
	"orders": `{"id": 1, "usr": "a", "amount": 10, "tags": ["x", "y"], "ts": "2024-01-01 10:00:10"}
{"id": 2, "usr": "b", "amount": 5, "ts": "2024-01-01 10:00:40"}
{"id": 3, "usr": "a", "amount": 7, "ts": "2024-01-01 10:01:20"}
{"id": 4, "usr": "c", "amount": 3, "ts": "2024-01-01 10:02:30"}
`,
	"users": `{"usr": "a", "name": "Ann", "ts": "2024-01-01 10:00:20"}
{"usr": "b", "name": "Bob", "ts": "2024-01-01 10:00:50"}
{"usr": "d", "name": "Dan", "ts": "2024-01-01 10:03:00"}
`,
	"rates": `{"usr": "a", "rate": 2, "ut": "2024-01-01 10:00:00"}
{"usr": "b", "rate": 3, "ut": "2024-01-01 10:00:00"}
`,
	"dbz": `{"before": null, "after": {"id": 1, "usr": "a"}, "op": "c"}
{"before": {"id": 1, "usr": "a"}, "after": {"id": 1, "usr": "b"}, "op": "u"}
`,
}

// `palink debug` runs a job of each construct family join/debug/README.md
// lists as covered, end to end: each gives the rows its final table
// should hold (4 orders of users a, b, a, c a minute apart; users a, b, d).
func TestDebugRunsEachCoveredConstruct(t *testing.T) {
	args := []string{}
	for table, rows := range constructsData {
		args = append(args, "--data", table+"="+writeTemp(t, table+".jsonl", rows))
	}
	// The lookup join's dimension table, in SQLite.
	dbPath := filepath.Join(t.TempDir(), "dim.db")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"CREATE TABLE dims (usr VARCHAR(10), label VARCHAR(10))", "INSERT INTO dims VALUES ('a', 'gold'), ('c', 'new')"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	ddl := constructsDDL + "CREATE TABLE dims (usr STRING, label STRING, PRIMARY KEY (usr) NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = 'jdbc:sqlite:" + dbPath + "', 'table-name' = 'dims');\n"
	tvf := func(w string) string { return "TABLE(" + w + ")" }
	tumble := tvf("TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE)")
	for _, tc := range []struct {
		name, sql string
		rows      int
		extra     []string
	}{
		{"GROUP BY", "SELECT usr, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY usr", 3, nil},
		{"GROUPING SETS", "SELECT usr, SUM(amount) FROM orders GROUP BY ROLLUP (usr)", 4, nil},
		{"JSON aggregates", "SELECT usr, JSON_ARRAYAGG(amount) FROM orders GROUP BY usr", 3, nil},
		{"TUMBLE", "SELECT window_start, SUM(amount) FROM " + tumble + " GROUP BY window_start, window_end", 3, nil},
		{"HOP", "SELECT window_start, SUM(amount) FROM " + tvf("HOP(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '2' MINUTE)") + " GROUP BY window_start, window_end", 4, nil},
		{"CUMULATE", "SELECT window_start, window_end, SUM(amount) FROM " + tvf("CUMULATE(TABLE orders, DESCRIPTOR(ts), INTERVAL '30' SECOND, INTERVAL '1' MINUTE)") + " GROUP BY window_start, window_end", 5, nil},
		{"SESSION", "SELECT usr, window_start, COUNT(*) FROM " + tvf("SESSION(TABLE orders PARTITION BY usr, DESCRIPTOR(ts), INTERVAL '30' SECOND)") + " GROUP BY usr, window_start, window_end", 4, nil},
		{"group window", "SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE), COUNT(*) FROM orders GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)", 3, nil},
		{"processing-time window", "SELECT window_start, COUNT(*) FROM " + tvf("TUMBLE(TABLE orders, DESCRIPTOR(pt), INTERVAL '1' HOUR)") + " GROUP BY window_start, window_end", 3, []string{"--proctime-step", "1h"}},
		{"window top-N", "SELECT * FROM (SELECT id, window_start, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY amount DESC) AS rn FROM " + tumble + ") WHERE rn <= 1", 3, nil},
		{"OVER", "SELECT id, SUM(amount) OVER (PARTITION BY usr ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM orders", 4, nil},
		{"deduplication", "SELECT id, usr FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY usr ORDER BY ts) AS rn FROM orders) WHERE rn = 1", 3, nil},
		{"top-N", "SELECT id, usr FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY usr ORDER BY amount DESC) AS rn FROM orders) WHERE rn <= 1", 3, nil},
		{"lookup join", "SELECT o.id, d.label FROM orders o LEFT JOIN dims FOR SYSTEM_TIME AS OF o.pt AS d ON o.usr = d.usr", 4, nil},
		{"INNER JOIN", "SELECT o.id, u.name FROM orders o JOIN users u ON o.usr = u.usr", 3, nil},
		{"LEFT JOIN", "SELECT o.id, u.name FROM orders o LEFT JOIN users u ON o.usr = u.usr", 4, nil},
		{"RIGHT JOIN", "SELECT o.id, u.name FROM orders o RIGHT JOIN users u ON o.usr = u.usr", 4, nil},
		{"FULL JOIN", "SELECT o.id, u.name FROM orders o FULL JOIN users u ON o.usr = u.usr", 5, nil},
		{"interval join", "SELECT o.id, u.name FROM orders o, users u WHERE o.usr = u.usr AND o.ts BETWEEN u.ts - INTERVAL '2' MINUTE AND u.ts + INTERVAL '2' MINUTE", 3, nil},
		{"temporal join", "SELECT o.id, r.rate FROM orders o JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.usr = r.usr", 3, nil},
		{"window join", "SELECT o.id, u.name FROM (SELECT * FROM " + tumble + ") o JOIN (SELECT * FROM " + tvf("TUMBLE(TABLE users, DESCRIPTOR(ts), INTERVAL '1' MINUTE)") + ") u ON o.usr = u.usr AND o.window_start = u.window_start AND o.window_end = u.window_end", 2, nil},
		{"IN and EXISTS", "SELECT id FROM orders o WHERE usr IN (SELECT usr FROM users) AND EXISTS (SELECT 1 FROM users u WHERE u.usr = o.usr)", 3, nil},
		{"scalar subquery", "SELECT usr, SUM(amount) FROM orders GROUP BY usr HAVING SUM(amount) > (SELECT MIN(amount) FROM orders)", 2, nil},
		{"UNION ALL", "SELECT usr FROM orders UNION ALL SELECT usr FROM users", 7, nil},
		{"UNION", "SELECT usr FROM orders UNION SELECT usr FROM users", 4, nil},
		{"INTERSECT", "SELECT usr FROM orders INTERSECT SELECT usr FROM users", 2, nil},
		{"EXCEPT", "SELECT usr FROM orders EXCEPT SELECT usr FROM users", 1, nil},
		{"UNNEST", "SELECT id, tag FROM orders CROSS JOIN UNNEST(tags) AS t (tag)", 2, nil},
		{"MATCH_RECOGNIZE", "SELECT * FROM orders MATCH_RECOGNIZE (PARTITION BY usr ORDER BY ts MEASURES A.id AS first_id, B.id AS next_id PATTERN (A B) DEFINE B AS B.amount < A.amount)", 1, nil},
		{"debezium-json", "SELECT id, usr FROM dbz", 1, nil},
		{"upsert-kafka", "SELECT usr, rate FROM rates", 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			job := writeTemp(t, "job.sql", ddl+tc.sql+";\n")
			out, _, err := runCLI(t, append(append([]string{"debug", job, "-o", "json"}, args...), tc.extra...)...)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var res struct {
				Sinks []struct {
					Rows []map[string]any `json:"rows"`
				} `json:"sinks"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Sinks) != 1 {
				t.Fatalf("%v\n%s", err, out)
			}
			if got := len(res.Sinks[0].Rows); got != tc.rows {
				t.Errorf("%d rows in the final table, want %d:\n%s", got, tc.rows, strings.TrimSpace(out))
			}
		})
	}
}
