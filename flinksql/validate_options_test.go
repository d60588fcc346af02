package flinksql

import (
	"strings"
	"testing"
)

func TestCheckParseOnly(t *testing.T) {
	r := Check("SELECT a FROM nowhere;\nSELECT FROM;", Options{ParseOnly: true})
	if len(r.Diagnostics) != 1 || r.Diagnostics[0].Code != CodeSyntax || r.Diagnostics[0].Pos.Line != 2 {
		t.Fatalf("ParseOnly diagnostics = %v, want one syntax error on line 2", r.Diagnostics)
	}
	if r.Errors() != 1 || r.Warnings() != 0 {
		t.Errorf("Errors/Warnings = %d/%d", r.Errors(), r.Warnings())
	}
	if len(r.Script.Stmts) != 2 {
		t.Errorf("script has %d statements, want 2 (one bad)", len(r.Script.Stmts))
	}
}

func TestIgnoreUnknownTables(t *testing.T) {
	r := Check("SELECT a, b FROM nowhere JOIN elsewhere ON nowhere.a = elsewhere.c;", Options{IgnoreUnknownTables: true})
	if len(r.Diagnostics) != 0 {
		t.Fatalf("diagnostics = %v, want none", r.Diagnostics)
	}
}

// A script with no DDL reads its tables from a catalog: one warning, no
// unknown-table errors; one CREATE TABLE makes every other name checked.
func TestScriptWithoutDDLUsesCatalogTables(t *testing.T) {
	r := Check("INSERT INTO sink SELECT a FROM src;\nSELECT x FROM other;", Options{})
	if r.Errors() != 0 || r.Warnings() != 1 || r.Diagnostics[0].Code != CodeCatalogTables {
		t.Fatalf("diagnostics = %v", r.Diagnostics)
	}
	r = Check("CREATE TABLE src (a INT) WITH ('connector' = 'datagen');\nINSERT INTO sink SELECT a FROM src;", Options{})
	if r.Errors() != 1 || r.Diagnostics[0].Code != CodeUnknownSink {
		t.Fatalf("with DDL: %v", r.Diagnostics)
	}
}

func TestDiagnosticSnippetAndFile(t *testing.T) {
	src := "CREATE TABLE users (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED)\n" +
		"WITH ('connector' = 'jdbc', 'url' = 'jdbc:mysql://dim-db:3306/app', 'table-name' = 'users', 'lookup.cache' = 'PARTAL');"
	r := Check(src, Options{File: "job.sql"})
	if len(r.Diagnostics) != 1 {
		t.Fatalf("diagnostics = %v", r.Diagnostics)
	}
	d := r.Diagnostics[0]
	if got := d.Error(); got != "job.sql:2:110: error: invalid value 'PARTAL' for 'lookup.cache'; did you mean 'PARTIAL'?" {
		t.Errorf("Error() = %q", got)
	}
	lines := strings.Split(d.Snippet(), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[1], "^^^^^^^^ invalid value 'PARTAL' for 'lookup.cache'; did you mean 'PARTIAL'?") {
		t.Errorf("Snippet:\n%s", d.Snippet())
	}
	if caret := strings.Index(lines[1], "^"); caret != strings.Index(lines[0], "'PARTAL'") {
		t.Errorf("caret at %d, value at %d", caret, strings.Index(lines[0], "'PARTAL'"))
	}
}
