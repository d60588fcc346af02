package debug

import (
	"fmt"
	"strconv"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/value"
)

// The built-in scalar functions: a table of their arities, result types
// and evaluations (functions_*.go), and the compiler of a call.

// function is a built-in scalar function.
type function struct {
	min, max int  // arguments; max -1: any number
	nulls    bool // sees NULL arguments (else NULL in gives NULL out)
	// typ is the result type for the argument types.
	typ  func(args []value.Type) value.Type
	eval func(x *fnCtx, a []any) (any, error)
}

// fnCtx is what a function's evaluation may read besides its arguments.
type fnCtx struct {
	rt    *runner
	types []value.Type // of the arguments
	out   value.Type
}

func fixed(t value.Type) func([]value.Type) value.Type {
	return func([]value.Type) value.Type { return t }
}

// argType is the type of argument i.
func argType(i int) func([]value.Type) value.Type {
	return func(ts []value.Type) value.Type {
		if i < len(ts) {
			return ts[i].Nullable()
		}
		return value.TNull
	}
}

// commonType is the common type of the arguments from i on.
func commonType(from int) func([]value.Type) value.Type {
	return func(ts []value.Type) value.Type {
		t := value.TNull
		for _, a := range ts[min(from, len(ts)):] {
			t = value.Common(t, a)
		}
		return t
	}
}

// functions is filled by the functions_*.go files.
var functions = map[string]function{}

func register(fs map[string]function) {
	for k, v := range fs {
		functions[k] = v
	}
}

// aggregateNames are the aggregate functions: a call of one is an
// aggregation, planned by the aggregation planner, not compiled here.
var aggregateNames = map[string]bool{"COUNT": true, "SUM": true, "SUM0": true, "AVG": true, "MIN": true, "MAX": true,
	"LISTAGG": true, "COLLECT": true, "FIRST_VALUE": true, "LAST_VALUE": true, "STDDEV_POP": true, "STDDEV_SAMP": true,
	"STDDEV": true, "VAR_POP": true, "VAR_SAMP": true, "VARIANCE": true, "ARRAY_AGG": true, "JSON_OBJECTAGG": true,
	"JSON_ARRAYAGG": true, "BOOL_AND": true, "BOOL_OR": true}

// windowFunctions only make sense with OVER.
var windowFunctions = map[string]bool{"ROW_NUMBER": true, "RANK": true, "DENSE_RANK": true, "LEAD": true, "LAG": true,
	"NTILE": true, "PERCENT_RANK": true, "CUME_DIST": true}

func (c *compiler) call(x *ast.FuncCall) (evalFn, value.Type, error) {
	name := x.FuncName()
	switch {
	case x.Over != nil || x.OverRef != nil:
		return nil, value.Type{}, errorAt(x, "%s OVER (…) is only allowed in a SELECT list", name)
	case aggregateNames[name]:
		if c.aggs == nil {
			return nil, value.Type{}, errorAt(x, "Aggregate function %s is not allowed in %s", name, c.whereOr("this clause"))
		}
		i, err := c.aggs(x)
		if err != nil {
			return nil, value.Type{}, err
		}
		return func(row value.Row) (any, error) { return row[i], nil }, c.cols[i].typ, nil
	case windowFunctions[name]:
		return nil, value.Type{}, errorAt(x, "%s needs an OVER clause", name)
	case x.Filter != nil || x.Distinct:
		return nil, value.Type{}, errorAt(x, "FILTER and DISTINCT are for aggregate functions, not %s", name)
	}
	switch name {
	case "TIMESTAMPADD", "TIMESTAMPDIFF":
		return c.timestampUnitCall(x, name)
	}
	return c.callNamed(x, name, x.Args)
}

func (c *compiler) whereOr(def string) string {
	if c.where != "" {
		return c.where
	}
	return def
}

func (c *compiler) callNamed(at ast.Node, name string, argExprs []ast.Expr) (evalFn, value.Type, error) {
	fn, ok := functions[name]
	if !ok {
		if aggregateNames[name] {
			return nil, value.Type{}, errorAt(at, "Aggregate function %s is not allowed here", name)
		}
		return nil, value.Type{}, errorAt(at, "No match found for function signature %s(…): debug runs have Flink's built-in functions, not user-defined ones", name)
	}
	if len(argExprs) < fn.min || fn.max >= 0 && len(argExprs) > fn.max {
		return nil, value.Type{}, errorAt(at, "Invalid number of arguments to function '%s'. Was expecting %s arguments", name, arity(fn.min, fn.max))
	}
	args, types, err := c.compileAll(argExprs)
	if err != nil {
		return nil, value.Type{}, err
	}
	t := fn.typ(types)
	ctx := &fnCtx{rt: c.rt, types: types, out: t}
	return func(row value.Row) (any, error) {
		vals := make([]any, len(args))
		for i, a := range args {
			v, err := a(row)
			if err != nil {
				return nil, err
			}
			if v == nil && !fn.nulls {
				return nil, nil // NULL in, NULL out
			}
			vals[i] = v
		}
		v, err := fn.eval(ctx, vals)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return v, nil
	}, t, nil
}

func arity(lo, hi int) string {
	switch {
	case hi < 0:
		return fmt.Sprintf("at least %d", lo)
	case lo == hi:
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

// str is a string argument (CHAR, VARCHAR) or any value as a STRING.
func (x *fnCtx) str(a []any, i int) string {
	if s, ok := a[i].(string); ok {
		return s
	}
	t := value.Type{Kind: value.Raw}
	if i < len(x.types) {
		t = x.types[i]
	}
	return value.String(a[i], t, x.rt.zone)
}

// toInt is an integer argument.
func toInt(v any) (int64, error) {
	switch n := v.(type) {
	case int64:
		return n, nil
	case float64:
		return int64(n), nil
	}
	r, err := value.ToRat(v)
	if err != nil {
		return 0, err
	}
	f, _ := r.Float64()
	return int64(f), nil
}
