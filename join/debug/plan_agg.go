package debug

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/flinksql/format"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// planAggregate plans GROUP BY, HAVING, SELECT DISTINCT and aggregates
// without a window: a Calc computing the keys, the aggregates' arguments
// and FILTER conditions, Flink's GroupAggregate, then HAVING and the
// SELECT list over its rows.
func (d aggregates) planAggregate(ctx context.Context, s *ast.Select, in *rel, ctes map[string]*cte) (*rel, error) {
	keys := s.GroupBy
	if s.Distinct {
		if len(keys) > 0 || hasAggregate(s) {
			return nil, errorAt(s, "SELECT DISTINCT with GROUP BY or aggregates is not supported in debug runs yet")
		}
		for _, it := range s.Items {
			if _, ok := it.Expr.(*ast.Star); ok {
				for _, c := range in.cols {
					keys = append(keys, &ast.ColumnRef{Span: it.Span, Parts: []*ast.Ident{{Span: it.Span, Name: c.name}}})
				}
				continue
			}
			keys = append(keys, it.Expr)
		}
	}
	var pre []evalFn // the Calc before the aggregation
	var outCols scope
	subst := map[string]int{}
	var names []string
	// A legacy group window (GROUP BY TUMBLE(ts, …)) is a window TVF
	// grouped by its start, end and time.
	var legacy string
	for i, k := range keys {
		f, ok := k.(*ast.FuncCall)
		if !ok {
			continue
		}
		switch f.FuncName() {
		case "TUMBLE", "HOP", "SESSION":
		default:
			continue
		}
		if legacy != "" {
			return nil, errorAt(k, "only one group window is allowed in GROUP BY")
		}
		legacy = f.FuncName()
		var err error
		if in, err = d.groupWindow(f, in); err != nil {
			return nil, err
		}
		span := f.Span
		ref := func(name string) ast.Expr {
			return &ast.ColumnRef{Span: span, Parts: []*ast.Ident{{Span: span, Name: name}}}
		}
		keys = append(append(append([]ast.Expr{}, keys[:i]...), ref("$window_start"), ref("$window_end"), ref("$window_time")), keys[i+1:]...)
		break
	}
	inC := d.compiler(in.cols)
	inC.where = "GROUP BY"
	keys, sets := groupingSets(keys)
	for _, k := range keys {
		fn, t, err := inC.compile(k)
		if err != nil {
			return nil, err
		}
		c := col{name: fmt.Sprintf("$f%d", len(outCols)), typ: t}
		if ref, ok := k.(*ast.ColumnRef); ok {
			if j, fields, err := in.cols.resolve(ref); err == nil && len(fields) == 0 {
				c.table, c.name, c.win = in.cols[j].table, in.cols[j].name, in.cols[j].win
				if c.win == winTime {
					c.time = in.cols[j].time // a window aggregate's window_time stays a time attribute
				}
			}
		}
		subst[exprKey(k)] = len(outCols)
		names = append(names, format.Expr(k))
		pre = append(pre, fn)
		outCols = append(outCols, c)
	}
	if legacy != "" {
		// TUMBLE_START(…), TUMBLE_END(…) and TUMBLE_ROWTIME(…) read the window.
		roles := map[string]winRole{legacy + "_START": winStart, legacy + "_END": winEnd, legacy + "_ROWTIME": winTime}
		visit := func(n ast.Node) bool {
			f, ok := n.(*ast.FuncCall)
			if !ok {
				return true
			}
			if role, ok := roles[f.FuncName()]; ok {
				for i, c := range outCols {
					if c.win == role {
						subst[exprKey(f)] = i
					}
				}
				return false
			}
			return true
		}
		for _, it := range s.Items {
			ast.Inspect(it.Expr, visit)
		}
		if s.Having != nil {
			ast.Inspect(s.Having, visit)
		}
	}
	// With grouping sets, each row is expanded once per set (Flink's
	// Expand): the keys not in the set NULL, and the set's number a key.
	var expand [][]bool
	if len(sets) > 1 || len(sets) == 1 && len(sets[0]) != len(keys) {
		for i := range outCols {
			outCols[i].typ = outCols[i].typ.Nullable()
		}
		for _, set := range sets {
			in := make([]bool, len(keys))
			for _, i := range set {
				in[i] = true
			}
			expand = append(expand, in)
		}
		pre = append(pre, constant(int64(0)))
		outCols = append(outCols, col{name: "$e", typ: value.TBigInt})
		names = append(names, "$e")
	}
	nKeys := len(outCols)
	// The aggregate calls of the SELECT list and HAVING, each once.
	var specs []stream.AggSpec
	var aggNames []string
	var collectErr error
	visit := func(n ast.Node) bool {
		f, ok := aggCall(n)
		if !ok || collectErr != nil {
			_, isQuery := n.(*ast.Query)
			return !isQuery && collectErr == nil
		}
		key := exprKey(f)
		if _, ok := subst[key]; ok {
			return false
		}
		spec, err := d.aggSpec(f, inC, &pre)
		if err != nil {
			collectErr = err
			return false
		}
		subst[key] = nKeys + len(specs)
		specs = append(specs, spec)
		aggNames = append(aggNames, aggName(f))
		return false
	}
	for _, it := range s.Items {
		ast.Inspect(it.Expr, visit)
	}
	if s.Having != nil {
		ast.Inspect(s.Having, visit)
	}
	if collectErr != nil {
		return nil, collectErr
	}
	for i, sp := range specs {
		outCols = append(outCols, col{name: fmt.Sprintf("$a%d", i), typ: sp.Out})
	}
	// The Calc: keys, then arguments and filters as aggSpec placed them.
	calc := d.calc(in, nil, func(r stream.Rec) (value.Row, bool, error) {
		row := make(value.Row, len(pre))
		for i, f := range pre {
			v, err := f(r.Row)
			if err != nil {
				return nil, false, fmt.Errorf("GROUP BY, input row %d: %w", r.Src, err)
			}
			row[i] = v
		}
		return row, true, nil
	})
	start, end, wtime := -1, -1, -1
	for i, c := range outCols[:nKeys] {
		switch c.win {
		case winStart:
			start = i
		case winEnd:
			end = i
		case winTime:
			wtime = i
		}
	}
	if in.session && (start < 0 || end < 0) {
		return nil, errorAt(s, "a SESSION window TVF is only supported in a window aggregate (GROUP BY window_start, window_end, …) in debug runs")
	}
	var out *rel
	var name string
	if start >= 0 && end >= 0 {
		// GROUP BY window_start, window_end over a window TVF: a window
		// aggregate, append-only.
		if expand != nil {
			// Flink's window aggregate takes grouping sets that all hold
			// the window: the Expand before it never clears its bounds.
			for _, set := range expand {
				if !set[start] || !set[end] {
					return nil, errorAt(s, "every grouping set of a window aggregate must hold window_start and window_end")
				}
			}
			fm := expandOp(expand)
			calc.out.To(fm)
			d.graph.Add("Expand", fm)
			calc = &rel{out: &fm.Out}
		}
		if in.session || in.sliced {
			if err := jsonAggInMergingWindow(s, in.session); err != nil {
				return nil, err
			}
		}
		if in.updating {
			return nil, errorAt(s, "StreamPhysicalWindowAggregate doesn't support consuming update and delete changes which is produced by node %s", in.producer)
		}
		name = fmt.Sprintf("WindowAggregate(groupBy=[%s], select=[%s])", strings.Join(names, ", "), strings.Join(append(append([]string{}, names...), aggNames...), ", "))
		if in.session {
			w := stream.NewSessionAgg(nKeys, start, end, wtime, specs)
			w.Proc = in.procWindows
			if d.zone != time.UTC && in.zonedWindows {
				w.Millis, w.Local = d.windowMillis(in), d.localWindow()
			}
			calc.out.To(w)
			d.graph.Add(name, w)
			out = &rel{cols: outCols, out: &w.Out, producer: name, zonedWindows: in.zonedWindows, procWindows: in.procWindows}
		} else {
			w := stream.NewWindowAgg(nKeys, end, specs, d.windowMillis(in))
			w.Proc = in.procWindows
			calc.out.To(w)
			d.graph.Add(name, w)
			out = &rel{cols: outCols, out: &w.Out, producer: name, zonedWindows: in.zonedWindows, procWindows: in.procWindows}
		}
	} else {
		g := stream.NewGroupAgg(nKeys, specs)
		if expand != nil {
			fm := expandOp(expand)
			calc.out.To(fm)
			d.graph.Add("Expand", fm)
			fm.Out.To(g)
		} else {
			calc.out.To(g)
		}
		name = fmt.Sprintf("GroupAggregate(groupBy=[%s], select=[%s])", strings.Join(names, ", "), strings.Join(append(append([]string{}, names...), aggNames...), ", "))
		if nKeys == 0 {
			name = fmt.Sprintf("GroupAggregate(select=[%s])", strings.Join(aggNames, ", "))
		}
		d.graph.Add(name, g)
		out = &rel{cols: outCols, out: &g.Out, updating: true, producer: name}
	}
	for i := 0; i < nKeys; i++ {
		out.key = append(out.key, i)
	}
	out, err := d.groupingCalls(s, out, len(keys), expand, subst)
	if err != nil {
		return nil, err
	}
	// Scalar subqueries of the SELECT list join the aggregate's rows.
	if out, err = (tableFuncs{d.runner}).planScalarItems(ctx, out, s.Items, ctes, subst); err != nil {
		return nil, err
	}
	// And those of HAVING, a filter after the aggregate: an INNER join, as
	// in WHERE.
	if s.Having != nil && onlyScalar(s.Having) {
		if out, _, _, err = (tableFuncs{d.runner}).planScalarConds(ctx, out, []ast.Expr{s.Having}, ctes, subst); err != nil {
			return nil, err
		}
	}
	c := d.compiler(out.cols)
	c.subst = subst
	c.aggs = func(f *ast.FuncCall) (int, error) {
		if i, ok := subst[exprKey(f)]; ok {
			return i, nil
		}
		return 0, errorAt(f, "aggregate %s is not planned", format.Expr(f))
	}
	if s.Having != nil {
		c.where = "HAVING"
		h, _, err := c.compile(s.Having)
		if err != nil {
			return nil, notGrouped(err, s.Having, in.cols)
		}
		out = d.filter(out, h, "HAVING")
		c.where = ""
	}
	r, err := d.project(out, s.Items, c)
	if err != nil {
		return nil, notGrouped(err, nil, in.cols)
	}
	r.updating, r.producer = out.updating, name
	return r, nil
}

// notGrouped says, in Flink's words, that a column the SELECT list reads is
// not a GROUP BY key.
func notGrouped(err error, _ ast.Expr, in scope) error {
	msg := err.Error()
	if i := strings.Index(msg, "Column '"); i >= 0 && strings.HasSuffix(msg, "' not found in any table") {
		name := strings.TrimSuffix(msg[i+len("Column '"):], "' not found in any table")
		for _, c := range in {
			if strings.EqualFold(c.name, name) || strings.EqualFold(c.table+"."+c.name, name) {
				return fmt.Errorf("%sExpression '%s' is not being grouped", msg[:i], name)
			}
		}
	}
	return err
}

// aggSpec compiles an aggregate call's argument and FILTER over the input,
// adding them to the Calc before the aggregation.
func (d aggregates) aggSpec(f *ast.FuncCall, c *compiler, pre *[]evalFn) (stream.AggSpec, error) {
	name := f.FuncName()
	spec := stream.AggSpec{Func: name, Arg: -1, Filter: -1, Distinct: f.Distinct}
	switch name {
	case "COUNT", "SUM", "SUM0", "AVG", "MIN", "MAX", "LISTAGG", "FIRST_VALUE", "LAST_VALUE", "BOOL_AND", "BOOL_OR", "ARRAY_AGG", "COLLECT",
		"STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "STDDEV", "VARIANCE", "JSON_OBJECTAGG", "JSON_ARRAYAGG":
	default:
		return spec, errorAt(f, "aggregate function %s is not supported in debug runs yet", name)
	}
	star := len(f.Args) == 1
	if star {
		_, star = f.Args[0].(*ast.Star)
	}
	switch {
	case name == "COUNT" && (len(f.Args) == 0 || star):
		spec.In = value.TBigInt
	case name == "LISTAGG" && (len(f.Args) == 1 || len(f.Args) == 2):
		spec.Sep = ","
		if len(f.Args) == 2 {
			sep, ok := f.Args[1].(*ast.StringLit)
			if !ok {
				return spec, errorAt(f.Args[1], "LISTAGG's separator must be a string literal")
			}
			spec.Sep = sep.Value
		}
		arg, t, err := c.compile(f.Args[0])
		if err != nil {
			return spec, err
		}
		if !t.IsString() && t.Kind != value.Null {
			return spec, errorAt(f.Args[0], "LISTAGG takes a string, not %s", t)
		}
		spec.Arg, spec.In = len(*pre), t
		*pre = append(*pre, arg)
	case name == "JSON_OBJECTAGG" || name == "JSON_ARRAYAGG":
		arg, err := c.jsonAggArg(f)
		if err != nil {
			return spec, err
		}
		spec.Absent = f.Args[len(f.Args)-1].(*ast.StringLit).Value == "ABSENT"
		spec.Arg, spec.In = len(*pre), value.TString
		*pre = append(*pre, arg)
	case len(f.Args) != 1:
		return spec, errorAt(f, "%s takes one argument in debug runs", name)
	default:
		arg, t, err := c.compile(f.Args[0])
		if err != nil {
			return spec, err
		}
		spec.Arg, spec.In = len(*pre), t
		*pre = append(*pre, arg)
	}
	out, err := stream.AggType(name, spec.In)
	if err != nil {
		return spec, errorAt(f, "%v", err)
	}
	spec.Out = out
	if f.Filter != nil {
		fc := *c
		fc.where = "FILTER"
		cond, _, err := fc.compile(f.Filter)
		if err != nil {
			return spec, err
		}
		spec.Filter = len(*pre)
		*pre = append(*pre, cond)
	}
	return spec, nil
}

// groupingSets flattens GROUP BY's items into its distinct key
// expressions and the grouping sets over them (by index): plain keys are
// in every set; GROUPING SETS, ROLLUP and CUBE multiply the sets.
func groupingSets(items []ast.Expr) ([]ast.Expr, [][]int) {
	var keys []ast.Expr
	index := func(e ast.Expr) int {
		k := exprKey(e)
		for i, x := range keys {
			if exprKey(x) == k {
				return i
			}
		}
		keys = append(keys, e)
		return len(keys) - 1
	}
	list := func(e ast.Expr) []int {
		if r, ok := e.(*ast.RowExpr); ok {
			out := []int{}
			for _, x := range r.Items {
				out = append(out, index(x))
			}
			return out
		}
		if p, ok := e.(*ast.ParenExpr); ok {
			return []int{index(p.X)}
		}
		return []int{index(e)}
	}
	sets := [][]int{{}}
	cross := func(options [][]int) {
		var next [][]int
		for _, s := range sets {
			for _, o := range options {
				next = append(next, append(append([]int{}, s...), o...))
			}
		}
		sets = next
	}
	for _, it := range items {
		switch x := it.(type) {
		case *ast.GroupingSets:
			var opts [][]int
			for _, e := range x.Sets {
				opts = append(opts, list(e))
			}
			cross(opts)
		case *ast.Rollup:
			var all []int
			for _, e := range x.Items {
				all = append(all, list(e)...)
			}
			var opts [][]int
			for n := len(all); n >= 0; n-- {
				opts = append(opts, all[:n])
			}
			cross(opts)
		case *ast.Cube:
			var all []int
			for _, e := range x.Items {
				all = append(all, list(e)...)
			}
			var opts [][]int
			for m := (1 << len(all)) - 1; m >= 0; m-- {
				var o []int
				for i := range all {
					if m&(1<<(len(all)-1-i)) != 0 {
						o = append(o, all[i])
					}
				}
				opts = append(opts, o)
			}
			cross(opts)
		case *ast.RowExpr:
			cross([][]int{list(x)}) // GROUP BY () or (a, b)
		default:
			cross([][]int{{index(x)}})
		}
	}
	return keys, sets
}

// groupWindow adds the window TVF of a legacy group window — TUMBLE(ts,
// size), HOP(ts, slide, size) or SESSION(ts, gap) in GROUP BY — to in.
func (d aggregates) groupWindow(f *ast.FuncCall, in *rel) (*rel, error) {
	name := f.FuncName()
	want := map[string]int{"TUMBLE": 2, "HOP": 3, "SESSION": 2}[name]
	if len(f.Args) != want {
		return nil, errorAt(f, "%s in GROUP BY takes %d arguments", name, want)
	}
	ref, ok := f.Args[0].(*ast.ColumnRef)
	tc := -1
	if ok {
		if i, fields, err := in.cols.resolve(ref); err == nil && len(fields) == 0 {
			tc = i
		}
	}
	if tc < 0 || in.cols[tc].time == plainTime {
		return nil, errorAt(f.Args[0], "Window can only be defined on a time attribute column, but is type of %s", format.Expr(f.Args[0]))
	}
	if in.updating {
		return nil, errorAt(f, "GroupWindowAggregate doesn't support consuming update and delete changes which is produced by node %s", in.producer)
	}
	var ms []int64
	for _, a := range f.Args[1:] {
		v, _, err := d.compiler(nil).constValue(a)
		dur, isDur := v.(time.Duration)
		if err != nil || !isDur || dur <= 0 {
			return nil, errorAt(a, "a group window's size must be a positive INTERVAL DAY TO SECOND")
		}
		ms = append(ms, dur.Milliseconds())
	}
	w := stream.Windows{Size: ms[0]}
	switch name {
	case "HOP":
		w = stream.Windows{Kind: stream.Hop, Step: ms[0], Size: ms[1]}
		if w.Size%w.Step != 0 {
			return nil, errorAt(f, "HOP window requires size must be an integral multiple of slide, but got size %d ms and slide %d ms.", w.Size, w.Step)
		}
	case "SESSION":
		w.Kind = stream.Session
	}
	return d.windowTVF(in, tc, w, name, [3]string{"$window_start", "$window_end", "$window_time"}), nil
}

// expandOp is Flink's Expand before a grouped aggregate: each row once per
// grouping set, the keys outside the set NULL and the set's number in the
// column after the keys.
func expandOp(expand [][]bool) *stream.FlatMap {
	nk := len(expand[0])
	return &stream.FlatMap{Fn: func(r stream.Rec, emit func(value.Row) error) error {
		for e, in := range expand {
			row := append(value.Row(nil), r.Row...)
			for i := 0; i < nk; i++ {
				if !in[i] {
					row[i] = nil
				}
			}
			row[nk] = int64(e)
			if err := emit(row); err != nil {
				return err
			}
		}
		return nil
	}}
}

// jsonAggInMergingWindow refuses JSON_OBJECTAGG and JSON_ARRAYAGG in a
// SESSION, HOP or CUMULATE window aggregate: their accumulators cannot
// merge the sessions or shared slices those windows merge (Flink's docs
// name session and hop windows; CUMULATE shares slices as HOP does).
func jsonAggInMergingWindow(s *ast.Select, session bool) error {
	var found *ast.JSONCallExpr
	ast.Inspect(s, func(n ast.Node) bool {
		if x, ok := n.(*ast.JSONCallExpr); ok && found == nil && (x.Name == "JSON_OBJECTAGG" || x.Name == "JSON_ARRAYAGG") {
			found = x
		}
		_, isQuery := n.(*ast.Query)
		return found == nil && !isQuery
	})
	if found == nil {
		return nil
	}
	if !session {
		return errorAt(found, "%s is currently not supported in OVER windows, unbounded session windows, or hop windows: a HOP or CUMULATE window aggregate merges slices, which it cannot.", found.Name)
	}
	return errorAt(found, "%s is currently not supported in OVER windows, unbounded session windows, or hop windows.", found.Name)
}

// aggName is an aggregate call as Flink's plan names it: JSON_OBJECTAGG
// and JSON_ARRAYAGG with their ON NULL behaviour in the name
// (JSON_OBJECTAGG_NULL_ON_NULL(k, v)).
func aggName(f *ast.FuncCall) string {
	name := f.FuncName()
	if name != "JSON_OBJECTAGG" && name != "JSON_ARRAYAGG" {
		return format.Expr(f)
	}
	args := make([]string, len(f.Args)-1)
	for i, a := range f.Args[:len(f.Args)-1] {
		args[i] = format.Expr(a)
	}
	onNull := f.Args[len(f.Args)-1].(*ast.StringLit).Value
	return name + "_" + onNull + "_ON_NULL(" + strings.Join(args, ", ") + ")"
}
