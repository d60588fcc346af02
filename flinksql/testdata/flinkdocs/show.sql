-- Source: apache/flink docs/content/docs/dev/table/sql/show.md

SHOW CATALOGS;
SHOW CURRENT CATALOG;
SHOW DATABASES;
SHOW CURRENT DATABASE;
SHOW TABLES;
SHOW CREATE TABLE my_table;
SHOW COLUMNS from MyUserTable LIKE '%f%';
CREATE VIEW my_view AS SELECT * from my_table;
SHOW VIEWS;
SHOW CREATE VIEW my_view;
SHOW FUNCTIONS;
SHOW USER FUNCTIONS;
SHOW MODULES;
SHOW FULL MODULES;
SHOW JARS;
SHOW JOBS;

show tables from db1;
show tables from catalog1.db1;
show tables in db1;
show tables in catalog1.db1;
show tables from db1 like '%n';
show tables from catalog1.db1 like '%n';
show tables in db1 like '%n';
show tables in catalog1.db1 like '%n';
show tables from db1 not like '%n';
show tables in catalog1.db1 not like '%n';
show tables;

CREATE TABLE orders (
  order_id BIGINT NOT NULL comment 'this is the primary key, named ''order_id''.',
  product VARCHAR(32),
  amount INT,
  ts TIMESTAMP(3) comment 'notice: watermark, named ''ts''.',
  ptime AS PROCTIME() comment 'notice: computed column, named ''ptime''.',
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND,
  CONSTRAINT `PK_order_id` PRIMARY KEY (order_id) NOT ENFORCED
) WITH (
  'connector' = 'datagen'
);

show create table orders;

-- The output of SHOW CREATE TABLE is itself valid SQL.
CREATE TABLE `default_catalog`.`default_database`.`orders` (
  `order_id` BIGINT NOT NULL COMMENT 'this is the primary key, named ''order_id''.',
  `product` VARCHAR(32),
  `amount` INT,
  `ts` TIMESTAMP(3) COMMENT 'notice: watermark, named ''ts''.',
  `ptime` AS PROCTIME() COMMENT 'notice: computed column, named ''ptime''.',
  WATERMARK FOR `ts` AS `ts` - INTERVAL '1' SECOND,
  CONSTRAINT `PK_order_id` PRIMARY KEY (`order_id`) NOT ENFORCED
) WITH (
  'connector' = 'datagen'
);

show columns from orders;
show columns from database1.orders;
show columns from catalog1.database1.orders;
show columns in orders;
show columns in database1.orders;
show columns in catalog1.database1.orders;
show columns from orders like '%r';
show columns in catalog1.database1.orders like '%r';
show columns from orders not like '%_r';
show columns in catalog1.database1.orders not like '%_r';

show partitions table1;
show partitions database1.table1;
show partitions catalog1.database1.table1;
show partitions table1 partition (id=1002);
show partitions catalog1.database1.table1 partition (id=1002);

SHOW PROCEDURES;
SHOW PROCEDURES FROM catalog1.db1 ILIKE 'get%';
SHOW PROCEDURES IN db1 NOT LIKE 'get%';
SHOW FUNCTIONS FROM catalog1.db1 LIKE 'f%';
SHOW USER FUNCTIONS IN db1 NOT ILIKE 'F%';
SHOW DATABASES FROM catalog1 LIKE 'db%';
SHOW VIEWS FROM catalog1.db1 NOT LIKE 'v%';
SHOW CATALOGS LIKE 'cat%';
SHOW CREATE CATALOG cat1;
