package debug

import (
	"fmt"
	"math/big"
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
//
// compile is the table of compilers: it hands each kind of node to its own
// (literals and column references here, operators and predicates in
// compile_ops.go, function calls in functions.go); values.go holds the
// arithmetic, comparisons and casts they share.

// field is a column in scope: of a table (by its alias or name) or a result.
type field struct {
	table string
	name  string
	typ   join.Type
}

// scope is the columns an expression may read, in the order of a row's values.
type scope []field

// evalEnv is what an evaluation may read besides the row.
type evalEnv struct {
	now time.Time // PROCTIME() and CURRENT_TIMESTAMP of this row
}

// evalFn is a compiled expression: its value for one row.
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
// when it depends on the values), through the compiler of its kind of node.
func (s scope) compile(e flinksql.Expr) (evalFn, join.Type, error) {
	switch x := e.(type) {
	case *flinksql.ParenExpr:
		return s.compile(x.X)
	case *flinksql.ColumnRef:
		return s.columnRef(x)
	case *flinksql.NumberLit:
		return s.number(x)
	case *flinksql.StringLit:
		return constant(x.Value), join.Type{Kind: join.KindString}, nil
	case *flinksql.BoolLit:
		return constant(x.Value), join.Type{Kind: join.KindBool}, nil
	case *flinksql.NullLit:
		return constant(nil), join.Type{}, nil
	case *flinksql.TypedLit:
		return s.typedLit(x)
	case *flinksql.UnaryExpr:
		return s.unary(x)
	case *flinksql.BinaryExpr:
		return s.binary(x)
	case *flinksql.IsExpr:
		return s.is(x)
	case *flinksql.IsDistinctExpr:
		return s.isDistinct(x)
	case *flinksql.InExpr:
		return s.in(x)
	case *flinksql.BetweenExpr:
		return s.between(x)
	case *flinksql.LikeExpr:
		return s.like(x)
	case *flinksql.CaseExpr:
		return s.caseExpr(x)
	case *flinksql.CastExpr:
		return s.cast(x)
	case *flinksql.FuncCall:
		return s.call(x)
	case *flinksql.TrimExpr:
		return s.trim(x)
	case *flinksql.SubstringExpr:
		args := []flinksql.Expr{x.X, x.From}
		if x.Length != nil {
			args = append(args, x.Length)
		}
		return s.callNamed(x, "SUBSTRING", args)
	case *flinksql.PositionExpr:
		return s.callNamed(x, "POSITION", []flinksql.Expr{x.Sub, x.X})
	case *flinksql.ExtractExpr:
		return s.extractFrom(x)
	}
	return nil, join.Type{}, compileError(e, "%s is not supported in debug runs", flinksql.FormatExpr(e))
}

// columnRef reads a column of the row.
func (s scope) columnRef(x *flinksql.ColumnRef) (evalFn, join.Type, error) {
	i, t, err := s.resolve(x)
	if err != nil {
		return nil, t, err
	}
	return func(_ *evalEnv, row join.Row) (any, error) { return internal(row[i], t), nil }, t, nil
}

// number is a numeric literal: BIGINT, an exact DECIMAL, or DOUBLE.
func (s scope) number(x *flinksql.NumberLit) (evalFn, join.Type, error) {
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
}

// typedLit is a literal of a named type (DATE '2024-01-02', TIMESTAMP '…').
func (s scope) typedLit(x *flinksql.TypedLit) (evalFn, join.Type, error) {
	t, err := join.ParseType(x.Type)
	if err != nil {
		return nil, t, compileError(x, "%v", err)
	}
	v, err := castValue(x.Value.Value, t)
	if err != nil {
		return nil, t, compileError(x, "%s literal: %v", x.Type, err)
	}
	return constant(v), t, nil
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

// and is a AND b for conditions that filter rows: b runs only when a is TRUE.
// A nil a is TRUE.
func and(a, b evalFn) evalFn {
	if a == nil {
		return b
	}
	return func(env *evalEnv, row join.Row) (any, error) {
		v, err := a(env, row)
		if err != nil || v != true {
			return v, err
		}
		return b(env, row)
	}
}
