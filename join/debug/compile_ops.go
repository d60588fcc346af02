package debug

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/join"
)

// The compilers of operators and predicates: each takes its node and gives
// the closure and its static type, as compile does.

// is is x IS [NOT] NULL, UNKNOWN, TRUE or FALSE.
func (s scope) is(x *flinksql.IsExpr) (evalFn, join.Type, error) {
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
}

// isDistinct is x IS [NOT] DISTINCT FROM y: NULLs compare equal.
func (s scope) isDistinct(x *flinksql.IsDistinctExpr) (evalFn, join.Type, error) {
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
}

// in is x [NOT] IN (list), with SQL's NULLs: no match and a NULL in the list is NULL.
func (s scope) in(x *flinksql.InExpr) (evalFn, join.Type, error) {
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
}

// between is x [NOT] BETWEEN [SYMMETRIC] lo AND hi.
func (s scope) between(x *flinksql.BetweenExpr) (evalFn, join.Type, error) {
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
}

// cast is CAST and TRY_CAST, which gives NULL where CAST fails.
func (s scope) cast(x *flinksql.CastExpr) (evalFn, join.Type, error) {
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
}

// trim is TRIM([BOTH|LEADING|TRAILING] [chars] FROM x).
func (s scope) trim(x *flinksql.TrimExpr) (evalFn, join.Type, error) {
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
}

// extractFrom is EXTRACT(unit FROM x).
func (s scope) extractFrom(x *flinksql.ExtractExpr) (evalFn, join.Type, error) {
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
