package flinksql

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/format"
)

// stripPositions zeroes every Span in the tree so two parses of different
// text can be compared for structure alone.
func stripPositions(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			stripPositions(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(ast.Span{}) {
			v.Set(reflect.Zero(v.Type()))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				stripPositions(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			stripPositions(v.Index(i))
		}
	}
}

func stripped(stmts []ast.Statement) []ast.Statement {
	stripPositions(reflect.ValueOf(stmts))
	return stmts
}

// checkRoundTrip asserts parse -> Format -> parse gives the same tree and
// that Format is stable on its own output.
func checkRoundTrip(t *testing.T, name, src string) {
	t.Helper()
	s1, errs := ParseFile(name, src)
	if len(errs) > 0 {
		t.Errorf("%s: parse: %v", name, errs[0])
		return
	}
	out1 := Format(s1)
	s2, errs := ParseFile(name+" (formatted)", out1)
	if len(errs) > 0 {
		t.Errorf("%s: formatted output does not parse: %v\n%s\n--- output:\n%s", name, errs[0], errs[0].Snippet(), out1)
		return
	}
	if out2 := Format(s2); out2 != out1 {
		t.Errorf("%s: Format is not stable:\n--- first:\n%s\n--- second:\n%s", name, out1, out2)
	}
	a, b := stripped(s1.Stmts), stripped(s2.Stmts)
	if len(a) != len(b) {
		t.Errorf("%s: %d statements, %d after formatting", name, len(a), len(b))
		return
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) {
			t.Errorf("%s: statement %d changed by formatting:\n%s\n--- formatted:\n%s", name, i+1, format.Statement(a[i]), format.Statement(b[i]))
		}
	}
	// Every comment of the source survives formatting.
	for _, c := range s1.Comments {
		if !strings.Contains(out1, c.Text) {
			t.Errorf("%s: comment %q lost by Format", name, c.Text)
		}
	}
}

func TestFormatRoundTripCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/flinkdocs/*.sql")
	if err != nil || len(files) == 0 {
		// A glob that matches nothing would make this test pass vacuously.
		t.Fatalf("no corpus files in testdata/flinkdocs: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkRoundTrip(t, filepath.Base(f), string(src))
	}
}
