package debug

import (
	"context"
	"fmt"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/stream"
)

// Scalar subqueries, as Flink's planner decorrelates them: an uncorrelated
// one's single row joined to every row of the outer query — a LEFT join on
// TRUE for one in the SELECT list, an INNER join for one in a WHERE
// condition (the condition rejects the NULL a LEFT join would pad with);
// a correlated one's aggregate grouped by its correlation keys and joined
// on them (plan_scalar_corr.go). The subquery's value is then a column of
// the joined row.

// scalarSubqueries are the scalar subqueries of e, outside nested queries.
func scalarSubqueries(e ast.Expr) []*ast.SubqueryExpr {
	var out []*ast.SubqueryExpr
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SubqueryExpr:
			out = append(out, x)
			return false
		case *ast.Query, *ast.ExistsExpr, *ast.QuantifiedExpr:
			return false
		case *ast.InExpr:
			return x.Query == nil
		}
		return true
	})
	return out
}

// onlyScalar says whether e's subqueries are all scalar ones.
func onlyScalar(e ast.Expr) bool {
	other := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SubqueryExpr:
			return false
		case *ast.ExistsExpr, *ast.QuantifiedExpr:
			other = true
		case *ast.InExpr:
			other = other || x.Query != nil
		}
		return !other
	})
	return !other && len(scalarSubqueries(e)) > 0
}

// planScalarConds joins the scalar subqueries of the WHERE conditions that
// have them to in; it returns the other conditions, and where each
// subquery's value is.
func (d tableFuncs) planScalarConds(ctx context.Context, in *rel, conds []ast.Expr, ctes map[string]*cte, subst map[string]int) (*rel, []ast.Expr, []ast.Expr, error) {
	var rest, scalar []ast.Expr
	for _, c := range conds {
		if !onlyScalar(c) {
			rest = append(rest, c)
			continue
		}
		for _, sq := range scalarSubqueries(c) {
			var err error
			if in, err = d.joinScalar(ctx, in, sq, false, ctes, subst); err != nil {
				return nil, nil, nil, err
			}
		}
		scalar = append(scalar, c)
	}
	return in, rest, scalar, nil
}

// planScalarItems joins the scalar subqueries of a SELECT list to in.
func (d tableFuncs) planScalarItems(ctx context.Context, in *rel, items []*ast.SelectItem, ctes map[string]*cte, subst map[string]int) (*rel, error) {
	for _, it := range items {
		for _, sq := range scalarSubqueries(it.Expr) {
			var err error
			if in, err = d.joinScalar(ctx, in, sq, true, ctes, subst); err != nil {
				return nil, err
			}
		}
	}
	return in, nil
}

// joinScalar joins one scalar subquery's row to in (LEFT or INNER) and
// records its column in subst.
func (d tableFuncs) joinScalar(ctx context.Context, in *rel, sq *ast.SubqueryExpr, left bool, ctes map[string]*cte, subst map[string]int) (*rel, error) {
	key := exprKey(sq)
	if _, ok := subst[key]; ok {
		return in, nil
	}
	if correlated(sq.Query, in.cols) {
		return d.joinCorrelatedScalar(ctx, in, sq, left, ctes, subst)
	}
	op := stream.NewJoin()
	op.Outer[0] = left
	// The outer rows reach the join before the subquery's (one scan feeds
	// both in the order they were planned).
	in.out.To(op.Input(0))
	sub, err := d.planQuery(ctx, sq.Query, ctes)
	if err != nil {
		return nil, err
	}
	if len(sub.cols) != 1 {
		return nil, errorAt(sq, "a scalar subquery must give one column, this one gives %d", len(sub.cols))
	}
	src := sub.out
	if !globalAggregate(sq.Query) {
		// Flink adds SINGLE_VALUE: more than one row is an error at run time.
		sv := &singleValue{}
		sub.out.To(sv)
		src = &sv.Out
	}
	src.To(op.Input(1))
	op.Width = [2]int{len(in.cols), 1}
	typeName := "InnerJoin"
	if left {
		typeName = "LeftOuterJoin"
	}
	name := fmt.Sprintf("Join(joinType=[%s], where=[true], leftInputSpec=[NoUniqueKey], rightInputSpec=[JoinKeyContainsUniqueKey])", typeName)
	d.graph.Add(name, op)
	cols := append(scope{}, in.cols...)
	c := sub.cols[0]
	c.typ, c.time, c.table, c.name = c.typ.Nullable(), plainTime, "", fmt.Sprintf("$scalar%d", len(subst))
	cols = append(cols, c)
	subst[key] = len(cols) - 1
	return &rel{cols: cols, out: &op.Out, updating: true, producer: name}, nil
}

// globalAggregate says whether a query is an aggregate without GROUP BY,
// which gives one row, so that Flink adds no SINGLE_VALUE.
func globalAggregate(q *ast.Query) bool {
	s, ok := q.Body.(*ast.Select)
	return ok && q.With == nil && len(s.GroupBy) == 0 && s.Having == nil && hasAggregate(s)
}

// singleValue passes a subquery's changes on while it holds at most one
// row (Flink's SINGLE_VALUE aggregate fails the job on a second).
type singleValue struct {
	Out  stream.Fan
	rows int64
}

func (s *singleValue) Push(r stream.Rec) error {
	if r.Kind.Adds() {
		s.rows++
	} else {
		s.rows--
	}
	if s.rows > 1 {
		return fmt.Errorf("scalar subquery, input row %d: SingleValueAggFunction received more than one element", r.Src)
	}
	return s.Out.Push(r)
}

func (s *singleValue) Watermark(ts int64) error { return s.Out.Watermark(ts) }
