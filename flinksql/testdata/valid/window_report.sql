-- Windowed aggregation into an upsert sink, with a view and a CTE.
CREATE TEMPORARY TABLE clicks (
  user_id STRING,
  url STRING,
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
  `offset` BIGINT METADATA VIRTUAL,
  WATERMARK FOR ts AS ts - INTERVAL '10' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'clicks',
  'properties.bootstrap.servers' = 'kafka:9092',
  'key.format' = 'raw',
  'key.fields' = 'user_id',
  'value.format' = 'avro-confluent',
  'value.avro-confluent.url' = 'http://registry:8081',
  'value.fields-include' = 'EXCEPT_KEY'
);

CREATE TABLE clicks_per_user (
  window_start TIMESTAMP(3),
  window_end TIMESTAMP(3),
  user_id STRING,
  clicks BIGINT,
  PRIMARY KEY (window_start, window_end, user_id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'clicks-per-user',
  'properties.bootstrap.servers' = 'kafka:9092',
  'key.format' = 'json',
  'value.format' = 'json'
);

CREATE VIEW real_clicks AS
SELECT user_id, url, ts FROM clicks WHERE url NOT LIKE '%/health%';

INSERT INTO clicks_per_user
WITH windowed AS (
  SELECT window_start, window_end, user_id, COUNT(*) AS clicks
  FROM TABLE(TUMBLE(TABLE real_clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
  GROUP BY window_start, window_end, user_id
)
SELECT window_start, window_end, user_id, clicks FROM windowed WHERE clicks > 0;
