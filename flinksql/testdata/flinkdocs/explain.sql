-- Source: apache/flink docs/content/docs/dev/table/sql/explain.md

CREATE TABLE MyTable1 (`count` bigint, word VARCHAR(256)) WITH ('connector' = 'datagen');

CREATE TABLE MyTable2 (`count` bigint, word VARCHAR(256)) WITH ('connector' = 'datagen');

SELECT `count`, word FROM MyTable1 WHERE word LIKE 'F%'
UNION ALL
SELECT `count`, word FROM MyTable2;

EXPLAIN PLAN FOR SELECT `count`, word FROM MyTable1 WHERE word LIKE 'F%'
UNION ALL
SELECT `count`, word FROM MyTable2;

EXPLAIN ESTIMATED_COST, CHANGELOG_MODE, JSON_EXECUTION_PLAN SELECT `count`, word FROM MyTable1
WHERE word LIKE 'F%'
UNION ALL
SELECT `count`, word FROM MyTable2;

EXPLAIN PLAN_ADVICE SELECT `count`, word FROM MyTable1;

EXPLAIN INSERT INTO MyTable2 SELECT `count`, word FROM MyTable1;

EXPLAIN STATEMENT SET BEGIN
INSERT INTO MyTable2 SELECT `count`, word FROM MyTable1;
INSERT INTO MyTable1 SELECT `count`, word FROM MyTable2;
END;
