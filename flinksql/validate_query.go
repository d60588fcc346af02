package flinksql

import (
	"strconv"
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// queryResolver follows a query's names: WITH queries, FROM items and
// joins, lookup joins, window TVFs, MATCH_RECOGNIZE and subqueries. It
// builds the scopes the expressions are checked in, and tells the output
// columns of a query.
type queryResolver struct {
	*findings
	cat     *catalog
	exprs   *exprChecker
	options *optionChecker // OPTIONS hints on table references
}

// query checks a query and returns its output columns; known is false when
// they cannot be told (a * over a table of unknown shape).
func (qr *queryResolver) query(q *ast.Query, outer *scope) ([]outCol, bool) {
	sc := newScope(outer)
	if q.With != nil {
		for _, c := range q.With.CTEs {
			if sc.ctes[c.Name.Name] != nil {
				qr.errorf(CodeDuplicateAlias, c.Name, "", "WITH defines '%s' twice", c.Name.Name)
			}
			cols, known := qr.query(c.Query, sc)
			rel := &relation{alias: c.Name.Name, cols: outColumns(cols), unknown: !known, node: c}
			if len(c.Columns) > 0 {
				rel.cols = renameColumns(rel.cols, c.Columns)
				rel.unknown = false
			}
			sc.ctes[c.Name.Name] = rel
		}
	}
	cols, known, bodyScope := qr.body(q.Body, sc)
	if len(q.OrderBy) > 0 {
		os := bodyScope
		if os == nil {
			os = newScope(sc)
			os.rels = []*relation{{cols: outColumns(cols), unknown: !known}}
		}
		os.allowAliases = true
		for _, o := range q.OrderBy {
			qr.exprs.expr(o.Expr, os)
		}
		os.allowAliases = false
	}
	for _, e := range []ast.Expr{q.Limit, q.Offset, q.Fetch} {
		if e != nil {
			qr.exprs.expr(e, sc)
		}
	}
	return cols, known
}

func (qr *queryResolver) body(b ast.QueryBody, sc *scope) ([]outCol, bool, *scope) {
	switch x := b.(type) {
	case *ast.Select:
		return qr.selectBlock(x, sc)
	case *ast.SetOp:
		l, lk, _ := qr.body(x.L, sc)
		r, rk, _ := qr.body(x.R, sc)
		if lk && rk && len(l) != len(r) {
			qr.errorf(CodeInsertArity, x, "", "%s of queries with %d and %d columns", x.Op, len(l), len(r))
		}
		return l, lk, nil
	case *ast.Values:
		width := -1
		for _, row := range x.Rows {
			qr.exprs.expr(row, sc)
			n := 1
			if r, ok := row.(*ast.RowExpr); ok {
				n = len(r.Items)
			}
			if width >= 0 && n != width {
				qr.errorf(CodeInsertArity, row, "", "VALUES row has %d values, the first row has %d", n, width)
			}
			if width < 0 {
				width = n
			}
		}
		cols := make([]outCol, max(width, 0))
		for i := range cols {
			cols[i].Name = "EXPR$" + strconv.Itoa(i)
		}
		return cols, true, nil
	case *ast.ParenQuery:
		cols, known := qr.query(x.Query, sc)
		return cols, known, nil
	}
	return nil, false, nil
}

func (qr *queryResolver) selectBlock(s *ast.Select, outer *scope) ([]outCol, bool, *scope) {
	sc := newScope(outer)
	if s.From != nil {
		qr.from(s.From, sc)
	}
	for _, w := range s.Windows {
		if sc.windows[w.Name.Name] {
			qr.errorf(CodeDuplicateAlias, w.Name, "", "window '%s' is defined twice", w.Name.Name)
		}
		sc.windows[w.Name.Name] = true
	}
	qr.checkQueryHints(s, sc)
	var cols []outCol
	known := true
	for i, it := range s.Items {
		if st, ok := it.Expr.(*ast.Star); ok {
			c, k := qr.expandStar(st, sc)
			cols = append(cols, c...)
			known = known && k
			continue
		}
		info := qr.exprs.expr(it.Expr, sc)
		col := outCol{}
		if info != nil {
			col.ColumnInfo = *info
		} else if _, isRef := it.Expr.(*ast.ColumnRef); isRef {
			col.unsure = true
		}
		switch {
		case it.Alias != nil:
			col.Name = it.Alias.Name
		case info != nil:
			// a column passed through keeps its name
		default:
			col.Name = exprName(it.Expr, i)
		}
		if _, isRef := it.Expr.(*ast.ColumnRef); !isRef {
			// Only a plain reference keeps a time attribute, and a call of
			// PROCTIME() makes a processing-time one.
			col.ProcTime, col.RowTime = isTimeFunc(it.Expr), false
		}
		cols = append(cols, col)
	}
	for _, it := range s.Items {
		if it.Alias != nil {
			sc.aliases[it.Alias.Name] = true
		}
	}
	if s.Where != nil {
		qr.exprs.expr(s.Where, sc)
	}
	sc.allowAliases = true
	for _, g := range s.GroupBy {
		qr.exprs.expr(g, sc)
		qr.exprs.checkGroupWindow(g, sc)
	}
	if s.Having != nil {
		qr.exprs.expr(s.Having, sc)
	}
	sc.allowAliases = false
	for _, w := range s.Windows {
		qr.exprs.windowSpec(w.Spec, sc)
	}
	qr.exprs.checkGrouping(s, sc)
	return cols, known, sc
}

func isTimeFunc(e ast.Expr) bool {
	f, ok := e.(*ast.FuncCall)
	return ok && f.FuncName() == "PROCTIME"
}

// exprName is the name Flink gives an unnamed select item.
func exprName(e ast.Expr, i int) string {
	switch x := e.(type) {
	case *ast.FieldExpr:
		return x.Field.Name
	case *ast.ColumnRef:
		return x.Name()
	}
	return "EXPR$" + strconv.Itoa(i)
}

func (qr *queryResolver) expandStar(st *ast.Star, sc *scope) ([]outCol, bool) {
	var cols []outCol
	known := true
	add := func(r *relation) {
		if r.unknown {
			known = false
		}
		for _, c := range r.cols {
			cols = append(cols, outCol{c})
		}
	}
	if len(st.Qualifier) == 0 {
		if len(sc.rels) == 0 {
			qr.errorf(CodeUnknownColumn, st, "", "SELECT * needs a FROM clause")
		}
		for _, r := range sc.rels {
			add(r)
		}
		return cols, known
	}
	name := st.Qualifier[len(st.Qualifier)-1].Name
	for _, r := range sc.rels {
		if r.alias == name {
			add(r)
			return cols, known
		}
	}
	qr.errorf(CodeUnknownTable, st, didYouMean(name, relAliases(sc)), "no table or alias '%s' in this FROM clause", name)
	return nil, false
}

func (qr *queryResolver) from(t ast.TableExpr, sc *scope) {
	j, ok := t.(*ast.Join)
	if !ok {
		if pt, ok := t.(*ast.ParenTable); ok {
			qr.from(pt.Table, sc)
			return
		}
		qr.addRelation(qr.tableRelation(t, sc), sc)
		return
	}
	qr.from(j.L, sc)
	qr.from(j.R, sc)
	if j.On != nil {
		qr.exprs.expr(j.On, sc)
	}
	for _, id := range j.Using {
		n := 0
		for _, r := range sc.rels {
			if r.unknown || r.column(id.Name) != nil {
				n++
			}
		}
		if n < 2 {
			qr.errorf(CodeUnknownColumn, id, "", "USING column '%s' is not in both joined tables", id.Name)
		}
		sc.common[id.Name] = true
	}
	if j.Natural {
		for _, r := range sc.rels {
			for _, c := range r.cols {
				sc.common[c.Name] = true
			}
		}
	}
	if r, ok := j.R.(*ast.TableRef); ok && r.SystemTime != nil {
		qr.lookupJoin(j, r, sc)
	}
}

func (qr *queryResolver) addRelation(r *relation, sc *scope) {
	if r == nil {
		return
	}
	if r.alias != "" {
		for _, o := range sc.rels {
			if o.alias == r.alias {
				qr.errorf(CodeDuplicateAlias, r.node, "give one of them another alias with AS",
					"'%s' appears twice in this FROM clause", r.alias)
				break
			}
		}
	}
	sc.rels = append(sc.rels, r)
}

func (qr *queryResolver) applyAlias(r *relation, a *ast.Alias) *relation {
	if a == nil {
		return r
	}
	r.alias = a.Name.Name
	if len(a.Columns) > 0 {
		if !r.unknown && len(a.Columns) != len(r.cols) {
			qr.errorf(CodeInsertArity, a, "", "alias '%s' names %d columns, the table has %d", a.Name.Name, len(a.Columns), len(r.cols))
		}
		r.cols = renameColumns(r.cols, a.Columns)
		r.unknown = false
	}
	return r
}

// tableRelation resolves one FROM item (not a join).
func (qr *queryResolver) tableRelation(t ast.TableExpr, sc *scope) *relation {
	switch x := t.(type) {
	case *ast.TableRef:
		r := qr.namedRelation(x.Name, sc)
		r.node = x
		if len(x.Hints) > 0 && r.table != nil {
			qr.options.checkHints(x.Hints, r.table)
		}
		if x.SystemTime != nil {
			qr.exprs.expr(x.SystemTime, sc)
		}
		return qr.applyAlias(r, x.Alias)
	case *ast.DerivedTable:
		qs := sc.parent
		if x.Lateral {
			qs = sc
		}
		cols, known := qr.query(x.Query, qs)
		r := &relation{cols: outColumns(cols), unknown: !known, node: x}
		return qr.applyAlias(r, x.Alias)
	case *ast.TableFunc:
		r := &relation{unknown: true, node: x}
		if call, ok := x.Call.(*ast.FuncCall); ok && isWindowTVF(call) {
			r = qr.windowTVF(call, sc)
			r.node = x
		} else {
			qr.exprs.expr(x.Call, sc)
			if call, ok := x.Call.(*ast.FuncCall); ok {
				r.alias = call.Name.Last()
			}
		}
		return qr.applyAlias(r, x.Alias)
	case *ast.Unnest:
		for _, a := range x.Args {
			qr.exprs.expr(a, sc)
		}
		return qr.applyAlias(&relation{unknown: true, node: x}, x.Alias)
	case *ast.MatchRecognize:
		return qr.matchRecognize(x, sc)
	}
	return nil
}

// namedRelation resolves a table name: a WITH query, a table or a view.
func (qr *queryResolver) namedRelation(name *ast.QualifiedName, sc *scope) *relation {
	if len(name.Parts) == 1 {
		if c := sc.cte(name.Parts[0].Name); c != nil {
			return &relation{alias: c.alias, cols: append([]ColumnInfo{}, c.cols...), unknown: c.unknown}
		}
	}
	t, skip := qr.cat.lookupTable(name)
	if t == nil {
		if !skip {
			var ctes []string
			for s := sc; s != nil; s = s.parent {
				for k := range s.ctes {
					ctes = append(ctes, k)
				}
			}
			qr.unknownTable(name, qr.cat.tableNames(ctes...))
		}
		return &relation{alias: name.Last(), unknown: true}
	}
	return &relation{alias: name.Last(), cols: append([]ColumnInfo{}, t.cols...), unknown: t.unknown, table: t}
}

func isWindowTVF(f *ast.FuncCall) bool {
	switch f.FuncName() {
	case "TUMBLE", "HOP", "CUMULATE", "SESSION":
		for _, a := range f.Args {
			if _, ok := a.(*ast.TableArg); ok {
				return true
			}
			if na, ok := a.(*ast.NamedArg); ok {
				if _, ok := na.Value.(*ast.TableArg); ok {
					return true
				}
			}
		}
	}
	return false
}

// windowTVF checks TUMBLE/HOP/CUMULATE/SESSION(TABLE t, DESCRIPTOR(ts), ...)
// and returns t's columns plus window_start, window_end and window_time.
func (qr *queryResolver) windowTVF(call *ast.FuncCall, sc *scope) *relation {
	var ta *ast.TableArg
	var desc *ast.DescriptorExpr
	for _, a := range call.Args {
		val := a
		if na, ok := a.(*ast.NamedArg); ok {
			val = na.Value
		}
		switch x := val.(type) {
		case *ast.TableArg:
			ta = x
		case *ast.DescriptorExpr:
			desc = x
		default:
			qr.exprs.expr(val, sc)
		}
	}
	src := qr.namedRelation(ta.Name, sc)
	out := &relation{alias: call.Name.Last(), cols: append([]ColumnInfo{}, src.cols...), unknown: src.unknown}
	inner := newScope(sc)
	inner.rels = []*relation{src}
	for _, e := range ta.PartitionBy {
		qr.exprs.expr(e, inner)
	}
	var timeCol *ColumnInfo
	if desc != nil {
		for _, id := range desc.Columns {
			c := src.column(id.Name)
			switch {
			case c == nil && !src.unknown:
				qr.errorf(CodeUnknownColumn, id, didYouMean(id.Name, colNames(src.cols)), "unknown column '%s' in '%s'", id.Name, ta.Name.Key())
			case c != nil:
				timeCol = c
				if !c.RowTime && !c.ProcTime && !c.unsure {
					qr.warnf(CodeNoWatermark, id, "declare WATERMARK FOR "+id.Name+" AS "+id.Name+" - INTERVAL '5' SECOND (event time), or window on a column declared AS PROCTIME()",
						"'%s' of '%s' is not a time attribute: windows over it never close", id.Name, ta.Name.Key())
				}
			}
		}
	}
	for i := range out.cols {
		out.cols[i].RowTime, out.cols[i].ProcTime = false, false
	}
	wt := ColumnInfo{Name: "window_time", unsure: true}
	if timeCol != nil {
		wt.RowTime, wt.ProcTime, wt.unsure = timeCol.RowTime, timeCol.ProcTime, timeCol.unsure
	}
	out.cols = append(out.cols, ColumnInfo{Name: "window_start"}, ColumnInfo{Name: "window_end"}, wt)
	return out
}

func (qr *queryResolver) matchRecognize(m *ast.MatchRecognize, sc *scope) *relation {
	if at, msg, ok := MatchPatternProblem(m); !ok {
		qr.errorf(CodeUnsupported, at, "", "%s", msg)
	}
	in := qr.tableRelation(m.Input, sc)
	inner := newScope(sc)
	if in != nil {
		inner.rels = []*relation{in}
		collectPatternVars(m.Pattern, func(name string) {
			inner.patternVars[name] = in
		})
		for _, s := range m.Subsets {
			inner.patternVars[s.Name.Name] = in
		}
	}
	for _, e := range m.PartitionBy {
		qr.exprs.expr(e, inner)
	}
	for _, o := range m.OrderBy {
		qr.exprs.expr(o.Expr, inner)
	}
	for _, d := range m.Define {
		qr.exprs.expr(d.Expr, inner)
	}
	var cols []ColumnInfo
	if strings.HasPrefix(m.RowsPerMatch, "ALL ROWS") && in != nil {
		cols = append(cols, in.cols...)
	} else {
		for _, e := range m.PartitionBy {
			if ref, ok := e.(*ast.ColumnRef); ok {
				cols = append(cols, ColumnInfo{Name: ref.Name()})
			}
		}
	}
	for _, ms := range m.Measures {
		qr.exprs.expr(ms.Expr, inner)
		cols = append(cols, ColumnInfo{Name: ms.Alias.Name})
	}
	r := &relation{cols: cols, unknown: in == nil || in.unknown && strings.HasPrefix(m.RowsPerMatch, "ALL"), node: m}
	if in != nil {
		r.alias = in.alias
	}
	return qr.applyAlias(r, m.Alias)
}

func collectPatternVars(t ast.PatternTerm, add func(string)) {
	switch x := t.(type) {
	case *ast.PatternVar:
		add(x.Name.Name)
	case *ast.PatternSeq:
		for _, it := range x.Items {
			collectPatternVars(it, add)
		}
	case *ast.PatternAlt:
		for _, it := range x.Alts {
			collectPatternVars(it, add)
		}
	case *ast.PatternGroup:
		collectPatternVars(x.Inner, add)
	case *ast.PatternPermute:
		for _, it := range x.Items {
			collectPatternVars(it, add)
		}
	case *ast.PatternExclude:
		collectPatternVars(x.Inner, add)
	}
}
