package value

import (
	"encoding/hex"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"time"
)

// String is v as CAST(v AS STRING) gives it in Flink 1.15 and later, for a
// value of type t; TIMESTAMP_LTZ is written in loc (the session time zone,
// UTC when nil). NULL is "NULL", as inside a ROW or an ARRAY.
func String(v any, t Type, loc *time.Location) string {
	if v == nil {
		return "NULL"
	}
	switch t.Kind {
	case Boolean:
		if v == true {
			return "TRUE"
		}
		return "FALSE"
	case TinyInt, SmallInt, Int, BigInt:
		if n, ok := v.(int64); ok {
			return strconv.FormatInt(n, 10)
		}
	case Float:
		if f, ok := v.(float64); ok {
			return JavaFloat(f, 32)
		}
	case Double:
		if f, ok := v.(float64); ok {
			return JavaFloat(f, 64)
		}
	case Decimal:
		if r, ok := v.(*big.Rat); ok {
			return DecimalString(r, t.Scale)
		}
	case Char, Varchar:
		if s, ok := v.(string); ok {
			return s
		}
	case Binary, Varbinary:
		if b, ok := v.([]byte); ok {
			return strings.ToValidUTF8(string(b), "\uFFFD")
		}
	case Date:
		if d, ok := v.(time.Time); ok {
			return d.Format("2006-01-02")
		}
	case Time:
		if d, ok := v.(TimeOfDay); ok {
			return formatTime(d, t.Precision)
		}
	case Timestamp:
		if ts, ok := v.(time.Time); ok {
			return formatTimestamp(ts.UTC(), t.Precision)
		}
	case TimestampLTZ:
		if ts, ok := v.(time.Time); ok {
			if loc == nil {
				loc = time.UTC
			}
			return formatTimestamp(ts.In(loc), t.Precision)
		}
	case IntervalYM:
		if m, ok := v.(Months); ok {
			return formatMonths(m)
		}
	case IntervalDT:
		if d, ok := v.(time.Duration); ok {
			return formatDayTime(d)
		}
	case ArrayKind:
		if a, ok := v.(Array); ok {
			return "[" + joinValues(a, *t.Elem, loc) + "]"
		}
	case RowKind:
		if r, ok := v.(Row); ok {
			parts := make([]string, len(r))
			for i, x := range r {
				ft := Type{Kind: Raw}
				if i < len(t.Fields) {
					ft = t.Fields[i].Type
				}
				parts[i] = String(x, ft, loc)
			}
			return "(" + strings.Join(parts, ", ") + ")"
		}
	case MapKind, MultisetKind:
		if m, ok := v.(*Map); ok {
			vt := TBigInt
			if t.Val != nil {
				vt = *t.Val
			}
			parts := make([]string, len(m.Keys))
			for i := range m.Keys {
				parts[i] = String(m.Keys[i], *t.Elem, loc) + "=" + String(m.Vals[i], vt, loc)
			}
			return "{" + strings.Join(parts, ", ") + "}"
		}
	}
	return Guess(v, loc)
}

// Guess writes a value whose type is not known by its Go type.
func Guess(v any, loc *time.Location) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case bool:
		return String(x, TBool, loc)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return JavaFloat(x, 64)
	case *big.Rat:
		return ratString(x)
	case string:
		return x
	case []byte:
		return String(x, TBytes, loc)
	case time.Time:
		return formatTimestamp(x.UTC(), 3)
	case TimeOfDay:
		return formatTime(x, 0)
	case time.Duration:
		return formatDayTime(x)
	case Months:
		return formatMonths(x)
	case Array:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = Guess(e, loc)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case Row:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = Guess(e, loc)
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case *Map:
		parts := make([]string, len(x.Keys))
		for i := range x.Keys {
			parts[i] = Guess(x.Keys[i], loc) + "=" + Guess(x.Vals[i], loc)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "?"
}

// Print is v as Flink's SQL client prints a value of type t: as String,
// but BINARY and VARBINARY as x'…' hex.
func Print(v any, t Type, loc *time.Location) string {
	if b, ok := v.([]byte); ok && (t.Kind == Binary || t.Kind == Varbinary) {
		return "x'" + hex.EncodeToString(b) + "'"
	}
	return String(v, t, loc)
}

func joinValues(a []any, t Type, loc *time.Location) string {
	parts := make([]string, len(a))
	for i, x := range a {
		parts[i] = String(x, t, loc)
	}
	return strings.Join(parts, ", ")
}

// ratString writes a decimal with as many digits as it needs.
func ratString(r *big.Rat) string {
	for scale := 0; scale <= 18; scale++ {
		s := r.FloatString(scale)
		if back, ok := new(big.Rat).SetString(s); ok && back.Cmp(r) == 0 {
			return s
		}
	}
	return r.FloatString(18)
}

// formatTimestamp writes yyyy-MM-dd HH:mm:ss and the fraction: at least
// precision digits, more when the value has more that are not zero (Flink's
// DateTimeUtils.formatTimestamp).
func formatTimestamp(ts time.Time, precision int) string {
	// Appended to a stack buffer: sinks print every row's timestamps.
	var buf [40]byte
	b := buf[:0]
	y := ts.Year()
	if y < 0 {
		b = append(b, '-')
		y = -y
	}
	_, month, day := ts.Date()
	hour, minute, sec := ts.Clock()
	b = appendPad(b, y, 4)
	b = append(b, '-')
	b = appendPad(b, int(month), 2)
	b = append(b, '-')
	b = appendPad(b, day, 2)
	b = append(b, ' ')
	b = appendPad(b, hour, 2)
	b = append(b, ':')
	b = appendPad(b, minute, 2)
	b = append(b, ':')
	b = appendPad(b, sec, 2)
	var fb [9]byte
	ns := ts.Nanosecond()
	for i := 8; i >= 0; i-- {
		fb[i] = byte('0' + ns%10)
		ns /= 10
	}
	frac := fb[:]
	for len(frac) > precision && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	if len(frac) > 0 {
		b = append(b, '.')
		b = append(b, frac...)
	}
	return string(b)
}

// appendPad appends n (not negative) with at least width digits.
func appendPad(b []byte, n, width int) []byte {
	var d [20]byte
	s := strconv.AppendInt(d[:0], int64(n), 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// formatTime writes HH:mm:ss and, for a TIME with a precision, a fraction
// of at most that many digits that stops at its last non-zero digit but
// keeps one (Flink's formatTimestampMillis, kept like Timestamp.toString).
func formatTime(t TimeOfDay, precision int) string {
	var b strings.Builder
	ms := int64(t) / 1e6
	for ms < 0 {
		ms += 86400000
	}
	pad(&b, int(ms/3600000), 2)
	b.WriteByte(':')
	pad(&b, int(ms/60000%60), 2)
	b.WriteByte(':')
	pad(&b, int(ms/1000%60), 2)
	frac := ms % 1000
	if precision > 0 {
		b.WriteByte('.')
		for precision > 0 {
			b.WriteByte(byte('0' + frac/100))
			frac = frac % 100 * 10
			if frac == 0 {
				break
			}
			precision--
		}
	}
	return b.String()
}

func pad(b *strings.Builder, n, width int) {
	s := strconv.Itoa(n)
	for i := len(s); i < width; i++ {
		b.WriteByte('0')
	}
	b.WriteString(s)
}

// formatMonths writes +Y-MM.
func formatMonths(m Months) string {
	sign := "+"
	if m < 0 {
		sign, m = "-", -m
	}
	var b strings.Builder
	b.WriteString(sign)
	b.WriteString(strconv.FormatInt(int64(m/12), 10))
	b.WriteByte('-')
	pad(&b, int(m%12), 2)
	return b.String()
}

// formatDayTime writes +D HH:mm:ss.SSS.
func formatDayTime(d time.Duration) string {
	sign := "+"
	ms := d.Milliseconds()
	if ms < 0 {
		sign, ms = "-", -ms
	}
	var b strings.Builder
	b.WriteString(sign)
	b.WriteString(strconv.FormatInt(ms/86400000, 10))
	b.WriteByte(' ')
	pad(&b, int(ms/3600000%24), 2)
	b.WriteByte(':')
	pad(&b, int(ms/60000%60), 2)
	b.WriteByte(':')
	pad(&b, int(ms/1000%60), 2)
	b.WriteByte('.')
	pad(&b, int(ms%1000), 3)
	return b.String()
}

// JavaFloat writes f as Java's Double.toString (bits 64) or Float.toString
// (bits 32) does: the shortest digits that read back as f, plain between
// 10^-3 and 10^7 with at least one fraction digit ("7.0"), else in
// computerized scientific notation ("1.0E7", "1.234E-5").
func JavaFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, bits) // d.ddde±XX
	mant, expPart, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expPart)
	digits := strings.Replace(mant, ".", "", 1)
	if f >= 1e-3 && f < 1e7 {
		if exp >= 0 {
			for len(digits) <= exp {
				digits += "0"
			}
			frac := digits[exp+1:]
			if frac == "" {
				frac = "0"
			}
			return sign + digits[:exp+1] + "." + frac
		}
		return sign + "0." + strings.Repeat("0", -exp-1) + digits
	}
	frac := digits[1:]
	if frac == "" {
		frac = "0"
	}
	return sign + digits[:1] + "." + frac + "E" + strconv.Itoa(exp)
}

// DecimalString is r with scale decimals, as r.FloatString(scale) writes
// it, without big.Rat's division when r is exact at that scale and fits
// in 64 bits (what a DECIMAL column holds): sinks write every row's.
func DecimalString(r *big.Rat, scale int) string {
	if scale < 0 || scale > 18 || !r.Num().IsInt64() || !r.Denom().IsInt64() {
		return r.FloatString(scale)
	}
	p := uint64(1)
	for range scale {
		p *= 10
	}
	d := uint64(r.Denom().Int64())
	if p%d != 0 {
		return r.FloatString(scale)
	}
	n := r.Num().Int64()
	u := uint64(n)
	if n < 0 {
		u = uint64(-n)
	}
	hi, unscaled := bits.Mul64(u, p/d)
	if hi != 0 {
		return r.FloatString(scale)
	}
	var buf [48]byte
	digits := strconv.AppendUint(buf[:0], unscaled, 10)
	out := make([]byte, 0, len(digits)+scale+3)
	if n < 0 {
		out = append(out, '-')
	}
	for i := len(digits); i <= scale; i++ {
		digits = append([]byte{'0'}, digits...)
	}
	out = append(out, digits[:len(digits)-scale]...)
	if scale > 0 {
		out = append(out, '.')
		out = append(out, digits[len(digits)-scale:]...)
	}
	return string(out)
}
