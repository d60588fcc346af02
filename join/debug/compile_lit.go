package debug

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/value"
)

// The literals of the expression compiler.

// number is a numeric literal: INT or BIGINT, an exact DECIMAL, or DOUBLE.
func number(x *ast.NumberLit) (evalFn, value.Type, error) {
	switch x.Kind {
	case ast.NumInteger:
		n, err := strconv.ParseInt(x.Text, 10, 64)
		if err != nil {
			r, ok := new(big.Rat).SetString(x.Text)
			if !ok {
				return nil, value.Type{}, errorAt(x, "bad number %s", x.Text)
			}
			return constant(r), value.Dec(len(x.Text), 0), nil
		}
		t := value.Type{Kind: value.Int, NotNull: true}
		if n > 2147483647 {
			t.Kind = value.BigInt
		}
		return constant(n), t, nil
	case ast.NumDecimal:
		r, ok := new(big.Rat).SetString(x.Text)
		if !ok {
			return nil, value.Type{}, errorAt(x, "bad number %s", x.Text)
		}
		scale := 0
		if i := strings.IndexByte(x.Text, '.'); i >= 0 {
			scale = len(x.Text) - i - 1
		}
		digits := len(strings.TrimLeft(strings.Replace(x.Text, ".", "", 1), "0"))
		return constant(r), value.Type{Kind: value.Decimal, Precision: max(digits, scale, 1), Scale: scale, NotNull: true}, nil
	}
	f, err := strconv.ParseFloat(x.Text, 64)
	if err != nil {
		return nil, value.Type{}, errorAt(x, "bad number %s", x.Text)
	}
	return constant(f), value.Type{Kind: value.Double, NotNull: true}, nil
}

func binaryLit(x *ast.BinaryLit) (evalFn, value.Type, error) {
	b := make([]byte, len(x.Hex)/2)
	for i := range b {
		n, err := strconv.ParseUint(x.Hex[2*i:2*i+2], 16, 8)
		if err != nil {
			return nil, value.Type{}, errorAt(x, "bad binary literal X'%s'", x.Hex)
		}
		b[i] = byte(n)
	}
	return constant(b), value.Type{Kind: value.Binary, Precision: len(b), NotNull: true}, nil
}

// typedLit is DATE '…', TIME '…', TIMESTAMP '…' or TIMESTAMP_LTZ '…'.
func (c *compiler) typedLit(x *ast.TypedLit) (evalFn, value.Type, error) {
	var t value.Type
	s := x.Value.Value
	switch x.Type {
	case "DATE":
		t = value.TDate
	case "TIME":
		p := 0
		if i := strings.IndexByte(s, '.'); i >= 0 {
			p = min(len(s)-i-1, 3)
		}
		t = value.Type{Kind: value.Time, Precision: p}
	case "TIMESTAMP", "TIMESTAMP_LTZ":
		p := 0
		if i := strings.IndexByte(s, '.'); i >= 0 {
			p = min(len(s)-i-1, 9)
		}
		t = value.TS(p)
		if x.Type == "TIMESTAMP_LTZ" {
			t = value.LTZ(p)
		}
	default:
		return nil, t, errorAt(x, "%s literals are not supported in debug runs", x.Type)
	}
	v, err := value.Cast(s, value.TString, t, c.rt.zone)
	if err != nil {
		return nil, t, errorAt(x, "%s '%s': %v", x.Type, s, err)
	}
	t.NotNull = true
	return constant(v), t, nil
}

// intervalLit is INTERVAL '5' MINUTE, '1:30' HOUR TO MINUTE, '1-2' YEAR TO
// MONTH, '1 02:03:04.5' DAY TO SECOND.
func intervalLit(x *ast.IntervalLit) (evalFn, value.Type, error) {
	var text string
	switch v := x.Value.(type) {
	case *ast.StringLit:
		text = v.Value
	case *ast.NumberLit:
		text = v.Text
	}
	q := x.Qualifier
	from := strings.TrimSuffix(q.From, "S")
	to := strings.TrimSuffix(q.To, "S")
	neg := x.Negative
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "-") {
		neg, text = !neg, text[1:]
	}
	t := value.IntervalType(from)
	if t.Kind == value.IntervalYM {
		var months int64
		switch {
		case to == "MONTH" && from == "YEAR":
			y, m, _ := strings.Cut(text, "-")
			yn, err1 := strconv.ParseInt(y, 10, 64)
			mn, err2 := strconv.ParseInt(m, 10, 64)
			if err1 != nil || err2 != nil {
				return nil, t, errorAt(x, "bad interval '%s' YEAR TO MONTH", text)
			}
			months = yn*12 + mn
		default:
			n, err := strconv.ParseInt(text, 10, 64)
			if err != nil {
				return nil, t, errorAt(x, "bad interval '%s' %s", text, q.From)
			}
			months = n
			switch from {
			case "YEAR":
				months *= 12
			case "QUARTER":
				months *= 3
			}
		}
		if neg {
			months = -months
		}
		t.NotNull = true
		return constant(value.Months(months)), t, nil
	}
	d, err := dayTime(text, from, to)
	if err != nil {
		return nil, t, errorAt(x, "bad interval '%s' %s: %v", text, q.From, err)
	}
	if neg {
		d = -d
	}
	t.NotNull = true
	return constant(d), t, nil
}

var unitDur = map[string]time.Duration{
	"WEEK": 7 * 24 * time.Hour, "DAY": 24 * time.Hour, "HOUR": time.Hour, "MINUTE": time.Minute,
	"SECOND": time.Second, "MILLISECOND": time.Millisecond, "MICROSECOND": time.Microsecond, "NANOSECOND": 1,
}

// dayTime reads the text of a DAY TO SECOND kind of interval: the fields
// from `from` to `to`, separated by space (days), colons and a point.
func dayTime(text, from, to string) (time.Duration, error) {
	if to == "" {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return 0, err
		}
		return time.Duration(f * float64(unitDur[from])).Round(time.Millisecond), nil
	}
	order := []string{"DAY", "HOUR", "MINUTE", "SECOND"}
	start, end := -1, -1
	for i, u := range order {
		if u == from {
			start = i
		}
		if u == to {
			end = i
		}
	}
	if start < 0 || end < start {
		return 0, fmt.Errorf("%s TO %s", from, to)
	}
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ':' })
	if len(fields) != end-start+1 {
		return 0, fmt.Errorf("want %d fields", end-start+1)
	}
	var d time.Duration
	for i, f := range fields {
		unit := order[start+i]
		if unit == "SECOND" {
			sec, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return 0, err
			}
			d += time.Duration(sec * float64(time.Second)).Round(time.Millisecond)
			continue
		}
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, err
		}
		d += time.Duration(n) * unitDur[unit]
	}
	return d, nil
}
