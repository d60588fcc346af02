package stream

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/palink/palink/join/debug/value"
)

// The accumulators beyond COUNT, SUM, AVG, MIN and MAX.

// listAcc keeps the values in the order they came, a retraction taking
// back the first equal one (Flink's list views): LISTAGG, FIRST_VALUE,
// LAST_VALUE, ARRAY_AGG and COLLECT with retraction. NULLs are skipped
// (ARRAY_AGG keeps them).
type listAcc struct {
	fn   string
	sep  string
	vals []any
	keys []string
}

func (l *listAcc) add(v any) error {
	if v == nil && l.fn != "ARRAY_AGG" {
		return nil
	}
	l.vals = append(l.vals, v)
	l.keys = append(l.keys, value.Key([]any{v}, nil))
	return nil
}

func (l *listAcc) retract(v any) error {
	if v == nil && l.fn != "ARRAY_AGG" {
		return nil
	}
	k := value.Key([]any{v}, nil)
	for i, e := range l.keys {
		if e == k {
			l.vals = append(l.vals[:i:i], l.vals[i+1:]...)
			l.keys = append(l.keys[:i:i], l.keys[i+1:]...)
			return nil
		}
	}
	return nil
}

func (l *listAcc) result() any {
	switch l.fn {
	case "FIRST_VALUE":
		if len(l.vals) > 0 {
			return l.vals[0]
		}
		return nil
	case "LAST_VALUE":
		if len(l.vals) > 0 {
			return l.vals[len(l.vals)-1]
		}
		return nil
	case "ARRAY_AGG":
		if len(l.vals) == 0 {
			return nil
		}
		return append(value.Array(nil), l.vals...)
	case "COLLECT":
		m := &value.Map{}
		for _, v := range l.vals {
			n, _ := m.Get(v)
			c, _ := n.(int64)
			m.Put(v, c+1)
		}
		return m
	}
	if len(l.vals) == 0 {
		return nil
	}
	parts := make([]string, len(l.vals))
	for i, v := range l.vals {
		parts[i], _ = v.(string)
	}
	return strings.Join(parts, l.sep)
}

func (l *listAcc) size() int64 { return int64(value.SizeRow(l.vals)) }

// boolAcc is BOOL_AND and BOOL_OR: the counts of TRUE and FALSE values.
type boolAcc struct {
	and         bool
	trues, alls int64
}

func (b *boolAcc) step(v any, n int64) error {
	if v == nil {
		return nil
	}
	b.alls += n
	if v == true {
		b.trues += n
	}
	return nil
}

func (b *boolAcc) add(v any) error     { return b.step(v, 1) }
func (b *boolAcc) retract(v any) error { return b.step(v, -1) }
func (b *boolAcc) size() int64         { return 24 }

func (b *boolAcc) result() any {
	if b.alls == 0 {
		return nil
	}
	if b.and {
		return b.trues == b.alls
	}
	return b.trues > 0
}

// varAcc is VAR_POP, VAR_SAMP, STDDEV_POP and STDDEV_SAMP (STDDEV and
// VARIANCE are the SAMP ones) as Flink reduces them: (SUM(x*x) -
// SUM(x)*SUM(x)/COUNT(x)) / COUNT(x) (or COUNT(x) - 1, NULL for one row),
// computed in the argument's type — integer division for an integer — and
// the square root of it for STDDEV, cast back to that type. A DECIMAL's
// is DECIMAL(38, max(6, s)): Flink's decimal arithmetic rounds SUM(x)²,
// its quotient by the count, the difference and the variance each to 6
// places (the scale its adjusted DECIMAL(38, …) types keep), and STDDEV
// is the DOUBLE square root of that, cast back.
type varAcc struct {
	fn     string
	t, out value.Type
	n      int64
	si, qi int64
	sf, qf float64
	sr, qr *big.Rat
}

func (v *varAcc) step(x any, sign int64) error {
	switch y := x.(type) {
	case nil:
		return nil
	case int64:
		v.si = value.Wrap(v.si+sign*y, v.t)
		v.qi = value.Wrap(v.qi+sign*value.Wrap(y*y, v.t), v.t)
	case float64:
		v.sf += float64(sign) * y
		v.qf += float64(sign) * y * y
	case *big.Rat:
		if v.sr == nil {
			v.sr, v.qr = new(big.Rat), new(big.Rat)
		}
		sq := new(big.Rat).Mul(y, y)
		if sign < 0 {
			v.sr.Sub(v.sr, y)
			v.qr.Sub(v.qr, sq)
		} else {
			v.sr.Add(v.sr, y)
			v.qr.Add(v.qr, sq)
		}
	default:
		return fmt.Errorf("%s of %s", v.fn, value.Guess(x, nil))
	}
	v.n += sign
	return nil
}

func (v *varAcc) add(x any) error     { return v.step(x, 1) }
func (v *varAcc) retract(x any) error { return v.step(x, -1) }
func (v *varAcc) size() int64         { return 48 }

func (v *varAcc) result() any {
	samp := v.fn == "VAR_SAMP" || v.fn == "STDDEV_SAMP" || v.fn == "STDDEV" || v.fn == "VARIANCE"
	div := v.n
	if samp {
		div = v.n - 1
	}
	if v.n == 0 || div == 0 {
		return nil
	}
	root := strings.HasPrefix(v.fn, "STDDEV")
	if v.t.Kind == value.Decimal {
		return v.decimal(div, root)
	}
	if v.t.IsInteger() {
		num := value.Wrap(v.qi-value.Wrap(value.Wrap(v.si*v.si, v.t)/v.n, v.t), v.t)
		variance := num / div
		if !root {
			return value.Wrap(variance, v.t)
		}
		return value.Wrap(int64(math.Pow(float64(variance), 0.5)), v.t)
	}
	variance := (v.qf - v.sf*v.sf/float64(v.n)) / float64(div)
	if root {
		variance = math.Pow(variance, 0.5)
	}
	if v.t.Kind == value.Float {
		return float64(float32(variance))
	}
	return variance
}

func (v *varAcc) decimal(div int64, root bool) any {
	six := value.Dec(38, 6)
	at6 := func(r *big.Rat) *big.Rat {
		x, _ := value.Round(r, six).(*big.Rat)
		if x == nil {
			return new(big.Rat)
		}
		return x
	}
	sq := at6(new(big.Rat).Mul(v.sr, v.sr))
	mean := at6(sq.Quo(sq, new(big.Rat).SetInt64(v.n)))
	diff := at6(new(big.Rat).Sub(v.qr, mean))
	variance := at6(diff.Quo(diff, new(big.Rat).SetInt64(div)))
	if root {
		f, _ := variance.Float64()
		// Java's BigDecimal.valueOf(double): the shortest decimal of it.
		r, ok := new(big.Rat).SetString(strconv.FormatFloat(math.Pow(f, 0.5), 'g', -1, 64))
		if !ok {
			return nil // NaN: a negative variance cannot come from real numbers
		}
		variance = r
	}
	return value.Round(variance, v.out)
}
