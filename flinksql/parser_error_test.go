package flinksql

import (
	"fmt"
	"strings"
	"testing"

	"github.com/palink/palink/flinksql/ast"
)

func TestParseErrorsAtExactPositions(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"SELECT a, FROM t", 1, 11, "expected an expression, found 'FROM'"},
		{"SELECT a FROM t WHERE", 1, 22, "expected an expression, found end of input"},
		{"SELECT a\nFROM t\nWHERE a = = 1", 3, 11, "expected an expression, found '='"},
		{"SELECT (a + 1 FROM t", 1, 15, "expected ')', found 'FROM'"},
		{"SELECT CASE WHEN a THEN 1 FROM t", 1, 27, "expected END, found 'FROM'"},
		{"SELECT CAST(a INT) FROM t", 1, 15, "expected AS, found 'INT'"},
		{"SELECT CAST(a AS INTEGR(1)) FROM t", 1, 24, "expected ')', found '('"},
		{"CREATE TABLE t (a INT,) WITH ('connector' = 'print')", 1, 23, "expected a column name, found ')'"},
		{"CREATE TABLE t (a INT) WITH ('connector' = print)", 1, 44, "expected an option value in quotes, found 'print'"},
		{"CREATE TABLE t (a INT) WITH (connector = 'print')", 1, 30, "expected an option key in quotes, like 'connector', found 'connector'"},
		{"CREATE TABLE t (a VARCHAR(x)) WITH ('connector' = 'print')", 1, 27, "expected a length or precision, found 'x'"},
		{"CREATE TABLE t (a ARRAY<INT) WITH ('connector' = 'print')", 1, 28, "expected '>' to close the type, found ')'"},
		{"CREATE TABLE t (a INT) PARTITIONED BY a WITH ('connector' = 'print')", 1, 39, "expected '(', found 'a'"},
		{"CREATE TABLE t (a INT) WITH ('connector' = 'print') COMMENT 'x'", 1, 53, "unexpected 'COMMENT' in CREATE TABLE"},
		{"CREATE TABLE t (ts TIMESTAMP(3), WATERMARK ts AS ts)", 1, 44, "expected FOR, found 'ts'"},
		{"CREATE VIEW v SELECT 1", 1, 15, "expected AS, found 'SELECT'"},
		{"INSERT t SELECT 1", 1, 8, "expected INTO or OVERWRITE after INSERT, found 't'"},
		{"INSERT INTO t (a, b) FROM s", 1, 22, "expected SELECT or VALUES after INSERT INTO t, found 'FROM'"},
		{"SELECT * FROM a JOIN b", 1, 23, "expected ON or USING after the joined table, found end of input"},
		{"SELECT * FROM a LEFT b ON x", 1, 22, "expected JOIN, found 'b'"},
		{"SELECT * FROM t WHERE a IN ()", 1, 29, "IN needs at least one value"},
		{"SELECT \"name\" FROM t", 1, 8, "double-quoted \"name\" is not valid in Flink SQL"},
		{"SELECT INTERVAL 5 SECONDZ", 1, 19, "expected an interval unit"},
		{"SELECT a FROM t ORDER a", 1, 17, "expected ';' or end of input after the statement, found 'ORDER'"},
		{"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts PATTERN () DEFINE A AS TRUE)", 1, 55, "expected a pattern variable, found ')'"},
		{"SET 'a'", 1, 8, "expected '=' after the key of SET, found end of input"},
		{"DROP THING x", 1, 6, "expected TABLE, VIEW, FUNCTION, CATALOG, DATABASE, MATERIALIZED TABLE, MODEL or CONNECTION after DROP, found 'THING'"},
		{"SELEC 1", 1, 1, "expected a statement, found 'SELEC'"},
		{"CREATE TABLE t2 WITH ('a' = 'b') LIKE t (EXCLUDING ALL, INCLUDING GENERATED)", 1, 55, "LIKE options are separated by spaces, not commas"},
		{"INSERT INTO t PARTITION (dt = '1', hr) SELECT 1", 1, 38, "expected '=' and a value for partition column 'hr'"},
		{"END", 1, 1, "END without BEGIN STATEMENT SET"},
		{"EXPLAIN CREATE TABLE t (a INT)", 1, 9, "EXPLAIN takes CREATE TABLE … AS and REPLACE TABLE … AS, not other CREATE statements"},
		{"EXPLAIN CHANGELOG_MODE, CHANGELOG_MODE SELECT 1", 1, 25, "explain detail CHANGELOG_MODE is given twice"},
		{"EXECUTE STATEMENT SET BEGIN SELECT 1; END", 1, 29, "a statement set holds only INSERT statements, found 'SELECT'"},
		{"SELECT CAST(x AS RAW('a.B'))", 1, 27, "expected ',', found ')'"},
		{"BEGIN STATEMENT SET;\nINSERT INTO a SELECT 1;", 2, 24, "expected END to close the statement set, found end of input"},
		{"SELECT 'abc", 1, 8, "unterminated string"},
		{"SELECT a\n  FROM t /*+ OPTIONS('a'='b') t2", 2, 33, "unterminated hint"},
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

func TestParseRecoversAndReportsEveryStatement(t *testing.T) {
	src := "SELECT 1;\nSELECT FROM t;\nCREATE TABLE x (a INT) WITH ('k' = 'v');\nINSERT INTO (SELECT 1);\nSELECT (1, (2;\nSELECT 3"
	s, errs := ParseScript(src)
	if len(errs) != 3 {
		t.Fatalf("%d errors, want 3: %v", len(errs), errs)
	}
	wantLines := []int{2, 4, 5}
	for i, e := range errs {
		if e.Pos.Line != wantLines[i] {
			t.Errorf("error %d on line %d, want %d: %v", i, e.Pos.Line, wantLines[i], e)
		}
	}
	kinds := []string{"*ast.QueryStmt", "*ast.BadStmt", "*ast.CreateTable", "*ast.BadStmt", "*ast.BadStmt", "*ast.QueryStmt"}
	if len(s.Stmts) != len(kinds) {
		t.Fatalf("%d statements, want %d", len(s.Stmts), len(kinds))
	}
	for i, st := range s.Stmts {
		if got := typeName(st); got != kinds[i] {
			t.Errorf("statement %d is %s, want %s", i, got, kinds[i])
		}
	}
	if got := s.Text(s.Stmts[3]); got != "INSERT INTO (SELECT 1)" {
		t.Errorf("bad statement text = %q", got)
	}
}

func TestStatementSetRecoversInside(t *testing.T) {
	src := "BEGIN STATEMENT SET;\nINSERT INTO a SELECT;\nINSERT INTO b SELECT 2;\nEND;\nSELECT 1;"
	s, errs := ParseScript(src)
	if len(errs) != 1 || errs[0].Pos.Line != 2 {
		t.Fatalf("errors = %v, want one on line 2", errs)
	}
	set, ok := s.Stmts[0].(*ast.StatementSet)
	if !ok || len(set.Stmts) != 1 || len(s.Stmts) != 2 {
		t.Fatalf("statements = %#v", s.Stmts)
	}
}

func TestReservedWordsAreReported(t *testing.T) {
	// The docs' own example: `user` and `date` are reserved in Flink, so
	// Flink rejects this; the parser builds the tree anyway and says why.
	src := "CREATE TABLE country_page_view (user STRING, cnt INT, date STRING, country STRING)\nPARTITIONED BY (date, country)\nWITH ('connector' = 'print')"
	s, errs := ParseScript(src)
	if len(s.Stmts) != 1 {
		t.Fatalf("statements = %v", s.Stmts)
	}
	if _, ok := s.Stmts[0].(*ast.CreateTable); !ok {
		t.Fatalf("statement = %T, want *CreateTable built despite the errors", s.Stmts[0])
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Pos.String()+" "+e.Msg)
	}
	want := []string{"1:33 'user' is a reserved word in Flink SQL", "1:55 'date' is a reserved word in Flink SQL", "2:17 'date' is a reserved word in Flink SQL"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if errs[0].Hint != "quote it as `user` to use it as a name" || errs[0].Diagnostic().Code != CodeReservedWord {
		t.Errorf("hint = %q, code = %q", errs[0].Hint, errs[0].Diagnostic().Code)
	}
	// Quoted, the same statement is clean.
	if _, errs := ParseScript(strings.NewReplacer("user ", "`user` ", "date", "`date`").Replace(src)); len(errs) != 0 {
		t.Errorf("quoted form: %v", errs)
	}
}

func TestNestingLimit(t *testing.T) {
	deep := "SELECT " + strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000)
	_, errs := ParseScript(deep)
	if len(errs) == 0 || !strings.Contains(errs[0].Msg, "nested too deeply") {
		t.Fatalf("errors = %v", errs)
	}
	ok := "SELECT " + strings.Repeat("(", 100) + "1" + strings.Repeat(")", 100)
	if _, errs := ParseScript(ok); len(errs) != 0 {
		t.Fatalf("100 levels: %v", errs)
	}
}

func TestParseSingle(t *testing.T) {
	if _, errs := Parse("SELECT 1; SELECT 2"); len(errs) != 1 || !strings.Contains(errs[0].Msg, "expected one statement") {
		t.Errorf("Parse of two statements: %v", errs)
	}
	if _, errs := Parse("  -- nothing\n"); len(errs) != 1 || errs[0].Msg != "no statement" {
		t.Errorf("Parse of nothing: %v", errs)
	}
	if st, errs := Parse("SELECT 1;"); len(errs) != 0 || st == nil {
		t.Errorf("Parse with a trailing semicolon: %v", errs)
	}
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }
