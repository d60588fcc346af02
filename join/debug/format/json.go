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
	t        Table
	conv     []converter
	fromText []func(string) (any, error) // a scalar column's converter from its JSON text; nil: conv
	fromNum  []func(string) (any, error) // the same from a JSON number as written (numberConverter)
	fields   *fields
	spans    []span
	ignore   bool // json.ignore-parse-errors: skip a row that does not parse, NULL a field that does not read
	missing  bool // json.fail-on-missing-field
	skips
}

// jsonOpts are what a json converter depends on besides its type.
type jsonOpts struct {
	iso       bool // timestamp-format.standard ISO-8601
	bigFloats bool // the table has a DECIMAL (numberConverter)
	// nulled, with ignore-parse-errors, counts the values that did not
	// read and are NULL instead (Flink's nullable converters catch and
	// return null); nil: such a value fails the row.
	nulled *int64
}

// converter turns a decoded JSON value into a column's value.
type converter func(v any) (any, error)

func newJSON(l *lines, t Table, opt func(string) string) (*jsonReader, error) {
	r := &jsonReader{lines: l, t: t, ignore: isTrue(opt("ignore-parse-errors")), missing: isTrue(opt("fail-on-missing-field"))}
	if r.ignore && r.missing {
		return nil, fmt.Errorf("table %s: fail-on-missing-field and ignore-parse-errors shouldn't both be true", t.Name)
	}
	o := jsonOpts{iso: strings.EqualFold(opt("timestamp-format.standard"), "ISO-8601"), bigFloats: tableHasDecimal(t.Columns)}
	if r.ignore {
		o.nulled = &r.nulled
	}
	for _, c := range t.Columns {
		r.conv = append(r.conv, jsonConverter(c.Type, o))
		r.fromText = append(r.fromText, textConverter(c.Type, o.iso))
		r.fromNum = append(r.fromNum, numberConverter(c.Type, o.iso, o.bigFloats))
	}
	r.fields, r.spans = newFields(t.Columns), make([]span, len(t.Columns))
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
				r.skips.row(n)
				continue
			}
			return stream.Rec{}, false, lineError(r.name, n, err)
		}
		r.skips.fields(n)
		return stream.Rec{Row: row, Src: n}, true, nil
	}
}

func (r *jsonReader) row(text string) (value.Row, error) {
	if row, err := r.fastRow(text); err != errSlow {
		return row, err
	}
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
				return nil, errMissing(c.Name)
			}
			continue
		}
		out, err := conv[i](v)
		if err != nil {
			return nil, colError(c.Name, err)
		}
		row[i] = out
	}
	return row, nil
}

func errMissing(name string) error { return fmt.Errorf("Could not find field with name '%s'", name) }

// colError names the column a value is for (lineError reads the prefix).
func colError(name string, err error) error { return fmt.Errorf("column %s: %w", name, err) }

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

// textConverter reads a scalar column's value from its JSON text (a
// string's contents or a number as written), following Flink's
// JsonToRowDataConverters for type t; nil for the types that are not
// scalars.
func textConverter(t value.Type, iso bool) func(string) (any, error) {
	switch t.Kind {
	case value.Boolean:
		return func(s string) (any, error) { return strings.EqualFold(strings.TrimSpace(s), "true"), nil }
	case value.TinyInt, value.SmallInt, value.Int, value.BigInt:
		lo, hi := value.IntRange(t)
		return func(s string) (any, error) {
			n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("For input string: \"%s\"", s)
			}
			if n < lo || n > hi {
				// Integer.parseInt and Long.parseLong say so of an overflow;
				// Byte.parseByte and Short.parseShort say it is out of range.
				if t.Kind == value.Int || t.Kind == value.BigInt {
					return nil, fmt.Errorf("For input string: \"%s\"", s)
				}
				return nil, fmt.Errorf("Value out of range. Value:\"%s\" Radix:10", s)
			}
			return n, nil
		}
	case value.Float, value.Double:
		return func(s string) (any, error) {
			f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				return nil, fmt.Errorf("For input string: \"%s\"", s)
			}
			if t.Kind == value.Float {
				f = float64(float32(f))
			}
			return f, nil
		}
	case value.Decimal:
		return func(s string) (any, error) { return parseDecimal(s, t) }
	case value.Char, value.Varchar:
		// A copy: the text may be a part of the line, which a value kept
		// in an operator's state must not hold on to.
		return func(s string) (any, error) { return strings.Clone(s), nil }
	case value.Binary, value.Varbinary:
		return func(s string) (any, error) {
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return nil, fmt.Errorf("Unable to deserialize byte array: %v", err)
			}
			return b, nil
		}
	case value.Date:
		return func(s string) (any, error) {
			d, err := time.Parse("2006-01-02", s)
			if err != nil {
				return nil, fmt.Errorf("Text '%s' could not be parsed as a DATE (yyyy-MM-dd)", s)
			}
			return d, nil
		}
	case value.Time:
		return func(s string) (any, error) {
			d, err := value.ParseTime(s)
			if err != nil || !strings.Contains(s, ":") {
				return nil, fmt.Errorf("Text '%s' could not be parsed as a TIME (HH:mm:ss)", s)
			}
			return d, nil
		}
	case value.Timestamp, value.TimestampLTZ:
		ltz := t.Kind == value.TimestampLTZ
		return func(s string) (any, error) { return parseJSONTimestamp(s, iso, ltz, t.Precision) }
	}
	return nil
}

// jsonConverter follows Flink's JsonToRowDataConverters for type t.
func jsonConverter(t value.Type, o jsonOpts) converter {
	iso, bigFloats := o.iso, o.bigFloats
	nullable := func(f converter) converter {
		return func(v any) (any, error) {
			if v == nil {
				return nil, nil
			}
			out, err := f(v)
			if err != nil && o.nulled != nil {
				*o.nulled++
				return nil, nil
			}
			return out, err
		}
	}
	if t.Kind == value.Boolean {
		return nullable(func(v any) (any, error) {
			if b, ok := v.(bool); ok {
				return b, nil
			}
			return strings.EqualFold(strings.TrimSpace(text(v)), "true"), nil
		})
	}
	if f := textConverter(t, iso); f != nil {
		num := numberConverter(t, iso, bigFloats)
		return nullable(func(v any) (any, error) {
			if n, ok := v.(json.Number); ok {
				return num(string(n))
			}
			return f(text(v))
		})
	}
	switch t.Kind {
	case value.ArrayKind, value.MultisetKind:
		elem := jsonConverter(*t.Elem, o)
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
		key, val := jsonConverter(*t.Elem, o), jsonConverter(*t.Val, o)
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
			conv[i] = jsonConverter(f.Type, o)
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
	if ts, ok := plainTimestamp(s, sep[0]); ok {
		return value.TruncTimestamp(ts, precision), nil
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

// parseDecimal reads a DECIMAL as Flink's json format does: rounded to
// the type's scale, NULL when it has more integer digits than the type.
func parseDecimal(s string, t value.Type) (any, error) {
	if v, ok := plainDecimal(s, t); ok {
		return v, nil
	}
	r, ok := new(big.Rat).SetString(strings.TrimSpace(s))
	if !ok {
		return nil, fmt.Errorf("Character %s is neither a decimal digit number", s)
	}
	return value.Round(r, t), nil
}

// plainDecimal is parseDecimal for the common text, -?d+(.d+)? with at
// most 18 digits and no more decimals than the scale, without big.Rat's
// general parser; ok is false for any other text.
func plainDecimal(s string, t value.Type) (any, bool) {
	i, neg := 0, false
	if i < len(s) && s[i] == '-' {
		neg, i = true, 1
	}
	var n int64
	intDigits, fracDigits, digits := 0, 0, 0
	frac := false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if digits == 18 {
				return nil, false
			}
			if n > 0 || c != '0' {
				digits++
				if !frac {
					intDigits++
				}
			}
			n = n*10 + int64(c-'0')
			if frac {
				fracDigits++
			}
		case c == '.' && !frac && i > 0 && s[i-1] != '-':
			frac = true
		default:
			return nil, false
		}
	}
	if len(s) == 0 || s[len(s)-1] == '.' || s[len(s)-1] == '-' || fracDigits > t.Scale {
		return nil, false
	}
	if t.Precision > 0 && intDigits > t.Precision-t.Scale {
		return nil, true // more integer digits than the type has
	}
	if neg {
		n = -n
	}
	den := int64(1)
	for range fracDigits {
		den *= 10
	}
	return new(big.Rat).SetFrac64(n, den), true
}

// plainTimestamp reads yyyy-MM-dd?HH:mm:ss[.s…] (? the separator) with
// every field at full width, the form the json format writes, without the
// general parser's splitting; ok is false for any other text.
func plainTimestamp(s string, sep byte) (time.Time, bool) {
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || s[10] != sep || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	num := func(from, to int) int {
		n := 0
		for i := from; i < to; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return -1
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	y, mo, d, h, mi, sec := num(0, 4), num(5, 7), num(8, 10), num(11, 13), num(14, 16), num(17, 19)
	if y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 {
		return time.Time{}, false
	}
	ns := 0
	if len(s) > 19 {
		digits := len(s) - 20
		if s[19] != '.' || digits < 1 || digits > 9 {
			return time.Time{}, false
		}
		if ns = num(20, len(s)); ns < 0 {
			return time.Time{}, false
		}
		for range 9 - digits {
			ns *= 10
		}
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ns, time.UTC)
	if t.Day() != d {
		return time.Time{}, false // no such day: the general parser says so
	}
	return t, true
}
