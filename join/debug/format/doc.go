// Package format reads a source table's rows from a data file as Flink's
// formats read a topic's messages, one message a line: json (with
// json.ignore-parse-errors, json.fail-on-missing-field and
// json.timestamp-format.standard), csv (field delimiter, quote, comments,
// ignore-parse-errors, null literal; a first line naming the columns is
// taken as a header), raw (the line is the value), and the changelog
// formats debezium-json, canal-json and maxwell-json, which give updates
// and deletes. Upsert-kafka's records are a line of the value, or of
// {"key": …, "value": …} where a null value is a deletion.
//
// The avro and avro-confluent formats read a message a line in Avro's
// JSON encoding (Avro 1.11) of the record schema Flink derives from the
// columns (AvroSchemaConverter.convertToSchema; nullable columns are
// unions with null, DECIMAL is bytes, a nested ROW a record named
// "<parent>_<field>"), or of the schema 'avro-confluent.schema' gives
// (upsert-kafka's records likewise, when its value format is avro). A
// nullable field's value is taken unwrapped as well; a line that does not
// match fails the run (Flink's avro has no ignore-parse-errors).
//
// A file whose table has another format (protobuf, …) is read by its
// extension: .csv as CSV with a header, anything else as JSON lines.
//
// A json line's columns are found by internal/jsonscan (jsonscan.go) and
// converted in place; a line it refuses goes to encoding/json, whose
// verdict and error it gets.
//
// It imports value, stream and internal/jsonscan, nothing else of
// palink's.
package format
