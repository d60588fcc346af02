package flinksql

import (
	"strings"
	"testing"

	"github.com/palink/palink/flinksql/builtin"

	"github.com/palink/palink/flinksql/format"
)

// TestNewerStatementsCanonical parses the statements and clauses Flink
// added from 1.17 to 2.3 (flink-sql-parser's parserImpls.ftl, the SQL
// reference and the release notes) and checks the canonical form of each:
// what the parser understood and how the formatter prints it.
func TestNewerStatementsCanonical(t *testing.T) {
	tests := []struct{ src, want string }{
		// models (2.0)
		{"create model m input (a string) output (b double) comment 'x' with ('provider'='openai')",
			"CREATE MODEL m\nINPUT (\n  a STRING\n)\nOUTPUT (\n  b DOUBLE\n)\nCOMMENT 'x'\nWITH (\n  'provider' = 'openai'\n)"},
		{"CREATE TEMPORARY MODEL IF NOT EXISTS c.d.m WITH ('k'='v') AS SELECT 1",
			"CREATE TEMPORARY MODEL IF NOT EXISTS c.d.m\nWITH (\n  'k' = 'v'\n) AS\nSELECT 1"},
		{"alter model if exists m rename to m2", "ALTER MODEL IF EXISTS m RENAME TO m2"},
		{"ALTER MODEL m RESET ('task')", "ALTER MODEL m RESET ('task')"},
		{"drop temporary model if exists m", "DROP TEMPORARY MODEL IF EXISTS m"},
		{"show create model c.d.m", "SHOW CREATE MODEL c.d.m"},
		{"describe model m", "DESCRIBE MODEL m"},
		{"show models from c.db like 'a%'", "SHOW MODELS FROM c.db LIKE 'a%'"},
		// MODEL arguments (2.1)
		{"SELECT * FROM ML_PREDICT(TABLE t, MODEL m, DESCRIPTOR(a, b), MAP['async', 'true'])",
			"SELECT *\nFROM ML_PREDICT(TABLE t, MODEL m, DESCRIPTOR(a, b), MAP['async', 'true'])"},
		{"SELECT * FROM ML_PREDICT(INPUT => TABLE t, MODEL => MODEL m, ARGS => DESCRIPTOR(a))",
			"SELECT *\nFROM ML_PREDICT(INPUT => TABLE t, MODEL => MODEL m, ARGS => DESCRIPTOR(a))"},
		{"SELECT model FROM t", "SELECT model\nFROM t"},
		// materialized tables (1.20, 2.1, 2.2, 2.3)
		{"create materialized table mt partitioned by (ds) with ('format'='json') freshness = interval '1' hour refresh_mode = full as select ds from t",
			"CREATE MATERIALIZED TABLE mt\nPARTITIONED BY (ds)\nWITH (\n  'format' = 'json'\n)\nFRESHNESS = INTERVAL '1' HOUR\nREFRESH_MODE = FULL AS\nSELECT ds\nFROM t"},
		{"CREATE OR ALTER MATERIALIZED TABLE mt (id BIGINT, PRIMARY KEY (id) NOT ENFORCED) DISTRIBUTED INTO 4 BUCKETS START_MODE = FROM_NOW(INTERVAL '3' MINUTE) AS SELECT id FROM t",
			"CREATE OR ALTER MATERIALIZED TABLE mt (\n  id BIGINT,\n  PRIMARY KEY (id) NOT ENFORCED\n)\nDISTRIBUTED INTO 4 BUCKETS\nSTART_MODE = FROM_NOW(INTERVAL '3' MINUTE) AS\nSELECT id\nFROM t"},
		{"CREATE MATERIALIZED TABLE mt START_MODE = RESUME_OR_FROM_TIMESTAMP(TIMESTAMP '2025-01-01 00:00:00') AS SELECT 1 AS a",
			"CREATE MATERIALIZED TABLE mt\nSTART_MODE = RESUME_OR_FROM_TIMESTAMP(TIMESTAMP '2025-01-01 00:00:00') AS\nSELECT 1 AS a"},
		{"alter materialized table mt suspend", "ALTER MATERIALIZED TABLE mt SUSPEND"},
		{"ALTER MATERIALIZED TABLE mt RESUME WITH ('k'='v')", "ALTER MATERIALIZED TABLE mt RESUME\nWITH (\n  'k' = 'v'\n)"},
		{"ALTER MATERIALIZED TABLE mt REFRESH PARTITION (ds='2024-01-01')", "ALTER MATERIALIZED TABLE mt REFRESH PARTITION (ds = '2024-01-01')"},
		{"ALTER MATERIALIZED TABLE mt SET FRESHNESS = INTERVAL '1' DAY", "ALTER MATERIALIZED TABLE mt SET FRESHNESS = INTERVAL '1' DAY"},
		{"ALTER MATERIALIZED TABLE mt SET REFRESH_MODE = CONTINUOUS", "ALTER MATERIALIZED TABLE mt SET REFRESH_MODE = CONTINUOUS"},
		{"ALTER MATERIALIZED TABLE mt SET ('a'='b')", "ALTER MATERIALIZED TABLE mt SET (\n  'a' = 'b'\n)"},
		{"ALTER MATERIALIZED TABLE mt RESET ('a')", "ALTER MATERIALIZED TABLE mt RESET ('a')"},
		{"ALTER MATERIALIZED TABLE mt AS SELECT * FROM t", "ALTER MATERIALIZED TABLE mt AS\nSELECT *\nFROM t"},
		{"ALTER MATERIALIZED TABLE mt START_MODE = FROM_BEGINNING AS SELECT * FROM t", "ALTER MATERIALIZED TABLE mt\nSTART_MODE = FROM_BEGINNING AS\nSELECT *\nFROM t"},
		{"ALTER MATERIALIZED TABLE mt ADD DISTRIBUTION BY HASH(id) INTO 2 BUCKETS", "ALTER MATERIALIZED TABLE mt ADD DISTRIBUTION BY HASH(id) INTO 2 BUCKETS"},
		{"ALTER MATERIALIZED TABLE mt DROP DISTRIBUTION", "ALTER MATERIALIZED TABLE mt DROP DISTRIBUTION"},
		{"ALTER MATERIALIZED TABLE mt ADD (c AS id + 1)", "ALTER MATERIALIZED TABLE mt ADD (\n  c AS id + 1\n)"},
		{"ALTER MATERIALIZED TABLE mt RENAME TO mt2", "ALTER MATERIALIZED TABLE mt RENAME TO mt2"},
		{"drop materialized table if exists mt", "DROP MATERIALIZED TABLE IF EXISTS mt"},
		{"show materialized tables", "SHOW MATERIALIZED TABLES"},
		{"show create materialized table mt", "SHOW CREATE MATERIALIZED TABLE mt"},
		// connections (2.2)
		{"create temporary system connection if not exists c comment 'x' with ('type'='basic')",
			"CREATE TEMPORARY SYSTEM CONNECTION IF NOT EXISTS c\nCOMMENT 'x'\nWITH (\n  'type' = 'basic'\n)"},
		{"alter connection c set ('a'='b')", "ALTER CONNECTION c SET (\n  'a' = 'b'\n)"},
		{"drop connection if exists c", "DROP CONNECTION IF EXISTS c"},
		{"show connections", "SHOW CONNECTIONS"},
		{"describe connection c", "DESCRIBE CONNECTION c"},
		// INSERT … ON CONFLICT (2.3)
		{"insert into t select * from s on conflict do deduplicate", "INSERT INTO t\nSELECT *\nFROM s\nON CONFLICT DO DEDUPLICATE"},
		{"INSERT OVERWRITE t PARTITION (p = 'v') SELECT * FROM s ON CONFLICT DO ERROR", "INSERT OVERWRITE t PARTITION (p = 'v')\nSELECT *\nFROM s\nON CONFLICT DO ERROR"},
		// functions: ARTIFACT (2.3), WITH options
		{"CREATE FUNCTION f AS 'a.B' USING ARTIFACT 's3://x.jar', JAR 'y.jar' WITH ('k'='v')",
			"CREATE FUNCTION f AS 'a.B' USING ARTIFACT 's3://x.jar', JAR 'y.jar'\nWITH (\n  'k' = 'v'\n)"},
		{"CREATE FUNCTION f AS 'x' LANGUAGE SQL", "CREATE FUNCTION f AS 'x' LANGUAGE SQL"},
		// EXPLAIN of CREATE TABLE … AS and of EXECUTE
		{"EXPLAIN CREATE TABLE t WITH ('connector'='print') AS SELECT 1", "EXPLAIN\nCREATE TABLE t\nWITH (\n  'connector' = 'print'\n) AS\nSELECT 1"},
		{"EXPLAIN REPLACE TABLE t AS SELECT 1", "EXPLAIN\nREPLACE TABLE t AS\nSELECT 1"},
		{"EXPLAIN EXECUTE INSERT INTO t SELECT 1", "EXPLAIN\nEXECUTE\nINSERT INTO t\nSELECT 1"},
		// schemas
		{"CREATE TABLE t (a, b) WITH ('connector'='print') AS SELECT 1, 2", "CREATE TABLE t (a, b)\nWITH (\n  'connector' = 'print'\n) AS\nSELECT 1, 2"},
		{"CREATE TABLE t (a STRUCTURED<'com.x.User', name STRING, age INT 'years'>, v VARIANT) WITH ('connector'='print')",
			"CREATE TABLE t (\n  a STRUCTURED<'com.x.User', name STRING, age INT 'years'>,\n  v VARIANT\n)\nWITH (\n  'connector' = 'print'\n)"},
		{"alter table t add a.b int after a.c", "ALTER TABLE t ADD a.b INT AFTER a.c"},
		{"alter table t rename a.b to a.c", "ALTER TABLE t RENAME a.b TO a.c"},
		{"alter table t modify (a.b bigint first)", "ALTER TABLE t MODIFY (\n  a.b BIGINT FIRST\n)"},
		// queries
		{"SELECT /*+ BROADCAST(a) SHUFFLE_HASH(b) */ * FROM a JOIN b ON a.x = b.x",
			"SELECT /*+ BROADCAST(a), SHUFFLE_HASH(b) */ *\nFROM a\nJOIN b\n  ON a.x = b.x"},
		{"SELECT * FROM TABLE(f(TABLE t PARTITION BY k ORDER BY ts))", "SELECT *\nFROM TABLE(f(TABLE t PARTITION BY k ORDER BY ts))"},
		{"SELECT LAST_VALUE(a) IGNORE NULLS OVER (ORDER BY ts) FROM t", "SELECT LAST_VALUE(a) IGNORE NULLS OVER (ORDER BY ts)\nFROM t"},
		{"stop job 'x' with savepoint with drain", "STOP JOB 'x' WITH SAVEPOINT WITH DRAIN"},
		{"create catalog c comment 'x' with ('type'='generic_in_memory')", "CREATE CATALOG c\nCOMMENT 'x'\nWITH (\n  'type' = 'generic_in_memory'\n)"},
		{"describe catalog extended c", "DESCRIBE CATALOG EXTENDED c"},
		{"describe job 'abc'", "DESCRIBE JOB 'abc'"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			st, errs := Parse(tt.src)
			if len(errs) > 0 {
				t.Fatalf("parse: %v\n%s", errs[0], errs[0].Snippet())
			}
			if got := format.Statement(st); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			checkRoundTrip(t, tt.src, tt.src)
		})
	}
}

// TestNewerParseErrorsAt checks the errors Flink's parser raises on the
// newer grammar, each where Flink puts it.
func TestNewerParseErrorsAt(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"CREATE TABLE t (a INT, ts TIMESTAMP(3),\n  WATERMARK FOR ts AS ts,\n  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND\n) WITH ('connector' = 'print')",
			3, 3, "multiple WATERMARK statements are not supported"},
		{"ALTER TABLE t ADD (WATERMARK FOR a AS a, WATERMARK FOR b AS b)", 1, 42, "multiple WATERMARK statements are not supported"},
		{"CREATE TABLE t (a INT, b AS (SELECT 1)) WITH ('connector' = 'print')", 1, 29, "query expression encountered in illegal context: a computed column cannot hold a subquery"},
		{"CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - (SELECT MAX(x) FROM y)) WITH ('connector' = 'print')", 1, 59, "a watermark cannot hold a subquery"},
		{"CREATE TABLE t (a INT, b AS a IN (SELECT x FROM y)) WITH ('connector' = 'print')", 1, 29, "a computed column cannot hold a subquery"},
		{"CREATE TABLE t (a INT) DISTRIBUTED BY HASH(a) INTO 2.5 BUCKETS WITH ('connector' = 'print')", 1, 52, "bucket count must be a positive integer, found 2.5"},
		{"CREATE TABLE t (a INT) DISTRIBUTED INTO 0 BUCKETS", 1, 41, "bucket count must be a positive integer, found 0"},
		{"CREATE TABLE t (a INT) DISTRIBUTED INTO -1 BUCKETS", 1, 41, "bucket count must be a positive integer, found '-'"},
		{"ALTER TABLE t ADD DISTRIBUTION INTO 1e3 BUCKETS", 1, 37, "bucket count must be a positive integer, found 1e3"},
		{"CREATE FUNCTION f AS 'x' LANGUAGE PYTHON USING JAR 'a.jar'", 1, 35, "CREATE FUNCTION … USING JAR is not applicable to the PYTHON language"},
		{"CREATE FUNCTION f AS 'x' LANGUAGE SQL USING ARTIFACT 'a.jar'", 1, 35, "not applicable to the SQL language"},
		{"CREATE TEMPORARY SYSTEM FUNCTION c.d.f AS 'x'", 1, 34, "a temporary system function has a simple name, without catalog or database: 'c.d.f'"},
		{"CREATE SYSTEM FUNCTION f AS 'x'", 1, 8, "CREATE SYSTEM FUNCTION is not supported"},
		{"CREATE TABLE t2 LIKE t AS SELECT 1", 1, 24, "unexpected AS after LIKE"},
		{"STOP JOB 'abc' WITH DRAIN", 1, 16, "WITH DRAIN can only be used after WITH SAVEPOINT"},
		{"STOP JOB 'abc' WITH SAVEPOINT WITH SAVEPOINT", 1, 31, "WITH SAVEPOINT goes before WITH DRAIN"},
		{"CREATE TEMPORARY MATERIALIZED TABLE mt FRESHNESS = INTERVAL '1' HOUR AS SELECT 1", 1, 18, "CREATE TEMPORARY MATERIALIZED TABLE is not supported"},
		{"CREATE OR REPLACE MATERIALIZED TABLE mt AS SELECT 1", 1, 19, "REPLACE MATERIALIZED TABLE is not supported"},
		{"CREATE MATERIALIZED TABLE mt FRESHNESS = '1 hour' AS SELECT 1", 1, 42, "materialized table freshness must be an INTERVAL literal"},
		{"CREATE MATERIALIZED TABLE mt REFRESH_MODE = FULL FRESHNESS = INTERVAL '1' HOUR AS SELECT 1", 1, 50, "expected AS and the query of the materialized table, found 'FRESHNESS'"},
		{"CREATE MATERIALIZED TABLE mt\nFRESHNESS = INTERVAL '1' HOUR", 2, 30, "expected AS and the query of the materialized table, found end of input"},
		{"CREATE MATERIALIZED TABLE mt REFRESH_MODE = SOMETIMES AS SELECT 1", 1, 45, "expected FULL or CONTINUOUS after REFRESH_MODE =, found 'SOMETIMES'"},
		{"CREATE MATERIALIZED TABLE mt START_MODE = FROM_TIMESTAMP AS SELECT 1", 1, 58, "expected '(' and a timestamp after FROM_TIMESTAMP"},
		{"DROP TEMPORARY MATERIALIZED TABLE mt", 1, 16, "DROP TEMPORARY MATERIALIZED TABLE is not supported"},
		{"ALTER MATERIALIZED TABLE mt PAUSE", 1, 29, "expected SUSPEND, RESUME, REFRESH, SET, RESET, AS, ADD, MODIFY, DROP or RENAME after ALTER MATERIALIZED TABLE name"},
		{"CREATE OR ALTER TABLE t (a INT)", 1, 17, "expected MATERIALIZED TABLE after CREATE OR ALTER, found 'TABLE'"},
		{"INSERT INTO t SELECT 1 ON CONFLICT DO UPDATE", 1, 39, "expected NOTHING, ERROR or DEDUPLICATE after ON CONFLICT DO, found 'UPDATE'"},
		{"CREATE FUNCTION f AS 'x' USING WHEEL 'a.whl'", 1, 32, "expected JAR or ARTIFACT after USING, found 'WHEEL'"},
		{"EXPLAIN CREATE VIEW v AS SELECT 1", 1, 9, "EXPLAIN takes CREATE TABLE … AS and REPLACE TABLE … AS, not other CREATE statements"},
		{"EXPLAIN CREATE MODEL m WITH ('a' = 'b')", 1, 9, "EXPLAIN takes CREATE TABLE … AS"},
		{"CREATE TABLE t (a, b) WITH ('connector' = 'print')", 1, 16, "column names without types are supported in CREATE TABLE … AS only"},
		{"ALTER MODEL m DROP x", 1, 15, "expected RENAME TO, SET or RESET after ALTER MODEL name, found 'DROP'"},
		{"CREATE MODEL m INPUT a STRING", 1, 22, "expected '(', found 'a'"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, errs := ParseScript(tt.src)
			if len(errs) == 0 {
				t.Fatalf("no error for %q", tt.src)
			}
			e := errs[0]
			if e.Pos.Line != tt.line || e.Pos.Col != tt.col || !strings.Contains(e.Message(), tt.msg) {
				t.Errorf("first error = %d:%d %q\n want %d:%d %q\n%s", e.Pos.Line, e.Pos.Col, e.Message(), tt.line, tt.col, tt.msg, e.Snippet())
			}
		})
	}
}

// before returns the release before v among those palink knows.
func before(v builtin.Version) builtin.Version {
	vs := builtin.Versions()
	for i := 1; i < len(vs); i++ {
		if vs[i] == v {
			return vs[i-1]
		}
	}
	return builtin.Version{Major: 1, Minor: 15}
}

// TestVersionGates checks each newer construct against the release that
// brought it: clean on that release, and on the one before a single error
// naming the construct and both releases, at the construct.
func TestVersionGates(t *testing.T) {
	tests := []struct {
		src       string
		since     builtin.Version
		line, col int
		name      string
	}{
		{"STOP JOB 'x' WITH SAVEPOINT", builtin.Version{Major: 1, Minor: 17}, 1, 1, "STOP JOB"},
		{"SHOW JOBS", builtin.Version{Major: 1, Minor: 17}, 1, 1, "SHOW JOBS"},
		{"DELETE FROM t WHERE a = 1", builtin.Version{Major: 1, Minor: 17}, 1, 1, "DELETE"},
		{"UPDATE t SET a = 1", builtin.Version{Major: 1, Minor: 17}, 1, 1, "UPDATE"},
		{"ALTER TABLE t ADD b INT", builtin.Version{Major: 1, Minor: 17}, 1, 15, "ALTER TABLE ADD/MODIFY"},
		{"ALTER TABLE t RENAME a TO b", builtin.Version{Major: 1, Minor: 17}, 1, 15, "ALTER TABLE RENAME column"},
		{"ALTER TABLE t DROP WATERMARK", builtin.Version{Major: 1, Minor: 17}, 1, 15, "ALTER TABLE DROP"},
		{"EXPLAIN PLAN_ADVICE SELECT 1", builtin.Version{Major: 1, Minor: 17}, 1, 9, "EXPLAIN PLAN_ADVICE"},
		{"TRUNCATE TABLE t", builtin.Version{Major: 1, Minor: 18}, 1, 1, "TRUNCATE TABLE"},
		{"CALL cat.sys.compact('t')", builtin.Version{Major: 1, Minor: 18}, 1, 1, "CALL"},
		{"SHOW PROCEDURES", builtin.Version{Major: 1, Minor: 18}, 1, 1, "SHOW PROCEDURES"},
		{"CREATE OR REPLACE TABLE t WITH ('connector' = 'print') AS SELECT 1", builtin.Version{Major: 1, Minor: 18}, 1, 1, "CREATE OR REPLACE TABLE"},
		{"REPLACE TABLE t AS SELECT 1", builtin.Version{Major: 1, Minor: 18}, 1, 1, "REPLACE TABLE"},
		{"DESCRIBE JOB 'x'", builtin.Version{Major: 1, Minor: 20}, 1, 1, "DESCRIBE JOB"},
		{"ALTER CATALOG c SET ('a' = 'b')", builtin.Version{Major: 1, Minor: 20}, 1, 1, "ALTER CATALOG"},
		{"DESCRIBE CATALOG c", builtin.Version{Major: 1, Minor: 20}, 1, 1, "DESCRIBE CATALOG"},
		{"SHOW CREATE CATALOG c", builtin.Version{Major: 1, Minor: 20}, 1, 1, "SHOW CREATE CATALOG"},
		{"CREATE TABLE t (a INT) DISTRIBUTED INTO 2 BUCKETS WITH ('connector' = 'print')", builtin.Version{Major: 1, Minor: 20}, 1, 24, "DISTRIBUTED"},
		{"ALTER TABLE t DROP DISTRIBUTION", builtin.Version{Major: 1, Minor: 20}, 1, 15, "ALTER TABLE DROP DISTRIBUTION"},
		{"CREATE MATERIALIZED TABLE mt FRESHNESS = INTERVAL '1' HOUR AS SELECT 1 AS a", builtin.Version{Major: 1, Minor: 20}, 1, 1, "CREATE MATERIALIZED TABLE"},
		{"CREATE CATALOG c COMMENT 'x' WITH ('type' = 'generic_in_memory')", builtin.Version{Major: 2, Minor: 0}, 1, 18, "a catalog COMMENT"},
		{"CREATE MODEL m WITH ('provider' = 'openai')", builtin.Version{Major: 2, Minor: 0}, 1, 1, "CREATE MODEL"},
		{"SHOW MODELS", builtin.Version{Major: 2, Minor: 0}, 1, 1, "SHOW MODELS"},
		{"CREATE TABLE t (a, b) WITH ('connector' = 'print') AS SELECT 1, 2", builtin.Version{Major: 2, Minor: 0}, 1, 52, "a schema in CREATE TABLE … AS"},
		{"SELECT * FROM ML_PREDICT(TABLE t, MODEL m, DESCRIPTOR(a))", builtin.Version{Major: 2, Minor: 1}, 1, 35, "a MODEL argument (ML_PREDICT, ML_EVALUATE)"},
		{"CREATE OR ALTER MATERIALIZED TABLE mt FRESHNESS = INTERVAL '1' HOUR AS SELECT 1 AS a", builtin.Version{Major: 2, Minor: 1}, 1, 1, "CREATE OR ALTER MATERIALIZED TABLE"},
		{"ALTER MATERIALIZED TABLE mt AS SELECT 1 AS a", builtin.Version{Major: 2, Minor: 1}, 1, 29, "ALTER MATERIALIZED TABLE … AS"},
		{"CREATE TABLE t (s STRUCTURED<'a.B', x INT>) WITH ('connector' = 'print')", builtin.Version{Major: 2, Minor: 1}, 1, 19, "the STRUCTURED type"},
		{"CREATE TABLE t (v VARIANT) WITH ('connector' = 'print')", builtin.Version{Major: 2, Minor: 1}, 1, 19, "the VARIANT type"},
		{"CREATE FUNCTION f AS 'a.B' WITH ('k' = 'v')", builtin.Version{Major: 2, Minor: 1}, 1, 28, "CREATE FUNCTION … WITH (…)"},
		{"SHOW MATERIALIZED TABLES", builtin.Version{Major: 2, Minor: 2}, 1, 1, "SHOW MATERIALIZED TABLES"},
		{"CREATE MATERIALIZED TABLE mt AS SELECT 1 AS a", builtin.Version{Major: 2, Minor: 2}, 1, 27, "a materialized table without FRESHNESS"},
		{"CREATE MATERIALIZED TABLE mt DISTRIBUTED INTO 2 BUCKETS FRESHNESS = INTERVAL '1' HOUR AS SELECT 1 AS a", builtin.Version{Major: 2, Minor: 2}, 1, 30, "the distribution of a materialized table"},
		{"CREATE CONNECTION c WITH ('type' = 'basic')", builtin.Version{Major: 2, Minor: 2}, 1, 1, "CREATE CONNECTION"},
		{"INSERT INTO t SELECT 1 ON CONFLICT DO NOTHING", builtin.Version{Major: 2, Minor: 3}, 1, 24, "INSERT … ON CONFLICT"},
		{"CREATE FUNCTION f AS 'a.B' USING ARTIFACT 'x.jar'", builtin.Version{Major: 2, Minor: 3}, 1, 34, "USING ARTIFACT"},
		{"CREATE MATERIALIZED TABLE mt START_MODE = FROM_NOW FRESHNESS = INTERVAL '1' HOUR AS SELECT 1 AS a", builtin.Version{Major: 2, Minor: 3}, 1, 30, "START_MODE"},
		{"CREATE MATERIALIZED TABLE mt (a INT) FRESHNESS = INTERVAL '1' HOUR AS SELECT 1 AS a", builtin.Version{Major: 2, Minor: 3}, 1, 30, "a schema in CREATE MATERIALIZED TABLE"},
		{"ALTER MATERIALIZED TABLE mt ADD (c AS a + 1)", builtin.Version{Major: 2, Minor: 3}, 1, 29, "ALTER MATERIALIZED TABLE … ADD"},
		{"SELECT * FROM TABLE(f(TABLE t PARTITION BY k ORDER BY ts))", builtin.Version{Major: 2, Minor: 3}, 1, 46, "ORDER BY on a table argument"},
		{"SELECT * FROM TABLE(SESSION(TABLE t PARTITION BY k, DESCRIPTOR(ts), INTERVAL '5' MINUTES))", builtin.Version{Major: 1, Minor: 19}, 1, 21, "the SESSION window TVF"},
		{"SELECT * FROM TABLE(SESSION(DATA => TABLE t, TIMECOL => DESCRIPTOR(ts), GAP => INTERVAL '5' MINUTES))", builtin.Version{Major: 1, Minor: 19}, 1, 21, "the SESSION window TVF"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			opts := Options{ParseOnly: true, Version: tt.since}
			if r := Check(tt.src, opts); len(r.Diagnostics) > 0 {
				t.Errorf("on Flink %s: %v", tt.since, r.Diagnostics[0])
			}
			prev := before(tt.since)
			r := Check(tt.src, Options{ParseOnly: true, Version: prev})
			if len(r.Diagnostics) != 1 {
				t.Fatalf("on Flink %s: %d diagnostics, want 1: %v", prev, len(r.Diagnostics), r.Diagnostics)
			}
			d := r.Diagnostics[0]
			want := tt.name + " needs Flink " + tt.since.String() + "; checking for Flink " + prev.String()
			if d.Code != CodeNeedsNewerFlink || d.Pos.Line != tt.line || d.Pos.Col != tt.col || !strings.Contains(d.Msg, want) {
				t.Errorf("on Flink %s: %s %d:%d %q\nwant %s %d:%d %q\n%s", prev, d.Code, d.Pos.Line, d.Pos.Col, d.Msg, CodeNeedsNewerFlink, tt.line, tt.col, want, d.Snippet())
			}
		})
	}
}

// TestVersionErrorNamesTheCluster is the example: a cluster's
// release decides, and the one error says which cluster and release.
func TestVersionErrorNamesTheCluster(t *testing.T) {
	src := "CREATE MODEL sentiment\nINPUT (text STRING)\nOUTPUT (label STRING)\nWITH ('provider' = 'openai', 'endpoint' = 'https://x', 'model' = 'gpt-4o');\n" +
		"CREATE MATERIALIZED TABLE mt (a INT) DISTRIBUTED INTO 2 BUCKETS START_MODE = FROM_NOW FRESHNESS = INTERVAL '1' HOUR AS SELECT 1 AS a;"
	r := Check(src, Options{Version: builtin.Version{Major: 1, Minor: 20}, Target: "cluster prod", ParseOnly: true})
	var got []string
	for _, d := range r.Diagnostics {
		got = append(got, d.Error())
	}
	want := []string{
		"1:1: error: CREATE MODEL needs Flink 2.0; cluster prod runs 1.20",
		"5:30: error: a schema in CREATE MATERIALIZED TABLE needs Flink 2.3; cluster prod runs 1.20",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r := Check(src, Options{ParseOnly: true}); len(r.Diagnostics) != 0 {
		t.Errorf("on the newest release: %v", r.Diagnostics)
	}
}

// TestReservedWordsPerVersion samples Parser.tdd's keyword lists both ways:
// a word a release reserves is an error unquoted (and fine quoted), and is
// an ordinary name in the releases before it; DATE, DAY and USER are
// Calcite's reserved words, which Flink keeps reserved in every release, so
// the docs' unquoted `SELECT day` fails on a cluster and palink says so.
func TestReservedWordsPerVersion(t *testing.T) {
	tests := []struct {
		word  string
		since builtin.Version // zero: reserved in every release
	}{
		{"procedures", builtin.Version{Major: 1, Minor: 18}},
		{"freshness", builtin.Version{Major: 1, Minor: 20}}, {"materialized", builtin.Version{Major: 1, Minor: 20}}, {"suspend", builtin.Version{Major: 1, Minor: 20}},
		{"buckets", builtin.Version{Major: 1, Minor: 20}}, {"distribution", builtin.Version{Major: 1, Minor: 20}}, {"refresh_mode", builtin.Version{Major: 1, Minor: 20}},
		{"models", builtin.Version{Major: 2, Minor: 0}},
		{"structured", builtin.Version{Major: 2, Minor: 1}},
		{"connections", builtin.Version{Major: 2, Minor: 2}},
		{"date", builtin.Version{}}, {"day", builtin.Version{}}, {"user", builtin.Version{}}, {"value", builtin.Version{}},
		{"string", builtin.Version{}}, {"tables", builtin.Version{}}, {"year", builtin.Version{}}, {"count", builtin.Version{}},
	}
	for _, tt := range tests {
		src := "CREATE TABLE t (" + tt.word + " INT) WITH ('connector' = 'print')"
		for _, v := range builtin.Versions() {
			_, errs := ParseFileFor("", src, v)
			reserved := tt.since.IsZero() || !v.Before(tt.since)
			switch {
			case reserved && (len(errs) != 1 || errs[0].code != CodeReservedWord || errs[0].Pos.Col != 17):
				t.Errorf("%s on %s: want one reserved-word error at 1:17, got %v", tt.word, v, errs)
			case !reserved && len(errs) > 0:
				t.Errorf("%s on %s: not reserved yet, got %v", tt.word, v, errs[0])
			}
			if _, errs := ParseFileFor("", "CREATE TABLE t (`"+tt.word+"` INT) WITH ('connector' = 'print')", v); len(errs) > 0 {
				t.Errorf("`%s` on %s: %v", tt.word, v, errs[0])
			}
		}
	}
	// The docs' SELECT day, … fails the same way.
	if _, errs := ParseScript("SELECT day, amount FROM t"); len(errs) != 1 || errs[0].code != CodeReservedWord {
		t.Errorf("SELECT day: %v", errs)
	}
	// Keywords Flink lists as non-reserved are names in every release.
	for _, w := range []string{"model", "job", "jobs", "jar", "python", "partitions", "metadata", "options", "data", "name", "version", "drain", "stop", "artifact", "start_mode"} {
		for _, v := range builtin.Versions() {
			if _, errs := ParseFileFor("", "SELECT "+w+" FROM t", v); len(errs) > 0 {
				t.Errorf("%s on %s: %v", w, v, errs[0])
			}
		}
	}
	// The docs' partition example fails for the same reason.
	_, errs := ParseScript("INSERT INTO t PARTITION (date='2019-8-30') SELECT 1")
	if len(errs) != 1 || !strings.Contains(errs[0].Message(), "quote it as `date`") {
		t.Errorf("PARTITION (date=…): %v", errs)
	}
}
