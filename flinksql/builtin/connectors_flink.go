package builtin

// The connectors of Apache Flink and its connector repositories, with the
// Options of their documentation pages (docs/connectors/table/*.md):
// palink checks these.

// sourceWatermarkOptions are the FLIP-296 options of the scan sources that
// push watermarks down (Flink 1.18).
var sourceWatermarkOptions = []Option{
	Opt("scan.watermark.emit.strategy", "Enum", "on-periodic", "when the source emits watermarks: after each event or periodically").Values("on-event", "on-periodic").from(1, 18),
	Opt("scan.watermark.emit.on-event.gap", "Integer", "1", "events between two watermarks with the on-event strategy").from(1, 18),
	Opt("scan.watermark.idle-timeout", "Duration", "", "how long a split may be idle before it stops holding back watermarks").from(1, 18),
	Opt("scan.watermark.alignment.group", "String", "", "the watermark alignment group of this source").from(1, 18),
	Opt("scan.watermark.alignment.max-drift", "Duration", "", "how far a source may run ahead of its alignment group").from(1, 18),
	Opt("scan.watermark.alignment.update-interval", "Duration", "1s", "how often the alignment group's watermark is updated").from(1, 18),
}

// lookupCacheOptions are the lookup cache options of FLIP-221 (Flink 1.16)
// and the older forms Flink still accepts.
var lookupCacheOptions = []Option{
	Opt("lookup.cache", "Enum", "NONE", "the lookup cache: none, a partial LRU cache, or the full table reloaded").Values("NONE", "PARTIAL", "FULL"),
	Opt("lookup.partial-cache.max-rows", "Long", "", "rows the partial cache keeps"),
	Opt("lookup.partial-cache.expire-after-write", "Duration", "", "drop a cached row this long after it was loaded"),
	Opt("lookup.partial-cache.expire-after-access", "Duration", "", "drop a cached row this long after it was last read"),
	Opt("lookup.partial-cache.cache-missing-key", "Boolean", "true", "cache keys that found no row"),
	Opt("lookup.full-cache.reload-strategy", "Enum", "PERIODIC", "reload the full cache every interval or at a time of day").Values("PERIODIC", "TIMED"),
	Opt("lookup.full-cache.periodic-reload.interval", "Duration", "", "interval between two reloads of the full cache"),
	Opt("lookup.full-cache.periodic-reload.schedule-mode", "Enum", "FIXED_DELAY", "count the interval from the end or the start of a reload").Values("FIXED_DELAY", "FIXED_RATE"),
	Opt("lookup.full-cache.timed-reload.iso-time", "String", "", "time of day of a timed reload, ISO-8601 (10:15:00)"),
	Opt("lookup.full-cache.timed-reload.interval-in-days", "Integer", "1", "days between two timed reloads"),
	Opt("lookup.max-retries", "Integer", "3", "attempts of a failed lookup"),
	Opt("lookup.cache.max-rows", "Long", "", "deprecated: lookup.partial-cache.max-rows"),
	Opt("lookup.cache.ttl", "Duration", "", "deprecated: lookup.partial-cache.expire-after-write"),
	Opt("lookup.cache.caching-missing-key", "Boolean", "true", "deprecated: lookup.partial-cache.cache-missing-key"),
}

var deliveryGuarantee = Opt("sink.delivery-guarantee", "Enum", "at-least-once", "the sink's guarantee: exactly-once needs checkpoints and a transactional id prefix").
	Values("at-least-once", "exactly-once", "none")

var sinkParallelism = Opt("sink.parallelism", "Integer", "", "parallelism of the sink operator; the input's when not set")
var scanParallelism = Opt("scan.parallelism", "Integer", "", "parallelism of the source operator; the job's default when not set").from(1, 19)

func init() {
	register(&ConnectorSpec{
		Name: "kafka", Desc: "read and write Kafka topics (append-only)", Checked: true,
		Options: join([]Option{
			Opt("topic", "String", "", "topic(s) to read, separated by ';', or the topic to write"),
			Opt("topic-pattern", "String", "", "regular expression of the topics to read"),
			Opt("properties.bootstrap.servers", "String", "", "Kafka brokers, host:port separated by ','").Req(),
			Opt("properties.group.id", "String", "", "consumer group of the source"),
			Opt("properties.", "Map", "", "passed to the Kafka client as is").open(),
			Opt("format", "String", "", "format of the record value: json, avro, csv, debezium-json, ..."),
			Opt("key.format", "String", "", "format of the record key"),
			Opt("key.fields", "List", "", "columns that make the record key, separated by ';'"),
			Opt("key.fields-prefix", "String", "", "prefix that tells key columns from value columns"),
			Opt("value.format", "String", "", "format of the record value (with key.format)"),
			Opt("value.fields-include", "Enum", "ALL", "whether the value holds the key columns too").Values("ALL", "EXCEPT_KEY"),
			Opt("scan.startup.mode", "Enum", "group-offsets", "where a new job starts reading").
				Values("earliest-offset", "latest-offset", "group-offsets", "timestamp", "specific-offsets"),
			Opt("scan.startup.specific-offsets", "String", "", "start offsets: partition:0,offset:42;partition:1,offset:300"),
			Opt("scan.startup.timestamp-millis", "Long", "", "start at the first record at or after this epoch millisecond"),
			Opt("scan.bounded.mode", "Enum", "unbounded", "where a bounded read stops").
				Values("unbounded", "latest-offset", "group-offsets", "timestamp", "specific-offsets").from(1, 17),
			Opt("scan.bounded.specific-offsets", "String", "", "stop offsets: partition:0,offset:42;partition:1,offset:300").from(1, 17),
			Opt("scan.bounded.timestamp-millis", "Long", "", "stop at this epoch millisecond").from(1, 17),
			Opt("scan.topic-partition-discovery.interval", "Duration", "5 min", "how often new partitions are looked for"),
			scanParallelism,
			Opt("sink.partitioner", "String", "default", "how rows go to partitions: default, fixed, round-robin or a class"),
			Opt("sink.semantic", "Enum", "at-least-once", "deprecated: sink.delivery-guarantee").Values("at-least-once", "exactly-once", "none"),
			deliveryGuarantee,
			Opt("sink.transactional-id-prefix", "String", "", "prefix of the transaction ids of an exactly-once sink; unique per job"),
			Opt("sink.transaction-naming-strategy", "Enum", "DEFAULT", "how transaction ids are made and reused").Values("DEFAULT", "POOLING").from(2, 0),
			sinkParallelism,
		}, sourceWatermarkOptions),
		Required:       [][]string{{"topic", "topic-pattern"}, {"format", "value.format"}},
		Formats:        []string{"format", "key.format", "value.format"},
		AppendOnlySink: true, ScanOnly: true,
	}, &ConnectorSpec{
		Name: "upsert-kafka", Desc: "a changelog keyed by the primary key, in a compacted Kafka topic", Checked: true,
		Options: join([]Option{
			Opt("topic", "String", "", "topic(s) to read, separated by ';', or the topic to write"),
			Opt("topic-pattern", "String", "", "regular expression of the topics to read"),
			Opt("properties.bootstrap.servers", "String", "", "Kafka brokers, host:port separated by ','").Req(),
			Opt("properties.group.id", "String", "", "consumer group of the source"),
			Opt("properties.", "Map", "", "passed to the Kafka client as is").open(),
			Opt("key.format", "String", "", "format of the key, made of the primary key columns").Req(),
			Opt("key.fields-prefix", "String", "", "prefix that tells key columns from value columns"),
			Opt("value.format", "String", "", "format of the value").Req(),
			Opt("value.fields-include", "Enum", "ALL", "whether the value holds the key columns too").Values("ALL", "EXCEPT_KEY"),
			Opt("sink.buffer-flush.max-rows", "Integer", "0", "rows buffered per key before a flush; 0 disables buffering"),
			Opt("sink.buffer-flush.interval", "Duration", "0", "interval of buffered flushes; 0 disables buffering"),
			deliveryGuarantee, Opt("sink.transactional-id-prefix", "String", "", "prefix of the transaction ids of an exactly-once sink"),
			sinkParallelism, scanParallelism,
		}, sourceWatermarkOptions),
		Required: [][]string{{"topic", "topic-pattern"}},
		Formats:  []string{"key.format", "value.format"},
		Upsert:   true, ScanOnly: true,
	}, &ConnectorSpec{
		Name: "jdbc", Desc: "a table of a database through JDBC: scan, lookup and upsert sink", Checked: true,
		Options: join([]Option{
			Opt("url", "String", "", "JDBC url of the database, like jdbc:mysql://host:3306/db").Req(),
			Opt("table-name", "String", "", "name of the table in the database").Req(),
			Opt("driver", "String", "", "class name of the JDBC driver; derived from the url when not set"),
			Opt("username", "String", "", "database user"),
			Opt("password", "String", "", "database password"),
			Opt("connection.max-retry-timeout", "Duration", "60s", "how long to retry opening a connection"),
			Opt("compatible-mode", "String", "", "the database's compatibility mode, for databases that speak another's SQL"),
			Opt("scan.partition.column", "String", "", "numeric, date or timestamp column that splits a parallel scan"),
			Opt("scan.partition.num", "Integer", "", "number of scan partitions"),
			Opt("scan.partition.lower-bound", "Long", "", "smallest value of the partition column"),
			Opt("scan.partition.upper-bound", "Long", "", "largest value of the partition column"),
			Opt("scan.fetch-size", "Integer", "0", "rows fetched per round trip; 0 leaves it to the driver"),
			Opt("scan.auto-commit", "Boolean", "true", "auto-commit of the scan's connection"),
			scanParallelism,
			Opt("sink.buffer-flush.max-rows", "Integer", "100", "rows buffered before a flush; 0 disables it"),
			Opt("sink.buffer-flush.interval", "Duration", "1s", "interval of flushes; 0 disables it"),
			Opt("sink.max-retries", "Integer", "3", "attempts of a failed write"),
			sinkParallelism,
			Opt("filter.handling.policy", "Enum", "always", "whether filters are pushed into the database's query").Values("always", "never"),
		}, lookupCacheOptions),
		Lookup: true,
	}, &ConnectorSpec{
		Name: "datagen", Desc: "generated rows, random or sequences, for tests", Checked: true,
		Options: join([]Option{
			Opt("rows-per-second", "Long", "10000", "rows generated per second"),
			Opt("number-of-rows", "Long", "", "rows in all; unbounded when not set"),
			scanParallelism,
			Opt("fields.", "Map", "", "per column: fields.<col>.kind, min, max, length, start, end, ...").open(),
		}, sourceWatermarkOptions),
		ScanOnly: true,
	}, &ConnectorSpec{
		Name: "filesystem", Desc: "files in a directory of a file system (HDFS, S3, local), partitioned", Checked: true,
		Options: join([]Option{
			Opt("path", "String", "", "directory of the table").Req(),
			Opt("format", "String", "", "file format: csv, json, avro, parquet, orc, raw, ...").Req(),
			Opt("source.monitor-interval", "Duration", "", "how often new files are looked for; a bounded read when not set"),
			Opt("source.path.regex-pattern", "String", "", "regular expression the paths of files to read match").from(1, 18),
			Opt("source.report-statistics", "Enum", "ALL", "whether the source reports file statistics to the planner").Values("NONE", "ALL"),
			Opt("partition.default-name", "String", "__DEFAULT_PARTITION__", "partition name of a null or empty partition value"),
			Opt("partition.time-extractor.kind", "Enum", "default", "how a partition's time is read from its values").Values("default", "custom"),
			Opt("partition.time-extractor.class", "String", "", "extractor class with kind custom"),
			Opt("partition.time-extractor.timestamp-pattern", "String", "", "pattern that builds a timestamp from partition values, like $dt $hour:00:00"),
			Opt("partition.time-extractor.timestamp-formatter", "String", "yyyy-MM-dd HH:mm:ss", "format of that timestamp"),
			Opt("sink.rolling-policy.file-size", "MemorySize", "128MB", "largest part file before rolling"),
			Opt("sink.rolling-policy.rollover-interval", "Duration", "30 min", "longest a part file stays open"),
			Opt("sink.rolling-policy.check-interval", "Duration", "1 min", "how often the rolling policy is checked"),
			Opt("sink.rolling-policy.inactivity-interval", "Duration", "30 min", "roll a part file that got no data this long"),
			Opt("auto-compaction", "Boolean", "false", "compact small files at checkpoints"),
			Opt("compaction.file-size", "MemorySize", "", "target size of compacted files; the rolling file size when not set"),
			Opt("compaction.parallelism", "Integer", "", "parallelism of compaction"),
			Opt("sink.partition-commit.trigger", "Enum", "process-time", "when a partition is committed").Values("process-time", "partition-time"),
			Opt("sink.partition-commit.delay", "Duration", "0 s", "wait this long after a partition's time before committing it"),
			Opt("sink.partition-commit.watermark-time-zone", "String", "UTC", "time zone of the watermark with partition-time commits"),
			Opt("sink.partition-commit.policy.kind", "String", "", "what a commit does: metastore, success-file, custom, separated by ','"),
			Opt("sink.partition-commit.policy.class", "String", "", "commit policy class with kind custom"),
			Opt("sink.partition-commit.policy.class.parameters", "String", "", "arguments of that class, separated by ';'"),
			Opt("sink.partition-commit.success-file.name", "String", "_SUCCESS", "name of the success file"),
			Opt("sink.shuffle-by-partition.enable", "Boolean", "false", "shuffle rows by partition before writing, for fewer files"),
			sinkParallelism, scanParallelism,
		}, sourceWatermarkOptions),
		Formats:  []string{"format"},
		ScanOnly: true,
	}, &ConnectorSpec{
		Name: "print", Desc: "prints every row to the TaskManagers' stdout, for tests", Checked: true,
		Options: []Option{
			Opt("print-identifier", "String", "", "prefix of every printed line"),
			Opt("standard-error", "Boolean", "false", "print to stderr rather than stdout"),
			sinkParallelism,
		},
		ScanOnly: true,
	}, &ConnectorSpec{
		Name: "blackhole", Desc: "swallows every row, for benchmarks", Checked: true, ScanOnly: true,
	}, &ConnectorSpec{
		Name: "hbase-2.2", Desc: "an HBase table: scan, lookup and upsert sink", Checked: true,
		Options: join([]Option{
			Opt("table-name", "String", "", "name of the HBase table").Req(),
			Opt("zookeeper.quorum", "String", "", "ZooKeeper quorum of the cluster").Req(),
			Opt("zookeeper.znode.parent", "String", "/hbase", "root znode of the cluster"),
			Opt("null-string-literal", "String", "null", "how a null string is stored"),
			Opt("sink.buffer-flush.max-size", "MemorySize", "2mb", "bytes buffered before a flush"),
			Opt("sink.buffer-flush.max-rows", "Integer", "1000", "rows buffered before a flush"),
			Opt("sink.buffer-flush.interval", "Duration", "1s", "interval of flushes"),
			Opt("sink.ignore-null-value", "Boolean", "false", "skip null columns when writing"),
			sinkParallelism,
			Opt("lookup.async", "Boolean", "false", "look up asynchronously"),
			Opt("properties.", "Map", "", "passed to the HBase client as is").open(),
		}, lookupCacheOptions),
		Lookup: true, Upsert: true,
	}, &ConnectorSpec{
		Name: "elasticsearch-7", Desc: "an Elasticsearch 7 index (sink)", Checked: true,
		Options: []Option{
			Opt("hosts", "String", "", "nodes, http://host:9200 separated by ';'").Req(),
			Opt("index", "String", "", "index to write, with {field} or {ts|yyyy-MM-dd} placeholders").Req(),
			Opt("document-id.key-delimiter", "String", "_", "separator of the primary key columns in a document id"),
			Opt("username", "String", "", "user"),
			Opt("password", "String", "", "password"),
			Opt("failure-handler", "String", "fail", "what a failed request does: fail, ignore, retry-rejected or a class"),
			Opt("sink.delivery-guarantee", "Enum", "at-least-once", "the sink's guarantee").Values("at-least-once", "none"),
			Opt("sink.flush-on-checkpoint", "Boolean", "true", "flush at each checkpoint"),
			Opt("sink.bulk-flush.max-actions", "Integer", "1000", "actions per bulk request"),
			Opt("sink.bulk-flush.max-size", "MemorySize", "2mb", "bytes per bulk request"),
			Opt("sink.bulk-flush.interval", "Duration", "1s", "interval of bulk flushes"),
			Opt("sink.bulk-flush.backoff.strategy", "Enum", "NONE", "retries of a failed bulk request").Values("NONE", "CONSTANT", "EXPONENTIAL"),
			Opt("sink.bulk-flush.backoff.max-retries", "Integer", "", "attempts of a failed bulk request"),
			Opt("sink.bulk-flush.backoff.delay", "Duration", "", "delay between attempts"),
			Opt("connection.path-prefix", "String", "", "prefix of every request path"),
			Opt("connection.request-timeout", "Duration", "", "timeout of a connection request"),
			Opt("connection.timeout", "Duration", "", "timeout of a connection"),
			Opt("socket.timeout", "Duration", "", "timeout of waiting for data"),
			Opt("format", "String", "json", "format of the documents"),
			sinkParallelism,
		},
		Formats: []string{"format"},
	})
	alias("hbase-1.4", "hbase-2.2", nil)
	alias("elasticsearch-6", "elasticsearch-7", func(c *ConnectorSpec) {
		c.Desc = "an Elasticsearch 6 index (sink)"
		c.Options = append([]Option{Opt("document-type", "String", "", "Elasticsearch document type").Req()}, c.Options...)
		c.Required = append(c.Required, []string{"document-type"})
	})
}
