package format

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// avroReader is the avro and avro-confluent formats, a message a line in
// Avro's JSON encoding (Avro 1.11, "JSON Encoding") of the record schema
// Flink derives from the table's columns, or of the schema the table
// gives ('avro-confluent.schema'). Flink's avro formats have no
// ignore-parse-errors: a line that does not match fails the run there.
type avroReader struct {
	*lines
	t      Table
	schema *avroSchema
	// field is, per column, its field's position in the schema; -1: a
	// column the message does not give (a metadata column), NULL.
	field []int
}

func newAvro(l *lines, t Table, opt func(string) string) (*avroReader, error) {
	var schema *avroSchema
	var err error
	if text := strings.TrimSpace(opt("schema")); text != "" {
		schema, err = parseAvroSchema(text)
		if err == nil && schema.typ != "record" {
			err = fmt.Errorf("the Avro schema is a %s, not a record", schema.typ)
		}
	} else {
		legacy := !strings.EqualFold(strings.TrimSpace(opt("timestamp_mapping.legacy")), "false")
		schema, err = deriveAvroSchema(t.Columns, legacy)
	}
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", t.Name, err)
	}
	r := &avroReader{lines: l, t: t, schema: schema}
	for _, c := range t.Columns {
		at := -1
		for i, f := range schema.fields {
			if f.name == c.Name {
				at = i
			}
		}
		r.field = append(r.field, at)
	}
	return r, nil
}

func (r *avroReader) Next() (stream.Rec, bool, error) {
	text, n, ok, err := r.next()
	if !ok || err != nil {
		return stream.Rec{}, false, err
	}
	v, err := decode(text)
	if err != nil {
		return stream.Rec{}, false, lineError(r.name, n, fmt.Errorf("not Avro's JSON encoding of a record: %v", err))
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return stream.Rec{}, false, lineError(r.name, n, fmt.Errorf("not Avro's JSON encoding of a record: %s is not an object", text))
	}
	row, err := r.record(obj, nil)
	if err != nil {
		return stream.Rec{}, false, lineError(r.name, n, err)
	}
	return stream.Rec{Row: row, Src: n}, true, nil
}

// record is a message's record as a row of the table; only the columns
// at positions only, when given (upsert-kafka's key).
func (r *avroReader) record(obj map[string]any, only []int) (value.Row, error) {
	row := make(value.Row, len(r.t.Columns))
	for i, c := range r.t.Columns {
		if r.field[i] < 0 || only != nil && !slices.Contains(only, i) {
			continue
		}
		v, err := avroField2(obj, r.schema.fields[r.field[i]], c.Type, c.Name)
		if err != nil {
			return nil, err
		}
		row[i] = v
	}
	return row, nil
}

// avroField2 is field f of a record's JSON object as a value of type t;
// path names it in errors ("r.qty").
func avroField2(obj map[string]any, f avroField, t value.Type, path string) (any, error) {
	j, ok := obj[f.name]
	if !ok {
		switch {
		case f.hasDefault:
			// Avro's reader fills a missing field with its default; a
			// nullable field Flink derives defaults to null.
			j = f.def
		case f.schema.nullable():
			return nil, nil
		default:
			return nil, &fieldError{path: path, err: fmt.Errorf("missing, expected %s", f.schema.describe())}
		}
	}
	v, err := avroValue(j, f.schema, t)
	if fe, ok := err.(*fieldError); ok {
		return nil, &fieldError{path: path + "." + fe.path, err: fe.err} // a nested record's field
	}
	if err != nil {
		return nil, &fieldError{path: path, err: err}
	}
	return v, nil
}

// fieldError is an error about a field, named by its path from the
// column ("r.qty"); lineError writes it "column r.qty: …".
type fieldError struct {
	path string
	err  error
}

func (e *fieldError) Error() string { return colError(e.path, e.err).Error() }
func (e *fieldError) Unwrap() error { return e.err }

// avroValue reads j, a JSON value in Avro's JSON encoding of schema s, as
// a value of the column type t.
func avroValue(j any, s *avroSchema, t value.Type) (any, error) {
	if s.typ == "union" {
		return avroUnion(j, s, t)
	}
	if o, ok := j.(map[string]any); ok && len(o) == 1 && s.typ != "map" && s.typ != "record" {
		// A value wrapped as a union's branch where the schema has none:
		// taken, as long as the branch is this type.
		if inner, ok := o[s.branchName()]; ok {
			j = inner
		}
	}
	if j == nil {
		if s.typ == "null" {
			return nil, nil
		}
		return nil, mismatch(s, j)
	}
	switch s.typ {
	case "null":
		return nil, mismatch(s, j)
	case "boolean":
		b, ok := j.(bool)
		if !ok {
			return nil, mismatch(s, j)
		}
		return b, nil
	case "int", "long":
		return avroNumber(j, s, t)
	case "float", "double":
		f, ok := avroFloat(j)
		if !ok {
			return nil, mismatch(s, j)
		}
		return toColumn(f, s, t)
	case "string", "enum":
		str, ok := j.(string)
		if !ok {
			return nil, mismatch(s, j)
		}
		if s.typ == "enum" && !slices.Contains(s.symbols, str) {
			return nil, fmt.Errorf("%q is not a symbol of enum %s (%s)", str, s.name, strings.Join(s.symbols, ", "))
		}
		return toColumn(strings.Clone(str), s, t)
	case "bytes", "fixed":
		return avroBytes(j, s, t)
	case "array":
		return avroArray(j, s, t)
	case "map":
		return avroMap(j, s, t)
	case "record":
		o, ok := j.(map[string]any)
		if !ok {
			return nil, mismatch(s, j)
		}
		if len(o) == 1 {
			if inner, ok := o[s.name].(map[string]any); ok && !slices.ContainsFunc(s.fields, func(f avroField) bool { return f.name == s.name }) {
				o = inner // wrapped as a union's branch
			}
		}
		if t.Kind != value.RowKind {
			return nil, fmt.Errorf("a record (%s) cannot be read as %s", s.name, t)
		}
		row := make(value.Row, len(t.Fields))
		for i, tf := range t.Fields {
			for _, f := range s.fields {
				if f.name == tf.Name {
					v, err := avroField2(o, f, tf.Type, tf.Name)
					if err != nil {
						return nil, err
					}
					row[i] = v
				}
			}
		}
		return row, nil
	}
	return nil, fmt.Errorf("Avro type %s is not read", s.typ)
}

// avroUnion reads a union's value: null, or {"branch": value}. A plain
// value is taken too, by the first branch that reads it, as a debug user
// writing a sample by hand expects.
func avroUnion(j any, s *avroSchema, t value.Type) (any, error) {
	if j == nil {
		if s.nullable() {
			return nil, nil
		}
		return nil, mismatch(s, j)
	}
	if o, ok := j.(map[string]any); ok && len(o) == 1 {
		for k, inner := range o {
			for _, b := range s.branches {
				if b.branchName() == k {
					if inner == nil && b.typ != "null" {
						return nil, mismatch(s, j)
					}
					return avroValue(inner, b, t)
				}
			}
		}
		if !slices.ContainsFunc(s.branches, func(b *avroSchema) bool { return b.typ == "map" || b.typ == "record" }) {
			return nil, mismatch(s, j) // a branch the union does not have
		}
	}
	var firstErr error
	for _, b := range s.branches {
		if b.typ == "null" {
			continue
		}
		v, err := avroValue(j, b, t)
		if err == nil {
			return v, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if fe, ok := firstErr.(*fieldError); ok {
		return nil, fe // a nested field's error: its own path and expectation
	}
	if firstErr != nil && len(s.branches) == 2 && s.nullable() {
		// One non-null branch: its own error says more than the union's.
		other := s.branches[0]
		if other.typ == "null" {
			other = s.branches[1]
		}
		return nil, fmt.Errorf(`%w (the field is nullable: null or {"%s": …} also do)`, firstErr, other.branchName())
	}
	return nil, mismatch(s, j)
}

func mismatch(s *avroSchema, j any) error {
	got := "null"
	if j != nil {
		got = text(j)
		if _, ok := j.(string); ok {
			got = fmt.Sprintf("%q", j)
		}
	}
	return fmt.Errorf("expected %s, got %s", s.describe(), got)
}

// avroNumber reads an int or a long, with its logical type, as t.
func avroNumber(j any, s *avroSchema, t value.Type) (any, error) {
	num, ok := j.(json.Number)
	if !ok {
		if str, isStr := j.(string); isStr && s.logical != "" {
			// A date, time or timestamp written as text: unambiguous, and
			// what a sample written by hand has.
			if conv := textConverter(t, strings.Contains(str, "T")); conv != nil && (t.Kind == value.Date || t.Kind == value.Time || t.IsTimestamp()) {
				return conv(strings.TrimSuffix(str, "Z") + ltzSuffix(t, str))
			}
		}
		return nil, mismatch(s, j)
	}
	n, err := num.Int64()
	if err != nil {
		return nil, mismatch(s, j)
	}
	if s.typ == "int" && (n < math.MinInt32 || n > math.MaxInt32) {
		return nil, fmt.Errorf("%s is out of an Avro int's range", num)
	}
	switch s.logical {
	case "date":
		return toColumn(time.Unix(n*86400, 0).UTC(), s, t)
	case "time-millis":
		return toColumn(value.TimeOfDay(n*int64(time.Millisecond)), s, t)
	case "time-micros":
		return toColumn(value.TimeOfDay(n*int64(time.Microsecond)), s, t)
	case "timestamp-millis", "local-timestamp-millis":
		return toColumn(time.UnixMilli(n).UTC(), s, t)
	case "timestamp-micros", "local-timestamp-micros":
		return toColumn(time.UnixMicro(n).UTC(), s, t)
	case "timestamp-nanos", "local-timestamp-nanos":
		return toColumn(time.Unix(0, n).UTC(), s, t)
	}
	return toColumn(n, s, t)
}

// ltzSuffix keeps a TIMESTAMP_LTZ's text in the form the json reader
// reads ("…Z").
func ltzSuffix(t value.Type, s string) string {
	if t.Kind == value.TimestampLTZ {
		return "Z"
	}
	return ""
}

func avroFloat(j any) (float64, bool) {
	switch x := j.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case string:
		// How Avro's Java encoder writes the values JSON has no number for.
		switch x {
		case "NaN":
			return math.NaN(), true
		case "Infinity":
			return math.Inf(1), true
		case "-Infinity":
			return math.Inf(-1), true
		}
	}
	return 0, false
}

// avroBytes reads bytes (or fixed): a JSON string whose code points 0–255
// are the bytes; a decimal's bytes are its unscaled value, two's
// complement big-endian.
func avroBytes(j any, s *avroSchema, t value.Type) (any, error) {
	if num, ok := j.(json.Number); ok && s.logical == "decimal" && t.Kind == value.Decimal {
		return parseDecimal(num.String(), t) // a number where the bytes go: unambiguous
	}
	str, ok := j.(string)
	if !ok {
		return nil, mismatch(s, j)
	}
	b := make([]byte, 0, len(str))
	for _, c := range str {
		if c > 0xFF {
			return nil, fmt.Errorf("expected %s, a string of code points U+0000–U+00FF, got %q (U+%04X)", s.describe(), str, c)
		}
		b = append(b, byte(c))
	}
	if s.logical == "decimal" {
		unscaled := new(big.Int).SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 {
			unscaled.Sub(unscaled, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
		r := new(big.Rat).SetFrac(unscaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s.scale)), nil))
		return toColumn(r, s, t)
	}
	return toColumn(b, s, t)
}

func avroArray(j any, s *avroSchema, t value.Type) (any, error) {
	a, ok := j.([]any)
	if !ok {
		return nil, mismatch(s, j)
	}
	if t.Kind != value.ArrayKind {
		return nil, fmt.Errorf("an array cannot be read as %s", t)
	}
	out := make(value.Array, len(a))
	for i, e := range a {
		v, err := avroValue(e, s.items, *t.Elem)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i+1, err)
		}
		out[i] = v
	}
	return out, nil
}

func avroMap(j any, s *avroSchema, t value.Type) (any, error) {
	o, ok := j.(map[string]any)
	if !ok {
		return nil, mismatch(s, j)
	}
	if t.Kind != value.MapKind && t.Kind != value.MultisetKind {
		return nil, fmt.Errorf("a map cannot be read as %s", t)
	}
	vt := value.TBigInt // a MULTISET's counts
	if t.Kind == value.MapKind {
		vt = *t.Val
	}
	m := &value.Map{}
	for _, k := range sortedKeys(o) {
		v, err := avroValue(o[k], s.items, vt)
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", k, err)
		}
		m.Put(strings.Clone(k), v)
	}
	return m, nil
}

// toColumn is an Avro value v (of schema s) as a value of column type t,
// as Flink's AvroToRowDataConverters turn it: exactly when the schema is
// derived from the columns; by kind when the table gives its own schema.
func toColumn(v any, s *avroSchema, t value.Type) (any, error) {
	bad := func() (any, error) {
		return nil, fmt.Errorf("Avro %s cannot be read as %s", s.describe(), t)
	}
	switch x := v.(type) {
	case int64:
		switch {
		case t.IsInteger():
			lo, hi := value.IntRange(t)
			if x < lo || x > hi {
				return nil, fmt.Errorf("%d is out of %s's range", x, t)
			}
			return x, nil
		case t.Kind == value.Float || t.Kind == value.Double:
			return toColumn(float64(x), s, t)
		case t.Kind == value.Decimal:
			return value.Round(new(big.Rat).SetInt64(x), t), nil
		}
	case float64:
		switch t.Kind {
		case value.Float:
			return float64(float32(x)), nil
		case value.Double:
			return x, nil
		}
	case string:
		if t.IsString() {
			return x, nil
		}
	case []byte:
		if t.Kind == value.Binary || t.Kind == value.Varbinary {
			return x, nil
		}
	case *big.Rat:
		if t.Kind == value.Decimal {
			return value.Round(x, t), nil
		}
	case time.Time:
		switch t.Kind {
		case value.Date:
			return time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, time.UTC), nil
		case value.Timestamp, value.TimestampLTZ:
			return value.TruncTimestamp(x, t.Precision), nil
		}
	case value.TimeOfDay:
		if t.Kind == value.Time {
			return x, nil
		}
	case bool:
		if t.Kind == value.Boolean {
			return x, nil
		}
	}
	return bad()
}
