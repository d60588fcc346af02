package debug

import (
	"fmt"
	"strings"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// matchCompiler compiles DEFINE conditions and MEASURES over a (partial)
// match. Each pattern navigation in an expression (A.col, col, FIRST,
// LAST, an aggregate, MATCH_ROWTIME) becomes a value computed from
// the match's rows, and the expression is compiled over those values as
// over the columns of a row.
type matchCompiler struct {
	*runner
	in *rel
	// vars are the pattern variables and SUBSET names by name (lower
	// case); a subset's index is past the variables', its members in
	// subsets.
	vars    map[string]int
	nVars   int
	subsets [][]int
	timeCol int
}

// navigation is a value read from a match.
type navigation func(stream.MatchRows) (any, error)

// compile compiles e over a match.
func (mc *matchCompiler) compile(e ast.Expr) (func(stream.MatchRows) (any, error), value.Type, error) {
	var navs []navigation
	var cols scope
	subst := map[string]int{}
	var failed error
	add := func(n ast.Expr, nav navigation, t value.Type) {
		key := exprKey(n)
		if _, ok := subst[key]; ok {
			return
		}
		subst[key] = len(navs)
		navs = append(navs, nav)
		cols = append(cols, col{name: fmt.Sprintf("$m%d", len(cols)), typ: t})
	}
	ast.Inspect(e, func(n ast.Node) bool {
		if failed != nil {
			return false
		}
		switch x := n.(type) {
		case *ast.Query:
			failed = errorAt(x, "subqueries are not supported in MATCH_RECOGNIZE")
			return false
		case *ast.UnaryExpr:
			if x.Op == "FINAL" || x.Op == "RUNNING" {
				// ONE ROW PER MATCH: running and final values are the same.
				nav, t, err := mc.navigation(unwrapFinal(x))
				if err != nil {
					failed = err
					return false
				}
				add(x, nav, t)
				return false
			}
		case *ast.ColumnRef, *ast.FuncCall:
			if f, ok := x.(*ast.FuncCall); ok && !mc.navigates(f) {
				return true
			}
			nav, t, err := mc.navigation(x.(ast.Expr))
			if err != nil {
				failed = err
				return false
			}
			add(x.(ast.Expr), nav, t)
			return false
		}
		return true
	})
	if failed != nil {
		return nil, value.Type{}, failed
	}
	c := mc.compiler(cols)
	c.subst = subst
	f, t, err := c.compile(e)
	if err != nil {
		return nil, t, err
	}
	return func(mr stream.MatchRows) (any, error) {
		vals := make(value.Row, len(navs))
		for i, nav := range navs {
			v, err := nav(mr)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		return f(vals)
	}, t, nil
}

// navigates says whether a call reads the match rather than a value.
func (mc *matchCompiler) navigates(f *ast.FuncCall) bool {
	switch f.FuncName() {
	case "FIRST", "LAST", "PREV", "NEXT", "MATCH_ROWTIME", "MATCH_PROCTIME", "CLASSIFIER", "MATCH_NUMBER":
		return true
	}
	return isAggregate(f)
}

// variable is the one pattern variable the column references of e name
// (-1: none, the whole match).
func (mc *matchCompiler) variable(e ast.Expr) (int, error) {
	v, name := -1, ""
	var err error
	ast.Inspect(e, func(n ast.Node) bool {
		ref, ok := n.(*ast.ColumnRef)
		if !ok || err != nil {
			return err == nil
		}
		if len(ref.Parts) < 2 {
			return true
		}
		if i, ok := mc.vars[strings.ToLower(ref.Parts[0].Name)]; ok {
			if v >= 0 && i != v {
				err = errorAt(ref, "an expression of MATCH_RECOGNIZE may reference one pattern variable only, here %s and %s", name, ref.Parts[0].Name)
			}
			v, name = i, ref.Parts[0].Name
		}
		return true
	})
	return v, err
}

// rowFn compiles e over one input row, its pattern variable's name
// qualifying the input's columns.
func (mc *matchCompiler) rowFn(e ast.Expr, v int) (evalFn, value.Type, error) {
	cols := mc.in.cols
	if v >= 0 {
		cols = make(scope, len(mc.in.cols))
		for i, c := range mc.in.cols {
			c.table = mc.varName(v)
			cols[i] = c
		}
	}
	return mc.compiler(cols).compile(e)
}

func (mc *matchCompiler) varName(v int) string {
	for k, i := range mc.vars {
		if i == v {
			return k
		}
	}
	return ""
}

// rowsOf is a function giving the indexes of a match's rows mapped to v
// (a variable, a subset's variables, all for -1).
func (mc *matchCompiler) rowsOf(v int) func(stream.MatchRows) []int {
	in := func(x int) bool { return v < 0 || x == v }
	if v >= mc.nVars {
		members := map[int]bool{}
		for _, m := range mc.subsets[v-mc.nVars] {
			members[m] = true
		}
		in = func(x int) bool { return members[x] }
	}
	return func(mr stream.MatchRows) []int {
		var out []int
		for i, x := range mr.Vars {
			if in(x) {
				out = append(out, i)
			}
		}
		return out
	}
}

// navigation compiles a column reference, FIRST, LAST, PREV(x, 0), an
// aggregate or MATCH_ROWTIME into a value read from a match.
func (mc *matchCompiler) navigation(e ast.Expr) (navigation, value.Type, error) {
	switch x := e.(type) {
	case *ast.ColumnRef:
		return mc.offset(x, false, 0)
	case *ast.FuncCall:
		name := x.FuncName()
		switch name {
		case "FIRST", "LAST":
			if len(x.Args) < 1 || len(x.Args) > 2 {
				return nil, value.Type{}, errorAt(x, "%s takes a column and an offset", name)
			}
			n, err := mc.offsetArg(x)
			if err != nil {
				return nil, value.Type{}, err
			}
			return mc.offset(x.Args[0], name == "FIRST", n)
		case "PREV", "NEXT":
			// Flink's CEP navigates the rows of the match only: PREV and NEXT
			// with an offset (PREV(x) is PREV(x, 1)) are refused.
			if len(x.Args) < 1 || len(x.Args) > 2 {
				return nil, value.Type{}, errorAt(x, "%s takes a column and an offset", name)
			}
			n, err := mc.offsetArg(x)
			if err != nil {
				return nil, value.Type{}, err
			}
			if n != 0 {
				return nil, value.Type{}, errorAt(x, "Flink does not support physical offsets within partition.")
			}
			switch a := x.Args[0].(type) {
			case *ast.ColumnRef, *ast.FuncCall:
				return mc.navigation(a)
			}
			return mc.offset(x.Args[0], false, 0)
		case "MATCH_ROWTIME":
			if mc.in.cols[mc.timeCol].time != rowtime {
				return nil, value.Type{}, errorAt(x, "MATCH_ROWTIME() needs MATCH_RECOGNIZE ordered by a rowtime attribute")
			}
			tc := mc.timeCol
			t := mc.in.cols[tc].typ
			return func(mr stream.MatchRows) (any, error) { return mr.Rows[len(mr.Rows)-1][tc], nil }, t, nil
		case "MATCH_PROCTIME":
			rt := mc.runner
			return func(stream.MatchRows) (any, error) { return rt.clock(), nil }, tLTZ3, nil
		case "CLASSIFIER", "MATCH_NUMBER":
			return nil, value.Type{}, errorAt(x, "%s() is not supported by Flink's MATCH_RECOGNIZE", name)
		}
		return mc.aggregate(x)
	}
	return nil, value.Type{}, errorAt(e, "this is not a pattern navigation")
}

func (mc *matchCompiler) offsetArg(x *ast.FuncCall) (int, error) {
	if len(x.Args) < 2 {
		if x.FuncName() == "PREV" || x.FuncName() == "NEXT" {
			return 1, nil
		}
		return 0, nil
	}
	v, _, err := mc.compiler(nil).constValue(x.Args[1])
	if err != nil {
		return 0, err
	}
	n, ok := v.(int64)
	if !ok || n < 0 {
		return 0, errorAt(x.Args[1], "the offset of %s must be a whole number, 0 or more", x.FuncName())
	}
	return int(n), nil
}

// offset is e on the n-th row mapped to its variable, from the first or
// from the last; NULL when there is no such row.
func (mc *matchCompiler) offset(e ast.Expr, first bool, n int) (navigation, value.Type, error) {
	v, err := mc.variable(e)
	if err != nil {
		return nil, value.Type{}, err
	}
	f, t, err := mc.rowFn(e, v)
	if err != nil {
		return nil, t, err
	}
	rowsOf := mc.rowsOf(v)
	return func(mr stream.MatchRows) (any, error) {
		idx := rowsOf(mr)
		i := len(idx) - 1 - n
		if first {
			i = n
		}
		if i < 0 || i >= len(idx) {
			return nil, nil
		}
		return f(mr.Rows[idx[i]])
	}, t.Nullable(), nil
}

// aggregate is an aggregate over the rows mapped to one variable (or all).
func (mc *matchCompiler) aggregate(x *ast.FuncCall) (navigation, value.Type, error) {
	name := x.FuncName()
	if x.Distinct {
		return nil, value.Type{}, errorAt(x, "DISTINCT aggregations are not supported in MATCH_RECOGNIZE.")
	}
	if x.Filter != nil {
		return nil, value.Type{}, errorAt(x, "FILTER is not supported in MATCH_RECOGNIZE")
	}
	switch name {
	case "COUNT", "SUM", "SUM0", "AVG", "MIN", "MAX", "FIRST_VALUE", "LAST_VALUE", "LISTAGG":
	default:
		return nil, value.Type{}, errorAt(x, "aggregate function %s is not supported in MATCH_RECOGNIZE in debug runs yet", name)
	}
	spec := stream.AggSpec{Func: name, Arg: 0, Filter: -1, Sep: ","}
	var f evalFn
	v := -1
	star := len(x.Args) == 0
	if len(x.Args) == 1 {
		_, star = x.Args[0].(*ast.Star)
	}
	switch {
	case star && name == "COUNT":
		spec.In = value.TBigInt
	case len(x.Args) != 1:
		return nil, value.Type{}, errorAt(x, "%s takes one argument in MATCH_RECOGNIZE", name)
	default:
		var err error
		if v, err = mc.variable(x.Args[0]); err != nil {
			return nil, value.Type{}, err
		}
		if f, spec.In, err = mc.rowFn(x.Args[0], v); err != nil {
			return nil, value.Type{}, err
		}
	}
	out, err := stream.AggType(name, spec.In)
	if err != nil {
		return nil, value.Type{}, errorAt(x, "%v", err)
	}
	spec.Out = out
	rowsOf := mc.rowsOf(v)
	return func(mr stream.MatchRows) (any, error) {
		idx := rowsOf(mr)
		vals := make([]any, len(idx))
		for i, j := range idx {
			vals[i] = true
			if f != nil {
				val, err := f(mr.Rows[j])
				if err != nil {
					return nil, err
				}
				vals[i] = val
			}
		}
		return stream.Fold(spec, vals)
	}, out, nil
}
