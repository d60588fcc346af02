-- Local job: datagen source, filesystem and print sinks in one statement set.
CREATE TABLE gen (
  id INT,
  name STRING,
  price DOUBLE,
  tags ARRAY<STRING>,
  attrs MAP<STRING, INT>,
  nested ROW<a INT, b STRING>,
  ts AS LOCALTIMESTAMP,
  WATERMARK FOR ts AS ts
) WITH (
  'connector' = 'datagen',
  'rows-per-second' = '10',
  'number-of-rows' = '1000',
  'fields.id.kind' = 'sequence',
  'fields.id.start' = '1',
  'fields.id.end' = '1000',
  'fields.name.length' = '8',
  'fields.price.min' = '1',
  'fields.price.max' = '100'
);

CREATE TABLE out_print WITH ('connector' = 'print', 'print-identifier' = 'gen')
LIKE gen (EXCLUDING ALL);

CREATE TABLE out_files (
  id INT,
  name STRING,
  dt STRING
) PARTITIONED BY (dt) WITH (
  'connector' = 'filesystem',
  'path' = 'file:///tmp/out',
  'format' = 'csv',
  'csv.field-delimiter' = ';',
  'sink.rolling-policy.file-size' = '128MB'
);

EXECUTE STATEMENT SET
BEGIN
  INSERT INTO out_print SELECT id, name, price, tags, attrs, nested FROM gen;
  INSERT INTO out_files SELECT id, UPPER(name), DATE_FORMAT(ts, 'yyyy-MM-dd') FROM gen WHERE price > 10;
END;

SELECT g.id, t.tag, g.nested.a
FROM gen AS g CROSS JOIN UNNEST(g.tags) AS t (tag);

SELECT id, name,
  ROW_NUMBER() OVER (PARTITION BY name ORDER BY ts DESC) AS rn,
  SUM(price) OVER w AS running
FROM gen
WINDOW w AS (PARTITION BY name ORDER BY ts ROWS BETWEEN 10 PRECEDING AND CURRENT ROW);
