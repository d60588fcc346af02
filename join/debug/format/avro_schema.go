package format

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/palink/palink/join/debug/value"
)

// avroSchema is an Avro schema (Avro 1.11), as much of it as reading its
// JSON encoding needs.
type avroSchema struct {
	typ      string // null boolean int long float double bytes string record enum array map fixed union
	logical  string // logicalType: date, time-millis, timestamp-millis, decimal, …
	name     string // a named type's full name (record, enum, fixed)
	fields   []avroField
	items    *avroSchema // an array's items, a map's values
	branches []*avroSchema
	symbols  []string
	scale    int // decimal's
}

type avroField struct {
	name       string
	schema     *avroSchema
	hasDefault bool
	def        any
}

// branchName is how the JSON encoding names a union's branch: a named
// type by its full name, any other by its type's name (a logical type is
// named by its underlying type: {"long": …} for a timestamp-millis).
func (s *avroSchema) branchName() string {
	if s.name != "" {
		return s.name
	}
	return s.typ
}

func (s *avroSchema) nullable() bool {
	if s.typ == "null" {
		return true
	}
	for _, b := range s.branches {
		if b.typ == "null" {
			return true
		}
	}
	return false
}

// describe is what the JSON encoding expects for s, for error messages:
// long, {"long": …} or null, record org.apache.flink.avro.generated.record_r.
func (s *avroSchema) describe() string {
	if s.typ == "union" {
		var alts []string
		for _, b := range s.branches {
			if b.typ == "null" {
				alts = append(alts, "null")
			} else {
				alts = append(alts, fmt.Sprintf(`{"%s": %s}`, b.branchName(), b.describe()))
			}
		}
		return strings.Join(alts, " or ")
	}
	d := s.typ
	if s.logical != "" {
		d += " (" + s.logical + ")"
	}
	if s.name != "" {
		d += " " + s.name
	}
	return d
}

// flinkRecordName is the name Flink gives the record it derives from a
// table's columns; a nested ROW's record is named after its field,
// "<parent>_<field>" (AvroSchemaConverter.convertToSchema).
const flinkRecordName = "org.apache.flink.avro.generated.record"

// deriveAvroSchema is the record schema Flink derives from the columns,
// following AvroSchemaConverter.convertToSchema; legacy is
// 'avro.timestamp_mapping.legacy' (true by default).
func deriveAvroSchema(cols []Column, legacy bool) (*avroSchema, error) {
	rec := &avroSchema{typ: "record", name: flinkRecordName}
	for _, c := range cols {
		if c.Metadata {
			continue // not a part of the message's value
		}
		fs, err := deriveAvro(c.Type, flinkRecordName+"_"+c.Name, legacy)
		if err != nil {
			return nil, err
		}
		rec.fields = append(rec.fields, avroField{name: c.Name, schema: fs, hasDefault: !c.Type.NotNull})
	}
	return rec, nil
}

func deriveAvro(t value.Type, rowName string, legacy bool) (*avroSchema, error) {
	var s *avroSchema
	switch t.Kind {
	case value.Null:
		return &avroSchema{typ: "null"}, nil
	case value.Boolean:
		s = &avroSchema{typ: "boolean"}
	case value.TinyInt, value.SmallInt, value.Int:
		s = &avroSchema{typ: "int"}
	case value.BigInt:
		s = &avroSchema{typ: "long"}
	case value.Float:
		s = &avroSchema{typ: "float"}
	case value.Double:
		s = &avroSchema{typ: "double"}
	case value.Char, value.Varchar:
		s = &avroSchema{typ: "string"}
	case value.Binary, value.Varbinary:
		s = &avroSchema{typ: "bytes"}
	case value.Timestamp:
		switch {
		case t.Precision <= 3 && legacy:
			s = &avroSchema{typ: "long", logical: "timestamp-millis"}
		case legacy:
			return nil, fmt.Errorf("Avro does not support TIMESTAMP type with precision: %d, it only supports precision less than 3.", t.Precision)
		case t.Precision <= 3:
			s = &avroSchema{typ: "long", logical: "local-timestamp-millis"}
		case t.Precision <= 6:
			s = &avroSchema{typ: "long", logical: "local-timestamp-micros"}
		default:
			s = &avroSchema{typ: "long", logical: "local-timestamp-nanos"}
		}
	case value.TimestampLTZ:
		// Flink's legacy mapping refuses TIMESTAMP_LTZ; it is read as the
		// current mapping writes it, which debug users' samples follow.
		switch {
		case t.Precision <= 3:
			s = &avroSchema{typ: "long", logical: "timestamp-millis"}
		case t.Precision <= 6:
			s = &avroSchema{typ: "long", logical: "timestamp-micros"}
		default:
			s = &avroSchema{typ: "long", logical: "timestamp-nanos"}
		}
	case value.Date:
		s = &avroSchema{typ: "int", logical: "date"}
	case value.Time:
		if t.Precision > 3 {
			return nil, fmt.Errorf("Avro does not support TIME type with precision: %d, it only supports precision less than 3.", t.Precision)
		}
		s = &avroSchema{typ: "int", logical: "time-millis"}
	case value.Decimal:
		s = &avroSchema{typ: "bytes", logical: "decimal", scale: t.Scale}
	case value.RowKind:
		s = &avroSchema{typ: "record", name: rowName}
		for _, f := range t.Fields {
			fs, err := deriveAvro(f.Type, rowName+"_"+f.Name, legacy)
			if err != nil {
				return nil, err
			}
			s.fields = append(s.fields, avroField{name: f.Name, schema: fs, hasDefault: !f.Type.NotNull})
		}
	case value.MapKind, value.MultisetKind:
		if !t.Elem.IsString() {
			return nil, fmt.Errorf("Avro format doesn't support non-string as key type of map. The key type is: %s", t.Elem)
		}
		vt := value.TInt
		if t.Kind == value.MapKind {
			vt = *t.Val
		}
		// Flink names a record inside a map or an array after the field
		// holding the collection, not after the collection's element.
		vs, err := deriveAvro(vt, rowName, legacy)
		if err != nil {
			return nil, err
		}
		s = &avroSchema{typ: "map", items: vs}
	case value.ArrayKind:
		es, err := deriveAvro(*t.Elem, rowName, legacy)
		if err != nil {
			return nil, err
		}
		s = &avroSchema{typ: "array", items: es}
	default:
		return nil, fmt.Errorf("Unsupported to derive Schema for type: %s", t)
	}
	if t.NotNull {
		return s, nil
	}
	return &avroSchema{typ: "union", branches: []*avroSchema{{typ: "null"}, s}}, nil
}

// parseAvroSchema reads a schema given as JSON ('avro-confluent.schema').
func parseAvroSchema(text string) (*avroSchema, error) {
	v, err := decode(text)
	if err != nil {
		return nil, fmt.Errorf("the Avro schema is not JSON: %v", err)
	}
	p := &schemaParser{named: map[string]*avroSchema{}}
	return p.parse(v, "")
}

type schemaParser struct {
	named map[string]*avroSchema // named types by full name
}

var avroPrimitives = map[string]bool{"null": true, "boolean": true, "int": true, "long": true,
	"float": true, "double": true, "bytes": true, "string": true}

// fullName is a named type's full name in namespace ns (Avro's rules: a
// dotted name is already full; an explicit namespace wins over ns).
func fullName(name, namespace, ns string) string {
	if strings.Contains(name, ".") {
		return name
	}
	if namespace != "" {
		return namespace + "." + name
	}
	if ns != "" {
		return ns + "." + name
	}
	return name
}

func (p *schemaParser) parse(v any, ns string) (*avroSchema, error) {
	switch x := v.(type) {
	case string:
		if avroPrimitives[x] {
			return &avroSchema{typ: x}, nil
		}
		for _, n := range []string{fullName(x, "", ns), x} {
			if s, ok := p.named[n]; ok {
				return s, nil
			}
		}
		return nil, fmt.Errorf("the Avro schema names an undefined type %q", x)
	case []any:
		u := &avroSchema{typ: "union"}
		for _, b := range x {
			bs, err := p.parse(b, ns)
			if err != nil {
				return nil, err
			}
			u.branches = append(u.branches, bs)
		}
		return u, nil
	case map[string]any:
		return p.parseObject(x, ns)
	}
	return nil, fmt.Errorf("the Avro schema has %s where a type is expected", text(v))
}

func (p *schemaParser) parseObject(x map[string]any, ns string) (*avroSchema, error) {
	typ, _ := x["type"].(string)
	if typ == "" {
		// {"type": {...}} or {"type": [...]}: the type is the inner schema.
		if inner, ok := x["type"]; ok {
			return p.parse(inner, ns)
		}
		return nil, fmt.Errorf("the Avro schema has an object without \"type\": %s", text(x))
	}
	s := &avroSchema{typ: typ}
	s.logical, _ = x["logicalType"].(string)
	if sc, ok := x["scale"].(json.Number); ok {
		n, _ := sc.Int64()
		s.scale = int(n)
	}
	switch typ {
	case "record", "error", "enum", "fixed":
		name, _ := x["name"].(string)
		if name == "" {
			return nil, fmt.Errorf("the Avro schema has a %s without a name", typ)
		}
		namespace, _ := x["namespace"].(string)
		s.name = fullName(name, namespace, ns)
		p.named[s.name] = s
		if typ == "error" {
			s.typ = "record"
		}
	}
	inner := ns
	if i := strings.LastIndex(s.name, "."); i >= 0 {
		inner = s.name[:i]
	}
	switch s.typ {
	case "record":
		fields, _ := x["fields"].([]any)
		for _, f := range fields {
			fo, _ := f.(map[string]any)
			name, _ := fo["name"].(string)
			if name == "" {
				return nil, fmt.Errorf("record %s has a field without a name", s.name)
			}
			fs, err := p.parse(fo["type"], inner)
			if err != nil {
				return nil, fmt.Errorf("field %s of record %s: %w", name, s.name, err)
			}
			def, hasDefault := fo["default"]
			s.fields = append(s.fields, avroField{name: name, schema: fs, hasDefault: hasDefault, def: def})
		}
	case "enum":
		syms, _ := x["symbols"].([]any)
		for _, y := range syms {
			str, _ := y.(string)
			s.symbols = append(s.symbols, str)
		}
	case "array", "map":
		key := "items"
		if s.typ == "map" {
			key = "values"
		}
		is, err := p.parse(x[key], inner)
		if err != nil {
			return nil, err
		}
		s.items = is
	case "fixed":
	default:
		if !avroPrimitives[s.typ] {
			return p.parse(s.typ, ns) // {"type": "SomeNamedType"}
		}
	}
	return s, nil
}
