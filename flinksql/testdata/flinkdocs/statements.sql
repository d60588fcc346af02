-- Sources: apache/flink docs/content/docs/dev/table/sql/{set,reset,use,load,
-- unload,jar,job,describe,drop,truncate,delete,update,call}.md: the forms
-- their syntax sections and examples show.

-- set.md
SET 'table.local-time-zone' = 'Europe/Berlin';
SET;
SET 'execution.runtime-mode' = 'batch';
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'pipeline.name' = 'SqlJob';
SET 'parallelism.default' = '10';
SET 'execution.checkpointing.interval' = '3s';
SET 'state.savepoints.dir' = 'hdfs:///flink/savepoints';

-- reset.md
RESET 'table.planner';
RESET;

-- use.md
CREATE CATALOG cat1 WITH ('type' = 'generic_in_memory');
SHOW CATALOGS;
USE CATALOG cat1;
SHOW DATABASES;
CREATE DATABASE db1 WITH ('k1' = 'v1');
USE db1;
USE cat1.db1;
USE MODULES hive;
USE MODULES hive, core;

-- load.md / unload.md
LOAD MODULE hive WITH ('hive-version' = '3.1.3');
LOAD MODULE core;
UNLOAD MODULE core;

-- jar.md
ADD JAR '/path/hello.jar';
ADD JAR 'hdfs:///udf/common-udf.jar';
SHOW JARS;
REMOVE JAR '/path/hello.jar';

-- job.md
SHOW JOBS;
STOP JOB '228d70913eab60dda85c5e7f78b5782c';
STOP JOB '228d70913eab60dda85c5e7f78b5782c' WITH SAVEPOINT;
STOP JOB '228d70913eab60dda85c5e7f78b5782c' WITH SAVEPOINT WITH DRAIN;
DESCRIBE JOB '228d70913eab60dda85c5e7f78b5782c';

-- describe.md
CREATE TABLE Orders (
  `user` BIGINT NOT NULL,
  product VARCHAR(32),
  amount INT,
  ts TIMESTAMP(3) COMMENT 'notice: watermark',
  ptime AS PROCTIME() COMMENT 'this is a computed column',
  PRIMARY KEY(`user`) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECONDS
) WITH ('connector' = 'datagen');
DESCRIBE Orders;
DESC Orders;
DESCRIBE EXTENDED Orders;
DESCRIBE CATALOG cat2;
DESC CATALOG EXTENDED cat2;
DESCRIBE DATABASE db1;
DESCRIBE FUNCTION EXTENDED my_func;
DESCRIBE my_catalog.my_db.Orders;

-- drop.md
DROP TABLE Orders;
DROP TEMPORARY TABLE IF EXISTS my_catalog.my_db.Orders;
DROP DATABASE IF EXISTS my_catalog.my_db CASCADE;
DROP DATABASE db1 RESTRICT;
DROP TEMPORARY VIEW IF EXISTS my_view;
DROP TEMPORARY SYSTEM FUNCTION IF EXISTS my_func;
DROP FUNCTION my_catalog.my_db.add_one;
DROP CATALOG IF EXISTS cat1;

-- truncate.md
TRUNCATE TABLE Orders;

-- delete.md (batch mode)
DELETE FROM Orders WHERE product = 'book';
DELETE FROM Orders;
DELETE FROM Orders WHERE amount < (SELECT AVG(amount) FROM Orders);

-- update.md (batch mode)
UPDATE Orders SET amount = amount + 1, product = 'new' WHERE `user` = 1;
UPDATE Orders SET product = 'book' WHERE amount > 10;

-- call.md
CALL `paimon`.`sys`.`compact`('default.T');
CALL my_catalog.sys.migrate_table(`table` => 'db.t', `options` => 'k=v');
