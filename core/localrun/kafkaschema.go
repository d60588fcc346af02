package localrun

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The schema of a Kafka topic, inferred from sampled records: each field's
// Flink type from the values seen, nullable where a record had it null or
// lacked it, conflicts widened (BIGINT and DOUBLE to DOUBLE) or read as
// STRING with a warning.

// kind is what one value, or the values of one field so far, look like.
type kind int

const (
	kNone   kind = iota // no value seen yet (or only nulls)
	kBool               // BOOLEAN
	kInt                // BIGINT
	kFloat              // DOUBLE
	kTS                 // TIMESTAMP(3): 2026-12-02 10:00:00.123
	kTSISO              // TIMESTAMP(3): 2026-12-02T10:00:00.123
	kTSLTZ              // TIMESTAMP_LTZ(3): 2026-12-02T10:00:00.123Z
	kString             // STRING
	kRow                // ROW<…>
	kArray              // ARRAY<…>
)

// shape is the inferred type of a field.
type shape struct {
	kind     kind
	nullable bool
	// conflict names the kinds that met, when they made a STRING.
	conflict string
	// fields (kRow) in the order first seen; elem (kArray).
	names  []string
	fields map[string]*shape
	elem   *shape
	seen   int // records (or parent values) that had the field non-null
}

var (
	tsSQL = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,9})?$`)
	tsISO = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?$`)
	tsLTZ = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$`)
)

// stringKind is what a string value is: a timestamp in one of the forms
// Flink's json format reads, else a STRING.
func stringKind(s string) kind {
	switch {
	case tsSQL.MatchString(s):
		return kTS
	case tsISO.MatchString(s):
		return kTSISO
	case tsLTZ.MatchString(s):
		return kTSLTZ
	}
	return kString
}

func (k kind) String() string {
	return [...]string{"nothing", "BOOLEAN", "BIGINT", "DOUBLE", "TIMESTAMP", "ISO TIMESTAMP", "TIMESTAMP_LTZ", "STRING", "ROW", "ARRAY"}[k]
}

// add merges one JSON value (decoded with UseNumber) into s.
func (s *shape) add(v any) {
	if v == nil {
		s.nullable = true
		return
	}
	s.seen++
	var k kind
	switch v := v.(type) {
	case bool:
		k = kBool
	case json.Number:
		k = kFloat
		if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			k = kInt
		}
	case string:
		k = stringKind(v)
	case map[string]any:
		k = kRow
	case []any:
		k = kArray
	default:
		k = kString
	}
	s.merge(k)
	switch v := v.(type) {
	case map[string]any:
		if s.kind != kRow {
			return
		}
		if s.fields == nil {
			s.fields = map[string]*shape{}
		}
		for _, name := range orderedKeys(v) {
			f := s.fields[name]
			if f == nil {
				f = &shape{}
				s.fields[name] = f
				s.names = append(s.names, name)
			}
			f.add(v[name])
		}
	case []any:
		if s.kind != kArray {
			return
		}
		if s.elem == nil {
			s.elem = &shape{}
		}
		for _, e := range v {
			s.elem.add(e)
		}
	}
}

// merge widens s's kind to take k.
func (s *shape) merge(k kind) {
	switch {
	case s.kind == kNone || s.kind == k:
		s.kind = k
	case s.kind == kString:
	case s.kind == kInt && k == kFloat, s.kind == kFloat && k == kInt:
		s.kind = kFloat
	default:
		if s.conflict == "" {
			s.conflict = s.kind.String() + " and " + k.String()
		}
		s.kind, s.fields, s.names, s.elem = kString, nil, nil, nil
	}
}

// orderedKeys are an object's keys in a stable order. encoding/json
// forgets the order of a map, so the keys come sorted; the record's own
// order is read by keyOrder where it matters (the top level).
func orderedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// keyOrder is the order of a JSON object's top-level keys as written.
func keyOrder(b []byte) []string {
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []string
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return out
		}
		k, _ := t.(string)
		out = append(out, k)
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return out
		}
	}
	return out
}

// flinkType is s as Flink SQL writes it.
func (s *shape) flinkType() string {
	switch s.kind {
	case kBool:
		return "BOOLEAN"
	case kInt:
		return "BIGINT"
	case kFloat:
		return "DOUBLE"
	case kTS, kTSISO:
		return "TIMESTAMP(3)"
	case kTSLTZ:
		return "TIMESTAMP_LTZ(3)"
	case kRow:
		parts := make([]string, len(s.names))
		for i, n := range s.names {
			parts[i] = quoteIdent(n) + " " + s.fields[n].flinkType()
		}
		return "ROW<" + strings.Join(parts, ", ") + ">"
	case kArray:
		if s.elem == nil || s.elem.kind == kNone {
			return "ARRAY<STRING>"
		}
		return "ARRAY<" + s.elem.flinkType() + ">"
	}
	return "STRING"
}

// warnings are the conflicts in s and below, path naming the field.
func (s *shape) warnings(path string) []string {
	var out []string
	if s.conflict != "" {
		out = append(out, fmt.Sprintf("field %s: seen as %s; read as STRING", path, s.conflict))
	}
	if s.kind == kNone {
		out = append(out, fmt.Sprintf("field %s: only null seen; read as STRING", path))
	}
	for _, n := range s.names {
		out = append(out, s.fields[n].warnings(path+"."+n)...)
	}
	if s.elem != nil {
		out = append(out, s.elem.warnings(path+"[]")...)
	}
	return out
}

// usesKind reports whether s or a field of it is of kind k.
func (s *shape) usesKind(k kind) bool {
	if s.kind == k {
		return true
	}
	for _, n := range s.names {
		if s.fields[n].usesKind(k) {
			return true
		}
	}
	return s.elem != nil && s.elem.usesKind(k)
}

// quoteIdent is name in backquotes, a backquote in it doubled.
func quoteIdent(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// schemaOf is the top-level shape of records, with the number that did
// not decode and why the first did not. A JSON record must be an object; a
// CSV one must have as many fields as the first that decoded.
func schemaOf(format string, values [][]byte) (top *shape, undecodable int, firstErr string) {
	top = &shape{kind: kRow, fields: map[string]*shape{}}
	decoded := 0
	fail := func(i int, err error) {
		undecodable++
		if firstErr == "" {
			firstErr = fmt.Sprintf("record %d: %v", i+1, err)
		}
	}
	addRow := func(keys []string, row map[string]any) {
		for _, k := range keys {
			f := top.fields[k]
			if f == nil {
				f = &shape{}
				top.fields[k] = f
				top.names = append(top.names, k)
			}
			f.add(row[k])
		}
		decoded++
	}
	width := -1
	for i, v := range values {
		switch format {
		case "csv":
			fields, err := csv.NewReader(bytes.NewReader(v)).Read()
			if err != nil {
				fail(i, fmt.Errorf("not a CSV line: %v", err))
				continue
			}
			if width < 0 {
				width = len(fields)
			}
			if len(fields) != width {
				fail(i, fmt.Errorf("%d CSV fields, the records before had %d", len(fields), width))
				continue
			}
			row, keys := map[string]any{}, make([]string, len(fields))
			for j, s := range fields {
				keys[j] = fmt.Sprintf("f%d", j)
				row[keys[j]] = csvValue(s)
			}
			addRow(keys, row)
		default:
			var row map[string]any
			d := json.NewDecoder(bytes.NewReader(v))
			d.UseNumber()
			if err := d.Decode(&row); err != nil || row == nil {
				if err == nil {
					err = fmt.Errorf("null")
				}
				fail(i, fmt.Errorf("not a JSON object: %v", err))
				continue
			}
			addRow(keyOrder(v), row)
		}
	}
	for _, n := range top.names {
		if f := top.fields[n]; f.seen < decoded {
			f.nullable = true // a record lacked it, or had it null
		}
	}
	return top, undecodable, firstErr
}

// csvValue is a CSV field as the JSON value it stands for: an empty
// field is null (the csv format's default), numbers and booleans are
// themselves.
func csvValue(s string) any {
	switch {
	case s == "":
		return nil
	case s == "true" || s == "false":
		return s == "true"
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return json.Number(s)
	}
	return s
}

// kafkaDDL writes the CREATE TABLE of a topic from its inferred shape.
func kafkaDDL(name, brokers, topic, format string, top *shape) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (\n", quoteIdent(name))
	for i, n := range top.names {
		f := top.fields[n]
		null := ""
		if !f.nullable && f.kind != kNone {
			null = " NOT NULL"
		}
		sep := ","
		if i == len(top.names)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "  %s %s%s%s\n", quoteIdent(n), f.flinkType(), null, sep)
	}
	opts := [][2]string{{"connector", "kafka"}, {"topic", topic}, {"properties.bootstrap.servers", brokers}, {"format", format}}
	if format == "json" && (top.usesKind(kTSISO) || top.usesKind(kTSLTZ)) {
		opts = append(opts, [2]string{"json.timestamp-format.standard", "ISO-8601"})
	}
	opts = append(opts, [2]string{"scan.startup.mode", "latest-offset"})
	b.WriteString(") WITH (\n")
	for i, o := range opts {
		sep := ","
		if i == len(opts)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "  '%s' = '%s'%s\n", o[0], strings.ReplaceAll(o[1], "'", "''"), sep)
	}
	b.WriteString(")")
	return b.String()
}
