package flinksql

import (
	"fmt"
	"strings"
	"testing"
)

// Shared DDL for the validator tests.
const (
	ddlOrders = `CREATE TABLE orders (
  order_id BIGINT, user_id BIGINT, amount DECIMAL(10, 2), order_time TIMESTAMP(3),
  proc_time AS PROCTIME(),
  WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH ('connector' = 'kafka', 'topic' = 'orders', 'properties.bootstrap.servers' = 'k:9092', 'format' = 'json');
`
	ddlUsers = `CREATE TABLE users (
  id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'jdbc', 'url' = 'jdbc:mysql://db:3306/app', 'table-name' = 'users');
`
	ddlSink = `CREATE TABLE enriched (order_id BIGINT, name STRING)
WITH ('connector' = 'print');
`
)

// diagAt describes one expected diagnostic: code, severity and where.
type diagAt struct {
	code      string
	sev       Severity
	line, col int
	msg       string // substring of the message with hint
}

func (d diagAt) String() string {
	return fmt.Sprintf("%s %s at %d:%d %q", d.sev, d.code, d.line, d.col, d.msg)
}

func TestValidateRules(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []diagAt
	}{
		{
			name: "unknown option with did you mean (SCREENS.md example)",
			src:  "CREATE TABLE users (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED)\nWITH ('connector' = 'jdbc', 'url' = 'jdbc:mysql://dim-db:3306/app', 'table-nam' = 'users');",
			want: []diagAt{
				{CodeMissingOption, SeverityError, 1, 14, "needs the 'table-name' option"},
				{CodeUnknownOption, SeverityError, 2, 69, "unknown option 'table-nam'; did you mean 'table-name'?"},
			},
		},
		{
			name: "missing connector",
			src:  "CREATE TABLE t (a INT);",
			want: []diagAt{{CodeMissingConnector, SeverityError, 1, 14, "table 't' has no 'connector' option"}},
		},
		{
			name: "no connector needed in a catalog the script does not define",
			src:  "USE CATALOG hive;\nCREATE TABLE t (a INT);",
		},
		{
			name: "kafka required options",
			src:  "CREATE TABLE k (a INT) WITH ('connector' = 'kafka', 'format' = 'json');",
			want: []diagAt{
				{CodeMissingOption, SeverityError, 1, 14, "'topic' or 'topic-pattern'"},
				{CodeMissingOption, SeverityError, 1, 14, "'properties.bootstrap.servers'"},
			},
		},
		{
			name: "kafka format options are checked under their prefix",
			src: `CREATE TABLE k (a INT) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b',
 'value.format' = 'json', 'value.json.ignore-parse-eror' = 'true', 'properties.max.poll.records' = '10');`,
			want: []diagAt{{CodeUnknownOption, SeverityError, 2, 27, "did you mean 'value.json.ignore-parse-errors'?"}},
		},
		{
			name: "kafka key.format needs key.fields naming real columns",
			src: `CREATE TABLE k (a INT, b STRING) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b',
 'key.format' = 'json', 'value.format' = 'json');
CREATE TABLE k2 (a INT, b STRING) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b',
 'key.format' = 'json', 'key.fields' = 'a;c', 'value.format' = 'json');`,
			want: []diagAt{
				{CodeMissingOption, SeverityError, 2, 2, "'key.format' needs 'key.fields'"},
				{CodeUnknownColumn, SeverityError, 4, 40, "'key.fields' names 'c'"},
			},
		},
		{
			name: "bad enum value",
			src:  "CREATE TABLE k (a INT) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b', 'format' = 'csv', 'scan.startup.mode' = 'earliest');",
			want: []diagAt{{CodeBadOptionValue, SeverityError, 1, 146, "invalid value 'earliest' for 'scan.startup.mode'"}},
		},
		{
			name: "upsert-kafka needs a primary key and both formats",
			src:  "CREATE TABLE u (a INT) WITH ('connector' = 'upsert-kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b', 'value.format' = 'json');",
			want: []diagAt{
				{CodeMissingOption, SeverityError, 1, 14, "needs the 'key.format' option"},
				{CodeMissingPrimaryKey, SeverityError, 1, 14, "upsert-kafka table 'u' needs a primary key"},
			},
		},
		{
			name: "filesystem needs path and format",
			src:  "CREATE TABLE f (a INT) WITH ('connector' = 'filesystem');",
			want: []diagAt{
				{CodeMissingOption, SeverityError, 1, 14, "'path'"},
				{CodeMissingOption, SeverityError, 1, 14, "'format'"},
			},
		},
		{
			name: "datagen field options name columns",
			src:  "CREATE TABLE g (id INT) WITH ('connector' = 'datagen', 'fields.idd.kind' = 'sequence', 'fields.id.kind' = 'random', 'fields.id.mn' = '1');",
			want: []diagAt{
				{CodeUnknownColumn, SeverityError, 1, 56, "names no column of 'g'; did you mean 'id'?"},
				{CodeUnknownOption, SeverityError, 1, 117, "unknown datagen field option 'mn'; did you mean 'min'?"},
			},
		},
		{
			name: "print and blackhole take no required options",
			src:  "CREATE TABLE p (a INT) WITH ('connector' = 'print');\nCREATE TABLE b (a INT) WITH ('connector' = 'blackhole');",
		},
		{
			name: "unknown connector close to a known one",
			src:  "CREATE TABLE k (a INT) WITH ('connector' = 'kafak');",
			want: []diagAt{{CodeBadOptionValue, SeverityWarning, 1, 44, "unknown connector 'kafak'; did you mean 'kafka'?"}},
		},
		{
			name: "duplicate column and table",
			src:  "CREATE TABLE t (a INT, a STRING) WITH ('connector' = 'print');\nCREATE TABLE t (a INT) WITH ('connector' = 'print');",
			want: []diagAt{
				{CodeDuplicateColumn, SeverityError, 1, 24, "column 'a' is defined twice"},
				{CodeDuplicateTable, SeverityError, 2, 14, "table 't' is already defined"},
			},
		},
		{
			name: "primary key must be NOT ENFORCED and name columns",
			src:  "CREATE TABLE t (a INT, PRIMARY KEY (b)) WITH ('connector' = 'print');",
			want: []diagAt{
				{CodeBadPrimaryKey, SeverityError, 1, 24, "must be declared NOT ENFORCED"},
				{CodeBadPrimaryKey, SeverityError, 1, 37, "primary key column 'b' is not a column of 't'"},
			},
		},
		{
			name: "watermark on a missing or non-timestamp column",
			src:  "CREATE TABLE t (a INT, ts TIMESTAMP(3), WATERMARK FOR a AS a, WATERMARK FOR tss AS tss) WITH ('connector' = 'print');",
			want: []diagAt{
				{CodeBadWatermark, SeverityError, 1, 55, "watermark column 'a' is INT"},
				{CodeSyntax, SeverityError, 1, 63, "multiple WATERMARK statements are not supported"},
				{CodeBadWatermark, SeverityError, 1, 77, "watermark column 'tss' is not a column of 't'; did you mean 'ts'?"},
			},
		},
		{
			name: "unknown table and column in a query",
			src:  ddlOrders + "SELECT order_idd FROM orders;\nSELECT 1 FROM orderz;",
			want: []diagAt{
				{CodeUnknownColumn, SeverityError, 6, 8, "unknown column 'order_idd'; did you mean 'order_id'?"},
				{CodeUnknownTable, SeverityError, 7, 15, "unknown table 'orderz'; did you mean 'orders'?"},
			},
		},
		{
			name: "qualified column of an alias",
			src:  ddlOrders + ddlUsers + "SELECT o.amout, u.nme FROM orders AS o JOIN users AS u ON o.user_id = u.id;",
			want: []diagAt{
				{CodeUnknownColumn, SeverityError, 9, 8, "unknown column 'amout' in 'o'; did you mean 'amount'?"},
				{CodeUnknownColumn, SeverityError, 9, 17, "unknown column 'nme' in 'u'; did you mean 'name'?"},
			},
		},
		{
			name: "ambiguous column and duplicate alias",
			src: "CREATE TABLE a (id INT) WITH ('connector' = 'print');\nCREATE TABLE b (id INT) WITH ('connector' = 'print');\n" +
				"SELECT id FROM a JOIN b ON a.id = b.id;\nSELECT 1 FROM a AS x, b AS x;\nSELECT id FROM a JOIN b USING (id);",
			want: []diagAt{
				{CodeAmbiguousColumn, SeverityError, 3, 8, "column 'id' is ambiguous: it is in 'a' and 'b'"},
				{CodeDuplicateAlias, SeverityError, 4, 23, "'x' appears twice"},
			},
		},
		{
			name: "scopes: CTE, view, subquery, UNNEST alias, select alias in ORDER BY",
			src: ddlOrders + "CREATE VIEW big AS SELECT order_id, amount * 2 AS dbl FROM orders;\n" +
				"WITH c AS (SELECT user_id, SUM(amount) AS total FROM orders GROUP BY user_id)\n" +
				"SELECT c.user_id, b.dbl, t.x, s.n AS renamed FROM c, big AS b, UNNEST(ARRAY[1, 2]) AS t (x), (SELECT 1 AS n) AS s\n" +
				"WHERE b.order_id IN (SELECT order_id FROM orders WHERE amount > c.total) ORDER BY renamed;\n" +
				"SELECT dbl2 FROM big;",
			want: []diagAt{{CodeUnknownColumn, SeverityError, 10, 8, "unknown column 'dbl2'; did you mean 'dbl'?"}},
		},
		{
			name: "unknown columns in GROUP BY, HAVING and ORDER BY",
			src: ddlOrders + "SELECT COUNT(*) FROM orders GROUP BY user_idd;\n" +
				"SELECT user_id FROM orders GROUP BY user_id HAVING SUM(amout) > 1;\n" +
				"SELECT order_id FROM orders ORDER BY order_idd;\n" +
				"SELECT order_id FROM orders UNION ALL SELECT order_id FROM orders ORDER BY order_idd;\n" +
				"SELECT user_id AS u, COUNT(*) AS n FROM orders GROUP BY user_id HAVING COUNT(*) > 1 ORDER BY n, u;",
			want: []diagAt{
				{CodeUnknownColumn, SeverityError, 6, 38, "unknown column 'user_idd'; did you mean 'user_id'?"},
				{CodeUnknownColumn, SeverityError, 7, 56, "unknown column 'amout'; did you mean 'amount'?"},
				{CodeUnknownColumn, SeverityError, 8, 38, "unknown column 'order_idd'; did you mean 'order_id'?"},
				{CodeUnknownColumn, SeverityError, 9, 76, "unknown column 'order_idd'; did you mean 'order_id'?"},
			},
		},
		{
			name: "a select alias is visible in GROUP BY and HAVING",
			src:  ddlOrders + "SELECT user_id AS u, COUNT(*) AS n FROM orders GROUP BY u HAVING n > 1;",
		},
		{
			name: "VALUES columns are named EXPR$0, EXPR$1, …",
			src: ddlOrders + "SELECT v.EXPR$0, v.EXPR$1 FROM (VALUES (1, 2)) AS v;\n" +
				"SELECT v.EXPR$2 FROM (VALUES (1, 2)) AS v;",
			want: []diagAt{{CodeUnknownColumn, SeverityError, 7, 8, "unknown column 'EXPR$2' in 'v'; did you mean 'EXPR$0'?"}},
		},
		{
			name: "UNNEST's arguments are checked against the FROM clause",
			src:  ddlOrders + "SELECT t.x FROM orders AS o CROSS JOIN UNNEST(o.nosuch) AS t (x);",
			want: []diagAt{{CodeUnknownColumn, SeverityError, 6, 47, "unknown column 'nosuch' in 'o'"}},
		},
		{
			name: "'did you mean' breaks a tie by name, not by the order columns are declared in",
			src:  "CREATE TABLE tt (bx INT, ax INT) WITH ('connector' = 'datagen');\nSELECT cx FROM tt;",
			want: []diagAt{{CodeUnknownColumn, SeverityError, 2, 8, "unknown column 'cx'; did you mean 'ax'?"}},
		},
		{
			name: "scopes: WHERE, JOIN ON and FOR SYSTEM_TIME AS OF see the FROM clause, not the select aliases",
			src: ddlOrders + ddlUsers +
				"SELECT order_id FROM orders WHERE amout > 1;\n" +
				"SELECT amount * 2 AS dbl FROM orders WHERE dbl > 1;\n" +
				"SELECT o.order_id FROM orders AS o JOIN users AS u ON o.user_idd = u.id;\n" +
				"SELECT o.order_id FROM orders AS o JOIN users FOR SYSTEM_TIME AS OF o.proc_tim AS u ON o.user_id = u.id;\n" +
				"SELECT o.amout FROM (orders AS o JOIN users AS u ON o.user_id = u.id);\n" +
				"SELECT amount AS a FROM orders WHERE EXISTS (SELECT 1 FROM users HAVING a > 1);\n" +
				"SELECT amount AS a FROM orders ORDER BY a.b;\n" +
				"SELECT amount AS total FROM orders ORDER BY totl;\n" +
				"SELECT order_id FROM orders ORDER BY order_id LIMIT amount;",
			want: []diagAt{
				{CodeUnknownColumn, SeverityError, 9, 35, "unknown column 'amout'; did you mean 'amount'?"},
				{CodeUnknownColumn, SeverityError, 10, 44, "unknown column 'dbl'"},
				{CodeUnknownColumn, SeverityError, 11, 55, "unknown column 'user_idd' in 'o'; did you mean 'user_id'?"},
				{CodeUnknownColumn, SeverityError, 12, 69, "unknown column 'proc_tim' in 'o'; did you mean 'proc_time'?"},
				{CodeUnknownColumn, SeverityError, 13, 8, "unknown column 'amout' in 'o'; did you mean 'amount'?"},
				{CodeUnknownColumn, SeverityError, 14, 73, "unknown column 'a'; did you mean 'id'?"},
				{CodeUnknownColumn, SeverityError, 15, 41, "unknown column 'a.b'; no table or alias 'a' here"},
				{CodeUnknownColumn, SeverityError, 16, 45, "unknown column 'totl'; did you mean 'total'?"},
				{CodeUnknownColumn, SeverityError, 17, 53, "unknown column 'amount'"},
			},
		},
		{
			name: "scopes: VALUES rows, set operations and column aliases agree on widths",
			src: ddlOrders + ddlUsers +
				"VALUES (1, 2), (3);\n" +
				"VALUES (1, amout);\n" +
				"SELECT * FROM (VALUES (1, 2), (3, 4)) AS t (a, b) WHERE c > 1;\n" +
				"SELECT * FROM (VALUES (1, 2)) AS t (a, b, c);\n" +
				"SELECT order_id FROM orders UNION ALL SELECT order_id, user_id FROM orders;\n" +
				"SELECT * FROM hive.db.clicks UNION ALL SELECT order_id, user_id FROM orders;\n" +
				"SELECT * FROM hive.db.clicks AS s (a, b, c);\n" +
				"SELECT s.b FROM hive.db.clicks AS s (a);\n" +
				"SELECT s.EXPR$1 FROM (SELECT order_id, amount * 2 FROM orders) AS s;\n" +
				"VALUES ROW(), ROW(1), ROW(1);",
			want: []diagAt{
				{CodeInsertArity, SeverityError, 9, 16, "VALUES row has 1 values, the first row has 2"},
				{CodeUnknownColumn, SeverityError, 10, 12, "unknown column 'amout'"},
				{CodeUnknownColumn, SeverityError, 11, 57, "unknown column 'c'; did you mean 'a'?"},
				{CodeInsertArity, SeverityError, 12, 31, "alias 't' names 3 columns, the table has 2"},
				{CodeInsertArity, SeverityError, 13, 1, "UNION of queries with 1 and 2 columns"},
				{CodeUnknownColumn, SeverityError, 16, 8, "unknown column 'b' in 's'; did you mean 'a'?"},
				{CodeInsertArity, SeverityError, 18, 15, "VALUES row has 1 values, the first row has 0"},
				{CodeInsertArity, SeverityError, 18, 23, "VALUES row has 1 values, the first row has 0"},
			},
		},
		{
			name: "scopes: WITH names once, and its column list replaces the query's",
			src: ddlOrders + ddlUsers +
				"WITH c AS (SELECT 1 AS x), c AS (SELECT 2 AS y) SELECT x FROM c;\n" +
				"WITH c (a, b) AS (SELECT order_id, user_id FROM orders) SELECT a, b, order_id FROM c;\n" +
				"WITH c (a) AS (SELECT * FROM hive.db.clicks) SELECT b FROM c;\n" +
				"WITH c AS (SELECT * FROM hive.db.clicks) SELECT b FROM c;\n" +
				"WITH c AS (SELECT 1 AS x) SELECT x FROM cc;",
			want: []diagAt{
				{CodeDuplicateAlias, SeverityError, 9, 28, "WITH defines 'c' twice"},
				{CodeUnknownColumn, SeverityError, 9, 56, "unknown column 'x'; did you mean 'y'?"},
				{CodeUnknownColumn, SeverityError, 10, 70, "unknown column 'order_id'"},
				{CodeUnknownColumn, SeverityError, 11, 53, "unknown column 'b'; did you mean 'a'?"},
				{CodeUnknownTable, SeverityError, 13, 41, "unknown table 'cc'; did you mean 'c'?"},
			},
		},
		{
			name: "scopes: SELECT * and qualified stars; the shape of what they expand",
			src: ddlOrders + ddlUsers +
				"SELECT *;\n" +
				"SELECT o.* FROM orders AS o;\n" +
				"SELECT x.* FROM orders AS o;\n" +
				"SELECT * FROM (SELECT * FROM hive.db.clicks) AS s WHERE s.anything = 1;\n" +
				"SELECT * FROM (SELECT * FROM orders) AS s WHERE s.anything = 1;\n" +
				"SELECT s.anything FROM (SELECT c.*, o.* FROM hive.db.clicks AS c, orders AS o) AS s;\n" +
				"SELECT s.n FROM (SELECT o.*, order_id + 1 AS n FROM orders AS o) AS s;",
			want: []diagAt{
				{CodeUnknownColumn, SeverityError, 9, 8, "SELECT * needs a FROM clause"},
				{CodeUnknownTable, SeverityError, 11, 8, "no table or alias 'x' in this FROM clause; did you mean 'o'?"},
				{CodeUnknownColumn, SeverityError, 13, 49, "unknown column 'anything' in 's'"},
			},
		},
		{
			name: "scopes: USING, NATURAL, LATERAL and duplicate aliases",
			src: ddlOrders + ddlUsers +
				"SELECT order_id FROM orders JOIN users USING (user_id);\n" +
				"SELECT id FROM users AS a JOIN users AS b USING (id);\n" +
				"SELECT id FROM hive.db.clicks AS c JOIN users AS u USING (id);\n" +
				"SELECT id, name FROM users AS a NATURAL JOIN users AS b;\n" +
				"SELECT * FROM orders AS o, LATERAL (SELECT o.order_id) AS s;\n" +
				"SELECT 1 FROM orders AS o, users AS o, orders AS o;\n" +
				"SELECT 1 FROM orders AS t, TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' MINUTE)) AS t;",
			want: []diagAt{
				{CodeUnknownColumn, SeverityError, 9, 47, "USING column 'user_id' is not in both joined tables"},
				{CodeDuplicateAlias, SeverityError, 14, 28, "'o' appears twice in this FROM clause; give one of them another alias with AS"},
				{CodeDuplicateAlias, SeverityError, 14, 40, "'o' appears twice in this FROM clause; give one of them another alias with AS"},
				{CodeDuplicateAlias, SeverityError, 15, 28, "'t' appears twice in this FROM clause; give one of them another alias with AS"},
			},
		},
		{
			name: "scopes: subqueries see the outer query; IN and ANY check both sides",
			src: ddlOrders + ddlUsers +
				"SELECT order_id FROM orders WHERE user_id IN (SELECT idd FROM users);\n" +
				"SELECT order_id FROM orders WHERE amout IN (SELECT id FROM users);\n" +
				"SELECT order_id FROM orders WHERE user_id = ANY (SELECT idd FROM users);\n" +
				"SELECT order_id FROM orders WHERE amout = ANY (SELECT id FROM users);\n" +
				"SELECT ARRAY(SELECT idd FROM users), MAP(SELECT idd, name FROM users), (SELECT MAX(idd) FROM users) FROM orders;\n" +
				"SELECT order_id FROM orders AS o WHERE EXISTS (SELECT 1 FROM users AS u WHERE u.id = o.user_idd);\n" +
				"SELECT order_id FROM orders AS ord WHERE EXISTS (SELECT 1 FROM users AS u WHERE ordr.user_id = u.id);\n" +
				"SELECT * FROM TABLE(my_tvf(amout, TABLE orderz));",
			want: []diagAt{
				{CodeUnknownColumn, SeverityError, 9, 54, "unknown column 'idd'; did you mean 'id'?"},
				{CodeUnknownColumn, SeverityError, 10, 35, "unknown column 'amout'; did you mean 'amount'?"},
				{CodeUnknownColumn, SeverityError, 11, 57, "unknown column 'idd'; did you mean 'id'?"},
				{CodeUnknownColumn, SeverityError, 12, 35, "unknown column 'amout'; did you mean 'amount'?"},
				{CodeUnknownColumn, SeverityError, 13, 21, "unknown column 'idd'; did you mean 'id'?"},
				{CodeUnknownColumn, SeverityError, 13, 49, "unknown column 'idd'; did you mean 'id'?"},
				{CodeUnknownColumn, SeverityError, 13, 84, "unknown column 'idd'; did you mean 'id'?"},
				{CodeUnknownColumn, SeverityError, 14, 86, "unknown column 'user_idd' in 'o'; did you mean 'user_id'?"},
				{CodeUnknownColumn, SeverityError, 15, 81, "unknown column 'ordr.user_id'; no table or alias 'ordr' here; did you mean 'ord'?"},
				{CodeUnknownColumn, SeverityError, 16, 28, "unknown column 'amout'"},
				{CodeUnknownTable, SeverityError, 16, 41, "unknown table 'orderz'; did you mean 'orders'?"},
			},
		},
		{
			name: "scopes: windows are defined once and seen from subqueries; OVER checks its arguments",
			src: ddlOrders + ddlUsers +
				"SELECT COUNT(*) OVER w FROM orders WINDOW w AS (ORDER BY proc_time), w AS (ORDER BY proc_time);\n" +
				"SELECT COUNT(*) OVER w2 FROM orders WINDOW w AS (ORDER BY proc_time);\n" +
				"SELECT (SELECT COUNT(*) OVER w FROM users) FROM orders WINDOW w AS (ORDER BY proc_time);\n" +
				"SELECT user_id AS u, COUNT(*) OVER w FROM orders WINDOW w AS (PARTITION BY u ORDER BY proc_time);\n" +
				"SELECT COUNT(amout) OVER (ORDER BY proc_time), COUNT(*) FILTER (WHERE amout > 1) OVER (ORDER BY proc_time) FROM orders;\n" +
				"SELECT SUM(amount) OVER (PARTITION BY user_idd ORDER BY proc_time) FROM orders;\n" +
				"SELECT COUNT(*) OVER (w2 ORDER BY proc_time) FROM orders WINDOW w AS (PARTITION BY user_id);",
			want: []diagAt{
				{CodeDuplicateAlias, SeverityError, 9, 70, "window 'w' is defined twice"},
				{CodeUnknownColumn, SeverityError, 10, 22, "unknown window 'w2'; define it in a WINDOW clause"},
				{CodeUnknownColumn, SeverityError, 12, 76, "unknown column 'u'"},
				{CodeUnknownColumn, SeverityError, 13, 14, "unknown column 'amout'; did you mean 'amount'?"},
				{CodeUnknownColumn, SeverityError, 13, 71, "unknown column 'amout'; did you mean 'amount'?"},
				{CodeUnknownColumn, SeverityError, 14, 39, "unknown column 'user_idd'; did you mean 'user_id'?"},
				{CodeUnknownColumn, SeverityError, 15, 23, "unknown window 'w2'"},
			},
		},
		{
			name: "scopes: qualified names and time attributes through views",
			src: ddlOrders + ddlUsers +
				"CREATE TABLE mydb.t (a INT) WITH ('connector' = 'print');\n" +
				"SELECT mydb.t.a, orders.amout FROM (SELECT 1 AS x) AS s, mydb.t, orders;\n" +
				"WITH s AS (SELECT order_id, PROCTIME() AS pt FROM orders) SELECT s.order_id FROM s JOIN users FOR SYSTEM_TIME AS OF s.pt AS u ON s.order_id = u.id;\n" +
				"WITH s AS (SELECT order_id, CAST(proc_time AS TIMESTAMP(3)) AS pt FROM orders) SELECT s.order_id FROM s JOIN users FOR SYSTEM_TIME AS OF s.pt AS u ON s.order_id = u.id;\n" +
				"WITH s AS (SELECT order_time + INTERVAL '1' SECOND AS t FROM orders) SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE s, DESCRIPTOR(t), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end;\n" +
				"WITH s AS (SELECT ts FROM hive.db.clicks) SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE s, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end;\n" +
				"SELECT * FROM hive.db.clicks MATCH_RECOGNIZE (ORDER BY ts MEASURES A.x AS ax PATTERN (A) DEFINE A AS A.y > 0) AS m;\n" +
				"SELECT * FROM orders MATCH_RECOGNIZE (ORDER BY order_time MEASURES A.amout AS x PATTERN (A) DEFINE A AS A.amount > 0) AS m;\n" +
				"WITH s AS (SELECT order_id AS t FROM orders) SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE s, DESCRIPTOR(t), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end;\n" +
				"WITH s AS (SELECT order_id, order_id AS pt FROM orders) SELECT s.order_id FROM s JOIN users FOR SYSTEM_TIME AS OF s.pt AS u ON s.order_id = u.id;",
			want: []diagAt{
				{CodeUnknownColumn, SeverityError, 10, 18, "unknown column 'amout' in 'orders'; did you mean 'amount'?"},
				{CodeLookupTimeAttr, SeverityWarning, 12, 138, "'s.pt' is not a processing-time attribute: a lookup join needs one; declare one in the probe table: proc_time AS PROCTIME()"},
				{CodeNoWatermark, SeverityWarning, 13, 138, "'t' of 's' is not a time attribute: windows over it never close; declare WATERMARK FOR t AS t - INTERVAL '5' SECOND (event time), or window on a column declared AS PROCTIME()"},
				{CodeUnknownColumn, SeverityError, 16, 68, "unknown column 'amout' in 'orders'; did you mean 'amount'?"},
				{CodeNoWatermark, SeverityWarning, 17, 114, "'t' of 's' is not a time attribute"},
				{CodeLookupTimeAttr, SeverityWarning, 18, 115, "'s.pt' is not a processing-time attribute"},
			},
		},
		{
			name: "PROCTIME() in a select list is a processing-time attribute; an expression over one is not",
			src: ddlOrders + ddlUsers +
				"WITH s AS (SELECT order_id, PROCTIME() AS pt FROM orders) SELECT s.order_id FROM s JOIN users FOR SYSTEM_TIME AS OF s.pt AS u ON s.order_id = u.id;\n" +
				"WITH s AS (SELECT order_id, CAST(proc_time AS TIMESTAMP(3)) AS pt FROM orders) SELECT s.order_id FROM s JOIN users FOR SYSTEM_TIME AS OF s.pt AS u ON s.order_id = u.id;",
			want: []diagAt{
				{CodeLookupTimeAttr, SeverityWarning, 10, 138, "'s.pt' is not a processing-time attribute"},
			},
		},
		{
			name: "derived table does not see its FROM siblings",
			src:  ddlOrders + "SELECT * FROM orders AS o, (SELECT o.order_id) AS s;",
			want: []diagAt{{CodeUnknownColumn, SeverityError, 6, 36, "unknown column 'o.order_id'; no table or alias 'o' here"}},
		},
		{
			name: "lookup join: fine, not a lookup source, no equality, event time",
			src: ddlOrders + ddlUsers + ddlSink +
				"INSERT INTO enriched SELECT o.order_id, u.name FROM orders AS o LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id;\n" +
				"SELECT o.order_id FROM orders AS o JOIN orders FOR SYSTEM_TIME AS OF o.proc_time AS p ON o.order_id = p.order_id;\n" +
				"SELECT o.order_id FROM orders AS o JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id > u.id;\n" +
				"SELECT o.order_id FROM orders AS o JOIN users FOR SYSTEM_TIME AS OF o.order_time AS u ON o.user_id = u.id;",
			want: []diagAt{
				{CodeLookupJoin, SeverityError, 12, 41, "'orders' (connector 'kafka') is not a lookup source"},
				{CodeLookupJoin, SeverityError, 13, 89, "needs an equality between one of its columns and the other side"},
				{CodeLookupJoin, SeverityError, 14, 41, "event-time temporal join needs 'users' to be a versioned table"},
				{CodeLookupTimeAttr, SeverityWarning, 14, 69, "'o.order_time' is an event-time attribute"},
			},
		},
		{
			name: "lookup join on a plain timestamp column is a warning",
			src: ddlUsers + "CREATE TABLE s (uid BIGINT, t TIMESTAMP(3)) WITH ('connector' = 'datagen');\n" +
				"SELECT s.uid FROM s JOIN users FOR SYSTEM_TIME AS OF s.t AS u ON s.uid = u.id;",
			want: []diagAt{{CodeLookupTimeAttr, SeverityWarning, 5, 54, "'s.t' is not a processing-time attribute"}},
		},
		{
			name: "INSERT arity, column list, unknown sink, view",
			src: ddlOrders + ddlSink + "CREATE VIEW v AS SELECT 1 AS x;\n" +
				"INSERT INTO enriched SELECT order_id FROM orders;\n" +
				"INSERT INTO enriched (order_id, nam) SELECT order_id, 'x' FROM orders;\n" +
				"INSERT INTO missing SELECT 1;\n" +
				"INSERT INTO v SELECT 1;",
			want: []diagAt{
				{CodeInsertArity, SeverityError, 9, 22, "the query produces 1 columns but sink 'enriched' takes 2"},
				{CodeUnknownColumn, SeverityError, 10, 33, "sink 'enriched' has no column 'nam'; did you mean 'name'?"},
				{CodeUnknownSink, SeverityError, 11, 13, "unknown sink table 'missing'"},
				{CodeInsertIntoView, SeverityError, 12, 13, "'v' is a view"},
			},
		},
		{
			name: "INSERT skips computed and virtual columns and static partitions",
			src: "CREATE TABLE s (a INT, b AS a + 1, m BIGINT METADATA FROM 'offset' VIRTUAL, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'filesystem', 'path' = '/x', 'format' = 'csv');\n" +
				"INSERT INTO s PARTITION (dt = '2024-01-01') SELECT 1;\nINSERT INTO s SELECT 1, '2024';",
		},
		{
			name: "SELECT * into a sink, updating query into kafka",
			src: ddlOrders + "CREATE TABLE o2 WITH ('connector' = 'print') LIKE orders;\n" +
				"CREATE TABLE totals (user_id BIGINT, total DECIMAL(10, 2)) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b', 'format' = 'json');\n" +
				"INSERT INTO o2 SELECT * FROM orders;\n" +
				"INSERT INTO totals SELECT user_id, SUM(amount) FROM orders GROUP BY user_id;\n" +
				"INSERT INTO o2 SELECT order_id, user_id, amount, order_time FROM orders;",
			want: []diagAt{
				// o2 inherits the computed proc_time, which an INSERT cannot write.
				{CodeInsertArity, SeverityError, 8, 16, "the query produces 5 columns but sink 'o2' takes 4"},
				{CodeSelectStar, SeverityWarning, 8, 23, "SELECT * into sink 'o2'"},
				{CodeAppendOnlySink, SeverityWarning, 9, 20, "produces updates but kafka sink 'totals' can only append"},
			},
		},
		{
			name: "updating query into a jdbc sink without a primary key",
			src: ddlOrders + "CREATE TABLE totals (user_id BIGINT, total DECIMAL(10, 2)) WITH ('connector' = 'jdbc', 'url' = 'jdbc:x', 'table-name' = 't');\n" +
				"INSERT INTO totals SELECT user_id, SUM(amount) FROM orders GROUP BY user_id;",
			want: []diagAt{{CodeMissingPrimaryKey, SeverityWarning, 7, 13, "sink 'totals' has no primary key"}},
		},
		{
			name: "window TVF over a column without watermark",
			src: "CREATE TABLE s (ts TIMESTAMP(3), v INT) WITH ('connector' = 'datagen');\n" +
				"SELECT window_start, SUM(v) FROM TABLE(TUMBLE(TABLE s, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end;\n" +
				"SELECT 1 FROM TABLE(TUMBLE(TABLE s, DESCRIPTOR(tz), INTERVAL '1' MINUTE));\n" +
				"SELECT SUM(v) FROM s GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);",
			want: []diagAt{
				{CodeNoWatermark, SeverityWarning, 2, 67, "'ts' of 's' is not a time attribute"},
				{CodeUnknownColumn, SeverityError, 3, 48, "unknown column 'tz' in 's'; did you mean 'ts'?"},
				{CodeNoWatermark, SeverityWarning, 4, 38, "'ts' is not a time attribute: the TUMBLE window never closes"},
			},
		},
		{
			name: "window TVF over processing time and event time is fine",
			src: ddlOrders + "SELECT window_start, COUNT(*) FROM TABLE(HOP(TABLE orders, DESCRIPTOR(proc_time), INTERVAL '1' MINUTE, INTERVAL '5' MINUTE)) GROUP BY window_start, window_end;\n" +
				"SELECT window_start, COUNT(*) FROM TABLE(CUMULATE(DATA => TABLE orders, TIMECOL => DESCRIPTOR(order_time), STEP => INTERVAL '1' MINUTE, SIZE => INTERVAL '1' HOUR)) GROUP BY window_start, window_end;",
		},
		{
			name: "LOOKUP hint names a table the query does not join",
			src:  ddlOrders + ddlUsers + "SELECT /*+ LOOKUP('table'='user') */ o.order_id FROM orders AS o JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id;",
			want: []diagAt{{CodeLookupJoin, SeverityWarning, 9, 12, "LOOKUP hint names 'user', which this query does not join; did you mean 'users'?"}},
		},
		{
			name: "dynamic OPTIONS hint keys are checked",
			src:  ddlOrders + "SELECT order_id FROM orders /*+ OPTIONS('scan.startup.mod'='latest-offset') */;",
			want: []diagAt{{CodeUnknownOption, SeverityError, 6, 41, "did you mean 'scan.startup.mode'?"}},
		},
		{
			name: "kafka metadata keys",
			src:  "CREATE TABLE k (a INT, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestmp') WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b', 'format' = 'json');",
			want: []diagAt{{CodeUnknownOption, SeverityError, 1, 58, "unknown kafka metadata key 'timestmp'; did you mean 'timestamp'?"}},
		},
		{
			name: "writing read-only kafka metadata",
			src: "CREATE TABLE k (a INT, off BIGINT METADATA FROM 'offset') WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b', 'format' = 'json');\n" +
				"INSERT INTO k SELECT 1, 2;",
			want: []diagAt{{CodeInsertArity, SeverityError, 2, 13, "writes metadata column 'off', which Kafka can only read"}},
		},
		{
			name: "tables in KnownTables or other catalogs are accepted",
			src:  "SELECT a FROM ext;\nSELECT x FROM hive.db.t;\nSELECT b FROM ext;",
			want: []diagAt{{CodeUnknownColumn, SeverityError, 3, 8, "unknown column 'b'; did you mean 'a'?"}},
		},
		{
			name: "a table whose CREATE failed to parse is not reported again",
			src:  "CREATE TABLE broken (a INT,, b INT) WITH ('connector' = 'print');\nSELECT a FROM broken;",
			want: []diagAt{{CodeSyntax, SeverityError, 1, 28, "expected a column name, found ','"}},
		},
		{
			name: "reserved word as a column name",
			src:  "CREATE TABLE t (value INT) WITH ('connector' = 'print');",
			want: []diagAt{{CodeReservedWord, SeverityError, 1, 17, "'value' is a reserved word in Flink SQL; quote it as `value`"}},
		},
		{
			name: "unprefixed format option with value.format",
			src:  "CREATE TABLE k (a INT) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b', 'value.format' = 'json', 'json.fail-on-missing-field' = 'false');",
			want: []diagAt{{CodeUnknownOption, SeverityError, 1, 131, "with 'value.format', format options take the 'value.' prefix: 'value.json.fail-on-missing-field'"}},
		},
		{
			name: "columns qualified with the table's full name",
			src:  "CREATE TABLE db.t (a INT) WITH ('connector' = 'print');\nSELECT db.t.a, t.a FROM db.t;\nSELECT db.t.b FROM db.t;",
			want: []diagAt{{CodeUnknownColumn, SeverityError, 3, 8, "unknown column 'db.t.b'"}},
		},
		{
			name: "typos in SET keys and function names",
			src: "SET 'execution.checkpointing.intervall' = '10s';\nSET 'my.own.key' = 'x';\nSET 'pipeline.name' = 'j';\n" +
				"CREATE FUNCTION my_parse AS 'a.B';\nSELECT UPPPER('a'), my_prase('x'), my_parse('y'), LOWER('b'), f1(1);",
			want: []diagAt{
				{CodeUnknownConfig, SeverityWarning, 1, 1, "did you mean 'execution.checkpointing.interval'?"},
				{CodeUnknownFunction, SeverityWarning, 5, 8, "unknown function 'UPPPER'; did you mean UPPER?"},
				{CodeUnknownFunction, SeverityWarning, 5, 21, "unknown function 'my_prase'; did you mean MY_PARSE?"},
			},
		},
		{
			name: "columns neither grouped nor aggregated",
			src: ddlOrders +
				"SELECT user_id, amount, SUM(amount) FROM orders GROUP BY user_id;\n" +
				"SELECT COUNT(*), order_id FROM orders;\n" +
				"SELECT user_id, COUNT(*) FROM orders GROUP BY order_id HAVING MAX(amount) > 1 AND user_id > 0;\n" +
				"SELECT window_start, user_id, COUNT(*) FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end;",
			want: []diagAt{
				{CodeNotGrouped, SeverityError, 6, 17, "'amount' is neither grouped nor aggregated"},
				{CodeNotGrouped, SeverityError, 7, 18, "'order_id' is neither grouped nor aggregated; add it to GROUP BY, or aggregate it, e.g. MAX(order_id)"},
				{CodeNotGrouped, SeverityError, 8, 8, "'user_id' is neither grouped nor aggregated"},
				{CodeNotGrouped, SeverityError, 8, 83, "'user_id' is neither grouped nor aggregated"},
				{CodeNotGrouped, SeverityError, 9, 22, "'user_id' is neither grouped nor aggregated"},
			},
		},
		{
			name: "grouped forms that are fine",
			src: ddlOrders +
				"SELECT o.user_id, COUNT(*) FROM orders AS o GROUP BY user_id;\n" +
				"SELECT amount + 1, COUNT(*) FROM orders GROUP BY amount + 1;\n" +
				"SELECT my_udaf(amount), user_id FROM orders GROUP BY user_id;\n" +
				"SELECT TUMBLE_START(order_time, INTERVAL '1' MINUTE), COUNT(*) FROM orders GROUP BY TUMBLE(order_time, INTERVAL '1' MINUTE);\n" +
				"SELECT user_id, CASE WHEN SUM(amount) > 10 THEN 'big' ELSE 'small' END FROM orders GROUP BY ROLLUP (user_id);\n" +
				"SELECT user_id, (SELECT MAX(amount) FROM orders AS i WHERE i.user_id = o.user_id) FROM orders AS o GROUP BY user_id;",
		},
		{
			name: "ALTER TABLE keeps the schema up to date",
			src: "CREATE TABLE t (a INT) WITH ('connector' = 'print');\nALTER TABLE t ADD b STRING;\nALTER TABLE t RENAME a TO c;\n" +
				"SELECT b, c FROM t;\nSELECT a FROM t;\nALTER TABLE t SET ('print-identifer' = 'x');",
			want: []diagAt{
				{CodeUnknownColumn, SeverityError, 5, 8, "unknown column 'a'"},
				{CodeUnknownOption, SeverityError, 6, 20, "did you mean 'print-identifier'?"},
			},
		},
	}
	known := map[string]*TableInfo{"ext": {Columns: []ColumnInfo{{Name: "a"}}, Connector: "kafka"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Check(tt.src, Options{KnownTables: known})
			var got []string
			for _, d := range r.Diagnostics {
				got = append(got, diagAt{d.Code, d.Severity, d.Pos.Line, d.Pos.Col, d.Message()}.String())
			}
			if len(r.Diagnostics) != len(tt.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(r.Diagnostics), len(tt.want), strings.Join(got, "\n"))
			}
			for i, w := range tt.want {
				d := r.Diagnostics[i]
				if d.Code != w.code || d.Severity != w.sev || d.Pos.Line != w.line || d.Pos.Col != w.col || !strings.Contains(d.Message(), w.msg) {
					t.Errorf("diagnostic %d:\n got %s\nwant %s", i, got[i], w)
				}
			}
		})
	}
}
