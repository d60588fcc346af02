-- Source: apache/flink docs/content/docs/dev/table/sql/alter.md
-- Syntax skeletons ([catalog_name.][db_name.]name, key1=val1) are written
-- out with concrete names and options.

CREATE TABLE Orders (`user` BIGINT, product STRING, amount INT) WITH ('connector' = 'datagen');

ALTER TABLE Orders ADD `order` INT COMMENT 'order identifier' FIRST;

DESCRIBE Orders;

ALTER TABLE Orders ADD (ts TIMESTAMP(3), category STRING AFTER product, PRIMARY KEY(`order`) NOT ENFORCED, WATERMARK FOR ts AS ts - INTERVAL '1' HOUR);

ALTER TABLE Orders MODIFY (amount DOUBLE NOT NULL, category STRING COMMENT 'category identifier' AFTER `order`, WATERMARK FOR ts AS ts);

ALTER TABLE Orders DROP WATERMARK;

ALTER TABLE Orders DROP (amount, ts, category);

ALTER TABLE Orders RENAME `order` to `order_id`;

ALTER TABLE Orders RENAME `order` TO order_id;

SHOW TABLES;

ALTER TABLE Orders RENAME TO NewOrders;

-- add a new column
ALTER TABLE MyTable ADD category_id STRING COMMENT 'identifier of the category';

-- add columns, constraint, and watermark
ALTER TABLE MyTable ADD (
    log_ts STRING COMMENT 'log timestamp string' FIRST,
    ts AS TO_TIMESTAMP(log_ts) AFTER log_ts,
    PRIMARY KEY (id) NOT ENFORCED,
    WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
);

-- modify a column type, comment and position
ALTER TABLE MyTable MODIFY measurement double COMMENT 'unit is bytes per second' AFTER `id`;

-- modify definition of column log_ts and ts, primary key, watermark. They must exist in table schema
ALTER TABLE MyTable MODIFY (
    log_ts STRING COMMENT 'log timestamp string' AFTER `id`,  -- reorder columns
    ts AS TO_TIMESTAMP(log_ts) AFTER log_ts,
    PRIMARY KEY (id) NOT ENFORCED,
    WATERMARK FOR ts AS ts -- modify watermark strategy
);

-- drop a column
ALTER TABLE MyTable DROP measurement;

-- drop columns
ALTER TABLE MyTable DROP (col1, col2, col3);

-- drop primary key
ALTER TABLE MyTable DROP PRIMARY KEY;

-- drop a watermark
ALTER TABLE MyTable DROP WATERMARK;

-- rename column
ALTER TABLE MyTable RENAME `data` TO payload;

-- rename table
ALTER TABLE MyTable RENAME TO MyTable2;

-- set 'rows-per-second'
ALTER TABLE DataGenSource SET ('rows-per-second' = '10');

-- reset 'rows-per-second' to the default value
ALTER TABLE DataGenSource RESET ('rows-per-second');

ALTER TABLE IF EXISTS MyTable DROP CONSTRAINT pk_id;

ALTER VIEW my_catalog.my_db.my_view RENAME TO new_view;

ALTER VIEW my_view AS SELECT product, amount FROM Orders;

ALTER DATABASE my_catalog.my_db SET ('k1' = 'v1', 'k2' = 'v2');

ALTER TEMPORARY SYSTEM FUNCTION IF EXISTS my_func AS 'com.example.MyFunc2' LANGUAGE JAVA;

ALTER FUNCTION my_catalog.my_db.add_one AS 'pyflink.table.tests.test_udf.add' LANGUAGE PYTHON;
