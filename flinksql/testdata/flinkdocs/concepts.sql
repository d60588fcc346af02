-- Sources: apache/flink docs/content/docs/dev/table/concepts/{time_attributes,
-- versioned_tables,dynamic_tables,temporal_table_function}.md and
-- docs/content/docs/dev/table/sqlClient.md. WITH (...) placeholders filled in.

CREATE TABLE user_actions (
  user_name STRING,
  `data` STRING,
  user_action_time TIMESTAMP(3),
  -- declare user_action_time as event time attribute and use 5 seconds delayed watermark strategy
  WATERMARK FOR user_action_time AS user_action_time - INTERVAL '5' SECOND
) WITH ('connector' = 'datagen');

SELECT TUMBLE_START(user_action_time, INTERVAL '10' MINUTE), COUNT(DISTINCT user_name)
FROM user_actions
GROUP BY TUMBLE(user_action_time, INTERVAL '10' MINUTE);

CREATE TABLE user_actions_ltz (
  user_name STRING,
  `data` STRING,
  ts BIGINT,
  time_ltz AS TO_TIMESTAMP_LTZ(ts, 3),
  -- declare time_ltz as event time attribute and use 5 seconds delayed watermark strategy
  WATERMARK FOR time_ltz AS time_ltz - INTERVAL '5' SECOND
) WITH ('connector' = 'datagen');

CREATE TABLE user_actions_proc (
  user_name STRING,
  `data` STRING,
  user_action_time AS PROCTIME() -- declare an additional field as a processing time attribute
) WITH ('connector' = 'datagen');

SELECT TUMBLE_START(user_action_time, INTERVAL '10' MINUTE), COUNT(DISTINCT user_name)
FROM user_actions_proc
GROUP BY TUMBLE(user_action_time, INTERVAL '10' MINUTE);

CREATE TABLE product_changelog (
  product_id STRING,
  product_name STRING,
  product_price DECIMAL(10, 4),
  update_time TIMESTAMP(3) METADATA FROM 'value.source.timestamp' VIRTUAL,
  PRIMARY KEY(product_id) NOT ENFORCED,
  WATERMARK FOR update_time AS update_time
) WITH (
  'connector' = 'kafka',
  'topic' = 'products',
  'scan.startup.mode' = 'earliest-offset',
  'properties.bootstrap.servers' = 'localhost:9092',
  'value.format' = 'debezium-json'
);

CREATE TABLE RatesHistory (
    currency_time TIMESTAMP(3),
    currency STRING,
    rate DECIMAL(38, 10),
    WATERMARK FOR currency_time AS currency_time   -- defines the event time
) WITH (
  'connector' = 'kafka',
  'topic' = 'rates',
  'scan.startup.mode' = 'earliest-offset',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'                                -- this is an append only source
);

CREATE VIEW versioned_rates AS
SELECT currency, rate, currency_time            -- (1) `currency_time` keeps the event time
  FROM (
      SELECT *,
      ROW_NUMBER() OVER (PARTITION BY currency  -- (2) `currency` is the primary key of deduplicated query
         ORDER BY currency_time DESC) AS rowNum -- (3) order by the event time
      FROM RatesHistory)
WHERE rowNum = 1;

SELECT * FROM versioned_rates;

-- dynamic_tables.md
CREATE TABLE clicks (
  `user` VARCHAR,
  url VARCHAR,
  cTime TIMESTAMP(3)
) WITH ('connector' = 'datagen');

SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;

SELECT `user`, TUMBLE_END(cTime, INTERVAL '1' HOURS) AS endT, COUNT(url) AS cnt
FROM clicks
GROUP BY `user`, TUMBLE(cTime, INTERVAL '1' HOURS);

-- temporal_table_function.md
SELECT
  SUM(amount * rate) AS amount
FROM
  orders,
  LATERAL TABLE (rates(order_time))
WHERE
  rates.currency = orders.currency;

-- sqlClient.md
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'streaming';
SET 'parallelism.default' = '1';
SET 'table.exec.state.ttl' = '1000';
SET 'pipeline.name' = 'SqlJob';
SET 'execution.savepoint.path' = '/tmp/flink-savepoints/savepoint-cca7bc-bb1e257f0dab';
SET 'execution.checkpointing.interval' = '3min';
SET 'table.dml-sync' = 'true';

CREATE TEMPORARY TABLE users (
  user_id BIGINT,
  user_name STRING,
  user_level STRING,
  region STRING,
  PRIMARY KEY (user_id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'users',
  'properties.bootstrap.servers' = 'localhost:9092',
  -- watch out: schema evolution in the context of a Kafka key is almost never backward nor
  -- forward compatible due to hash partitioning
  'key.format' = 'csv',
  'value.format' = 'avro'
);

-- set sync mode
SET 'table.dml-sync' = 'true';

-- set the job name
SET 'pipeline.name' = 'SqlJob';

-- set the queue that the job submit to
SET 'yarn.application.queue' = 'root';

-- set the job parallelism
SET 'parallelism.default' = '100';

-- restore from the specific savepoint path
SET 'execution.savepoint.path' = '/tmp/flink-savepoints/savepoint-cca7bc-bb1e257f0dab';

CREATE TABLE pageviews_source (
  page_id BIGINT,
  viewtime TIMESTAMP(3),
  user_id BIGINT
) WITH ('connector' = 'datagen');

CREATE TABLE pageviews (
  page_id BIGINT,
  viewtime TIMESTAMP(3)
) WITH ('connector' = 'print');

CREATE TABLE uniqueview (
  page_id BIGINT,
  cnt BIGINT
) WITH ('connector' = 'print');

BEGIN STATEMENT SET;

INSERT INTO pageviews
SELECT page_id, viewtime
FROM pageviews_source;

INSERT INTO uniqueview
SELECT page_id, COUNT(DISTINCT user_id)
FROM pageviews_source
GROUP BY page_id;

END;

EXECUTE STATEMENT SET
BEGIN
  INSERT INTO pageviews SELECT page_id, viewtime FROM pageviews_source;
  INSERT INTO uniqueview SELECT page_id, COUNT(DISTINCT user_id) FROM pageviews_source GROUP BY page_id;
END;

EXECUTE INSERT INTO pageviews SELECT page_id, viewtime FROM pageviews_source;

RESET 'table.planner';
RESET;
