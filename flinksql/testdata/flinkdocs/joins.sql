-- Source: apache/flink docs/content/docs/dev/table/sql/queries/joins.md
-- Fixed from the docs: WITH (/* ... */) placeholders filled in, the metadata
-- key quoted as a string, a trailing comma before FROM removed; the
-- syntax skeleton written with real names.

SELECT * FROM Orders
INNER JOIN Product
ON Orders.productId = Product.id;

SELECT *
FROM Orders
INNER JOIN Product
ON Orders.product_id = Product.id;

SELECT *
FROM Orders
LEFT JOIN Product
ON Orders.product_id = Product.id;

SELECT *
FROM Orders
RIGHT JOIN Product
ON Orders.product_id = Product.id;

SELECT *
FROM Orders
FULL OUTER JOIN Product
ON Orders.product_id = Product.id;

SELECT *
FROM Orders o, Shipments s
WHERE o.id = s.order_id
AND o.order_time BETWEEN s.ship_time - INTERVAL '4' HOUR AND s.ship_time;

SELECT * FROM L, R WHERE ltime = rtime;
SELECT * FROM L, R WHERE ltime >= rtime AND ltime < rtime + INTERVAL '10' MINUTE;
SELECT * FROM L, R WHERE ltime BETWEEN rtime - INTERVAL '10' SECOND AND rtime + INTERVAL '5' SECOND;

SELECT table1.c1, table2.c2
FROM table1 AS t1
LEFT JOIN table2 FOR SYSTEM_TIME AS OF table1.rowtime AS t2
ON table1.column_name1 = table2.column_name1;

-- Create a table of orders. This is a standard
-- append-only dynamic table.
CREATE TABLE orders (
    order_id    STRING,
    price       DECIMAL(32,2),
    currency    STRING,
    order_time  TIMESTAMP(3),
    WATERMARK FOR order_time AS order_time
) WITH ('connector' = 'datagen');

-- Define a versioned table of currency rates.
-- This could be from a change-data-capture
-- such as Debezium, a compacted Kafka topic, or any other
-- way of defining a versioned table.
CREATE TABLE currency_rates (
    currency STRING,
    conversion_rate DECIMAL(32, 2),
    update_time TIMESTAMP(3) METADATA FROM 'value.source.timestamp' VIRTUAL,
    WATERMARK FOR update_time AS update_time,
    PRIMARY KEY(currency) NOT ENFORCED
) WITH (
   'connector' = 'kafka',
   'value.format' = 'debezium-json',
   'topic' = 'rates',
   'properties.bootstrap.servers' = 'localhost:9092'
);

SELECT
     order_id,
     price,
     currency,
     conversion_rate,
     order_time
FROM orders
LEFT JOIN currency_rates FOR SYSTEM_TIME AS OF orders.order_time
ON orders.currency = currency_rates.currency;

SELECT * FROM LatestRates;

SELECT
  o.amount, o.currency, r.rate, o.amount * r.rate
FROM
  Orders AS o
  JOIN LatestRates FOR SYSTEM_TIME AS OF o.proctime AS r
  ON r.currency = o.currency;

-- Customers is backed by the JDBC connector and can be used for lookup joins
CREATE TEMPORARY TABLE Customers (
  id INT,
  name STRING,
  country STRING,
  zip STRING
) WITH (
  'connector' = 'jdbc',
  'url' = 'jdbc:mysql://mysqlhost:3306/customerdb',
  'table-name' = 'customers'
);

-- enrich each order with customer information
SELECT o.order_id, o.total, c.country, c.zip
FROM Orders AS o
  JOIN Customers FOR SYSTEM_TIME AS OF o.proc_time AS c
    ON o.customer_id = c.id;

SELECT order_id, tag
FROM Orders CROSS JOIN UNNEST(tags) AS t (tag);

SELECT order_id, res
FROM Orders,
LATERAL TABLE(table_func(order_id)) t(res);

SELECT order_id, res
FROM Orders
LEFT OUTER JOIN LATERAL TABLE(table_func(order_id)) t(res)
  ON TRUE;

SELECT order_id, pos, tag
FROM Orders CROSS JOIN UNNEST(tags) WITH ORDINALITY AS t (tag, pos);
