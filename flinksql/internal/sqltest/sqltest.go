// Package sqltest holds the Flink SQL fixtures that the tests and
// benchmarks of more than one flinksql package share, so a benchmark of
// completion and one of parsing read the same script.
package sqltest

import (
	"fmt"
	"strings"
)

// JobScript builds a script of at least n lines: groups of a Kafka source,
// a JDBC dimension, a sink, a view and an INSERT with a lookup join and a
// window aggregation, each group with its own names.
func JobScript(n int) string {
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
