package debug

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// planRegularJoin plans a join of two relations by a condition: Flink's
// regular join, which keeps both sides; the ON clause's equalities between
// the sides are its key. A join whose condition bounds one side's rowtime
// by the other's is Flink's interval join: the same rows for an inner join
// of append-only inputs, keeping the time attributes.
func (d joins) planRegularJoin(ctx context.Context, j *ast.Join, ctes map[string]*cte, hints map[string]map[string]string, where *[]ast.Expr) (*rel, error) {
	if j.Natural {
		return nil, errorAt(j, "NATURAL JOIN is not supported in debug runs yet: name the columns with USING or ON")
	}
	left, err := d.planFrom(ctx, j.L, ctes, hints, nil)
	if err != nil {
		return nil, err
	}
	if u, ok := j.R.(*ast.Unnest); ok {
		return d.planUnnest(j, u, left)
	}
	right, err := d.planFrom(ctx, j.R, ctes, hints, nil)
	if err != nil {
		return nil, err
	}
	op := stream.NewJoin()
	typeName := "InnerJoin"
	switch j.Kind {
	case ast.JoinLeft:
		op.Outer[0], typeName = true, "LeftOuterJoin"
	case ast.JoinRight:
		op.Outer[1], typeName = true, "RightOuterJoin"
	case ast.JoinFull:
		op.Outer, typeName = [2]bool{true, true}, "FullOuterJoin"
	}
	cols := make(scope, 0, len(left.cols)+len(right.cols))
	for i, side := range []*rel{left, right} {
		for _, c := range side.cols {
			if op.Outer[1-i] {
				c.typ = c.typ.Nullable()
			}
			cols = append(cols, c)
		}
	}
	op.Width = [2]int{len(left.cols), len(right.cols)}
	// The ON clause (or USING): equalities between the sides are the key.
	var conds []ast.Expr
	if j.On != nil {
		conds = conjuncts(j.On)
	}
	for _, u := range j.Using {
		ref := &ast.ColumnRef{Span: u.Span, Parts: []*ast.Ident{u}}
		conds = append(conds, &ast.BinaryExpr{Span: u.Span, Op: "=", L: ref, R: ref})
	}
	var keyFns [2][]evalFn
	var rest []ast.Expr
	interval := false
	var winEq [4]bool // window_start and window_end equated between the sides
	for _, e := range conds {
		if l, r, ok := d.sides(e, left.cols, right.cols); ok {
			keyFns[0], keyFns[1] = append(keyFns[0], l), append(keyFns[1], r)
			if role := windowEquality(e, left.cols, right.cols); role != notWindow {
				winEq[role] = true
			}
			continue
		}
		if d.timeBound(e, left.cols, right.cols) {
			interval = true
		}
		rest = append(rest, e)
	}
	for i := range keyFns {
		fns := keyFns[i]
		if len(fns) == 0 {
			continue
		}
		op.Key[i] = func(row value.Row) (string, bool, error) {
			vals := make([]any, len(fns))
			for k, f := range fns {
				v, err := f(row)
				if err != nil || v == nil {
					return "", false, err
				}
				vals[k] = v
			}
			return value.Key(vals, nil), true, nil
		}
	}
	if len(rest) > 0 {
		c := d.compiler(cols)
		c.where = "ON"
		var cond evalFn
		for _, e := range rest {
			f, _, err := c.compile(e)
			if err != nil {
				return nil, err
			}
			cond = and(cond, f)
		}
		op.Cond = func(row value.Row) (bool, error) {
			v, err := cond(row)
			return v == true, err
		}
	}
	if winEq[winStart] && winEq[winEnd] && !left.updating && !right.updating {
		// ON l.window_start = r.window_start AND l.window_end = r.window_end:
		// a window join.
		if left.procWindows != right.procWindows {
			return nil, errorAt(j, "Currently, window join doesn't support different time attribute type of left and right inputs.")
		}
		wj := stream.NewWindowJoin()
		wj.Proc = left.procWindows
		wj.Outer, wj.Key, wj.Cond, wj.Width = op.Outer, op.Key, op.Cond, op.Width
		wj.End = [2]func(value.Row) (int64, bool){windowEndOf(left.cols, d.windowMillis(left)), windowEndOf(right.cols, d.windowMillis(right))}
		left.out.To(wj.Input(0))
		right.out.To(wj.Input(1))
		name := fmt.Sprintf("WindowJoin(joinType=[%s])", typeName)
		d.graph.Add(name, wj)
		return &rel{cols: cols, out: &wj.Out, producer: name, zonedWindows: left.zonedWindows, procWindows: left.procWindows}, nil
	}
	if interval && !left.updating && !right.updating {
		if lower, upper, ok := d.bounds(rest, left.cols, right.cols); ok {
			iv := stream.NewIntervalJoin()
			iv.Outer, iv.Key, iv.Cond, iv.Width = op.Outer, op.Key, op.Cond, op.Width
			iv.Lower, iv.Upper = lower, upper
			for i := range iv.Key {
				if iv.Key[i] == nil {
					iv.Key[i] = func(value.Row) (string, bool, error) { return "", true, nil }
				}
			}
			iv.Time = [2]func(value.Row) (int64, bool){rowtimeOf(left.cols), rowtimeOf(right.cols)}
			left.out.To(iv.Input(0))
			right.out.To(iv.Input(1))
			name := fmt.Sprintf("IntervalJoin(joinType=[%s], windowBounds=[leftLowerBound=%d, leftUpperBound=%d])", typeName, lower, upper)
			d.graph.Add(name, iv)
			return &rel{cols: cols, out: &iv.Out, producer: name}, nil
		}
	}
	left.out.To(op.Input(0))
	right.out.To(op.Input(1))
	name := fmt.Sprintf("Join(joinType=[%s])", typeName)
	for i := range cols {
		cols[i].time = plainTime // a regular join's output has no time attributes
	}
	d.graph.Add(name, op)
	updating := left.updating || right.updating || typeName != "InnerJoin"
	producer := name
	if !updating {
		producer = ""
	} else if typeName == "InnerJoin" {
		if left.updating {
			producer = left.producer
		} else {
			producer = right.producer
		}
	}
	return &rel{cols: cols, out: &op.Out, updating: updating, producer: producer}, nil
}

// sides recognizes `l = r` where one side reads only the left input and
// the other only the right: a join key, as closures over each side's row.
func (d joins) sides(e ast.Expr, left, right scope) (evalFn, evalFn, bool) {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != "=" {
		return nil, nil, false
	}
	try := func(x, y ast.Expr) (evalFn, evalFn, bool) {
		l, lt, err1 := d.compiler(left).compile(x)
		r, rt, err2 := d.compiler(right).compile(y)
		if err1 != nil || err2 != nil {
			return nil, nil, false
		}
		if !lt.Equal(rt) { // compare in a common type, as the planner casts
			ct, loc := value.Common(lt, rt), d.zone
			l, r = castFn(l, lt, ct, loc), castFn(r, rt, ct, loc)
		}
		return l, r, true
	}
	if l, r, ok := try(b.L, b.R); ok {
		return l, r, true
	}
	if l, r, ok := try(b.R, b.L); ok {
		return l, r, true
	}
	return nil, nil, false
}

// timeBound says whether a condition compares a rowtime of one side with
// one of the other: an interval join's bound.
func (d joins) timeBound(e ast.Expr, left, right scope) bool {
	var sides [2]bool
	ast.Inspect(e, func(n ast.Node) bool {
		ref, ok := n.(*ast.ColumnRef)
		if !ok {
			return true
		}
		for i, s := range []scope{left, right} {
			if k, fields, err := s.resolve(ref); err == nil && len(fields) == 0 && s[k].time == rowtime {
				sides[i] = true
			}
		}
		return true
	})
	if !sides[0] || !sides[1] {
		return false
	}
	switch x := e.(type) {
	case *ast.BetweenExpr:
		return true
	case *ast.BinaryExpr:
		return strings.Contains("< <= > >=", x.Op)
	}
	return false
}

// castFn is f's value cast from type from to type to.
func castFn(f evalFn, from, to value.Type, loc *time.Location) evalFn {
	if from.Equal(to) {
		return f
	}
	return func(row value.Row) (any, error) {
		v, err := f(row)
		if err != nil || v == nil {
			return v, err
		}
		return value.Cast(v, from, to, loc)
	}
}

// rowtimeOf reads the first rowtime column of a side, in epoch ms.
func rowtimeOf(cols scope) func(value.Row) (int64, bool) {
	at := -1
	for i, c := range cols {
		if c.time == rowtime && at < 0 {
			at = i
		}
	}
	return func(row value.Row) (int64, bool) {
		if at < 0 {
			return 0, false
		}
		return stream.Millis(row[at])
	}
}

// bounds reads an interval join's time bounds from its conditions: the
// range of left.rowtime - right.rowtime in milliseconds, both ends closed.
func (d joins) bounds(conds []ast.Expr, left, right scope) (int64, int64, bool) {
	const inf = int64(1) << 62
	lower, upper := -inf, inf
	// term reads `rowtime [± INTERVAL]` of one side.
	var term func(e ast.Expr) (int, int64, bool)
	term = func(e ast.Expr) (int, int64, bool) {
		switch x := e.(type) {
		case *ast.ParenExpr:
			return term(x.X)
		case *ast.ColumnRef:
			for side, s := range []scope{left, right} {
				if k, fields, err := s.resolve(x); err == nil && len(fields) == 0 && s[k].time == rowtime {
					return side, 0, true
				}
			}
		case *ast.BinaryExpr:
			if x.Op != "+" && x.Op != "-" {
				return 0, 0, false
			}
			side, off, ok := term(x.L)
			if !ok {
				return 0, 0, false
			}
			v, _, err := d.compiler(nil).constValue(x.R)
			dur, isDur := v.(time.Duration)
			if err != nil || !isDur {
				return 0, 0, false
			}
			if x.Op == "-" {
				return side, off - dur.Milliseconds(), true
			}
			return side, off + dur.Milliseconds(), true
		}
		return 0, 0, false
	}
	// add takes `a op b` between the two sides' times.
	add := func(a ast.Expr, op string, b ast.Expr) bool {
		sa, oa, ok1 := term(a)
		sb, ob, ok2 := term(b)
		if !ok1 || !ok2 || sa == sb {
			return false
		}
		// l + x op r + y, that is l - r op c.
		c := ob - oa
		if sa == 1 { // r + oa op l + ob: l - r (flipped op) oa - ob
			c = oa - ob
			op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
		}
		switch op {
		case ">=":
			lower = max(lower, c)
		case ">":
			lower = max(lower, c+1)
		case "<=":
			upper = min(upper, c)
		case "<":
			upper = min(upper, c-1)
		default:
			return false
		}
		return true
	}
	for _, e := range conds {
		switch x := e.(type) {
		case *ast.BetweenExpr:
			if !x.Not {
				add(x.X, ">=", x.Lo)
				add(x.X, "<=", x.Hi)
			}
		case *ast.BinaryExpr:
			add(x.L, x.Op, x.R)
		}
	}
	return lower, upper, lower > -inf && upper < inf
}

// windowEquality says which window column `l.x = r.y` equates between the
// sides (window_start or window_end of both), if any.
func windowEquality(e ast.Expr, left, right scope) winRole {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != "=" {
		return notWindow
	}
	role := func(x ast.Expr, s scope) winRole {
		ref, ok := x.(*ast.ColumnRef)
		if !ok {
			return notWindow
		}
		i, fields, err := s.resolve(ref)
		if err != nil || len(fields) > 0 {
			return notWindow
		}
		return s[i].win
	}
	for _, pair := range [][2]ast.Expr{{b.L, b.R}, {b.R, b.L}} {
		if l, r := role(pair[0], left), role(pair[1], right); l == r && (l == winStart || l == winEnd) {
			return l
		}
	}
	return notWindow
}

// windowEndOf reads a side's window_end, in epoch ms.
func windowEndOf(cols scope, millis func(any) (int64, bool)) func(value.Row) (int64, bool) {
	at := -1
	for i, c := range cols {
		if c.win == winEnd && at < 0 {
			at = i
		}
	}
	return func(row value.Row) (int64, bool) {
		if at < 0 {
			return 0, false
		}
		return millis(row[at])
	}
}
