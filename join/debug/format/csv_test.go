package format

import (
	"testing"
)

// TestCSVOptions: fields by position, with csv.field-delimiter, quotes
// (a delimiter or a doubled quote inside one), csv.null-literal, an empty
// field NULL for a non-string column; a first line naming the columns is
// a header; a .csv sample of a table of another format is read by its
// header's names, in any order.
func TestCSVOptions(t *testing.T) {
	cols := "id INT; name STRING; price DECIMAL(5, 2)"
	for _, tc := range []struct {
		name string
		opts map[string]string
		data string
		want []string
	}{
		{"comma and quotes", nil, "1,\"a, b\",1.5\n2,\"say \"\"hi\"\"\",\n3,,2\n",
			[]string{"+I 1 | a, b | 1.50", `+I 2 | say "hi" | NULL`, "+I 3 |  | 2.00"}},
		{"semicolon", map[string]string{"csv.field-delimiter": ";"}, "1;a,b;0.5\n", []string{"+I 1 | a,b | 0.50"}},
		{"tab", map[string]string{"csv.field-delimiter": `\t`}, "1\ta\t0.5\n", []string{"+I 1 | a | 0.50"}},
		{"null literal", map[string]string{"csv.null-literal": "n/a"}, "1,n/a,n/a\n", []string{"+I 1 | NULL | NULL"}},
		{"a header", nil, "id,name,price\n1,a,0.5\n", []string{"+I 1 | a | 0.50"}},
		{"fewer fields", nil, "1\n", []string{"+I 1 | NULL | NULL"}},
		{"comments", map[string]string{"csv.allow-comments": "true"}, "# a comment\n1,a,1\n", []string{"+I 1 | a | 1.00"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := read(t, table(t, "csv", cols, tc.opts), "t.txt", tc.data)
			if err != nil {
				t.Fatal(err)
			}
			same(t, tc.name, got, tc.want)
		})
	}
	got, err := read(t, table(t, "json", cols, nil), "t.csv", "price,id,name\n0.5,1,a\n")
	if err != nil {
		t.Fatal(err)
	}
	same(t, "a .csv sample by its header", got, []string{"+I 1 | a | 0.50"})
	if _, err := read(t, table(t, "csv", cols, map[string]string{"csv.field-delimiter": ";;"}), "t.txt", "1\n"); err == nil ||
		err.Error() != "table t: 'csv.field-delimiter' must be one character" {
		t.Errorf("a two-character delimiter: %v", err)
	}
}

// TestCSVBadRecords: a field that does not read as its column's type fails
// the run at its line and column; with csv.ignore-parse-errors it is NULL
// (Flink's CsvToRowDataConverters), and a line that is not CSV is
// skipped, each counted.
func TestCSVBadRecords(t *testing.T) {
	cols := "id INT; name STRING"
	data := "1,a\nx,b\n3,\"c\n"
	got, err := read(t, table(t, "csv", cols, nil), "t.txt", data)
	if err == nil || err.Error() != `t.txt line 2, column id: For input string: "x"` {
		t.Errorf("error %v", err)
	}
	same(t, "rows before the bad one", got, []string{"+I 1 | a"})
	got, sk, err := readSkipping(t, table(t, "csv", cols, map[string]string{"csv.ignore-parse-errors": "true"}), "t.txt", data)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "with ignore-parse-errors", got, []string{"+I 1 | a", "+I NULL | b"})
	if sk.Rows != 1 || sk.Fields != 1 || len(sk.Lines) != 2 || sk.Lines[0] != 2 || sk.Lines[1] != 3 {
		t.Errorf("skipped %+v, want a field of line 2 and the row of line 3", sk)
	}

	// A .csv sample of a table of another format is read by its header,
	// which must name every column.
	if _, err := read(t, table(t, "json", cols, nil), "t.csv", "id,other\n1,a\n"); err == nil ||
		err.Error() != "t.csv: the header has no column name (it has id, other)" {
		t.Errorf("a header without a column: %v", err)
	}
}

// TestRaw: the raw format's one column is the line as it is (its spaces
// kept, a CRLF's CR not), as text or bytes; blank lines are no records.
func TestRaw(t *testing.T) {
	got, err := read(t, table(t, "raw", "line STRING", nil), "t.txt", "{\"not\": \"parsed\"}\n\n  padded \r\n")
	if err != nil {
		t.Fatal(err)
	}
	same(t, "text", got, []string{`+I {"not": "parsed"}`, "+I   padded "})
	got, err = read(t, table(t, "raw", "b BYTES", nil), "t.txt", "AB\n")
	if err != nil {
		t.Fatal(err)
	}
	same(t, "bytes", got, []string{"+I x'4142'"})
}
