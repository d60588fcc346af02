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
			"1;a\nx;b\n3;n/a\n", []string{"+I[1, a]", "+I[NULL, b]", "+I[3, NULL]"}},
		{"json missing field", "'format' = 'json'", "t.jsonl", `{"id": 1}
`, []string{"+I[1, NULL]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			job := "CREATE TABLE t (id INT, name STRING) WITH ('connector' = 'kafka', " + tc.with + ");\n" + q
			s := run(t, job, map[string]string{tc.file: tc.data}).Sinks[0]
			expect(t, tc.name, changelog(s), tc.want)
		})
	}
	_, err := runSQL(t.Context(), "CREATE TABLE t (id INT, name STRING) WITH ('connector' = 'kafka', 'format' = 'json', 'json.fail-on-missing-field' = 'true');\n"+q,
		Options{Data: map[string]string{"t": writeFile(t, "t.jsonl", `{"id": 1}`+"\n")}})
	if err == nil || err.Error() != "debug run: t.jsonl line 1: Could not find field with name 'name'" {
		t.Errorf("%v", err)
	}
}

// An avro table's data file is Avro's JSON encoding of the record Flink
// derives from its columns (nullable columns as unions, DECIMAL as
// bytes, TIMESTAMP(3) as timestamp-millis); a GROUP BY over it gives
// Flink's changelog and final table, and a line that does not match
// fails the run at its line and field.
func TestAvroSource(t *testing.T) {
	const ddl = `CREATE TABLE orders (id BIGINT NOT NULL, usr STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), r ROW<qty INT>)
  WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'avro');
`
	q := ddl + "SELECT usr, SUM(price) AS total, MAX(ts) AS last_ts, SUM(r.qty) AS qty FROM orders GROUP BY usr"
	data := `{"id": 1, "usr": {"string": "a"}, "price": {"bytes": "\u0000\u0096"}, "ts": {"long": 1704104130500}, "r": {"org.apache.flink.avro.generated.record_r": {"qty": {"int": 2}}}}
{"id": 2, "usr": {"string": "b"}, "price": {"bytes": "\u0004\u00d2"}, "ts": null, "r": null}
{"id": 3, "usr": "a", "price": {"bytes": "\u00ff\u0038"}, "ts": {"long": 1704104131000}, "r": {"qty": 3}}
`
	s := run(t, q, map[string]string{"orders.jsonl": data}).Sinks[0]
	expect(t, "changelog", changelog(s), []string{
		"+I[a, 1.50, 2024-01-01 10:15:30.500, 2]",
		"+I[b, 12.34, NULL, NULL]",
		"-U[a, 1.50, 2024-01-01 10:15:30.500, 2]",
		"+U[a, -0.50, 2024-01-01 10:15:31.000, 5]",
	})
	expect(t, "final", final(s), []string{
		"+I[a, -0.50, 2024-01-01 10:15:31.000, 5]",
		"+I[b, 12.34, NULL, NULL]",
	})
	_, err := runSQL(t.Context(), q, Options{Data: map[string]string{"orders": writeFile(t, "orders.jsonl", `{"id": 1, "usr": {"long": 7}}`+"\n")}})
	if want := `debug run: orders.jsonl line 1, column usr: expected null or {"string": string}, got {"long":7}`; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
}
