package flinksql

import (
	"reflect"
	"strings"
	"testing"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/format"
)

// TestStatementsCanonical parses each statement and checks the canonical
// form the formatter prints for it: one assertion covers what the parser
// understood (keywords, names, nesting) and how it prints.
func TestStatementsCanonical(t *testing.T) {
	tests := []struct{ src, want string }{
		{"set 'table.local-time-zone' = 'UTC'", "SET 'table.local-time-zone' = 'UTC'"},
		{"SET table.planner = blink", "SET table.planner = blink"},
		{"SET", "SET"},
		{"reset 'a.b'", "RESET 'a.b'"},
		{"RESET", "RESET"},
		{"create temporary table if not exists c.d.t (a int not null, b as a + 1 comment 'x', m timestamp_ltz(3) metadata from 'timestamp' virtual, " +
			"id bigint primary key not enforced, watermark for m as m - interval '1' second) comment 'tbl' partitioned by (a) with ('k' = 'v')",
			"CREATE TEMPORARY TABLE IF NOT EXISTS c.d.t (\n  a INT NOT NULL,\n  b AS a + 1 COMMENT 'x',\n  m TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,\n" +
				"  id BIGINT PRIMARY KEY NOT ENFORCED,\n  WATERMARK FOR m AS m - INTERVAL '1' SECOND\n)\nCOMMENT 'tbl'\nPARTITIONED BY (a)\nWITH (\n  'k' = 'v'\n)"},
		{"CREATE TABLE t (a INT, CONSTRAINT pk PRIMARY KEY (a) NOT ENFORCED) DISTRIBUTED BY HASH(a) INTO 4 BUCKETS WITH ('connector'='print')",
			"CREATE TABLE t (\n  a INT,\n  CONSTRAINT pk PRIMARY KEY (a) NOT ENFORCED\n)\nDISTRIBUTED BY HASH(a) INTO 4 BUCKETS\nWITH (\n  'connector' = 'print'\n)"},
		{"CREATE TABLE t2 WITH ('a'='b') LIKE t (EXCLUDING ALL INCLUDING GENERATED OVERWRITING OPTIONS)",
			"CREATE TABLE t2\nWITH (\n  'a' = 'b'\n)\nLIKE t (\n  EXCLUDING ALL\n  INCLUDING GENERATED\n  OVERWRITING OPTIONS\n)"},
		{"CREATE OR REPLACE TABLE t WITH ('connector'='print') AS SELECT 1 AS a",
			"CREATE OR REPLACE TABLE t\nWITH (\n  'connector' = 'print'\n) AS\nSELECT 1 AS a"},
		{"REPLACE TABLE t AS SELECT 1", "REPLACE TABLE t AS\nSELECT 1"},
		{"create view v (a, b) comment 'c' as select 1, 2", "CREATE VIEW v (a, b)\nCOMMENT 'c' AS\nSELECT 1, 2"},
		{"CREATE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS f AS 'a.B' LANGUAGE SCALA USING JAR 'x.jar', JAR 'y.jar'",
			"CREATE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS f AS 'a.B' LANGUAGE SCALA USING JAR 'x.jar', JAR 'y.jar'"},
		{"create catalog c with ('type'='generic_in_memory')", "CREATE CATALOG c\nWITH (\n  'type' = 'generic_in_memory'\n)"},
		{"create database if not exists c.db comment 'x'", "CREATE DATABASE IF NOT EXISTS c.db\nCOMMENT 'x'"},
		{"drop temporary system function if exists f", "DROP TEMPORARY SYSTEM FUNCTION IF EXISTS f"},
		{"drop database c.db cascade", "DROP DATABASE c.db CASCADE"},
		{"alter table if exists t rename to t2", "ALTER TABLE IF EXISTS t RENAME TO t2"},
		{"alter table t rename a to b", "ALTER TABLE t RENAME a TO b"},
		{"alter table t reset ('a', 'b')", "ALTER TABLE t RESET ('a', 'b')"},
		{"alter table t add (b int first, watermark for ts as ts, primary key (a) not enforced)",
			"ALTER TABLE t ADD (\n  b INT FIRST,\n  WATERMARK FOR ts AS ts,\n  PRIMARY KEY (a) NOT ENFORCED\n)"},
		{"alter table t modify c string after a", "ALTER TABLE t MODIFY c STRING AFTER a"},
		{"alter table t drop (a, b)", "ALTER TABLE t DROP (a, b)"},
		{"alter table t drop constraint pk", "ALTER TABLE t DROP CONSTRAINT pk"},
		{"alter table t add distribution by hash(a) into 3 buckets", "ALTER TABLE t ADD DISTRIBUTION BY HASH(a) INTO 3 BUCKETS"},
		{"alter table t add if not exists partition (dt = '1') with ('k'='v')", "ALTER TABLE t ADD IF NOT EXISTS\n  PARTITION (dt = '1') WITH ('k' = 'v')"},
		{"alter table t drop if exists partition (dt='1'), partition (dt='2')", "ALTER TABLE t DROP IF EXISTS PARTITION (dt = '1'), PARTITION (dt = '2')"},
		{"alter view v as select 1", "ALTER VIEW v AS\nSELECT 1"},
		{"alter temporary function f as 'x' language python", "ALTER TEMPORARY FUNCTION f AS 'x' LANGUAGE PYTHON"},
		{"alter catalog c comment 'x'", "ALTER CATALOG c COMMENT 'x'"},
		{"alter catalog c reset ('k')", "ALTER CATALOG c RESET ('k')"},
		{"use catalog c", "USE CATALOG c"},
		{"use c.db", "USE c.db"},
		{"use modules hive, core", "USE MODULES hive, core"},
		{"show current database", "SHOW CURRENT DATABASE"},
		{"show tables in c.db not like 'a%'", "SHOW TABLES IN c.db NOT LIKE 'a%'"},
		{"show create table c.db.t", "SHOW CREATE TABLE c.db.t"},
		{"show columns from t like '%a'", "SHOW COLUMNS FROM t LIKE '%a'"},
		{"show user functions", "SHOW USER FUNCTIONS"},
		{"show partitions t partition (a = 1)", "SHOW PARTITIONS t PARTITION (a = 1)"},
		{"desc extended t", "DESCRIBE EXTENDED t"},
		{"describe catalog c", "DESCRIBE CATALOG c"},
		{"describe job 'abc'", "DESCRIBE JOB 'abc'"},
		{"explain plan for select 1", "EXPLAIN PLAN FOR\nSELECT 1"},
		{"explain changelog_mode, estimated_cost insert into t select 1", "EXPLAIN CHANGELOG_MODE, ESTIMATED_COST\nINSERT INTO t\nSELECT 1"},
		{"load module hive with ('hive-version'='3.1')", "LOAD MODULE hive WITH (\n  'hive-version' = '3.1'\n)"},
		{"unload module core", "UNLOAD MODULE core"},
		{"add jar '/a.jar'", "ADD JAR '/a.jar'"},
		{"remove jar '/a.jar'", "REMOVE JAR '/a.jar'"},
		{"insert overwrite c.t /*+ options('a'='b') */ partition (dt='1', hr=2) (x, y) values (1, 2), (3, 4)",
			"INSERT OVERWRITE c.t /*+ OPTIONS('a' = 'b') */ PARTITION (dt = '1', hr = 2) (x, y)\nVALUES\n  (1, 2),\n  (3, 4)"},
		{"execute insert into t select 1", "EXECUTE\nINSERT INTO t\nSELECT 1"},
		{"begin statement set; insert into a select 1; insert into b select 2; end",
			"BEGIN STATEMENT SET;\n  INSERT INTO a\n  SELECT 1;\n  INSERT INTO b\n  SELECT 2;\nEND"},
		{"execute statement set begin insert into a select 1; end", "EXECUTE STATEMENT SET\nBEGIN\n  INSERT INTO a\n  SELECT 1;\nEND"},
		{"compile plan 'p.json' if not exists for insert into t select 1", "COMPILE PLAN 'p.json' IF NOT EXISTS FOR\nINSERT INTO t\nSELECT 1"},
		{"execute plan 'p.json'", "EXECUTE PLAN 'p.json'"},
		{"compile and execute plan 'p.json' for statement set begin insert into t select 1; end",
			"COMPILE AND EXECUTE PLAN 'p.json' FOR\nSTATEMENT SET\nBEGIN\n  INSERT INTO t\n  SELECT 1;\nEND"},
		{"execute select 1", "EXECUTE\nSELECT 1"},
		{"call c.sys.proc(1, 'a')", "CALL c.sys.proc(1, 'a')"},
		{"analyze table t partition (a) compute statistics for columns x, y", "ANALYZE TABLE t PARTITION (a) COMPUTE STATISTICS FOR COLUMNS x, y"},
		{"truncate table t", "TRUNCATE TABLE t"},
		{"delete from t where a = 1", "DELETE FROM t\nWHERE a = 1"},
		{"update t set a = 1, b = b + 1 where c", "UPDATE t\nSET a = 1, b = b + 1\nWHERE c"},
		{"stop job 'abc' with savepoint with drain", "STOP JOB 'abc' WITH SAVEPOINT WITH DRAIN"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			st := mustParse(t, tt.src)
			if got := format.Statement(st); got != tt.want {
				t.Errorf("FormatStatement:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestQueriesCanonical(t *testing.T) {
	tests := []struct{ src, want string }{
		{"select distinct a, b as c from t where a > 1 group by a, b having count(*) > 1 order by a desc nulls last limit 10",
			"SELECT DISTINCT a, b AS c\nFROM t\nWHERE a > 1\nGROUP BY a, b\nHAVING COUNT(*) > 1\nORDER BY a DESC NULLS LAST\nLIMIT 10"},
		{"select * from a left outer join b on a.x = b.x right join c using (y) full join d on true cross join e natural join f",
			"SELECT *\nFROM a\nLEFT JOIN b\n  ON a.x = b.x\nRIGHT JOIN c USING (y)\nFULL JOIN d\n  ON TRUE\nCROSS JOIN e\nNATURAL JOIN f"},
		{"select * from a, b c, lateral table(f(a.x)) as t(y), unnest(a.arr) with ordinality as u (v, n)",
			"SELECT *\nFROM a, b AS c, LATERAL TABLE(f(a.x)) AS t (y), UNNEST(a.arr) WITH ORDINALITY AS u (v, n)"},
		{"select * from (select 1 as x) s", "SELECT *\nFROM (\n  SELECT 1 AS x\n) AS s"},
		{"with a as (select 1), b (x) as (select 2) select * from a, b",
			"WITH a AS (\n  SELECT 1\n), b (x) AS (\n  SELECT 2\n)\nSELECT *\nFROM a, b"},
		{"select 1 union all select 2 intersect select 3 except distinct select 4",
			"SELECT 1\nUNION ALL\nSELECT 2\nINTERSECT\nSELECT 3\nEXCEPT DISTINCT\nSELECT 4"},
		{"select a from t order by a offset 5 rows fetch next 3 rows only", "SELECT a\nFROM t\nORDER BY a\nOFFSET 5 ROWS\nFETCH FIRST 3 ROWS ONLY"},
		{"select a from t fetch first row only", "SELECT a\nFROM t\nFETCH FIRST 1 ROWS ONLY"},
		{"select a, sum(b) over (partition by a order by ts range between interval '1' hour preceding and current row) from t",
			"SELECT\n  a,\n  SUM(b) OVER (PARTITION BY a ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW)\nFROM t"},
		{"select count(*) over w from t window w as (order by ts rows unbounded preceding)",
			"SELECT COUNT(*) OVER w\nFROM t\nWINDOW w AS (ORDER BY ts ROWS UNBOUNDED PRECEDING)"},
		{"select a from t group by grouping sets ((a, b), a, ()), rollup (c), cube (d, e)",
			"SELECT a\nFROM t\nGROUP BY GROUPING SETS ((a, b), a, ()), ROLLUP (c), CUBE (d, e)"},
		{"select /*+ broadcast(t1, t2), lookup('table'='d', 'async'='true') */ * from t1",
			"SELECT /*+ BROADCAST(t1, t2), LOOKUP('table' = 'd', 'async' = 'true') */ *\nFROM t1"},
		{"select * from orders o join dim for system_time as of o.pt as d on o.k = d.k",
			"SELECT *\nFROM orders AS o\nJOIN dim FOR SYSTEM_TIME AS OF o.pt AS d\n  ON o.k = d.k"},
		{"select * from table(session(table bid partition by (item, x), descriptor(ts), interval '5' minutes))",
			"SELECT *\nFROM TABLE(SESSION(TABLE bid PARTITION BY (item, x), DESCRIPTOR(ts), INTERVAL '5' MINUTES))"},
		{"select a from t where a in (select b from u) and exists (select 1 from v)",
			"SELECT a\nFROM t\nWHERE a IN (\n  SELECT b\n  FROM u\n)\n  AND EXISTS (\n    SELECT 1\n    FROM v\n  )"},
		{"values (1, 'a'), (2, 'b')", "VALUES\n  (1, 'a'),\n  (2, 'b')"},
		{"(select 1) union (select 2)", "(\n  SELECT 1\n)\nUNION\n(\n  SELECT 2\n)"},
		{"select count(distinct a) filter (where b > 0), listagg(c) within group (order by c), last_value(d) ignore nulls over (order by e) from t",
			"SELECT\n  COUNT(DISTINCT a) FILTER (WHERE b > 0),\n  LISTAGG(c) WITHIN GROUP (ORDER BY c),\n  LAST_VALUE(d) IGNORE NULLS OVER (ORDER BY e)\nFROM t"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			st := mustParse(t, tt.src)
			if got := format.Statement(st); got != tt.want {
				t.Errorf("FormatStatement:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestExprCanonical(t *testing.T) {
	tests := []struct{ src, want string }{
		{"cast(a as decimal(10,2))", "CAST(a AS DECIMAL(10, 2))"},
		{"try_cast(a as timestamp(3) with local time zone)", "TRY_CAST(a AS TIMESTAMP(3) WITH LOCAL TIME ZONE)"},
		{"extract(day from ts)", "EXTRACT(DAY FROM ts)"},
		{"trim(both 'x' from y)", "TRIM(BOTH 'x' FROM y)"},
		{"trim(leading from y)", "TRIM(LEADING FROM y)"},
		{"trim(y)", "TRIM(y)"},
		{"position('a' in s)", "POSITION('a' IN s)"},
		{"substring(s from 1 for 2)", "SUBSTRING(s FROM 1 FOR 2)"},
		{"substring(s, 1, 2)", "SUBSTRING(s, 1, 2)"},
		{"overlay(s placing 'x' from 2 for 1)", "OVERLAY(s PLACING 'x' FROM 2 FOR 1)"},
		{"floor(ts to hour)", "FLOOR(ts TO HOUR)"},
		{"ceil(x)", "CEIL(x)"},
		{"timestampadd(day, 1, ts)", "TIMESTAMPADD(DAY, 1, ts)"},
		{"current_timestamp", "CURRENT_TIMESTAMP"},
		{"localtimestamp", "LOCALTIMESTAMP"},
		{"date '2020-01-01'", "DATE '2020-01-01'"},
		{"timestamp '2020-01-01 00:00:00'", "TIMESTAMP '2020-01-01 00:00:00'"},
		{"interval '1:30' hour to minute", "INTERVAL '1:30' HOUR TO MINUTE"},
		{"interval '10' minutes", "INTERVAL '10' MINUTES"},
		{"interval '1 02:03:04.5' day(2) to second(3)", "INTERVAL '1 02:03:04.5' DAY(2) TO SECOND(3)"},
		{"x'0aff'", "X'0aff'"},
		{"'it''s'", "'it''s'"},
		{"`my col`.`x``y`", "`my col`.`x``y`"},
		{"row(1, 'a')", "ROW(1, 'a')"},
		{"(1, 2)", "(1, 2)"},
		{"array[1, 2][1]", "ARRAY[1, 2][1]"},
		{"map['a', 1]['a']", "MAP['a', 1]['a']"},
		{"a is not distinct from b", "a IS NOT DISTINCT FROM b"},
		{"a not between symmetric 1 and 2", "a NOT BETWEEN SYMMETRIC 1 AND 2"},
		{"a not like 'x%' escape '!'", "a NOT LIKE 'x%' ESCAPE '!'"},
		{"a similar to 'b'", "a SIMILAR TO 'b'"},
		{"a > all (select 1)", "a > ALL (\n  SELECT 1\n)"},
		{"case a when 1 then 'x' when 2 then 'y' else 'z' end", "CASE a WHEN 1 THEN 'x' WHEN 2 THEN 'y' ELSE 'z' END"},
		{"- -1", "- -1"},
		{"not not a", "NOT NOT a"},
		{"json_value(j, '$.a' returning int default 0 on empty null on error)", "JSON_VALUE(j, '$.a' RETURNING INT DEFAULT 0 ON EMPTY NULL ON ERROR)"},
		{"json_object(key 'a' value 1, 'b' value b absent on null)", "JSON_OBJECT(KEY 'a' VALUE 1, 'b' VALUE b ABSENT ON NULL)"},
		{"json_query(j, '$' with conditional array wrapper)", "JSON_QUERY(j, '$' WITH CONDITIONAL ARRAY WRAPPER)"},
		{"json_exists(j, '$.a' false on error)", "JSON_EXISTS(j, '$.a' FALSE ON ERROR)"},
		{"json_array(1, 2 null on null)", "JSON_ARRAY(1, 2 NULL ON NULL)"},
		{"j is json object", "j IS JSON OBJECT"},
		{"proctime()", "PROCTIME()"},
		{"count(*)", "COUNT(*)"},
		{"upper(s)", "UPPER(s)"},
		{"my_udf(a, b => 1)", "my_udf(a, b => 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			if got := format.Expr(mustParseExpr(t, tt.src)); got != tt.want {
				t.Errorf("FormatExpr = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDataTypes(t *testing.T) {
	tests := []struct{ src, want, root string }{
		{"char(3)", "CHAR(3)", "CHAR"},
		{"varchar(10) not null", "VARCHAR(10) NOT NULL", "VARCHAR"},
		{"character varying(5)", "CHARACTER VARYING(5)", "VARCHAR"},
		{"string", "STRING", "STRING"},
		{"boolean null", "BOOLEAN NULL", "BOOLEAN"},
		{"bytes", "BYTES", "BYTES"},
		{"binary(4)", "BINARY(4)", "BINARY"},
		{"varbinary(8)", "VARBINARY(8)", "VARBINARY"},
		{"decimal(10, 2)", "DECIMAL(10, 2)", "DECIMAL"},
		{"numeric", "NUMERIC", "DECIMAL"},
		{"tinyint", "TINYINT", "TINYINT"},
		{"smallint", "SMALLINT", "SMALLINT"},
		{"integer", "INTEGER", "INT"},
		{"bigint", "BIGINT", "BIGINT"},
		{"float", "FLOAT", "FLOAT"},
		{"double precision", "DOUBLE PRECISION", "DOUBLE"},
		{"date", "DATE", "DATE"},
		{"time(0)", "TIME(0)", "TIME"},
		{"timestamp(3) without time zone", "TIMESTAMP(3) WITHOUT TIME ZONE", "TIMESTAMP"},
		{"timestamp(3) with local time zone", "TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ"},
		{"timestamp_ltz(3)", "TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ"},
		{"interval day(2) to second(3)", "INTERVAL DAY(2) TO SECOND(3)", "INTERVAL"},
		{"interval year to month", "INTERVAL YEAR TO MONTH", "INTERVAL"},
		{"array<int not null>", "ARRAY<INT NOT NULL>", "ARRAY"},
		{"int array", "INT ARRAY", "ARRAY"},
		{"int not null multiset not null", "INT NOT NULL MULTISET NOT NULL", "MULTISET"},
		{"multiset<string>", "MULTISET<STRING>", "MULTISET"},
		{"map<string, array<map<int, bigint>>>", "MAP<STRING, ARRAY<MAP<INT, BIGINT>>>", "MAP"},
		{"row<a int, `b c` string 'desc'>", "ROW<a INT, `b c` STRING 'desc'>", "ROW"},
		{"row(a int, b row<c int>)", "ROW(a INT, b ROW<c INT>)", "ROW"},
		{"raw('java.lang.Object', 'AbCd')", "RAW('java.lang.Object', 'AbCd')", "RAW"},
		{"row<>", "ROW<>", "ROW"},
		{"row()", "ROW()", "ROW"},
		{"my_cat.my_db.MyType", "my_cat.my_db.MyType", "my_cat.my_db.MyType"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			dt, errs := ParseDataType(tt.src)
			if len(errs) > 0 {
				t.Fatalf("ParseDataType(%q): %v", tt.src, errs[0])
			}
			if got := dt.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if got := dt.Root(); got != tt.root {
				t.Errorf("Root() = %q, want %q", got, tt.root)
			}
		})
	}
}

func TestCreateTableAST(t *testing.T) {
	src := `CREATE TABLE orders (
  id BIGINT,
  ts TIMESTAMP(3),
  pt AS PROCTIME(),
  off BIGINT METADATA FROM 'offset' VIRTUAL,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
  PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'kafka', 'topic' = 'o')`
	ct := mustParse(t, src).(*ast.CreateTable)
	kinds := []ast.ColumnKind{ast.ColumnPhysical, ast.ColumnPhysical, ast.ColumnComputed, ast.ColumnMetadata}
	for i, c := range ct.Columns {
		if c.Kind() != kinds[i] {
			t.Errorf("column %s kind = %v, want %v", c.Name.Name, c.Kind(), kinds[i])
		}
	}
	if !ct.Columns[3].Virtual || ct.Columns[3].MetadataFrom.Value != "offset" {
		t.Errorf("metadata column = %+v", ct.Columns[3])
	}
	if got := ct.PrimaryKey(); !reflect.DeepEqual(got, []string{"id"}) {
		t.Errorf("PrimaryKey() = %v", got)
	}
	if v, ok := ct.With.Get("topic"); !ok || v != "o" {
		t.Errorf("With.Get(topic) = %q, %v", v, ok)
	}
	if ct.Watermarks[0].Column.Key() != "ts" || ct.Watermarks[0].Pos.Line != 6 || ct.Watermarks[0].Pos.Col != 3 {
		t.Errorf("watermark = %s at %v", ct.Watermarks[0].Column.Key(), ct.Watermarks[0].Pos)
	}
	if c := ct.Column("pt"); c == nil || c.Pos.Line != 4 || c.End.Col != 19 {
		t.Errorf("Column(pt) span = %v", c.Span)
	}
}

func TestStatementSpansAndText(t *testing.T) {
	src := "-- job\nSET 'a' = 'b';\n\nINSERT INTO t\n  SELECT 1 ; /* tail */ SELECT 'x;y' FROM u;"
	s, errs := ParseScript(src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []string{"SET 'a' = 'b'", "INSERT INTO t\n  SELECT 1", "SELECT 'x;y' FROM u"}
	if len(s.Stmts) != len(want) {
		t.Fatalf("%d statements, want %d", len(s.Stmts), len(want))
	}
	for i, st := range s.Stmts {
		if got := s.Text(st); got != want[i] {
			t.Errorf("statement %d text = %q, want %q", i, got, want[i])
		}
	}
	if p := s.Stmts[1].Range().Pos; p.Line != 4 || p.Col != 1 {
		t.Errorf("INSERT starts at %v, want 4:1", p)
	}
	ins := s.Inserts()
	if len(ins) != 1 || ins[0].Table.Key() != "t" {
		t.Errorf("Inserts() = %v", ins)
	}
}

func TestSplitStatements(t *testing.T) {
	src := `-- header
SET 'a' = 'b;c';
CREATE TABLE t (a INT COMMENT 'x;y') WITH ('connector' = 'print') /* ; */;
BEGIN STATEMENT SET;
INSERT INTO t SELECT CASE WHEN a > 0 THEN 1 ELSE 2 END FROM s;
INSERT INTO t SELECT 1;
END;
EXECUTE STATEMENT SET BEGIN INSERT INTO t SELECT 1; INSERT INTO u SELECT 2; END;
;;
SELECT ` + "`x;`" + ` FROM (SELECT 1 AS ` + "`x;`" + `)
-- trailing comment, no semicolon`
	got := SplitStatements(src)
	want := []string{
		"SET 'a' = 'b;c'",
		"CREATE TABLE t (a INT COMMENT 'x;y') WITH ('connector' = 'print')",
		"BEGIN STATEMENT SET;\nINSERT INTO t SELECT CASE WHEN a > 0 THEN 1 ELSE 2 END FROM s;\nINSERT INTO t SELECT 1;\nEND",
		"EXECUTE STATEMENT SET BEGIN INSERT INTO t SELECT 1; INSERT INTO u SELECT 2; END",
		"SELECT `x;` FROM (SELECT 1 AS `x;`)",
	}
	if len(got) != len(want) {
		var texts []string
		for _, g := range got {
			texts = append(texts, g.Text)
		}
		t.Fatalf("got %d statements, want %d:\n%s", len(got), len(want), strings.Join(texts, "\n---\n"))
	}
	for i := range want {
		if got[i].Text != want[i] {
			t.Errorf("statement %d = %q, want %q", i, got[i].Text, want[i])
		}
	}
	if got[1].Pos.Line != 3 || got[4].Pos.Line != 10 {
		t.Errorf("positions %v, %v", got[1].Pos, got[4].Pos)
	}
	// The parser agrees with the splitter, statement by statement.
	s, errs := ParseScript(src)
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	for i, st := range s.Stmts {
		if s.Text(st) != got[i].Text {
			t.Errorf("parser statement %d = %q, splitter %q", i, s.Text(st), got[i].Text)
		}
	}
}

func TestInspectVisitsEveryColumnRef(t *testing.T) {
	st := mustParse(t, "INSERT INTO s SELECT a, f(b) + c[d] FROM t WHERE e IN (SELECT g FROM u) GROUP BY h")
	var names []string
	ast.Inspect(st, func(n ast.Node) bool {
		if c, ok := n.(*ast.ColumnRef); ok {
			names = append(names, c.Key())
		}
		return true
	})
	if want := []string{"a", "b", "c", "d", "e", "g", "h"}; !reflect.DeepEqual(names, want) {
		t.Errorf("visited %v, want %v", names, want)
	}
}
