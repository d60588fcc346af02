package value

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrCast is the cause of a CAST that fails on its value (TRY_CAST gives
// NULL instead).
var ErrCast = errors.New("cannot cast")

// Cast is CAST(v AS to) for a value v of type from, by Flink's cast rules
// (1.15 and later, without legacy behaviour): strings are trimmed or
// padded to CHAR and VARCHAR lengths, decimals rounded half up, a DECIMAL
// that does not fit its precision is NULL, integers narrow as Java does.
func Cast(v any, from, to Type, loc *time.Location) (any, error) {
	if v == nil {
		return nil, nil
	}
	if loc == nil {
		loc = time.UTC
	}
	switch to.Kind {
	case Char, Varchar:
		s := String(v, from, loc)
		return fitString(s, to), nil
	case Boolean:
		return toBool(v)
	case TinyInt, SmallInt, Int, BigInt:
		return toInteger(v, to)
	case Float, Double:
		f, err := toFloat(v)
		if err != nil {
			return nil, err
		}
		if to.Kind == Float {
			f = float64(float32(f))
		}
		return f, nil
	case Decimal:
		r, err := toRat(v)
		if err != nil {
			return nil, err
		}
		return Round(r, to), nil
	case Binary, Varbinary:
		switch x := v.(type) {
		case []byte:
			return fitBytes(x, to), nil
		case string:
			return fitBytes([]byte(x), to), nil
		}
	case Date:
		switch x := v.(type) {
		case time.Time:
			if from.Kind == TimestampLTZ {
				x = x.In(loc)
			}
			return time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, time.UTC), nil
		case string:
			return ParseDate(x)
		}
	case Time:
		switch x := v.(type) {
		case TimeOfDay:
			return truncTime(x, to.Precision), nil
		case time.Time:
			if from.Kind == TimestampLTZ {
				x = x.In(loc)
			}
			d := TimeOfDay(x.Hour())*TimeOfDay(time.Hour) + TimeOfDay(x.Minute())*TimeOfDay(time.Minute) +
				TimeOfDay(x.Second())*TimeOfDay(time.Second) + TimeOfDay(x.Nanosecond())
			return truncTime(d, to.Precision), nil
		case string:
			d, err := ParseTime(x)
			if err != nil {
				return nil, err
			}
			return truncTime(d, to.Precision), nil
		}
	case Timestamp, TimestampLTZ:
		return toTimestamp(v, from, to, loc)
	case IntervalDT:
		if d, ok := v.(time.Duration); ok {
			return d, nil
		}
		if n, ok := v.(int64); ok {
			return time.Duration(n) * time.Millisecond, nil
		}
	case IntervalYM:
		if m, ok := v.(Months); ok {
			return m, nil
		}
		if n, ok := v.(int64); ok {
			return Months(n), nil
		}
	case ArrayKind, MultisetKind:
		if a, ok := v.(Array); ok && to.Kind == ArrayKind {
			out := make(Array, len(a))
			for i, e := range a {
				c, err := Cast(e, elemOf(from), *to.Elem, loc)
				if err != nil {
					return nil, err
				}
				out[i] = c
			}
			return out, nil
		}
		if m, ok := v.(*Map); ok {
			return m, nil
		}
	case MapKind:
		if m, ok := v.(*Map); ok {
			out := &Map{}
			for i := range m.Keys {
				k, err := Cast(m.Keys[i], elemOf(from), *to.Elem, loc)
				if err != nil {
					return nil, err
				}
				val, err := Cast(m.Vals[i], valOf(from), *to.Val, loc)
				if err != nil {
					return nil, err
				}
				out.Put(k, val)
			}
			return out, nil
		}
	case RowKind:
		if r, ok := v.(Row); ok && len(r) == len(to.Fields) {
			out := make(Row, len(r))
			for i, x := range r {
				ft := Type{Kind: Raw}
				if i < len(from.Fields) {
					ft = from.Fields[i].Type
				}
				c, err := Cast(x, ft, to.Fields[i].Type, loc)
				if err != nil {
					return nil, err
				}
				out[i] = c
			}
			return out, nil
		}
	case Raw, Null:
		return v, nil
	}
	return nil, fmt.Errorf("%w %s %s to %s", ErrCast, goType(v), Guess(v, loc), to)
}

func elemOf(t Type) Type {
	if t.Elem != nil {
		return *t.Elem
	}
	return Type{Kind: Raw}
}

func valOf(t Type) Type {
	if t.Val != nil {
		return *t.Val
	}
	return Type{Kind: Raw}
}

// fitString pads a CHAR(n) with spaces and cuts a CHAR or VARCHAR to its length.
func fitString(s string, t Type) string {
	if t.Precision >= MaxLength || t.Precision <= 0 {
		return s
	}
	n := utf8.RuneCountInString(s)
	if n > t.Precision {
		return string([]rune(s)[:t.Precision])
	}
	if t.Kind == Char && n < t.Precision {
		return s + strings.Repeat(" ", t.Precision-n)
	}
	return s
}

func fitBytes(b []byte, t Type) []byte {
	if t.Precision >= MaxLength || t.Precision <= 0 {
		return b
	}
	if len(b) > t.Precision {
		return b[:t.Precision]
	}
	if t.Kind == Binary && len(b) < t.Precision {
		return append(append([]byte(nil), b...), make([]byte, t.Precision-len(b))...)
	}
	return b
}

func toBool(v any) (any, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case int64:
		return x != 0, nil
	case float64:
		return x != 0, nil
	case *big.Rat:
		return x.Sign() != 0, nil
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true", "t", "yes", "y", "1":
			return true, nil
		case "false", "f", "no", "n", "0":
			return false, nil
		}
		return nil, fmt.Errorf("%w '%s' to BOOLEAN", ErrCast, x)
	}
	return nil, fmt.Errorf("%w %s to BOOLEAN", ErrCast, goType(v))
}

// toInteger converts to an integer type as Java narrows: truncating
// fractions toward zero and wrapping to the type's width.
func toInteger(v any, t Type) (any, error) {
	var n int64
	switch x := v.(type) {
	case int64:
		n = x
	case bool:
		if x {
			n = 1
		}
	case float64:
		switch {
		case math.IsNaN(x):
			n = 0
		case x >= math.MaxInt64:
			n = math.MaxInt64
		case x <= math.MinInt64:
			n = math.MinInt64
		default:
			n = int64(x)
		}
		if t.Kind != BigInt {
			// Java casts a double to int through int, saturating at int's range.
			n = max(min(n, math.MaxInt32), math.MinInt32)
		}
	case *big.Rat:
		q := new(big.Int).Quo(x.Num(), x.Denom())
		if !q.IsInt64() {
			return nil, fmt.Errorf("%w %s to %s: out of range", ErrCast, x.FloatString(0), t)
		}
		n = q.Int64()
	case string:
		s := strings.TrimSpace(x)
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w '%s' to %s", ErrCast, x, t)
		}
		if lo, hi := IntRange(t); i < lo || i > hi {
			return nil, fmt.Errorf("%w '%s' to %s: out of range", ErrCast, x, t)
		}
		return i, nil
	case time.Time:
		return nil, fmt.Errorf("%w a timestamp to %s (use UNIX_TIMESTAMP or a TIMESTAMP_LTZ)", ErrCast, t)
	default:
		return nil, fmt.Errorf("%w %s to %s", ErrCast, goType(v), t)
	}
	return Wrap(n, t), nil
}

// IntRange is the range of an integer type.
func IntRange(t Type) (int64, int64) {
	switch t.Kind {
	case TinyInt:
		return math.MinInt8, math.MaxInt8
	case SmallInt:
		return math.MinInt16, math.MaxInt16
	case Int:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// Wrap narrows n to the width of integer type t, as Java's arithmetic does.
func Wrap(n int64, t Type) int64 {
	switch t.Kind {
	case TinyInt:
		return int64(int8(n))
	case SmallInt:
		return int64(int16(n))
	case Int:
		return int64(int32(n))
	}
	return n
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
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return 0, fmt.Errorf("%w '%s' to DOUBLE", ErrCast, x)
		}
		return f, nil
	}
	return 0, fmt.Errorf("%w %s to DOUBLE", ErrCast, goType(v))
}

// ToFloat is a number as a DOUBLE.
func ToFloat(v any) (float64, error) { return toFloat(v) }

func toRat(v any) (*big.Rat, error) {
	switch x := v.(type) {
	case *big.Rat:
		return x, nil
	case int64:
		return new(big.Rat).SetInt64(x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%w %v to DECIMAL", ErrCast, x)
		}
		// BigDecimal.valueOf(double): the shortest text that reads back.
		r, _ := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
		return r, nil
	case bool:
		if x {
			return big.NewRat(1, 1), nil
		}
		return new(big.Rat), nil
	case string:
		r, ok := new(big.Rat).SetString(strings.TrimSpace(x))
		if !ok || strings.ContainsAny(x, "/") {
			return nil, fmt.Errorf("%w '%s' to DECIMAL", ErrCast, x)
		}
		return r, nil
	}
	return nil, fmt.Errorf("%w %s to DECIMAL", ErrCast, goType(v))
}

// ToRat is a number as an exact rational.
func ToRat(v any) (*big.Rat, error) { return toRat(v) }

// Round rounds r half up to DECIMAL type t's scale; a value with more
// integer digits than t allows is NULL, as Flink's decimals overflow.
func Round(r *big.Rat, t Type) any {
	scale := pow10(t.Scale)
	if new(big.Int).Rem(scale, r.Denom()).Sign() == 0 {
		// r has at most scale decimals already: only its size is checked.
		if t.Precision > 0 {
			n := new(big.Int).Mul(new(big.Int).Abs(r.Num()), scale)
			if n.Cmp(new(big.Int).Mul(pow10(t.Precision), r.Denom())) >= 0 {
				return nil
			}
		}
		return r
	}
	// r × 10^scale, rounded half away from zero (Java's HALF_UP).
	num := new(big.Int).Mul(r.Num(), scale)
	q, m := new(big.Int).QuoRem(num, r.Denom(), new(big.Int))
	if m.Sign() != 0 {
		twice := new(big.Int).Abs(m)
		twice.Lsh(twice, 1)
		if twice.Cmp(r.Denom()) >= 0 {
			if num.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
	}
	if t.Precision > 0 && new(big.Int).Abs(q).Cmp(pow10(t.Precision)) >= 0 {
		return nil // more integer digits than the type has
	}
	return new(big.Rat).SetFrac(q, scale)
}

var pow10s [40]*big.Int

func init() {
	p := big.NewInt(1)
	for i := range pow10s {
		pow10s[i] = new(big.Int).Set(p)
		p.Mul(p, big.NewInt(10))
	}
}

// pow10 is 10^n.
func pow10(n int) *big.Int {
	if n >= 0 && n < len(pow10s) {
		return pow10s[n]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

func truncTime(d TimeOfDay, precision int) TimeOfDay {
	unit := TimeOfDay(math.Pow10(9 - min(precision, 3)))
	return d / unit * unit
}

// TruncTimestamp cuts a timestamp's fraction to precision digits.
func TruncTimestamp(ts time.Time, precision int) time.Time {
	if precision >= 9 {
		return ts
	}
	unit := int(math.Pow10(9 - precision))
	return ts.Add(-time.Duration(ts.Nanosecond() % unit))
}

func toTimestamp(v any, from, to Type, loc *time.Location) (any, error) {
	var ts time.Time
	switch x := v.(type) {
	case time.Time:
		ts = x
		switch {
		case from.Kind == Timestamp && to.Kind == TimestampLTZ:
			ts = time.Date(x.Year(), x.Month(), x.Day(), x.Hour(), x.Minute(), x.Second(), x.Nanosecond(), loc).UTC()
		case from.Kind == TimestampLTZ && to.Kind == Timestamp:
			l := x.In(loc)
			ts = time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
		case from.Kind == Date && to.Kind == TimestampLTZ:
			ts = time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, loc).UTC()
		}
	case string:
		t, err := ParseTimestamp(x)
		if err != nil {
			return nil, err
		}
		ts = t
		if to.Kind == TimestampLTZ {
			ts = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc).UTC()
		}
	case int64:
		if to.Kind != TimestampLTZ {
			return nil, fmt.Errorf("%w a number to TIMESTAMP (use TO_TIMESTAMP_LTZ)", ErrCast)
		}
		ts = time.Unix(x, 0).UTC()
	case TimeOfDay:
		ts = time.Date(1970, 1, 1, 0, 0, 0, int(x), time.UTC)
	default:
		return nil, fmt.Errorf("%w %s to %s", ErrCast, goType(v), to)
	}
	return TruncTimestamp(ts, to.Precision), nil
}

// ParseDate reads yyyy-[M]M-[d]d (and the date of a timestamp string), as
// Flink's CAST to DATE does.
func ParseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " T"); i > 0 {
		s = s[:i]
	}
	parts := strings.Split(s, "-")
	nums := []int{0, 1, 1}
	if len(parts) > 3 || parts[0] == "" {
		return time.Time{}, fmt.Errorf("%w '%s' to DATE", ErrCast, s)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return time.Time{}, fmt.Errorf("%w '%s' to DATE", ErrCast, s)
		}
		nums[i] = n
	}
	d := time.Date(nums[0], time.Month(nums[1]), nums[2], 0, 0, 0, 0, time.UTC)
	if d.Month() != time.Month(nums[1]) || d.Day() != nums[2] {
		return time.Time{}, fmt.Errorf("%w '%s' to DATE: no such day", ErrCast, s)
	}
	return d, nil
}

// ParseTime reads HH[:mm[:ss[.fff]]].
func ParseTime(s string) (TimeOfDay, error) {
	s = strings.TrimSpace(s)
	main, frac, _ := strings.Cut(s, ".")
	parts := strings.Split(main, ":")
	if len(parts) > 3 {
		return 0, fmt.Errorf("%w '%s' to TIME", ErrCast, s)
	}
	var hms [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%w '%s' to TIME", ErrCast, s)
		}
		hms[i] = n
	}
	if hms[0] > 23 || hms[1] > 59 || hms[2] > 59 {
		return 0, fmt.Errorf("%w '%s' to TIME: out of range", ErrCast, s)
	}
	ns, err := fractionNanos(frac)
	if err != nil {
		return 0, fmt.Errorf("%w '%s' to TIME", ErrCast, s)
	}
	return TimeOfDay(hms[0])*TimeOfDay(time.Hour) + TimeOfDay(hms[1])*TimeOfDay(time.Minute) +
		TimeOfDay(hms[2])*TimeOfDay(time.Second) + TimeOfDay(ns), nil
}

func fractionNanos(frac string) (int, error) {
	if frac == "" {
		return 0, nil
	}
	if len(frac) > 9 {
		frac = frac[:9]
	}
	n, err := strconv.Atoi(frac)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad fraction %q", frac)
	}
	for i := len(frac); i < 9; i++ {
		n *= 10
	}
	return n, nil
}

// ParseTimestamp reads yyyy-[M]M-[d]d[ [H]H:[m]m:[s]s[.fraction]], the
// form Flink's CAST from a string accepts; a date alone is its midnight.
func ParseTimestamp(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	datePart, timePart, hasTime := strings.Cut(s, " ")
	d, err := ParseDate(datePart)
	if err != nil || strings.Contains(datePart, "T") {
		return time.Time{}, fmt.Errorf("%w '%s' to TIMESTAMP", ErrCast, s)
	}
	if !hasTime {
		return d, nil
	}
	main, frac, _ := strings.Cut(strings.TrimSpace(timePart), ".")
	parts := strings.Split(main, ":")
	if len(parts) != 3 {
		return time.Time{}, fmt.Errorf("%w '%s' to TIMESTAMP", ErrCast, s)
	}
	var hms [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || len(p) > 2 {
			return time.Time{}, fmt.Errorf("%w '%s' to TIMESTAMP", ErrCast, s)
		}
		hms[i] = n
	}
	ns, err := fractionNanos(frac)
	if err != nil || hms[0] > 23 || hms[1] > 59 || hms[2] > 59 {
		return time.Time{}, fmt.Errorf("%w '%s' to TIMESTAMP", ErrCast, s)
	}
	return time.Date(d.Year(), d.Month(), d.Day(), hms[0], hms[1], hms[2], ns, time.UTC), nil
}

// ParseLenient reads a timestamp in the forms data files hold: Flink's
// SQL form, ISO-8601 with T and an optional zone (converted to UTC), or a
// date.
func ParseLenient(s string) (time.Time, error) {
	if t, err := ParseTimestamp(s); err == nil {
		return t, nil
	}
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02 15:04:05.999999999Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("'%s' is not a timestamp", s)
}
