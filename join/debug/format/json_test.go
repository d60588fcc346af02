package format

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/join/debug/value"
)

// table is a table of columns "name TYPE; …" with WITH options.
func table(t *testing.T, format, cols string, opts map[string]string) Table {
	t.Helper()
	tb := Table{Name: "t", Format: format, Connector: "kafka", Options: opts}
	for _, c := range strings.Split(cols, ";") {
		name, typ, _ := strings.Cut(strings.TrimSpace(c), " ")
		vt, err := value.Parse(typ)
		if err != nil {
			t.Fatalf("column %s: %v", c, err)
		}
		tb.Columns = append(tb.Columns, Column{Name: name, Type: vt})
	}
	return tb
}

// read reads a file of the table as a run reads it: every row printed
// as Flink's SQL client prints it, "a | 1 | NULL", or the error.
func read(t *testing.T, tb Table, file, content string) ([]string, error) {
	t.Helper()
	out, _, err := readSkipping(t, tb, file, content)
	return out, err
}

// readSkipping is read, with what the reader skipped.
func readSkipping(t *testing.T, tb Table, file, content string) ([]string, Skipped, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), file)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := Open(p, tb)
	if err != nil {
		return nil, Skipped{}, err
	}
	defer r.Close()
	var out []string
	for {
		rec, ok, err := r.Next()
		if err != nil || !ok {
			var sk Skipped
			if s, is := r.(Skipper); is {
				sk = s.Skipped()
			}
			return out, sk, err
		}
		vals := make([]string, len(rec.Row))
		for i, v := range rec.Row {
			vals[i] = value.Print(v, tb.Columns[i].Type, time.UTC)
		}
		out = append(out, rec.Kind.String()+" "+strings.Join(vals, " | "))
	}
}

func same(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// TestJSONReadsColumnsByName: fields by name in any order, other fields
// ignored whatever they hold, a missing or null field NULL, a field named
// in another case taken when no field has the exact name, and each type
// read as Flink's json format reads it.
func TestJSONReadsColumnsByName(t *testing.T) {
	tb := table(t, "json", "id BIGINT; name STRING; price DECIMAL(10, 2); ts TIMESTAMP(3); ok BOOLEAN; ratio DOUBLE; tags ARRAY<INT>; r ROW<a INT>", nil)
	got, err := read(t, tb, "t.jsonl", `{"ts": "2024-01-02 10:15:30.5", "id": 1, "name": "a", "price": 9.99, "ok": true, "ratio": 0.25, "tags": [1, 2], "r": {"a": 7}}
{"other": {"x": [1, {"y": "}"}]}, "id": 2, "name": "tab\there \"q\" \u00e9", "price": "12.5", "ok": "TRUE", "ratio": 1e3}

{"ID": 3, "id": 4, "Name": "x", "price": null, "ts": null, "tags": null}
  {"id": -5, "name": 12, "price": -0.015, "ts": "2024-02-29 23:59:59.123456789", "ok": false}
`)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "rows", got, []string{
		"+I 1 | a | 9.99 | 2024-01-02 10:15:30.500 | TRUE | 0.25 | [1, 2] | (7)",
		"+I 2 | tab\there \"q\" é | 12.50 | NULL | TRUE | 1000.0 | NULL | NULL",
		"+I 4 | x | NULL | NULL | NULL | NULL | NULL | NULL",
		"+I -5 | 12 | -0.02 | 2024-02-29 23:59:59.123 | FALSE | NULL | NULL | NULL",
	})
}

// TestJSONBadRecords: a line that is not a JSON object, or whose field does
// not read as its column's type, fails the run at its line (and column).
// With json.ignore-parse-errors, as Flink's deserializer and its nullable
// converters do it, a line that is no JSON object is skipped and a field
// that does not read is NULL in a row that is kept; both are counted.
func TestJSONBadRecords(t *testing.T) {
	cols := "id INT; name STRING"
	skipped := []string{"+I 1 | ok", "+I 3 | after"}
	nulled := []string{"+I 1 | ok", "+I NULL | b", "+I 3 | after"}
	for _, tc := range []struct {
		name, line, err string
		ignored         []string
	}{
		{"not JSON", `{"id": 1, "name": "a"`, `t.jsonl line 2: Failed to deserialize JSON '{"id": 1, "name": "a"': unexpected EOF`, skipped},
		{"not an object", `[1, "a"]`, `t.jsonl line 2: Failed to deserialize JSON '[1, "a"]': not an object`, skipped},
		{"text after it", `{"id": 1} {"id": 2}`, `t.jsonl line 2: Failed to deserialize JSON '{"id": 1} {"id": 2}': text after the JSON value`, skipped},
		{"a leading zero", `{"id": 01}`, `t.jsonl line 2: Failed to deserialize JSON '{"id": 01}': invalid character '1' after object key:value pair`, skipped},
		{"not a number", `{"id": "abc", "name": "b"}`, `t.jsonl line 2, column id: For input string: "abc"`, nulled},
		// Beyond INT's range a number is parsed from Jackson's text of it.
		{"a fraction beyond INT", `{"id": 3000000000.5, "name": "b"}`, `t.jsonl line 2, column id: For input string: "3.0000000005E9"`, nulled},
		{"out of range", `{"name": "b", "id": 3000000000}`, `t.jsonl line 2, column id: For input string: "3000000000"`, nulled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := `{"id": 1, "name": "ok"}` + "\n" + tc.line + "\n" + `{"id": 3, "name": "after"}` + "\n"
			got, err := read(t, table(t, "json", cols, nil), "t.jsonl", data)
			if err == nil || err.Error() != tc.err {
				t.Errorf("error %v, want %s", err, tc.err)
			}
			same(t, "rows before the bad one", got, []string{"+I 1 | ok"})
			got, sk, err := readSkipping(t, table(t, "json", cols, map[string]string{"json.ignore-parse-errors": "true"}), "t.jsonl", data)
			if err != nil {
				t.Fatal(err)
			}
			same(t, "with ignore-parse-errors", got, tc.ignored)
			want := Skipped{Rows: 1, Lines: []int64{2}}
			if len(tc.ignored) == 3 {
				want = Skipped{Fields: 1, Lines: []int64{2}}
			}
			if sk.Rows != want.Rows || sk.Fields != want.Fields || !slices.Equal(sk.Lines, want.Lines) {
				t.Errorf("skipped %+v, want %+v", sk, want)
			}
		})
	}
}

// TestJSONFailOnMissingField: a field missing fails the run, a null one
// does not; the option cannot go with ignore-parse-errors.
func TestJSONFailOnMissingField(t *testing.T) {
	tb := table(t, "json", "id INT; name STRING", map[string]string{"json.fail-on-missing-field": "true"})
	got, err := read(t, tb, "t.jsonl", `{"id": 1, "name": null}
{"id": 2}
`)
	if err == nil || err.Error() != "t.jsonl line 2: Could not find field with name 'name'" {
		t.Errorf("error %v", err)
	}
	same(t, "rows", got, []string{"+I 1 | NULL"})

	tb.Options["json.ignore-parse-errors"] = "true"
	if _, err := read(t, tb, "t.jsonl", "{}\n"); err == nil || !strings.Contains(err.Error(), "fail-on-missing-field and ignore-parse-errors shouldn't both be true") {
		t.Errorf("both options: %v", err)
	}
}

// TestJSONTimestampFormat: timestamps as json.timestamp-format.standard
// says: SQL's "yyyy-MM-dd HH:mm:ss" by default, ISO-8601's
// "yyyy-MM-ddTHH:mm:ss" when set; a TIMESTAMP_LTZ ends in Z; the
// fraction is cut to the column's precision.
func TestJSONTimestampFormat(t *testing.T) {
	for _, tc := range []struct {
		name, standard, typ, text, want, err string
	}{
		{"SQL", "", "TIMESTAMP(3)", "2024-01-02 10:15:30.1239", "2024-01-02 10:15:30.123", ""},
		{"SQL without a fraction", "SQL", "TIMESTAMP(3)", "2024-01-02 10:15:30", "2024-01-02 10:15:30.000", ""},
		{"SQL at precision 0", "", "TIMESTAMP(0)", "2024-01-02 10:15:30.999", "2024-01-02 10:15:30", ""},
		{"SQL refuses ISO", "", "TIMESTAMP(3)", "2024-01-02T10:15:30", "", "t.jsonl line 1, column ts: Text '2024-01-02T10:15:30' could not be parsed as a TIMESTAMP (yyyy-MM-dd HH:mm:ss[.SSS])"},
		{"no such day", "", "TIMESTAMP(3)", "2023-02-29 10:15:30", "", "t.jsonl line 1, column ts: Text '2023-02-29 10:15:30' could not be parsed as a TIMESTAMP (yyyy-MM-dd HH:mm:ss[.SSS])"},
		{"ISO", "ISO-8601", "TIMESTAMP(3)", "2024-01-02T10:15:30.5", "2024-01-02 10:15:30.500", ""},
		{"ISO refuses SQL", "ISO-8601", "TIMESTAMP(3)", "2024-01-02 10:15:30", "", "t.jsonl line 1, column ts: Text '2024-01-02 10:15:30' could not be parsed as a TIMESTAMP (yyyy-MM-ddTHH:mm:ss[.SSS])"},
		{"LTZ", "ISO-8601", "TIMESTAMP_LTZ(3)", "2024-01-02T10:15:30Z", "2024-01-02 10:15:30.000", ""},
		{"LTZ without Z", "", "TIMESTAMP_LTZ(3)", "2024-01-02 10:15:30", "", "t.jsonl line 1, column ts: Text '2024-01-02 10:15:30' could not be parsed as a TIMESTAMP_LTZ (yyyy-MM-dd HH:mm:ss[.SSS]Z)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := map[string]string{}
			if tc.standard != "" {
				opts["json.timestamp-format.standard"] = tc.standard
			}
			got, err := read(t, table(t, "json", "ts "+tc.typ, opts), "t.jsonl", `{"ts": "`+tc.text+`"}`+"\n")
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Errorf("error %v, want %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			same(t, tc.text, got, []string{"+I " + tc.want})
		})
	}
}

// TestJSONDecimals: a DECIMAL is rounded half up to its scale, and NULL
// when it has more integer digits than the type — the same whether the
// text is a number or a string, short or long.
func TestJSONDecimals(t *testing.T) {
	got, err := read(t, table(t, "json", "d DECIMAL(5, 2)", nil), "t.jsonl", `{"d": 1.005}
{"d": "-1.005"}
{"d": 999.99}
{"d": 1000}
{"d": 0.1234567890123456789}
{"d": 1e2}
{"d": "00012.3"}
`)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "decimals", got, []string{"+I 1.01", "+I -1.01", "+I 999.99", "+I NULL", "+I 0.12", "+I 100.00", "+I 12.30"})
	if _, err := read(t, table(t, "json", "d DECIMAL(5, 2)", nil), "t.jsonl", `{"d": "1.2.3"}`+"\n"); err == nil ||
		err.Error() != "t.jsonl line 1, column d: Character 1.2.3 is neither a decimal digit number" {
		t.Errorf("error %v", err)
	}
}
