package complete

import (
	"strings"
	"testing"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/flinksql/builtin"
)

// completionDDL is the top of a realistic job: a Kafka source with event
// and processing time, a JDBC dimension, a sink and a view.
const completionDDL = `SET 'pipeline.name' = 'orders-enrich';
CREATE TABLE orders (
  order_id BIGINT,
  user_id BIGINT,
  amount DECIMAL(10, 2),
  order_time TIMESTAMP(3),
  proc_time AS PROCTIME(),
  WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders',
  'properties.bootstrap.servers' = 'kafka:9092',
  'format' = 'json'
);
CREATE TABLE users (
  id BIGINT,
  name STRING,
  country STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'jdbc',
  'url' = 'jdbc:mysql://dim-db:3306/app',
  'table-name' = 'users'
);
CREATE TABLE enriched (order_id BIGINT, name STRING, amount DECIMAL(10, 2)) WITH ('connector' = 'print');
CREATE VIEW big_orders AS SELECT order_id, user_id, amount * 2 AS doubled FROM orders WHERE amount > 10;
`

// completeAt completes at the ‸ of marked, for release v.
func completeAt(marked string, v builtin.Version) Result {
	i := strings.Index(marked, "‸")
	src := marked[:i] + marked[i+len("‸"):]
	p := posOf(src, i)
	return At(src, p.Line, p.Col, flinksql.Options{Version: v})
}

// TestComplete is the completion table: a cursor in a realistic script →
// the suggestions that must come first (kind:text), in that order, and
// ones that must not come at all.
func TestComplete(t *testing.T) {
	const join = "INSERT INTO enriched\nSELECT o.order_id, u.name, o.amount\nFROM orders AS o\n" +
		"LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id"
	const window = "SELECT window_start, window_end, user_id, SUM(amount)\n" +
		"FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' MINUTE))\n"
	const kafka = "CREATE TABLE clicks (url STRING) WITH (\n  'connector' = 'kafka',\n  "
	cases := []struct {
		name    string
		at      string // after completionDDL; ‸ is the cursor
		version builtin.Version
		want    []string
		not     []string
		prefix  string
	}{
		// statements and clauses
		{name: "statement start", at: "‸", want: []string{"keyword:SELECT", "keyword:INSERT", "keyword:CREATE"}},
		{name: "statement word", at: "INS‸", want: []string{"keyword:INSERT"}, prefix: "INS"},
		{name: "lower-case word", at: "sel‸", want: []string{"keyword:SELECT"}, prefix: "sel"},
		{name: "after CREATE", at: "CREATE ‸", want: []string{"keyword:TABLE", "keyword:VIEW", "keyword:OR", "keyword:TEMPORARY"}},
		{name: "after INSERT", at: "INSERT ‸", want: []string{"keyword:INTO", "keyword:OVERWRITE"}},
		{name: "sink table", at: "INSERT INTO ‸", want: []string{"table:orders", "table:users", "table:enriched", "table:big_orders"}},
		{name: "sink by prefix", at: "INSERT INTO en‸", want: []string{"table:enriched"}, not: []string{"table:orders"}},
		{name: "select list then FROM", at: "SELECT order_id F‸", want: []string{"keyword:FROM"}},
		{name: "after a select item", at: "SELECT order_id ‸", want: []string{"keyword:FROM", "keyword:WHERE", "keyword:AS"}},
		{name: "FROM table", at: "SELECT * FROM ‸", want: []string{"table:orders", "table:users", "table:enriched", "table:big_orders", "keyword:TABLE"}},
		{name: "FROM prefix", at: "SELECT * FROM us‸", want: []string{"table:users"}, not: []string{"table:orders"}},
		{name: "after a table", at: "SELECT * FROM orders ‸", want: []string{"keyword:WHERE", "keyword:AS", "keyword:JOIN", "keyword:LEFT"}},
		{name: "WHERE by prefix", at: "SELECT * FROM orders WH‸", want: []string{"keyword:WHERE"}, not: []string{"keyword:WINDOW"}},
		{name: "after a condition", at: "SELECT * FROM orders WHERE amount > 10 ‸", want: []string{"keyword:AND", "keyword:OR", "keyword:GROUP", "keyword:ORDER"}},
		{name: "GROUP needs BY", at: "SELECT user_id FROM orders GROUP ‸", want: []string{"keyword:BY"}},
		{name: "IS what", at: "SELECT * FROM orders WHERE user_id IS ‸", want: []string{"keyword:NOT", "keyword:NULL"}},
		{name: "JOIN then FOR", at: "SELECT * FROM orders AS o LEFT JOIN users ‸", want: []string{"keyword:AS", "keyword:ON", "keyword:FOR"}},
		{name: "SYSTEM_TIME", at: "SELECT * FROM orders AS o LEFT JOIN users FOR ‸", want: []string{"keyword:SYSTEM_TIME"}},
		{name: "ON after alias", at: "SELECT * FROM orders AS o LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ‸", want: []string{"keyword:ON", "keyword:USING"}},
		// columns, aliases and functions
		{name: "select list columns first", at: "SELECT ‸ FROM orders", want: []string{"column:order_id", "column:user_id", "column:amount", "column:order_time", "column:proc_time", "function:COALESCE"}},
		{name: "alias dot", at: "SELECT o.‸ FROM orders AS o", want: []string{"column:order_id", "column:user_id", "column:amount"}, not: []string{"function:COUNT", "keyword:FROM"}},
		{name: "alias dot prefix", at: "SELECT o.am‸ FROM orders o", want: []string{"column:amount"}, prefix: "am"},
		{name: "alias without AS", at: "SELECT u.‸ FROM orders o JOIN users u ON o.user_id = u.id", want: []string{"column:id", "column:name", "column:country"}},
		{name: "second select item", at: "SELECT o.order_id, u.‸\nFROM orders AS o\nLEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id", want: []string{"column:id", "column:name"}, not: []string{"column:order_id"}},
		{name: "lookup ON", at: strings.Replace(join, "u.id", "u.‸", 1), want: []string{"column:id", "column:name", "column:country"}},
		{name: "lookup FOR SYSTEM_TIME AS OF", at: "SELECT * FROM orders AS o LEFT JOIN users FOR SYSTEM_TIME AS OF o.p‸", want: []string{"column:proc_time"}, prefix: "p"},
		{name: "table name as qualifier", at: "SELECT orders.‸ FROM orders", want: []string{"column:order_id"}},
		{name: "view columns", at: "SELECT b.‸ FROM big_orders b", want: []string{"column:order_id", "column:user_id", "column:doubled"}},
		{name: "WHERE columns", at: "SELECT * FROM orders WHERE am‸", want: []string{"column:amount"}},
		{name: "function by prefix", at: "SELECT COU‸ FROM orders", want: []string{"function:COUNT"}},
		{name: "function prefix, lower-case", at: "SELECT date_f‸ FROM orders", want: []string{"function:DATE_FORMAT"}},
		{name: "inside a call", at: "SELECT UPPER(‸) FROM users", want: []string{"column:id", "column:name"}},
		{name: "window TVFs after TABLE(", at: "SELECT * FROM TABLE(‸", want: []string{"function:TUMBLE", "function:HOP", "function:CUMULATE", "function:SESSION"}},
		{name: "window columns", at: window + "GROUP BY window_start, w‸", want: []string{"column:window_start", "column:window_end", "column:window_time"}},
		{name: "window aggregate argument", at: "SELECT SUM(am‸)\nFROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' MINUTE))", want: []string{"column:amount"}},
		{name: "function of a newer release is left out", at: "SELECT ARRAY_SO‸ FROM orders", version: builtin.Version{Major: 1, Minor: 18}, not: []string{"function:ARRAY_SORT"}},
		{name: "functions of every release stay", at: "SELECT COU‸ FROM orders", version: builtin.Version{Major: 1, Minor: 18}, want: []string{"function:COUNT"}},
		{name: "function of the release", at: "SELECT ARRAY_SO‸ FROM orders", version: builtin.Version{Major: 2, Minor: 0}, want: []string{"function:ARRAY_SORT"}},
		{name: "sink column list", at: "INSERT INTO enriched (‸", want: []string{"column:order_id", "column:name", "column:amount"}},
		{name: "WATERMARK FOR", at: "CREATE TABLE clicks (url STRING, ts TIMESTAMP(3), WATERMARK FOR ‸", want: []string{"column:url", "column:ts"}},
		{name: "PRIMARY KEY", at: "CREATE TABLE dim (id BIGINT, name STRING, PRIMARY KEY (‸", want: []string{"column:id", "column:name"}},
		{name: "subquery columns", at: "SELECT * FROM (SELECT order_id, amount * 2 AS doubled FROM orders) AS s WHERE s.‸", want: []string{"column:order_id", "column:doubled"}},
		{name: "CTE columns", at: "WITH totals AS (SELECT user_id, SUM(amount) AS total FROM orders GROUP BY user_id)\nSELECT t.‸ FROM totals t", want: []string{"column:user_id", "column:total"}},
		{name: "CTE columns in INSERT", at: "INSERT INTO enriched\nWITH x AS (SELECT order_id FROM orders)\nSELECT ‸ FROM x", want: []string{"column:order_id", "function:COALESCE"}},
		{name: "inside a subquery", at: "SELECT * FROM (SELECT ‸ FROM users) AS s", want: []string{"column:id", "column:name", "column:country"}},
		// types
		{name: "column type", at: "CREATE TABLE t (a ‸", want: []string{"keyword:STRING", "keyword:BIGINT", "keyword:INT"}},
		{name: "column type prefix", at: "CREATE TABLE t (a TIMES‸", want: []string{"keyword:TIMESTAMP", "keyword:TIMESTAMP_LTZ"}},
		// WITH options
		{name: "WITH first key", at: "CREATE TABLE t (a INT) WITH (‸", want: []string{"option:'connector'"}},
		{name: "connector values", at: "CREATE TABLE t (a INT) WITH ('connector' = '‸", want: []string{"value:blackhole", "value:datagen"}},
		{name: "connector value prefix", at: "CREATE TABLE t (a INT) WITH ('connector' = 'ka‸", want: []string{"value:kafka"}, prefix: "ka"},
		{name: "kafka keys, required first", at: kafka + "'‸", want: []string{"option:properties.bootstrap.servers", "option:topic"}, not: []string{"option:connector"}},
		{name: "kafka keys unquoted", at: kafka + "‸", want: []string{"option:'properties.bootstrap.servers'", "option:'topic'"}},
		{name: "kafka key prefix", at: kafka + "'scan.st‸", want: []string{"option:scan.startup.mode", "option:scan.startup.specific-offsets"}},
		{name: "set keys are not offered again", at: kafka + "'topic' = 'clicks',\n  'to‸", want: []string{"option:topic-pattern"}, not: []string{"option:topic"}},
		{name: "format values", at: kafka + "'format' = '‸", want: []string{"value:avro", "value:avro-confluent"}},
		{name: "format options", at: kafka + "'format' = 'json',\n  'json.‸", want: []string{"option:json.fail-on-missing-field", "option:json.ignore-parse-errors"}},
		{name: "format options before the format", at: kafka + "'json.‸',\n  'format' = 'json'", want: []string{"option:json.fail-on-missing-field"}},
		{name: "enum values", at: kafka + "'scan.startup.mode' = '‸", want: []string{"value:earliest-offset", "value:latest-offset", "value:group-offsets"}},
		{name: "boolean values", at: kafka + "'format' = 'json', 'json.ignore-parse-errors' = '‸", want: []string{"value:true", "value:false"}},
		{name: "jdbc lookup cache", at: "CREATE TABLE d (id INT) WITH ('connector' = 'jdbc', 'lookup.cache' = '‸", want: []string{"value:NONE", "value:PARTIAL"}},
		{name: "option of a newer release is left out", at: "CREATE TABLE d (id INT) WITH ('connector' = 'jdbc', 'url' = 'x', 'table-name' = 'd', 'scan.par‸", version: builtin.Version{Major: 1, Minor: 18}, want: []string{"option:scan.partition.column"}, not: []string{"option:scan.parallelism"}},
		{name: "option of the release", at: "CREATE TABLE d (id INT) WITH ('connector' = 'jdbc', 'url' = 'x', 'table-name' = 'd', 'scan.par‸", version: builtin.Version{Major: 1, Minor: 19}, want: []string{"option:scan.partition.column", "option:scan.partition.num", "option:scan.partition.lower-bound", "option:scan.partition.upper-bound", "option:scan.parallelism"}},
		// hints
		{name: "hint names", at: "SELECT /*+ ‸ */ * FROM orders", want: []string{"hint:LOOKUP", "hint:OPTIONS", "hint:BROADCAST"}},
		{name: "hint name prefix", at: "SELECT /*+ LOO‸ */ * FROM orders", want: []string{"hint:LOOKUP"}},
		{name: "STATE_TTL is 1.18's", at: "SELECT /*+ STATE‸ */ * FROM orders", version: builtin.Version{Major: 1, Minor: 17}, not: []string{"hint:STATE_TTL"}},
		{name: "hints of every release stay", at: "SELECT /*+ LOO‸ */ * FROM orders", version: builtin.Version{Major: 1, Minor: 17}, want: []string{"hint:LOOKUP"}},
		{name: "LOOKUP keys", at: "SELECT /*+ LOOKUP('table'='users', '‸') */ * FROM orders", want: []string{"option:async", "option:output-mode"}, not: []string{"option:table"}},
		{name: "LOOKUP values", at: "SELECT /*+ LOOKUP('table'='users', 'output-mode'='‸') */ * FROM orders", want: []string{"value:ordered", "value:allow_unordered"}},
		{name: "OPTIONS of the table's connector", at: "SELECT * FROM orders /*+ OPTIONS('scan.startup.m‸') */", want: []string{"option:scan.startup.mode"}},
		// SET
		{name: "SET keys", at: "SET 'execution.run‸", want: []string{"option:execution.runtime-mode"}},
		{name: "SET values", at: "SET 'execution.runtime-mode' = '‸", want: []string{"value:streaming", "value:batch"}},
		// nothing where nothing fits
		{name: "in a comment", at: "-- the enrichment ‸", want: nil, not: []string{"keyword:SELECT"}},
		{name: "in a string literal", at: "SELECT * FROM orders WHERE name = 'Jo‸", not: []string{"keyword:SELECT", "column:name"}},
	}
	if len(cases) < 40 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := completeAt(completionDDL+tc.at, tc.version)
			var have []string
			for _, it := range got.Items {
				have = append(have, it.Kind.String()+":"+it.Text)
			}
			if len(have) < len(tc.want) || strings.Join(have[:len(tc.want)], " ") != strings.Join(tc.want, " ") {
				top := have
				if len(top) > len(tc.want)+4 {
					top = top[:len(tc.want)+4]
				}
				t.Errorf("top suggestions %v, want %v", top, tc.want)
			}
			for _, n := range tc.not {
				for _, h := range have {
					if h == n {
						t.Errorf("%s is suggested", n)
					}
				}
			}
			if tc.prefix != "" && got.Prefix != tc.prefix {
				t.Errorf("prefix %q, want %q", got.Prefix, tc.prefix)
			}
		})
	}
}

// TestCompleteDetails: what the popup and the status line show beside a
// suggestion comes from the catalogs.
func TestCompleteDetails(t *testing.T) {
	find := func(c Result, text string) Suggestion {
		for _, it := range c.Items {
			if it.Text == text {
				return it
			}
		}
		t.Fatalf("%s not suggested among %d", text, len(c.Items))
		return Suggestion{}
	}
	cols := completeAt(completionDDL+"SELECT o.‸ FROM orders o", builtin.Version{})
	if s := find(cols, "amount"); s.Detail != "DECIMAL(10, 2)" || s.Doc != "column of o" {
		t.Errorf("amount: %+v", s)
	}
	if s := find(cols, "order_time"); s.Detail != "TIMESTAMP(3) · event time" {
		t.Errorf("order_time: %+v", s)
	}
	fns := completeAt(completionDDL+"SELECT DATE_FOR‸", builtin.Version{})
	if s := find(fns, "DATE_FORMAT"); !strings.HasPrefix(s.Detail, "DATE_FORMAT(") || s.Doc == "" {
		t.Errorf("DATE_FORMAT: %+v", s)
	}
	opts := completeAt(completionDDL+"CREATE TABLE c (a INT) WITH ('connector' = 'kafka', 'scan.startup.m‸", builtin.Version{})
	if s := find(opts, "scan.startup.mode"); !strings.Contains(s.Detail, "default group-offsets") || s.Doc == "" {
		t.Errorf("scan.startup.mode: %+v", s)
	}
	at := completeAt("SELECT 1;\nSELECT o.am‸ FROM orders o", builtin.Version{})
	if at.Start != (ast.Pos{Offset: 19, Line: 2, Col: 10}) || at.Prefix != "am" {
		t.Errorf("start %+v prefix %q", at.Start, at.Prefix)
	}
}

// TestCompleteKnownTables: tables from a catalog (Options.KnownTables)
// complete like the script's own.
func TestCompleteKnownTables(t *testing.T) {
	src := "SELECT d.‸ FROM dim.customers AS d"
	i := strings.Index(src, "‸")
	src = src[:i] + src[i+len("‸"):]
	c := At(src, 1, i+1, flinksql.Options{KnownTables: map[string]*flinksql.TableInfo{
		"dim.customers": {Columns: []flinksql.ColumnInfo{{Name: "cid"}, {Name: "tier"}}},
	}})
	if len(c.Items) != 2 || c.Items[0].Text != "cid" || c.Items[1].Text != "tier" {
		t.Fatalf("%+v", c.Items)
	}
}

// TestDescribe: the status line's description of the function or option
// under the cursor.
func TestDescribe(t *testing.T) {
	for _, tc := range []struct{ at, want string }{
		{"SELECT DATE_F‸ORMAT(order_time, 'yyyy') FROM orders", "DATE_FORMAT("},
		{"CREATE TABLE c (a INT) WITH ('connector' = 'kafka', 'scan.sta‸rtup.mode' = 'latest-offset')", "Enum, default group-offsets"},
		{"SELECT /*+ LOO‸KUP('table'='users') */ * FROM orders", "LOOKUP('table'"},
		{"SELECT order_‸id FROM orders", ""},
	} {
		i := strings.Index(tc.at, "‸")
		src := tc.at[:i] + tc.at[i+len("‸"):]
		s, ok := Describe(completionDDL+src, strings.Count(completionDDL, "\n")+1, i+1, flinksql.Options{})
		if ok != (tc.want != "") || !strings.HasPrefix(s.Detail, tc.want) {
			t.Errorf("%s: %+v %v, want %q", tc.at, s, ok, tc.want)
		}
	}
}

// TestCompleteRegisteredFunctions: an expression completes the registry's
// functions by the names they were registered with, with the signature.
func TestCompleteRegisteredFunctions(t *testing.T) {
	src := "CREATE TABLE t (s STRING) WITH ('connector' = 'datagen');\nSELECT ma FROM t"
	c := At(src, 2, 10, flinksql.Options{Functions: map[string]flinksql.FunctionInfo{"MASK_PAN": {Name: "mask_pan", Signature: "(STRING) -> STRING"}}})
	found := false
	for _, it := range c.Items {
		if it.Text == "mask_pan" && it.Kind == Function && it.Detail == "(STRING) -> STRING" {
			found = true
		}
	}
	if !found {
		t.Errorf("completion of ma: %+v", c.Items)
	}
}
