package flinksql

// The connectors of Apache Flink and its connector repositories, with the
// options of their documentation pages (docs/connectors/table/*.md):
// palink checks these.

// sourceWatermarkOptions are the FLIP-296 options of the scan sources that
// push watermarks down (Flink 1.18).
var sourceWatermarkOptions = []option{
	o("scan.watermark.emit.strategy", "Enum", "on-periodic", "when the source emits watermarks: after each event or periodically").values("on-event", "on-periodic").from(1, 18),
	o("scan.watermark.emit.on-event.gap", "Integer", "1", "events between two watermarks with the on-event strategy").from(1, 18),
	o("scan.watermark.idle-timeout", "Duration", "", "how long a split may be idle before it stops holding back watermarks").from(1, 18),
	o("scan.watermark.alignment.group", "String", "", "the watermark alignment group of this source").from(1, 18),
	o("scan.watermark.alignment.max-drift", "Duration", "", "how far a source may run ahead of its alignment group").from(1, 18),
	o("scan.watermark.alignment.update-interval", "Duration", "1s", "how often the alignment group's watermark is updated").from(1, 18),
}

// lookupCacheOptions are the lookup cache options of FLIP-221 (Flink 1.16)
// and the older forms Flink still accepts.
var lookupCacheOptions = []option{
	o("lookup.cache", "Enum", "NONE", "the lookup cache: none, a partial LRU cache, or the full table reloaded").values("NONE", "PARTIAL", "FULL"),
	o("lookup.partial-cache.max-rows", "Long", "", "rows the partial cache keeps"),
	o("lookup.partial-cache.expire-after-write", "Duration", "", "drop a cached row this long after it was loaded"),
	o("lookup.partial-cache.expire-after-access", "Duration", "", "drop a cached row this long after it was last read"),
	o("lookup.partial-cache.cache-missing-key", "Boolean", "true", "cache keys that found no row"),
	o("lookup.full-cache.reload-strategy", "Enum", "PERIODIC", "reload the full cache every interval or at a time of day").values("PERIODIC", "TIMED"),
	o("lookup.full-cache.periodic-reload.interval", "Duration", "", "interval between two reloads of the full cache"),
	o("lookup.full-cache.periodic-reload.schedule-mode", "Enum", "FIXED_DELAY", "count the interval from the end or the start of a reload").values("FIXED_DELAY", "FIXED_RATE"),
	o("lookup.full-cache.timed-reload.iso-time", "String", "", "time of day of a timed reload, ISO-8601 (10:15:00)"),
	o("lookup.full-cache.timed-reload.interval-in-days", "Integer", "1", "days between two timed reloads"),
	o("lookup.max-retries", "Integer", "3", "attempts of a failed lookup"),
	o("lookup.cache.max-rows", "Long", "", "deprecated: lookup.partial-cache.max-rows"),
	o("lookup.cache.ttl", "Duration", "", "deprecated: lookup.partial-cache.expire-after-write"),
	o("lookup.cache.caching-missing-key", "Boolean", "true", "deprecated: lookup.partial-cache.cache-missing-key"),
}

var deliveryGuarantee = o("sink.delivery-guarantee", "Enum", "at-least-once", "the sink's guarantee: exactly-once needs checkpoints and a transactional id prefix").
	values("at-least-once", "exactly-once", "none")

var sinkParallelism = o("sink.parallelism", "Integer", "", "parallelism of the sink operator; the input's when not set")
var scanParallelism = o("scan.parallelism", "Integer", "", "parallelism of the source operator; the job's default when not set").from(1, 19)

func init() {
	register(&connectorSpec{
		name: "kafka", desc: "read and write Kafka topics (append-only)", checked: true,
		options: join([]option{
			o("topic", "String", "", "topic(s) to read, separated by ';', or the topic to write"),
			o("topic-pattern", "String", "", "regular expression of the topics to read"),
			o("properties.bootstrap.servers", "String", "", "Kafka brokers, host:port separated by ','").req(),
			o("properties.group.id", "String", "", "consumer group of the source"),
			o("properties.", "Map", "", "passed to the Kafka client as is").open(),
			o("format", "String", "", "format of the record value: json, avro, csv, debezium-json, ..."),
			o("key.format", "String", "", "format of the record key"),
			o("key.fields", "List", "", "columns that make the record key, separated by ';'"),
			o("key.fields-prefix", "String", "", "prefix that tells key columns from value columns"),
			o("value.format", "String", "", "format of the record value (with key.format)"),
			o("value.fields-include", "Enum", "ALL", "whether the value holds the key columns too").values("ALL", "EXCEPT_KEY"),
			o("scan.startup.mode", "Enum", "group-offsets", "where a new job starts reading").
				values("earliest-offset", "latest-offset", "group-offsets", "timestamp", "specific-offsets"),
			o("scan.startup.specific-offsets", "String", "", "start offsets: partition:0,offset:42;partition:1,offset:300"),
			o("scan.startup.timestamp-millis", "Long", "", "start at the first record at or after this epoch millisecond"),
			o("scan.bounded.mode", "Enum", "unbounded", "where a bounded read stops").
				values("unbounded", "latest-offset", "group-offsets", "timestamp", "specific-offsets").from(1, 17),
			o("scan.bounded.specific-offsets", "String", "", "stop offsets: partition:0,offset:42;partition:1,offset:300").from(1, 17),
			o("scan.bounded.timestamp-millis", "Long", "", "stop at this epoch millisecond").from(1, 17),
			o("scan.topic-partition-discovery.interval", "Duration", "5 min", "how often new partitions are looked for"),
			scanParallelism,
			o("sink.partitioner", "String", "default", "how rows go to partitions: default, fixed, round-robin or a class"),
			o("sink.semantic", "Enum", "at-least-once", "deprecated: sink.delivery-guarantee").values("at-least-once", "exactly-once", "none"),
			deliveryGuarantee,
			o("sink.transactional-id-prefix", "String", "", "prefix of the transaction ids of an exactly-once sink; unique per job"),
			o("sink.transaction-naming-strategy", "Enum", "DEFAULT", "how transaction ids are made and reused").values("DEFAULT", "POOLING").from(2, 0),
			sinkParallelism,
		}, sourceWatermarkOptions),
		required:       [][]string{{"topic", "topic-pattern"}, {"format", "value.format"}},
		formats:        []string{"format", "key.format", "value.format"},
		appendOnlySink: true, scanOnly: true,
	}, &connectorSpec{
		name: "upsert-kafka", desc: "a changelog keyed by the primary key, in a compacted Kafka topic", checked: true,
		options: join([]option{
			o("topic", "String", "", "topic(s) to read, separated by ';', or the topic to write"),
			o("topic-pattern", "String", "", "regular expression of the topics to read"),
			o("properties.bootstrap.servers", "String", "", "Kafka brokers, host:port separated by ','").req(),
			o("properties.group.id", "String", "", "consumer group of the source"),
			o("properties.", "Map", "", "passed to the Kafka client as is").open(),
			o("key.format", "String", "", "format of the key, made of the primary key columns").req(),
			o("key.fields-prefix", "String", "", "prefix that tells key columns from value columns"),
			o("value.format", "String", "", "format of the value").req(),
			o("value.fields-include", "Enum", "ALL", "whether the value holds the key columns too").values("ALL", "EXCEPT_KEY"),
			o("sink.buffer-flush.max-rows", "Integer", "0", "rows buffered per key before a flush; 0 disables buffering"),
			o("sink.buffer-flush.interval", "Duration", "0", "interval of buffered flushes; 0 disables buffering"),
			deliveryGuarantee, o("sink.transactional-id-prefix", "String", "", "prefix of the transaction ids of an exactly-once sink"),
			sinkParallelism, scanParallelism,
		}, sourceWatermarkOptions),
		required: [][]string{{"topic", "topic-pattern"}},
		formats:  []string{"key.format", "value.format"},
		upsert:   true, scanOnly: true,
	}, &connectorSpec{
		name: "jdbc", desc: "a table of a database through JDBC: scan, lookup and upsert sink", checked: true,
		options: join([]option{
			o("url", "String", "", "JDBC url of the database, like jdbc:mysql://host:3306/db").req(),
			o("table-name", "String", "", "name of the table in the database").req(),
			o("driver", "String", "", "class name of the JDBC driver; derived from the url when not set"),
			o("username", "String", "", "database user"),
			o("password", "String", "", "database password"),
			o("connection.max-retry-timeout", "Duration", "60s", "how long to retry opening a connection"),
			o("compatible-mode", "String", "", "the database's compatibility mode, for databases that speak another's SQL"),
			o("scan.partition.column", "String", "", "numeric, date or timestamp column that splits a parallel scan"),
			o("scan.partition.num", "Integer", "", "number of scan partitions"),
			o("scan.partition.lower-bound", "Long", "", "smallest value of the partition column"),
			o("scan.partition.upper-bound", "Long", "", "largest value of the partition column"),
			o("scan.fetch-size", "Integer", "0", "rows fetched per round trip; 0 leaves it to the driver"),
			o("scan.auto-commit", "Boolean", "true", "auto-commit of the scan's connection"),
			scanParallelism,
			o("sink.buffer-flush.max-rows", "Integer", "100", "rows buffered before a flush; 0 disables it"),
			o("sink.buffer-flush.interval", "Duration", "1s", "interval of flushes; 0 disables it"),
			o("sink.max-retries", "Integer", "3", "attempts of a failed write"),
			sinkParallelism,
			o("filter.handling.policy", "Enum", "always", "whether filters are pushed into the database's query").values("always", "never"),
		}, lookupCacheOptions),
		lookup: true,
	}, &connectorSpec{
		name: "datagen", desc: "generated rows, random or sequences, for tests", checked: true,
		options: join([]option{
			o("rows-per-second", "Long", "10000", "rows generated per second"),
			o("number-of-rows", "Long", "", "rows in all; unbounded when not set"),
			scanParallelism,
			o("fields.", "Map", "", "per column: fields.<col>.kind, min, max, length, start, end, ...").open(),
		}, sourceWatermarkOptions),
		scanOnly: true,
	}, &connectorSpec{
		name: "filesystem", desc: "files in a directory of a file system (HDFS, S3, local), partitioned", checked: true,
		options: join([]option{
			o("path", "String", "", "directory of the table").req(),
			o("format", "String", "", "file format: csv, json, avro, parquet, orc, raw, ...").req(),
			o("source.monitor-interval", "Duration", "", "how often new files are looked for; a bounded read when not set"),
			o("source.path.regex-pattern", "String", "", "regular expression the paths of files to read match").from(1, 18),
			o("source.report-statistics", "Enum", "ALL", "whether the source reports file statistics to the planner").values("NONE", "ALL"),
			o("partition.default-name", "String", "__DEFAULT_PARTITION__", "partition name of a null or empty partition value"),
			o("partition.time-extractor.kind", "Enum", "default", "how a partition's time is read from its values").values("default", "custom"),
			o("partition.time-extractor.class", "String", "", "extractor class with kind custom"),
			o("partition.time-extractor.timestamp-pattern", "String", "", "pattern that builds a timestamp from partition values, like $dt $hour:00:00"),
			o("partition.time-extractor.timestamp-formatter", "String", "yyyy-MM-dd HH:mm:ss", "format of that timestamp"),
			o("sink.rolling-policy.file-size", "MemorySize", "128MB", "largest part file before rolling"),
			o("sink.rolling-policy.rollover-interval", "Duration", "30 min", "longest a part file stays open"),
			o("sink.rolling-policy.check-interval", "Duration", "1 min", "how often the rolling policy is checked"),
			o("sink.rolling-policy.inactivity-interval", "Duration", "30 min", "roll a part file that got no data this long"),
			o("auto-compaction", "Boolean", "false", "compact small files at checkpoints"),
			o("compaction.file-size", "MemorySize", "", "target size of compacted files; the rolling file size when not set"),
			o("compaction.parallelism", "Integer", "", "parallelism of compaction"),
			o("sink.partition-commit.trigger", "Enum", "process-time", "when a partition is committed").values("process-time", "partition-time"),
			o("sink.partition-commit.delay", "Duration", "0 s", "wait this long after a partition's time before committing it"),
			o("sink.partition-commit.watermark-time-zone", "String", "UTC", "time zone of the watermark with partition-time commits"),
			o("sink.partition-commit.policy.kind", "String", "", "what a commit does: metastore, success-file, custom, separated by ','"),
			o("sink.partition-commit.policy.class", "String", "", "commit policy class with kind custom"),
			o("sink.partition-commit.policy.class.parameters", "String", "", "arguments of that class, separated by ';'"),
			o("sink.partition-commit.success-file.name", "String", "_SUCCESS", "name of the success file"),
			o("sink.shuffle-by-partition.enable", "Boolean", "false", "shuffle rows by partition before writing, for fewer files"),
			sinkParallelism, scanParallelism,
		}, sourceWatermarkOptions),
		formats:  []string{"format"},
		scanOnly: true,
	}, &connectorSpec{
		name: "print", desc: "prints every row to the TaskManagers' stdout, for tests", checked: true,
		options: []option{
			o("print-identifier", "String", "", "prefix of every printed line"),
			o("standard-error", "Boolean", "false", "print to stderr rather than stdout"),
			sinkParallelism,
		},
		scanOnly: true,
	}, &connectorSpec{
		name: "blackhole", desc: "swallows every row, for benchmarks", checked: true, scanOnly: true,
	}, &connectorSpec{
		name: "hbase-2.2", desc: "an HBase table: scan, lookup and upsert sink", checked: true,
		options: join([]option{
			o("table-name", "String", "", "name of the HBase table").req(),
			o("zookeeper.quorum", "String", "", "ZooKeeper quorum of the cluster").req(),
			o("zookeeper.znode.parent", "String", "/hbase", "root znode of the cluster"),
			o("null-string-literal", "String", "null", "how a null string is stored"),
			o("sink.buffer-flush.max-size", "MemorySize", "2mb", "bytes buffered before a flush"),
			o("sink.buffer-flush.max-rows", "Integer", "1000", "rows buffered before a flush"),
			o("sink.buffer-flush.interval", "Duration", "1s", "interval of flushes"),
			o("sink.ignore-null-value", "Boolean", "false", "skip null columns when writing"),
			sinkParallelism,
			o("lookup.async", "Boolean", "false", "look up asynchronously"),
			o("properties.", "Map", "", "passed to the HBase client as is").open(),
		}, lookupCacheOptions),
		lookup: true, upsert: true,
	}, &connectorSpec{
		name: "elasticsearch-7", desc: "an Elasticsearch 7 index (sink)", checked: true,
		options: []option{
			o("hosts", "String", "", "nodes, http://host:9200 separated by ';'").req(),
			o("index", "String", "", "index to write, with {field} or {ts|yyyy-MM-dd} placeholders").req(),
			o("document-id.key-delimiter", "String", "_", "separator of the primary key columns in a document id"),
			o("username", "String", "", "user"),
			o("password", "String", "", "password"),
			o("failure-handler", "String", "fail", "what a failed request does: fail, ignore, retry-rejected or a class"),
			o("sink.delivery-guarantee", "Enum", "at-least-once", "the sink's guarantee").values("at-least-once", "none"),
			o("sink.flush-on-checkpoint", "Boolean", "true", "flush at each checkpoint"),
			o("sink.bulk-flush.max-actions", "Integer", "1000", "actions per bulk request"),
			o("sink.bulk-flush.max-size", "MemorySize", "2mb", "bytes per bulk request"),
			o("sink.bulk-flush.interval", "Duration", "1s", "interval of bulk flushes"),
			o("sink.bulk-flush.backoff.strategy", "Enum", "NONE", "retries of a failed bulk request").values("NONE", "CONSTANT", "EXPONENTIAL"),
			o("sink.bulk-flush.backoff.max-retries", "Integer", "", "attempts of a failed bulk request"),
			o("sink.bulk-flush.backoff.delay", "Duration", "", "delay between attempts"),
			o("connection.path-prefix", "String", "", "prefix of every request path"),
			o("connection.request-timeout", "Duration", "", "timeout of a connection request"),
			o("connection.timeout", "Duration", "", "timeout of a connection"),
			o("socket.timeout", "Duration", "", "timeout of waiting for data"),
			o("format", "String", "json", "format of the documents"),
			sinkParallelism,
		},
		formats: []string{"format"},
	})
	alias("hbase-1.4", "hbase-2.2", nil)
	alias("elasticsearch-6", "elasticsearch-7", func(c *connectorSpec) {
		c.desc = "an Elasticsearch 6 index (sink)"
		c.options = append([]option{o("document-type", "String", "", "Elasticsearch document type").req()}, c.options...)
		c.required = append(c.required, []string{"document-type"})
	})
}
