package format

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/join/debug/value"
)

// FuzzJSONFastPathAgrees: whatever line the scanner takes, it reads the
// same row as encoding/json's path, or fails where that path fails.
func FuzzJSONFastPathAgrees(f *testing.F) {
	for _, s := range []string{
		`{"id": 1, "name": "a", "price": 9.99, "ts": "2024-01-02 10:15:30.5", "ok": true}`,
		`{"ID": 3, "id": 4, "Name": "x", "price": null}`,
		`{"id": "12", "name": 12, "price": "-0.015", "ok": "TRUE", "extra": {"a": [1, "}"]}}`,
		`{"id": 01}`, `{"id": 1,}`, `{"id": 1} x`, `[1]`, `{"name": "\ud83d\ude00 \u00e9"}`,
		`{"id": 9223372036854775808}`, `{"price": 1e400}`, `{"ts": "2024-02-30 00:00:00"}`,
		`{"price": 12345678901234567.89}`, `{"name": "a\u0000b"}`, `{"id": -0, "price": -0.0}`,
		"{\"name\": \"\xff\"}", `{ }`, `{"id":1,"id":2}`,
		`{"i\u0064": 5, "NAME": "\u00e9\ud800", "name": "x"}`, `{"extra": [[[[1, {"a": "\""}]]]], "id": 2}`, "{\"name\": \"a\xc3\u00e9\"}",
	} {
		f.Add(s)
	}
	cols := []Column{}
	for _, c := range []struct{ name, typ string }{
		{"id", "BIGINT"}, {"name", "STRING"}, {"price", "DECIMAL(10, 2)"}, {"ts", "TIMESTAMP(3)"}, {"ok", "BOOLEAN"},
	} {
		vt, err := value.Parse(c.typ)
		if err != nil {
			f.Fatal(err)
		}
		cols = append(cols, Column{Name: c.name, Type: vt})
	}
	r, err := newJSON(nil, Table{Name: "t", Columns: cols}, func(string) string { return "" })
	if err != nil {
		f.Fatal(err)
	}
	show := func(row value.Row) string {
		vals := make([]string, len(row))
		for i, v := range row {
			vals[i] = value.Print(v, cols[i].Type, time.UTC)
		}
		return strings.Join(vals, " | ")
	}
	f.Fuzz(func(t *testing.T, line string) {
		line = strings.TrimSpace(line)
		fast, ferr := r.fastRow(line)
		if ferr == errSlow {
			return
		}
		v, err := decode(line)
		if err != nil {
			t.Fatalf("the scanner took %q, encoding/json refuses it: %v", line, err)
		}
		obj, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("the scanner took %q, which is not an object", line)
		}
		slow, serr := objectRow(obj, cols, r.conv, false)
		if (ferr == nil) != (serr == nil) || ferr != nil && ferr.Error() != serr.Error() {
			t.Fatalf("%q: scanner error %v, encoding/json's path %v", line, ferr, serr)
		}
		if ferr == nil && show(fast) != show(slow) {
			t.Fatalf("%q: scanner %s, encoding/json's path %s", line, show(fast), show(slow))
		}
	})
}

// BenchmarkJSONFastRow reads one order line of the debug benchmarks
// (join/debug/bench_test.go): scan finds the columns' values, row also
// converts them, row-escaped does for a line with escapes; none has the
// file or the pipeline around it.
func BenchmarkJSONFastRow(b *testing.B) {
	cols := []Column{}
	for _, c := range []struct{ name, typ string }{
		{"id", "BIGINT"}, {"usr", "STRING"}, {"amount", "INT"}, {"price", "DECIMAL(10, 2)"}, {"ts", "TIMESTAMP(3)"},
	} {
		vt, err := value.Parse(c.typ)
		if err != nil {
			b.Fatal(err)
		}
		cols = append(cols, Column{Name: c.name, Type: vt})
	}
	r, err := newJSON(nil, Table{Name: "orders", Columns: cols}, func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	line := `{"id": 123456, "usr": "u56", "amount": 30, "price": 6.56, "ts": "2024-01-02 10:17:36"}`
	b.Run("scan", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		b.ReportAllocs()
		for b.Loop() {
			if err := r.fields.scanObject(line, r.spans); err != nil {
				b.Fatal(err)
			}
		}
	})
	for name, line := range map[string]string{
		"row":         line,
		"row-escaped": `{"id": 123456, "us\u0072": "caf\u00e9 \"56\"", "amount": 30, "price": 6.56, "ts": "2024-01-02 10:17:36"}`,
	} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.row(line); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
