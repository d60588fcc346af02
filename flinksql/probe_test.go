package flinksql

import (
	"slices"
	"testing"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/flinksql/builtin"
)

// TestProbe: what the grammar wants at the end of a statement's text, as
// completion reads it — the words, the names (by what they are for), and
// whether an expression or a type may start.
func TestProbe(t *testing.T) {
	cases := []struct {
		text      string
		words     []string // these, in this order, among Words
		names     []string
		expr, typ bool
	}{
		{text: "", words: []string{"SELECT", "INSERT", "CREATE"}},
		{text: "INSERT ", words: []string{"INTO", "OVERWRITE"}},
		{text: "SELECT * FROM ", words: []string{"TABLE"}, names: []string{"a table name"}},
		{text: "INSERT INTO t (", names: []string{"a column of the sink"}},
		{text: "SELECT a, ", expr: true},
		{text: "SELECT CAST(a AS ", typ: true},
	}
	for _, tc := range cases {
		got := Probe(tc.text, builtin.Version{})
		at := 0
		for _, w := range tc.words {
			i := slices.Index(got.Words[at:], w)
			if i < 0 {
				t.Errorf("Probe(%q).Words = %v: no %s after %v", tc.text, got.Words, w, got.Words[:at])
				break
			}
			at += i + 1
		}
		if !slices.Equal(got.Names, tc.names) || got.Expr != tc.expr || got.Type != tc.typ {
			t.Errorf("Probe(%q) = names %q, expr %v, type %v; want %q, %v, %v", tc.text, got.Names, got.Expr, got.Type, tc.names, tc.expr, tc.typ)
		}
	}
}

// TestTables: the columns of the statements a Tables was given, as
// Validate sees them: a view's from its query, the event-time attribute
// from the WATERMARK, a query's from its select list, and a DROP undoes a
// table.
func TestTables(t *testing.T) {
	script, errs := ParseScript(`CREATE TABLE orders (id BIGINT, amount DOUBLE, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen');
CREATE VIEW big AS SELECT id, amount * 2 AS doubled, ts FROM orders WHERE amount > 10;
CREATE TABLE gone (x INT) WITH ('connector' = 'datagen');
DROP TABLE gone;
SELECT o.id AS oid, b.doubled FROM orders AS o JOIN big AS b ON o.id = b.id;`)
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	tables := NewTables(Options{})
	for _, st := range script.Stmts {
		tables.Define(st)
	}
	names := func(cols []ColumnInfo) []string {
		var out []string
		for _, c := range cols {
			out = append(out, c.Name)
		}
		return out
	}
	cols, ok := tables.Columns("big")
	if !ok || !slices.Equal(names(cols), []string{"id", "doubled", "ts"}) || !cols[2].RowTime {
		t.Errorf("Columns(big) = %+v, %v; want id, doubled, ts (event time)", cols, ok)
	}
	if cols, ok := tables.Columns("default_catalog.default_database.orders"); !ok || len(cols) != 3 {
		t.Errorf("Columns of orders by its full name = %+v, %v", cols, ok)
	}
	if cols, ok := tables.Columns("gone"); ok {
		t.Errorf("Columns(gone) after DROP = %+v, want none", cols)
	}
	q := script.Stmts[len(script.Stmts)-1].(*ast.QueryStmt).Query
	if got := names(tables.QueryColumns(q)); !slices.Equal(got, []string{"oid", "doubled"}) {
		t.Errorf("QueryColumns = %v, want oid, doubled", got)
	}
}
