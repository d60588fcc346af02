-- Source: apache/flink docs/content/docs/dev/table/sql/analyze.md
-- (the docs' CREATE TABLE examples have stray quotes and commas; written
-- here as the SQL they intend)

CREATE TABLE Store (
  `id` BIGINT NOT NULl,
  location VARCHAR(32),
  owner VARCHAR(32)
) with (
  'connector' = 'filesystem', 'path' = '/tmp/store', 'format' = 'csv'
);

CREATE TABLE Orders (
  `id` BIGINT NOT NULl,
  product VARCHAR(32),
  amount INT,
  `sold_year` BIGINT,
  `sold_month` BIGINT
) PARTITIONED BY (`sold_year`, `sold_month`)
with (
  'connector' = 'filesystem', 'path' = '/tmp/orders', 'format' = 'csv'
);

ANALYZE TABLE Store COMPUTE STATISTICS;
ANALYZE TABLE Store COMPUTE STATISTICS FOR ALL COLUMNS;
ANALYZE TABLE Store COMPUTE STATISTICS FOR COLUMNS location;
ANALYZE TABLE Orders PARTITION (sold_year='2022', sold_month='8') COMPUTE STATISTICS;
ANALYZE TABLE Orders PARTITION (sold_year='2022', sold_month) COMPUTE STATISTICS;
ANALYZE TABLE Orders COMPUTE STATISTICS;
ANALYZE TABLE Orders PARTITION (sold_year='2022', sold_month='8') COMPUTE STATISTICS FOR ALL COLUMNS;
ANALYZE TABLE Orders PARTITION (sold_year='2022', sold_month) COMPUTE STATISTICS FOR ALL COLUMNS;
ANALYZE TABLE Orders COMPUTE STATISTICS FOR ALL COLUMNS;
ANALYZE TABLE Orders PARTITION (sold_year='2022', sold_month='8') COMPUTE STATISTICS FOR COLUMNS amount;
ANALYZE TABLE Orders PARTITION (sold_year='2022', sold_month) COMPUTE STATISTICS FOR COLUMNS amount, product;
ANALYZE TABLE Orders PARTITION (sold_year, sold_month) COMPUTE STATISTICS FOR COLUMNS amount, product;
