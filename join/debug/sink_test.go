package debug

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// With Options.Out, a sink's changelog streams to a file as JSON lines, and
// an updating sink's final table goes beside it (without a primary key,
// a row taken back and added again moves to the end).
func TestSinkFiles(t *testing.T) {
	out := filepath.Join(t.TempDir(), "res.jsonl")
	res := run(t, ordersDDL+"SELECT usr, COUNT(*) AS n, SUM(price) AS total FROM orders WHERE id < 4 GROUP BY usr",
		map[string]string{"orders.jsonl": ordersData}, func(o *Options) { o.Out = out })
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"op":"+I","usr":"a","n":1,"total":1.50}
{"op":"+I","usr":"b","n":1,"total":2.00}
{"op":"-U","usr":"a","n":1,"total":1.50}
{"op":"+U","usr":"a","n":2,"total":1.75}
`
	if string(b) != want {
		t.Errorf("changelog file:\n%s\nwant\n%s", b, want)
	}
	b, err = os.ReadFile(filepath.Join(filepath.Dir(out), "res.final.jsonl"))
	if err != nil || string(b) != "{\"usr\":\"b\",\"n\":1,\"total\":2.00}\n{\"usr\":\"a\",\"n\":2,\"total\":1.75}\n" {
		t.Errorf("final file (%v):\n%s", err, b)
	}
	var text bytes.Buffer
	if err := res.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"SELECT #1: changelog, 4 changes (+I 2, -U 1, +U 1, -D 0)", "op | usr | n | total", "-U | a   | 1 | 1.50",
		"SELECT #1: final table, 2 rows", "a   | 2 | 1.75"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
}

// json.ignore-parse-errors skips a line that is not JSON or whose field
// does not fit its type; without it the run fails naming the line.
func TestJSONIgnoreParseErrors(t *testing.T) {
	data := `{"id": 1, "usr": "a"}
not json
{"id": "x", "usr": "b"}
{"id": 3, "usr": "c"}
`
	ddl := func(opt string) string {
		return "CREATE TABLE orders (id INT, usr STRING) WITH ('connector' = 'kafka', 'format' = 'json'" + opt + ");\nSELECT id, usr FROM orders"
	}
	res := run(t, ddl(", 'json.ignore-parse-errors' = 'true'"), map[string]string{"orders.jsonl": data})
	s := res.Sinks[0]
	// Counted, with their lines, where Flink counts nothing.
	if len(res.Skipped) != 1 || res.Skipped[0].Table != "orders" || res.Skipped[0].File != "orders.jsonl" ||
		res.Skipped[0].Rows != 1 || res.Skipped[0].Fields != 1 || !slices.Equal(res.Skipped[0].Lines, []int64{2, 3}) {
		t.Errorf("skipped: %+v", res.Skipped)
	}
	var text, doc strings.Builder
	if err := res.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if want := "source orders (orders.jsonl): ignore-parse-errors skipped 1 record that did not parse and set 1 field that did not read to NULL, at lines 2, 3\n"; !strings.Contains(text.String(), want) {
		t.Errorf("the run's text lacks %q:\n%s", want, text.String())
	}
	if err := res.WriteJSON(&doc); err != nil {
		t.Fatal(err)
	}
	if want := `"skipped": [
    {
      "table": "orders",
      "file": "orders.jsonl",
      "rows_skipped": 1,
      "fields_nulled": 1,
      "first_lines": [
        2,
        3
      ]`; !strings.Contains(doc.String(), want) {
		t.Errorf("-o json lacks the skipped records:\n%s", doc.String())
	}
	// Not JSON: skipped; a field that does not read: NULL (Flink's
	// nullable converters under ignore-parse-errors).
	expect(t, "ignored", changelog(s), []string{"+I[1, a]", "+I[NULL, b]", "+I[3, c]"})
	_, err := runSQL(context.Background(), ddl(""), Options{Data: map[string]string{"orders": writeFile(t, "orders.jsonl", data)}})
	if err == nil || !strings.Contains(err.Error(), "orders.jsonl line 2: Failed to deserialize JSON 'not json'") {
		t.Errorf("%v", err)
	}
}

// An upsert-kafka source is normalized into a changelog (Flink's
// ChangelogNormalize): a new value for a key updates it, a null value
// deletes it.
func TestUpsertKafkaSource(t *testing.T) {
	job := `CREATE TABLE u (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)
  WITH ('connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json');
SELECT id, v FROM u`
	data := `{"id": 1, "v": "a"}
{"id": 2, "v": "x"}
{"id": 1, "v": "b"}
{"id": 1, "v": "b"}
{"key": {"id": 1}, "value": null}
`
	s := run(t, job, map[string]string{"u.jsonl": data}).Sinks[0]
	expect(t, "changelog", changelog(s), []string{"+I[1, a]", "+I[2, x]", "-U[1, a]", "+U[1, b]", "-D[1, b]"})
	expect(t, "final", final(s), []string{"+I[2, x]"})
}
