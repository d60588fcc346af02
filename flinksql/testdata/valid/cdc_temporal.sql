-- Event-time temporal join against a versioned (upsert) table, and a
-- MATCH_RECOGNIZE over the joined stream.
CREATE TABLE rates (
  currency STRING,
  rate DECIMAL(10, 4),
  update_time TIMESTAMP(3),
  WATERMARK FOR update_time AS update_time,
  PRIMARY KEY (currency) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'rates',
  'properties.bootstrap.servers' = 'kafka:9092',
  'key.format' = 'json',
  'value.format' = 'debezium-json'
);

CREATE TABLE payments (
  id BIGINT,
  currency STRING,
  amount DECIMAL(10, 2),
  pay_time TIMESTAMP(3),
  WATERMARK FOR pay_time AS pay_time - INTERVAL '1' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'payments',
  'properties.bootstrap.servers' = 'kafka:9092',
  'format' = 'json'
);

CREATE TABLE alerts (
  currency STRING,
  first_amount DECIMAL(10, 2),
  last_amount DECIMAL(10, 2)
) WITH ('connector' = 'blackhole');

CREATE TEMPORARY VIEW converted AS
SELECT p.id, p.currency, p.amount * r.rate AS usd, p.pay_time
FROM payments AS p
JOIN rates FOR SYSTEM_TIME AS OF p.pay_time AS r ON p.currency = r.currency;

INSERT INTO alerts
SELECT currency, first_amount, last_amount
FROM payments
  MATCH_RECOGNIZE (
    PARTITION BY currency
    ORDER BY pay_time
    MEASURES
      FIRST(A.amount) AS first_amount,
      LAST(B.amount) AS last_amount
    ONE ROW PER MATCH
    AFTER MATCH SKIP PAST LAST ROW
    PATTERN (A B+?) WITHIN INTERVAL '1' HOUR
    DEFINE
      B AS B.amount > 2 * A.amount
  ) AS m;

SELECT currency, SUM(usd) AS total FROM converted GROUP BY currency HAVING SUM(usd) > 10;
