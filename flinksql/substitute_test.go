package flinksql

import (
	"strings"
	"testing"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"

	"github.com/palink/palink/flinksql/format"
)

// TestParseWithVarsPlacesAllInTheTextAsWritten: the values stand in the
// tree, but every position — a node's, an error's, a release's refusal's —
// is one of the text as written, whatever the values' lengths and lines.
func TestParseWithVarsPlacesAllInTheTextAsWritten(t *testing.T) {
	src := "CREATE TABLE t (a STRING) WITH ('connector' = '${conn}', 'password' = '${pw}');\n" +
		"SELECT ${col}, a FROM t WHERE ;\n" +
		"INSERT INTO s SELECT * FROM t ON CONFLICT DO NOTHING;"
	values := map[string]string{"conn": "data\ngen", "col": "a_much_longer_name"}
	script, errs := ParseWithVars("job.sql", src, values)
	if script.Src != src {
		t.Errorf("Src is not the text as written")
	}
	ct := script.Stmts[0].(*ast.CreateTable)
	if c, _ := ct.With.Get("connector"); c != "data\ngen" {
		t.Errorf("connector = %q, want the value", c)
	}
	if pw, _ := ct.With.Get("password"); pw != "vvvvv" {
		t.Errorf("a variable without a value reads %q, want a name of its length", pw)
	}
	if len(errs) != 1 || errs[0].Pos.String() != "2:31" || !strings.HasPrefix(errs[0].Error(), "job.sql:2:31:") {
		t.Fatalf("errors %v, want one at 2:31 (the ';' as written)", errs)
	}
	if !strings.Contains(errs[0].Snippet(), "SELECT ${col}, a FROM t WHERE ;") {
		t.Errorf("the snippet is not of the text as written:\n%s", errs[0].Snippet())
	}
	sel := script.Stmts[1].(*ast.BadStmt)
	if sel.Pos.String() != "2:1" {
		t.Errorf("the statement that failed starts at %s", sel.Pos)
	}
	ins := script.Stmts[2].(*ast.InsertStmt)
	if ins.Pos.String() != "3:1" {
		t.Errorf("the INSERT starts at %s, want 3:1", ins.Pos)
	}
	lacks := ReleaseLacks(script, Options{File: "job.sql", Version: builtin.Version{Major: 2, Minor: 2}})
	if len(lacks) != 1 || !strings.HasPrefix(lacks[0].Error(), "job.sql:3:31: error: INSERT … ON CONFLICT needs Flink 2.3") {
		t.Errorf("ReleaseLacks = %v, want ON CONFLICT at 3:31", lacks)
	}

	script, errs = ParseWithVars("", "SELECT ${col} + 1, b FROM t", values)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	items := script.Stmts[0].(*ast.QueryStmt).Query.Body.(*ast.Select).Items
	col := items[0].Expr.(*ast.BinaryExpr).L.(*ast.ColumnRef)
	if col.Key() != "a_much_longer_name" || col.Pos.String() != "1:8" || col.End.String() != "1:14" {
		t.Errorf("the value's column %s stands at %s-%s, want the reference's 1:8-1:14", col.Key(), col.Pos, col.End)
	}
	if b := items[1].Expr; b.Range().Pos.String() != "1:20" {
		t.Errorf("b stands at %s, want 1:20 as written", b.Range().Pos)
	}
}

// TestFillOptionsPutsSecretsInTheirOptions: a script parsed without its
// secrets refuses those outside options (SecretsOutsideOptionsIn) and
// gets the others' values in its options, as the text would hold them.
func TestFillOptionsPutsSecretsInTheirOptions(t *testing.T) {
	src := "CREATE TABLE t (a STRING) WITH ('connector' = 'jdbc', 'url' = 'jdbc:x://${host}/${db}?p=${pw}', 'password' = '${pw}');\n" +
		"INSERT INTO s SELECT a FROM t /*+ OPTIONS('k' = ${pw}, 'j' = '${pw}''s') */;"
	script, errs := ParseWithVars("", src, map[string]string{"host": "h1", "db": "orders"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if ds := SecretsOutsideOptionsIn(script, "job.sql", []string{"pw"}, SeverityError); len(ds) > 0 {
		t.Fatalf("refused: %v", ds)
	}
	if err := FillOptions(script, map[string]string{"pw": "s3cr3t"}); err != nil {
		t.Fatal(err)
	}
	ct := script.Stmts[0].(*ast.CreateTable)
	if u, _ := ct.With.Get("url"); u != "jdbc:x://h1/orders?p=s3cr3t" {
		t.Errorf("url = %q", u)
	}
	if p, _ := ct.With.Get("password"); p != "s3cr3t" {
		t.Errorf("password = %q", p)
	}
	var hint *ast.Hint
	ast.Inspect(script.Stmts[1], func(n ast.Node) bool {
		if h, ok := n.(*ast.Hint); ok {
			hint = h
		}
		return true
	})
	if k, _ := hint.Option("k"); k != "s3cr3t" {
		t.Errorf("unquoted hint value = %q", k)
	}
	if j, _ := hint.Option("j"); j != "s3cr3t's" {
		t.Errorf("quoted hint value = %q", j)
	}

	script, _ = ParseWithVars("", "CREATE TABLE t (a STRING) WITH ('password' = '${pw}');", nil)
	if err := FillOptions(script, map[string]string{"pw": "it's"}); err == nil || strings.Contains(err.Error(), "it's") ||
		!strings.Contains(err.Error(), "1:46: the value of variable ${pw} ends the option's string") {
		t.Errorf("a quote in a secret: %v", err)
	}

	script, _ = ParseWithVars("", "CREATE TABLE t (a STRING) WITH ('connector' = 'x');\nSELECT a, '${pw}' FROM t;", nil)
	ds := SecretsOutsideOptionsIn(script, "job.sql", []string{"pw"}, SeverityError)
	if len(ds) != 1 || !strings.HasPrefix(ds[0].Error(), "job.sql:2:12: error: a debug run refuses secret variable ${pw}") {
		t.Errorf("a secret outside options: %v", ds)
	}
}

// TestPrependInjectsParsedTables: the catalog's tables go before the
// script's statements as parsed trees, their variables' values in.
func TestPrependInjectsParsedTables(t *testing.T) {
	script, _ := ParseScript("INSERT INTO out_t SELECT id FROM dim JOIN users ON dim.id = users.id;")
	in := InjectCatalog(script, []CatalogDef{
		{Name: "dim", Version: 2, SQL: "CREATE TABLE dim (id BIGINT) WITH ('connector' = 'datagen')"},
		{Name: "users", Version: 1, SQL: "CREATE TABLE users (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '${n}')"},
	}, Options{})
	if err := in.Prepend(script, map[string]string{"n": "42"}); err != nil {
		t.Fatal(err)
	}
	if len(script.Stmts) != 3 {
		t.Fatalf("%d statements, want the 2 tables and the INSERT", len(script.Stmts))
	}
	dim, users := script.Stmts[0].(*ast.CreateTable), script.Stmts[1].(*ast.CreateTable)
	if dim.Name.Last() != "dim" || !dim.Temporary || users.Name.Last() != "users" || !users.Temporary {
		t.Errorf("injected %s, %s", format.Statement(dim), format.Statement(users))
	}
	if n, _ := users.With.Get("number-of-rows"); n != "42" {
		t.Errorf("users' number-of-rows = %q, want the variable's value", n)
	}
}
