package join

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
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

// Kind is the canonical Go representation of a Flink type: the Go type of
// its values in a Row.
type Kind int

// Kinds, as Row's table lists them.
const (
	KindAny       Kind = iota // unknown type: values pass as the driver gives them, []byte as string
	KindBool                  // bool
	KindInt                   // int64
	KindFloat                 // float64
	KindDecimal               // string with Scale decimals
	KindString                // string
	KindBytes                 // []byte
	KindDate                  // time.Time, midnight UTC
	KindTime                  // string, "15:04:05"
	KindTimestamp             // time.Time, UTC
)

// Type is the Flink type of a column as Row values carry it.
type Type struct {
	Kind  Kind
	Scale int // DECIMAL's
}

// ParseType reads the Flink type of a DDL column ("DECIMAL(10, 2)",
// "TIMESTAMP(3)") with flinksql's parser; a type it does not know is
// KindAny.
func ParseType(t string) (Type, error) {
	dt, errs := flinksql.ParseDataType(t)
	if len(errs) > 0 {
		return Type{}, fmt.Errorf("type %q: %v", t, errs[0])
	}
	return TypeOf(dt), nil
}

// TypeOf is how Row values carry a parsed Flink type.
func TypeOf(dt *ast.DataType) Type {
	switch root := dt.Root(); root {
	case "BOOLEAN":
		return Type{Kind: KindBool}
	case "TINYINT", "SMALLINT", "INT", "BIGINT":
		return Type{Kind: KindInt}
	case "FLOAT", "REAL", "DOUBLE":
		return Type{Kind: KindFloat}
	case "DECIMAL":
		scale := 0 // Flink's DECIMAL is DECIMAL(10, 0)
		if len(dt.Params) == 2 {
			scale = dt.Params[1]
		}
		return Type{Kind: KindDecimal, Scale: scale}
	case "CHAR", "VARCHAR", "STRING":
		return Type{Kind: KindString}
	case "BINARY", "VARBINARY", "BYTES":
		return Type{Kind: KindBytes}
	case "DATE":
		return Type{Kind: KindDate}
	case "TIME":
		return Type{Kind: KindTime}
	case "TIMESTAMP", "TIMESTAMP_LTZ":
		return Type{Kind: KindTimestamp}
	default:
		if dt.UserType != nil && strings.EqualFold(root, "BOOL") {
			return Type{Kind: KindBool} // no Flink type, but lookups always took it
		}
		return Type{Kind: KindAny}
	}
}

// Canonical turns a value scanned from a driver, read from a data file or
// computed into the Row representation of type t; nil stays nil.
func Canonical(v any, t Type) (any, error) {
	if v == nil {
		return nil, nil
	}
	if b, ok := v.([]byte); ok && t.Kind != KindBytes {
		v = string(b) // MySQL sends most values as text
	}
	switch t.Kind {
	case KindBool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			return x != 0, nil
		case string:
			return strconv.ParseBool(strings.TrimSpace(x))
		}
	case KindInt:
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
	case KindFloat:
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
	case KindDecimal:
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
		return r.FloatString(t.Scale), nil
	case KindString:
		switch x := v.(type) {
		case string:
			return x, nil
		case time.Time:
			return x.UTC().Format("2006-01-02 15:04:05.999999999"), nil
		default:
			return fmt.Sprint(x), nil
		}
	case KindBytes:
		switch x := v.(type) {
		case []byte:
			return append([]byte(nil), x...), nil
		case string:
			return []byte(x), nil
		}
	case KindDate:
		if x, ok := v.(time.Time); ok {
			return time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, time.UTC), nil // the date where it was written
		}
		ts, err := ParseTime(v)
		if err != nil {
			return nil, err
		}
		return time.Date(ts.Year(), ts.Month(), ts.Day(), 0, 0, 0, 0, time.UTC), nil
	case KindTime:
		switch x := v.(type) {
		case time.Time:
			return x.Format("15:04:05"), nil
		case string:
			if len(x) >= 8 {
				return x[:8], nil
			}
			return x, nil
		}
	case KindTimestamp:
		return ParseTime(v)
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

// ParseTime reads a timestamp: a time.Time, a string in one of the usual
// layouts, or epoch milliseconds. One without a zone is UTC, as Flink's
// TIMESTAMP has none.
func ParseTime(v any) (time.Time, error) {
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
