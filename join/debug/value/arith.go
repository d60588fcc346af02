package value

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"time"
)

// ErrDivideByZero is an exact division by zero, which fails the job in
// Flink.
var ErrDivideByZero = errors.New("division by zero")

// decimalOf is the DECIMAL an exact number converts to in arithmetic with
// decimals: INT is DECIMAL(10, 0), BIGINT DECIMAL(19, 0).
func decimalOf(t Type) Type {
	switch t.Kind {
	case TinyInt:
		return Dec(3, 0)
	case SmallInt:
		return Dec(5, 0)
	case Int:
		return Dec(10, 0)
	case BigInt:
		return Dec(19, 0)
	}
	return t
}

// adjust caps a decimal result at precision 38 as Flink's
// LogicalTypeMerging does, keeping at least 6 fraction digits (or all of
// them if fewer).
func adjust(p, s int) Type {
	if p <= 38 {
		return Dec(p, s)
	}
	intDigits := p - s
	minScale := min(s, 6)
	s = max(38-intDigits, minScale)
	return Dec(38, s)
}

// ArithType is the type of a op b (op one of + - * / %), by Flink's rules:
// integers widen to the wider one, integer division truncates, anything
// with a DOUBLE is a DOUBLE, decimals follow LogicalTypeMerging.
func ArithType(op byte, a, b Type) (Type, error) {
	switch {
	case a.Kind == Null:
		a = b
	case b.Kind == Null:
		b = a
	}
	switch {
	case a.Kind == Null && b.Kind == Null:
		return TInt, nil
	case a.IsTimestamp() || a.Kind == Date || a.Kind == Time:
		if (op == '+' || op == '-') && (b.Kind == IntervalDT || b.Kind == IntervalYM) {
			return a.Nullable(), nil
		}
	case b.IsTimestamp() || b.Kind == Date || b.Kind == Time:
		if op == '+' && (a.Kind == IntervalDT || a.Kind == IntervalYM) {
			return b.Nullable(), nil
		}
	case a.Kind == IntervalDT || a.Kind == IntervalYM:
		if (op == '+' || op == '-') && b.Kind == a.Kind {
			return a, nil
		}
		if (op == '*' || op == '/') && b.IsNumeric() {
			return a, nil
		}
	case b.Kind == IntervalDT || b.Kind == IntervalYM:
		if op == '*' && a.IsNumeric() {
			return b, nil
		}
	case !a.IsNumeric() || !b.IsNumeric():
	case a.Kind == Double || b.Kind == Double || a.Kind == Float && b.Kind != Float || b.Kind == Float && a.Kind != Float:
		return TDouble, nil
	case a.Kind == Float:
		return Type{Kind: Float}, nil
	case a.Kind == Decimal || b.Kind == Decimal:
		da, db := decimalOf(a), decimalOf(b)
		p1, s1, p2, s2 := da.Precision, da.Scale, db.Precision, db.Scale
		switch op {
		case '+', '-':
			s := max(s1, s2)
			return adjust(max(p1-s1, p2-s2)+s+1, s), nil
		case '*':
			return adjust(p1+p2+1, s1+s2), nil
		case '/':
			s := max(6, s1+p2+1)
			return adjust(p1-s1+s2+s, s), nil
		case '%':
			s := max(s1, s2)
			return adjust(min(p1-s1, p2-s2)+s, s), nil
		}
	default:
		if op == '%' {
			return b.Nullable(), nil
		}
		if a.Kind >= b.Kind {
			return a.Nullable(), nil
		}
		return b.Nullable(), nil
	}
	return Type{}, fmt.Errorf("cannot apply '%c' to arguments of type '%s' and '%s'", op, a, b)
}

// Arith computes a op b for non-NULL values of types ta and tb, giving a
// value of type tr (as ArithType says).
func Arith(op byte, a, b any, ta, tb, tr Type) (any, error) {
	switch tr.Kind {
	case TinyInt, SmallInt, Int, BigInt:
		x, y := a.(int64), b.(int64)
		var n int64
		switch op {
		case '+':
			n = x + y
		case '-':
			n = x - y
		case '*':
			n = x * y
		case '/':
			if y == 0 {
				return nil, ErrDivideByZero
			}
			n = x / y
		case '%':
			if y == 0 {
				return nil, ErrDivideByZero
			}
			n = x % y
		}
		return Wrap(n, tr), nil
	case Float, Double:
		x, err1 := toFloat(a)
		y, err2 := toFloat(b)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		var f float64
		switch op {
		case '+':
			f = x + y
		case '-':
			f = x - y
		case '*':
			f = x * y
		case '/':
			f = x / y
		case '%':
			f = math.Mod(x, y)
		}
		if tr.Kind == Float {
			f = float64(float32(f))
		}
		return f, nil
	case Decimal:
		x, err1 := toRat(a)
		y, err2 := toRat(b)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		z := new(big.Rat)
		switch op {
		case '+':
			z.Add(x, y)
		case '-':
			z.Sub(x, y)
		case '*':
			z.Mul(x, y)
		case '/':
			if y.Sign() == 0 {
				return nil, ErrDivideByZero
			}
			z.Quo(x, y)
		case '%':
			if y.Sign() == 0 {
				return nil, ErrDivideByZero
			}
			q := new(big.Int).Quo(new(big.Int).Mul(x.Num(), y.Denom()), new(big.Int).Mul(x.Denom(), y.Num()))
			z.Sub(x, new(big.Rat).Mul(y, new(big.Rat).SetInt(q)))
		}
		return Round(z, tr), nil
	case Date, Time, Timestamp, TimestampLTZ:
		t, iv, ivt := a, b, tb
		if ta.Kind == IntervalDT || ta.Kind == IntervalYM {
			t, iv, ivt = b, a, ta
		}
		neg := op == '-'
		return addInterval(t, iv, ivt, neg, tr)
	case IntervalDT, IntervalYM:
		return intervalArith(op, a, b)
	}
	return nil, fmt.Errorf("cannot compute %s %c %s", Guess(a, nil), op, Guess(b, nil))
}

func addInterval(t, iv any, ivt Type, neg bool, tr Type) (any, error) {
	switch x := t.(type) {
	case time.Time:
		switch d := iv.(type) {
		case time.Duration:
			if neg {
				d = -d
			}
			out := x.Add(d)
			if tr.Kind == Date {
				out = time.Date(out.Year(), out.Month(), out.Day(), 0, 0, 0, 0, time.UTC)
			}
			return out, nil
		case Months:
			if neg {
				d = -d
			}
			return AddMonths(x, int(d)), nil
		}
	case TimeOfDay:
		if d, ok := iv.(time.Duration); ok {
			if neg {
				d = -d
			}
			day := TimeOfDay(24 * time.Hour)
			return ((x+TimeOfDay(d))%day + day) % day, nil
		}
		if _, ok := iv.(Months); ok {
			return x, nil
		}
	}
	return nil, fmt.Errorf("cannot add %s to %s", ivt, Guess(t, nil))
}

// AddMonths adds months to a time as Calcite does: the day is clamped to
// the end of a shorter month (January 31 + 1 month is February 29 or 28).
func AddMonths(t time.Time, months int) time.Time {
	y, m, d := t.Date()
	total := int(m) - 1 + months
	ny, nm := y+floorDiv(total, 12), time.Month(floorMod(total, 12)+1)
	last := time.Date(ny, nm+1, 0, 0, 0, 0, 0, time.UTC).Day()
	if d > last {
		d = last
	}
	return time.Date(ny, nm, d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int) int { return a - floorDiv(a, b)*b }

func intervalArith(op byte, a, b any) (any, error) {
	switch x := a.(type) {
	case time.Duration:
		switch y := b.(type) {
		case time.Duration:
			if op == '-' {
				return x - y, nil
			}
			return x + y, nil
		default:
			f, err := toFloat(y)
			if err != nil {
				return nil, err
			}
			if op == '/' {
				return time.Duration(float64(x) / f).Truncate(time.Millisecond), nil
			}
			return time.Duration(float64(x) * f).Truncate(time.Millisecond), nil
		}
	case Months:
		switch y := b.(type) {
		case Months:
			if op == '-' {
				return x - y, nil
			}
			return x + y, nil
		default:
			f, err := toFloat(y)
			if err != nil {
				return nil, err
			}
			if op == '/' {
				return Months(float64(x) / f), nil
			}
			return Months(float64(x) * f), nil
		}
	default:
		return intervalArith(op, b, a)
	}
}

// Negate is -v for a number or interval of type t.
func Negate(v any, t Type) (any, error) {
	switch x := v.(type) {
	case int64:
		return Wrap(-x, t), nil
	case float64:
		return -x, nil
	case *big.Rat:
		return new(big.Rat).Neg(x), nil
	case time.Duration:
		return -x, nil
	case Months:
		return -x, nil
	}
	return nil, fmt.Errorf("cannot negate %s", goType(v))
}

// Common is the type values of types a and b are both cast to where one
// value is wanted from either (CASE, COALESCE, UNION, IN lists): the
// wider number, the longer string, the more precise time.
func Common(a, b Type) Type {
	switch {
	case a.Kind == Null:
		return b
	case b.Kind == Null:
		return a
	case a.Equal(b):
		return Type{Kind: a.Kind, Precision: a.Precision, Scale: a.Scale, Elem: a.Elem, Val: a.Val, Fields: a.Fields, NotNull: a.NotNull && b.NotNull}
	case a.IsNumeric() && b.IsNumeric():
		switch {
		case a.Kind == Double || b.Kind == Double || a.Kind == Float || b.Kind == Float:
			if a.Kind == Float && b.Kind == Float {
				return Type{Kind: Float}
			}
			return TDouble
		case a.Kind == Decimal || b.Kind == Decimal:
			da, db := decimalOf(a), decimalOf(b)
			s := max(da.Scale, db.Scale)
			return adjust(max(da.Precision-da.Scale, db.Precision-db.Scale)+s, s)
		case a.Kind >= b.Kind:
			return a.Nullable()
		}
		return b.Nullable()
	case a.IsString() && b.IsString():
		// CHARs of different lengths too give a VARCHAR, nothing padded:
		// Flink's type factory converts ragged unions to varying
		// (FlinkTypeFactory.shouldConvertRaggedUnionTypesToVarying), where
		// Calcite's default would pad 'x' to 'x ' beside 'yy'. CHARs of
		// one length are Equal, above.
		return Type{Kind: Varchar, Precision: max(a.Precision, b.Precision), NotNull: a.NotNull && b.NotNull}
	case (a.Kind == Binary || a.Kind == Varbinary) && (b.Kind == Binary || b.Kind == Varbinary):
		return Type{Kind: Varbinary, Precision: max(a.Precision, b.Precision)}
	case a.IsTimestamp() && b.IsTimestamp():
		if a.Kind == b.Kind {
			return Type{Kind: a.Kind, Precision: max(a.Precision, b.Precision)}
		}
		return TS(max(a.Precision, b.Precision))
	case a.IsTimestamp() && b.Kind == Date:
		return a.Nullable()
	case b.IsTimestamp() && a.Kind == Date:
		return b.Nullable()
	case a.Kind == Time && b.Kind == Time:
		return Type{Kind: Time, Precision: max(a.Precision, b.Precision)}
	}
	return a.Nullable()
}
