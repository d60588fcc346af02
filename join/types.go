package join

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// Row is one row, its values in column order. Values are canonical for their
// Flink type whatever database they came from, so that one job gives equal
// rows on PostgreSQL, MySQL and SQLite:
//
//	BOOLEAN                          bool
//	TINYINT SMALLINT INT BIGINT      int64
//	FLOAT REAL DOUBLE                float64
//	DECIMAL(p, s) NUMERIC            string, with exactly s decimals ("12.50")
//	CHAR VARCHAR STRING              string
//	BINARY VARBINARY BYTES           []byte
//	DATE                             time.Time, midnight UTC
//	TIME                             string, "15:04:05"
//	TIMESTAMP TIMESTAMP_LTZ          time.Time, UTC
//	NULL                             nil
//
// Rows that a Source returns are shared (a cache holds them): read only.
type Row []any

// Column is a column of a table as its DDL declares it.
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"` // the Flink SQL type, as written: "INT", "DECIMAL(10, 2)", "TIMESTAMP(3)"
}

// kind is the canonical Go representation of a Flink type.
type kind int

const (
	kindAny kind = iota // unknown type: values pass as the driver gives them, []byte as string
	kindBool
	kindInt
	kindFloat
	kindDecimal
	kindString
	kindBytes
	kindDate
	kindTime
	kindTimestamp
)

type colType struct {
	kind  kind
	scale int // DECIMAL's
}

// parseType reads the Flink type of a DDL column.
func parseType(t string) (colType, error) {
	u := strings.ToUpper(strings.TrimSpace(t))
	u = strings.TrimSpace(strings.TrimSuffix(u, "NOT NULL"))
	base, args := u, ""
	if i := strings.IndexByte(u, '('); i >= 0 {
		j := strings.IndexByte(u, ')')
		if j < i {
			return colType{}, fmt.Errorf("type %q: unbalanced parentheses", t)
		}
		base, args = strings.TrimSpace(u[:i])+" "+strings.TrimSpace(u[j+1:]), u[i+1:j]
		base = strings.TrimSpace(base)
	}
	switch {
	case base == "BOOLEAN" || base == "BOOL":
		return colType{kind: kindBool}, nil
	case base == "TINYINT" || base == "SMALLINT" || base == "INT" || base == "INTEGER" || base == "BIGINT":
		return colType{kind: kindInt}, nil
	case base == "FLOAT" || base == "REAL" || base == "DOUBLE" || base == "DOUBLE PRECISION":
		return colType{kind: kindFloat}, nil
	case base == "DECIMAL" || base == "DEC" || base == "NUMERIC":
		scale := 0 // Flink's DECIMAL is DECIMAL(10, 0)
		if parts := strings.Split(args, ","); len(parts) == 2 {
			s, err := strconv.Atoi(strings.TrimSpace(parts[1]))
			if err != nil || s < 0 {
				return colType{}, fmt.Errorf("type %q: bad scale", t)
			}
			scale = s
		}
		return colType{kind: kindDecimal, scale: scale}, nil
	case base == "CHAR" || base == "VARCHAR" || base == "STRING" || base == "CHARACTER VARYING":
		return colType{kind: kindString}, nil
	case base == "BINARY" || base == "VARBINARY" || base == "BYTES":
		return colType{kind: kindBytes}, nil
	case base == "DATE":
		return colType{kind: kindDate}, nil
	case base == "TIME" || base == "TIME WITHOUT TIME ZONE":
		return colType{kind: kindTime}, nil
	case strings.HasPrefix(base, "TIMESTAMP"):
		return colType{kind: kindTimestamp}, nil
	default:
		return colType{kind: kindAny}, nil
	}
}

// canonical turns a value scanned from a driver into the Row representation
// of its column's type.
func canonical(v any, t colType) (any, error) {
	if v == nil {
		return nil, nil
	}
	if b, ok := v.([]byte); ok && t.kind != kindBytes {
		v = string(b) // MySQL sends most values as text
	}
	switch t.kind {
	case kindBool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			return x != 0, nil
		case string:
			return strconv.ParseBool(strings.TrimSpace(x))
		}
	case kindInt:
		switch x := v.(type) {
		case int64:
			return x, nil
		case int32:
			return int64(x), nil
		case int:
			return int64(x), nil
		case bool:
			if x {
				return int64(1), nil
			}
			return int64(0), nil
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
				return int64(x), nil
			}
		case string:
			return strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		}
	case kindFloat:
		switch x := v.(type) {
		case float64:
			return x, nil
		case float32:
			return float64(x), nil
		case int64:
			return float64(x), nil
		case string:
			return strconv.ParseFloat(strings.TrimSpace(x), 64)
		}
	case kindDecimal:
		r := new(big.Rat)
		switch x := v.(type) {
		case string:
			if _, ok := r.SetString(strings.TrimSpace(x)); !ok {
				return nil, fmt.Errorf("%q is not a decimal", x)
			}
		case int64:
			r.SetInt64(x)
		case float64:
			// SQLite keeps DECIMAL as REAL: its shortest text is the value meant.
			if _, ok := r.SetString(strconv.FormatFloat(x, 'g', -1, 64)); !ok {
				return nil, fmt.Errorf("%v is not a decimal", x)
			}
		default:
			return nil, fmt.Errorf("%T is not a decimal", v)
		}
		return r.FloatString(t.scale), nil
	case kindString:
		switch x := v.(type) {
		case string:
			return x, nil
		case time.Time:
			return x.UTC().Format("2006-01-02 15:04:05.999999999"), nil
		default:
			return fmt.Sprint(x), nil
		}
	case kindBytes:
		switch x := v.(type) {
		case []byte:
			return append([]byte(nil), x...), nil
		case string:
			return []byte(x), nil
		}
	case kindDate:
		if x, ok := v.(time.Time); ok {
			return time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, time.UTC), nil // the date where it was written
		}
		ts, err := toTime(v)
		if err != nil {
			return nil, err
		}
		return time.Date(ts.Year(), ts.Month(), ts.Day(), 0, 0, 0, 0, time.UTC), nil
	case kindTime:
		switch x := v.(type) {
		case time.Time:
			return x.Format("15:04:05"), nil
		case string:
			if len(x) >= 8 {
				return x[:8], nil
			}
			return x, nil
		}
	case kindTimestamp:
		return toTime(v)
	default:
		return v, nil
	}
	return nil, fmt.Errorf("cannot read %T %v as this type", v, v)
}

var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04",
	"2006-01-02",
}

// toTime reads a timestamp without a zone as UTC, as Flink's TIMESTAMP has none.
func toTime(v any) (time.Time, error) {
	switch x := v.(type) {
	case time.Time:
		return x.UTC(), nil
	case string:
		s := strings.TrimSpace(x)
		for _, layout := range timeLayouts {
			if t, err := time.Parse(layout, s); err == nil {
				return t.UTC(), nil
			}
		}
		return time.Time{}, fmt.Errorf("%q is not a timestamp", x)
	case int64:
		return time.UnixMilli(x).UTC(), nil // epoch milliseconds, as SQLite apps often store them
	}
	return time.Time{}, fmt.Errorf("%T is not a timestamp", v)
}
