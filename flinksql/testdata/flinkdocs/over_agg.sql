-- Source: apache/flink docs/content/docs/dev/table/sql/queries/over-agg.md

SELECT order_id, order_time, amount,
  SUM(amount) OVER (
    PARTITION BY product
    ORDER BY order_time
    RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW
  ) AS one_hour_prod_amount_sum
FROM Orders;

SELECT order_id, order_time, amount,
  SUM(amount) OVER (
    PARTITION BY product
    ORDER BY order_time
    RANGE BETWEEN INTERVAL '30' MINUTE PRECEDING AND CURRENT ROW
  ) AS half_hour_sum
FROM Orders;

SELECT order_id, order_time, amount,
  COUNT(amount) OVER (
    PARTITION BY product, category
    ORDER BY order_time
    ROWS BETWEEN 10 PRECEDING AND CURRENT ROW
  ) AS last_rows
FROM Orders;

SELECT order_id, order_time, amount,
  SUM(amount) OVER w AS sum_amount,
  AVG(amount) OVER w AS avg_amount
FROM Orders
WINDOW w AS (
  PARTITION BY product
  ORDER BY order_time
  RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW);

SELECT order_id, MAX(amount) OVER (ORDER BY order_time ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM Orders;
