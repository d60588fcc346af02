package debug

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/join"
)

// The values of the expression evaluator: arithmetic with exact decimals,
// comparisons across numeric kinds, CAST, and a value as a STRING.

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
