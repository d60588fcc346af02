package flinksql

import (
	"sort"
	"strings"
)

// connectorSpec is what the validator knows of a connector's WITH options,
// from the connector's documentation page.
type connectorSpec struct {
	// required lists the required options; each entry is a set of
	// alternatives of which one must be set.
	required [][]string
	// options are the exact option keys besides 'connector'.
	options []string
	// prefixes are open option families such as 'properties.' (passed to
	// the client) or 'fields.' (datagen, checked against the columns).
	prefixes []string
	// formats lists the options that name a format ('format',
	// 'key.format', 'value.format'); each enables the format's own options
	// under the matching prefix.
	formats []string
	// lookup is true for connectors that can serve a lookup join.
	lookup bool
	// upsert is true for connectors that need a primary key.
	upsert bool
	// appendOnlySink is true for sinks that cannot take updates.
	appendOnlySink bool
}

// sourceWatermarkOptions are the FLIP-296 options every scan source that
// supports watermark push-down accepts.
var sourceWatermarkOptions = []string{
	"scan.watermark.emit.strategy", "scan.watermark.emit.on-event.gap", "scan.watermark.idle-timeout",
	"scan.watermark.alignment.group", "scan.watermark.alignment.max-drift",
	"scan.watermark.alignment.update-interval",
}

var lookupCacheOptions = []string{
	"lookup.cache", "lookup.partial-cache.max-rows", "lookup.partial-cache.expire-after-write",
	"lookup.partial-cache.expire-after-access", "lookup.partial-cache.cache-missing-key",
	"lookup.full-cache.reload-strategy", "lookup.full-cache.periodic-reload.interval",
	"lookup.full-cache.periodic-reload.schedule-mode", "lookup.full-cache.timed-reload.iso-time",
	"lookup.full-cache.timed-reload.interval-in-days", "lookup.max-retries",
	// deprecated forms Flink still accepts
	"lookup.cache.max-rows", "lookup.cache.ttl", "lookup.cache.caching-missing-key",
}

func join(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

var connectors = map[string]*connectorSpec{
	"kafka": {
		required: [][]string{{"topic", "topic-pattern"}, {"properties.bootstrap.servers"}, {"format", "value.format"}},
		options: join([]string{
			"topic", "topic-pattern", "properties.bootstrap.servers", "properties.group.id",
			"format", "key.format", "key.fields", "key.fields-prefix", "value.format", "value.fields-include",
			"scan.startup.mode", "scan.startup.specific-offsets", "scan.startup.timestamp-millis",
			"scan.bounded.mode", "scan.bounded.specific-offsets", "scan.bounded.timestamp-millis",
			"scan.topic-partition-discovery.interval", "scan.parallelism",
			"sink.partitioner", "sink.semantic", "sink.delivery-guarantee", "sink.transactional-id-prefix",
			"sink.parallelism", "sink.transaction-naming-strategy",
		}, sourceWatermarkOptions),
		prefixes:       []string{"properties."},
		formats:        []string{"format", "key.format", "value.format"},
		appendOnlySink: true,
	},
	"upsert-kafka": {
		required: [][]string{{"topic", "topic-pattern"}, {"properties.bootstrap.servers"}, {"key.format"}, {"value.format"}},
		options: join([]string{
			"topic", "topic-pattern", "properties.bootstrap.servers", "properties.group.id",
			"key.format", "key.fields-prefix", "value.format", "value.fields-include",
			"sink.parallelism", "sink.buffer-flush.max-rows", "sink.buffer-flush.interval",
			"sink.delivery-guarantee", "sink.transactional-id-prefix", "scan.parallelism",
		}, sourceWatermarkOptions),
		prefixes: []string{"properties."},
		formats:  []string{"key.format", "value.format"},
		upsert:   true,
	},
	"jdbc": {
		required: [][]string{{"url"}, {"table-name"}},
		options: join([]string{
			"url", "table-name", "driver", "username", "password", "connection.max-retry-timeout",
			"compatible-mode", "scan.partition.column", "scan.partition.num", "scan.partition.lower-bound",
			"scan.partition.upper-bound", "scan.fetch-size", "scan.auto-commit", "scan.parallelism",
			"sink.buffer-flush.max-rows", "sink.buffer-flush.interval", "sink.max-retries", "sink.parallelism",
			"filter.handling.policy",
		}, lookupCacheOptions),
		lookup: true,
	},
	"datagen": {
		options: join([]string{"rows-per-second", "number-of-rows", "scan.parallelism"}, sourceWatermarkOptions),
		// fields.<column>.<option>, checked against the table's columns.
		prefixes: []string{"fields."},
	},
	"filesystem": {
		required: [][]string{{"path"}, {"format"}},
		options: join([]string{
			"path", "format", "source.monitor-interval", "source.path.regex-pattern", "source.report-statistics",
			"partition.default-name", "partition.time-extractor.kind", "partition.time-extractor.class",
			"partition.time-extractor.timestamp-pattern", "partition.time-extractor.timestamp-formatter",
			"sink.rolling-policy.file-size", "sink.rolling-policy.rollover-interval",
			"sink.rolling-policy.check-interval", "sink.rolling-policy.inactivity-interval",
			"auto-compaction", "compaction.file-size", "compaction.parallelism",
			"sink.partition-commit.trigger", "sink.partition-commit.delay",
			"sink.partition-commit.watermark-time-zone", "sink.partition-commit.policy.kind",
			"sink.partition-commit.policy.class", "sink.partition-commit.policy.class.parameters",
			"sink.partition-commit.success-file.name", "sink.shuffle-by-partition.enable", "sink.parallelism",
			"scan.parallelism",
		}, sourceWatermarkOptions),
		formats: []string{"format"},
	},
	"print": {
		options: []string{"print-identifier", "standard-error", "sink.parallelism"},
	},
	"blackhole": {},
	"hbase-1.4": {
		required: [][]string{{"table-name"}, {"zookeeper.quorum"}},
		options: join([]string{
			"table-name", "zookeeper.quorum", "zookeeper.znode.parent", "null-string-literal",
			"sink.buffer-flush.max-size", "sink.buffer-flush.max-rows", "sink.buffer-flush.interval",
			"sink.ignore-null-value", "sink.parallelism", "lookup.async",
		}, lookupCacheOptions),
		prefixes: []string{"properties."},
		lookup:   true,
		upsert:   true,
	},
	"elasticsearch-7": {
		required: [][]string{{"hosts"}, {"index"}},
		options: []string{
			"hosts", "index", "document-id.key-delimiter", "username", "password", "failure-handler",
			"sink.delivery-guarantee", "sink.flush-on-checkpoint", "sink.bulk-flush.max-actions",
			"sink.bulk-flush.max-size", "sink.bulk-flush.interval", "sink.bulk-flush.backoff.strategy",
			"sink.bulk-flush.backoff.max-retries", "sink.bulk-flush.backoff.delay",
			"connection.path-prefix", "connection.request-timeout", "connection.timeout", "socket.timeout",
			"format", "sink.parallelism",
		},
		formats: []string{"format"},
	},
}

func init() {
	connectors["hbase-2.2"] = connectors["hbase-1.4"]
	es6 := *connectors["elasticsearch-7"]
	es6.required = [][]string{{"hosts"}, {"index"}, {"document-type"}}
	es6.options = append([]string{"document-type"}, es6.options...)
	connectors["elasticsearch-6"] = &es6
}

// otherConnectors are connectors outside Flink's own docs that are common
// enough that an unknown connector name close to one of them is a typo.
// Their options are not checked.
var otherConnectors = []string{
	"mysql-cdc", "postgres-cdc", "oracle-cdc", "sqlserver-cdc", "mongodb-cdc", "tidb-cdc",
	"oceanbase-cdc", "db2-cdc", "doris", "starrocks", "paimon", "hudi", "iceberg", "clickhouse",
	"redis", "mongodb", "pulsar", "kinesis", "firehose", "dynamodb", "elasticsearch-8", "opensearch",
	"opensearch-2", "hive", "values", "faker", "http", "rabbitmq", "pubsub", "prometheus",
}

// lookupConnectors can serve a lookup join (FOR SYSTEM_TIME AS OF a
// processing-time attribute); the ones in Flink's docs plus common ones.
var lookupConnectors = map[string]bool{
	"jdbc": true, "hbase-1.4": true, "hbase-2.2": true, "redis": true, "mongodb": true, "hive": true,
	"paimon": true, "hudi": true, "doris": true, "starrocks": true, "elasticsearch-7": true,
	"elasticsearch-8": true, "opensearch": true, "http": true, "dynamodb": true, "clickhouse": true,
}

// notLookupConnectors are connectors known not to be lookup sources: a
// lookup join against them is an error.
var notLookupConnectors = map[string]bool{
	"kafka": true, "upsert-kafka": true, "datagen": true, "filesystem": true, "print": true,
	"blackhole": true, "kinesis": true, "pulsar": true, "mysql-cdc": true, "postgres-cdc": true,
	"faker": true,
}

// formatOptions lists each format's own options, without the format prefix.
var formatOptions = map[string][]string{
	"json": {"fail-on-missing-field", "ignore-parse-errors", "timestamp-format.standard",
		"map-null-key.mode", "map-null-key.literal", "encode.decimal-as-plain-number",
		"encode.ignore-null-fields", "decode.json-parser.enabled"},
	"csv": {"field-delimiter", "disable-quote-character", "quote-character", "allow-comments",
		"ignore-parse-errors", "array-element-delimiter", "escape-character", "null-literal",
		"write-bigdecimal-in-scientific-notation"},
	"avro": {"codec", "timestamp_mapping.legacy", "encoding"},
	"avro-confluent": {"url", "schema-registry.url", "subject", "schema-registry.subject", "schema",
		"basic-auth.credentials-source", "basic-auth.user-info", "bearer-auth.credentials-source",
		"bearer-auth.token", "properties", "ssl.keystore.location", "ssl.keystore.password",
		"ssl.truststore.location", "ssl.truststore.password", "auto.register.schemas"},
	"debezium-json": {"schema-include", "ignore-parse-errors", "timestamp-format.standard",
		"map-null-key.mode", "map-null-key.literal", "encode.decimal-as-plain-number",
		"encode.ignore-null-fields"},
	"debezium-avro-confluent": {"url", "schema-registry.url", "subject", "schema-registry.subject",
		"schema", "basic-auth.credentials-source", "basic-auth.user-info",
		"bearer-auth.credentials-source", "bearer-auth.token", "properties",
		"ssl.keystore.location", "ssl.keystore.password", "ssl.truststore.location",
		"ssl.truststore.password"},
	"canal-json": {"ignore-parse-errors", "timestamp-format.standard", "map-null-key.mode",
		"map-null-key.literal", "encode.decimal-as-plain-number", "database.include", "table.include",
		"encode.ignore-null-fields"},
	"maxwell-json": {"ignore-parse-errors", "timestamp-format.standard", "map-null-key.mode",
		"map-null-key.literal", "encode.decimal-as-plain-number", "encode.ignore-null-fields"},
	"ogg-json": {"ignore-parse-errors", "timestamp-format.standard", "map-null-key.mode",
		"map-null-key.literal", "encode.ignore-null-fields"},
	"raw":      {"charset", "endianness"},
	"protobuf": {"message-class-name", "ignore-parse-errors", "read-default-values", "write-null-string-literal"},
	"parquet":  {"utc-timezone", "timestamp.time.unit", "write.int64.timestamp"},
	"orc":      {},
}

// openFormats pass any option under their prefix to the underlying
// library (parquet.*, orc.*), so only the prefix is checked.
var openFormats = map[string]bool{"parquet": true, "orc": true}

// kafkaMetadata are the metadata keys of the Kafka connectors.
var kafkaMetadata = []string{"topic", "partition", "headers", "leader-epoch", "offset", "timestamp", "timestamp-type"}

// allowedOptions returns the option keys the table's connector accepts
// given the formats it names, and the open prefixes.
func allowedOptions(spec *connectorSpec, props Properties) (exact map[string]bool, prefixes []string) {
	exact = map[string]bool{"connector": true}
	for _, k := range spec.options {
		exact[k] = true
	}
	prefixes = append(prefixes, spec.prefixes...)
	for _, fk := range spec.formats {
		format, ok := props.Get(fk)
		if !ok {
			continue
		}
		prefix := strings.TrimSuffix(fk, "format") // "", "key." or "value."
		opts, known := formatOptions[format]
		if !known || openFormats[format] {
			prefixes = append(prefixes, prefix+format+".")
			continue
		}
		for _, o := range opts {
			exact[prefix+format+"."+o] = true
		}
	}
	return exact, prefixes
}

// suggest returns the candidate closest to s by edit distance, when it is
// close enough to be a likely typo.
func suggest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		d := editDistance(s, c)
		if d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	limit := 2
	if len(s) >= 12 {
		limit = 3
	}
	if bestD == 0 || bestD > limit {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b (in bytes; the
// option names are ASCII).
func editDistance(a, b string) int {
	if a == b {
		return 0
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// optionEnums are options whose value is one of a fixed set.
var optionEnums = map[string][]string{
	"scan.startup.mode":       {"earliest-offset", "latest-offset", "group-offsets", "timestamp", "specific-offsets"},
	"scan.bounded.mode":       {"unbounded", "latest-offset", "group-offsets", "timestamp", "specific-offsets"},
	"sink.delivery-guarantee": {"at-least-once", "exactly-once", "none"},
	"value.fields-include":    {"ALL", "EXCEPT_KEY"},
	"lookup.cache":            {"NONE", "PARTIAL", "FULL"},
}
