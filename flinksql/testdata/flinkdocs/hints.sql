-- Source: apache/flink docs/content/docs/dev/table/sql/queries/hints.md
-- WITH (...) filled in; the LOOKUP hint fragments of the docs are used in
-- full lookup-join queries.

CREATE TABLE kafka_table1 (id BIGINT, name STRING, age INT) WITH ('connector' = 'kafka', 'topic' = 't1', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'csv');
CREATE TABLE kafka_table2 (id BIGINT, name STRING, age INT) WITH ('connector' = 'kafka', 'topic' = 't2', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'csv');

-- override table options in query source
select id, name from kafka_table1 /*+ OPTIONS('scan.startup.mode'='earliest-offset') */;

-- override table options in join
select * from
    kafka_table1 /*+ OPTIONS('scan.startup.mode'='earliest-offset') */ t1
    join
    kafka_table2 /*+ OPTIONS('scan.startup.mode'='earliest-offset') */ t2
    on t1.id = t2.id;

-- override table options for INSERT target table
insert into kafka_table1 /*+ OPTIONS('sink.partitioner'='round-robin') */ select * from kafka_table2;

SELECT id, name FROM kafka_table1 /*+ OPTIONS('csv.ignore-parse-errors'='true') */;

CREATE TABLE t1 (id BIGINT, name STRING, age INT) WITH ('connector' = 'datagen');
CREATE TABLE t2 (id BIGINT, name STRING, age INT) WITH ('connector' = 'datagen');
CREATE TABLE t3 (id BIGINT, name STRING, age INT) WITH ('connector' = 'datagen');

-- Flink will use broadcast join and t1 will be the broadcast table.
SELECT /*+ BROADCAST(t1) */ * FROM t1 JOIN t2 ON t1.id = t2.id;

-- Flink will use broadcast join for both joins and t1, t3 will be the broadcast table.
SELECT /*+ BROADCAST(t1, t3) */ * FROM t1 JOIN t2 ON t1.id = t2.id JOIN t3 ON t1.id = t3.id;

SELECT /*+ BROADCAST(t1) */ * FROM t1 join t2 ON t1.id > t2.id;

SELECT /*+ BROADCAST(t1) */ * FROM t1 FULL OUTER JOIN t2 ON t1.id = t2.id;

SELECT /*+ SHUFFLE_HASH(t1) */ * FROM t1 JOIN t2 ON t1.id = t2.id;

SELECT /*+ SHUFFLE_HASH(t1, t3) */ * FROM t1 JOIN t2 ON t1.id = t2.id JOIN t3 ON t1.id = t3.id;

SELECT /*+ SHUFFLE_HASH(t1) */ * FROM t1 join t2 ON t1.id > t2.id;

SELECT /*+ SHUFFLE_MERGE(t1) */ * FROM t1 JOIN t2 ON t1.id = t2.id;

SELECT /*+ SHUFFLE_MERGE(t1, t3) */ * FROM t1 JOIN t2 ON t1.id = t2.id JOIN t3 ON t1.id = t3.id;

SELECT /*+ SHUFFLE_MERGE(t1) */ * FROM t1 join t2 ON t1.id > t2.id;

SELECT /*+ NEST_LOOP(t1) */ * FROM t1 JOIN t2 ON t1.id = t2.id;

SELECT /*+ NEST_LOOP(t1, t3) */ * FROM t1 JOIN t2 ON t1.id = t2.id JOIN t3 ON t1.id = t3.id;

SELECT /*+ BROADCAST(t1), SHUFFLE_HASH(t2) */ * FROM t1 JOIN t2 ON t1.id = t2.id;

-- suggest the optimizer to use sync lookup
SELECT /*+ LOOKUP('table'='Customers', 'async'='false') */ o.order_id, o.total, c.country, c.zip
FROM Orders AS o
  JOIN Customers FOR SYSTEM_TIME AS OF o.proc_time AS c
    ON o.customer_id = c.id;

-- suggest the optimizer to use async lookup
SELECT /*+ LOOKUP('table'='Customers', 'async'='true') */ o.order_id, c.country
FROM Orders AS o
  JOIN Customers FOR SYSTEM_TIME AS OF o.proc_time AS c
    ON o.customer_id = c.id;

-- configure the async parameters
SELECT /*+ LOOKUP('table'='Customers', 'async'='true', 'output-mode'='allow_unordered', 'capacity'='100', 'timeout'='180s') */ o.order_id, c.country
FROM Orders AS o
  JOIN Customers FOR SYSTEM_TIME AS OF o.proc_time AS c
    ON o.customer_id = c.id;

-- enable retry on async lookup
SELECT /*+ LOOKUP('table'='Customers', 'async'='true', 'retry-predicate'='lookup_miss', 'retry-strategy'='fixed_delay', 'fixed-delay'='10s','max-attempts'='3') */ o.order_id, c.country
FROM Orders AS o
  JOIN Customers FOR SYSTEM_TIME AS OF o.proc_time AS c
    ON o.customer_id = c.id;

-- enable retry on sync lookup
SELECT /*+ LOOKUP('table'='Customers', 'async'='false', 'retry-predicate'='lookup_miss', 'retry-strategy'='fixed_delay', 'fixed-delay'='10s','max-attempts'='3') */ o.order_id, c.country
FROM Orders AS o
  JOIN Customers FOR SYSTEM_TIME AS OF o.proc_time AS c
    ON o.customer_id = c.id;

SELECT /*+ LOOKUP('table'='Customers', 'retry-predicate'='lookup_miss', 'retry-strategy'='fixed_delay', 'fixed-delay'='10s','max-attempts'='3') */ o.order_id, c.country
FROM Orders AS o
  JOIN Customers FOR SYSTEM_TIME AS OF o.proc_time AS c
    ON o.customer_id = c.id;

-- state TTL hints
SELECT /*+ STATE_TTL('Orders'= '1d', 'Customers' = '20d') */ *
FROM Orders LEFT OUTER JOIN Customers
    ON Orders.o_custkey = Customers.c_custkey;

SELECT /*+ STATE_TTL('o' = '12h') */ o_orderkey, SUM(o_totalprice) AS revenue
FROM Orders AS o
GROUP BY o_orderkey;

-- query blocks: hints in subqueries and views
SELECT /*+ BROADCAST(t1) */ t4.id, t4.name
FROM (SELECT /*+ SHUFFLE_HASH(t2) */ t1.id, t2.name FROM t1 JOIN t2 ON t1.id = t2.id) AS t4
JOIN t3 ON t4.id = t3.id;

CREATE VIEW view1 AS SELECT t1.id, t1.name FROM t1 JOIN t2 ON t1.id = t2.id;

SELECT /*+ BROADCAST(t1) */ * FROM view1 JOIN t1 ON view1.id = t1.id;
