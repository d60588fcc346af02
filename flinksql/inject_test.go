package flinksql

import (
	"strings"
	"testing"
)

var catalogDefs = []CatalogDef{
	{Name: "orders", Version: 3, SQL: "CREATE TABLE orders (id BIGINT, user_id BIGINT, amount DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen')"},
	{Name: "users", Version: 1, SQL: "CREATE TABLE users (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://db:5432/app', 'table-name' = 'users')"},
	{Name: "enriched", Version: 2, SQL: "CREATE TABLE enriched (id BIGINT, name STRING, amount DOUBLE) WITH ('connector' = 'print')"},
	{Name: "unused", Version: 1, SQL: "CREATE TABLE unused (x INT) WITH ('connector' = 'datagen')"},
}

const onlyInsert = "INSERT INTO enriched\nSELECT o.id, u.name, o.amount FROM orders AS o JOIN users AS u ON o.user_id = u.id;\n"

func TestInjectCatalogGivesTheTablesUsedAndNotDefined(t *testing.T) {
	res, in := CheckWithCatalog(onlyInsert, Options{}, catalogDefs)
	if res.Errors() > 0 || res.Warnings() > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	var got []string
	for _, tb := range in.Tables {
		got = append(got, tb.Ref())
	}
	if strings.Join(got, " ") != "enriched@v2 orders@v3 users@v1" {
		t.Errorf("injected %v, want enriched, orders, users in the order of use", got)
	}
	for _, st := range in.Statements() {
		if !strings.HasPrefix(st, "CREATE TEMPORARY TABLE ") {
			t.Errorf("statement %q is not CREATE TEMPORARY TABLE", st)
		}
	}
	// The applied script checks on its own, with nothing from the catalog.
	if r := Check(in.Apply(onlyInsert), Options{}); r.Errors() > 0 {
		t.Errorf("the injected script does not validate: %v\n%s", r.Diagnostics, in.Apply(onlyInsert))
	}
	// A column the catalog table lacks is an error at the script's own line.
	res, _ = CheckWithCatalog(strings.Replace(onlyInsert, "o.amount", "o.price", 1), Options{}, catalogDefs)
	if res.Errors() != 1 || res.Diagnostics[0].Code != CodeUnknownColumn || res.Diagnostics[0].Pos.Line != 2 {
		t.Errorf("want one unknown-column error on line 2, got %v", res.Diagnostics)
	}
}

func TestInjectCatalogOwnDDLWins(t *testing.T) {
	src := "CREATE TABLE enriched (id BIGINT, name STRING, amount DOUBLE) WITH ('connector' = 'blackhole');\n" + onlyInsert
	res, in := CheckWithCatalog(src, Options{}, catalogDefs)
	if res.Errors() > 0 {
		t.Fatalf("errors: %v", res.Diagnostics)
	}
	if len(in.Shadowed) != 1 || in.Shadowed[0].Name != "enriched" || len(in.Tables) != 2 {
		t.Fatalf("shadowed %v, injected %d; want enriched shadowed and two injected", in.Shadowed, len(in.Tables))
	}
	if res.Warnings() != 1 || res.Diagnostics[0].Code != CodeCatalogShadowed || res.Diagnostics[0].Pos.Line != 1 {
		t.Errorf("want a catalog-shadowed warning on line 1, got %v", res.Diagnostics)
	}
}

func TestInjectCatalogBrokenTableRefused(t *testing.T) {
	defs := append([]CatalogDef{}, catalogDefs...)
	defs[1].SQL = "CREATE TABLE users (id BIGINT) WITH ('connector' = 'jdbc')" // no url
	res, in := CheckWithCatalog(onlyInsert, Options{}, defs)
	if in.Err() == nil || !strings.Contains(in.Err().Error(), "users@v1") {
		t.Fatalf("Err() = %v, want users@v1 named", in.Err())
	}
	var codes []string
	for _, d := range res.Diagnostics {
		codes = append(codes, d.Code)
	}
	if res.Errors() != 1 || res.Diagnostics[0].Code != CodeCatalogBroken || res.Diagnostics[0].Pos.Line != 2 ||
		!strings.Contains(res.Diagnostics[0].Msg, "url") {
		t.Errorf("want one catalog-broken error on line 2 naming the missing url, got %v %v", codes, res.Diagnostics)
	}
}

func TestParseCatalogTableRefusals(t *testing.T) {
	for _, c := range []struct{ name, sql, want string }{
		{"t", "CREATE TABLE t (x INT) WITH ('connector' = 'datagen'); CREATE TABLE u (x INT) WITH ('connector' = 'datagen')", "not 2 statements"},
		{"t", "CREATE VIEW t AS SELECT 1", "not CREATE VIEW"},
		{"t", "CREATE TABLE u (x INT) WITH ('connector' = 'datagen')", "creates table u, not t"},
		{"t", "CREATE TABLE t (x INT) WITH ('connector' = 'kafka')", "topic"},
		{"t", "CREATE TABLE t WITH ('connector' = 'datagen') LIKE u", "LIKE"},
		{"t", "CREATE TABLE db.t (x INT) WITH ('connector' = 'datagen')", "no catalog or database"},
		{"t", "CREATE TABLE t (x INT", "expected"},
	} {
		_, err := ParseCatalogTable(c.name, c.sql, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseCatalogTable(%q) = %v, want an error with %q", c.sql, err, c.want)
		}
	}
	if _, err := ParseCatalogTable("orders", catalogDefs[0].SQL, Options{}); err != nil {
		t.Errorf("a good definition: %v", err)
	}
}

func TestVariables(t *testing.T) {
	src := "CREATE TABLE t (id BIGINT) WITH ('connector' = 'jdbc', 'url' = '${db_url}', 'table-name' = 't', 'password' = '${db_pass}');\n" +
		"CREATE TABLE s (id BIGINT) WITH ('connector' = 'print');\nINSERT INTO s SELECT id FROM t /* ${db_urll} */;\n"
	refs := FindVars(src)
	if len(refs) != 3 || refs[2].Name != "db_urll" || refs[2].Pos.Line != 3 || refs[2].Pos.Col != 35 {
		t.Fatalf("FindVars = %+v", refs)
	}
	a := Assets{Vars: map[string]string{"db_url": "jdbc:postgresql://db/app"}, Secrets: []string{"db_pass"}}
	res, _ := CheckWithAssets(src, Options{File: "job.sql"}, a)
	if res.Errors() != 1 || res.Diagnostics[0].Code != CodeUndefinedVariable || res.Diagnostics[0].Pos.String() != "3:35" ||
		!strings.Contains(res.Diagnostics[0].Error(), "did you mean ${db_url}?") {
		t.Errorf("want one undefined-variable error at 3:35 with a suggestion, got %v", res.Diagnostics)
	}
	got := SubstituteVars(src, map[string]string{"db_url": "U", "db_pass": "P"})
	if !strings.Contains(got, "'url' = 'U'") || !strings.Contains(got, "'password' = 'P'") || !strings.Contains(got, "${db_urll}") {
		t.Errorf("SubstituteVars:\n%s", got)
	}
	if FindVars("cost: $5, ${ not a var}, ${9x}") != nil {
		t.Error("FindVars took something that is no ${name}")
	}
}
