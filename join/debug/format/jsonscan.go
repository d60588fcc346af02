package format

import (
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/palink/palink/join/debug/value"
)

// The json format's fast path. Decoding a line into a map[string]any with
// encoding/json, then converting each field, was half of a stateless
// run's time: the map, a boxed value per field and reflection for every
// row. The scanner below walks the line's top-level object once, notes
// where each column's value is, and converts that text straight into the
// column's type. Anything it is unsure of — a syntax error, an escape in a
// key, invalid UTF-8 — sends the line to the encoding/json path, so what
// is accepted and the error a bad line gets stay encoding/json's. A
// library (jsoniter, go-json, sonic) would still hand back maps or need a
// struct per table, which a schema known only at run time does not have.

// errSlow sends a line to the encoding/json path.
var errSlow = errors.New("not on the fast path")

// span is where a column's value is in the line.
type span struct {
	kind       byte // '"' string, '0' number, 't' true, 'f' false, 'n' null, '{' or '[' nested; 0: absent
	start, end int  // the value's text; for a string, inside the quotes
	escaped    bool // a string with escapes
	exact      bool // found by its exact name (not another case)
}

// fields finds the columns of a table in an object's keys.
type fields struct {
	names []string
	exact map[string]int
}

func newFields(cols []Column) *fields {
	f := &fields{exact: make(map[string]int, len(cols))}
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
	for i := range spans {
		spans[i] = span{}
	}
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return errSlow
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return trailing(s, i+1)
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return errSlow
		}
		ks, ke, esc, ok := scanString(s, i+1)
		if !ok || esc {
			return errSlow
		}
		key := s[ks:ke]
		i = skipSpace(s, ke+1)
		if i >= len(s) || s[i] != ':' {
			return errSlow
		}
		i = skipSpace(s, i+1)
		v, next, err := scanValue(s, i)
		if err != nil {
			return err
		}
		if c, ok := f.exact[key]; ok {
			v.exact = true
			spans[c] = v
		} else {
			// A field named in another case is taken, as the job's earlier
			// debug runs did (Flink itself matches names exactly); an exact
			// name wins.
			for c, name := range f.names {
				if !spans[c].exact && strings.EqualFold(key, name) {
					spans[c] = v
					break
				}
			}
		}
		i = skipSpace(s, next)
		if i >= len(s) {
			return errSlow
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case '}':
			return trailing(s, i+1)
		default:
			return errSlow
		}
	}
}

func trailing(s string, i int) error {
	if skipSpace(s, i) != len(s) {
		return errSlow
	}
	return nil
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// scanString finds the end of a string whose text starts at i (after the
// opening quote): the text is s[i:end], s[end] the closing quote.
func scanString(s string, i int) (start, end int, escaped, ok bool) {
	start = i
	ascii := true
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			if !ascii && !utf8.ValidString(s[start:i]) {
				return 0, 0, false, false // encoding/json replaces bad bytes: leave it to it
			}
			return start, i, escaped, true
		case c == '\\':
			escaped = true
			n := escapeLen(s, i+1)
			if n == 0 {
				return 0, 0, false, false
			}
			i += 1 + n
			continue
		case c < 0x20:
			return 0, 0, false, false
		case c >= 0x80:
			ascii = false
		}
		i++
	}
	return 0, 0, false, false
}

// escapeLen is the length of a valid escape after a backslash at i-1
// (\n, \u00e9), 0 when it is not one.
func escapeLen(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	switch s[i] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 1
	case 'u':
		if i+5 > len(s) {
			return 0
		}
		for _, c := range []byte(s[i+1 : i+5]) {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return 0
			}
		}
		return 5
	}
	return 0
}

// scanValue reads the value at i and returns it and where it ends.
func scanValue(s string, i int) (span, int, error) {
	if i >= len(s) {
		return span{}, 0, errSlow
	}
	switch c := s[i]; {
	case c == '"':
		st, end, esc, ok := scanString(s, i+1)
		if !ok {
			return span{}, 0, errSlow
		}
		return span{kind: '"', start: st, end: end, escaped: esc}, end + 1, nil
	case c == '-' || c >= '0' && c <= '9':
		end, ok := scanNumber(s, i)
		if !ok {
			return span{}, 0, errSlow
		}
		return span{kind: '0', start: i, end: end}, end, nil
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range [...]string{"true", "false", "null"} {
			if strings.HasPrefix(s[i:], lit) {
				return span{kind: c, start: i, end: i + len(lit)}, i + len(lit), nil
			}
		}
	case c == '{' || c == '[':
		end, ok := matching(s, i)
		if !ok || !json.Valid([]byte(s[i:end])) {
			return span{}, 0, errSlow
		}
		return span{kind: c, start: i, end: end}, end, nil
	}
	return span{}, 0, errSlow
}

// scanNumber reads a JSON number at i: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(s string, i int) (int, bool) {
	if s[i] == '-' {
		i++
	}
	digits := func() bool {
		at := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > at
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits():
		return 0, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return 0, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return 0, false
		}
	}
	return i, true
}

// matching is where the object or array at i ends (after its bracket).
func matching(s string, i int) (int, bool) {
	depth := 0
	for i < len(s) {
		switch s[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		case '"':
			_, end, _, ok := scanString(s, i+1)
			if !ok {
				return 0, false
			}
			i = end
		}
		i++
	}
	return 0, false
}

// fastRow converts the scanned spans of line s into a row.
func (r *jsonReader) fastRow(s string) (value.Row, error) {
	if err := r.fields.scanObject(s, r.spans); err != nil {
		return nil, err
	}
	row := make(value.Row, len(r.t.Columns))
	for i, sp := range r.spans {
		if sp.kind == 0 {
			if r.missing {
				return nil, errMissing(r.t.Columns[i].Name)
			}
			continue
		}
		v, err := r.spanValue(i, s, sp)
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
	text := s[sp.start:sp.end]
	switch sp.kind {
	case 'n':
		return nil, nil
	case 't', 'f':
		return r.conv[i](sp.kind == 't')
	case '"':
		if sp.escaped {
			var u string
			if err := json.Unmarshal([]byte(s[sp.start-1:sp.end+1]), &u); err != nil {
				return nil, err
			}
			text = u
		}
		if f := r.fromText[i]; f != nil {
			return f(text)
		}
		return r.conv[i](text)
	case '0':
		if f := r.fromText[i]; f != nil {
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
