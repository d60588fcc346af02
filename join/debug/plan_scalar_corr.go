package debug

import (
	"context"
	"fmt"
	"strings"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/flinksql/format"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// correlated says whether a subquery's WHERE reads a column of the outer
// query: a column qualified by one of the outer tables' names that is not
// one of the subquery's own.
func correlated(q *ast.Query, outer scope) bool {
	sel, ok := q.Body.(*ast.Select)
	if !ok || sel.Where == nil {
		return false
	}
	inner := map[string]bool{}
	ast.Inspect(sel.From, func(n ast.Node) bool {
		if t, ok := n.(*ast.TableRef); ok {
			inner[strings.ToLower(t.Name.Last())] = true
			if t.Alias != nil {
				inner[strings.ToLower(t.Alias.Name.Name)] = true
			}
		}
		return true
	})
	outerTables := map[string]bool{}
	for _, c := range outer {
		outerTables[strings.ToLower(c.table)] = true
	}
	found := false
	ast.Inspect(sel.Where, func(n ast.Node) bool {
		if ref, ok := n.(*ast.ColumnRef); ok && len(ref.Parts) >= 2 {
			q := strings.ToLower(ref.Parts[0].Name)
			found = found || outerTables[q] && !inner[q]
		}
		_, isQuery := n.(*ast.Query)
		return !found && !isQuery
	})
	return found
}

// joinCorrelatedScalar joins a correlated scalar subquery — an aggregate
// of the rows of its FROM whose WHERE equalities tie them to the outer row
// — as Flink decorrelates it: the aggregate grouped by the inner side of
// those equalities, joined to the outer rows on them (LEFT in the SELECT
// list, INNER in WHERE).
func (d tableFuncs) joinCorrelatedScalar(ctx context.Context, in *rel, sq *ast.SubqueryExpr, left bool, ctes map[string]*cte, subst map[string]int) (*rel, error) {
	q := sq.Query
	sel, ok := q.Body.(*ast.Select)
	if !ok || q.With != nil || sel.From == nil || len(sel.Items) != 1 || len(sel.GroupBy) > 0 || sel.Having != nil || !hasAggregate(sel) ||
		sel.Distinct || q.Limit != nil || len(q.OrderBy) > 0 {
		return nil, errorAt(sq, "a correlated scalar subquery is supported in debug runs as one aggregate over FROM … WHERE inner = outer …, not this one")
	}
	op := stream.NewJoin()
	op.Outer[0] = left
	// The outer rows reach the join before the subquery's (one scan feeds
	// both in the order they were planned).
	in.out.To(op.Input(0))
	var conds []ast.Expr
	if sel.Where != nil {
		conds = conjuncts(sel.Where)
	}
	sub, err := d.planFrom(ctx, sel.From, ctes, lookupHints(sel.Hints), &conds)
	if err != nil {
		return nil, err
	}
	var outerKeys, pre []evalFn
	var local evalFn
	for _, c := range conds {
		if f, _, err := d.compiler(sub.cols).compile(c); err == nil && !hasSubquery(c) {
			local = and(local, f)
			continue
		}
		if o, i, ok := (joins{d.runner}).sides(c, in.cols, sub.cols); ok {
			outerKeys, pre = append(outerKeys, o), append(pre, i)
			continue
		}
		return nil, errorAt(c, "this condition of a correlated scalar subquery is not supported in debug runs yet: use equalities between the subquery's columns and the outer query's")
	}
	if local != nil {
		sub = d.filter(sub, local, "WHERE")
	}
	nKeys := len(pre)
	// The aggregates of the item, over the inner rows grouped by their keys.
	var specs []stream.AggSpec
	aggSubst := map[string]int{}
	var collectErr error
	inC := d.compiler(sub.cols)
	ast.Inspect(sel.Items[0].Expr, func(n ast.Node) bool {
		f, ok := aggCall(n)
		if !ok || collectErr != nil {
			return collectErr == nil
		}
		if _, ok := aggSubst[exprKey(f)]; !ok {
			spec, err := aggregates{d.runner}.aggSpec(f, inC, &pre)
			if err != nil {
				collectErr = err
				return false
			}
			aggSubst[exprKey(f)] = nKeys + len(specs)
			specs = append(specs, spec)
		}
		return false
	})
	if collectErr != nil {
		return nil, collectErr
	}
	calc := d.calc(sub, nil, func(r stream.Rec) (value.Row, bool, error) {
		row := make(value.Row, len(pre))
		for i, f := range pre {
			v, err := f(r.Row)
			if err != nil {
				return nil, false, fmt.Errorf("scalar subquery, input row %d: %w", r.Src, err)
			}
			row[i] = v
		}
		return row, true, nil
	})
	g := stream.NewGroupAgg(nKeys, specs)
	calc.out.To(g)
	name := fmt.Sprintf("GroupAggregate(groupBy=[%d correlation keys], select=[%s])", nKeys, format.Expr(sel.Items[0].Expr))
	d.graph.Add(name, g)
	aggCols := make(scope, nKeys, nKeys+len(specs))
	for i := range aggCols {
		aggCols[i] = col{name: fmt.Sprintf("$k%d", i)}
	}
	for i, sp := range specs {
		aggCols = append(aggCols, col{name: fmt.Sprintf("$a%d", i), typ: sp.Out})
	}
	c := d.compiler(aggCols)
	c.subst = aggSubst
	item, t, err := c.compile(sel.Items[0].Expr)
	if err != nil {
		return nil, err
	}
	// An outer row without inner rows gets the item over no rows (COUNT
	// 0), as Calcite's decorrelation gives it; when that is not NULL the
	// join is a LEFT one even in WHERE, the condition deciding.
	empty := make(value.Row, nKeys, nKeys+len(specs))
	for _, sp := range specs {
		v, err := stream.Fold(sp, nil)
		if err != nil {
			return nil, err
		}
		empty = append(empty, v)
	}
	emptyVal, err := item(empty)
	if err != nil {
		return nil, errorAt(sq, "%v", err)
	}
	if emptyVal != nil {
		op.Outer[0] = true
	}
	agg := &rel{cols: aggCols, out: &g.Out, updating: true, producer: name}
	right := d.calc(agg, nil, func(r stream.Rec) (value.Row, bool, error) {
		v, err := item(r.Row)
		if err != nil {
			return nil, false, err
		}
		return append(append(value.Row(nil), r.Row[:nKeys]...), v), true, nil
	})
	key := func(fns []evalFn) func(value.Row) (string, bool, error) {
		return func(row value.Row) (string, bool, error) {
			vals := make([]any, len(fns))
			for i, f := range fns {
				v, err := f(row)
				if err != nil || v == nil {
					return "", false, err
				}
				vals[i] = v
			}
			return value.Key(vals, nil), true, nil
		}
	}
	innerKeys := make([]evalFn, nKeys)
	for i := range innerKeys {
		innerKeys[i] = func(row value.Row) (any, error) { return row[i], nil }
	}
	op.Key = [2]func(value.Row) (string, bool, error){key(outerKeys), key(innerKeys)}
	op.Width = [2]int{len(in.cols), nKeys + 1}
	right.out.To(op.Input(1))
	typeName := "InnerJoin"
	if left {
		typeName = "LeftOuterJoin"
	}
	jname := fmt.Sprintf("Join(joinType=[%s])", typeName)
	d.graph.Add(jname, op)
	cols := append(scope{}, in.cols...)
	for i := 0; i < nKeys; i++ {
		cols = append(cols, col{name: fmt.Sprintf("$scalar%d_k%d", len(subst), i)})
	}
	cols = append(cols, col{name: fmt.Sprintf("$scalar%d", len(subst)), typ: t.Nullable()})
	subst[exprKey(sq)] = len(cols) - 1
	out := &rel{cols: cols, out: &op.Out, updating: true, producer: jname}
	if emptyVal != nil {
		keyAt, valAt := len(in.cols), len(cols)-1
		out = d.calc(out, cols, func(r stream.Rec) (value.Row, bool, error) {
			if r.Row[keyAt] != nil {
				return r.Row, true, nil
			}
			row := append(value.Row(nil), r.Row...)
			row[valAt] = emptyVal
			return row, true, nil
		})
	}
	return out, nil
}
