package debug

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/join"
)

// The expression evaluator of debug runs. Expressions are compiled once
// against the columns in scope into closures over a row. Values inside are
// those of Row, except DECIMAL, which is a *big.Rat while computed (exact,
// as Flink's) and its canonical string again in the rows a run emits.

// field is a column in scope: of a table (by its alias or name) or a result.
type field struct {
	table string
	name  string
	typ   join.Type
}

type scope []field

// evalEnv is what an evaluation may read besides the row.
type evalEnv struct {
	now time.Time // PROCTIME() and CURRENT_TIMESTAMP of this row
}

type evalFn func(env *evalEnv, row join.Row) (any, error)

// compileError names where in the job an expression failed to compile.
func compileError(e flinksql.Node, format string, args ...any) error {
	p := e.Range().Pos
	return fmt.Errorf("line %d:%d: %s", p.Line, p.Col, fmt.Sprintf(format, args...))
}

func (s scope) resolve(ref *flinksql.ColumnRef) (int, join.Type, error) {
	name := ref.Name()
	qual := ""
	if len(ref.Parts) > 1 {
		qual = ref.Parts[len(ref.Parts)-2].Name
	}
	found := -1
	for i, f := range s {
		if !strings.EqualFold(f.name, name) || qual != "" && !strings.EqualFold(f.table, qual) {
			continue
		}
		if found >= 0 {
			return 0, join.Type{}, compileError(ref, "column %s is ambiguous: qualify it with its table", ref.Key())
		}
		found = i
	}
	if found < 0 {
		return 0, join.Type{}, compileError(ref, "unknown column %s", ref.Key())
	}
	return found, s[found].typ, nil
}

// compile turns an expression into a closure and its static type (KindAny
// when it depends on the values).
func (s scope) compile(e flinksql.Expr) (evalFn, join.Type, error) {
	switch x := e.(type) {
	case *flinksql.ParenExpr:
		return s.compile(x.X)
	case *flinksql.ColumnRef:
		i, t, err := s.resolve(x)
		if err != nil {
			return nil, t, err
		}
		return func(_ *evalEnv, row join.Row) (any, error) { return internal(row[i], t), nil }, t, nil
	case *flinksql.NumberLit:
		switch x.Kind {
		case flinksql.NumInteger:
			n, err := strconv.ParseInt(x.Text, 10, 64)
			if err != nil {
				return nil, join.Type{}, compileError(x, "integer %s: %v", x.Text, err)
			}
			return constant(n), join.Type{Kind: join.KindInt}, nil
		case flinksql.NumDecimal:
			r, ok := new(big.Rat).SetString(x.Text)
			if !ok {
				return nil, join.Type{}, compileError(x, "bad number %s", x.Text)
			}
			scale := 0
			if i := strings.IndexByte(x.Text, '.'); i >= 0 {
				scale = len(x.Text) - i - 1
			}
			return constant(r), join.Type{Kind: join.KindDecimal, Scale: scale}, nil
		default:
			f, err := strconv.ParseFloat(x.Text, 64)
			if err != nil {
				return nil, join.Type{}, compileError(x, "bad number %s", x.Text)
			}
			return constant(f), join.Type{Kind: join.KindFloat}, nil
		}
	case *flinksql.StringLit:
		return constant(x.Value), join.Type{Kind: join.KindString}, nil
	case *flinksql.BoolLit:
		return constant(x.Value), join.Type{Kind: join.KindBool}, nil
	case *flinksql.NullLit:
		return constant(nil), join.Type{}, nil
	case *flinksql.TypedLit:
		t, err := join.ParseType(x.Type)
		if err != nil {
			return nil, t, compileError(x, "%v", err)
		}
		v, err := castValue(x.Value.Value, t)
		if err != nil {
			return nil, t, compileError(x, "%s literal: %v", x.Type, err)
		}
		return constant(v), t, nil
	case *flinksql.UnaryExpr:
		return s.unary(x)
	case *flinksql.BinaryExpr:
		return s.binary(x)
	case *flinksql.IsExpr:
		f, _, err := s.compile(x.X)
		if err != nil {
			return nil, join.Type{}, err
		}
		return func(env *evalEnv, row join.Row) (any, error) {
			v, err := f(env, row)
			if err != nil {
				return nil, err
			}
			var r bool
			switch x.What {
			case "NULL", "UNKNOWN":
				r = v == nil
			case "TRUE":
				r = v == true
			case "FALSE":
				r = v == false
			default:
				return nil, compileError(x, "IS %s is not supported in debug runs", x.What)
			}
			return r != x.Not, nil
		}, join.Type{Kind: join.KindBool}, nil
	case *flinksql.IsDistinctExpr:
		l, _, err := s.compile(x.L)
		if err != nil {
			return nil, join.Type{}, err
		}
		r, _, err := s.compile(x.R)
		if err != nil {
			return nil, join.Type{}, err
		}
		return func(env *evalEnv, row join.Row) (any, error) {
			a, b, err := both(env, row, l, r)
			if err != nil {
				return nil, err
			}
			var distinct bool
			switch {
			case a == nil || b == nil:
				distinct = (a == nil) != (b == nil)
			default:
				c, err := compare(a, b)
				if err != nil {
					return nil, compileError(x, "%v", err)
				}
				distinct = c != 0
			}
			return distinct != x.Not, nil
		}, join.Type{Kind: join.KindBool}, nil
	case *flinksql.InExpr:
		if x.Query != nil {
			return nil, join.Type{}, compileError(x, "IN (subquery) is not supported in debug runs")
		}
		f, _, err := s.compile(x.X)
		if err != nil {
			return nil, join.Type{}, err
		}
		list, err := s.compileAll(x.List)
		if err != nil {
			return nil, join.Type{}, err
		}
		return func(env *evalEnv, row join.Row) (any, error) {
			v, err := f(env, row)
			if err != nil || v == nil {
				return nil, err
			}
			sawNull := false
			for _, g := range list {
				w, err := g(env, row)
				if err != nil {
					return nil, err
				}
				if w == nil {
					sawNull = true
					continue
				}
				if c, err := compare(v, w); err != nil {
					return nil, compileError(x, "%v", err)
				} else if c == 0 {
					return !x.Not, nil
				}
			}
			if sawNull {
				return nil, nil
			}
			return x.Not, nil
		}, join.Type{Kind: join.KindBool}, nil
	case *flinksql.BetweenExpr:
		f, _, err := s.compile(x.X)
		if err != nil {
			return nil, join.Type{}, err
		}
		lo, _, err := s.compile(x.Lo)
		if err != nil {
			return nil, join.Type{}, err
		}
		hi, _, err := s.compile(x.Hi)
		if err != nil {
			return nil, join.Type{}, err
		}
		return func(env *evalEnv, row join.Row) (any, error) {
			v, err := f(env, row)
			if err != nil || v == nil {
				return nil, err
			}
			a, b, err := both(env, row, lo, hi)
			if err != nil || a == nil || b == nil {
				return nil, err
			}
			if x.Mode == "SYMMETRIC" {
				if c, _ := compare(a, b); c > 0 {
					a, b = b, a
				}
			}
			c1, err := compare(v, a)
			if err != nil {
				return nil, compileError(x, "%v", err)
			}
			c2, err := compare(v, b)
			if err != nil {
				return nil, compileError(x, "%v", err)
			}
			return (c1 >= 0 && c2 <= 0) != x.Not, nil
		}, join.Type{Kind: join.KindBool}, nil
	case *flinksql.LikeExpr:
		return s.like(x)
	case *flinksql.CaseExpr:
		return s.caseExpr(x)
	case *flinksql.CastExpr:
		f, _, err := s.compile(x.X)
		if err != nil {
			return nil, join.Type{}, err
		}
		t, err := join.ParseType(x.Type.String())
		if err != nil {
			return nil, t, compileError(x, "%v", err)
		}
		return func(env *evalEnv, row join.Row) (any, error) {
			v, err := f(env, row)
			if err != nil || v == nil {
				return nil, err
			}
			c, err := castValue(v, t)
			if err != nil {
				if x.Try {
					return nil, nil
				}
				return nil, fmt.Errorf("CAST(%v AS %s): %w", v, x.Type.String(), err)
			}
			return c, nil
		}, t, nil
	case *flinksql.FuncCall:
		return s.call(x)
	case *flinksql.TrimExpr:
		f, _, err := s.compile(x.X)
		if err != nil {
			return nil, join.Type{}, err
		}
		chars := evalFn(constant(" "))
		if x.Chars != nil {
			if chars, _, err = s.compile(x.Chars); err != nil {
				return nil, join.Type{}, err
			}
		}
		return func(env *evalEnv, row join.Row) (any, error) {
			v, c, err := both(env, row, f, chars)
			if err != nil || v == nil || c == nil {
				return nil, err
			}
			str, cut := fmt.Sprint(v), fmt.Sprint(c)
			switch x.Side {
			case "LEADING":
				return strings.TrimLeft(str, cut), nil
			case "TRAILING":
				return strings.TrimRight(str, cut), nil
			}
			return strings.Trim(str, cut), nil
		}, join.Type{Kind: join.KindString}, nil
	case *flinksql.SubstringExpr:
		args := []flinksql.Expr{x.X, x.From}
		if x.Length != nil {
			args = append(args, x.Length)
		}
		return s.callNamed(x, "SUBSTRING", args)
	case *flinksql.PositionExpr:
		return s.callNamed(x, "POSITION", []flinksql.Expr{x.Sub, x.X})
	case *flinksql.ExtractExpr:
		f, _, err := s.compile(x.X)
		if err != nil {
			return nil, join.Type{}, err
		}
		return func(env *evalEnv, row join.Row) (any, error) {
			v, err := f(env, row)
			if err != nil || v == nil {
				return nil, err
			}
			t, ok := v.(time.Time)
			if !ok {
				return nil, fmt.Errorf("EXTRACT from %T", v)
			}
			return extract(x.Unit, t)
		}, join.Type{Kind: join.KindInt}, nil
	}
	return nil, join.Type{}, compileError(e, "%s is not supported in debug runs", flinksql.FormatExpr(e))
}

func (s scope) compileAll(es []flinksql.Expr) ([]evalFn, error) {
	out := make([]evalFn, len(es))
	for i, e := range es {
		f, _, err := s.compile(e)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

func constant(v any) evalFn { return func(*evalEnv, join.Row) (any, error) { return v, nil } }

func both(env *evalEnv, row join.Row, f, g evalFn) (any, any, error) {
	a, err := f(env, row)
	if err != nil {
		return nil, nil, err
	}
	b, err := g(env, row)
	return a, b, err
}

// internal is a row value as the evaluator computes with it.
func internal(v any, t join.Type) any {
	if t.Kind == join.KindDecimal {
		if s, ok := v.(string); ok {
			if r, ok := new(big.Rat).SetString(s); ok {
				return r
			}
		}
	}
	return v
}

func (s scope) unary(x *flinksql.UnaryExpr) (evalFn, join.Type, error) {
	f, t, err := s.compile(x.X)
	if err != nil {
		return nil, t, err
	}
	switch x.Op {
	case "NOT":
		return func(env *evalEnv, row join.Row) (any, error) {
			v, err := f(env, row)
			if err != nil || v == nil {
				return nil, err
			}
			b, ok := v.(bool)
			if !ok {
				return nil, compileError(x, "NOT of %T", v)
			}
			return !b, nil
		}, join.Type{Kind: join.KindBool}, nil
	case "+":
		return f, t, nil
	case "-":
		return func(env *evalEnv, row join.Row) (any, error) {
			v, err := f(env, row)
			if err != nil || v == nil {
				return nil, err
			}
			return arith("-", int64(0), v)
		}, t, nil
	}
	return nil, t, compileError(x, "%s is not supported in debug runs", x.Op)
}

func (s scope) binary(x *flinksql.BinaryExpr) (evalFn, join.Type, error) {
	l, lt, err := s.compile(x.L)
	if err != nil {
		return nil, lt, err
	}
	r, rt, err := s.compile(x.R)
	if err != nil {
		return nil, rt, err
	}
	switch x.Op {
	case "AND", "OR":
		and := x.Op == "AND"
		return func(env *evalEnv, row join.Row) (any, error) {
			a, err := l(env, row)
			if err != nil {
				return nil, err
			}
			if a == !and { // FALSE AND …, TRUE OR …
				return a, nil
			}
			b, err := r(env, row)
			if err != nil {
				return nil, err
			}
			if b == !and {
				return b, nil
			}
			if a == nil || b == nil {
				return nil, nil
			}
			if _, ok := a.(bool); !ok {
				return nil, compileError(x, "%s of %T", x.Op, a)
			}
			return and, nil
		}, join.Type{Kind: join.KindBool}, nil
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		return func(env *evalEnv, row join.Row) (any, error) {
			a, b, err := both(env, row, l, r)
			if err != nil || a == nil || b == nil {
				return nil, err
			}
			c, err := compare(a, b)
			if err != nil {
				return nil, compileError(x, "%v", err)
			}
			switch x.Op {
			case "=":
				return c == 0, nil
			case "<>", "!=":
				return c != 0, nil
			case "<":
				return c < 0, nil
			case "<=":
				return c <= 0, nil
			case ">":
				return c > 0, nil
			}
			return c >= 0, nil
		}, join.Type{Kind: join.KindBool}, nil
	case "||":
		return func(env *evalEnv, row join.Row) (any, error) {
			a, b, err := both(env, row, l, r)
			if err != nil || a == nil || b == nil {
				return nil, err
			}
			return str(a) + str(b), nil
		}, join.Type{Kind: join.KindString}, nil
	case "+", "-", "*", "/", "%":
		t := arithType(x.Op, lt, rt)
		return func(env *evalEnv, row join.Row) (any, error) {
			a, b, err := both(env, row, l, r)
			if err != nil || a == nil || b == nil {
				return nil, err
			}
			v, err := arith(x.Op, a, b)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", flinksql.FormatExpr(x), err)
			}
			return v, nil
		}, t, nil
	}
	return nil, join.Type{}, compileError(x, "operator %s is not supported in debug runs", x.Op)
}

// arithType is the static type of an arithmetic result, Flink's rules
// simplified: the wider operand, decimal scales added for *.
func arithType(op string, a, b join.Type) join.Type {
	switch {
	case a.Kind == join.KindFloat || b.Kind == join.KindFloat:
		return join.Type{Kind: join.KindFloat}
	case a.Kind == join.KindDecimal || b.Kind == join.KindDecimal:
		switch op {
		case "*":
			return join.Type{Kind: join.KindDecimal, Scale: a.Scale + b.Scale}
		case "/":
			return join.Type{Kind: join.KindDecimal, Scale: max(6, a.Scale)}
		}
		return join.Type{Kind: join.KindDecimal, Scale: max(a.Scale, b.Scale)}
	case a.Kind == join.KindInt && b.Kind == join.KindInt:
		return join.Type{Kind: join.KindInt}
	}
	return join.Type{}
}

func arith(op string, a, b any) (any, error) {
	if ai, ok := a.(int64); ok {
		if bi, ok := b.(int64); ok {
			switch op {
			case "+":
				return ai + bi, nil
			case "-":
				return ai - bi, nil
			case "*":
				return ai * bi, nil
			case "/", "%":
				if bi == 0 {
					return nil, errors.New("division by zero")
				}
				if op == "/" {
					return ai / bi, nil
				}
				return ai % bi, nil
			}
		}
	}
	_, af := a.(float64)
	_, bf := b.(float64)
	if af || bf {
		x, err1 := toFloat(a)
		y, err2 := toFloat(b)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		switch op {
		case "+":
			return x + y, nil
		case "-":
			return x - y, nil
		case "*":
			return x * y, nil
		case "/":
			return x / y, nil
		case "%":
			return math.Mod(x, y), nil
		}
	}
	x, err1 := toRat(a)
	y, err2 := toRat(b)
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	z := new(big.Rat)
	switch op {
	case "+":
		return z.Add(x, y), nil
	case "-":
		return z.Sub(x, y), nil
	case "*":
		return z.Mul(x, y), nil
	case "/":
		if y.Sign() == 0 {
			return nil, errors.New("division by zero")
		}
		return z.Quo(x, y), nil
	case "%":
		if y.Sign() == 0 {
			return nil, errors.New("division by zero")
		}
		q := new(big.Int).Quo(new(big.Int).Mul(x.Num(), y.Denom()), new(big.Int).Mul(x.Denom(), y.Num()))
		return z.Sub(x, new(big.Rat).Mul(y, new(big.Rat).SetInt(q))), nil
	}
	return nil, fmt.Errorf("operator %s", op)
}

func toFloat(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case int64:
		return float64(x), nil
	case *big.Rat:
		f, _ := x.Float64()
		return f, nil
	}
	return 0, fmt.Errorf("%T %v is not a number", v, v)
}

func toRat(v any) (*big.Rat, error) {
	switch x := v.(type) {
	case *big.Rat:
		return x, nil
	case int64:
		return new(big.Rat).SetInt64(x), nil
	case float64:
		r := new(big.Rat)
		if r.SetFloat64(x) == nil {
			return nil, fmt.Errorf("%v is not a finite number", x)
		}
		return r, nil
	case string:
		if r, ok := new(big.Rat).SetString(strings.TrimSpace(x)); ok {
			return r, nil
		}
	}
	return nil, fmt.Errorf("%T %v is not a number", v, v)
}

// compare orders two non-NULL values of comparable types; numbers of any
// kind compare by value, and a string compared to a number or time is read
// as one (Flink casts implicitly there).
func compare(a, b any) (int, error) {
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), nil
		}
		switch b.(type) {
		case int64, float64, *big.Rat:
			r, err := toRat(x)
			if err != nil {
				return 0, err
			}
			return compare(r, b)
		case time.Time:
			t, err := join.ParseTime(x)
			if err != nil {
				return 0, err
			}
			return compare(t, b)
		}
	case bool:
		if y, ok := b.(bool); ok {
			switch {
			case x == y:
				return 0, nil
			case !x:
				return -1, nil
			}
			return 1, nil
		}
	case time.Time:
		switch y := b.(type) {
		case time.Time:
			return x.Compare(y), nil
		case string:
			c, err := compare(b, a)
			return -c, err
		}
	case int64, float64, *big.Rat:
		if _, ok := b.(string); ok {
			c, err := compare(b, a)
			return -c, err
		}
		if ai, ok := a.(int64); ok {
			if bi, ok := b.(int64); ok {
				return cmpInt(ai, bi), nil
			}
		}
		_, af := a.(float64)
		_, bf := b.(float64)
		if af || bf {
			fa, err1 := toFloat(a)
			fb, err2 := toFloat(b)
			if err := errors.Join(err1, err2); err != nil {
				return 0, err
			}
			switch {
			case fa < fb:
				return -1, nil
			case fa > fb:
				return 1, nil
			}
			return 0, nil
		}
		ra, err1 := toRat(a)
		rb, err2 := toRat(b)
		if err := errors.Join(err1, err2); err != nil {
			return 0, err
		}
		return ra.Cmp(rb), nil
	case []byte:
		if y, ok := b.([]byte); ok {
			return strings.Compare(string(x), string(y)), nil
		}
	}
	return 0, fmt.Errorf("cannot compare %T with %T", a, b)
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// str is a value as a STRING, as CAST(v AS STRING) writes it.
func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case *big.Rat:
		return ratString(x)
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return x.Format("2006-01-02")
		}
		return x.Format("2006-01-02 15:04:05.999999999")
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []byte:
		return string(x)
	case bool:
		if x {
			return "TRUE"
		}
		return "FALSE"
	}
	return fmt.Sprint(v)
}

// ratString writes a decimal with as many digits as it has.
func ratString(r *big.Rat) string {
	for scale := 0; scale <= 18; scale++ {
		s := r.FloatString(scale)
		if back, ok := new(big.Rat).SetString(s); ok && back.Cmp(r) == 0 {
			return s
		}
	}
	return r.FloatString(18)
}

// castValue is CAST(v AS t).
func castValue(v any, t join.Type) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.Kind {
	case join.KindDecimal:
		r, err := toRat(v)
		if err != nil {
			return nil, err
		}
		s := r.FloatString(t.Scale) // rounds half away from zero, as Flink
		r, _ = new(big.Rat).SetString(s)
		return r, nil
	case join.KindString:
		return str(v), nil
	case join.KindInt:
		switch x := v.(type) {
		case float64:
			return int64(x), nil // Flink truncates
		case *big.Rat:
			return new(big.Int).Quo(x.Num(), x.Denom()).Int64(), nil
		case bool:
			return join.Canonical(x, t)
		case string:
			return strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		}
	case join.KindFloat:
		if r, ok := v.(*big.Rat); ok {
			f, _ := r.Float64()
			return f, nil
		}
	case join.KindBool:
		switch x := v.(type) {
		case string:
			switch strings.ToLower(strings.TrimSpace(x)) {
			case "true", "1", "t", "yes", "y":
				return true, nil
			case "false", "0", "f", "no", "n":
				return false, nil
			}
			return nil, fmt.Errorf("%q is not a boolean", x)
		}
	}
	return join.Canonical(v, t)
}

func (s scope) like(x *flinksql.LikeExpr) (evalFn, join.Type, error) {
	f, _, err := s.compile(x.X)
	if err != nil {
		return nil, join.Type{}, err
	}
	p, _, err := s.compile(x.Pattern)
	if err != nil {
		return nil, join.Type{}, err
	}
	esc := evalFn(constant(nil))
	if x.Escape != nil {
		if esc, _, err = s.compile(x.Escape); err != nil {
			return nil, join.Type{}, err
		}
	}
	similar := x.Op != "LIKE"
	return func(env *evalEnv, row join.Row) (any, error) {
		v, pat, err := both(env, row, f, p)
		if err != nil || v == nil || pat == nil {
			return nil, err
		}
		e, err := esc(env, row)
		if err != nil {
			return nil, err
		}
		re, err := likeRegexp(str(pat), e, similar)
		if err != nil {
			return nil, compileError(x, "%v", err)
		}
		return re.MatchString(str(v)) != x.Not, nil
	}, join.Type{Kind: join.KindBool}, nil
}

func likeRegexp(pattern string, escape any, similar bool) (*regexp.Regexp, error) {
	var esc rune = -1
	if escape != nil {
		r := []rune(str(escape))
		if len(r) != 1 {
			return nil, errors.New("ESCAPE must be one character")
		}
		esc = r[0]
	}
	var b strings.Builder
	b.WriteString("(?s)^")
	rs := []rune(pattern)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == esc && i+1 < len(rs):
			i++
			b.WriteString(regexp.QuoteMeta(string(rs[i])))
		case c == '%':
			b.WriteString(".*")
		case c == '_':
			b.WriteString(".")
		case similar && strings.ContainsRune("|*+?()[]{}", c):
			b.WriteRune(c)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

func (s scope) caseExpr(x *flinksql.CaseExpr) (evalFn, join.Type, error) {
	var operand evalFn
	if x.Operand != nil {
		f, _, err := s.compile(x.Operand)
		if err != nil {
			return nil, join.Type{}, err
		}
		operand = f
	}
	type when struct{ cond, result evalFn }
	var whens []when
	var t join.Type
	for _, w := range x.Whens {
		c, _, err := s.compile(w.Cond)
		if err != nil {
			return nil, t, err
		}
		r, rt, err := s.compile(w.Result)
		if err != nil {
			return nil, t, err
		}
		if t.Kind == join.KindAny {
			t = rt
		}
		whens = append(whens, when{c, r})
	}
	otherwise := evalFn(constant(nil))
	if x.Else != nil {
		f, _, err := s.compile(x.Else)
		if err != nil {
			return nil, t, err
		}
		otherwise = f
	}
	return func(env *evalEnv, row join.Row) (any, error) {
		var subject any
		if operand != nil {
			v, err := operand(env, row)
			if err != nil {
				return nil, err
			}
			subject = v
		}
		for _, w := range whens {
			c, err := w.cond(env, row)
			if err != nil {
				return nil, err
			}
			hit := c == true
			if operand != nil {
				hit = false
				if subject != nil && c != nil {
					n, err := compare(subject, c)
					if err != nil {
						return nil, compileError(x, "%v", err)
					}
					hit = n == 0
				}
			}
			if hit {
				return w.result(env, row)
			}
		}
		return otherwise(env, row)
	}, t, nil
}

func (s scope) call(x *flinksql.FuncCall) (evalFn, join.Type, error) {
	if x.Over != nil || x.OverRef != nil || x.Filter != nil || x.Distinct {
		return nil, join.Type{}, compileError(x, "%s: aggregations and OVER windows are out of scope for debug runs", x.FuncName())
	}
	return s.callNamed(x, x.FuncName(), x.Args)
}

// aggregates are refused by name: a debug run does not aggregate.
var aggregates = map[string]bool{"COUNT": true, "SUM": true, "AVG": true, "MIN": true, "MAX": true, "LISTAGG": true,
	"COLLECT": true, "FIRST_VALUE": true, "LAST_VALUE": true, "STDDEV_POP": true, "STDDEV_SAMP": true, "VAR_POP": true,
	"VAR_SAMP": true, "ROW_NUMBER": true, "RANK": true, "DENSE_RANK": true, "LEAD": true, "LAG": true,
	"TUMBLE": true, "HOP": true, "SESSION": true, "CUMULATE": true, "TUMBLE_START": true, "TUMBLE_END": true}

func (s scope) callNamed(at flinksql.Node, name string, argExprs []flinksql.Expr) (evalFn, join.Type, error) {
	if aggregates[name] {
		return nil, join.Type{}, compileError(at, "%s: aggregations and windows are out of scope for debug runs", name)
	}
	args, err := s.compileAll(argExprs)
	if err != nil {
		return nil, join.Type{}, err
	}
	types := make([]join.Type, len(argExprs))
	for i, a := range argExprs {
		_, types[i], _ = s.compile(a)
	}
	fn, ok := functions[name]
	if !ok {
		return nil, join.Type{}, compileError(at, "function %s is not supported in debug runs", name)
	}
	if len(args) < fn.min || fn.max >= 0 && len(args) > fn.max {
		return nil, join.Type{}, compileError(at, "%s takes %s arguments, not %d", name, arity(fn.min, fn.max), len(args))
	}
	t := fn.typ
	if fn.typeOf != nil {
		t = fn.typeOf(types)
	}
	return func(env *evalEnv, row join.Row) (any, error) {
		vals := make([]any, len(args))
		for i, a := range args {
			v, err := a(env, row)
			if err != nil {
				return nil, err
			}
			if v == nil && !fn.nulls {
				return nil, nil // NULL in, NULL out
			}
			vals[i] = v
		}
		v, err := fn.eval(env, vals)
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
