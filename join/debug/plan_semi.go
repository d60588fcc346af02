package debug

import (
	"context"
	"fmt"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/flinksql/format"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// planSubqueryConds plans the WHERE conditions with a subquery: `x IN
// (SELECT y …)` as Flink's semi join on x = y; the conditions without one
// are returned to be applied as a filter. Other subqueries are refused.
func (d tableFuncs) planSubqueryConds(ctx context.Context, in *rel, conds []ast.Expr, ctes map[string]*cte) (*rel, []ast.Expr, error) {
	var rest []ast.Expr
	for _, c := range conds {
		if !hasSubquery(c) {
			rest = append(rest, c)
			continue
		}
		if ex, anti, ok := existsOf(c); ok {
			var err error
			if in, err = d.planExists(ctx, in, ex, anti, ctes); err != nil {
				return nil, nil, err
			}
			continue
		}
		x, ok := c.(*ast.InExpr)
		if !ok || x.Query == nil {
			var at ast.Node = c
			ast.Inspect(c, func(n ast.Node) bool {
				switch n.(type) {
				case *ast.ExistsExpr, *ast.SubqueryExpr, *ast.QuantifiedExpr, *ast.InExpr:
					at = n
					return false
				}
				return true
			})
			return nil, nil, errorAt(at, "subqueries in WHERE other than x IN (SELECT …) and [NOT] EXISTS (scalar, ANY/ALL, or under OR) are not supported in debug runs yet")
		}
		sub, err := d.planQuery(ctx, x.Query, ctes)
		if err != nil {
			return nil, nil, err
		}
		if len(sub.cols) != 1 {
			return nil, nil, errorAt(x.Query, "the subquery of IN gives %d columns, want 1", len(sub.cols))
		}
		lf, lt, err := d.compiler(in.cols).compile(x.X)
		if err != nil {
			return nil, nil, err
		}
		rt := sub.cols[0].typ
		ct := value.Common(lt, rt)
		lf = castFn(lf, lt, ct, d.zone)
		rf := castFn(func(row value.Row) (any, error) { return row[0], nil }, rt, ct, d.zone)
		key := func(f evalFn) func(value.Row) (string, bool, error) {
			return func(row value.Row) (string, bool, error) {
				v, err := f(row)
				if err != nil || v == nil {
					return "", false, err
				}
				return value.Key([]any{v}, nil), true, nil
			}
		}
		out := *in
		out.key = nil
		if x.Not {
			op := stream.NewNotIn()
			op.Key = [2]func(value.Row) (string, bool, error){key(lf), key(rf)}
			in.out.To(op.Input(0))
			sub.out.To(op.Input(1))
			name := fmt.Sprintf("Join(joinType=[LeftAntiJoin], where=[%s])", format.Expr(x))
			d.graph.Add(name, op)
			out.out, out.updating, out.producer = &op.Out, true, name
		} else {
			op := stream.NewSemiJoin(false)
			op.Key = [2]func(value.Row) (string, bool, error){key(lf), key(rf)}
			in.out.To(op.Input(0))
			sub.out.To(op.Input(1))
			name := fmt.Sprintf("Join(joinType=[LeftSemiJoin], where=[%s])", format.Expr(x))
			d.graph.Add(name, op)
			out.out = &op.Out
			if sub.updating {
				out.updating, out.producer = true, name
			}
		}
		in = &out
	}
	return in, rest, nil
}

// existsOf recognizes EXISTS (…) and NOT EXISTS (…).
func existsOf(e ast.Expr) (*ast.ExistsExpr, bool, bool) {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			break
		}
		e = p.X
	}
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == "NOT" {
		ex, anti, ok := existsOf(u.X)
		return ex, !anti, ok
	}
	ex, ok := e.(*ast.ExistsExpr)
	return ex, false, ok
}

// planExists plans [NOT] EXISTS (SELECT … FROM … WHERE …) as Flink's semi
// (anti) join: the subquery's WHERE equalities between its columns and
// the outer query's are the join key, its other conditions filter it.
func (d tableFuncs) planExists(ctx context.Context, in *rel, ex *ast.ExistsExpr, anti bool, ctes map[string]*cte) (*rel, error) {
	q := ex.Query
	sel, ok := q.Body.(*ast.Select)
	if !ok || q.With != nil || sel.From == nil || len(sel.GroupBy) > 0 || sel.Having != nil || hasAggregate(sel) || q.Limit != nil || len(q.OrderBy) > 0 {
		return nil, errorAt(ex, "EXISTS over this subquery is not supported in debug runs yet: a SELECT … FROM … WHERE … is")
	}
	var conds []ast.Expr
	if sel.Where != nil {
		conds = conjuncts(sel.Where)
	}
	sub, err := d.planFrom(ctx, sel.From, ctes, lookupHints(sel.Hints), &conds)
	if err != nil {
		return nil, err
	}
	var keys [2][]evalFn
	var local evalFn
	for _, c := range conds {
		if f, _, err := d.compiler(sub.cols).compile(c); err == nil && !hasSubquery(c) {
			local = and(local, f)
			continue
		}
		if o, i, ok := (joins{d.runner}).sides(c, in.cols, sub.cols); ok {
			keys[0], keys[1] = append(keys[0], o), append(keys[1], i)
			continue
		}
		return nil, errorAt(c, "this condition of a correlated EXISTS is not supported in debug runs yet: use equalities between the subquery's columns and the outer query's")
	}
	if local != nil {
		sub = d.filter(sub, local, "WHERE")
	}
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
	op := stream.NewSemiJoin(anti)
	op.Key = [2]func(value.Row) (string, bool, error){key(keys[0]), key(keys[1])}
	in.out.To(op.Input(0))
	sub.out.To(op.Input(1))
	name := "Join(joinType=[LeftSemiJoin])"
	if anti {
		name = "Join(joinType=[LeftAntiJoin])"
	}
	d.graph.Add(name, op)
	out := *in
	out.out, out.key = &op.Out, nil
	if sub.updating || anti {
		out.updating, out.producer = true, name
	}
	return &out, nil
}
