package flinksql

import (
	"github.com/palink/palink/flinksql/ast"
)

// validateNewer checks the statements of Flink 1.20 and 2.x and records
// what they define: a materialized table is a table whose columns are its
// query's, a model a name ML_PREDICT may use.
func validateNewer(v *validator, st ast.Statement) {
	switch s := st.(type) {
	case *ast.CreateMaterializedTable:
		cols, known := v.queries.query(s.As, newScope(nil))
		t := &tableDef{name: s.Name.Key(), def: s, props: s.With, cols: outColumns(cols), unknown: !known}
		if len(s.ColumnNames) > 0 {
			t.cols = renameColumns(t.cols, s.ColumnNames)
		}
		v.register(t, s.Name, s.OrAlter, false, "MATERIALIZED TABLE")
	case *ast.AlterMaterializedTable:
		t := v.tableExists(s.Name)
		if t == nil {
			return
		}
		switch {
		case s.As != nil:
			cols, known := v.queries.query(s.As, newScope(nil))
			t.cols, t.unknown = outColumns(cols), !known
		case s.Action != nil:
			if r, ok := s.Action.(*ast.RenameTable); ok {
				v.cat.rename(t, s.Name.Key(), r.To.Key())
			}
		}
	case *ast.CreateModel:
		if s.As != nil {
			v.queries.query(s.As, newScope(nil))
		}
		v.cat.models[s.Name.Key()] = true
	case *ast.AlterObject:
		if s.Object == "MODEL" && s.RenameTo != nil && v.cat.models[s.Name.Key()] {
			delete(v.cat.models, s.Name.Key())
			v.cat.models[s.RenameTo.Key()] = true
		}
	}
}
