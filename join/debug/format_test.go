package debug

import "testing"

// Each format reads its messages as Flink's does: the changelog formats
// give updates and deletes, CSV its options.
func TestFormats(t *testing.T) {
	q := "SELECT id, name FROM t"
	for _, tc := range []struct {
		name, with, file, data string
		want                   []string
	}{
		{"canal-json", "'format' = 'canal-json'", "t.jsonl", `{"data": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], "type": "INSERT", "database": "db", "table": "t"}
{"data": [{"id": 1, "name": "a2"}], "old": [{"name": "a"}], "type": "UPDATE"}
{"data": null, "type": "CREATE", "sql": "CREATE TABLE t (id INT)"}
{"data": [{"id": 2, "name": "b"}], "type": "DELETE"}
`, []string{"+I[1, a]", "+I[2, b]", "-U[1, a]", "+U[1, a2]", "-D[2, b]"}},
		{"maxwell-json", "'format' = 'maxwell-json'", "t.jsonl", `{"database": "db", "table": "t", "type": "insert", "data": {"id": 1, "name": "a"}}
{"database": "db", "table": "t", "type": "update", "data": {"id": 1, "name": "a2"}, "old": {"name": "a"}}
{"database": "db", "table": "t", "type": "delete", "data": {"id": 1, "name": "a2"}}
`, []string{"+I[1, a]", "-U[1, a]", "+U[1, a2]", "-D[1, a2]"}},
		{"debezium-json with a schema", "'format' = 'debezium-json', 'debezium-json.schema-include' = 'true'", "t.jsonl",
			`{"schema": {}, "payload": {"before": null, "after": {"id": 1, "name": "a"}, "op": "r"}}
`, []string{"+I[1, a]"}},
		{"csv options", "'format' = 'csv', 'csv.field-delimiter' = ';', 'csv.null-literal' = 'n/a', 'csv.ignore-parse-errors' = 'true'", "t.csv",
			"1;a\nx;b\n3;n/a\n", []string{"+I[1, a]", "+I[3, NULL]"}},
		{"json missing field", "'format' = 'json'", "t.jsonl", `{"id": 1}
`, []string{"+I[1, NULL]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			job := "CREATE TABLE t (id INT, name STRING) WITH ('connector' = 'kafka', " + tc.with + ");\n" + q
			s := run(t, job, map[string]string{tc.file: tc.data}).Sinks[0]
			expect(t, tc.name, changelog(s), tc.want)
		})
	}
	_, err := Run(t.Context(), "CREATE TABLE t (id INT, name STRING) WITH ('connector' = 'kafka', 'format' = 'json', 'json.fail-on-missing-field' = 'true');\n"+q,
		Options{Data: map[string]string{"t": writeFile(t, "t.jsonl", `{"id": 1}`+"\n")}})
	if err == nil || err.Error() != "debug run: t.jsonl line 1: Could not find field with name 'name'" {
		t.Errorf("%v", err)
	}
}
