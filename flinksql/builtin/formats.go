package builtin

// FormatSpec is what palink knows of a format's options, written under the
// format's prefix ('json.ignore-parse-errors', 'value.json.…').
type FormatSpec struct {
	Desc    string
	Options []Option
	// open formats pass any option under their prefix to the underlying
	// library (parquet.*, orc.*), so only the prefix is checked.
	open bool
}

var jsonOptions = []Option{
	Opt("fail-on-missing-field", "Boolean", "false", "fail on a missing field rather than read null"),
	Opt("ignore-parse-errors", "Boolean", "false", "skip rows that do not parse rather than fail"),
	Opt("timestamp-format.standard", "Enum", "SQL", "timestamp text format: SQL (2020-12-30 12:13:14.123) or ISO-8601").Values("SQL", "ISO-8601"),
	Opt("map-null-key.mode", "Enum", "FAIL", "what a null map key does").Values("FAIL", "DROP", "LITERAL"),
	Opt("map-null-key.literal", "String", "null", "the key written for a null map key with LITERAL"),
	Opt("encode.decimal-as-plain-number", "Boolean", "false", "write decimals without scientific notation"),
	Opt("encode.ignore-null-fields", "Boolean", "false", "leave null fields out of the JSON written"),
}

var confluentOptions = []Option{
	Opt("url", "String", "", "Confluent Schema Registry url"),
	Opt("subject", "String", "", "subject of the schema"),
	Opt("schema", "String", "", "the Avro schema, when not the table's"),
	Opt("basic-auth.credentials-source", "String", "", "source of basic auth credentials: USER_INFO, URL"),
	Opt("basic-auth.user-info", "String", "", "user:password of the registry"),
	Opt("bearer-auth.credentials-source", "String", "", "source of the bearer token"),
	Opt("bearer-auth.token", "String", "", "bearer token of the registry"),
	Opt("properties", "Map", "", "other registry client settings"),
	Opt("ssl.keystore.location", "String", "", "keystore of the registry client"),
	Opt("ssl.keystore.password", "String", "", "its password"),
	Opt("ssl.truststore.location", "String", "", "truststore of the registry client"),
	Opt("ssl.truststore.password", "String", "", "its password"),
}

// Formats are the formats palink knows, by 'format' value.
var Formats = map[string]*FormatSpec{
	"json": {Desc: "JSON objects", Options: append(append([]Option{}, jsonOptions...),
		Opt("decode.json-parser.enabled", "Boolean", "true", "decode with Jackson's streaming parser").from(1, 20))},
	"csv": {Desc: "comma-separated values", Options: []Option{
		Opt("field-delimiter", "String", ",", "field separator, one character"),
		Opt("disable-quote-character", "Boolean", "false", "read quotes as plain characters"),
		Opt("quote-character", "String", "\"", "quote character"),
		Opt("allow-comments", "Boolean", "false", "skip lines that start with #"),
		Opt("ignore-parse-errors", "Boolean", "false", "skip rows that do not parse rather than fail"),
		Opt("array-element-delimiter", "String", ";", "separator of array elements"),
		Opt("escape-character", "String", "", "escape character"),
		Opt("null-literal", "String", "", "text read as null"),
		Opt("write-bigdecimal-in-scientific-notation", "Boolean", "true", "write decimals in scientific notation"),
	}},
	"avro": {Desc: "Avro records without a registry", Options: []Option{
		Opt("codec", "Enum", "snappy", "compression of the filesystem connector's files").Values("null", "deflate", "snappy", "bzip2", "xz", "zstandard"),
		Opt("timestamp_mapping.legacy", "Boolean", "true", "map timestamps the way Flink did before 1.19"),
		Opt("encoding", "Enum", "binary", "Avro encoding").Values("binary", "json"),
	}},
	"avro-confluent": {Desc: "Avro with the Confluent Schema Registry", Options: append(append([]Option{}, confluentOptions...),
		Opt("schema-registry.url", "String", "", "deprecated: url"), Opt("schema-registry.subject", "String", "", "deprecated: subject"),
		Opt("auto.register.schemas", "Boolean", "true", "register the writer's schema"))},
	"debezium-json": {Desc: "Debezium change events in JSON", Options: append(append([]Option{}, jsonOptions...),
		Opt("schema-include", "Boolean", "false", "the events carry their schema (Kafka Connect's schemas.enable)"))},
	"debezium-avro-confluent": {Desc: "Debezium change events in Avro with a registry", Options: append(append([]Option{}, confluentOptions...),
		Opt("schema-registry.url", "String", "", "deprecated: url"), Opt("schema-registry.subject", "String", "", "deprecated: subject"))},
	"canal-json": {Desc: "Canal change events in JSON", Options: append(append([]Option{}, jsonOptions...),
		Opt("database.include", "String", "", "read only events of this database (a regular expression)"),
		Opt("table.include", "String", "", "read only events of this table (a regular expression)"))},
	"maxwell-json": {Desc: "Maxwell change events in JSON", Options: jsonOptions},
	"ogg-json":     {Desc: "Oracle GoldenGate change events in JSON", Options: jsonOptions},
	"raw": {Desc: "the bytes of a record as one column", Options: []Option{
		Opt("charset", "String", "UTF-8", "charset of a string column"),
		Opt("endianness", "Enum", "big-endian", "byte order of numbers").Values("big-endian", "little-endian"),
	}},
	"protobuf": {Desc: "Protocol Buffers messages", Options: []Option{
		Opt("message-class-name", "String", "", "the generated message class").Req(),
		Opt("ignore-parse-errors", "Boolean", "false", "skip rows that do not parse rather than fail"),
		Opt("read-default-values", "Boolean", "false", "read unset fields as their default rather than null"),
		Opt("write-null-string-literal", "String", "", "text written for a null string"),
	}},
	"parquet": {Desc: "Parquet files; parquet.* goes to the Parquet writer", open: true, Options: []Option{
		Opt("utc-timezone", "Boolean", "false", "read and write timestamps in UTC"),
		Opt("timestamp.time.unit", "Enum", "micros", "unit of INT64 timestamps").Values("nanos", "micros", "millis"),
		Opt("write.int64.timestamp", "Boolean", "false", "write timestamps as INT64 rather than INT96"),
	}},
	"orc": {Desc: "ORC files; orc.* goes to the ORC writer", open: true},
}
