-- Sources: apache/flink docs/content/docs/dev/table/sql/queries/{overview,select,
-- select-distinct,with,set-ops,orderby,time-travel,window-join}.md and
-- docs/content/docs/dev/table/sql/gettingStarted.md.
-- (`user` quoted where the docs leave it bare; it is reserved)

SELECT * FROM Orders;
SELECT a, c AS d FROM Orders;
SELECT * FROM Orders WHERE b = 'red';
SELECT * FROM Orders WHERE a % 2 = 0;
SELECT PRETTY_PRINT(`user`) FROM Orders;

SELECT order_id, price + tax FROM Orders;
SELECT order_id, price FROM (VALUES (1, 2.0), (2, 3.1))  AS t (order_id, price);
SELECT price + tax FROM Orders WHERE id = 10;
SELECT PRETTY_PRINT(order_id) FROM Orders;

SELECT DISTINCT id FROM Orders;

WITH orders_with_total AS (
    SELECT order_id, price + tax AS total
    FROM Orders
)
SELECT order_id, SUM(total)
FROM orders_with_total
GROUP BY order_id;

create view t1(s) as values ('c'), ('a'), ('b'), ('b'), ('c');
create view t2(s) as values ('d'), ('e'), ('a'), ('b'), ('b');

(SELECT s FROM t1) UNION (SELECT s FROM t2);
(SELECT s FROM t1) UNION ALL (SELECT s FROM t2);
(SELECT s FROM t1) INTERSECT (SELECT s FROM t2);
(SELECT s FROM t1) INTERSECT ALL (SELECT s FROM t2);
(SELECT s FROM t1) EXCEPT (SELECT s FROM t2);
(SELECT s FROM t1) EXCEPT ALL (SELECT s FROM t2);

SELECT `user`, amount
FROM Orders
WHERE product IN (
    SELECT product FROM NewProducts
);

SELECT `user`, amount
FROM Orders
WHERE EXISTS (
    SELECT product FROM NewProducts
);

SELECT *
FROM Orders
ORDER BY order_time, order_id;

SELECT *
FROM Orders
ORDER BY orderTime
LIMIT 3;

SELECT * FROM paimon_tb FOR SYSTEM_TIME AS OF TIMESTAMP '2023-07-31 00:00:00';

SELECT * FROM paimon_tb FOR SYSTEM_TIME AS OF TIMESTAMP '2023-07-31 00:00:00' - INTERVAL '1' DAY;

SELECT * FROM paimon_tb FOR SYSTEM_TIME AS OF TO_TIMESTAMP_LTZ(0, 3);

SELECT L.num as L_Num, L.id as L_Id, R.num as R_Num, R.id as R_Id,
       COALESCE(L.window_start, R.window_start) as window_start,
       COALESCE(L.window_end, R.window_end) as window_end
       FROM (
           SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
       ) L
       FULL JOIN (
           SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
       ) R
       ON L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end;

SELECT *
       FROM (
           SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
       ) L WHERE L.num IN (
         SELECT num FROM (
           SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
         ) R WHERE L.window_start = R.window_start AND L.window_end = R.window_end);

SELECT *
       FROM (
           SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
       ) L WHERE EXISTS (
         SELECT * FROM (
           SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
         ) R WHERE L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end);

SELECT *
       FROM (
           SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
       ) L WHERE L.num NOT IN (
         SELECT num FROM (
           SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
         ) R WHERE L.window_start = R.window_start AND L.window_end = R.window_end);

SELECT *
       FROM (
           SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
       ) L WHERE NOT EXISTS (
         SELECT * FROM (
           SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
         ) R WHERE L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end);

-- gettingStarted.md
SELECT 'Hello World';
SELECT CURRENT_TIMESTAMP;
SHOW FUNCTIONS;

CREATE TABLE employee_information (
    emp_id INT,
    name VARCHAR,
    dept_id INT
) WITH (
    'connector' = 'filesystem',
    'path' = '/path/to/something.csv',
    'format' = 'csv'
);

SELECT * from employee_information WHERE dept_id = 1;

SELECT
   dept_id,
   COUNT(*) as emp_count
FROM employee_information
GROUP BY dept_id;

INSERT INTO department_counts
SELECT
   dept_id,
   COUNT(*) as emp_count
FROM employee_information
GROUP BY dept_id;
