package flinksql

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"
)

// validator checks a script statement by statement: its DDL, INSERT
// shapes and SET keys, keeping the catalog up to date as it goes.
type validator struct {
	*findings
	cat     *catalog
	options *optionChecker
	queries *queryResolver
	exprs   *exprChecker
}

// stmt checks one statement and records what it defines.
func (v *validator) stmt(st ast.Statement) {
	switch s := st.(type) {
	case *ast.CreateTable:
		v.createTable(s)
	case *ast.CreateView:
		v.createView(s)
	case *ast.DropStmt:
		switch s.Object {
		case "TABLE", "VIEW", "MATERIALIZED TABLE":
			delete(v.cat.tables, s.Name.Key())
		case "MODEL":
			delete(v.cat.models, s.Name.Key())
		}
	case *ast.AlterTable:
		v.alterTable(s)
	case *ast.AlterView:
		if t, _ := v.cat.lookupTable(s.Name); t != nil && s.As != nil {
			cols, known := v.queries.query(s.As, newScope(nil))
			t.cols, t.unknown = outColumns(cols), !known
		}
		if s.RenameTo != nil {
			if t := v.cat.tables[s.Name.Key()]; t != nil {
				v.cat.rename(t, s.Name.Key(), s.RenameTo.Key())
			}
		}
	case *ast.InsertStmt:
		v.insert(s)
	case *ast.QueryStmt:
		v.queries.query(s.Query, newScope(nil))
	case *ast.StatementSet:
		for _, inner := range s.Stmts {
			v.stmt(inner)
		}
	case *ast.ExecuteStmt:
		v.stmt(s.Stmt)
	case *ast.ExplainStmt:
		if ct, ok := s.Stmt.(*ast.CreateTable); ok {
			// EXPLAIN plans the statement without running it: the table is
			// not created, so its query is checked and nothing registered.
			if ct.As != nil {
				v.queries.query(ct.As, newScope(nil))
			}
			return
		}
		v.stmt(s.Stmt)
	case *ast.CompilePlan:
		v.stmt(s.Stmt)
	case *ast.SetStmt:
		v.checkSetKey(s)
	case *ast.CreateFunction:
		v.cat.functions[strings.ToUpper(s.Name.Last())] = true
	case *ast.CreateCatalog:
		typ, _ := s.With.Get("type")
		v.cat.catalogs[s.Name.Name] = typ
	case *ast.CreateDatabase:
		v.cat.databases[s.Name.Key()] = true
	case *ast.UseStmt:
		v.cat.use(s)
	case *ast.DeleteStmt:
		v.tableExists(s.Table)
	case *ast.UpdateStmt:
		v.tableExists(s.Table)
	case *ast.TruncateStmt:
		v.tableExists(s.Table)
	case *ast.AnalyzeStmt:
		v.tableExists(s.Table)
	default:
		validateNewer(v, st)
	}
}

func (v *validator) tableExists(q *ast.QualifiedName) *tableDef {
	t, skip := v.cat.lookupTable(q)
	if t == nil && !skip {
		v.unknownTable(q, v.cat.tableNames())
	}
	return t
}

func (v *validator) register(t *tableDef, name *ast.QualifiedName, replace, ifNotExists bool, kind string) {
	key := name.Key()
	if old := v.cat.tables[key]; old != nil && !replace && !ifNotExists {
		v.errorf(CodeDuplicateTable, name, "drop it first, or write CREATE "+kind+" IF NOT EXISTS",
			"%s '%s' is already defined earlier in the script", strings.ToLower(kind), key)
	}
	if old := v.cat.tables[key]; old != nil && ifNotExists {
		return
	}
	v.cat.tables[key] = t
}

// columnsFromDDL turns column definitions into column infos.
func columnsFromDDL(cols []*ast.ColumnDef, watermarks []*ast.Watermark) []ColumnInfo {
	var out []ColumnInfo
	for _, c := range cols {
		ci := ColumnInfo{Name: c.Name.Name, Type: c.Type, Kind: c.Kind(), Virtual: c.Virtual}
		if fc, ok := c.Expr.(*ast.FuncCall); ok && fc.FuncName() == "PROCTIME" {
			ci.ProcTime = true
		}
		for _, w := range watermarks {
			if len(w.Column.Parts) == 1 && w.Column.Parts[0].Name == ci.Name {
				ci.RowTime = true
			}
		}
		out = append(out, ci)
	}
	return out
}

func (v *validator) createTable(s *ast.CreateTable) {
	t := &tableDef{name: s.Name.Key(), props: s.With, def: s}
	t.cols = columnsFromDDL(s.Columns, s.Watermarks)
	seen := map[string]bool{}
	for _, c := range s.Columns {
		if seen[c.Name.Name] {
			v.errorf(CodeDuplicateColumn, c.Name, "", "column '%s' is defined twice in table '%s'", c.Name.Name, t.name)
		}
		seen[c.Name.Name] = true
	}
	likeKnown := true
	if s.Like != nil {
		src, skip := v.cat.lookupTable(s.Like.Table)
		switch {
		case src != nil:
			mergeLike(t, s, src)
		case !skip:
			v.unknownTable(s.Like.Table, v.cat.tableNames())
			likeKnown = false
		default:
			likeKnown = false
		}
	}
	if s.As != nil {
		cols, known := v.queries.query(s.As, newScope(nil))
		t.cols, t.unknown = outColumns(cols), !known
	}
	t.connector, _ = t.props.Get("connector")
	t.pk = s.PrimaryKey()
	if t.pk == nil && s.Like != nil {
		if src, _ := v.cat.lookupTable(s.Like.Table); src != nil && likeIncludes(s.Like, "CONSTRAINTS") {
			t.pk = src.pk
		}
	}
	v.checkSchema(s, t)
	if likeKnown {
		v.options.checkTable(s, t)
	}
	v.register(t, s.Name, s.OrReplace || s.Replace, s.IfNotExists, "TABLE")
}

// likeIncludes reports whether the LIKE clause keeps the feature of the
// source table (INCLUDING ALL OVERWRITING OPTIONS by default).
func likeIncludes(l *ast.LikeClause, feature string) bool {
	inc := true
	for _, o := range l.Options {
		if o.Feature == "ALL" || o.Feature == feature {
			inc = o.Strategy != "EXCLUDING"
		}
	}
	return inc
}

// mergeLike gives t what CREATE TABLE ... LIKE src keeps of src.
func mergeLike(t *tableDef, s *ast.CreateTable, src *tableDef) {
	var cols []ColumnInfo
	for _, c := range src.cols {
		switch {
		case c.Kind == ast.ColumnComputed && !likeIncludes(s.Like, "GENERATED"):
			continue
		case c.Kind == ast.ColumnMetadata && !likeIncludes(s.Like, "METADATA"):
			continue
		}
		if !likeIncludes(s.Like, "WATERMARKS") {
			c.RowTime = false
		}
		cols = append(cols, c)
	}
	own := t.cols
	t.cols = append(cols, own...)
	// A watermark of the new table may name an inherited column.
	for _, w := range s.Watermarks {
		if c := t.column(w.Column.Parts[0].Name); c != nil {
			c.RowTime = true
		}
	}
	t.unknown = src.unknown
	if likeIncludes(s.Like, "OPTIONS") {
		merged := ast.Properties{}
		for _, p := range src.props {
			if s.With.Find(p.Key.Value) == nil {
				merged = append(merged, p)
			}
		}
		t.props = append(merged, s.With...)
	}
}

// checkSchema checks watermarks, keys and partition columns against the
// columns.
func (v *validator) checkSchema(s *ast.CreateTable, t *tableDef) {
	if t.unknown {
		return
	}
	names := func() []string {
		out := make([]string, len(t.cols))
		for i, c := range t.cols {
			out[i] = c.Name
		}
		return out
	}
	scope := newScope(nil)
	scope.rels = []*relation{{alias: s.Name.Last(), cols: t.cols}}
	for _, c := range s.Columns {
		if c.Expr != nil {
			v.exprs.expr(c.Expr, scope)
		}
	}
	for _, w := range s.Watermarks {
		name := w.Column.Parts[0].Name
		c := t.column(name)
		if c == nil {
			v.errorf(CodeBadWatermark, w.Column, didYouMean(name, names()), "watermark column '%s' is not a column of '%s'", name, t.name)
			continue
		}
		if c.Type != nil && c.Type.UserType == nil && len(w.Column.Parts) == 1 {
			root := c.Type.Root()
			if root != "TIMESTAMP" && root != "TIMESTAMP_LTZ" {
				v.errorf(CodeBadWatermark, w.Column, "declare it TIMESTAMP(3) or TIMESTAMP_LTZ(3), or compute one: ts AS TO_TIMESTAMP_LTZ("+name+", 3)",
					"watermark column '%s' is %s; it must be TIMESTAMP or TIMESTAMP_LTZ", name, c.Type.String())
			}
		}
		v.exprs.expr(w.Expr, scope)
	}
	pks := 0
	for _, c := range s.Columns {
		if c.Constraint != nil {
			pks++
			v.checkConstraint(c.Constraint)
		}
	}
	for _, c := range s.Constraints {
		pks++
		v.checkConstraint(c)
		for _, id := range c.Columns {
			if t.column(id.Name) == nil {
				v.errorf(CodeBadPrimaryKey, id, didYouMean(id.Name, names()), "primary key column '%s' is not a column of '%s'", id.Name, t.name)
			} else if col := t.column(id.Name); col.Kind != ast.ColumnPhysical {
				v.errorf(CodeBadPrimaryKey, id, "", "primary key column '%s' must be a physical column, not a %s one", id.Name, col.Kind)
			}
		}
	}
	if pks > 1 {
		v.errorf(CodeBadPrimaryKey, s.Name, "", "table '%s' declares more than one primary key", t.name)
	}
	for _, id := range s.PartitionBy {
		if t.column(id.Name) == nil {
			v.errorf(CodeUnknownColumn, id, didYouMean(id.Name, names()), "partition column '%s' is not a column of '%s'", id.Name, t.name)
		}
	}
}

func (v *validator) checkConstraint(c *ast.TableConstraint) {
	if c.Kind == "UNIQUE" {
		v.errorf(CodeBadPrimaryKey, c, "declare a PRIMARY KEY ... NOT ENFORCED instead", "UNIQUE constraints are not supported by Flink")
		return
	}
	if c.Enforced != "NOT ENFORCED" {
		v.errorf(CodeBadPrimaryKey, c, "add NOT ENFORCED: Flink does not own the data, so it cannot enforce the key",
			"primary key must be declared NOT ENFORCED")
	}
}

func (v *validator) createView(s *ast.CreateView) {
	cols, known := v.queries.query(s.Query, newScope(nil))
	t := &tableDef{name: s.Name.Key(), view: true, def: s, cols: outColumns(cols), unknown: !known}
	if len(s.Columns) > 0 {
		if known && len(s.Columns) != len(cols) {
			v.errorf(CodeInsertArity, s.Name, "", "view '%s' names %d columns but its query produces %d", t.name, len(s.Columns), len(cols))
		}
		renamed := make([]ColumnInfo, len(s.Columns))
		for i, id := range s.Columns {
			renamed[i] = ColumnInfo{Name: id.Name}
			if i < len(t.cols) {
				renamed[i] = t.cols[i]
				renamed[i].Name = id.Name
			}
		}
		t.cols = renamed
		t.unknown = false
	}
	v.register(t, s.Name, s.OrReplace, s.IfNotExists, "VIEW")
}

func (v *validator) alterTable(s *ast.AlterTable) {
	t, skip := v.cat.lookupTable(s.Name)
	if t == nil {
		if !skip && !s.IfExists {
			v.unknownTable(s.Name, v.cat.tableNames())
		}
		return
	}
	switch a := s.Action.(type) {
	case *ast.RenameTable:
		v.cat.rename(t, s.Name.Key(), a.To.Key())
	case *ast.RenameColumn:
		if c := t.column(a.From.Last()); c != nil {
			c.Name = a.To.Name
		} else if !t.unknown {
			v.errorf(CodeUnknownColumn, a.From, "", "table '%s' has no column '%s'", t.name, a.From.Last())
		}
	case *ast.SetOptions:
		for _, p := range a.Props {
			if old := t.props.Find(p.Key.Value); old != nil {
				old.Value = p.Value
			} else {
				t.props = append(t.props, p)
			}
		}
		t.connector, _ = t.props.Get("connector")
		if spec := builtin.Connectors[t.connector]; spec != nil && spec.Checked {
			v.options.checkKeys(t.props, spec, t, a.Props)
		}
	case *ast.ResetOptions:
		for _, k := range a.Keys {
			kept := t.props[:0]
			for _, p := range t.props {
				if p.Key.Value != k.Value {
					kept = append(kept, p)
				}
			}
			t.props = kept
		}
	case *ast.AlterSchema:
		for _, it := range a.Items {
			col, ok := it.(*ast.ColumnDef)
			if !ok {
				continue
			}
			ci := columnsFromDDL([]*ast.ColumnDef{col}, nil)[0]
			existing := t.column(col.Name.Name)
			switch {
			case a.Modify && existing == nil && !t.unknown:
				v.errorf(CodeUnknownColumn, col.Name, "", "cannot MODIFY '%s': table '%s' has no such column", col.Name.Name, t.name)
			case !a.Modify && existing != nil:
				v.errorf(CodeDuplicateColumn, col.Name, "use MODIFY to change it", "table '%s' already has a column '%s'", t.name, col.Name.Name)
			case existing != nil:
				*existing = ci
			default:
				t.cols = append(t.cols, ci)
			}
		}
	case *ast.DropSchema:
		for _, c := range a.Columns {
			name := c.Last()
			if t.column(name) == nil {
				if !t.unknown {
					v.errorf(CodeUnknownColumn, c, "", "cannot DROP '%s': table '%s' has no such column", name, t.name)
				}
				continue
			}
			kept := t.cols[:0]
			for _, col := range t.cols {
				if col.Name != name {
					kept = append(kept, col)
				}
			}
			t.cols = kept
		}
	}
}
