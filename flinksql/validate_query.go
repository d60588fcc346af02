package flinksql

import (
	"sort"
	"strconv"
	"strings"
)

// query checks a query and returns its output columns; known is false when
// they cannot be told (a * over a table of unknown shape).
func (v *validator) query(q *Query, outer *scope) ([]outCol, bool) {
	sc := newScope(outer)
	if q.With != nil {
		for _, c := range q.With.CTEs {
			if sc.ctes[c.Name.Name] != nil {
				v.errorf(CodeDuplicateAlias, c.Name, "", "WITH defines '%s' twice", c.Name.Name)
			}
			cols, known := v.query(c.Query, sc)
			rel := &relation{alias: c.Name.Name, cols: outColumns(cols), unknown: !known, node: c}
			if len(c.Columns) > 0 {
				rel.cols = renameColumns(rel.cols, c.Columns)
				rel.unknown = false
			}
			sc.ctes[c.Name.Name] = rel
		}
	}
	cols, known, bodyScope := v.body(q.Body, sc)
	if len(q.OrderBy) > 0 {
		os := bodyScope
		if os == nil {
			os = newScope(sc)
			os.rels = []*relation{{cols: outColumns(cols), unknown: !known}}
		}
		os.allowAliases = true
		for _, o := range q.OrderBy {
			v.expr(o.Expr, os)
		}
		os.allowAliases = false
	}
	for _, e := range []Expr{q.Limit, q.Offset, q.Fetch} {
		if e != nil {
			v.expr(e, sc)
		}
	}
	return cols, known
}

func (v *validator) body(b QueryBody, sc *scope) ([]outCol, bool, *scope) {
	switch x := b.(type) {
	case *Select:
		return v.selectBlock(x, sc)
	case *SetOp:
		l, lk, _ := v.body(x.L, sc)
		r, rk, _ := v.body(x.R, sc)
		if lk && rk && len(l) != len(r) {
			v.errorf(CodeInsertArity, x, "", "%s of queries with %d and %d columns", x.Op, len(l), len(r))
		}
		return l, lk, nil
	case *Values:
		width := -1
		for _, row := range x.Rows {
			v.expr(row, sc)
			n := 1
			if r, ok := row.(*RowExpr); ok {
				n = len(r.Items)
			}
			if width >= 0 && n != width {
				v.errorf(CodeInsertArity, row, "", "VALUES row has %d values, the first row has %d", n, width)
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
	case *ParenQuery:
		cols, known := v.query(x.Query, sc)
		return cols, known, nil
	}
	return nil, false, nil
}

func (v *validator) selectBlock(s *Select, outer *scope) ([]outCol, bool, *scope) {
	sc := newScope(outer)
	if s.From != nil {
		v.from(s.From, sc)
	}
	for _, w := range s.Windows {
		if sc.windows[w.Name.Name] {
			v.errorf(CodeDuplicateAlias, w.Name, "", "window '%s' is defined twice", w.Name.Name)
		}
		sc.windows[w.Name.Name] = true
	}
	v.checkQueryHints(s, sc)
	var cols []outCol
	known := true
	for i, it := range s.Items {
		if st, ok := it.Expr.(*Star); ok {
			c, k := v.expandStar(st, sc)
			cols = append(cols, c...)
			known = known && k
			continue
		}
		info := v.expr(it.Expr, sc)
		col := outCol{}
		if info != nil {
			col.ColumnInfo = *info
		} else if _, isRef := it.Expr.(*ColumnRef); isRef {
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
		if _, isRef := it.Expr.(*ColumnRef); !isRef {
			// Only a plain reference keeps a time attribute.
			col.ProcTime, col.RowTime = col.ProcTime && isTimeFunc(it.Expr), false
		}
		cols = append(cols, col)
	}
	for _, it := range s.Items {
		if it.Alias != nil {
			sc.aliases[it.Alias.Name] = true
		}
	}
	if s.Where != nil {
		v.expr(s.Where, sc)
	}
	sc.allowAliases = true
	for _, g := range s.GroupBy {
		v.expr(g, sc)
		v.checkGroupWindow(g, sc)
	}
	if s.Having != nil {
		v.expr(s.Having, sc)
	}
	sc.allowAliases = false
	for _, w := range s.Windows {
		v.windowSpec(w.Spec, sc)
	}
	v.checkGrouping(s, sc)
	return cols, known, sc
}

func isTimeFunc(e Expr) bool {
	f, ok := e.(*FuncCall)
	return ok && f.FuncName() == "PROCTIME"
}

// exprName is the name Flink gives an unnamed select item.
func exprName(e Expr, i int) string {
	switch x := e.(type) {
	case *FieldExpr:
		return x.Field.Name
	case *ColumnRef:
		return x.Name()
	}
	return "EXPR$" + strconv.Itoa(i)
}

func (v *validator) expandStar(st *Star, sc *scope) ([]outCol, bool) {
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
			v.errorf(CodeUnknownColumn, st, "", "SELECT * needs a FROM clause")
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
	v.errorf(CodeUnknownTable, st, didYouMean(name, relAliases(sc)), "no table or alias '%s' in this FROM clause", name)
	return nil, false
}

// ---- FROM ----

func (v *validator) from(t TableExpr, sc *scope) {
	j, ok := t.(*Join)
	if !ok {
		if pt, ok := t.(*ParenTable); ok {
			v.from(pt.Table, sc)
			return
		}
		v.addRelation(v.tableRelation(t, sc), sc)
		return
	}
	v.from(j.L, sc)
	v.from(j.R, sc)
	if j.On != nil {
		v.expr(j.On, sc)
	}
	for _, id := range j.Using {
		n := 0
		for _, r := range sc.rels {
			if r.unknown || r.column(id.Name) != nil {
				n++
			}
		}
		if n < 2 {
			v.errorf(CodeUnknownColumn, id, "", "USING column '%s' is not in both joined tables", id.Name)
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
	if r, ok := j.R.(*TableRef); ok && r.SystemTime != nil {
		v.lookupJoin(j, r, sc)
	}
}

func (v *validator) addRelation(r *relation, sc *scope) {
	if r == nil {
		return
	}
	if r.alias != "" {
		for _, o := range sc.rels {
			if o.alias == r.alias {
				v.errorf(CodeDuplicateAlias, r.node, "give one of them another alias with AS",
					"'%s' appears twice in this FROM clause", r.alias)
				break
			}
		}
	}
	sc.rels = append(sc.rels, r)
}

func (v *validator) applyAlias(r *relation, a *Alias) *relation {
	if a == nil {
		return r
	}
	r.alias = a.Name.Name
	if len(a.Columns) > 0 {
		if !r.unknown && len(a.Columns) != len(r.cols) {
			v.errorf(CodeInsertArity, a, "", "alias '%s' names %d columns, the table has %d", a.Name.Name, len(a.Columns), len(r.cols))
		}
		r.cols = renameColumns(r.cols, a.Columns)
		r.unknown = false
	}
	return r
}

// tableRelation resolves one FROM item (not a join).
func (v *validator) tableRelation(t TableExpr, sc *scope) *relation {
	switch x := t.(type) {
	case *TableRef:
		r := v.namedRelation(x.Name, sc)
		r.node = x
		if len(x.Hints) > 0 && r.table != nil {
			v.options.checkHints(x.Hints, r.table)
		}
		if x.SystemTime != nil {
			v.expr(x.SystemTime, sc)
		}
		return v.applyAlias(r, x.Alias)
	case *DerivedTable:
		qs := sc.parent
		if x.Lateral {
			qs = sc
		}
		cols, known := v.query(x.Query, qs)
		r := &relation{cols: outColumns(cols), unknown: !known, node: x}
		return v.applyAlias(r, x.Alias)
	case *TableFunc:
		r := &relation{unknown: true, node: x}
		if call, ok := x.Call.(*FuncCall); ok && isWindowTVF(call) {
			r = v.windowTVF(call, sc)
			r.node = x
		} else {
			v.expr(x.Call, sc)
			if call, ok := x.Call.(*FuncCall); ok {
				r.alias = call.Name.Last()
			}
		}
		return v.applyAlias(r, x.Alias)
	case *Unnest:
		for _, a := range x.Args {
			v.expr(a, sc)
		}
		return v.applyAlias(&relation{unknown: true, node: x}, x.Alias)
	case *MatchRecognize:
		return v.matchRecognize(x, sc)
	}
	return nil
}

// namedRelation resolves a table name: a WITH query, a table or a view.
func (v *validator) namedRelation(name *QualifiedName, sc *scope) *relation {
	if len(name.Parts) == 1 {
		if c := sc.cte(name.Parts[0].Name); c != nil {
			return &relation{alias: c.alias, cols: append([]ColumnInfo{}, c.cols...), unknown: c.unknown}
		}
	}
	t, skip := v.cat.lookupTable(name)
	if t == nil {
		if !skip {
			var ctes []string
			for s := sc; s != nil; s = s.parent {
				for k := range s.ctes {
					ctes = append(ctes, k)
				}
			}
			v.unknownTable(name, v.cat.tableNames(ctes...))
		}
		return &relation{alias: name.Last(), unknown: true}
	}
	return &relation{alias: name.Last(), cols: append([]ColumnInfo{}, t.cols...), unknown: t.unknown, table: t}
}

func isWindowTVF(f *FuncCall) bool {
	switch f.FuncName() {
	case "TUMBLE", "HOP", "CUMULATE", "SESSION":
		for _, a := range f.Args {
			if _, ok := a.(*TableArg); ok {
				return true
			}
			if na, ok := a.(*NamedArg); ok {
				if _, ok := na.Value.(*TableArg); ok {
					return true
				}
			}
		}
	}
	return false
}

// windowTVF checks TUMBLE/HOP/CUMULATE/SESSION(TABLE t, DESCRIPTOR(ts), ...)
// and returns t's columns plus window_start, window_end and window_time.
func (v *validator) windowTVF(call *FuncCall, sc *scope) *relation {
	var ta *TableArg
	var desc *DescriptorExpr
	for _, a := range call.Args {
		val := a
		if na, ok := a.(*NamedArg); ok {
			val = na.Value
		}
		switch x := val.(type) {
		case *TableArg:
			ta = x
		case *DescriptorExpr:
			desc = x
		default:
			v.expr(val, sc)
		}
	}
	src := v.namedRelation(ta.Name, sc)
	out := &relation{alias: call.Name.Last(), cols: append([]ColumnInfo{}, src.cols...), unknown: src.unknown}
	inner := newScope(sc)
	inner.rels = []*relation{src}
	for _, e := range ta.PartitionBy {
		v.expr(e, inner)
	}
	var timeCol *ColumnInfo
	if desc != nil {
		for _, id := range desc.Columns {
			c := src.column(id.Name)
			switch {
			case c == nil && !src.unknown:
				v.errorf(CodeUnknownColumn, id, didYouMean(id.Name, colNames(src.cols)), "unknown column '%s' in '%s'", id.Name, ta.Name.Key())
			case c != nil:
				timeCol = c
				if !c.RowTime && !c.ProcTime && !c.unsure {
					v.warnf(CodeNoWatermark, id, "declare WATERMARK FOR "+id.Name+" AS "+id.Name+" - INTERVAL '5' SECOND (event time), or window on a column declared AS PROCTIME()",
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

// checkGroupWindow warns when a legacy group window (GROUP BY TUMBLE(ts,
// ...)) is over a column that is not a time attribute.
func (v *validator) checkGroupWindow(g Expr, sc *scope) {
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
		v.warnf(CodeNoWatermark, ref, "declare a WATERMARK for it (event time) or use a column declared AS PROCTIME()",
			"'%s' is not a time attribute: the %s window never closes", ref.Key(), f.FuncName())
	}
}

func (v *validator) matchRecognize(m *MatchRecognize, sc *scope) *relation {
	in := v.tableRelation(m.Input, sc)
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
		v.expr(e, inner)
	}
	for _, o := range m.OrderBy {
		v.expr(o.Expr, inner)
	}
	for _, d := range m.Define {
		v.expr(d.Expr, inner)
	}
	var cols []ColumnInfo
	if strings.HasPrefix(m.RowsPerMatch, "ALL ROWS") && in != nil {
		cols = append(cols, in.cols...)
	} else {
		for _, e := range m.PartitionBy {
			if ref, ok := e.(*ColumnRef); ok {
				cols = append(cols, ColumnInfo{Name: ref.Name()})
			}
		}
	}
	for _, ms := range m.Measures {
		v.expr(ms.Expr, inner)
		cols = append(cols, ColumnInfo{Name: ms.Alias.Name})
	}
	r := &relation{cols: cols, unknown: in == nil || in.unknown && strings.HasPrefix(m.RowsPerMatch, "ALL"), node: m}
	if in != nil {
		r.alias = in.alias
	}
	return v.applyAlias(r, m.Alias)
}

func collectPatternVars(t PatternTerm, add func(string)) {
	switch x := t.(type) {
	case *PatternVar:
		add(x.Name.Name)
	case *PatternSeq:
		for _, it := range x.Items {
			collectPatternVars(it, add)
		}
	case *PatternAlt:
		for _, it := range x.Alts {
			collectPatternVars(it, add)
		}
	case *PatternGroup:
		collectPatternVars(x.Inner, add)
	case *PatternPermute:
		for _, it := range x.Items {
			collectPatternVars(it, add)
		}
	case *PatternExclude:
		collectPatternVars(x.Inner, add)
	}
}

func (v *validator) windowSpec(w *WindowSpec, sc *scope) {
	if w.Ref != nil && !sc.window(w.Ref.Name) {
		v.errorf(CodeUnknownColumn, w.Ref, "", "unknown window '%s'", w.Ref.Name)
	}
	for _, e := range w.PartitionBy {
		v.expr(e, sc)
	}
	for _, o := range w.OrderBy {
		v.expr(o.Expr, sc)
	}
	if w.Frame != nil {
		for _, b := range []*FrameBound{w.Frame.Start, w.Frame.End} {
			if b != nil && b.Offset != nil {
				v.expr(b.Offset, sc)
			}
		}
	}
}

// ---- hints ----

// ---- lookup joins ----

// ---- expressions ----

// expr checks the names an expression reads and returns the column info
// when the expression is a plain column reference.
func (v *validator) expr(e Expr, sc *scope) *ColumnInfo {
	if ref, ok := e.(*ColumnRef); ok {
		return v.resolve(ref, sc)
	}
	Inspect(e, func(n Node) bool {
		switch x := n.(type) {
		case *ColumnRef:
			v.resolve(x, sc)
			return false
		case *SubqueryExpr:
			v.query(x.Query, sc)
			return false
		case *ExistsExpr:
			v.query(x.Query, sc)
			return false
		case *InExpr:
			if x.Query != nil {
				v.expr(x.X, sc)
				v.query(x.Query, sc)
				return false
			}
		case *QuantifiedExpr:
			if x.Query != nil {
				v.expr(x.L, sc)
				v.query(x.Query, sc)
				return false
			}
		case *ArrayExpr:
			if x.Query != nil {
				v.query(x.Query, sc)
				return false
			}
		case *MapExpr:
			if x.Query != nil {
				v.query(x.Query, sc)
				return false
			}
		case *FuncCall:
			v.checkFunctionName(x)
			if x.OverRef != nil && !sc.window(x.OverRef.Name) {
				v.errorf(CodeUnknownColumn, x.OverRef, "define it in a WINDOW clause", "unknown window '%s'", x.OverRef.Name)
			}
			if x.Over != nil {
				for _, a := range x.Args {
					v.expr(a, sc)
				}
				if x.Filter != nil {
					v.expr(x.Filter, sc)
				}
				v.windowSpec(x.Over, sc)
				return false
			}
		case *TableArg:
			v.namedRelation(x.Name, sc)
			return false
		case *DescriptorExpr:
			return false
		}
		return true
	})
	return nil
}

func (v *validator) resolve(ref *ColumnRef, sc *scope) *ColumnInfo {
	for s := sc; s != nil; s = s.parent {
		c, st, rel := s.lookup(ref)
		switch st {
		case resolvedFound:
			return c
		case resolvedUnknown:
			return nil
		case resolvedAmbiguous:
			var in []string
			for _, r := range s.rels {
				if r.column(ref.Parts[0].Name) != nil {
					in = append(in, r.alias)
				}
			}
			v.errorf(CodeAmbiguousColumn, ref, "qualify it: "+in[0]+"."+ref.Parts[0].Name,
				"column '%s' is ambiguous: it is in %s", ref.Parts[0].Name, strings.Join(quoteAll(in), " and "))
			return nil
		case resolvedMissing:
			if rel != nil {
				name := ref.Parts[1].Name
				v.errorf(CodeUnknownColumn, ref, didYouMean(name, colNames(rel.cols)), "unknown column '%s' in '%s'", name, rel.alias)
				return nil
			}
		}
		if s.allowAliases && len(ref.Parts) == 1 && s.aliases[ref.Parts[0].Name] {
			return nil
		}
	}
	v.errorf(CodeUnknownColumn, ref, v.columnHint(ref, sc), "unknown column '%s'", ref.Key())
	return nil
}

func (v *validator) columnHint(ref *ColumnRef, sc *scope) string {
	var names []string
	seen := map[string]bool{}
	for s := sc; s != nil; s = s.parent {
		for _, r := range s.rels {
			for _, c := range r.cols {
				if !seen[c.Name] {
					seen[c.Name] = true
					names = append(names, c.Name)
				}
			}
		}
		if s.allowAliases {
			for a := range s.aliases {
				names = append(names, a)
			}
		}
	}
	sort.Strings(names)
	if len(ref.Parts) >= 2 {
		if h := didYouMean(ref.Parts[0].Name, relAliases(sc)); h != "" {
			return "no table or alias '" + ref.Parts[0].Name + "' here; " + h
		}
		return "no table or alias '" + ref.Parts[0].Name + "' here"
	}
	return didYouMean(ref.Parts[0].Name, names)
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "'" + s + "'"
	}
	return out
}

// ---- INSERT ----

func (v *validator) insert(s *InsertStmt) {
	cols, known := v.query(s.Query, newScope(nil))
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
			if c.Kind == ColumnMetadata && !c.Virtual && kafkaReadOnly(c, t) {
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
			case c.Kind == ColumnComputed:
				v.errorf(CodeUnknownColumn, id, "", "'%s' is a computed column of '%s' and cannot be written", id.Name, t.name)
			case c.Virtual:
				v.errorf(CodeUnknownColumn, id, "", "'%s' is a VIRTUAL metadata column of '%s' and cannot be written", id.Name, t.name)
			}
			targets = append(targets, id.Name)
		}
	} else {
		for _, c := range t.cols {
			if c.Kind == ColumnComputed || c.Virtual || static[c.Name] {
				continue
			}
			targets = append(targets, c.Name)
		}
	}
	if known && len(cols) != len(targets) {
		v.errorf(CodeInsertArity, s.Query, "the sink takes: "+strings.Join(targets, ", "),
			"the query produces %d columns but sink '%s' takes %d", len(cols), t.name, len(targets))
	}
	if sel, ok := s.Query.Body.(*Select); ok {
		for _, it := range sel.Items {
			if _, star := it.Expr.(*Star); star {
				v.warnf(CodeSelectStar, it, "list the columns, so a new source column does not shift the sink's",
					"SELECT * into sink '%s'", t.name)
			}
		}
	}
	if isUpdating(s.Query) {
		spec := connectors[t.connector]
		switch {
		case spec != nil && spec.appendOnlySink || t.connector == "filesystem":
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
	if def, ok := t.def.(*CreateTable); ok {
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

// aggregateFuncs are Flink's built-in aggregate functions.
var aggregateFuncs = map[string]bool{
	"COUNT": true, "SUM": true, "SUM0": true, "AVG": true, "MIN": true, "MAX": true, "LISTAGG": true,
	"COLLECT": true, "STDDEV_POP": true, "STDDEV_SAMP": true, "VAR_POP": true, "VAR_SAMP": true,
	"FIRST_VALUE": true, "LAST_VALUE": true, "ARRAY_AGG": true, "JSON_OBJECTAGG": true,
	"JSON_ARRAYAGG": true, "BIT_AND": true, "BIT_OR": true, "BIT_XOR": true,
}

// isUpdating reports whether a query's result has updates: a GROUP BY or
// DISTINCT that is not per window, or an aggregate over the whole input.
// Joins and Top-N are not considered, so it errs on the side of silence.
func isUpdating(q *Query) bool {
	s, ok := q.Body.(*Select)
	if !ok {
		return false
	}
	windowed := false
	for _, g := range s.GroupBy {
		Inspect(g, func(n Node) bool {
			switch x := n.(type) {
			case *ColumnRef:
				if name := x.Name(); name == "window_start" || name == "window_end" {
					windowed = true
				}
			case *FuncCall:
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
		Inspect(it.Expr, func(n Node) bool {
			switch x := n.(type) {
			case *FuncCall:
				if x.Over != nil || x.OverRef != nil {
					return false
				}
				if aggregateFuncs[x.FuncName()] {
					agg = true
				}
			case *SubqueryExpr, *ExistsExpr:
				return false
			}
			return true
		})
	}
	return agg
}

// checkGrouping reports columns of an aggregating SELECT that are neither
// in GROUP BY nor inside an aggregate: Flink's "expression is not being
// grouped". It stays silent where it cannot be sure: under a function it
// does not know (it may be a user-defined aggregate), an OVER window, or a
// column it cannot resolve.
func (v *validator) checkGrouping(s *Select, sc *scope) {
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
		v.checkGroupedExpr(e, sc, grouped, groupedText, auxWindow)
	}
	for _, it := range s.Items {
		if _, star := it.Expr.(*Star); star {
			if len(s.GroupBy) > 0 {
				v.errorf(CodeNotGrouped, it, "list the grouped columns and aggregates instead of *", "SELECT * in a query with GROUP BY")
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
func (v *validator) checkGroupedExpr(e Expr, sc *scope, grouped map[*ColumnInfo]bool, groupedText map[string]bool, auxWindow bool) {
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
					if c, ok := m.(*ColumnRef); ok && bad == nil && !v.isGrouped(c, sc, grouped, groupedText) {
						bad = c
					}
					return bad == nil
				})
				return false
			}
		case *ColumnRef:
			if !v.isGrouped(x, sc, grouped, groupedText) {
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
		v.errorf(CodeNotGrouped, bad, "add it to GROUP BY, or aggregate it, e.g. MAX("+bad.Key()+")",
			"'%s' is neither grouped nor aggregated", bad.Key())
	}
}

func (v *validator) isGrouped(c *ColumnRef, sc *scope, grouped map[*ColumnInfo]bool, groupedText map[string]bool) bool {
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
