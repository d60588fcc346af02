package flinksql

import "strings"

// checkGrouping reports columns of an aggregating SELECT that are neither
// in GROUP BY nor inside an aggregate: Flink's "expression is not being
// grouped". It stays silent where it cannot be sure: under a function it
// does not know (it may be a user-defined aggregate), an OVER window, or a
// column it cannot resolve.
func (ec *exprChecker) checkGrouping(s *Select, sc *scope) {
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
	var collect func(e Expr)
	collect = func(e Expr) {
		switch x := e.(type) {
		case *GroupingSets:
			for _, g := range x.Sets {
				collect(g)
			}
			return
		case *Rollup:
			for _, g := range x.Items {
				collect(g)
			}
			return
		case *Cube:
			for _, g := range x.Items {
				collect(g)
			}
			return
		case *RowExpr:
			if !x.Explicit {
				for _, g := range x.Items {
					collect(g)
				}
				return
			}
		case *ParenExpr:
			collect(x.X)
		case *ColumnRef:
			if c := sc.resolveQuiet(x); c != nil {
				grouped[c] = true
			}
			if len(x.Parts) == 1 && sc.aliases[x.Parts[0].Name] {
				groupedAlias[x.Parts[0].Name] = true
			}
		case *FuncCall:
			switch x.FuncName() {
			case "TUMBLE", "HOP", "SESSION":
				auxWindow = true
			}
		}
		groupedText[FormatExpr(e)] = true
	}
	for _, g := range s.GroupBy {
		collect(g)
	}
	check := func(e Expr, alias *Ident) {
		if alias != nil && groupedAlias[alias.Name] {
			return
		}
		ec.checkGroupedExpr(e, sc, grouped, groupedText, auxWindow)
	}
	for _, it := range s.Items {
		if _, star := it.Expr.(*Star); star {
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
func (ec *exprChecker) checkGroupedExpr(e Expr, sc *scope, grouped map[*ColumnInfo]bool, groupedText map[string]bool, auxWindow bool) {
	if groupedText[FormatExpr(e)] {
		return
	}
	unsure := false
	var bad *ColumnRef
	Inspect(e, func(n Node) bool {
		if bad != nil || unsure {
			return false
		}
		switch x := n.(type) {
		case *FuncCall:
			name := x.FuncName()
			switch {
			case x.Over != nil || x.OverRef != nil:
				unsure = true
			case aggregateFuncs[name]:
				return false
			case auxWindow && (strings.HasSuffix(name, "_START") || strings.HasSuffix(name, "_END") ||
				strings.HasSuffix(name, "_ROWTIME") || strings.HasSuffix(name, "_PROCTIME")):
				return false
			case !builtinFunctions[name] && !reservedWords[name] && !niladic[name]:
				unsure = true
			}
		case *SubqueryExpr, *ExistsExpr:
			return false
		case *InExpr:
			if x.Query != nil {
				Inspect(x.X, func(m Node) bool {
					if c, ok := m.(*ColumnRef); ok && bad == nil && !ec.isGrouped(c, sc, grouped, groupedText) {
						bad = c
					}
					return bad == nil
				})
				return false
			}
		case *ColumnRef:
			if !ec.isGrouped(x, sc, grouped, groupedText) {
				bad = x
			}
			return false
		}
		if ex, ok := n.(Expr); ok && ex != e && groupedText[FormatExpr(ex)] {
			return false
		}
		return true
	})
	if bad != nil && !unsure {
		ec.errorf(CodeNotGrouped, bad, "add it to GROUP BY, or aggregate it, e.g. MAX("+bad.Key()+")",
			"'%s' is neither grouped nor aggregated", bad.Key())
	}
}

func (ec *exprChecker) isGrouped(c *ColumnRef, sc *scope, grouped map[*ColumnInfo]bool, groupedText map[string]bool) bool {
	if groupedText[FormatExpr(c)] {
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
func containsAggregate(e Expr) bool {
	found := false
	Inspect(e, func(n Node) bool {
		switch x := n.(type) {
		case *FuncCall:
			if x.Over != nil || x.OverRef != nil {
				return false
			}
			if aggregateFuncs[x.FuncName()] {
				found = true
			}
		case *SubqueryExpr, *ExistsExpr, *InExpr:
			if in, ok := x.(*InExpr); ok && in.Query == nil {
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
func (ec *exprChecker) checkGroupWindow(g Expr, sc *scope) {
	f, ok := g.(*FuncCall)
	if !ok || len(f.Args) < 2 {
		return
	}
	switch f.FuncName() {
	case "TUMBLE", "HOP", "SESSION":
	default:
		return
	}
	ref, ok := f.Args[0].(*ColumnRef)
	if !ok {
		return
	}
	if c := sc.resolveQuiet(ref); c != nil && !c.RowTime && !c.ProcTime && !c.unsure {
		ec.warnf(CodeNoWatermark, ref, "declare a WATERMARK for it (event time) or use a column declared AS PROCTIME()",
			"'%s' is not a time attribute: the %s window never closes", ref.Key(), f.FuncName())
	}
}
