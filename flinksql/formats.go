package flinksql

// formatSpec is what palink knows of a format's options, written under the
// format's prefix ('json.ignore-parse-errors', 'value.json.…').
type formatSpec struct {
	desc    string
	options []option
	// open formats pass any option under their prefix to the underlying
	// library (parquet.*, orc.*), so only the prefix is checked.
	open bool
}

var jsonOptions = []option{
	o("fail-on-missing-field", "Boolean", "false", "fail on a missing field rather than read null"),
	o("ignore-parse-errors", "Boolean", "false", "skip rows that do not parse rather than fail"),
	o("timestamp-format.standard", "Enum", "SQL", "timestamp text format: SQL (2020-12-30 12:13:14.123) or ISO-8601").values("SQL", "ISO-8601"),
	o("map-null-key.mode", "Enum", "FAIL", "what a null map key does").values("FAIL", "DROP", "LITERAL"),
	o("map-null-key.literal", "String", "null", "the key written for a null map key with LITERAL"),
	o("encode.decimal-as-plain-number", "Boolean", "false", "write decimals without scientific notation"),
	o("encode.ignore-null-fields", "Boolean", "false", "leave null fields out of the JSON written"),
}

var confluentOptions = []option{
	o("url", "String", "", "Confluent Schema Registry url"),
	o("subject", "String", "", "subject of the schema"),
	o("schema", "String", "", "the Avro schema, when not the table's"),
	o("basic-auth.credentials-source", "String", "", "source of basic auth credentials: USER_INFO, URL"),
	o("basic-auth.user-info", "String", "", "user:password of the registry"),
	o("bearer-auth.credentials-source", "String", "", "source of the bearer token"),
	o("bearer-auth.token", "String", "", "bearer token of the registry"),
	o("properties", "Map", "", "other registry client settings"),
	o("ssl.keystore.location", "String", "", "keystore of the registry client"),
	o("ssl.keystore.password", "String", "", "its password"),
	o("ssl.truststore.location", "String", "", "truststore of the registry client"),
	o("ssl.truststore.password", "String", "", "its password"),
}

// formats are the formats palink knows, by 'format' value.
var formats = map[string]*formatSpec{
	"json": {desc: "JSON objects", options: append(append([]option{}, jsonOptions...),
		o("decode.json-parser.enabled", "Boolean", "true", "decode with Jackson's streaming parser").from(1, 20))},
	"csv": {desc: "comma-separated values", options: []option{
		o("field-delimiter", "String", ",", "field separator, one character"),
		o("disable-quote-character", "Boolean", "false", "read quotes as plain characters"),
		o("quote-character", "String", "\"", "quote character"),
		o("allow-comments", "Boolean", "false", "skip lines that start with #"),
		o("ignore-parse-errors", "Boolean", "false", "skip rows that do not parse rather than fail"),
		o("array-element-delimiter", "String", ";", "separator of array elements"),
		o("escape-character", "String", "", "escape character"),
		o("null-literal", "String", "", "text read as null"),
		o("write-bigdecimal-in-scientific-notation", "Boolean", "true", "write decimals in scientific notation"),
	}},
	"avro": {desc: "Avro records without a registry", options: []option{
		o("codec", "Enum", "snappy", "compression of the filesystem connector's files").values("null", "deflate", "snappy", "bzip2", "xz", "zstandard"),
		o("timestamp_mapping.legacy", "Boolean", "true", "map timestamps the way Flink did before 1.19"),
		o("encoding", "Enum", "binary", "Avro encoding").values("binary", "json"),
	}},
	"avro-confluent": {desc: "Avro with the Confluent Schema Registry", options: append(append([]option{}, confluentOptions...),
		o("schema-registry.url", "String", "", "deprecated: url"), o("schema-registry.subject", "String", "", "deprecated: subject"),
		o("auto.register.schemas", "Boolean", "true", "register the writer's schema"))},
	"debezium-json": {desc: "Debezium change events in JSON", options: append(append([]option{}, jsonOptions...),
		o("schema-include", "Boolean", "false", "the events carry their schema (Kafka Connect's schemas.enable)"))},
	"debezium-avro-confluent": {desc: "Debezium change events in Avro with a registry", options: append(append([]option{}, confluentOptions...),
		o("schema-registry.url", "String", "", "deprecated: url"), o("schema-registry.subject", "String", "", "deprecated: subject"))},
	"canal-json": {desc: "Canal change events in JSON", options: append(append([]option{}, jsonOptions...),
		o("database.include", "String", "", "read only events of this database (a regular expression)"),
		o("table.include", "String", "", "read only events of this table (a regular expression)"))},
	"maxwell-json": {desc: "Maxwell change events in JSON", options: jsonOptions},
	"ogg-json":     {desc: "Oracle GoldenGate change events in JSON", options: jsonOptions},
	"raw": {desc: "the bytes of a record as one column", options: []option{
		o("charset", "String", "UTF-8", "charset of a string column"),
		o("endianness", "Enum", "big-endian", "byte order of numbers").values("big-endian", "little-endian"),
	}},
	"protobuf": {desc: "Protocol Buffers messages", options: []option{
		o("message-class-name", "String", "", "the generated message class").req(),
		o("ignore-parse-errors", "Boolean", "false", "skip rows that do not parse rather than fail"),
		o("read-default-values", "Boolean", "false", "read unset fields as their default rather than null"),
		o("write-null-string-literal", "String", "", "text written for a null string"),
	}},
	"parquet": {desc: "Parquet files; parquet.* goes to the Parquet writer", open: true, options: []option{
		o("utc-timezone", "Boolean", "false", "read and write timestamps in UTC"),
		o("timestamp.time.unit", "Enum", "micros", "unit of INT64 timestamps").values("nanos", "micros", "millis"),
		o("write.int64.timestamp", "Boolean", "false", "write timestamps as INT64 rather than INT96"),
	}},
	"orc": {desc: "ORC files; orc.* goes to the ORC writer", open: true},
}
