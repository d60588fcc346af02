package flinksql

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// Tables is what a validation knows of the tables after the statements it
// was given, for a caller that validates a few statements of a script and
// wants their columns as Validate sees them, time attributes included:
// completion gives it the DDL the cursor's statement reads. What the
// validation finds wrong is dropped.
type Tables struct{ v *validator }

// NewTables starts from opts: its KnownTables, and with
// IgnoreUnknownTables a name no statement defined is a table of unknown
// shape rather than an error.
func NewTables(opts Options) *Tables { return &Tables{v: newValidator("", "", opts)} }

// Define validates st as Validate would, so a CREATE TABLE or VIEW, an
// ALTER or a DROP changes the tables.
func (t *Tables) Define(st ast.Statement) { t.v.stmt(st) }

// Columns are the columns of the table or view name refers to ("orders",
// "cat.db.orders"); ok is false when it is not one of the tables. A table
// of unknown shape has none.
func (t *Tables) Columns(name string) (cols []ColumnInfo, ok bool) {
	var q ast.QualifiedName
	for _, p := range strings.Split(name, ".") {
		q.Parts = append(q.Parts, &ast.Ident{Name: p})
	}
	def, _ := t.v.cat.lookupTable(&q)
	if def == nil {
		return nil, false
	}
	return def.cols, true
}

// QueryColumns are the columns q's select list gives, resolved against the
// tables (a subquery's or a CTE's, for completion).
func (t *Tables) QueryColumns(q *ast.Query) []ColumnInfo {
	out, _ := t.v.queries.query(q, newScope(nil))
	return outColumns(out)
}
