-- A lookup-join job as palink's SQL editor shows it (SCREENS.md), complete.
SET 'pipeline.name' = 'orders-enrich';
SET 'table.exec.async-lookup.buffer-capacity' = '100';

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
  'properties.group.id' = 'orders-enrich',
  'scan.startup.mode' = 'latest-offset',
  'format' = 'json',
  'json.ignore-parse-errors' = 'true'
);

CREATE TABLE users (
  id BIGINT,
  name STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'jdbc',
  'url' = 'jdbc:mysql://dim-db:3306/app',
  'table-name' = 'users',
  'lookup.cache' = 'PARTIAL',
  'lookup.partial-cache.max-rows' = '10000',
  'lookup.partial-cache.expire-after-write' = '10 min'
);

CREATE TABLE enriched (
  order_id BIGINT,
  name STRING,
  doubled DECIMAL(10, 2),
  big BOOLEAN
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders-enriched',
  'properties.bootstrap.servers' = 'kafka:9092',
  'format' = 'json'
);

INSERT INTO enriched
SELECT /*+ LOOKUP('table'='users', 'async'='true', 'output-mode'='allow_unordered') */
  o.order_id, u.name, o.amount * 2 AS doubled, o.amount > 100 AS big
FROM orders AS o
LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id
WHERE o.amount IS NOT NULL;
