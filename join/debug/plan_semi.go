package debug

import (
	"context"
	"fmt"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// planSubqueryConds plans the WHERE conditions with a subquery: `x IN
// (SELECT y …)` as Flink's semi join on x = y; the conditions without one
// are returned to be applied as a filter. Other subqueries are refused.
func (d tableFuncs) planSubqueryConds(ctx context.Context, in *rel, conds []flinksql.Expr, ctes map[string]*cte) (*rel, []flinksql.Expr, error) {
	var rest []flinksql.Expr
	for _, c := range conds {
		if !hasSubquery(c) {
			rest = append(rest, c)
			continue
		}
		x, ok := c.(*flinksql.InExpr)
		if !ok || x.Query == nil {
			var at flinksql.Node = c
			flinksql.Inspect(c, func(n flinksql.Node) bool {
				switch n.(type) {
				case *flinksql.ExistsExpr, *flinksql.SubqueryExpr, *flinksql.QuantifiedExpr, *flinksql.InExpr:
					at = n
					return false
				}
				return true
			})
			return nil, nil, errorAt(at, "subqueries in WHERE other than x IN (SELECT …) (EXISTS, scalar, ANY/ALL, or under OR/NOT) are not supported in debug runs yet")
		}
		if x.Not {
			return nil, nil, errorAt(x, "NOT IN (SELECT …) is not supported in debug runs yet")
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
		op := stream.NewSemiJoin(false)
		op.Key = [2]func(value.Row) (string, bool, error){key(lf), key(rf)}
		in.out.To(op.Input(0))
		sub.out.To(op.Input(1))
		name := fmt.Sprintf("Join(joinType=[LeftSemiJoin], where=[%s])", flinksql.FormatExpr(x))
		d.graph.Add(name, op)
		out := *in
		out.out, out.key = &op.Out, nil
		if sub.updating {
			out.updating, out.producer = true, name
		}
		in = &out
	}
	return in, rest, nil
}
