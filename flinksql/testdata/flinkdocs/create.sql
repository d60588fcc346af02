-- Source: apache/flink docs/content/docs/dev/table/sql/create.md
-- Examples as written in the docs; "WITH (...)" and "..." placeholders are
-- filled with concrete options so each statement is valid Flink SQL.

CREATE TABLE Orders (`user` BIGINT, product STRING, amount INT) WITH ('connector' = 'datagen');

CREATE TABLE RubberOrders (product STRING, amount INT) WITH ('connector' = 'blackhole');

INSERT INTO RubberOrders SELECT product, amount FROM Orders WHERE product LIKE '%Rubber%';

SELECT product, amount FROM Orders WHERE product LIKE '%Rubber%';

CREATE TABLE MyTable (
  `user_id` BIGINT,
  `name` STRING
) WITH (
  'connector' = 'datagen'
);

CREATE TABLE MyTable (
  `user_id` BIGINT,
  `name` STRING,
  `record_time` TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'    -- reads and writes a Kafka record's timestamp
) WITH (
  'connector' = 'kafka'
);

INSERT INTO MyTable SELECT user_id, name, record_time + INTERVAL '1' SECOND FROM MyTable;

CREATE TABLE MyTable (
  `user_id` BIGINT,
  `name` STRING,
  `timestamp` TIMESTAMP_LTZ(3) METADATA    -- use column name as metadata key
) WITH (
  'connector' = 'kafka'
);

CREATE TABLE MyTable (
  `user_id` BIGINT,
  `name` STRING,
  `timestamp` BIGINT METADATA    -- cast the timestamp as BIGINT
) WITH (
  'connector' = 'kafka'
);

CREATE TABLE MyTable (
  `timestamp` BIGINT METADATA,       -- part of the query-to-sink schema
  `offset` BIGINT METADATA VIRTUAL,  -- not part of the query-to-sink schema
  `user_id` BIGINT,
  `name` STRING
) WITH (
  'connector' = 'kafka'
);

CREATE TABLE MyTable (
  `user_id` BIGINT,
  `price` DOUBLE,
  `quantity` DOUBLE,
  `cost` AS price * quantity  -- evaluate expression and supply the result to queries
) WITH (
  'connector' = 'kafka'
);

CREATE TABLE Orders (
    `user` BIGINT,
    product STRING,
    order_time TIMESTAMP(3),
    WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH ('connector' = 'datagen');

CREATE TABLE Orders (
    `user` BIGINT,
    product STRING,
    order_time TIMESTAMP(3)
) WITH (
    'connector' = 'kafka',
    'scan.startup.mode' = 'earliest-offset'
);

CREATE TABLE Orders_with_watermark (
    -- Add watermark definition
    WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
    -- Overwrite the startup-mode
    'scan.startup.mode' = 'latest-offset'
)
LIKE Orders;

CREATE TABLE Orders_with_watermark (
    `user` BIGINT,
    product STRING,
    order_time TIMESTAMP(3),
    WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
    'connector' = 'kafka',
    'scan.startup.mode' = 'latest-offset'
);

-- A source table stored in a filesystem
CREATE TABLE Orders_in_file (
    `user` BIGINT,
    product STRING,
    order_time_string STRING,
    order_time AS to_timestamp(order_time_string)

)
PARTITIONED BY (`user`)
WITH (
    'connector' = 'filesystem',
    'path' = '/tmp/orders',
    'format' = 'csv'
);

-- A corresponding table we want to store in kafka
CREATE TABLE Orders_in_kafka (
    -- Add watermark definition
    WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
    'connector' = 'kafka'
)
LIKE Orders_in_file (
    -- Exclude everything besides the computed columns which we need to generate the watermark for.
    -- We do not want to have the partitions or filesystem options as those do not apply to kafka.
    EXCLUDING ALL
    INCLUDING GENERATED
);

CREATE TABLE my_ctas_table
WITH (
    'connector' = 'kafka'
)
AS SELECT id, name, age FROM source_table WHERE mod(id, 10) = 0;

CREATE TABLE my_ctas_table (
    id BIGINT,
    name STRING,
    age INT
) WITH (
    'connector' = 'kafka'
);

INSERT INTO my_ctas_table SELECT id, name, age FROM source_table WHERE mod(id, 10) = 0;

REPLACE TABLE my_rtas_table
WITH (
    'connector' = 'kafka'
)
AS SELECT id, name, age FROM source_table WHERE mod(id, 10) = 0;

CREATE OR REPLACE TABLE my_rtas_table
WITH (
    'connector' = 'kafka'
)
AS SELECT id, name, age FROM source_table WHERE mod(id, 10) = 0;

DROP TABLE my_rtas_table;

CREATE CATALOG my_catalog
  WITH ('type' = 'generic_in_memory');

CREATE CATALOG IF NOT EXISTS my_catalog COMMENT 'in memory' WITH ('type' = 'generic_in_memory');

CREATE DATABASE IF NOT EXISTS my_catalog.my_db
  COMMENT 'database comment'
  WITH ('k1' = 'v1', 'k2' = 'v2');

CREATE DATABASE db1;

CREATE TEMPORARY VIEW IF NOT EXISTS my_catalog.my_db.my_view
  (a, b) COMMENT 'view comment'
  AS SELECT product, amount FROM Orders;

CREATE VIEW my_view AS SELECT * FROM Orders;

CREATE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS my_func
  AS 'com.example.MyFunc' LANGUAGE JAVA
  USING JAR 'hdfs:///udf/my_func.jar', JAR 'hdfs:///udf/dep.jar';

CREATE FUNCTION my_db.add_one AS 'pyflink.table.tests.test_udf.add' LANGUAGE PYTHON;

CREATE TEMPORARY FUNCTION scala_func AS 'com.example.ScalaFunc' LANGUAGE SCALA;
