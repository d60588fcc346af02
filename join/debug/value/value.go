package value

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"time"
)

// TimeOfDay is a TIME value: nanoseconds since midnight.
type TimeOfDay int64

// Months is an INTERVAL YEAR TO MONTH value.
type Months int64

// Array is an ARRAY value.
type Array []any

// Row is a ROW value, and a row of a relation: its fields in order.
type Row []any

// Map is a MAP value, or a MULTISET's elements with their counts, keys in
// the order they were first put.
type Map struct {
	Keys []any
	Vals []any
}

// Get is the value of key k, and whether the map has it.
func (m *Map) Get(k any) (any, bool) {
	for i, x := range m.Keys {
		if Equal(x, k) {
			return m.Vals[i], true
		}
	}
	return nil, false
}

// Put sets key k to v.
func (m *Map) Put(k, v any) {
	for i, x := range m.Keys {
		if Equal(x, k) {
			m.Vals[i] = v
			return
		}
	}
	m.Keys = append(m.Keys, k)
	m.Vals = append(m.Vals, v)
}

// Compare orders two non-NULL values of comparable types: numbers of any
// kind by value, strings by their UTF-8 bytes (as Flink's BinaryStringData
// compares), times by instant, booleans FALSE first.
func Compare(a, b any) (int, error) {
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return cmp3(x < y, x > y), nil
		case float64:
			return cmpFloat(float64(x), y), nil
		case *big.Rat:
			return new(big.Rat).SetInt64(x).Cmp(y), nil
		}
	case float64:
		switch y := b.(type) {
		case float64:
			return cmpFloat(x, y), nil
		case int64:
			return cmpFloat(x, float64(y)), nil
		case *big.Rat:
			f, _ := y.Float64()
			return cmpFloat(x, f), nil
		}
	case *big.Rat:
		switch y := b.(type) {
		case *big.Rat:
			return x.Cmp(y), nil
		case int64:
			return x.Cmp(new(big.Rat).SetInt64(y)), nil
		case float64:
			f, _ := x.Float64()
			return cmpFloat(f, y), nil
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), nil
		}
	case bool:
		if y, ok := b.(bool); ok {
			return cmp3(!x && y, x && !y), nil
		}
	case time.Time:
		if y, ok := b.(time.Time); ok {
			return x.Compare(y), nil
		}
	case TimeOfDay:
		if y, ok := b.(TimeOfDay); ok {
			return cmp3(x < y, x > y), nil
		}
	case time.Duration:
		if y, ok := b.(time.Duration); ok {
			return cmp3(x < y, x > y), nil
		}
	case Months:
		if y, ok := b.(Months); ok {
			return cmp3(x < y, x > y), nil
		}
	case []byte:
		if y, ok := b.([]byte); ok {
			return bytes.Compare(x, y), nil
		}
	case Array:
		if y, ok := b.(Array); ok {
			return compareLists(x, y)
		}
	case Row:
		if y, ok := b.(Row); ok {
			return compareLists(x, y)
		}
	}
	return 0, fmt.Errorf("cannot compare %s with %s", goType(a), goType(b))
}

func compareLists(x, y []any) (int, error) {
	for i := 0; i < len(x) && i < len(y); i++ {
		switch {
		case x[i] == nil && y[i] == nil:
			continue
		case x[i] == nil:
			return -1, nil
		case y[i] == nil:
			return 1, nil
		}
		c, err := Compare(x[i], y[i])
		if err != nil || c != 0 {
			return c, err
		}
	}
	return cmp3(len(x) < len(y), len(x) > len(y)), nil
}

func cmp3(less, more bool) int {
	switch {
	case less:
		return -1
	case more:
		return 1
	}
	return 0
}

func cmpFloat(a, b float64) int {
	// NaN sorts after every number, as Java's Double.compare has it.
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	case math.IsNaN(a) && math.IsNaN(b):
		return 0
	case math.IsNaN(a):
		return 1
	}
	return -1
}

// Equal says whether two values are the same value (NULL equals NULL):
// what grouping, distinct and retraction match rows by.
func Equal(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch x := a.(type) {
	case *Map:
		y, ok := b.(*Map)
		if !ok || len(x.Keys) != len(y.Keys) {
			return false
		}
		for i, k := range x.Keys {
			v, ok := y.Get(k)
			if !ok || !Equal(x.Vals[i], v) {
				return false
			}
		}
		return true
	case Array:
		y, ok := b.(Array)
		return ok && RowsEqual(x, y)
	case Row:
		y, ok := b.(Row)
		return ok && RowsEqual(x, y)
	}
	c, err := Compare(a, b)
	return err == nil && c == 0
}

// RowsEqual says whether two rows hold equal values.
func RowsEqual(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// AppendKey appends an encoding of v to buf such that two values have the
// same encoding exactly when they are Equal: the key of a value in a hash
// map of grouping or join state.
func AppendKey(buf []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(buf, 0)
	case bool:
		if x {
			return append(buf, 1, 1)
		}
		return append(buf, 1, 0)
	case int64:
		buf = append(buf, 2)
		return binary.BigEndian.AppendUint64(buf, uint64(x))
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<62 {
			buf = append(buf, 2) // equal to the integer
			return binary.BigEndian.AppendUint64(buf, uint64(int64(x)))
		}
		buf = append(buf, 3)
		return binary.BigEndian.AppendUint64(buf, math.Float64bits(x))
	case *big.Rat:
		if x.IsInt() && x.Num().IsInt64() {
			buf = append(buf, 2)
			return binary.BigEndian.AppendUint64(buf, uint64(x.Num().Int64()))
		}
		buf = append(buf, 4)
		return appendString(buf, x.String())
	case string:
		return appendString(append(buf, 5), x)
	case []byte:
		return appendString(append(buf, 6), string(x))
	case time.Time:
		buf = append(buf, 7)
		buf = binary.BigEndian.AppendUint64(buf, uint64(x.Unix()))
		return binary.BigEndian.AppendUint32(buf, uint32(x.Nanosecond()))
	case TimeOfDay:
		return binary.BigEndian.AppendUint64(append(buf, 8), uint64(x))
	case time.Duration:
		return binary.BigEndian.AppendUint64(append(buf, 9), uint64(x))
	case Months:
		return binary.BigEndian.AppendUint64(append(buf, 10), uint64(x))
	case Array:
		buf = binary.BigEndian.AppendUint32(append(buf, 11), uint32(len(x)))
		for _, e := range x {
			buf = AppendKey(buf, e)
		}
		return buf
	case Row:
		buf = binary.BigEndian.AppendUint32(append(buf, 12), uint32(len(x)))
		for _, e := range x {
			buf = AppendKey(buf, e)
		}
		return buf
	case *Map:
		// Equal maps may hold their keys in other orders: sort the entries' encodings.
		entries := make([]string, len(x.Keys))
		for i := range x.Keys {
			entries[i] = string(AppendKey(AppendKey(nil, x.Keys[i]), x.Vals[i]))
		}
		slices.Sort(entries)
		buf = binary.BigEndian.AppendUint32(append(buf, 13), uint32(len(entries)))
		for _, e := range entries {
			buf = appendString(buf, e)
		}
		return buf
	}
	return appendString(append(buf, 14), fmt.Sprint(v))
}

func appendString(buf []byte, s string) []byte {
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(s)))
	return append(buf, s...)
}

// Key is the encoding of the values of row at the indexes cols (all of
// them when cols is nil), as AppendKey makes it.
func Key(row []any, cols []int) string {
	var buf [64]byte
	b := buf[:0]
	if cols == nil {
		for _, v := range row {
			b = AppendKey(b, v)
		}
		return string(b)
	}
	for _, i := range cols {
		b = AppendKey(b, row[i])
	}
	return string(b)
}

func goType(v any) string {
	switch v.(type) {
	case nil:
		return "NULL"
	case int64:
		return "a number"
	case float64:
		return "a DOUBLE"
	case *big.Rat:
		return "a DECIMAL"
	case string:
		return "a string"
	case bool:
		return "a BOOLEAN"
	case time.Time:
		return "a timestamp"
	case TimeOfDay:
		return "a TIME"
	case time.Duration, Months:
		return "an interval"
	case []byte:
		return "bytes"
	case Array:
		return "an ARRAY"
	case Row:
		return "a ROW"
	case *Map:
		return "a MAP"
	}
	return fmt.Sprintf("%T", v)
}

// Size estimates the bytes v holds, for the state sizes a run reports.
func Size(v any) int {
	switch x := v.(type) {
	case nil, bool:
		return 8
	case int64, float64, TimeOfDay, time.Duration, Months:
		return 16
	case *big.Rat:
		return 48 + len(x.Num().Bits())*8 + len(x.Denom().Bits())*8
	case string:
		return 16 + len(x)
	case []byte:
		return 24 + len(x)
	case time.Time:
		return 24
	case Array:
		return SizeRow(x)
	case Row:
		return SizeRow(x)
	case *Map:
		return 48 + SizeRow(x.Keys) + SizeRow(x.Vals)
	}
	return 16
}

// SizeRow estimates the bytes a row holds.
func SizeRow(r []any) int {
	n := 24
	for _, v := range r {
		n += Size(v)
	}
	return n
}
