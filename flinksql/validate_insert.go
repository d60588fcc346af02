package flinksql

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"
)

// insert checks an INSERT against its sink: that it is a table, the
// columns written and their number, what a Kafka sink can write, and
// whether the sink can take the updates the query produces.
func (v *validator) insert(s *ast.InsertStmt) {
	cols, known := v.queries.query(s.Query, newScope(nil))
	t, skip := v.cat.lookupTable(s.Table)
	if t == nil {
		if !skip {
			hint := didYouMean(s.Table.Key(), v.cat.tableNames())
			if hint == "" {
				hint = "define the sink with CREATE TABLE before the INSERT"
			}
			v.errorf(CodeUnknownSink, s.Table, hint, "unknown sink table '%s'", s.Table.Key())
		}
		return
	}
	if t.view {
		v.errorf(CodeInsertIntoView, s.Table, "insert into a table; a view is read-only", "'%s' is a view", t.name)
		return
	}
	if len(s.Hints) > 0 {
		v.options.checkHints(s.Hints, t)
	}
	if t.connector == "kafka" {
		if _, ok := t.props.Get("topic"); !ok {
			if _, ok := t.props.Get("topic-pattern"); ok {
				v.errorf(CodeMissingOption, s.Table, "set 'topic': 'topic-pattern' only works for reading",
					"kafka sink '%s' has 'topic-pattern' but no 'topic'", t.name)
			}
		}
		for _, c := range t.cols {
			if c.Kind == ast.ColumnMetadata && !c.Virtual && kafkaReadOnly(c, t) {
				v.errorf(CodeInsertArity, s.Table, "declare the column VIRTUAL",
					"sink '%s' writes metadata column '%s', which Kafka can only read", t.name, c.Name)
			}
		}
	}
	if t.unknown {
		return
	}
	static := map[string]bool{}
	for _, pv := range s.Partition {
		if pv.Value != nil {
			static[pv.Name.Name] = true
		}
		if t.column(pv.Name.Name) == nil {
			v.errorf(CodeUnknownColumn, pv.Name, didYouMean(pv.Name.Name, colNames(t.cols)), "partition column '%s' is not a column of '%s'", pv.Name.Name, t.name)
		}
	}
	var targets []string
	if len(s.Columns) > 0 {
		for _, id := range s.Columns {
			c := t.column(id.Name)
			switch {
			case c == nil:
				v.errorf(CodeUnknownColumn, id, didYouMean(id.Name, colNames(t.cols)), "sink '%s' has no column '%s'", t.name, id.Name)
			case c.Kind == ast.ColumnComputed:
				v.errorf(CodeUnknownColumn, id, "", "'%s' is a computed column of '%s' and cannot be written", id.Name, t.name)
			case c.Virtual:
				v.errorf(CodeUnknownColumn, id, "", "'%s' is a VIRTUAL metadata column of '%s' and cannot be written", id.Name, t.name)
			}
			targets = append(targets, id.Name)
		}
	} else {
		for _, c := range t.cols {
			if c.Kind == ast.ColumnComputed || c.Virtual || static[c.Name] {
				continue
			}
			targets = append(targets, c.Name)
		}
	}
	if known && len(cols) != len(targets) {
		v.errorf(CodeInsertArity, s.Query, "the sink takes: "+strings.Join(targets, ", "),
			"the query produces %d columns but sink '%s' takes %d", len(cols), t.name, len(targets))
	}
	if sel, ok := s.Query.Body.(*ast.Select); ok {
		for _, it := range sel.Items {
			if _, star := it.Expr.(*ast.Star); star {
				v.warnf(CodeSelectStar, it, "list the columns, so a new source column does not shift the sink's",
					"SELECT * into sink '%s'", t.name)
			}
		}
	}
	if isUpdating(s.Query) {
		spec := builtin.Connectors[t.connector]
		switch {
		case spec != nil && spec.AppendOnlySink || t.connector == "filesystem":
			hint := "aggregate over a window (TUMBLE, HOP, CUMULATE) to get final rows"
			if t.connector == "kafka" {
				hint = "write to an 'upsert-kafka' table with a PRIMARY KEY, or " + hint
			}
			v.warnf(CodeAppendOnlySink, s.Query, hint,
				"the query produces updates but %s sink '%s' can only append", t.connector, t.name)
		case t.pk == nil && (t.connector == "jdbc" || strings.HasPrefix(t.connector, "elasticsearch") || strings.HasPrefix(t.connector, "hbase")):
			v.warnf(CodeMissingPrimaryKey, s.Table, "declare PRIMARY KEY (...) NOT ENFORCED on the sink so updates become upserts",
				"the query produces updates but sink '%s' has no primary key", t.name)
		}
	}
}

func kafkaReadOnly(c ColumnInfo, t *tableDef) bool {
	key := c.Name
	if def, ok := t.def.(*ast.CreateTable); ok {
		if cd := def.Column(c.Name); cd != nil && cd.MetadataFrom != nil {
			key = cd.MetadataFrom.Value
		}
	}
	switch key {
	case "topic", "partition", "offset", "leader-epoch", "timestamp-type":
		return true
	}
	return strings.HasPrefix(key, "value.")
}

// isUpdating reports whether a query's result has updates: a GROUP BY or
// DISTINCT that is not per window, or an aggregate over the whole input.
// Joins and Top-N are not considered, so it errs on the side of silence.
func isUpdating(q *ast.Query) bool {
	s, ok := q.Body.(*ast.Select)
	if !ok {
		return false
	}
	windowed := false
	for _, g := range s.GroupBy {
		ast.Inspect(g, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ColumnRef:
				if name := x.Name(); name == "window_start" || name == "window_end" {
					windowed = true
				}
			case *ast.FuncCall:
				switch x.FuncName() {
				case "TUMBLE", "HOP", "SESSION", "CUMULATE":
					windowed = true
				}
			}
			return true
		})
	}
	if len(s.GroupBy) > 0 {
		return !windowed
	}
	if s.Distinct {
		return true
	}
	agg := false
	for _, it := range s.Items {
		ast.Inspect(it.Expr, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncCall:
				if x.Over != nil || x.OverRef != nil {
					return false
				}
				if builtin.AggregateFuncs[x.FuncName()] {
					agg = true
				}
			case *ast.SubqueryExpr, *ast.ExistsExpr:
				return false
			}
			return true
		})
	}
	return agg
}
