package format

import (
	"fmt"
	"strings"
	"testing"
)

// TestJSONNumberCoercions: what a JSON value becomes in a column, as
// Flink's JsonToRowDataConverters make it from Jackson's nodes — on the
// fast path (the scanner) and on encoding/json's (a value inside an
// array), which must agree.
func TestJSONNumberCoercions(t *testing.T) {
	cases := []struct {
		typ, json, want string
	}{
		{"INT", `3.7`, "3"},   // canConvertToInt, asInt: truncated
		{"INT", `-3.7`, "-3"}, // toward zero
		{"INT", `"12"`, "12"}, // a string: Integer.parseInt
		{"INT", `" 12 "`, "12"},
		{"INT", `1e3`, "1000"},
		{"INT", `2147483646.9`, "2147483646"},
		{"INT", `2147483647.9`, `error: For input string: "2.1474836479E9"`}, // beyond MAX_VALUE: parsed from its text
		{"SMALLINT", `40000`, `error: Value out of range. Value:"40000" Radix:10`},
		{"INT", `2147483648`, `error: For input string: "2147483648"`},
		{"INT", `"3.7"`, `error: For input string: "3.7"`}, // a string is parsed, never truncated
		{"BIGINT", `1e3`, "1000"},
		{"BIGINT", `9.99`, "9"},
		{"SMALLINT", `3.7`, `error: For input string: "3.7"`}, // Short.parseShort of the text
		{"TINYINT", `1e2`, `error: For input string: "100.0"`},
		{"STRING", `true`, "true"},
		{"STRING", `12`, "12"},
		{"STRING", `-0`, "0"},
		{"STRING", `1e3`, "1000.0"}, // a DoubleNode: Double.toString
		{"STRING", `3.70`, "3.7"},
		{"STRING", `1e7`, "1.0E7"},
		{"STRING", `0.0001`, "1.0E-4"},
		{"STRING", `{"a": [1, 2]}`, `{"a":[1,2]}`},
		{"DOUBLE", `3`, "3.0"},
		{"DOUBLE", `"2.5"`, "2.5"},
		{"BOOLEAN", `1`, "FALSE"}, // Boolean.parseBoolean("1")
		{"BOOLEAN", `"TRUE"`, "TRUE"},
	}
	for _, tc := range cases {
		t.Run(tc.typ+" "+tc.json, func(t *testing.T) {
			for _, path := range []struct {
				cols, line string
				array      bool
			}{
				{"v " + tc.typ, fmt.Sprintf(`{"v": %s}`, tc.json), false},
				{"v ARRAY<" + tc.typ + ">", fmt.Sprintf(`{"v": [%s]}`, tc.json), true},
			} {
				got, err := read(t, table(t, "json", path.cols, nil), "t.jsonl", path.line+"\n")
				g := ""
				switch {
				case err != nil:
					g = "error: " + errTail(err.Error())
				case len(got) == 1:
					g = got[0][len("+I "):]
				}
				want := tc.want
				if path.array && err == nil {
					want = "[" + want + "]"
				}
				if g != want {
					t.Errorf("%s from %s: %q, want %q", path.cols, path.line, g, want)
				}
			}
		})
	}
}

// TestJSONFloatsOfATableWithDecimals: where a table has a DECIMAL column,
// Flink reads every float as a BigDecimal (USE_BIG_DECIMAL_FOR_FLOATS),
// trailing zeros stripped: a STRING column gets BigDecimal's text.
func TestJSONFloatsOfATableWithDecimals(t *testing.T) {
	got, err := read(t, table(t, "json", "s STRING; d DECIMAL(10, 2)", nil), "t.jsonl",
		`{"s": 1e3, "d": 1}`+"\n"+`{"s": 3.70, "d": 1}`+"\n"+`{"s": 0.000000123, "d": 1}`+"\n"+`{"s": 0.0, "d": 1}`+"\n"+`{"s": 12.5e1, "d": 1}`+"\n")
	if err != nil {
		t.Fatal(err)
	}
	same(t, "rows", got, []string{"+I 1E+3 | 1.00", "+I 3.7 | 1.00", "+I 1.23E-7 | 1.00", "+I 0 | 1.00", "+I 125 | 1.00"})
}

// errTail is an error's text after the column it names.
func errTail(s string) string {
	if _, after, ok := strings.Cut(s, "column v: "); ok {
		return after
	}
	return s
}

// TestCSVFieldCoercions: a CSV field is text, which Flink's
// CsvToRowDataConverters parse with Java's own parsers: numbers and
// booleans trimmed, a fraction never an integer, strings as they are.
func TestCSVFieldCoercions(t *testing.T) {
	cases := []struct{ typ, field, want string }{
		{"INT", " 12 ", "12"},
		{"INT", "3.7", `error: For input string: "3.7"`},
		{"INT", "2147483648", `error: For input string: "2147483648"`},
		{"BIGINT", "1e3", `error: For input string: "1e3"`},
		{"SMALLINT", "40000", `error: Value out of range. Value:"40000" Radix:10`},
		{"DOUBLE", " 2.5 ", "2.5"},
		{"DOUBLE", "1e3", "1000.0"},
		{"BOOLEAN", "yes", "FALSE"}, // Boolean.parseBoolean
		{"BOOLEAN", " TRUE ", "TRUE"},
		{"STRING", " a ", " a "},
		{"DECIMAL(5, 2)", " 1.5 ", "1.50"},
	}
	for _, tc := range cases {
		t.Run(tc.typ+" "+tc.field, func(t *testing.T) {
			got, err := read(t, table(t, "csv", "v "+tc.typ, nil), "t.txt", `"`+tc.field+`"`+"\n")
			g := ""
			switch {
			case err != nil:
				g = "error: " + errTail(err.Error())
			case len(got) == 1:
				g = got[0][len("+I "):]
			}
			if g != tc.want {
				t.Errorf("%s from %q: %q, want %q", tc.typ, tc.field, g, tc.want)
			}
		})
	}
}
