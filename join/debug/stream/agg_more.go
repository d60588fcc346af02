package stream

import (
	"fmt"
	"math"
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
// the square root of it for STDDEV, cast back to that type.
type varAcc struct {
	fn     string
	t      value.Type
	n      int64
	si, qi int64
	sf, qf float64
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
