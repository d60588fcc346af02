package cli

import (
	"encoding"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// The scriptable output (-o json, -o yaml) is one documented form
// (docs/output.schema.json), the same for every command, locally and through
// the agent: field names in snake_case, a time that is not known as null
// (never year 1), durations in seconds, enums by name, lists never null.
// wire turns any value into that form; the schema is made from the same
// rules (cli/output_schema_test.go), so the two cannot drift apart.

// Output formats.
const (
	outTable = "table"
	outWide  = "wide"
	outJSON  = "json"
	outYAML  = "yaml"
	// outJSONL is `palink debug`'s alone: each row a JSON line as it comes.
	outJSONL = "jsonl"
)

// checkOutput refuses an -o value no command knows.
func checkOutput(format string) error {
	switch format {
	case outTable, outWide, outJSON, outYAML, outJSONL:
		return nil
	}
	return exitError{code: 2, msg: fmt.Sprintf("unknown output format %q: want table, wide, json or yaml", format)}
}

// structured reports whether the output is for programs (json or yaml).
func (g *globals) structured() bool { return g.output == outJSON || g.output == outYAML }

// writeData writes v in the documented form, as JSON or YAML.
func writeData(w io.Writer, format string, v any) error {
	doc := wire(reflect.ValueOf(v))
	if format == outYAML {
		enc := yaml.NewEncoder(w)
		enc.SetIndent(2)
		if err := enc.Encode(doc); err != nil {
			return err
		}
		return enc.Close()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	durationType = reflect.TypeFor[time.Duration]()
	textType     = reflect.TypeFor[encoding.TextMarshaler]()
)

// wire is v in the documented form: maps, slices, strings, numbers, bools
// and nil.
func wire(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	t := v.Type()
	switch {
	case t == timeType:
		tm := v.Interface().(time.Time)
		if tm.IsZero() {
			return nil
		}
		return tm.Format(time.RFC3339Nano)
	case t == durationType:
		return time.Duration(v.Int()).Seconds()
	case t.Implements(textType) && t.Kind() != reflect.Pointer:
		b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return err.Error()
		}
		return string(b)
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return wire(v.Elem())
	case reflect.Struct:
		out := map[string]any{}
		addFields(out, v)
		return out
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return string(v.Bytes())
		}
		fallthrough
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = wire(v.Index(i))
		}
		return out
	case reflect.Map:
		out := make(map[string]any, v.Len())
		for _, k := range v.MapKeys() {
			out[fmt.Sprint(k.Interface())] = wire(v.MapIndex(k))
		}
		return out
	}
	return v.Interface()
}

// addFields puts a struct's exported fields in out; an embedded struct's
// fields are promoted, as encoding/json does.
func addFields(out map[string]any, v reflect.Value) {
	for _, f := range fieldsOf(v.Type()) {
		fv := v.FieldByIndex(f.index)
		if f.embedded {
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue
				}
				fv = fv.Elem()
			}
			addFields(out, fv)
			continue
		}
		out[f.name] = wire(fv)
	}
}

// field is one exported field as the output names it.
type field struct {
	name     string
	index    []int
	embedded bool
}

// fieldsByType caches fieldsOf: a list of 100,000 jobs asks for one
// type's fields 100,000 times.
var fieldsByType sync.Map // reflect.Type → []field

func fieldsOf(t reflect.Type) []field {
	if fs, ok := fieldsByType.Load(t); ok {
		return fs.([]field)
	}
	fs := readFields(t)
	fieldsByType.Store(t, fs)
	return fs
}

// readFields is fieldsOf read from the type.
func readFields(t reflect.Type) []field {
	var out []field
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || tag == "-" {
			continue
		}
		embedded := sf.Anonymous && (sf.Type.Kind() == reflect.Struct || sf.Type.Kind() == reflect.Pointer && sf.Type.Elem().Kind() == reflect.Struct) &&
			sf.Type != timeType
		name := snake(sf.Name)
		if tag != "" {
			name = tag // a type written for output names its fields itself
		}
		out = append(out, field{name: name, index: sf.Index, embedded: embedded})
	}
	return out
}

// snake is a Go name in snake_case, acronyms kept whole: AppID → app_id,
// JMAddress → jm_address, RecordsInPerSec → records_in_per_sec.
func snake(name string) string {
	r := []rune(name)
	var b strings.Builder
	for i, c := range r {
		if unicode.IsUpper(c) && i > 0 {
			prevLower := unicode.IsLower(r[i-1]) || unicode.IsDigit(r[i-1])
			nextLower := i+1 < len(r) && unicode.IsLower(r[i+1])
			if prevLower || (unicode.IsUpper(r[i-1]) && nextLower) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// show writes what a read returned: its error, else v as -o asks (json or
// yaml), else as print lays it out for a terminal.
func show[T any](g *globals, w io.Writer, v T, err error, print func(io.Writer, T) error) error {
	if err != nil {
		return err
	}
	if g.structured() {
		return writeData(w, g.output, v)
	}
	return print(w, v)
}
