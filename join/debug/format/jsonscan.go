package format

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/palink/palink/internal/jsonscan"
	"github.com/palink/palink/join/debug/value"
)

// The json format's fast path. Decoding a line into a map[string]any with
// encoding/json, then converting each field, was half of a stateless
// run's time: the map, a boxed value per field and reflection for every
// row. The scanner (internal/jsonscan) walks the line's top-level object
// once, notes where each column's value is, and converts that text
// straight into the column's type, its strings decoded as encoding/json
// decodes them. A line the scanner refuses goes to the encoding/json
// path, so what is accepted and the error a bad line gets stay
// encoding/json's. A library (jsoniter, go-json, sonic) would still hand
// back maps or need a struct per table, which a schema known only at run
// time does not have.

// errSlow sends a line to the encoding/json path.
var errSlow = errors.New("not on the fast path")

// span is where a column's value is in the line (a jsonscan.Value whose
// Kind is 0 when the column is absent).
type span struct {
	jsonscan.Value
	exact bool // found by its exact name (not another case)
}

// fields finds the columns of a table in an object's keys.
type fields struct {
	names []string
	exact map[string]int
	sc    *jsonscan.Scanner
}

func newFields(cols []Column) *fields {
	f := &fields{exact: make(map[string]int, len(cols)), sc: jsonscan.New(nil)}
	for i, c := range cols {
		f.names = append(f.names, c.Name)
		if _, dup := f.exact[c.Name]; !dup {
			f.exact[c.Name] = i
		}
	}
	return f
}

// scanObject fills spans (one per column) from a line that is one JSON
// object; errSlow if it cannot say.
func (f *fields) scanObject(s string, spans []span) error {
	clear(spans)
	f.sc.ResetString(s)
	err := f.sc.Object(func(key []byte) error {
		v, err := f.sc.Value()
		if err != nil {
			return err
		}
		if c, ok := f.exact[string(key)]; ok {
			spans[c] = span{Value: v, exact: true}
			return nil
		}
		// A field named in another case is taken, as the job's earlier
		// debug runs did (Flink itself matches names exactly); an exact
		// name wins.
		for c, name := range f.names {
			if !spans[c].exact && strings.EqualFold(string(key), name) {
				spans[c] = span{Value: v}
				break
			}
		}
		return nil
	})
	if err == nil {
		err = f.sc.End()
	}
	if err != nil {
		return errSlow
	}
	return nil
}

// fastRow converts the scanned spans of line s into a row.
func (r *jsonReader) fastRow(s string) (value.Row, error) {
	if err := r.fields.scanObject(s, r.spans); err != nil {
		return nil, err
	}
	row := make(value.Row, len(r.t.Columns))
	for i, sp := range r.spans {
		if sp.Kind == 0 {
			if r.missing {
				return nil, errMissing(r.t.Columns[i].Name)
			}
			continue
		}
		v, err := r.spanValue(i, s, sp)
		if err != nil && r.ignore {
			r.nulled++ // NULL, as Flink's nullable converter makes it
			continue
		}
		if err != nil {
			return nil, colError(r.t.Columns[i].Name, err)
		}
		row[i] = v
	}
	return row, nil
}

// spanValue is the column's value of a span: scalars through the column's
// text converter, the rest as encoding/json decodes them.
func (r *jsonReader) spanValue(i int, s string, sp span) (any, error) {
	text := s[sp.Start:sp.End]
	switch sp.Kind {
	case 'n':
		return nil, nil
	case 't', 'f':
		return r.conv[i](sp.Kind == 't')
	case '"':
		if sp.Escaped || sp.BadUTF8 {
			text = string(jsonscan.Unescape(nil, []byte(text)))
		}
		if f := r.fromText[i]; f != nil {
			return f(text)
		}
		return r.conv[i](text)
	case '0':
		if f := r.fromNum[i]; f != nil {
			return f(text)
		}
		return r.conv[i](json.Number(text))
	}
	v, err := decode(text)
	if err != nil {
		return nil, err
	}
	return r.conv[i](v)
}
