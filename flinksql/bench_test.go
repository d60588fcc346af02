package flinksql

import (
	"fmt"
	"strings"
	"testing"
)

// jobScript builds a script of at least n lines: groups of a Kafka source,
// a JDBC dimension, a sink, a view and an INSERT with a lookup join and a
// window aggregation, each group with its own names.
func jobScript(n int) string {
	var b strings.Builder
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, `-- group %[1]d
CREATE TABLE orders_%[1]d (
  order_id BIGINT,
  user_id BIGINT,
  amount DECIMAL(10, 2),
  tags ARRAY<STRING>,
  order_time TIMESTAMP(3),
  proc_time AS PROCTIME(),
  WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders-%[1]d',
  'properties.bootstrap.servers' = 'kafka:9092',
  'scan.startup.mode' = 'latest-offset',
  'format' = 'json'
);
CREATE TABLE users_%[1]d (
  id BIGINT,
  name STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'jdbc',
  'url' = 'jdbc:mysql://db:3306/app',
  'table-name' = 'users'
);
CREATE TABLE out_%[1]d (order_id BIGINT, name STRING, total DECIMAL(10, 2)) WITH ('connector' = 'print');
CREATE VIEW big_%[1]d AS SELECT order_id, user_id, amount * 2 AS doubled, proc_time FROM orders_%[1]d WHERE amount > 10;
INSERT INTO out_%[1]d
SELECT b.order_id, u.name, CASE WHEN b.doubled > 100 THEN b.doubled ELSE 0 END
FROM big_%[1]d AS b
LEFT JOIN users_%[1]d FOR SYSTEM_TIME AS OF b.proc_time AS u ON b.user_id = u.id;
SELECT window_start, window_end, user_id, SUM(amount) AS total, COUNT(DISTINCT order_id)
FROM TABLE(TUMBLE(TABLE orders_%[1]d, DESCRIPTOR(order_time), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, user_id;
`, i)
	}
	return b.String()
}

func TestJobScriptIsClean(t *testing.T) {
	r := Check(jobScript(200), Options{})
	if len(r.Diagnostics) > 0 {
		t.Fatalf("benchmark script has diagnostics: %v", r.Diagnostics[0])
	}
}

// BenchmarkParseValidate2000Lines measures Check (parse and validate) over
// a 2,000-line script, as the editor runs it on every pause in typing.
func BenchmarkParseValidate2000Lines(b *testing.B) {
	src := jobScript(2000)
	lines := strings.Count(src, "\n")
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := Check(src, Options{})
		if len(r.Diagnostics) != 0 {
			b.Fatal(r.Diagnostics[0])
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkFormat2000Lines measures Format over the same script.
func BenchmarkFormat2000Lines(b *testing.B) {
	script, errs := ParseScript(jobScript(2000))
	if len(errs) > 0 {
		b.Fatal(errs[0])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = Format(script)
	}
}

// BenchmarkComplete2000Lines measures Complete at a cursor near the end
// of a 2,000-line script, where an editor's cursor usually is: the column
// list of a view over a Kafka table, with a lookup join in the statement.
func BenchmarkComplete2000Lines(b *testing.B) {
	src := jobScript(2000) + "INSERT INTO out_3\nSELECT b.order_id, u.\nFROM big_3 AS b\n" +
		"LEFT JOIN users_3 FOR SYSTEM_TIME AS OF b.proc_time AS u ON b.user_id = u.id;\n"
	line := strings.Count(src, "\n") - 2
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := Complete(src, line, len("SELECT b.order_id, u.")+1, Options{})
		if len(c.Items) != 2 {
			b.Fatalf("%d suggestions: %+v", len(c.Items), c.Items)
		}
	}
}
