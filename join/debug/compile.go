package debug

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/flinksql/format"
	"github.com/palink/palink/join/debug/value"
)

// The expression compiler: an expression is compiled once, against the
// columns in scope, into a closure over a row and its static type. compile
// hands each kind of node to its compiler (literals and columns here,
// operators in compile_ops.go, calls in functions.go).

// timeAttr says whether a column is a time attribute.
type timeAttr uint8

const (
	plainTime timeAttr = iota
	rowtime
	proctime
)

// col is a column in scope: of a table (by its alias or name) or a result.
type col struct {
	table string
	name  string
	typ   value.Type
	time  timeAttr
	// win says which of a window TVF's columns it is, if one.
	win winRole
}

// winRole is a window TVF's column: window_start, window_end or window_time.
type winRole uint8

const (
	notWindow winRole = iota
	winStart
	winEnd
	winTime
)

// scope is the columns an expression may read, in the order of a row's values.
type scope []col

// evalFn is a compiled expression: its value for one row.
type evalFn func(row value.Row) (any, error)

// compiler compiles expressions over a scope.
type compiler struct {
	cols scope
	rt   *runner
	// subst maps an expression (by its canonical text) to the column that
	// holds its value: the group keys and aggregates of an aggregation.
	subst map[string]int
	// aggs, if set, is told of each aggregate call met (the planner
	// collects them); nil refuses them.
	aggs func(*ast.FuncCall) (int, error)
	// where names the clause being compiled, for messages.
	where string
}

// errorAt names where in the job something went wrong: line:col.
func errorAt(n ast.Node, format string, args ...any) error {
	p := n.Range().Pos
	return fmt.Errorf("line %d:%d: %s", p.Line, p.Col, fmt.Sprintf(format, args...))
}

// exprKey is an expression's canonical text, by which GROUP BY keys and
// aggregates are matched in the SELECT list.
func exprKey(e ast.Expr) string { return strings.ToUpper(format.Expr(e)) }

func (s scope) resolve(ref *ast.ColumnRef) (int, []string, error) {
	// The longest prefix that names a column (qualified or not) wins; the
	// rest are ROW fields.
	parts := make([]string, len(ref.Parts))
	for i, p := range ref.Parts {
		parts[i] = p.Name
	}
	for split := 2; split >= 1; split-- {
		if len(parts) < split {
			continue
		}
		qual, name := "", parts[split-1]
		if split == 2 {
			qual = parts[0]
		}
		found := -1
		for i, c := range s {
			if !strings.EqualFold(c.name, name) || qual != "" && !strings.EqualFold(c.table, qual) {
				continue
			}
			if found >= 0 {
				return 0, nil, errorAt(ref, "Column '%s' is ambiguous", strings.Join(parts[:split], "."))
			}
			found = i
		}
		if found >= 0 {
			return found, parts[split:], nil
		}
	}
	return 0, nil, errorAt(ref, "Column '%s' not found in any table", ref.Key())
}

// compile turns an expression into a closure and its type.
func (c *compiler) compile(e ast.Expr) (evalFn, value.Type, error) {
	if c.subst != nil {
		if i, ok := c.subst[exprKey(e)]; ok {
			return func(row value.Row) (any, error) { return row[i], nil }, c.cols[i].typ, nil
		}
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return c.compile(x.X)
	case *ast.ColumnRef:
		return c.columnRef(x)
	case *ast.NumberLit:
		return number(x)
	case *ast.StringLit:
		return constant(x.Value), value.Type{Kind: value.Char, Precision: len([]rune(x.Value)), NotNull: true}, nil
	case *ast.BoolLit:
		return constant(x.Value), value.Type{Kind: value.Boolean, NotNull: true}, nil
	case *ast.NullLit:
		return constant(nil), value.TNull, nil
	case *ast.BinaryLit:
		return binaryLit(x)
	case *ast.TypedLit:
		return c.typedLit(x)
	case *ast.IntervalLit:
		return intervalLit(x)
	case *ast.UnaryExpr:
		return c.unary(x)
	case *ast.BinaryExpr:
		return c.binary(x)
	case *ast.IsExpr:
		return c.is(x)
	case *ast.IsDistinctExpr:
		return c.isDistinct(x)
	case *ast.InExpr:
		return c.in(x)
	case *ast.BetweenExpr:
		return c.between(x)
	case *ast.LikeExpr:
		return c.like(x)
	case *ast.CaseExpr:
		return c.caseExpr(x)
	case *ast.CastExpr:
		return c.cast(x)
	case *ast.FuncCall:
		return c.call(x)
	case *ast.TrimExpr:
		return c.trim(x)
	case *ast.SubstringExpr:
		args := []ast.Expr{x.X, x.From}
		if x.Length != nil {
			args = append(args, x.Length)
		}
		return c.callNamed(x, "SUBSTRING", args)
	case *ast.PositionExpr:
		args := []ast.Expr{x.Sub, x.X}
		if x.Start != nil {
			args = append(args, x.Start)
		}
		return c.callNamed(x, "POSITION", args)
	case *ast.OverlayExpr:
		args := []ast.Expr{x.X, x.Placing, x.From}
		if x.Length != nil {
			args = append(args, x.Length)
		}
		return c.callNamed(x, "OVERLAY", args)
	case *ast.ExtractExpr:
		return c.extract(x)
	case *ast.FloorCeilExpr:
		return c.floorCeilTo(x)
	case *ast.JSONCallExpr:
		if f, ok := aggCall(x); ok {
			return c.call(f)
		}
		return c.jsonCall(x)
	case *ast.RowExpr:
		return c.rowExpr(x)
	case *ast.ArrayExpr:
		return c.arrayExpr(x)
	case *ast.MapExpr:
		return c.mapExpr(x)
	case *ast.IndexExpr:
		return c.index(x)
	case *ast.FieldExpr:
		f, t, err := c.compile(x.X)
		if err != nil {
			return nil, t, err
		}
		return fieldAccess(x, f, t, []string{x.Field.Name})
	case *ast.SubqueryExpr, *ast.ExistsExpr, *ast.QuantifiedExpr:
		return nil, value.Type{}, errorAt(e, "subqueries are supported in debug runs as IN and EXISTS conditions of WHERE (joined on their correlation), and as scalar subqueries in WHERE or a SELECT list")
	case *ast.Star:
		return nil, value.Type{}, errorAt(e, "'*' is only allowed in a SELECT list or COUNT(*)")
	}
	return nil, value.Type{}, errorAt(e, "%s is not supported in debug runs", format.Expr(e))
}

// columnRef reads a column of the row, or a field of a ROW column.
func (c *compiler) columnRef(x *ast.ColumnRef) (evalFn, value.Type, error) {
	i, fields, err := c.cols.resolve(x)
	if err != nil {
		return nil, value.Type{}, err
	}
	f := func(row value.Row) (any, error) { return row[i], nil }
	if len(fields) == 0 {
		return f, c.cols[i].typ, nil
	}
	return fieldAccess(x, f, c.cols[i].typ, fields)
}

// fieldAccess reads nested ROW fields (r.qty, r.addr.city).
func fieldAccess(at ast.Node, f evalFn, t value.Type, fields []string) (evalFn, value.Type, error) {
	for _, name := range fields {
		if t.Kind != value.RowKind {
			return nil, t, errorAt(at, "'%s' is not a field: the value is %s, not a ROW", name, t)
		}
		idx := -1
		for j, fd := range t.Fields {
			if strings.EqualFold(fd.Name, name) {
				idx = j
			}
		}
		if idx < 0 {
			return nil, t, errorAt(at, "the ROW %s has no field '%s'", t, name)
		}
		prev := f
		f = func(row value.Row) (any, error) {
			v, err := prev(row)
			if err != nil || v == nil {
				return nil, err
			}
			r, ok := v.(value.Row)
			if !ok || idx >= len(r) {
				return nil, nil
			}
			return r[idx], nil
		}
		t = t.Fields[idx].Type.Nullable()
	}
	return f, t, nil
}

func constant(v any) evalFn { return func(value.Row) (any, error) { return v, nil } }

// isConstant says whether an expression reads no column (a literal, or
// functions of literals).
func isConstant(e ast.Expr) bool {
	constant := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ColumnRef, *ast.SubqueryExpr, *ast.ExistsExpr:
			constant = false
		case *ast.FuncCall:
			name := n.(*ast.FuncCall).FuncName()
			if nondeterministic[name] {
				constant = false
			}
		}
		return constant
	})
	return constant
}

var nondeterministic = map[string]bool{"PROCTIME": true, "NOW": true, "CURRENT_TIMESTAMP": true, "LOCALTIMESTAMP": true,
	"CURRENT_DATE": true, "CURRENT_TIME": true, "LOCALTIME": true, "RAND": true, "RAND_INTEGER": true, "UUID": true,
	"UNIX_TIMESTAMP": true, "CURRENT_ROW_TIMESTAMP": true}

// constValue evaluates an expression that reads no column.
func (c *compiler) constValue(e ast.Expr) (any, value.Type, error) {
	f, t, err := c.compile(e)
	if err != nil {
		return nil, t, err
	}
	v, err := f(nil)
	return v, t, err
}

// rowExpr is ROW(a, b) or (a, b).
func (c *compiler) rowExpr(x *ast.RowExpr) (evalFn, value.Type, error) {
	fs, ts, err := c.compileAll(x.Items)
	if err != nil {
		return nil, value.Type{}, err
	}
	t := value.Type{Kind: value.RowKind}
	for i, ft := range ts {
		t.Fields = append(t.Fields, value.Field{Name: "EXPR$" + strconv.Itoa(i), Type: ft})
	}
	return func(row value.Row) (any, error) {
		out := make(value.Row, len(fs))
		for i, f := range fs {
			v, err := f(row)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}, t, nil
}

// arrayExpr is ARRAY[a, b].
func (c *compiler) arrayExpr(x *ast.ArrayExpr) (evalFn, value.Type, error) {
	if x.Query != nil {
		return nil, value.Type{}, errorAt(x, "ARRAY(subquery) is not supported in debug runs")
	}
	fs, ts, err := c.compileAll(x.Items)
	if err != nil {
		return nil, value.Type{}, err
	}
	et := value.TNull
	for _, t := range ts {
		et = value.Common(et, t)
	}
	return func(row value.Row) (any, error) {
		out := make(value.Array, len(fs))
		for i, f := range fs {
			v, err := f(row)
			if err != nil {
				return nil, err
			}
			if out[i], err = value.Cast(v, ts[i], et, nil); err != nil {
				return nil, err
			}
		}
		return out, nil
	}, value.ArrayOf(et), nil
}

// mapExpr is MAP[k1, v1, …].
func (c *compiler) mapExpr(x *ast.MapExpr) (evalFn, value.Type, error) {
	if x.Query != nil || len(x.Items)%2 != 0 {
		return nil, value.Type{}, errorAt(x, "MAP needs keys and values in pairs")
	}
	fs, ts, err := c.compileAll(x.Items)
	if err != nil {
		return nil, value.Type{}, err
	}
	kt, vt := value.TNull, value.TNull
	for i, t := range ts {
		if i%2 == 0 {
			kt = value.Common(kt, t)
		} else {
			vt = value.Common(vt, t)
		}
	}
	return func(row value.Row) (any, error) {
		m := &value.Map{}
		for i := 0; i < len(fs); i += 2 {
			k, err := fs[i](row)
			if err != nil {
				return nil, err
			}
			v, err := fs[i+1](row)
			if err != nil {
				return nil, err
			}
			m.Put(k, v)
		}
		return m, nil
	}, value.MapOf(kt, vt), nil
}

// index is arr[i] (from 1) or map[key].
func (c *compiler) index(x *ast.IndexExpr) (evalFn, value.Type, error) {
	f, t, err := c.compile(x.X)
	if err != nil {
		return nil, t, err
	}
	g, _, err := c.compile(x.Index)
	if err != nil {
		return nil, t, err
	}
	switch t.Kind {
	case value.ArrayKind:
		return func(row value.Row) (any, error) {
			v, err := f(row)
			if err != nil || v == nil {
				return nil, err
			}
			i, err := g(row)
			if err != nil || i == nil {
				return nil, err
			}
			n, ok := i.(int64)
			a := v.(value.Array)
			if !ok || n < 1 || int(n) > len(a) {
				return nil, nil
			}
			return a[n-1], nil
		}, t.Elem.Nullable(), nil
	case value.MapKind:
		return func(row value.Row) (any, error) {
			v, err := f(row)
			if err != nil || v == nil {
				return nil, err
			}
			k, err := g(row)
			if err != nil || k == nil {
				return nil, err
			}
			out, _ := v.(*value.Map).Get(k)
			return out, nil
		}, t.Val.Nullable(), nil
	}
	return nil, t, errorAt(x, "cannot index a value of type %s", t)
}

func (c *compiler) compileAll(es []ast.Expr) ([]evalFn, []value.Type, error) {
	fs := make([]evalFn, len(es))
	ts := make([]value.Type, len(es))
	for i, e := range es {
		f, t, err := c.compile(e)
		if err != nil {
			return nil, nil, err
		}
		fs[i], ts[i] = f, t
	}
	return fs, ts, nil
}

// and is a AND b for conditions that filter rows: b runs only when a is
// TRUE. A nil a is TRUE.
func and(a, b evalFn) evalFn {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return func(row value.Row) (any, error) {
		v, err := a(row)
		if err != nil || v != true {
			return v, err
		}
		return b(row)
	}
}
