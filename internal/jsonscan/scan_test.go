package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// docs are texts on both sides of the grammar's edges.
var docs = []string{
	`{}`, `[]`, `{"a":1}`, ` { "a" : [ 1 , 2.5 , -0 , 1e3 , 1E+3 , 1.5e-3 ] } `, `"x"`, `0`, `-1`, `true`, `false`, `null`,
	`{"a":{"b":[{"c":null}]},"d":"e"}`, `["\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"]`, `"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`,
	"\"\xff\"", "\"a\xc3\"", "\"é\"", `"\u00"`, `"\x"`, "\"a\tb\"", "\"a\x00\"", `"abc`, `{"a":1,}`, `[1,]`, `[,1]`, `{"a" 1}`,
	`{1:2}`, `{"a":1 "b":2}`, `01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `--1`, `tru`, `truex`, `nul`, `[1 2]`, `{"a":1}}`,
	`[1]]`, `[`, `{`, `{"a"`, `{"a":`, ``, ` `, `1 2`, `[true,false,null]`, `{"":""}`, `[[[[]]]]`, `"\u0000"`, `"\uD834\uDD1E"`,
}

// scanners reads doc whole in memory, from a reader that ends after
// handing it all, and a byte a read, so that every token is cut at every
// place it can be.
func scanners(doc string) map[string]*Scanner {
	return map[string]*Scanner{
		"memory": New([]byte(doc)),
		"reader": NewReader(strings.NewReader(doc)),
		"stream": NewReader(iotest.OneByteReader(strings.NewReader(doc))),
	}
}

func skipAll(s *Scanner) error {
	if err := s.Skip(); err != nil {
		return err
	}
	return s.End()
}

func TestTakesWhatEncodingJSONTakes(t *testing.T) {
	for _, doc := range docs {
		for name, s := range scanners(doc) {
			err := skipAll(s)
			if (err == nil) != json.Valid([]byte(doc)) {
				t.Errorf("%s %q: scanner %v, json.Valid %v", name, doc, err, json.Valid([]byte(doc)))
			}
		}
	}
}

func TestStringsDecodeAsEncodingJSON(t *testing.T) {
	for _, doc := range docs {
		var want string
		if !strings.HasPrefix(doc, `"`) || json.Unmarshal([]byte(doc), &want) != nil {
			continue
		}
		for name, s := range scanners(doc) {
			got, err := s.String()
			if err != nil || string(got) != want {
				t.Errorf("%s %q: %q, %v; encoding/json %q", name, doc, got, err, want)
			}
		}
	}
}

func TestObjectsAndArraysWalkInOrder(t *testing.T) {
	doc := `{"name":"a\"b","n":-12,"big":12345678901234567890,"f":2.9,"no":null,"list":[1,{"x":[]},"s"],"last":true}`
	for name, s := range scanners(doc) {
		var got []string
		err := s.Object(func(key []byte) error {
			k := string(key)
			got = append(got, k)
			switch k {
			case "name":
				v, err := s.String()
				got = append(got, string(v))
				return err
			case "n", "f", "no":
				n, err := s.Int()
				got = append(got, fmt.Sprint(n))
				return err
			case "list":
				return s.Array(func() error {
					v, err := s.Value()
					got = append(got, string(v.Kind))
					return err
				})
			}
			return s.Skip()
		})
		if err == nil {
			err = s.End()
		}
		want := `name a"b n -12 big f 2 no 0 list 0 { " last`
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("%s: %q %v, want %q", name, strings.Join(got, " "), err, want)
		}
	}
}

func TestInts(t *testing.T) {
	for doc, want := range map[string]int64{
		`0`: 0, `-7`: -7, `123456789012345678`: 123456789012345678, `9223372036854775807`: 9223372036854775807,
		`-9223372036854775808`: -9223372036854775808, `2.9`: 2, `-2.9`: -2, `1e3`: 1000, `null`: 0,
	} {
		for name, s := range scanners(" " + doc) {
			if got, err := s.Int(); err != nil || got != want {
				t.Errorf("%s %s: %d, %v; want %d", name, doc, got, err, want)
			}
		}
	}
	for _, doc := range []string{`"1"`, `1e400`, `true`, `01`} {
		s := New([]byte(doc))
		if _, err := s.Int(); err == nil && s.End() == nil {
			t.Errorf("%s read as an int", doc)
		}
	}
}

func TestValueSaysWhereItLies(t *testing.T) {
	doc := ` {"s": "a\nb" , "n": -1.5e3, "o": {"x": [1, "]"]}, "t": true}`
	want := map[string]string{"s": `a\nb`, "n": `-1.5e3`, "o": `{"x": [1, "]"]}`, "t": `true`}
	for name, s := range scanners(doc) {
		err := s.Object(func(key []byte) error {
			k := string(key)
			v, err := s.Value()
			if got := doc[v.Start:v.End]; got != want[k] || v.Escaped != (k == "s") {
				t.Errorf("%s %s: %q (escaped %v), want %q", name, k, got, v.Escaped, want[k])
			}
			return err
		})
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The nesting bound is encoding/json's, so that what one refuses for its
// depth the other refuses too.
func TestDepthIsBoundedAsEncodingJSON(t *testing.T) {
	for _, n := range []int{DefaultMaxDepth, DefaultMaxDepth + 1} {
		doc := strings.Repeat("[", n) + strings.Repeat("]", n)
		err := skipAll(New([]byte(doc)))
		if (err == nil) != json.Valid([]byte(doc)) {
			t.Errorf("depth %d: scanner %v, json.Valid %v", n, err, json.Valid([]byte(doc)))
		}
	}
}

// A string longer than the window grows it; a reader's error is the
// scanner's.
func TestLongStringsAndReaderErrors(t *testing.T) {
	long := strings.Repeat("é\\n", bufSize)
	s := NewReader(strings.NewReader(`["` + long + `"]`))
	err := s.Array(func() error {
		v, err := s.String()
		if err == nil && string(v) != strings.ReplaceAll(long, `\n`, "\n") {
			t.Errorf("a %d-byte string read as %d bytes", len(long), len(v))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("connection reset")
	s = NewReader(io.MultiReader(strings.NewReader(`{"a": [1, 2`), iotest.ErrReader(boom)))
	if err := s.Skip(); !errors.Is(err, boom) {
		t.Errorf("a reader failing mid-value: %v", err)
	}
	s = NewReader(strings.NewReader(`{"a": [1, 2`))
	if err := s.Skip(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a text cut short: %v", err)
	}
	var se *SyntaxError
	if err := skipAll(New([]byte(`{"a": [1, 2}`))); !errors.As(err, &se) || se.Offset != 11 {
		t.Errorf("a syntax error says where: %v", err)
	}
}

// FuzzAgreesWithEncodingJSON: whatever the text, the scanner takes it
// exactly when encoding/json does, reads the same in memory as streamed
// a byte at a time, and decodes a string as encoding/json does.
func FuzzAgreesWithEncodingJSON(f *testing.F) {
	for _, d := range docs {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		read := func(s *Scanner) (Value, error) {
			v, err := s.Value()
			if err == nil {
				err = s.End()
			}
			return v, err
		}
		v1, err1 := read(New(doc))
		if (err1 == nil) != json.Valid(doc) {
			t.Fatalf("%q: scanner %v, json.Valid %v", doc, err1, json.Valid(doc))
		}
		for _, r := range []io.Reader{bytes.NewReader(doc), iotest.OneByteReader(bytes.NewReader(doc))} {
			v2, err2 := read(NewReader(r))
			if (err1 == nil) != (err2 == nil) || err1 == nil && v1 != v2 {
				t.Fatalf("%q: in memory %+v %v, streamed %+v %v", doc, v1, err1, v2, err2)
			}
		}
		var want string
		if err1 != nil || v1.Kind != '"' || json.Unmarshal(doc, &want) != nil {
			return
		}
		if got := Unescape(nil, doc[v1.Start:v1.End]); string(got) != want {
			t.Fatalf("%q: decoded %q, encoding/json %q", doc, got, want)
		}
	})
}

// BenchmarkLine walks a line of the debug runtime's json format in memory,
// each member's value found but not converted.
func BenchmarkLine(b *testing.B) {
	line := `{"id": 123456, "usr": "u56", "amount": 30, "price": 6.56, "ts": "2024-01-02 10:17:36"}`
	s := New(nil)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		s.ResetString(line)
		err := s.Object(func([]byte) error {
			_, err := s.Value()
			return err
		})
		if err == nil {
			err = s.End()
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}
