package format

import (
	"strings"
	"testing"
)

// TestAvroReadsEachType: each column type read from Avro's JSON encoding
// of the schema Flink derives for it, nullable (a union with null, its
// value {"branch": v}) and NOT NULL (the plain value).
func TestAvroReadsEachType(t *testing.T) {
	for _, tc := range []struct {
		typ, json, want string
	}{
		{"STRING", `{"string": "a é"}`, "a é"},
		{"STRING NOT NULL", `"a"`, "a"},
		{"BOOLEAN", `{"boolean": true}`, "TRUE"},
		{"BOOLEAN NOT NULL", `false`, "FALSE"},
		{"INT", `{"int": -7}`, "-7"},
		{"SMALLINT", `{"int": 300}`, "300"},
		{"TINYINT NOT NULL", `12`, "12"},
		{"BIGINT", `{"long": 9000000000}`, "9000000000"},
		{"BIGINT NOT NULL", `9000000000`, "9000000000"},
		{"FLOAT", `{"float": 0.1}`, "0.1"},
		{"DOUBLE", `{"double": 1e3}`, "1000.0"},
		{"DOUBLE NOT NULL", `"NaN"`, "NaN"},
		{"BYTES", `{"bytes": "\u0000\u00ffA"}`, "x'00ff41'"},
		{"DECIMAL(10, 2)", `{"bytes": "\u0004\u00d2"}`, "12.34"},
		{"DECIMAL(10, 2) NOT NULL", `"\u009c"`, "-1.00"},
		{"DECIMAL(10, 2)", `{"bytes": ""}`, "0.00"},
		{"DECIMAL(38, 0)", `{"bytes": "\u0000\u0080\u0000"}`, "32768"},
		{"DATE", `{"int": 19723}`, "2024-01-01"},
		{"TIME(3)", `{"int": 36930500}`, "10:15:30.5"},
		{"TIMESTAMP(3)", `{"long": 1704104130500}`, "2024-01-01 10:15:30.500"},
		{"TIMESTAMP_LTZ(3)", `{"long": 1704104130500}`, "2024-01-01 10:15:30.500"},
		{"ARRAY<INT>", `{"array": [{"int": 1}, null, {"int": 3}]}`, "[1, NULL, 3]"},
		{"ARRAY<INT NOT NULL> NOT NULL", `[1, 2]`, "[1, 2]"},
		{"MAP<STRING, BIGINT>", `{"map": {"b": {"long": 2}, "a": null}}`, "{a=NULL, b=2}"},
		{"ROW<a INT, b STRING>", `{"org.apache.flink.avro.generated.record_c": {"a": {"int": 1}, "b": {"string": "x"}}}`, "(1, x)"},
		{"STRING", `null`, "NULL"},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			got, err := read(t, table(t, "avro", "c "+tc.typ, nil), "t.jsonl", `{"c": `+tc.json+"}\n")
			if err != nil {
				t.Fatal(err)
			}
			same(t, "row", got, []string{"+I " + tc.want})
		})
	}
}

// TestAvroNested: records inside records, arrays and maps are named as
// Flink names them (after the field holding them, "<parent>_<field>"), and
// a value may be written without its union wrapping.
func TestAvroNested(t *testing.T) {
	tb := table(t, "avro-confluent", "id BIGINT NOT NULL; r ROW<q INT, sub ROW<s STRING>>; items ARRAY<ROW<sku STRING>>; m MAP<STRING, ROW<n INT>>", nil)
	got, err := read(t, tb, "t.jsonl", `{"id": 1, "r": {"org.apache.flink.avro.generated.record_r": {"q": {"int": 5}, "sub": {"org.apache.flink.avro.generated.record_r_sub": {"s": {"string": "deep"}}}}}, "items": {"array": [{"org.apache.flink.avro.generated.record_items": {"sku": {"string": "A"}}}]}, "m": {"map": {"k": {"org.apache.flink.avro.generated.record_m": {"n": {"int": 9}}}}}}
{"id": 2, "r": {"q": 6, "sub": {"s": "plain"}}, "items": [{"sku": "B"}, null], "m": {"k": {"n": 1}}}
{"id": 3, "r": null}
`)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "rows", got, []string{
		"+I 1 | (5, (deep)) | [(A)] | {k=(9)}",
		"+I 2 | (6, (plain)) | [(B), NULL] | {k=(1)}",
		"+I 3 | NULL | NULL | NULL",
	})
}

// TestAvroBadLines: a line that does not match the schema fails the run
// at its line, naming the field and what the schema expects there; Flink's
// avro formats have no ignore-parse-errors.
func TestAvroBadLines(t *testing.T) {
	cols := "id INT NOT NULL; name STRING; price DECIMAL(10, 2); r ROW<q INT NOT NULL>"
	for _, tc := range []struct{ name, line, err string }{
		{"not JSON", `{"id": 1`, `t.jsonl line 2: not Avro's JSON encoding of a record: unexpected EOF`},
		{"not an object", `[1]`, `t.jsonl line 2: not Avro's JSON encoding of a record: [1] is not an object`},
		{"a NOT NULL field missing", `{"name": "a"}`, `t.jsonl line 2, column id: missing, expected int`},
		{"a NOT NULL field null", `{"id": null}`, `t.jsonl line 2, column id: expected int, got null`},
		{"a string for an int", `{"id": "1"}`, `t.jsonl line 2, column id: expected int, got "1"`},
		{"out of int's range", `{"id": 3000000000}`, `t.jsonl line 2, column id: 3000000000 is out of an Avro int's range`},
		{"a wrong branch", `{"id": 1, "name": {"long": 5}}`, `t.jsonl line 2, column name: expected null or {"string": string}, got {"long":5}`},
		{"a number for a string", `{"id": 1, "name": 5}`, `t.jsonl line 2, column name: expected string, got 5 (the field is nullable: null or {"string": …} also do)`},
		{"bytes above U+00FF", `{"id": 1, "price": {"bytes": "€"}}`, `t.jsonl line 2, column price: expected bytes (decimal), a string of code points U+0000–U+00FF, got "€" (U+20AC)`},
		{"a nested field", `{"id": 1, "r": {"q": "x"}}`, `t.jsonl line 2, column r.q: expected int, got "x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := `{"id": 1, "name": "ok"}` + "\n" + tc.line + "\n" + `{"id": 3}` + "\n"
			for _, opts := range []map[string]string{nil, {"avro.ignore-parse-errors": "true"}} {
				got, err := read(t, table(t, "avro", cols, opts), "t.jsonl", data)
				if err == nil || err.Error() != tc.err {
					t.Errorf("error %v\nwant  %s", err, tc.err)
				}
				same(t, "rows before the bad one", got, []string{"+I 1 | ok | NULL | NULL"})
			}
		})
	}
}

// TestAvroGivenSchema: 'avro-confluent.schema' is read instead of the
// derived schema: its own record names, logical types and enums, a
// missing field taking its default.
func TestAvroGivenSchema(t *testing.T) {
	schema := `{"type": "record", "name": "Order", "namespace": "shop", "fields": [
	  {"name": "id", "type": "long"},
	  {"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID"]}},
	  {"name": "at", "type": ["null", {"type": "long", "logicalType": "timestamp-millis"}], "default": null},
	  {"name": "qty", "type": "int", "default": 1},
	  {"name": "buyer", "type": ["null", {"type": "record", "name": "Buyer", "fields": [{"name": "name", "type": "string"}]}]}
	]}`
	tb := table(t, "avro-confluent", "id BIGINT; status STRING; at TIMESTAMP(3); qty INT; buyer ROW<name STRING>",
		map[string]string{"value.avro-confluent.schema": schema})
	got, err := read(t, tb, "t.jsonl", `{"id": 1, "status": "NEW", "at": {"long": 1704104130500}, "qty": 2, "buyer": {"shop.Buyer": {"name": "ann"}}}
{"id": 2, "status": "PAID", "at": null, "buyer": null}
`)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "rows", got, []string{
		"+I 1 | NEW | 2024-01-01 10:15:30.500 | 2 | (ann)",
		"+I 2 | PAID | NULL | 1 | NULL",
	})
	_, err = read(t, tb, "t.jsonl", `{"id": 3, "status": "GONE", "buyer": null}`+"\n")
	if want := `t.jsonl line 1, column status: "GONE" is not a symbol of enum shop.Status (NEW, PAID)`; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
	tb.Options = map[string]string{"avro-confluent.schema": `{"type": "record", "name": "R", "fields": [{"name": "id", "type": "Missing"}]}`}
	_, err = read(t, tb, "t.jsonl", "{}\n")
	if want := `table t: field id of record R: the Avro schema names an undefined type "Missing"`; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
}

// TestAvroRefusesWhatFlinkCannotDerive: a column type Flink's avro format
// has no schema for fails the table as Flink fails it.
func TestAvroRefusesWhatFlinkCannotDerive(t *testing.T) {
	for typ, want := range map[string]string{
		"TIMESTAMP(6)":        "Avro does not support TIMESTAMP type with precision: 6",
		"TIME(6)":             "Avro does not support TIME type with precision: 6",
		"MAP<INT, STRING>":    "Avro format doesn't support non-string as key type of map. The key type is: INT",
		"INTERVAL DAY":        "Unsupported to derive Schema for type: INTERVAL",
		"ARRAY<TIMESTAMP(9)>": "Avro does not support TIMESTAMP type with precision: 9",
	} {
		_, err := read(t, table(t, "avro", "c "+typ, nil), "t.jsonl", "{}\n")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %s", typ, err, want)
		}
	}
	// The current mapping reads a TIMESTAMP(6) as local-timestamp-micros.
	got, err := read(t, table(t, "avro", "c TIMESTAMP(6)", map[string]string{"avro.timestamp_mapping.legacy": "false"}),
		"t.jsonl", `{"c": {"long": 1704104130500001}}`+"\n")
	if err != nil {
		t.Fatal(err)
	}
	same(t, "rows", got, []string{"+I 2024-01-01 10:15:30.500001"})
}

// TestAvroUpsertKafka: upsert-kafka with an avro value format reads a
// line as the value's record, or {"key": …, "value": …} with the key's
// record, a null value deleting the key.
func TestAvroUpsertKafka(t *testing.T) {
	tb := table(t, "avro", "id BIGINT NOT NULL; name STRING", nil)
	tb.Connector, tb.Key = "upsert-kafka", []int{0}
	got, err := read(t, tb, "t.jsonl", `{"id": 1, "name": {"string": "a"}}
{"key": {"id": 1}, "value": {"id": 1, "name": {"string": "b"}}}
{"key": {"id": 1}, "value": null}
`)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "rows", got, []string{"+U 1 | a", "+U 1 | b", "-D 1 | NULL"})
	_, err = read(t, tb, "t.jsonl", `{"key": {"id": "x"}, "value": null}`+"\n")
	if want := `t.jsonl line 1, column id: expected long, got "x"`; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
}

// TestAvroLeavesMetadataOut: a METADATA column is not a field of the
// derived record (a line without it is not missing a field); it reads as
// NULL.
func TestAvroLeavesMetadataOut(t *testing.T) {
	tb := table(t, "avro", "id INT NOT NULL; ts TIMESTAMP_LTZ(3) NOT NULL", nil)
	tb.Columns[1].Metadata = true
	got, err := read(t, tb, "t.jsonl", `{"id": 1}`+"\n")
	if err != nil {
		t.Fatal(err)
	}
	same(t, "rows", got, []string{"+I 1 | NULL"})
}
