-- Common production patterns: CDC source, interval join, dedup, Top-N,
-- UDFs, nested rows, temporal table function, CTAS, Hive catalog.
CREATE FUNCTION parse_ua AS 'com.example.udf.ParseUserAgent' LANGUAGE JAVA USING JAR 'hdfs:///udf/ua.jar';

CREATE TABLE mysql_orders (
  id BIGINT,
  customer ROW<name STRING, address ROW<city STRING, zip STRING>>,
  items ARRAY<ROW<sku STRING, qty INT>>,
  ua STRING,
  created_at TIMESTAMP(3),
  PRIMARY KEY (id) NOT ENFORCED,
  WATERMARK FOR created_at AS created_at - INTERVAL '3' SECOND
) WITH (
  'connector' = 'mysql-cdc',
  'hostname' = 'mysql',
  'port' = '3306',
  'username' = 'flink',
  'password' = 'secret',
  'database-name' = 'shop',
  'table-name' = 'orders'
);

CREATE TABLE shipments (
  order_id BIGINT,
  shipped_at TIMESTAMP(3),
  WATERMARK FOR shipped_at AS shipped_at - INTERVAL '3' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'shipments',
  'properties.bootstrap.servers' = 'kafka:9092',
  'scan.startup.mode' = 'timestamp',
  'scan.startup.timestamp-millis' = '1700000000000',
  'format' = 'csv',
  'csv.ignore-parse-errors' = 'true'
);

CREATE TABLE report (
  id BIGINT,
  city STRING,
  device STRING,
  hours_to_ship BIGINT,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'jdbc',
  'url' = 'jdbc:postgresql://pg:5432/bi',
  'table-name' = 'report',
  'sink.buffer-flush.max-rows' = '500'
);

-- Interval join, nested field access, UDF.
INSERT INTO report
SELECT o.id, o.customer.address.city, parse_ua(o.ua), TIMESTAMPDIFF(HOUR, o.created_at, s.shipped_at)
FROM mysql_orders AS o, shipments AS s
WHERE o.id = s.order_id
  AND s.shipped_at BETWEEN o.created_at AND o.created_at + INTERVAL '7' DAY;

-- Deduplication and Top-N.
SELECT id, created_at
FROM (
  SELECT id, created_at, ROW_NUMBER() OVER (PARTITION BY id ORDER BY created_at DESC) AS rn
  FROM mysql_orders
)
WHERE rn = 1;

SELECT city, cnt
FROM (
  SELECT city, cnt, ROW_NUMBER() OVER (ORDER BY cnt DESC) AS rk
  FROM (SELECT o.customer.address.city AS city, COUNT(*) AS cnt FROM mysql_orders AS o GROUP BY o.customer.address.city)
)
WHERE rk <= 10;

-- Unnest an array of rows.
SELECT o.id, i.sku, i.qty
FROM mysql_orders AS o
CROSS JOIN UNNEST(o.items) AS i (sku, qty);

-- CTAS into a print table.
CREATE TABLE daily_counts WITH ('connector' = 'print') AS
SELECT CAST(created_at AS DATE) AS d, COUNT(*) AS n FROM mysql_orders GROUP BY CAST(created_at AS DATE);

-- Switching to a Hive catalog: tables there are not checked.
CREATE CATALOG hive WITH ('type' = 'hive', 'hive-conf-dir' = '/etc/hive/conf');
USE CATALOG hive;
INSERT INTO dw.orders_history SELECT id, created_at FROM default_catalog.default_database.mysql_orders;
