-- Source: apache/flink docs/content/docs/dev/table/sql/insert.md
-- WITH (...) placeholders are filled in; the docs' unquoted columns `user`
-- and `date` are reserved words in Flink SQL, so they are quoted here (the
-- unquoted form is covered by TestReservedWordsAreReported).

CREATE TABLE Orders (`user` BIGINT, product VARCHAR, amount INT) WITH ('connector' = 'datagen');
CREATE TABLE RubberOrders(product VARCHAR, amount INT) WITH ('connector' = 'blackhole');

INSERT INTO RubberOrders SELECT product, amount FROM Orders WHERE product LIKE '%Rubber%';

CREATE TABLE GlassOrders(product VARCHAR, amount INT) WITH ('connector' = 'print');

INSERT INTO GlassOrders SELECT product, amount FROM Orders WHERE product LIKE '%Glass%';

SHOW TABLES;

EXECUTE STATEMENT SET
BEGIN
INSERT INTO RubberOrders SELECT product, amount FROM Orders WHERE product LIKE '%Rubber%';
INSERT INTO GlassOrders SELECT product, amount FROM Orders WHERE product LIKE '%Glass%';
END;

-- Creates a partitioned table
CREATE TABLE country_page_view (`user` STRING, cnt INT, `date` STRING, country STRING)
PARTITIONED BY (`date`, country)
WITH ('connector' = 'filesystem', 'path' = '/tmp/country_page_view', 'format' = 'csv');

-- Appends rows into the static partition (date='2019-8-30', country='China')
INSERT INTO country_page_view PARTITION (`date`='2019-8-30', country='China')
  SELECT `user`, cnt FROM page_view_source;

-- Appends rows into partition (date, country), where date is static partition with value '2019-8-30',
-- country is dynamic partition whose value is dynamic determined by each row.
INSERT INTO country_page_view PARTITION (`date`='2019-8-30')
  SELECT `user`, cnt, country FROM page_view_source;

-- Overwrites rows into static partition (date='2019-8-30', country='China')
INSERT OVERWRITE country_page_view PARTITION (`date`='2019-8-30', country='China')
  SELECT `user`, cnt FROM page_view_source;

-- Overwrites rows into partition (date, country), where date is static partition with value '2019-8-30',
-- country is dynamic partition whose value is dynamic determined by each row.
INSERT OVERWRITE country_page_view PARTITION (`date`='2019-8-30')
  SELECT `user`, cnt, country FROM page_view_source;

-- Appends rows into the static partition (date='2019-8-30', country='China')
-- the column cnt is set to NULL
INSERT INTO country_page_view PARTITION (`date`='2019-8-30', country='China') (`user`)
  SELECT `user` FROM page_view_source;

CREATE TABLE students (name STRING, age INT, gpa DECIMAL(3, 2)) WITH ('connector' = 'print');

INSERT INTO students
  VALUES ('fred flintstone', 35, 1.28), ('barney rubble', 32, 2.32);
