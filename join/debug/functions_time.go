package debug

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/value"
)

// Time functions, as Flink's built-ins. Processing time (PROCTIME(),
// CURRENT_TIMESTAMP, NOW()) is the run's simulated clock.

var (
	tTS3  = value.TS(3)
	tLTZ3 = value.LTZ(3)
	tDate = value.TDate
)

func init() {
	register(map[string]function{
		"PROCTIME":              {0, 0, true, fixed(tLTZ3), func(x *fnCtx, _ []any) (any, error) { return x.rt.clock(), nil }},
		"NOW":                   {0, 0, true, fixed(tLTZ3), func(x *fnCtx, _ []any) (any, error) { return x.rt.clock(), nil }},
		"CURRENT_TIMESTAMP":     {0, 0, true, fixed(tLTZ3), func(x *fnCtx, _ []any) (any, error) { return x.rt.clock(), nil }},
		"CURRENT_ROW_TIMESTAMP": {0, 0, true, fixed(tLTZ3), func(x *fnCtx, _ []any) (any, error) { return x.rt.clock(), nil }},
		"LOCALTIMESTAMP": {0, 0, true, fixed(tTS3), func(x *fnCtx, _ []any) (any, error) {
			return value.Cast(x.rt.clock(), tLTZ3, tTS3, x.rt.zone)
		}},
		"CURRENT_DATE": {0, 0, true, fixed(tDate), func(x *fnCtx, _ []any) (any, error) {
			return value.Cast(x.rt.clock(), tLTZ3, tDate, x.rt.zone)
		}},
		"CURRENT_TIME": {0, 0, true, fixed(value.Type{Kind: value.Time}), func(x *fnCtx, _ []any) (any, error) {
			return value.Cast(x.rt.clock(), tLTZ3, value.Type{Kind: value.Time}, x.rt.zone)
		}},
		"LOCALTIME": {0, 0, true, fixed(value.Type{Kind: value.Time}), func(x *fnCtx, _ []any) (any, error) {
			return value.Cast(x.rt.clock(), tLTZ3, value.Type{Kind: value.Time}, x.rt.zone)
		}},
		"UNIX_TIMESTAMP": {0, 2, false, fixed(tBig), func(x *fnCtx, a []any) (any, error) {
			if len(a) == 0 {
				return x.rt.clock().Unix(), nil
			}
			pattern := "yyyy-MM-dd HH:mm:ss"
			if len(a) == 2 {
				pattern = x.str(a, 1)
			}
			t, err := value.ParsePattern(x.str(a, 0), pattern)
			if err != nil {
				// Flink's DateTimeUtils.unixTimestamp returns Long.MIN_VALUE
				// itself for a string it cannot parse (not divided by 1000).
				return int64(math.MinInt64), nil
			}
			return wallIn(t, x.rt.zone).Unix(), nil
		}},
		"FROM_UNIXTIME": {1, 2, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			n, err := toInt(a[0])
			if err != nil {
				return nil, err
			}
			pattern := "yyyy-MM-dd HH:mm:ss"
			if len(a) == 2 {
				pattern = x.str(a, 1)
			}
			return value.FormatPattern(time.Unix(n, 0).In(x.rt.zone), pattern)
		}},
		"TO_TIMESTAMP": {1, 2, false, fixed(tTS3), func(x *fnCtx, a []any) (any, error) {
			if len(a) == 1 {
				t, err := value.ParseTimestamp(x.str(a, 0))
				if err != nil {
					return nil, nil
				}
				return value.TruncTimestamp(t, 3), nil
			}
			return toTimestamp(x.str(a, 0), x.str(a, 1)), nil
		}},
		"TO_DATE": {1, 2, false, fixed(tDate), func(x *fnCtx, a []any) (any, error) {
			if len(a) == 1 {
				d, err := value.ParseDate(x.str(a, 0))
				if err != nil {
					return nil, nil
				}
				return d, nil
			}
			t := toTimestamp(x.str(a, 0), x.str(a, 1))
			if t == nil {
				return nil, nil
			}
			ts := t.(time.Time)
			return time.Date(ts.Year(), ts.Month(), ts.Day(), 0, 0, 0, 0, time.UTC), nil
		}},
		"TO_TIMESTAMP_LTZ": {1, 2, false, fixed(tLTZ3), func(x *fnCtx, a []any) (any, error) {
			if s, ok := a[0].(string); ok {
				t, err := value.ParseTimestamp(s)
				if err != nil {
					return nil, nil
				}
				return wallIn(t, x.rt.zone), nil
			}
			p := int64(3)
			if len(a) == 2 {
				p, _ = toInt(a[1])
			}
			switch v := a[0].(type) {
			case float64:
				if p == 0 {
					return time.UnixMilli(int64(v * 1000)).UTC(), nil
				}
				return time.UnixMilli(int64(v)).UTC(), nil
			}
			n, err := toInt(a[0])
			if err != nil {
				return nil, err
			}
			switch p {
			case 0:
				return time.Unix(n, 0).UTC(), nil
			case 3:
				return time.UnixMilli(n).UTC(), nil
			}
			return nil, fmt.Errorf("The precision value '%d' for function TO_TIMESTAMP_LTZ(numeric, precision) is unsupported, the supported value is '0' for second or '3' for millisecond.", p)
		}},
		"DATE_FORMAT": {2, 2, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			var t time.Time
			switch v := a[0].(type) {
			case time.Time:
				t = v
				if x.types[0].Kind == value.TimestampLTZ {
					t = v.In(x.rt.zone)
				}
			case string:
				// A string is read as yyyy-MM-dd HH:mm:ss, as SimpleDateFormat does.
				p, err := value.ParsePattern(firstN(v, 19), "yyyy-MM-dd HH:mm:ss")
				if err != nil {
					return nil, nil
				}
				t = p
			default:
				return nil, fmt.Errorf("DATE_FORMAT of %s", x.types[0])
			}
			return value.FormatPattern(t, x.str(a, 1))
		}},
		"CONVERT_TZ": {3, 3, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			t, err := value.ParseTimestamp(x.str(a, 0))
			if err != nil {
				return nil, nil
			}
			from, err1 := time.LoadLocation(x.str(a, 1))
			to, err2 := time.LoadLocation(x.str(a, 2))
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("unknown time zone")
			}
			return value.FormatPattern(wallIn(t, from).In(to), "yyyy-MM-dd HH:mm:ss")
		}},
		"YEAR":       {1, 1, false, fixed(tBig), extractFn("YEAR")},
		"QUARTER":    {1, 1, false, fixed(tBig), extractFn("QUARTER")},
		"MONTH":      {1, 1, false, fixed(tBig), extractFn("MONTH")},
		"WEEK":       {1, 1, false, fixed(tBig), extractFn("WEEK")},
		"DAYOFYEAR":  {1, 1, false, fixed(tBig), extractFn("DOY")},
		"DAYOFMONTH": {1, 1, false, fixed(tBig), extractFn("DAY")},
		"DAYOFWEEK":  {1, 1, false, fixed(tBig), extractFn("DOW")},
		"HOUR":       {1, 1, false, fixed(tBig), extractFn("HOUR")},
		"MINUTE":     {1, 1, false, fixed(tBig), extractFn("MINUTE")},
		"SECOND":     {1, 1, false, fixed(tBig), extractFn("SECOND")},
		"LAST_DAY": {1, 1, false, fixed(tDate), func(x *fnCtx, a []any) (any, error) {
			t, ok := a[0].(time.Time)
			if !ok {
				return nil, nil
			}
			return time.Date(t.Year(), t.Month()+1, 0, 0, 0, 0, 0, time.UTC), nil
		}},
	})
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// wallIn is the instant at which a wall clock reads t in loc.
func wallIn(t time.Time, loc *time.Location) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc).UTC()
}

// toTimestamp is TO_TIMESTAMP(s, pattern): NULL when s does not match,
// after Flink's fallback to yyyy-M-d[ H:m:s].
func toTimestamp(s, pattern string) any {
	if t, err := value.ParsePattern(s, pattern); err == nil {
		return value.TruncTimestamp(t, 3)
	}
	if t, err := value.ParseTimestamp(s); err == nil {
		return value.TruncTimestamp(t, 3)
	}
	return nil
}

func extractFn(unit string) func(x *fnCtx, a []any) (any, error) {
	return func(x *fnCtx, a []any) (any, error) { return extractUnit(unit, a[0], x.types[0], x.rt.zone) }
}

// extractUnit is EXTRACT(unit FROM v).
func extractUnit(unit string, v any, t value.Type, loc *time.Location) (any, error) {
	switch d := v.(type) {
	case time.Duration:
		switch unit {
		case "DAY":
			return int64(d / (24 * time.Hour)), nil
		case "HOUR":
			return int64(d / time.Hour % 24), nil
		case "MINUTE":
			return int64(d / time.Minute % 60), nil
		case "SECOND":
			return int64(d / time.Second % 60), nil
		}
	case value.Months:
		switch unit {
		case "YEAR":
			return int64(d / 12), nil
		case "MONTH":
			return int64(d % 12), nil
		}
	case value.TimeOfDay:
		dur := time.Duration(d)
		switch unit {
		case "HOUR":
			return int64(dur / time.Hour), nil
		case "MINUTE":
			return int64(dur / time.Minute % 60), nil
		case "SECOND":
			return int64(dur / time.Second % 60), nil
		case "MILLISECOND":
			return int64(dur / time.Millisecond % 60000), nil
		}
	case time.Time:
		if t.Kind == value.TimestampLTZ {
			d = d.In(loc)
		}
		switch unit {
		case "YEAR":
			return int64(d.Year()), nil
		case "QUARTER":
			return int64((d.Month()-1)/3 + 1), nil
		case "MONTH":
			return int64(d.Month()), nil
		case "WEEK":
			_, w := d.ISOWeek()
			return int64(w), nil
		case "DAY", "DAYOFMONTH":
			return int64(d.Day()), nil
		case "DOW", "DAYOFWEEK":
			return int64(d.Weekday()) + 1, nil
		case "ISODOW":
			return int64((d.Weekday()+6)%7) + 1, nil
		case "DOY", "DAYOFYEAR":
			return int64(d.YearDay()), nil
		case "HOUR":
			return int64(d.Hour()), nil
		case "MINUTE":
			return int64(d.Minute()), nil
		case "SECOND":
			return int64(d.Second()), nil
		case "MILLISECOND":
			return int64(d.Second()*1000 + d.Nanosecond()/1e6), nil
		case "MICROSECOND":
			return int64(d.Second()*1e6 + d.Nanosecond()/1e3), nil
		case "NANOSECOND":
			return int64(d.Second()*1e9 + d.Nanosecond()), nil
		case "EPOCH":
			return d.Unix(), nil
		case "DECADE":
			return int64(d.Year() / 10), nil
		case "CENTURY":
			return int64((d.Year() + 99) / 100), nil
		case "MILLENNIUM":
			return int64((d.Year() + 999) / 1000), nil
		}
	}
	return nil, fmt.Errorf("EXTRACT(%s FROM %s) is not supported", unit, t)
}

// floorTime is FLOOR(ts TO unit) or, with ceil, CEIL(ts TO unit).
func floorTime(t time.Time, unit string, ceil bool) (any, error) {
	var f time.Time
	switch unit {
	case "YEAR":
		f = time.Date(t.Year(), 1, 1, 0, 0, 0, 0, t.Location())
	case "QUARTER":
		f = time.Date(t.Year(), (t.Month()-1)/3*3+1, 1, 0, 0, 0, 0, t.Location())
	case "MONTH":
		f = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, t.Location())
	case "WEEK":
		day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
		f = day.AddDate(0, 0, -int(day.Weekday())) // weeks start on Sunday, as Calcite's
	case "DAY":
		f = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
	case "HOUR", "MINUTE", "SECOND", "MILLISECOND":
		f = t.Truncate(unitDur[unit])
	default:
		return nil, fmt.Errorf("FLOOR/CEIL TO %s is not supported", unit)
	}
	if ceil && !f.Equal(t) {
		switch unit {
		case "YEAR":
			f = f.AddDate(1, 0, 0)
		case "QUARTER":
			f = f.AddDate(0, 3, 0)
		case "MONTH":
			f = f.AddDate(0, 1, 0)
		case "WEEK":
			f = f.AddDate(0, 0, 7)
		default:
			f = f.Add(unitDur[unit])
		}
	}
	return f, nil
}

// timestampUnitCall is TIMESTAMPADD(unit, n, t) and TIMESTAMPDIFF(unit, a, b).
func (c *compiler) timestampUnitCall(x *ast.FuncCall, name string) (evalFn, value.Type, error) {
	if len(x.Args) != 3 {
		return nil, value.Type{}, errorAt(x, "%s takes a unit and two arguments", name)
	}
	u, ok := x.Args[0].(*ast.TimeUnitExpr)
	if !ok {
		if ref, isRef := x.Args[0].(*ast.ColumnRef); isRef && len(ref.Parts) == 1 {
			u, ok = &ast.TimeUnitExpr{Unit: ref.Name()}, true
		}
	}
	if !ok {
		return nil, value.Type{}, errorAt(x, "%s: the first argument is a time unit (DAY, HOUR, …)", name)
	}
	unit := strings.TrimPrefix(strings.TrimSuffix(strings.ToUpper(u.Unit), "S"), "SQL_TSI_")
	a, at, err := c.compile(x.Args[1])
	if err != nil {
		return nil, value.Type{}, err
	}
	b, bt, err := c.compile(x.Args[2])
	if err != nil {
		return nil, value.Type{}, err
	}
	loc := c.rt.zone
	if name == "TIMESTAMPADD" {
		return func(row value.Row) (any, error) {
			n, t, err := both(row, a, b)
			if err != nil || n == nil || t == nil {
				return nil, err
			}
			k, err := toInt(n)
			if err != nil {
				return nil, err
			}
			switch unit {
			case "YEAR":
				return value.Arith('+', t, value.Months(12*k), bt, value.Type{Kind: value.IntervalYM}, bt)
			case "QUARTER":
				return value.Arith('+', t, value.Months(3*k), bt, value.Type{Kind: value.IntervalYM}, bt)
			case "MONTH":
				return value.Arith('+', t, value.Months(k), bt, value.Type{Kind: value.IntervalYM}, bt)
			}
			d, ok := unitDur[unit]
			if !ok {
				return nil, fmt.Errorf("TIMESTAMPADD unit %s", unit)
			}
			return value.Arith('+', t, time.Duration(k)*d, bt, value.Type{Kind: value.IntervalDT}, bt)
		}, bt.Nullable(), nil
	}
	return func(row value.Row) (any, error) {
		p, q, err := both(row, a, b)
		if err != nil || p == nil || q == nil {
			return nil, err
		}
		t1, ok1 := p.(time.Time)
		t2, ok2 := q.(time.Time)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("TIMESTAMPDIFF of %s and %s", at, bt)
		}
		if at.Kind == value.TimestampLTZ {
			t1 = t1.In(loc)
		}
		if bt.Kind == value.TimestampLTZ {
			t2 = t2.In(loc)
		}
		switch unit {
		case "YEAR", "QUARTER", "MONTH":
			m := monthsBetween(t1, t2)
			switch unit {
			case "YEAR":
				return m / 12, nil
			case "QUARTER":
				return m / 3, nil
			}
			return m, nil
		}
		d, ok := unitDur[unit]
		if !ok {
			return nil, fmt.Errorf("TIMESTAMPDIFF unit %s", unit)
		}
		return int64(t2.Sub(t1) / d), nil
	}, value.TInt, nil
}

// monthsBetween is the whole months from a to b, negative when b is before a.
func monthsBetween(a, b time.Time) int64 {
	sign := int64(1)
	if b.Before(a) {
		a, b, sign = b, a, -1
	}
	m := int64(b.Year()-a.Year())*12 + int64(b.Month()-a.Month())
	if value.AddMonths(a, int(m)).After(b) {
		m--
	}
	return sign * m
}
