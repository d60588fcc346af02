package flinksql

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"

	"github.com/palink/palink/flinksql/format"
)

// checkGrouping reports columns of an aggregating SELECT that are neither
// in GROUP BY nor inside an aggregate: Flink's "expression is not being
// grouped". It stays silent where it cannot be sure: under a function it
// does not know (it may be a user-defined aggregate), an OVER window, or a
// column it cannot resolve.
func (ec *exprChecker) checkGrouping(s *ast.Select, sc *scope) {
	aggregating := len(s.GroupBy) > 0
	for _, it := range s.Items {
		aggregating = aggregating || containsAggregate(it.Expr)
	}
	if !aggregating {
		return
	}
	grouped := map[*ColumnInfo]bool{}
	groupedText := map[string]bool{}
	groupedAlias := map[string]bool{}
	auxWindow := false
	var collect func(e ast.Expr)
	collect = func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.GroupingSets:
			for _, g := range x.Sets {
				collect(g)
			}
			return
		case *ast.Rollup:
			for _, g := range x.Items {
				collect(g)
			}
			return
		case *ast.Cube:
			for _, g := range x.Items {
				collect(g)
			}
			return
		case *ast.RowExpr:
			if !x.Explicit {
				for _, g := range x.Items {
					collect(g)
				}
				return
			}
		case *ast.ParenExpr:
			collect(x.X)
		case *ast.ColumnRef:
			if c := sc.resolveQuiet(x); c != nil {
				grouped[c] = true
			}
			if len(x.Parts) == 1 && sc.aliases[x.Parts[0].Name] {
				groupedAlias[x.Parts[0].Name] = true
			}
		case *ast.FuncCall:
			switch x.FuncName() {
			case "TUMBLE", "HOP", "SESSION":
				auxWindow = true
			}
		}
		groupedText[format.Expr(e)] = true
	}
	for _, g := range s.GroupBy {
		collect(g)
	}
	check := func(e ast.Expr, alias *ast.Ident) {
		if alias != nil && groupedAlias[alias.Name] {
			return
		}
		ec.checkGroupedExpr(e, sc, grouped, groupedText, auxWindow)
	}
	for _, it := range s.Items {
		if _, star := it.Expr.(*ast.Star); star {
			if len(s.GroupBy) > 0 {
				ec.errorf(CodeNotGrouped, it, "list the grouped columns and aggregates instead of *", "SELECT * in a query with GROUP BY")
			}
			continue
		}
		check(it.Expr, it.Alias)
	}
	if s.Having != nil {
		check(s.Having, nil)
	}
}

// checkGroupedExpr walks e outside aggregates and reports the first column
// that is not grouped.
func (ec *exprChecker) checkGroupedExpr(e ast.Expr, sc *scope, grouped map[*ColumnInfo]bool, groupedText map[string]bool, auxWindow bool) {
	if groupedText[format.Expr(e)] {
		return
	}
	unsure := false
	var bad *ast.ColumnRef
	ast.Inspect(e, func(n ast.Node) bool {
		if bad != nil || unsure {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncCall:
			name := x.FuncName()
			switch {
			case x.Over != nil || x.OverRef != nil:
				unsure = true
			case builtin.AggregateFuncs[name]:
				return false
			case auxWindow && (strings.HasSuffix(name, "_START") || strings.HasSuffix(name, "_END") ||
				strings.HasSuffix(name, "_ROWTIME") || strings.HasSuffix(name, "_PROCTIME")):
				return false
			case !builtin.BuiltinFunctions[name] && !builtin.ReservedWords[name] && !niladic[name]:
				unsure = true
			}
		case *ast.SubqueryExpr, *ast.ExistsExpr:
			return false
		case *ast.InExpr:
			if x.Query != nil {
				ast.Inspect(x.X, func(m ast.Node) bool {
					if c, ok := m.(*ast.ColumnRef); ok && bad == nil && !ec.isGrouped(c, sc, grouped, groupedText) {
						bad = c
					}
					return bad == nil
				})
				return false
			}
		case *ast.ColumnRef:
			if !ec.isGrouped(x, sc, grouped, groupedText) {
				bad = x
			}
			return false
		}
		if ex, ok := n.(ast.Expr); ok && ex != e && groupedText[format.Expr(ex)] {
			return false
		}
		return true
	})
	if bad != nil && !unsure {
		ec.errorf(CodeNotGrouped, bad, "add it to GROUP BY, or aggregate it, e.g. MAX("+bad.Key()+")",
			"'%s' is neither grouped nor aggregated", bad.Key())
	}
}

func (ec *exprChecker) isGrouped(c *ast.ColumnRef, sc *scope, grouped map[*ColumnInfo]bool, groupedText map[string]bool) bool {
	if groupedText[format.Expr(c)] {
		return true
	}
	info := sc.resolveQuiet(c)
	if info == nil {
		// Unresolved (reported elsewhere), or from a table of unknown shape,
		// or an outer query's column: not ours to judge.
		return true
	}
	for s := sc; s != nil; s = s.parent {
		if s != sc {
			for _, r := range s.rels {
				for i := range r.cols {
					if &r.cols[i] == info {
						return true // a correlated outer column is a constant here
					}
				}
			}
		}
	}
	return grouped[info]
}

// containsAggregate reports whether e calls a built-in aggregate outside an
// OVER window and outside subqueries.
func containsAggregate(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncCall:
			if x.Over != nil || x.OverRef != nil {
				return false
			}
			if builtin.AggregateFuncs[x.FuncName()] {
				found = true
			}
		case *ast.SubqueryExpr, *ast.ExistsExpr, *ast.InExpr:
			if in, ok := x.(*ast.InExpr); ok && in.Query == nil {
				return true
			}
			return false
		}
		return !found
	})
	return found
}

// checkGroupWindow warns when a legacy group window (GROUP BY TUMBLE(ts,
// ...)) is over a column that is not a time attribute.
func (ec *exprChecker) checkGroupWindow(g ast.Expr, sc *scope) {
	f, ok := g.(*ast.FuncCall)
	if !ok || len(f.Args) < 2 {
		return
	}
	switch f.FuncName() {
	case "TUMBLE", "HOP", "SESSION":
	default:
		return
	}
	ref, ok := f.Args[0].(*ast.ColumnRef)
	if !ok {
		return
	}
	if c := sc.resolveQuiet(ref); c != nil && !c.RowTime && !c.ProcTime && !c.unsure {
		ec.warnf(CodeNoWatermark, ref, "declare a WATERMARK for it (event time) or use a column declared AS PROCTIME()",
			"'%s' is not a time attribute: the %s window never closes", ref.Key(), f.FuncName())
	}
}
