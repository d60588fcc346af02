package demo

import (
	"context"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// fleet are the SQL jobs of the demo, by name stem: the fleet's i-th job
// is fleet[i%len(fleet)], numbered from its second round (createJob).
var fleet = []struct{ name, sql string }{
	{"orders-enrich", sqlEnrich},
	{"payments-dedup", sqlDedup},
	{"clicks-to-hudi", sqlClicks},
	{"user-features", sqlFeatures},
	{"fraud-scoring", sqlFraud},
	{"inventory-sync", sqlClicks},
}

const sqlEnrich = `-- Enrich orders with the user dimension (async lookup join).
CREATE TABLE orders (
  order_id BIGINT,
  user_id BIGINT,
  amount DECIMAL(10, 2),
  proc_time AS PROCTIME()
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders',
  'properties.bootstrap.servers' = 'kafka:9092',
  'format' = 'json'
);
CREATE TABLE users (
  id BIGINT,
  name STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'jdbc',
  'url' = 'jdbc:mysql://dim-db:3306/app',
  'table-name' = 'users'
);
CREATE TABLE enriched (
  order_id BIGINT,
  name STRING,
  amount DECIMAL(10, 2)
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders-enriched',
  'properties.bootstrap.servers' = 'kafka:9092',
  'format' = 'json'
);
INSERT INTO enriched
SELECT o.order_id, u.name, o.amount
FROM orders AS o
LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id;
`

// sqlFeatures defines only its sink: orders and users are the
// cluster's catalog tables (tables), injected when it is checked,
// debugged and deployed.
const sqlFeatures = `-- Orders with the user's name. orders and users come from the
-- cluster's table catalog (:tables): this script defines only its sink.
CREATE TABLE enriched (
  order_id BIGINT,
  name STRING,
  amount DECIMAL(10, 2)
) WITH (
  'connector' = 'kafka',
  'topic' = 'user-features',
  'properties.bootstrap.servers' = '${kafka}',
  'format' = 'json'
);
INSERT INTO enriched
SELECT o.order_id, u.name, o.amount
FROM orders AS o
LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id;
`

// sqlFraud calls the registered UDF risk_score (udf) without
// creating it: the deploy does.
const sqlFraud = `-- Score payments with the fraud team's model: risk_score is in the
-- UDF registry (:udfs), created for this job when it is deployed.
CREATE TABLE payments (
  payment_id STRING,
  amount DOUBLE,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'payments',
  'properties.bootstrap.servers' = '${kafka}',
  'format' = 'json'
);
CREATE TABLE payment_risk (
  payment_id STRING,
  amount DOUBLE,
  risk DOUBLE
) WITH (
  'connector' = 'kafka',
  'topic' = 'payment-risk',
  'properties.bootstrap.servers' = '${kafka}',
  'format' = 'json'
);
INSERT INTO payment_risk
SELECT payment_id, amount, risk_score(payment_id, amount) FROM payments;
`

const sqlDedup = `CREATE TABLE payments (
  payment_id STRING,
  amount DOUBLE,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'payments',
  'properties.bootstrap.servers' = 'kafka:9092',
  'format' = 'json'
);
CREATE TABLE payments_unique (
  payment_id STRING,
  amount DOUBLE,
  ts TIMESTAMP(3),
  PRIMARY KEY (payment_id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'payments-unique',
  'properties.bootstrap.servers' = 'kafka:9092',
  'key.format' = 'json',
  'value.format' = 'json'
);
INSERT INTO payments_unique
SELECT payment_id, amount, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY payment_id ORDER BY ts) AS rn FROM payments
) WHERE rn = 1;
`

const sqlClicks = `CREATE TABLE clicks (
  user_id BIGINT,
  url STRING,
  ts TIMESTAMP(3)
) WITH (
  'connector' = 'datagen',
  'rows-per-second' = '1000'
);
CREATE TABLE clicks_sink (
  user_id BIGINT,
  url STRING,
  ts TIMESTAMP(3)
) WITH (
  'connector' = 'blackhole'
);
INSERT INTO clicks_sink SELECT user_id, url, ts FROM clicks WHERE url IS NOT NULL;
`

// live keeps things happening once the fleet has lived its hour: the
// failing jobs fail again after each policy restart, until the policy
// gives up on them, and now and then a job is interrupted.
func (d *World) live(ctx context.Context) {
	svc, c, log := d.svc, d.c, d.log
	failed := map[string]bool{}
	for tick := 1; ; tick++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(2 * time.Second):
		}
		jobs, err := svc.ListJobs(ctx, api.JobFilter{})
		if err != nil {
			continue
		}
		var running []api.JobView
		for _, j := range jobs {
			if j.State != model.StateRunning || j.Pending != nil || j.AppID == "" {
				continue
			}
			running = append(running, j)
			if failing[j.Name] && !failed[j.AppID] {
				failed[j.AppID] = true
				if _, err := c.FailJobAs(j.AppID, sim.Failure{Cause: timeoutException}); err != nil {
					log.Warn("demo: fail", "job", j.Name, "err", err)
				}
			}
		}
		if tick%45 == 0 && len(running) > 0 { // about every 90s
			j := running[(tick/45)%len(running)]
			if err := c.InterruptJob(j.AppID); err != nil {
				log.Warn("demo: interrupt", "job", j.Name, "err", err)
			}
		}
	}
}
