package format

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/palink/palink/join/debug/value"
)

// Flink's json formats read a JSON number through Jackson's number nodes
// (JsonToRowDataConverters): what a number becomes in a column depends on
// the node, not on its text alone.
//
//   - INT and BIGINT: a node that canConvertToInt/Long (its value within
//     the type's range, fraction or exponent or not) is read with
//     asInt/asLong, truncated toward zero: 3.7 is 3, 1e3 is 1000. Any
//     other is parsed from its text, which fails ("For input string").
//     TINYINT and SMALLINT are always parsed from the text: 3.7 fails.
//   - STRING: the node's toString(). An integer is its digits; a number
//     with a fraction or an exponent is a double (Java's Double.toString:
//     1e3 is "1000.0"), or, where the table has a DECIMAL column and Flink
//     turns USE_BIG_DECIMAL_FOR_FLOATS on, a BigDecimal with its trailing
//     zeros stripped (Jackson's default): 1e3 is "1E+3", 3.70 is "3.7".
//   - Everything else as from the number's text.

// numberConverter is a column's converter from a JSON number as written
// (nil for the types that are not scalars); bigFloats: the table has a
// DECIMAL column somewhere.
func numberConverter(t value.Type, iso, bigFloats bool) func(string) (any, error) {
	fromText := textConverter(t, iso)
	switch {
	case fromText == nil:
		return nil
	case t.Kind == value.Int || t.Kind == value.BigInt:
		lo, hi := value.IntRange(t)
		return func(s string) (any, error) {
			if n, ok := truncated(s, lo, hi); ok {
				return n, nil
			}
			return fromText(nodeText(s, bigFloats))
		}
	case t.Kind == value.Char || t.Kind == value.Varchar:
		return func(s string) (any, error) { return nodeText(s, bigFloats), nil }
	case t.Kind == value.Float || t.Kind == value.Double || t.Kind == value.Decimal:
		return fromText // every JSON number parses, to the same value
	}
	// The rest parse the node's asText(), which is the number's own text
	// but for floats (a failure then quotes what Java does).
	return func(s string) (any, error) { return fromText(nodeText(s, bigFloats)) }
}

// isFloatText reports whether a JSON number is written with a fraction or
// an exponent (Jackson reads it as a double or a BigDecimal).
func isFloatText(s string) bool { return strings.ContainsAny(s, ".eE") }

// truncated is Jackson's canConvertToInt/Long and asInt/asLong of the
// number s: its value truncated toward zero, when within [lo, hi].
func truncated(s string, lo, hi int64) (int64, bool) {
	if !isFloatText(s) {
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil && n >= lo && n <= hi
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.Cmp(new(big.Rat).SetInt64(lo)) < 0 || r.Cmp(new(big.Rat).SetInt64(hi)) > 0 {
		return 0, false
	}
	return new(big.Int).Quo(r.Num(), r.Denom()).Int64(), true
}

// nodeText is the toString() of the Jackson node a JSON number s is read
// into.
func nodeText(s string, bigFloats bool) string {
	switch {
	case s == "-0":
		return "0" // an IntNode; JSON has no other leading zeros
	case !isFloatText(s):
		return s
	case bigFloats:
		return bigDecimalText(s)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return javaDouble(f)
}

// javaDouble is Java's Double.toString: plain between 10^-3 and 10^7,
// else computerized scientific notation, always with a fraction digit
// (1000.0, 1.0E7, 1.0E-4).
func javaDouble(f float64) string {
	if a := max(f, -f); f == 0 || a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'E', -1, 64) // 1E+07, 1.5E-05
	m, e, _ := strings.Cut(s, "E")
	if !strings.Contains(m, ".") {
		m += ".0"
	}
	exp, _ := strconv.Atoi(e)
	return m + "E" + strconv.Itoa(exp)
}

// bigDecimalText is BigDecimal.toString of the number s with its trailing
// zeros stripped: plain when its scale is not negative and its adjusted
// exponent at least -6, else scientific (1E+3, 1.5E-7).
func bigDecimalText(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return s
		}
		exp = e
	}
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	scale := len(frac) - exp
	trimmed := strings.TrimRight(digits, "0")
	scale -= len(digits) - len(trimmed)
	digits = trimmed
	if digits == "" {
		return "0" // Jackson's DecimalNode.ZERO
	}
	sign := ""
	if neg {
		sign = "-"
	}
	adjusted := -scale + len(digits) - 1
	if scale >= 0 && adjusted >= -6 {
		if scale == 0 {
			return sign + digits
		}
		if pad := scale - len(digits); pad >= 0 {
			return sign + "0." + strings.Repeat("0", pad) + digits
		}
		return sign + digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	out := sign + digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	if adjusted >= 0 {
		return out + "E+" + strconv.Itoa(adjusted)
	}
	return out + "E" + strconv.Itoa(adjusted)
}

// hasDecimal reports whether t is or holds a DECIMAL.
func hasDecimal(t value.Type) bool {
	if t.Kind == value.Decimal {
		return true
	}
	for _, f := range t.Fields {
		if hasDecimal(f.Type) {
			return true
		}
	}
	return t.Elem != nil && hasDecimal(*t.Elem) || t.Val != nil && hasDecimal(*t.Val)
}

// tableHasDecimal reports whether any column of cols is or holds a DECIMAL
// (Flink then reads every float of the table's JSON as a BigDecimal).
func tableHasDecimal(cols []Column) bool {
	for _, c := range cols {
		if hasDecimal(c.Type) {
			return true
		}
	}
	return false
}
