package debug

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/flinksql/format"
	"github.com/palink/palink/join/debug/value"
)

// The compilers of operators and predicates, each giving a closure and its
// type as compile does. NULLs follow SQL's three-valued logic.

var tBool = value.Type{Kind: value.Boolean}

// is is x IS [NOT] NULL, UNKNOWN, TRUE, FALSE or JSON.
func (c *compiler) is(x *ast.IsExpr) (evalFn, value.Type, error) {
	f, _, err := c.compile(x.X)
	if err != nil {
		return nil, value.Type{}, err
	}
	if strings.HasPrefix(x.What, "JSON") {
		return func(row value.Row) (any, error) {
			v, err := f(row)
			if err != nil {
				return nil, err
			}
			s, ok := v.(string)
			return isJSON(s, ok, x.What) != x.Not, nil
		}, tBool, nil
	}
	what := x.What
	return func(row value.Row) (any, error) {
		v, err := f(row)
		if err != nil {
			return nil, err
		}
		var r bool
		switch what {
		case "NULL", "UNKNOWN":
			r = v == nil
		case "TRUE":
			r = v == true
		case "FALSE":
			r = v == false
		}
		return r != x.Not, nil
	}, value.Type{Kind: value.Boolean, NotNull: true}, nil
}

// comparable compiles both sides of a comparison, casting a string side to
// the other side's number, date or time type, as Flink's implicit
// conversion does.
func (c *compiler) comparable(l, r ast.Expr) (evalFn, evalFn, error) {
	lf, lt, err := c.compile(l)
	if err != nil {
		return nil, nil, err
	}
	rf, rt, err := c.compile(r)
	if err != nil {
		return nil, nil, err
	}
	lf, rf = coerce(lf, lt, rt, c.rt.zone), coerce(rf, rt, lt, c.rt.zone)
	return lf, rf, nil
}

// coerce casts a string-typed operand to the other operand's type when
// that is a number or a time.
func coerce(f evalFn, t, other value.Type, loc *time.Location) evalFn {
	if !t.IsString() || !(other.IsNumeric() || other.IsTimestamp() || other.Kind == value.Date || other.Kind == value.Time || other.Kind == value.Boolean) {
		return f
	}
	return func(row value.Row) (any, error) {
		v, err := f(row)
		if err != nil || v == nil {
			return v, err
		}
		return value.Cast(v, t, other, loc)
	}
}

// isDistinct is l IS [NOT] DISTINCT FROM r: NULLs compare equal.
func (c *compiler) isDistinct(x *ast.IsDistinctExpr) (evalFn, value.Type, error) {
	l, r, err := c.comparable(x.L, x.R)
	if err != nil {
		return nil, value.Type{}, err
	}
	return func(row value.Row) (any, error) {
		a, b, err := both(row, l, r)
		if err != nil {
			return nil, err
		}
		return !value.Equal(a, b) != x.Not, nil
	}, value.Type{Kind: value.Boolean, NotNull: true}, nil
}

func both(row value.Row, f, g evalFn) (any, any, error) {
	a, err := f(row)
	if err != nil {
		return nil, nil, err
	}
	b, err := g(row)
	return a, b, err
}

// in is x [NOT] IN (list): no match and a NULL in the list is NULL.
func (c *compiler) in(x *ast.InExpr) (evalFn, value.Type, error) {
	if x.Query != nil {
		return nil, value.Type{}, errorAt(x, "IN (subquery) is supported in debug runs as a condition of WHERE, joined with its query")
	}
	f, ft, err := c.compile(x.X)
	if err != nil {
		return nil, value.Type{}, err
	}
	list, lts, err := c.compileAll(x.List)
	if err != nil {
		return nil, value.Type{}, err
	}
	for i := range list {
		list[i] = coerce(list[i], lts[i], ft, c.rt.zone)
	}
	return func(row value.Row) (any, error) {
		v, err := f(row)
		if err != nil || v == nil {
			return nil, err
		}
		sawNull := false
		for _, g := range list {
			w, err := g(row)
			if err != nil {
				return nil, err
			}
			if w == nil {
				sawNull = true
				continue
			}
			if c, err := value.Compare(v, w); err != nil {
				return nil, errorAt(x, "%v", err)
			} else if c == 0 {
				return !x.Not, nil
			}
		}
		if sawNull {
			return nil, nil
		}
		return x.Not, nil
	}, tBool, nil
}

// between is x [NOT] BETWEEN [SYMMETRIC] lo AND hi.
func (c *compiler) between(x *ast.BetweenExpr) (evalFn, value.Type, error) {
	f, lo, err := c.comparable(x.X, x.Lo)
	if err != nil {
		return nil, value.Type{}, err
	}
	_, hi, err := c.comparable(x.X, x.Hi)
	if err != nil {
		return nil, value.Type{}, err
	}
	return func(row value.Row) (any, error) {
		v, err := f(row)
		if err != nil {
			return nil, err
		}
		a, b, err := both(row, lo, hi)
		if err != nil {
			return nil, err
		}
		if x.Mode == "SYMMETRIC" && a != nil && b != nil {
			if c, _ := value.Compare(a, b); c > 0 {
				a, b = b, a
			}
		}
		ge, err := cmpOp(">=", v, a)
		if err != nil {
			return nil, errorAt(x, "%v", err)
		}
		le, err := cmpOp("<=", v, b)
		if err != nil {
			return nil, errorAt(x, "%v", err)
		}
		in := and3(ge, le)
		if in == nil {
			return nil, nil
		}
		return in.(bool) != x.Not, nil
	}, tBool, nil
}

// and3 is AND over TRUE, FALSE and NULL.
func and3(a, b any) any {
	switch {
	case a == false || b == false:
		return false
	case a == nil || b == nil:
		return nil
	}
	return true
}

func cmpOp(op string, a, b any) (any, error) {
	if a == nil || b == nil {
		return nil, nil
	}
	c, err := value.Compare(a, b)
	if err != nil {
		return nil, err
	}
	switch op {
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
}

// cast is CAST and TRY_CAST, which gives NULL where CAST fails.
func (c *compiler) cast(x *ast.CastExpr) (evalFn, value.Type, error) {
	f, from, err := c.compile(x.X)
	if err != nil {
		return nil, value.Type{}, err
	}
	to, err := value.FromAST(x.Type)
	if err != nil {
		return nil, to, errorAt(x, "%v", err)
	}
	loc := c.rt.zone
	return func(row value.Row) (any, error) {
		v, err := f(row)
		if err != nil || v == nil {
			return nil, err
		}
		out, err := value.Cast(v, from, to, loc)
		if err != nil {
			if x.Try {
				return nil, nil
			}
			return nil, fmt.Errorf("CAST(%s AS %s): %w", value.String(v, from, loc), to, err)
		}
		return out, nil
	}, to, nil
}

// trim is TRIM([BOTH|LEADING|TRAILING] [chars] FROM x).
func (c *compiler) trim(x *ast.TrimExpr) (evalFn, value.Type, error) {
	f, t, err := c.compile(x.X)
	if err != nil {
		return nil, value.Type{}, err
	}
	chars := constant(" ")
	if x.Chars != nil {
		if chars, _, err = c.compile(x.Chars); err != nil {
			return nil, value.Type{}, err
		}
	}
	return func(row value.Row) (any, error) {
		v, ch, err := both(row, f, chars)
		if err != nil || v == nil || ch == nil {
			return nil, err
		}
		s, cut := v.(string), ch.(string)
		switch x.Side {
		case "LEADING":
			return strings.TrimLeft(s, cut), nil
		case "TRAILING":
			return strings.TrimRight(s, cut), nil
		}
		return strings.Trim(s, cut), nil
	}, value.Type{Kind: value.Varchar, Precision: max(t.Precision, 1)}, nil
}

// extract is EXTRACT(unit FROM x).
func (c *compiler) extract(x *ast.ExtractExpr) (evalFn, value.Type, error) {
	f, t, err := c.compile(x.X)
	if err != nil {
		return nil, value.Type{}, err
	}
	unit := strings.ToUpper(x.Unit)
	loc := c.rt.zone
	return func(row value.Row) (any, error) {
		v, err := f(row)
		if err != nil || v == nil {
			return nil, err
		}
		return extractUnit(unit, v, t, loc)
	}, value.TBigInt, nil
}

// floorCeilTo is FLOOR(x TO unit) and CEIL(x TO unit).
func (c *compiler) floorCeilTo(x *ast.FloorCeilExpr) (evalFn, value.Type, error) {
	f, t, err := c.compile(x.X)
	if err != nil {
		return nil, value.Type{}, err
	}
	unit := strings.TrimSuffix(strings.ToUpper(x.Unit), "S")
	ceil := x.Name != "FLOOR"
	return func(row value.Row) (any, error) {
		v, err := f(row)
		if err != nil || v == nil {
			return nil, err
		}
		ts, ok := v.(time.Time)
		if !ok {
			return nil, fmt.Errorf("%s(… TO %s) of %s", x.Name, unit, value.Guess(v, nil))
		}
		return floorTime(ts, unit, ceil)
	}, t, nil
}

func (c *compiler) unary(x *ast.UnaryExpr) (evalFn, value.Type, error) {
	f, t, err := c.compile(x.X)
	if err != nil {
		return nil, t, err
	}
	switch x.Op {
	case "NOT":
		return func(row value.Row) (any, error) {
			v, err := f(row)
			if err != nil || v == nil {
				return nil, err
			}
			b, ok := v.(bool)
			if !ok {
				return nil, errorAt(x, "NOT of a non-boolean value")
			}
			return !b, nil
		}, tBool, nil
	case "+":
		return f, t, nil
	case "-":
		return func(row value.Row) (any, error) {
			v, err := f(row)
			if err != nil || v == nil {
				return nil, err
			}
			return value.Negate(v, t)
		}, t, nil
	}
	return nil, t, errorAt(x, "%s is only allowed in MATCH_RECOGNIZE's MEASURES", x.Op)
}

func (c *compiler) binary(x *ast.BinaryExpr) (evalFn, value.Type, error) {
	switch x.Op {
	case "AND", "OR":
		return c.logical(x)
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		l, r, err := c.comparable(x.L, x.R)
		if err != nil {
			return nil, value.Type{}, err
		}
		op := x.Op
		return func(row value.Row) (any, error) {
			a, b, err := both(row, l, r)
			if err != nil {
				return nil, err
			}
			v, err := cmpOp(op, a, b)
			if err != nil {
				return nil, errorAt(x, "%v", err)
			}
			return v, nil
		}, tBool, nil
	}
	l, lt, err := c.compile(x.L)
	if err != nil {
		return nil, lt, err
	}
	r, rt, err := c.compile(x.R)
	if err != nil {
		return nil, rt, err
	}
	switch x.Op {
	case "||":
		loc := c.rt.zone
		return func(row value.Row) (any, error) {
			a, b, err := both(row, l, r)
			if err != nil || a == nil || b == nil {
				return nil, err
			}
			return value.String(a, lt, loc) + value.String(b, rt, loc), nil
		}, value.TString, nil
	case "+", "-", "*", "/", "%":
		op := x.Op[0]
		t, err := value.ArithType(op, lt, rt)
		if err != nil {
			return nil, t, errorAt(x, "%v", err)
		}
		if lt.IsString() || rt.IsString() {
			return nil, t, errorAt(x, "Cannot apply '%s' to arguments of type '<%s> %s <%s>'", x.Op, lt, x.Op, rt)
		}
		return func(row value.Row) (any, error) {
			a, b, err := both(row, l, r)
			if err != nil || a == nil || b == nil {
				return nil, err
			}
			v, err := value.Arith(op, a, b, lt, rt, t)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", format.Expr(x), err)
			}
			return v, nil
		}, t, nil
	}
	return nil, value.Type{}, errorAt(x, "operator %s is not supported in debug runs", x.Op)
}

// logical is AND and OR with SQL's three-valued logic.
func (c *compiler) logical(x *ast.BinaryExpr) (evalFn, value.Type, error) {
	l, _, err := c.compile(x.L)
	if err != nil {
		return nil, value.Type{}, err
	}
	r, _, err := c.compile(x.R)
	if err != nil {
		return nil, value.Type{}, err
	}
	isAnd := x.Op == "AND"
	return func(row value.Row) (any, error) {
		a, err := l(row)
		if err != nil {
			return nil, err
		}
		if a == !isAnd { // FALSE AND …, TRUE OR …
			return a, nil
		}
		b, err := r(row)
		if err != nil {
			return nil, err
		}
		if b == !isAnd {
			return b, nil
		}
		if a == nil || b == nil {
			return nil, nil
		}
		return isAnd, nil
	}, tBool, nil
}

func (c *compiler) like(x *ast.LikeExpr) (evalFn, value.Type, error) {
	f, _, err := c.compile(x.X)
	if err != nil {
		return nil, value.Type{}, err
	}
	p, _, err := c.compile(x.Pattern)
	if err != nil {
		return nil, value.Type{}, err
	}
	esc := constant(nil)
	if x.Escape != nil {
		if esc, _, err = c.compile(x.Escape); err != nil {
			return nil, value.Type{}, err
		}
	}
	similar := x.Op != "LIKE"
	cache := map[string]*regexp.Regexp{}
	return func(row value.Row) (any, error) {
		v, pat, err := both(row, f, p)
		if err != nil || v == nil || pat == nil {
			return nil, err
		}
		e, err := esc(row)
		if err != nil {
			return nil, err
		}
		key := fmt.Sprint(pat, "\x00", e)
		re, ok := cache[key]
		if !ok {
			if re, err = likeRegexp(pat.(string), e, similar); err != nil {
				return nil, errorAt(x, "%v", err)
			}
			if len(cache) < 64 {
				cache[key] = re
			}
		}
		return re.MatchString(v.(string)) != x.Not, nil
	}, tBool, nil
}

func likeRegexp(pattern string, escape any, similar bool) (*regexp.Regexp, error) {
	var esc rune = -1
	if escape != nil {
		r := []rune(escape.(string))
		if len(r) != 1 {
			return nil, errors.New("ESCAPE must be one character")
		}
		esc = r[0]
	}
	var b strings.Builder
	b.WriteString("(?s)^")
	rs := []rune(pattern)
	for i := 0; i < len(rs); i++ {
		ch := rs[i]
		switch {
		case ch == esc && i+1 < len(rs):
			i++
			b.WriteString(regexp.QuoteMeta(string(rs[i])))
		case ch == '%':
			b.WriteString(".*")
		case ch == '_':
			b.WriteString(".")
		case similar && strings.ContainsRune("|*+?()[]{}", ch):
			b.WriteRune(ch)
		default:
			b.WriteString(regexp.QuoteMeta(string(ch)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

func (c *compiler) caseExpr(x *ast.CaseExpr) (evalFn, value.Type, error) {
	var operand evalFn
	var opType value.Type
	if x.Operand != nil {
		f, t, err := c.compile(x.Operand)
		if err != nil {
			return nil, value.Type{}, err
		}
		operand, opType = f, t
	}
	type when struct{ cond, result evalFn }
	var whens []when
	var rtypes []value.Type
	t := value.TNull
	for _, w := range x.Whens {
		cf, ct, err := c.compile(w.Cond)
		if err != nil {
			return nil, t, err
		}
		if operand != nil {
			cf = coerce(cf, ct, opType, c.rt.zone)
		}
		rf, rt, err := c.compile(w.Result)
		if err != nil {
			return nil, t, err
		}
		t = value.Common(t, rt)
		whens = append(whens, when{cf, rf})
		rtypes = append(rtypes, rt)
	}
	otherwise, ot := constant(nil), value.TNull
	if x.Else != nil {
		f, et, err := c.compile(x.Else)
		if err != nil {
			return nil, t, err
		}
		otherwise, ot = f, et
		t = value.Common(t, et)
	}
	loc := c.rt.zone
	return func(row value.Row) (any, error) {
		var subject any
		if operand != nil {
			v, err := operand(row)
			if err != nil {
				return nil, err
			}
			subject = v
		}
		for i, w := range whens {
			cv, err := w.cond(row)
			if err != nil {
				return nil, err
			}
			hit := cv == true
			if operand != nil {
				hit = subject != nil && cv != nil && value.Equal(subject, cv)
			}
			if hit {
				v, err := w.result(row)
				if err != nil {
					return nil, err
				}
				return value.Cast(v, rtypes[i], t, loc)
			}
		}
		v, err := otherwise(row)
		if err != nil {
			return nil, err
		}
		return value.Cast(v, ot, t, loc)
	}, t, nil
}
