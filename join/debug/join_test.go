package debug

import (
	"fmt"
	"strings"
	"testing"
)

const usersDDL = `CREATE TABLE users (name STRING, tier STRING) WITH ('connector' = 'kafka', 'format' = 'json');
`

const usersData = `{"name": "a", "tier": "gold"}
{"name": "c", "tier": "x"}
`

// The sources are read a row from each in turn: orders 1, users a,
// orders 2, users c, orders 3, orders 4.
func TestRegularJoin(t *testing.T) {
	files := map[string]string{"orders.jsonl": ordersData, "users.jsonl": usersData}
	s := run(t, ordersDDL+usersDDL+"SELECT o.id, u.name, u.tier FROM orders AS o JOIN users AS u ON o.usr = u.name", files).Sinks[0]
	expect(t, "inner", changelog(s), []string{"+I[1, a, gold]", "+I[3, a, gold]", "+I[4, a, gold]"})
	if s.Updating {
		t.Error("an inner join of append-only inputs is append-only")
	}
	s = run(t, ordersDDL+usersDDL+"SELECT o.id, u.tier FROM orders o LEFT JOIN users u ON o.usr = u.name", files).Sinks[0]
	expect(t, "left", changelog(s), []string{"+I[1, NULL]", "-D[1, NULL]", "+I[1, gold]", "+I[2, NULL]", "+I[3, gold]", "+I[4, gold]"})
	expect(t, "left final", final(s), []string{"+I[1, gold]", "+I[2, NULL]", "+I[3, gold]", "+I[4, gold]"})
	s = run(t, ordersDDL+usersDDL+"SELECT o.id, u.tier FROM orders o JOIN users u ON o.usr = u.name AND o.amount > 8", files).Sinks[0]
	expect(t, "condition", changelog(s), []string{"+I[1, gold]"})
}

// A FULL JOIN with a changelog side: an update of a user takes back the
// rows it joined and pads them with NULLs, then joins its new row.
func TestFullJoinRetracts(t *testing.T) {
	users := `{"before": null, "after": {"name": "a", "tier": "gold"}, "op": "c"}
{"before": null, "after": {"name": "c", "tier": "x"}, "op": "c"}
{"before": {"name": "a", "tier": "gold"}, "after": {"name": "a", "tier": "silver"}, "op": "u"}
{"before": {"name": "c", "tier": "x"}, "after": null, "op": "d"}
`
	job := ordersDDL + `CREATE TABLE users (name STRING, tier STRING) WITH ('connector' = 'kafka', 'format' = 'debezium-json');
SELECT o.id, u.name, u.tier FROM orders o FULL JOIN users u ON o.usr = u.name`
	s := run(t, job, map[string]string{"orders.jsonl": ordersData, "users.jsonl": users}).Sinks[0]
	expect(t, "changelog", changelog(s), []string{
		"+I[1, NULL, NULL]",
		"-D[1, NULL, NULL]", "+I[1, a, gold]",
		"+I[2, NULL, NULL]",
		"+I[NULL, c, x]",
		"+I[3, a, gold]",
		"-D[1, a, gold]", "+I[1, NULL, NULL]", "-D[3, a, gold]", "+I[3, NULL, NULL]",
		"+I[4, NULL, NULL]",
		"-D[1, NULL, NULL]", "-D[3, NULL, NULL]", "-D[4, NULL, NULL]", "+I[1, a, silver]", "+I[3, a, silver]", "+I[4, a, silver]",
		"-D[NULL, c, x]",
	})
	expect(t, "final", final(s), []string{"+I[1, a, silver]", "+I[2, NULL, NULL]", "+I[3, a, silver]", "+I[4, a, silver]"})
}

// An interval join keeps its inputs' time attributes: its output can feed
// a window.
func TestIntervalJoin(t *testing.T) {
	job := `CREATE TABLE o (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'format' = 'json');
CREATE TABLE s (oid INT, sts TIMESTAMP(3), WATERMARK FOR sts AS sts) WITH ('connector' = 'kafka', 'format' = 'json');
SELECT o.id, s.sts FROM o JOIN s ON o.id = s.oid AND s.sts BETWEEN o.ts AND o.ts + INTERVAL '4' HOUR`
	files := map[string]string{
		"o.jsonl": `{"id": 1, "ts": "2024-01-01 10:00:00"}
{"id": 2, "ts": "2024-01-01 11:00:00"}
`,
		"s.jsonl": `{"oid": 1, "sts": "2024-01-01 12:00:00"}
{"oid": 2, "sts": "2024-01-01 16:00:00"}
`}
	res := run(t, job, files)
	s := res.Sinks[0]
	expect(t, "interval join", changelog(s), []string{"+I[1, 2024-01-01 12:00:00.000]"})
	if s.Updating {
		t.Error("an interval join is append-only")
	}
	// A LEFT interval join emits an unmatched row padded with NULLs once the
	// right side's watermark has passed its window (at shipment 2's 16:00).
	s = run(t, strings.Replace(job, "FROM o JOIN s", "FROM o LEFT JOIN s", 1), files).Sinks[0]
	expect(t, "left interval join", changelog(s), []string{"+I[1, 2024-01-01 12:00:00.000]", "+I[2, NULL]"})
	if s.Updating {
		t.Error("an outer interval join is append-only")
	}
	// Bounds written as comparisons, either way round.
	s = run(t, strings.Replace(job, "s.sts BETWEEN o.ts AND o.ts + INTERVAL '4' HOUR", "o.ts <= s.sts AND s.sts - INTERVAL '4' HOUR <= o.ts", 1), files).Sinks[0]
	expect(t, "comparisons", changelog(s), []string{"+I[1, 2024-01-01 12:00:00.000]"})
}

// x IN (SELECT …) is a semi join: a row passes once the subquery has its
// key, and is taken back when the subquery's last row of it goes.
func TestInSubquery(t *testing.T) {
	users := `{"before": null, "after": {"name": "b", "tier": "gold"}, "op": "c"}
{"before": null, "after": {"name": "a", "tier": "gold"}, "op": "c"}
{"before": {"name": "b", "tier": "gold"}, "after": {"name": "b", "tier": "none"}, "op": "u"}
`
	job := ordersDDL + `CREATE TABLE users (name STRING, tier STRING) WITH ('connector' = 'kafka', 'format' = 'debezium-json');
SELECT id, usr FROM orders WHERE usr IN (SELECT name FROM users WHERE tier = 'gold') AND id < 4`
	s := run(t, job, map[string]string{"orders.jsonl": ordersData, "users.jsonl": users}).Sinks[0]
	// orders 1 (a), users b, orders 2 (b), users a, orders 3 (a), users b's update, orders 4 (filtered).
	expect(t, "changelog", changelog(s), []string{"+I[2, b]", "+I[1, a]", "+I[3, a]", "-D[2, b]"})
	expect(t, "final", final(s), []string{"+I[1, a]", "+I[3, a]"})
}

// An event-time temporal join joins each order with the rate valid at its
// time, once both inputs' watermarks have passed it.
func TestTemporalJoin(t *testing.T) {
	ddl := `CREATE TABLE orders (order_id STRING, price DECIMAL(10, 2), currency STRING, order_time TIMESTAMP(3),
  WATERMARK FOR order_time AS order_time) WITH ('connector' = 'kafka', 'format' = 'json');
CREATE TABLE rates (currency STRING, rate DECIMAL(10, 2), update_time TIMESTAMP(3),
  WATERMARK FOR update_time AS update_time, PRIMARY KEY (currency) NOT ENFORCED)
  WITH ('connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json');
`
	files := map[string]string{
		"orders.jsonl": `{"order_id": "o1", "price": 11.11, "currency": "EUR", "order_time": "2024-01-01 12:00:00"}
{"order_id": "o2", "price": 12.51, "currency": "EUR", "order_time": "2024-01-01 12:06:00"}
{"order_id": "o3", "price": 1.00, "currency": "GBP", "order_time": "2024-01-01 12:07:00"}
{"order_id": "o4", "price": 2.00, "currency": "USD", "order_time": "2024-01-01 10:00:00"}
`,
		"rates.jsonl": `{"currency": "EUR", "rate": 1.14, "update_time": "2024-01-01 11:00:00"}
{"currency": "USD", "rate": 1.00, "update_time": "2024-01-01 11:00:00"}
{"currency": "EUR", "rate": 1.10, "update_time": "2024-01-01 12:05:00"}
`}
	q := "SELECT order_id, price, o.currency, rate FROM orders AS o %s JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency"
	s := run(t, ddl+fmt.Sprintf(q, ""), files).Sinks[0]
	expect(t, "inner", final(s), []string{"+I[o1, 11.11, EUR, 1.14]", "+I[o2, 12.51, EUR, 1.10]"})
	if s.Updating {
		t.Error("a temporal join of an append-only input is append-only")
	}
	s = run(t, ddl+fmt.Sprintf(q, "LEFT"), files).Sinks[0]
	expect(t, "left", final(s), []string{"+I[o1, 11.11, EUR, 1.14]", "+I[o2, 12.51, EUR, 1.10]", "+I[o3, 1.00, GBP, NULL]", "+I[o4, 2.00, USD, NULL]"})
}

// [NOT] EXISTS with a correlated equality is a semi (anti) join.
func TestExistsSubquery(t *testing.T) {
	files := map[string]string{"orders.jsonl": ordersData, "users.jsonl": usersData}
	s := run(t, ordersDDL+usersDDL+"SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM users u WHERE u.name = o.usr AND u.tier = 'gold')", files).Sinks[0]
	expect(t, "exists", changelog(s), []string{"+I[1]", "+I[3]", "+I[4]"})
	s = run(t, ordersDDL+usersDDL+"SELECT id FROM orders o WHERE NOT EXISTS (SELECT * FROM users u WHERE o.usr = u.name AND u.tier = 'gold')", files).Sinks[0]
	expect(t, "not exists", changelog(s), []string{"+I[1]", "-D[1]", "+I[2]"})
	expect(t, "not exists final", final(s), []string{"+I[2]"})
}

// x NOT IN (SELECT y …) keeps SQL's NULLs: once the subquery has a NULL no
// row passes.
func TestNotInSubquery(t *testing.T) {
	job := ordersDDL + usersDDL + "SELECT id FROM orders WHERE usr NOT IN (SELECT name FROM users)"
	s := run(t, job, map[string]string{"orders.jsonl": ordersData, "users.jsonl": usersData}).Sinks[0]
	expect(t, "not in", changelog(s), []string{"+I[1]", "-D[1]", "+I[2]"})
	expect(t, "not in final", final(s), []string{"+I[2]"})
	withNull := usersData + `{"name": null, "tier": "none"}
`
	s = run(t, job, map[string]string{"orders.jsonl": ordersData, "users.jsonl": withNull}).Sinks[0]
	expect(t, "a NULL in the subquery", changelog(s), []string{"+I[1]", "-D[1]", "+I[2]", "-D[2]"})
	expect(t, "a NULL in the subquery, final", final(s), nil)
}
