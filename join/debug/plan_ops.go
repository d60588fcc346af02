package debug

import (
	"context"
	"fmt"
	"strings"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// The operators not planned yet are refused here, at their line and column,
// in the words of Flink's planner where it has them.

// planSetOp plans UNION ALL (the union of its inputs' changes); other set
// operations are refused.
func (d setOps) planSetOp(ctx context.Context, s *ast.SetOp, ctes map[string]*cte) (*rel, error) {
	op := strings.ToUpper(s.Op)
	if op == "MINUS" {
		op = "EXCEPT"
	}
	if op != "UNION" && op != "INTERSECT" && op != "EXCEPT" {
		return nil, errorAt(s, "%s is not supported in debug runs yet", setOpName(s))
	}
	l, err := d.planBody(ctx, s.L, ctes)
	if err != nil {
		return nil, err
	}
	r, err := d.planBody(ctx, s.R, ctes)
	if err != nil {
		return nil, err
	}
	if len(l.cols) != len(r.cols) {
		return nil, errorAt(s, "Column count mismatch in UNION ALL: the left side has %d columns, the right side %d", len(l.cols), len(r.cols))
	}
	cols := make(scope, len(l.cols))
	for i, c := range l.cols {
		cols[i] = col{name: c.name, typ: value.Common(c.typ, r.cols[i].typ)}
		if c.time == r.cols[i].time {
			cols[i].time = c.time
		}
	}
	// Each side's values are cast to the common type.
	l, r = d.castTo(l, cols), d.castTo(r, cols)
	if op != "UNION" && s.All {
		return d.allSetOp(op, l, r, cols)
	}
	if op != "UNION" || !s.All {
		return d.distinctSetOp(op, l, r, cols)
	}
	u := stream.NewUnion(2)
	l.out.To(u.Input(0))
	r.out.To(u.Input(1))
	out := &rel{cols: cols, out: &u.Out, updating: l.updating || r.updating, producer: l.producer}
	if r.updating && !l.updating {
		out.producer = r.producer
	}
	return out, nil
}

// castTo casts in's columns to the types of cols, where they differ.
func (d setOps) castTo(in *rel, cols scope) *rel {
	same := true
	for i, c := range in.cols {
		same = same && c.typ.Equal(cols[i].typ)
	}
	if same {
		return in
	}
	from := make([]value.Type, len(in.cols))
	for i, c := range in.cols {
		from[i] = c.typ
	}
	loc := d.zone
	return d.calc(in, cols, func(r stream.Rec) (value.Row, bool, error) {
		out := make(value.Row, len(r.Row))
		for i, v := range r.Row {
			c, err := value.Cast(v, from[i], cols[i].typ, loc)
			if err != nil {
				return nil, false, err
			}
			out[i] = c
		}
		return out, true, nil
	})
}

func setOpName(s *ast.SetOp) string {
	name := strings.ToUpper(s.Op)
	if s.All {
		return name + " ALL"
	}
	return name
}

// hasSubquery says whether an expression holds a subquery.
func hasSubquery(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ExistsExpr, *ast.SubqueryExpr, *ast.QuantifiedExpr:
			found = true
		case *ast.InExpr:
			found = found || x.Query != nil
		}
		return !found
	})
	return found
}

// isAggregate says whether a call is an aggregate (not an OVER window's).
func isAggregate(f *ast.FuncCall) bool {
	return f.Over == nil && f.OverRef == nil && aggregateNames[f.FuncName()]
}

// aggCall is n as an aggregate call: a FuncCall that is one, or
// JSON_OBJECTAGG and JSON_ARRAYAGG, written with keywords, as a call of
// their key, value and ON NULL behaviour ('NULL' or 'ABSENT'), so the
// aggregation planners take them as they take any aggregate. A fresh call
// each time: its exprKey is what identifies it.
func aggCall(n ast.Node) (*ast.FuncCall, bool) {
	switch x := n.(type) {
	case *ast.FuncCall:
		return x, isAggregate(x)
	case *ast.JSONCallExpr:
		if x.Name != "JSON_OBJECTAGG" && x.Name != "JSON_ARRAYAGG" {
			return nil, false
		}
		onNull := "NULL"
		if x.Name == "JSON_ARRAYAGG" {
			onNull = "ABSENT"
		}
		for _, cl := range x.Clauses {
			if strings.HasSuffix(cl.Text, "ON NULL") {
				onNull = strings.TrimSuffix(cl.Text, " ON NULL")
			}
		}
		f := &ast.FuncCall{Span: x.Span, Name: &ast.QualifiedName{Span: x.Span, Parts: []*ast.Ident{{Span: x.Span, Name: x.Name}}}}
		for _, e := range x.Entries {
			f.Args = append(f.Args, e.Key, e.Value)
		}
		f.Args = append(append(f.Args, x.Args...), &ast.StringLit{Span: x.Span, Value: onNull})
		return f, true
	}
	return nil, false
}

// hasAggregate says whether a SELECT list or HAVING calls an aggregate
// outside a window.
func hasAggregate(s *ast.Select) bool {
	found := false
	visit := func(n ast.Node) bool {
		if _, ok := aggCall(n); ok {
			found = true
		}
		if _, ok := n.(*ast.Query); ok {
			return false
		}
		return !found
	}
	for _, it := range s.Items {
		ast.Inspect(it, visit)
	}
	if s.Having != nil {
		ast.Inspect(s.Having, visit)
	}
	return found
}

// hasOver says whether a SELECT list has an OVER window.
func hasOver(s *ast.Select) bool {
	found := false
	for _, it := range s.Items {
		ast.Inspect(it, func(n ast.Node) bool {
			if f, ok := n.(*ast.FuncCall); ok && (f.Over != nil || f.OverRef != nil) {
				found = true
			}
			return !found
		})
	}
	return found
}

// planUnnestAlone plans UNNEST(…) as a FROM item of its own.
func (d tableFuncs) planUnnestAlone(u *ast.Unnest) (*rel, error) {
	return nil, errorAt(u, "UNNEST is not supported in debug runs yet")
}

// The planners of a kind of operator each: the runner with their methods.
type (
	sources    struct{ *runner } // table scans, their formats and watermarks
	joins      struct{ *runner } // lookup and regular joins
	aggregates struct{ *runner } // GROUP BY, DISTINCT, OVER
	ranks      struct{ *runner } // ORDER BY, top-N, deduplication
	setOps     struct{ *runner } // UNION ALL
	tableFuncs struct{ *runner } // UNNEST, table functions, MATCH_RECOGNIZE, subqueries
)

// distinctSetOp plans UNION, INTERSECT and EXCEPT (without ALL) as Flink
// rewrites them: INTERSECT a semi join and EXCEPT an anti join of the left
// rows with the right ones (NULLs equal), UNION a union; then the distinct
// rows (a GroupAggregate by every column).
func (d setOps) distinctSetOp(op string, l, r *rel, cols scope) (*rel, error) {
	var in *stream.Fan
	name := "Union(all=[true])"
	switch op {
	case "UNION":
		u := stream.NewUnion(2)
		l.out.To(u.Input(0))
		r.out.To(u.Input(1))
		in = &u.Out
	default:
		sj := stream.NewSemiJoin(op == "EXCEPT")
		whole := func(row value.Row) (string, bool, error) { return value.Key(row, nil), true, nil }
		sj.Key = [2]func(value.Row) (string, bool, error){whole, whole}
		l.out.To(sj.Input(0))
		r.out.To(sj.Input(1))
		name = "Join(joinType=[LeftSemiJoin])"
		if op == "EXCEPT" {
			name = "Join(joinType=[LeftAntiJoin])"
		}
		d.graph.Add(name, sj)
		in = &sj.Out
	}
	g := stream.NewGroupAgg(len(cols), nil)
	in.To(g)
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	agg := fmt.Sprintf("GroupAggregate(groupBy=[%s], select=[%s])", strings.Join(names, ", "), strings.Join(names, ", "))
	d.graph.Add(agg, g)
	out := make(scope, len(cols))
	for i, c := range cols {
		c.time = plainTime
		out[i] = c
	}
	return &rel{cols: out, out: &g.Out, updating: true, producer: agg}, nil
}
