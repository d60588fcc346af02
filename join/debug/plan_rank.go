package debug

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// planOrderBy plans a query's ORDER BY: with a LIMIT, a top-N over the
// whole input (Flink's Rank without a partition); without one, only the
// order of a time attribute ascending, which a bounded run already has.
func (d ranks) planOrderBy(ctx context.Context, q *ast.Query, ctes map[string]*cte, limit ast.Expr) (*rel, error) {
	r, err := d.planBody(ctx, q.Body, ctes)
	if err != nil {
		return nil, err
	}
	if limit == nil {
		first := q.OrderBy[0]
		if ref, ok := first.Expr.(*ast.ColumnRef); ok && !first.Desc() {
			if j, fields, err := r.cols.resolve(ref); err == nil && len(fields) == 0 && r.cols[j].time != plainTime && !r.updating {
				return r, nil // the input comes in its time attribute's order
			}
		}
		return nil, errorAt(first, "Sort on a non-time-attribute field is not supported.")
	}
	n, err := limitValue(limit)
	if err != nil {
		return nil, err
	}
	return d.planTopN(ctx, r, nil, q.OrderBy, n, -1, q)
}

// planTopN plans a top-N of in: the first n rows of each partition (its
// columns) in the order of order (expressions over in), with the row
// number appended when rankCol ≥ 0.
func (d ranks) planTopN(ctx context.Context, in *rel, partition []int, order []*ast.OrderItem, n, rankCol int64, q *ast.Query) (*rel, error) {
	if len(order) == 0 {
		return nil, errorAt(q, "LIMIT over an updating input (%s) is not supported in debug runs yet", in.producer)
	}
	// The sort keys are computed into hidden columns after the row's own.
	width := len(in.cols)
	c := d.compiler(in.cols)
	var fns []evalFn
	key := stream.SortKey{}
	for _, o := range order {
		f, _, err := c.compile(o.Expr)
		if err != nil {
			return nil, err
		}
		if o.Nulls != "" {
			return nil, errorAt(o, "NULLS FIRST/LAST is not supported in debug runs yet")
		}
		key.Cols = append(key.Cols, width+len(fns))
		key.Desc = append(key.Desc, o.Desc())
		fns = append(fns, f)
	}
	withKeys := d.calc(in, nil, func(r stream.Rec) (value.Row, bool, error) {
		row := make(value.Row, width, width+len(fns))
		copy(row, r.Row)
		for _, f := range fns {
			v, err := f(r.Row)
			if err != nil {
				return nil, false, fmt.Errorf("ORDER BY, input row %d: %w", r.Src, err)
			}
			row = append(row, v)
		}
		return row, true, nil
	})
	if partition == nil {
		partition = []int{} // one partition: the whole input
	}
	rk := stream.NewRank(partition, key, n, rankCol >= 0)
	rk.Retract = in.updating
	withKeys.out.To(rk)
	strategy := "AppendFastStrategy"
	if in.updating {
		strategy = "RetractStrategy"
	}
	name := fmt.Sprintf("Rank(strategy=[%s], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=%d])", strategy, n)
	d.graph.Add(name, rk)
	cols := append(scope{}, in.cols...)
	if rankCol >= 0 {
		cols = append(cols, col{name: "$rn", typ: value.Type{Kind: value.BigInt, NotNull: true}})
	}
	number := rankCol >= 0
	out := &rel{cols: cols, out: &rk.Out, updating: true, producer: name}
	return d.calc(out, cols, func(r stream.Rec) (value.Row, bool, error) {
		row := make(value.Row, 0, len(cols))
		row = append(row, r.Row[:width]...)
		if number {
			row = append(row, r.Row[len(r.Row)-1])
		}
		return row, true, nil
	}), nil
}

// planRankSelect plans SELECT … FROM (SELECT …, ROW_NUMBER() OVER
// (PARTITION BY … ORDER BY …) AS rn FROM …) WHERE rn <= N: Flink's
// deduplication when N is 1, the order a time attribute and rn is not
// selected; else its top-N. ok is false when s is not one.
func (d ranks) planRankSelect(ctx context.Context, s *ast.Select, ctes map[string]*cte) (*rel, bool, error) {
	dt, ok := s.From.(*ast.DerivedTable)
	if !ok || dt.Lateral || s.Where == nil {
		return nil, false, nil
	}
	q := dt.Query
	inner, ok := q.Body.(*ast.Select)
	if !ok || q.With != nil || len(q.OrderBy) > 0 || q.Limit != nil || q.Fetch != nil {
		return nil, false, nil
	}
	k, call := -1, (*ast.FuncCall)(nil)
	for i, it := range inner.Items {
		if f, ok := it.Expr.(*ast.FuncCall); ok && f.Over != nil && it.Alias != nil {
			switch f.FuncName() {
			case "ROW_NUMBER", "RANK", "DENSE_RANK":
				k, call = i, f
			}
		}
	}
	if call == nil {
		return nil, false, nil
	}
	rn := inner.Items[k].Alias.Name
	// The filter on the number: rn <= N, rn < N or rn = 1.
	var n int64 = -1
	var rest []ast.Expr
	for _, e := range conjuncts(s.Where) {
		if b, ok := e.(*ast.BinaryExpr); ok && n < 0 {
			ref, okL := b.L.(*ast.ColumnRef)
			num, okR := b.R.(*ast.NumberLit)
			if okL && okR && strings.EqualFold(ref.Name(), rn) {
				v, err := strconv.ParseInt(num.Text, 10, 64)
				if err == nil {
					switch b.Op {
					case "<=":
						n = v
					case "<":
						n = v - 1
					case "=":
						if v == 1 {
							n = 1
						}
					}
					if n >= 0 {
						continue
					}
				}
			}
		}
		rest = append(rest, e)
	}
	if n < 1 {
		return nil, true, errorAt(call, "%s() OVER needs a filter on its number in the outer query (WHERE %s <= N) in debug runs", call.FuncName(), rn)
	}
	if call.FuncName() != "ROW_NUMBER" {
		// Flink's streaming Rank and WindowRank take ROW_NUMBER only.
		if windowed(call.Over.PartitionBy) {
			return nil, true, errorAt(call, "%s() function is not supported on Window TopN currently, only ROW_NUMBER() is supported.", call.FuncName())
		}
		return nil, true, errorAt(call, "%s() on streaming table is not supported currently", call.FuncName())
	}
	over := call.Over
	if over.Ref != nil || over.Frame != nil || len(over.OrderBy) == 0 {
		return nil, true, errorAt(over, "a top-N's OVER needs PARTITION BY … ORDER BY … and nothing else in debug runs")
	}
	if len(s.GroupBy) > 0 || s.Having != nil || s.Distinct || hasAggregate(s) || hasOver(s) {
		return nil, true, errorAt(s, "aggregating a top-N in the same SELECT is not supported in debug runs yet: wrap it in a subquery")
	}
	// The inner SELECT without the ROW_NUMBER, with its partition and
	// order expressions as hidden columns.
	in2 := *inner
	in2.Items = append(append([]*ast.SelectItem{}, inner.Items[:k]...), inner.Items[k+1:]...)
	for i, p := range over.PartitionBy {
		in2.Items = append(in2.Items, &ast.SelectItem{Span: inner.Items[k].Span, Expr: p, Alias: &ast.Ident{Name: fmt.Sprintf("$p%d", i)}})
	}
	for i, o := range over.OrderBy {
		in2.Items = append(in2.Items, &ast.SelectItem{Span: inner.Items[k].Span, Expr: o.Expr, Alias: &ast.Ident{Name: fmt.Sprintf("$o%d", i)}})
	}
	in, err := d.planSelect(ctx, &in2, ctes)
	if err != nil {
		return nil, true, err
	}
	// The columns the inner SELECT gives (a * among its items gives many),
	// and where the number goes among them.
	visible := len(in.cols) - len(over.PartitionBy) - len(over.OrderBy)
	k = visible - (len(inner.Items) - k - 1)
	var partition []int
	for i := range over.PartitionBy {
		partition = append(partition, visible+i)
	}
	if partition == nil {
		partition = []int{}
	}
	firstOrder := visible + len(over.PartitionBy)
	usesRN := rnReferenced(s, rest, rn)
	var out *rel
	endCol := -1
	hasStart := false
	for _, i := range partition {
		switch in.cols[i].win {
		case winStart:
			hasStart = true
		case winEnd:
			endCol = i
		}
	}
	if hasStart && endCol >= 0 && !in.updating {
		// PARTITION BY window_start, window_end: a window top-N (or
		// deduplication), emitted when the window fires.
		key := stream.SortKey{}
		for i, o := range over.OrderBy {
			if o.Nulls != "" {
				return nil, true, errorAt(o, "NULLS FIRST/LAST is not supported in debug runs yet")
			}
			key.Cols = append(key.Cols, firstOrder+i)
			key.Desc = append(key.Desc, o.Desc())
		}
		wr := stream.NewWindowRank(partition, endCol, key, n, usesRN)
		wr.Millis = d.windowMillis(in)
		wr.Proc = in.procWindows
		in.out.To(wr)
		name := fmt.Sprintf("WindowRank(rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=%d])", n)
		d.graph.Add(name, wr)
		cols := append(scope{}, in.cols...)
		if usesRN {
			cols = append(cols, col{name: "$rn", typ: value.Type{Kind: value.BigInt, NotNull: true}})
		}
		out = &rel{cols: cols, out: &wr.Out, producer: name, zonedWindows: in.zonedWindows, procWindows: in.procWindows}
	}
	timeOrder := len(over.OrderBy) == 1 && in.cols[firstOrder].time != plainTime && over.OrderBy[0].Nulls == ""
	if out != nil {
		// planned above
	} else if n == 1 && timeOrder && !usesRN {
		if in.updating {
			return nil, true, errorAt(call, "StreamPhysicalDeduplicate doesn't support consuming update and delete changes which is produced by node %s", in.producer)
		}
		timeCol := -1
		if in.cols[firstOrder].time == rowtime {
			timeCol = firstOrder
		}
		dd := stream.NewDedup(partition, timeCol, over.OrderBy[0].Desc())
		in.out.To(dd)
		name := "Deduplicate(keep=[FirstRow])"
		if over.OrderBy[0].Desc() {
			name = "Deduplicate(keep=[LastRow])"
		}
		d.graph.Add(name, dd)
		// Keeping the first row by processing time never updates.
		updating := timeCol >= 0 || over.OrderBy[0].Desc()
		out = &rel{cols: in.cols, out: &dd.Out, updating: updating, producer: name}
	} else {
		var order []*ast.OrderItem
		for i, o := range over.OrderBy {
			order = append(order, &ast.OrderItem{Span: o.Span, Expr: &ast.ColumnRef{Span: o.Span, Parts: []*ast.Ident{{Span: o.Span, Name: fmt.Sprintf("$o%d", i)}}}, Dir: o.Dir, Nulls: o.Nulls})
		}
		rankCol := int64(-1)
		if usesRN {
			rankCol = 0
		}
		if out, err = d.planTopN(ctx, in, partition, order, n, rankCol, q); err != nil {
			return nil, true, err
		}
	}
	// The inner SELECT's columns, the number where ROW_NUMBER was.
	cols := append(scope{}, out.cols[:visible]...)
	rnCol := col{name: rn, typ: value.Type{Kind: value.BigInt, NotNull: true}}
	cols = append(cols[:k], append(scope{rnCol}, cols[k:]...)...)
	hasNumber := len(out.cols) > len(in.cols)
	numberAt := len(out.cols) - 1
	r := d.calc(out, cols, func(rec stream.Rec) (value.Row, bool, error) {
		row := make(value.Row, 0, len(cols))
		row = append(row, rec.Row[:k]...)
		var num any = int64(1)
		if hasNumber {
			num = rec.Row[numberAt]
		}
		row = append(row, num)
		row = append(row, rec.Row[k:visible]...)
		return row, true, nil
	})
	r.updating, r.producer = out.updating, out.producer
	alias := ""
	if dt.Alias != nil {
		alias = dt.Alias.Name.Name
	}
	r = r.renamed(alias)
	if len(rest) > 0 {
		c := d.compiler(r.cols)
		c.where = "WHERE"
		var where evalFn
		for _, e := range rest {
			f, _, err := c.compile(e)
			if err != nil {
				return nil, true, err
			}
			where = and(where, f)
		}
		r = d.filter(r, where, "WHERE")
	}
	res, err := d.project(r, s.Items, nil)
	if err != nil {
		return nil, true, err
	}
	res.updating, res.producer = r.updating, r.producer
	return res, true, nil
}

// rnReferenced says whether the outer query reads the row number (beyond
// the filter on it).
func rnReferenced(s *ast.Select, rest []ast.Expr, rn string) bool {
	found := false
	visit := func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Star:
			found = true
		case *ast.ColumnRef:
			if strings.EqualFold(x.Name(), rn) {
				found = true
			}
		}
		return !found
	}
	for _, it := range s.Items {
		ast.Inspect(it, visit)
	}
	for _, e := range rest {
		ast.Inspect(e, visit)
	}
	return found
}

// windowed says whether a top-N's partition names window_start and
// window_end (a window top-N), by their usual names.
func windowed(partition []ast.Expr) bool {
	start, end := false, false
	for _, p := range partition {
		if ref, ok := p.(*ast.ColumnRef); ok {
			start = start || strings.EqualFold(ref.Name(), "window_start")
			end = end || strings.EqualFold(ref.Name(), "window_end")
		}
	}
	return start && end
}
