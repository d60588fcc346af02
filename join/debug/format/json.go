package format

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// jsonReader is the json format: one JSON object a line, fields by column
// name (exactly, as Flink matches them), missing ones NULL.
type jsonReader struct {
	*lines
	t       Table
	conv    []converter
	ignore  bool // json.ignore-parse-errors: skip a row that does not parse
	missing bool // json.fail-on-missing-field
}

// converter turns a decoded JSON value into a column's value.
type converter func(v any) (any, error)

func newJSON(l *lines, t Table, opt func(string) string) (*jsonReader, error) {
	r := &jsonReader{lines: l, t: t, ignore: isTrue(opt("ignore-parse-errors")), missing: isTrue(opt("fail-on-missing-field"))}
	if r.ignore && r.missing {
		return nil, fmt.Errorf("table %s: fail-on-missing-field and ignore-parse-errors shouldn't both be true", t.Name)
	}
	iso := strings.EqualFold(opt("timestamp-format.standard"), "ISO-8601")
	for _, c := range t.Columns {
		r.conv = append(r.conv, jsonConverter(c.Type, iso))
	}
	return r, nil
}

func isTrue(s string) bool { return strings.EqualFold(strings.TrimSpace(s), "true") }

// decode reads one JSON document, numbers kept as written.
func decode(text string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("text after the JSON value")
	}
	return v, nil
}

func (r *jsonReader) Next() (stream.Rec, bool, error) {
	for {
		text, n, ok, err := r.next()
		if !ok || err != nil {
			return stream.Rec{}, false, err
		}
		row, err := r.row(text)
		if err != nil {
			if r.ignore {
				continue
			}
			return stream.Rec{}, false, lineError(r.name, n, err)
		}
		return stream.Rec{Row: row, Src: n}, true, nil
	}
}

func (r *jsonReader) row(text string) (value.Row, error) {
	v, err := decode(text)
	if err != nil {
		return nil, fmt.Errorf("Failed to deserialize JSON '%s': %v", text, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("Failed to deserialize JSON '%s': not an object", text)
	}
	return objectRow(obj, r.t.Columns, r.conv, r.missing)
}

// objectRow is a JSON object's fields as a row of cols.
func objectRow(obj map[string]any, cols []Column, conv []converter, failMissing bool) (value.Row, error) {
	row := make(value.Row, len(cols))
	for i, c := range cols {
		v, ok := obj[c.Name]
		if !ok {
			// A field named in another case is taken, as the job's earlier
			// debug runs did (Flink itself matches names exactly).
			for k, x := range obj {
				if strings.EqualFold(k, c.Name) {
					v, ok = x, true
					break
				}
			}
		}
		if !ok {
			if failMissing {
				return nil, fmt.Errorf("Could not find field with name '%s'", c.Name)
			}
			continue
		}
		out, err := conv[i](v)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		row[i] = out
	}
	return row, nil
}

func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// jsonConverter follows Flink's JsonToRowDataConverters for type t.
func jsonConverter(t value.Type, iso bool) converter {
	nullable := func(f converter) converter {
		return func(v any) (any, error) {
			if v == nil {
				return nil, nil
			}
			return f(v)
		}
	}
	switch t.Kind {
	case value.Boolean:
		return nullable(func(v any) (any, error) {
			if b, ok := v.(bool); ok {
				return b, nil
			}
			return strings.EqualFold(strings.TrimSpace(text(v)), "true"), nil
		})
	case value.TinyInt, value.SmallInt, value.Int, value.BigInt:
		return nullable(func(v any) (any, error) {
			n, err := strconv.ParseInt(strings.TrimSpace(text(v)), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("For input string: \"%s\"", text(v))
			}
			if lo, hi := value.IntRange(t); n < lo || n > hi {
				return nil, fmt.Errorf("Value out of range: \"%s\"", text(v))
			}
			return n, nil
		})
	case value.Float, value.Double:
		return nullable(func(v any) (any, error) {
			f, err := strconv.ParseFloat(strings.TrimSpace(text(v)), 64)
			if err != nil {
				return nil, fmt.Errorf("For input string: \"%s\"", text(v))
			}
			if t.Kind == value.Float {
				f = float64(float32(f))
			}
			return f, nil
		})
	case value.Decimal:
		return nullable(func(v any) (any, error) {
			r, ok := new(big.Rat).SetString(strings.TrimSpace(text(v)))
			if !ok {
				return nil, fmt.Errorf("Character %s is neither a decimal digit number", text(v))
			}
			return value.Round(r, t), nil
		})
	case value.Char, value.Varchar:
		return nullable(func(v any) (any, error) { return text(v), nil })
	case value.Binary, value.Varbinary:
		return nullable(func(v any) (any, error) {
			b, err := base64.StdEncoding.DecodeString(text(v))
			if err != nil {
				return nil, fmt.Errorf("Unable to deserialize byte array: %v", err)
			}
			return b, nil
		})
	case value.Date:
		return nullable(func(v any) (any, error) {
			d, err := time.Parse("2006-01-02", text(v))
			if err != nil {
				return nil, fmt.Errorf("Text '%s' could not be parsed as a DATE (yyyy-MM-dd)", text(v))
			}
			return d, nil
		})
	case value.Time:
		return nullable(func(v any) (any, error) {
			d, err := value.ParseTime(text(v))
			if err != nil || !strings.Contains(text(v), ":") {
				return nil, fmt.Errorf("Text '%s' could not be parsed as a TIME (HH:mm:ss)", text(v))
			}
			return d, nil
		})
	case value.Timestamp, value.TimestampLTZ:
		ltz := t.Kind == value.TimestampLTZ
		return nullable(func(v any) (any, error) { return parseJSONTimestamp(text(v), iso, ltz, t.Precision) })
	case value.ArrayKind, value.MultisetKind:
		elem := jsonConverter(*t.Elem, iso)
		return nullable(func(v any) (any, error) {
			a, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("'%s' is not an array", text(v))
			}
			out := make(value.Array, len(a))
			for i, e := range a {
				c, err := elem(e)
				if err != nil {
					return nil, err
				}
				out[i] = c
			}
			if t.Kind == value.MultisetKind {
				m := &value.Map{}
				for _, e := range out {
					n, _ := m.Get(e)
					c, _ := n.(int64)
					m.Put(e, c+1)
				}
				return m, nil
			}
			return out, nil
		})
	case value.MapKind:
		key, val := jsonConverter(*t.Elem, iso), jsonConverter(*t.Val, iso)
		return nullable(func(v any) (any, error) {
			o, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("'%s' is not an object", text(v))
			}
			m := &value.Map{}
			for _, k := range sortedKeys(o) {
				kv, err := key(k)
				if err != nil {
					return nil, err
				}
				vv, err := val(o[k])
				if err != nil {
					return nil, err
				}
				m.Put(kv, vv)
			}
			return m, nil
		})
	case value.RowKind:
		cols := make([]Column, len(t.Fields))
		conv := make([]converter, len(t.Fields))
		for i, f := range t.Fields {
			cols[i] = Column{Name: f.Name, Type: f.Type}
			conv[i] = jsonConverter(f.Type, iso)
		}
		return nullable(func(v any) (any, error) {
			o, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("'%s' is not an object", text(v))
			}
			r, err := objectRow(o, cols, conv, false)
			return r, err
		})
	}
	return func(v any) (any, error) {
		if v == nil {
			return nil, nil
		}
		return text(v), nil
	}
}

// sortedKeys keeps a map's entries in the order the JSON had them where
// it can: Go's decoder does not say, so they are sorted.
func sortedKeys(o map[string]any) []string {
	ks := make([]string, 0, len(o))
	for k := range o {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// parseJSONTimestamp reads a timestamp as the json format's
// timestamp-format.standard says: SQL "yyyy-MM-dd HH:mm:ss[.s…]" (the
// default) or ISO-8601 "yyyy-MM-ddTHH:mm:ss[.s…]"; a TIMESTAMP_LTZ ends in Z.
func parseJSONTimestamp(s string, iso, ltz bool, precision int) (any, error) {
	want := "yyyy-MM-dd HH:mm:ss[.SSS]"
	sep := " "
	if iso {
		want, sep = "yyyy-MM-ddTHH:mm:ss[.SSS]", "T"
	}
	if ltz {
		want += "Z"
		if !strings.HasSuffix(s, "Z") {
			return nil, fmt.Errorf("Text '%s' could not be parsed as a TIMESTAMP_LTZ (%s)", s, want)
		}
		s = strings.TrimSuffix(s, "Z")
	}
	date, clock, ok := strings.Cut(s, sep)
	if !ok {
		return nil, fmt.Errorf("Text '%s' could not be parsed as a TIMESTAMP (%s)", s, want)
	}
	ts, err := value.ParseTimestamp(date + " " + clock)
	if err != nil || strings.Count(clock, ":") != 2 {
		return nil, fmt.Errorf("Text '%s' could not be parsed as a TIMESTAMP (%s)", s, want)
	}
	return value.TruncTimestamp(ts, precision), nil
}

// lineError names the file and line of a bad record (and its column, when
// the error is about one: "orders.jsonl line 2, column a: …").
func lineError(name string, n int64, err error) error {
	if strings.HasPrefix(err.Error(), "column ") {
		return fmt.Errorf("%s line %d, %w", name, n, err)
	}
	return fmt.Errorf("%s line %d: %w", name, n, err)
}
