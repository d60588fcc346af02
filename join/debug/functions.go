package debug

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/join"
)

// The built-in scalar functions of debug runs: Flink's common string,
// number, null-handling and time functions.

// function is a built-in scalar function.
type function struct {
	min, max int  // arguments; max -1: any number
	nulls    bool // sees NULL arguments (else NULL in gives NULL out)
	typ      join.Type
	typeOf   func([]join.Type) join.Type
	eval     func(env *evalEnv, args []any) (any, error)
}

var (
	tString = join.Type{Kind: join.KindString}
	tInt    = join.Type{Kind: join.KindInt}
	tFloat  = join.Type{Kind: join.KindFloat}
	tTS     = join.Type{Kind: join.KindTimestamp}
	tDate   = join.Type{Kind: join.KindDate}
	tBool   = join.Type{Kind: join.KindBool}
)

func firstType(ts []join.Type) join.Type {
	for _, t := range ts {
		if t.Kind != join.KindAny {
			return t
		}
	}
	return join.Type{}
}

var functions = map[string]function{
	"UPPER":            {1, 1, false, tString, nil, func(_ *evalEnv, a []any) (any, error) { return strings.ToUpper(str(a[0])), nil }},
	"LOWER":            {1, 1, false, tString, nil, func(_ *evalEnv, a []any) (any, error) { return strings.ToLower(str(a[0])), nil }},
	"CHAR_LENGTH":      {1, 1, false, tInt, nil, func(_ *evalEnv, a []any) (any, error) { return int64(len([]rune(str(a[0])))), nil }},
	"CHARACTER_LENGTH": {1, 1, false, tInt, nil, func(_ *evalEnv, a []any) (any, error) { return int64(len([]rune(str(a[0])))), nil }},
	"INITCAP": {1, 1, false, tString, nil, func(_ *evalEnv, a []any) (any, error) {
		rs := []rune(strings.ToLower(str(a[0])))
		for i := range rs {
			if i == 0 || !unicode.IsLetter(rs[i-1]) && !unicode.IsDigit(rs[i-1]) {
				rs[i] = unicode.ToUpper(rs[i])
			}
		}
		return string(rs), nil
	}},
	"CONCAT": {1, -1, false, tString, nil, func(_ *evalEnv, a []any) (any, error) {
		var b strings.Builder
		for _, v := range a {
			b.WriteString(str(v))
		}
		return b.String(), nil
	}},
	"CONCAT_WS": {2, -1, true, tString, nil, func(_ *evalEnv, a []any) (any, error) {
		if a[0] == nil {
			return nil, nil
		}
		var parts []string
		for _, v := range a[1:] {
			if v != nil {
				parts = append(parts, str(v))
			}
		}
		return strings.Join(parts, str(a[0])), nil
	}},
	"SUBSTRING": {2, 3, false, tString, nil, substring},
	"SUBSTR":    {2, 3, false, tString, nil, substring},
	"REPLACE": {3, 3, false, tString, nil, func(_ *evalEnv, a []any) (any, error) {
		return strings.ReplaceAll(str(a[0]), str(a[1]), str(a[2])), nil
	}},
	"POSITION": {2, 2, false, tInt, nil, func(_ *evalEnv, a []any) (any, error) {
		i := strings.Index(str(a[1]), str(a[0]))
		if i < 0 {
			return int64(0), nil
		}
		return int64(len([]rune(str(a[1])[:i])) + 1), nil
	}},
	"LPAD": {3, 3, false, tString, nil, func(_ *evalEnv, a []any) (any, error) { return pad(a, true) }},
	"RPAD": {3, 3, false, tString, nil, func(_ *evalEnv, a []any) (any, error) { return pad(a, false) }},
	"REGEXP_REPLACE": {3, 3, false, tString, nil, func(_ *evalEnv, a []any) (any, error) {
		re, err := regexp.Compile(str(a[1]))
		if err != nil {
			return nil, err
		}
		return re.ReplaceAllString(str(a[0]), str(a[2])), nil
	}},
	"REGEXP_EXTRACT": {2, 3, false, tString, nil, func(_ *evalEnv, a []any) (any, error) {
		re, err := regexp.Compile(str(a[1]))
		if err != nil {
			return nil, err
		}
		group := int64(0)
		if len(a) == 3 {
			if group, err = toInt(a[2]); err != nil {
				return nil, err
			}
		}
		m := re.FindStringSubmatch(str(a[0]))
		if m == nil || int(group) >= len(m) {
			return nil, nil
		}
		return m[group], nil
	}},
	"ABS": {1, 1, false, join.Type{}, firstType, func(_ *evalEnv, a []any) (any, error) {
		if c, err := compare(a[0], int64(0)); err != nil || c >= 0 {
			return a[0], err
		}
		return arith("-", int64(0), a[0])
	}},
	"MOD": {2, 2, false, join.Type{}, firstType, func(_ *evalEnv, a []any) (any, error) { return arith("%", a[0], a[1]) }},
	"POWER": {2, 2, false, tFloat, nil, func(_ *evalEnv, a []any) (any, error) {
		x, err1 := toFloat(a[0])
		y, err2 := toFloat(a[1])
		return math.Pow(x, y), errors.Join(err1, err2)
	}},
	"SQRT": {1, 1, false, tFloat, nil, func(_ *evalEnv, a []any) (any, error) {
		x, err := toFloat(a[0])
		return math.Sqrt(x), err
	}},
	"ROUND": {1, 2, false, join.Type{}, firstType, func(_ *evalEnv, a []any) (any, error) { return round(a, "ROUND") }},
	"FLOOR": {1, 1, false, join.Type{}, firstType, func(_ *evalEnv, a []any) (any, error) { return round(a, "FLOOR") }},
	"CEIL":  {1, 1, false, join.Type{}, firstType, func(_ *evalEnv, a []any) (any, error) { return round(a, "CEIL") }},
	"COALESCE": {1, -1, true, join.Type{}, firstType, func(_ *evalEnv, a []any) (any, error) {
		for _, v := range a {
			if v != nil {
				return v, nil
			}
		}
		return nil, nil
	}},
	"IFNULL": {2, 2, true, join.Type{}, firstType, func(_ *evalEnv, a []any) (any, error) {
		if a[0] != nil {
			return a[0], nil
		}
		return a[1], nil
	}},
	"NULLIF": {2, 2, true, join.Type{}, firstType, func(_ *evalEnv, a []any) (any, error) {
		if a[0] != nil && a[1] != nil {
			if c, err := compare(a[0], a[1]); err == nil && c == 0 {
				return nil, nil
			}
		}
		return a[0], nil
	}},
	"IF": {3, 3, true, join.Type{}, func(ts []join.Type) join.Type { return firstType(ts[1:]) }, func(_ *evalEnv, a []any) (any, error) {
		if a[0] == true {
			return a[1], nil
		}
		return a[2], nil
	}},
	"PROCTIME":          {0, 0, true, tTS, nil, func(env *evalEnv, _ []any) (any, error) { return env.now, nil }},
	"NOW":               {0, 0, true, tTS, nil, func(env *evalEnv, _ []any) (any, error) { return env.now, nil }},
	"CURRENT_TIMESTAMP": {0, 0, true, tTS, nil, func(env *evalEnv, _ []any) (any, error) { return env.now, nil }},
	"LOCALTIMESTAMP":    {0, 0, true, tTS, nil, func(env *evalEnv, _ []any) (any, error) { return env.now, nil }},
	"CURRENT_DATE": {0, 0, true, tDate, nil, func(env *evalEnv, _ []any) (any, error) {
		return time.Date(env.now.Year(), env.now.Month(), env.now.Day(), 0, 0, 0, 0, time.UTC), nil
	}},
	"UNIX_TIMESTAMP": {0, 2, false, tInt, nil, func(env *evalEnv, a []any) (any, error) {
		if len(a) == 0 {
			return env.now.Unix(), nil
		}
		t, err := parseTimeFormat(str(a[0]), a[1:])
		if err != nil {
			return nil, err
		}
		return t.Unix(), nil
	}},
	"FROM_UNIXTIME": {1, 2, false, tString, nil, func(_ *evalEnv, a []any) (any, error) {
		n, err := toInt(a[0])
		if err != nil {
			return nil, err
		}
		layout := "yyyy-MM-dd HH:mm:ss"
		if len(a) == 2 {
			layout = str(a[1])
		}
		return time.Unix(n, 0).UTC().Format(javaLayout(layout)), nil
	}},
	"TO_TIMESTAMP": {1, 2, false, tTS, nil, func(_ *evalEnv, a []any) (any, error) { return parseTimeFormat(str(a[0]), a[1:]) }},
	"TO_DATE": {1, 2, false, tDate, nil, func(_ *evalEnv, a []any) (any, error) {
		layout := []any{"yyyy-MM-dd"}
		if len(a) == 2 {
			layout = a[1:]
		}
		t, err := parseTimeFormat(str(a[0]), layout)
		return t, err
	}},
	"TO_TIMESTAMP_LTZ": {2, 2, false, tTS, nil, func(_ *evalEnv, a []any) (any, error) {
		n, err := toInt(a[0])
		if err != nil {
			return nil, err
		}
		p, err := toInt(a[1])
		if err != nil {
			return nil, err
		}
		if p == 0 {
			return time.Unix(n, 0).UTC(), nil
		}
		return time.UnixMilli(n).UTC(), nil
	}},
	"DATE_FORMAT": {2, 2, false, tString, nil, func(_ *evalEnv, a []any) (any, error) {
		t, err := join.ParseTime(a[0])
		if err != nil {
			return nil, err
		}
		return t.Format(javaLayout(str(a[1]))), nil
	}},
	"YEAR":       {1, 1, false, tInt, nil, func(_ *evalEnv, a []any) (any, error) { return extractOf("YEAR", a[0]) }},
	"MONTH":      {1, 1, false, tInt, nil, func(_ *evalEnv, a []any) (any, error) { return extractOf("MONTH", a[0]) }},
	"DAYOFMONTH": {1, 1, false, tInt, nil, func(_ *evalEnv, a []any) (any, error) { return extractOf("DAY", a[0]) }},
	"HOUR":       {1, 1, false, tInt, nil, func(_ *evalEnv, a []any) (any, error) { return extractOf("HOUR", a[0]) }},
	"MINUTE":     {1, 1, false, tInt, nil, func(_ *evalEnv, a []any) (any, error) { return extractOf("MINUTE", a[0]) }},
	"SECOND":     {1, 1, false, tInt, nil, func(_ *evalEnv, a []any) (any, error) { return extractOf("SECOND", a[0]) }},
	"IS_ALPHA": {1, 1, false, tBool, nil, func(_ *evalEnv, a []any) (any, error) {
		s := str(a[0])
		return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) < 0, nil
	}},
	"IS_DIGIT": {1, 1, false, tBool, nil, func(_ *evalEnv, a []any) (any, error) {
		s := str(a[0])
		return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) < 0, nil
	}},
}

func toInt(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case float64:
		return int64(x), nil
	case *big.Rat:
		return new(big.Int).Quo(x.Num(), x.Denom()).Int64(), nil
	case string:
		return strconv.ParseInt(strings.TrimSpace(x), 10, 64)
	}
	return 0, fmt.Errorf("%T %v is not an integer", v, v)
}

func substring(_ *evalEnv, a []any) (any, error) {
	rs := []rune(str(a[0]))
	from, err := toInt(a[1])
	if err != nil {
		return nil, err
	}
	start := int(from) - 1 // 1-based
	if from <= 0 {
		start = 0
	}
	end := len(rs)
	if len(a) == 3 {
		n, err := toInt(a[2])
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, errors.New("negative length")
		}
		end = min(len(rs), start+int(n))
	}
	if start >= len(rs) || start >= end {
		return "", nil
	}
	return string(rs[start:end]), nil
}

func pad(a []any, left bool) (any, error) {
	s, n, fill := []rune(str(a[0])), a[1], []rune(str(a[2]))
	width, err := toInt(n)
	if err != nil {
		return nil, err
	}
	if width < 0 {
		return nil, nil
	}
	if int(width) <= len(s) {
		return string(s[:width]), nil
	}
	if len(fill) == 0 {
		return string(s), nil
	}
	var p []rune
	for len(p) < int(width)-len(s) {
		p = append(p, fill[len(p)%len(fill)])
	}
	if left {
		return string(p) + string(s), nil
	}
	return string(s) + string(p), nil
}

func round(a []any, how string) (any, error) {
	digits := int64(0)
	if len(a) == 2 {
		d, err := toInt(a[1])
		if err != nil {
			return nil, err
		}
		digits = d
	}
	switch x := a[0].(type) {
	case int64:
		return x, nil
	case float64:
		p := math.Pow(10, float64(digits))
		switch how {
		case "FLOOR":
			return math.Floor(x), nil
		case "CEIL":
			return math.Ceil(x), nil
		}
		return math.Round(x*p) / p, nil
	case *big.Rat:
		switch how {
		case "FLOOR", "CEIL":
			q := new(big.Int).Quo(x.Num(), x.Denom()) // towards zero
			r := new(big.Rat).SetInt(q)
			if how == "FLOOR" && x.Sign() < 0 && r.Cmp(x) != 0 {
				r.Sub(r, big.NewRat(1, 1))
			}
			if how == "CEIL" && x.Sign() > 0 && r.Cmp(x) != 0 {
				r.Add(r, big.NewRat(1, 1))
			}
			return r, nil
		}
		r, _ := new(big.Rat).SetString(x.FloatString(int(max(digits, 0))))
		return r, nil
	}
	return nil, fmt.Errorf("%T is not a number", a[0])
}

func extractOf(unit string, v any) (any, error) {
	t, err := join.ParseTime(v)
	if err != nil {
		return nil, err
	}
	return extract(unit, t)
}

func extract(unit string, t time.Time) (any, error) {
	switch strings.ToUpper(unit) {
	case "YEAR":
		return int64(t.Year()), nil
	case "QUARTER":
		return int64((t.Month()-1)/3 + 1), nil
	case "MONTH":
		return int64(t.Month()), nil
	case "WEEK":
		_, w := t.ISOWeek()
		return int64(w), nil
	case "DAY", "DAYOFMONTH":
		return int64(t.Day()), nil
	case "DOW", "DAYOFWEEK":
		return int64(t.Weekday()) + 1, nil
	case "DOY", "DAYOFYEAR":
		return int64(t.YearDay()), nil
	case "HOUR":
		return int64(t.Hour()), nil
	case "MINUTE":
		return int64(t.Minute()), nil
	case "SECOND":
		return int64(t.Second()), nil
	case "MILLISECOND":
		return int64(t.Nanosecond() / 1e6), nil
	case "EPOCH":
		return t.Unix(), nil
	}
	return nil, fmt.Errorf("EXTRACT(%s): unknown unit", unit)
}

// javaLayout turns a Java SimpleDateFormat pattern, as Flink's time
// functions take, into a Go layout.
func javaLayout(p string) string {
	r := strings.NewReplacer("yyyy", "2006", "yy", "06", "MM", "01", "dd", "02", "HH", "15", "hh", "03",
		"mm", "04", "ss", "05", "SSS", "000", "a", "PM", "EEE", "Mon", "XXX", "Z07:00", "Z", "-0700", "'T'", "T")
	return r.Replace(p)
}

func parseTimeFormat(s string, layout []any) (time.Time, error) {
	if len(layout) == 0 || layout[0] == nil {
		return join.ParseTime(s)
	}
	t, err := time.Parse(javaLayout(str(layout[0])), s)
	if err != nil {
		return time.Time{}, err
	}
	return t.UTC(), nil
}

func (s scope) call(x *flinksql.FuncCall) (evalFn, join.Type, error) {
	if x.Over != nil || x.OverRef != nil || x.Filter != nil || x.Distinct {
		return nil, join.Type{}, compileError(x, "%s: aggregations and OVER windows are out of scope for debug runs", x.FuncName())
	}
	return s.callNamed(x, x.FuncName(), x.Args)
}

// aggregates are refused by name: a debug run does not aggregate.
var aggregates = map[string]bool{"COUNT": true, "SUM": true, "AVG": true, "MIN": true, "MAX": true, "LISTAGG": true,
	"COLLECT": true, "FIRST_VALUE": true, "LAST_VALUE": true, "STDDEV_POP": true, "STDDEV_SAMP": true, "VAR_POP": true,
	"VAR_SAMP": true, "ROW_NUMBER": true, "RANK": true, "DENSE_RANK": true, "LEAD": true, "LAG": true,
	"TUMBLE": true, "HOP": true, "SESSION": true, "CUMULATE": true, "TUMBLE_START": true, "TUMBLE_END": true}

func (s scope) callNamed(at flinksql.Node, name string, argExprs []flinksql.Expr) (evalFn, join.Type, error) {
	if aggregates[name] {
		return nil, join.Type{}, compileError(at, "%s: aggregations and windows are out of scope for debug runs", name)
	}
	args, err := s.compileAll(argExprs)
	if err != nil {
		return nil, join.Type{}, err
	}
	types := make([]join.Type, len(argExprs))
	for i, a := range argExprs {
		_, types[i], _ = s.compile(a)
	}
	fn, ok := functions[name]
	if !ok {
		return nil, join.Type{}, compileError(at, "function %s is not supported in debug runs", name)
	}
	if len(args) < fn.min || fn.max >= 0 && len(args) > fn.max {
		return nil, join.Type{}, compileError(at, "%s takes %s arguments, not %d", name, arity(fn.min, fn.max), len(args))
	}
	t := fn.typ
	if fn.typeOf != nil {
		t = fn.typeOf(types)
	}
	return func(env *evalEnv, row join.Row) (any, error) {
		vals := make([]any, len(args))
		for i, a := range args {
			v, err := a(env, row)
			if err != nil {
				return nil, err
			}
			if v == nil && !fn.nulls {
				return nil, nil // NULL in, NULL out
			}
			vals[i] = v
		}
		v, err := fn.eval(env, vals)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return v, nil
	}, t, nil
}

func arity(lo, hi int) string {
	switch {
	case hi < 0:
		return fmt.Sprintf("at least %d", lo)
	case lo == hi:
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}
