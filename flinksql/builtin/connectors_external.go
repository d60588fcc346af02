package builtin

// Connectors that ship outside Apache Flink's releases — Flink CDC, Apache
// Paimon, Iceberg, the Pulsar and MongoDB connectors, Doris, StarRocks,
// flink-faker — with the options of their own documentation. Their
// versions follow their projects, not the cluster's Flink, so palink lists
// their options for completion and never reports one: a table on them is
// Checked for its structure only, with one warning that says so.

// cdcOptions are the options the Flink CDC sources share.
var cdcOptions = []Option{
	Opt("hostname", "String", "", "host of the database server").Req(),
	Opt("username", "String", "", "user with the replication privileges").Req(),
	Opt("password", "String", "", "that user's password").Req(),
	Opt("database-name", "String", "", "database to capture; a regular expression").Req(),
	Opt("table-name", "String", "", "table to capture; a regular expression").Req(),
	Opt("scan.incremental.snapshot.enabled", "Boolean", "true", "snapshot in parallel chunks, without locks"),
	Opt("scan.incremental.snapshot.chunk.size", "Integer", "8096", "rows per snapshot chunk"),
	Opt("scan.incremental.snapshot.chunk.key-column", "String", "", "column that splits the snapshot; the first primary key column by default"),
	Opt("scan.snapshot.fetch.size", "Integer", "1024", "rows fetched per round trip while snapshotting"),
	Opt("scan.newly-added-table.enabled", "Boolean", "false", "capture tables added to the pattern after the job started"),
	Opt("connect.timeout", "Duration", "30s", "timeout of connecting to the server"),
	Opt("connect.max-retries", "Integer", "3", "attempts to connect"),
	Opt("connection.pool.size", "Integer", "20", "connections of the pool"),
	Opt("heartbeat.interval", "Duration", "30s", "interval of heartbeats that move the offset on when nothing changes"),
	Opt("debezium.", "Map", "", "passed to Debezium as is").open(),
	Opt("jdbc.properties.", "Map", "", "passed to the JDBC url as is").open(),
}

// lookupByName are the connectors known by name only that serve lookups.
var lookupByName = map[string]bool{
	"redis": true, "hive": true, "elasticsearch-8": true, "opensearch": true, "http": true,
	"dynamodb": true, "clickhouse": true,
}

func init() {
	register(&ConnectorSpec{
		Name: "mysql-cdc", Desc: "Flink CDC: a MySQL table's snapshot, then its binlog",
		Options: join(cdcOptions, []Option{
			Opt("port", "Integer", "3306", "port of the MySQL server"),
			Opt("server-id", "String", "", "binlog client id, or a range like 5400-5408 for a parallel source"),
			Opt("server-time-zone", "String", "", "session time zone of the server, like Asia/Shanghai"),
			Opt("scan.startup.mode", "Enum", "initial", "snapshot then binlog, or only the binlog from a point").
				Values("initial", "earliest-offset", "latest-offset", "specific-offset", "timestamp", "snapshot"),
			Opt("scan.startup.specific-offset.file", "String", "", "binlog file to start from"),
			Opt("scan.startup.specific-offset.pos", "Long", "", "position in that file"),
			Opt("scan.startup.specific-offset.gtid-set", "String", "", "GTID set to start from"),
			Opt("scan.startup.timestamp-millis", "Long", "", "start at this epoch millisecond"),
		}),
	}, &ConnectorSpec{
		Name: "postgres-cdc", Desc: "Flink CDC: a PostgreSQL table's snapshot, then its logical replication",
		Options: join(cdcOptions, []Option{
			Opt("port", "Integer", "5432", "port of the PostgreSQL server"),
			Opt("schema-name", "String", "", "schema to capture; a regular expression").Req(),
			Opt("slot.name", "String", "", "replication slot of this source").Req(),
			Opt("decoding.plugin.name", "String", "decoderbufs", "logical decoding plugin: decoderbufs, pgoutput, ..."),
			Opt("changelog-mode", "Enum", "all", "full changelog, or upserts without -U rows").Values("all", "upsert"),
			Opt("scan.startup.mode", "Enum", "initial", "snapshot then changes, or only changes").Values("initial", "latest-offset", "snapshot", "committed-offset"),
		}),
	}, &ConnectorSpec{
		Name: "pulsar", Desc: "read and write Pulsar topics",
		Options: []Option{
			Opt("topics", "List", "", "topics to read or write, separated by ';'").Req(),
			Opt("service-url", "String", "", "Pulsar service url, pulsar://host:6650").Req(),
			Opt("admin-url", "String", "", "Pulsar admin url, http://host:8080"),
			Opt("explicit", "Boolean", "true", "whether the table is declared in DDL rather than a catalog"),
			Opt("source.subscription-name", "String", "", "subscription of the source"),
			Opt("source.subscription-type", "Enum", "Exclusive", "subscription type").Values("Exclusive", "Shared", "Failover", "Key_Shared"),
			Opt("source.start.message-id", "String", "", "where a new job starts: earliest, latest or a message id"),
			Opt("source.start.publish-time", "Long", "", "start at this publish time, epoch millis"),
			Opt("source.stop.at-message-id", "String", "", "stop before this message id"),
			Opt("source.stop.after-message-id", "String", "", "stop after this message id"),
			Opt("source.stop.at-publish-time", "Long", "", "stop at this publish time, epoch millis"),
			Opt("sink.topic-routing-mode", "Enum", "round-robin", "how rows go to topic partitions").Values("round-robin", "message-key-hash"),
			Opt("sink.custom-topic-router", "String", "", "class of a custom topic router"),
			Opt("sink.message-delay-interval", "Duration", "0 ms", "delay of delivered messages"),
			Opt("format", "String", "", "format of the message value"),
			Opt("key.format", "String", "", "format of the message key"),
			Opt("key.fields", "List", "", "columns of the key, separated by ';'"),
			Opt("value.format", "String", "", "format of the message value (with key.format)"),
			Opt("pulsar.client.", "Map", "", "passed to the Pulsar client").open(),
			Opt("pulsar.admin.", "Map", "", "passed to the Pulsar admin client").open(),
			Opt("pulsar.source.", "Map", "", "Pulsar source settings").open(),
			Opt("pulsar.sink.", "Map", "", "Pulsar sink settings").open(),
		},
		Formats: []string{"format", "key.format", "value.format"},
	}, &ConnectorSpec{
		Name: "paimon", Desc: "an Apache Paimon table: streaming lake storage, lookup and upsert",
		Options: []Option{
			Opt("path", "String", "", "the table's directory in the warehouse"),
			Opt("bucket", "Integer", "-1", "buckets of the table; -1 is dynamic bucketing"),
			Opt("bucket-key", "String", "", "columns that choose the bucket, separated by ','"),
			Opt("changelog-producer", "Enum", "none", "how the table produces its changelog").Values("none", "input", "lookup", "full-compaction"),
			Opt("merge-engine", "Enum", "deduplicate", "how rows with one primary key merge").Values("deduplicate", "partial-update", "aggregation", "first-row"),
			Opt("sequence.field", "String", "", "column that orders rows of one key"),
			Opt("file.format", "Enum", "parquet", "format of data files").Values("parquet", "orc", "avro"),
			Opt("scan.mode", "Enum", "default", "what a read starts from").
				Values("default", "latest-full", "full", "latest", "compacted-full", "from-timestamp", "from-snapshot", "from-snapshot-full", "incremental"),
			Opt("scan.snapshot-id", "Long", "", "snapshot to read from"),
			Opt("scan.timestamp-millis", "Long", "", "read from the snapshot at this epoch millisecond"),
			Opt("snapshot.time-retained", "Duration", "1 h", "how long snapshots are kept"),
			Opt("snapshot.num-retained.min", "Integer", "10", "snapshots always kept"),
			Opt("snapshot.num-retained.max", "Integer", "", "snapshots kept at most"),
			Opt("write-buffer-size", "MemorySize", "256 mb", "memory of a writer's sort buffer"),
			Opt("target-file-size", "MemorySize", "", "target size of data files"),
			Opt("full-compaction.delta-commits", "Integer", "", "commits between two full compactions"),
			Opt("partition.expiration-time", "Duration", "", "drop partitions older than this"),
			Opt("fields.", "Map", "", "per column: fields.<col>.aggregate-function, fields.<col>.sequence-group, ...").open(),
		},
		Lookup: true,
	}, &ConnectorSpec{
		Name: "iceberg", Desc: "an Apache Iceberg table through an Iceberg catalog",
		Options: []Option{
			Opt("catalog-name", "String", "", "name of the Iceberg catalog").Req(),
			Opt("catalog-type", "Enum", "hive", "kind of catalog").Values("hive", "hadoop", "rest"),
			Opt("catalog-impl", "String", "", "class of a custom catalog"),
			Opt("catalog-database", "String", "", "database of the table in the catalog"),
			Opt("catalog-table", "String", "", "table name in the catalog"),
			Opt("uri", "String", "", "metastore or REST catalog uri"),
			Opt("warehouse", "String", "", "warehouse directory"),
			Opt("format-version", "Enum", "2", "Iceberg table format version").Values("1", "2"),
			Opt("write.format.default", "Enum", "parquet", "format of data files").Values("parquet", "avro", "orc"),
			Opt("write.upsert.enabled", "Boolean", "false", "write rows as upserts of the primary key"),
			Opt("write.target-file-size-bytes", "Long", "", "target size of data files"),
			Opt("write.distribution-mode", "Enum", "none", "how rows are shuffled before writing").Values("none", "hash", "range"),
		},
	}, &ConnectorSpec{
		Name: "mongodb", Desc: "a MongoDB collection: scan, lookup and upsert sink",
		Options: join([]Option{
			Opt("uri", "String", "", "connection string, mongodb://user:password@host:27017").Req(),
			Opt("database", "String", "", "database of the collection").Req(),
			Opt("collection", "String", "", "the collection").Req(),
			Opt("scan.fetch-size", "Integer", "2048", "documents per round trip"),
			Opt("scan.cursor.no-timeout", "Boolean", "true", "keep idle cursors open"),
			Opt("scan.partition.strategy", "Enum", "default", "how a scan is split").Values("single", "sample", "split-vector", "sharded", "default"),
			Opt("scan.partition.size", "MemorySize", "64mb", "size of a scan partition"),
			Opt("scan.partition.samples", "Integer", "10", "samples per partition with the sample strategy"),
			Opt("sink.buffer-flush.max-rows", "Integer", "1000", "documents buffered before a flush"),
			Opt("sink.buffer-flush.interval", "Duration", "1s", "interval of flushes"),
			Opt("sink.max-retries", "Integer", "3", "attempts of a failed write"),
			Opt("sink.retry.interval", "Duration", "1s", "delay between attempts"),
			deliveryGuarantee, sinkParallelism,
			Opt("lookup.retry.interval", "Duration", "1s", "delay between lookup attempts"),
		}, lookupCacheOptions),
		Lookup: true,
	}, &ConnectorSpec{
		Name: "doris", Desc: "an Apache Doris table: scan, lookup and stream-load sink",
		Options: []Option{
			Opt("fenodes", "String", "", "frontends, host:8030 separated by ','").Req(),
			Opt("table.identifier", "String", "", "the table as db.table").Req(),
			Opt("username", "String", "", "user").Req(),
			Opt("password", "String", "", "password").Req(),
			Opt("benodes", "String", "", "backends to write to directly"),
			Opt("jdbc-url", "String", "", "JDBC url, for lookups"),
			Opt("doris.request.retries", "Integer", "3", "attempts of a request"),
			Opt("doris.request.connect.timeout", "Duration", "30s", "timeout of connecting"),
			Opt("doris.request.read.timeout", "Duration", "30s", "timeout of reading"),
			Opt("doris.read.field", "String", "", "columns to read, separated by ','"),
			Opt("doris.filter.query", "String", "", "filter pushed into the scan"),
			Opt("doris.batch.size", "Integer", "1024", "rows per read batch"),
			Opt("doris.exec.mem.limit", "MemorySize", "2147483648", "memory of a query"),
			Opt("sink.label-prefix", "String", "", "prefix of stream-load labels; unique per job"),
			Opt("sink.enable-2pc", "Boolean", "true", "two-phase commit, for exactly-once"),
			Opt("sink.enable-delete", "Boolean", "true", "apply deletes of the changelog"),
			Opt("sink.buffer-size", "Integer", "1048576", "bytes buffered per stream load"),
			Opt("sink.buffer-count", "Integer", "3", "buffers per writer"),
			Opt("sink.max-retries", "Integer", "3", "attempts of a failed load"),
			Opt("sink.properties.", "Map", "", "stream-load properties, like sink.properties.format").open(),
			Opt("lookup.cache.max-rows", "Long", "-1", "rows the lookup cache keeps"),
			Opt("lookup.cache.ttl", "Duration", "10s", "how long a cached row lives"),
			Opt("lookup.max-retries", "Integer", "1", "attempts of a lookup"),
			Opt("lookup.jdbc.async", "Boolean", "false", "look up asynchronously"),
		},
		Lookup: true,
	}, &ConnectorSpec{
		Name: "starrocks", Desc: "a StarRocks table: scan and stream-load sink",
		Options: []Option{
			Opt("jdbc-url", "String", "", "JDBC url of a frontend").Req(),
			Opt("load-url", "String", "", "frontends' HTTP addresses, separated by ';'"),
			Opt("scan-url", "String", "", "frontends' HTTP addresses for scans"),
			Opt("database-name", "String", "", "database").Req(),
			Opt("table-name", "String", "", "table").Req(),
			Opt("username", "String", "", "user").Req(),
			Opt("password", "String", "", "password").Req(),
			Opt("sink.semantic", "Enum", "at-least-once", "the sink's guarantee").Values("at-least-once", "exactly-once"),
			Opt("sink.label-prefix", "String", "", "prefix of stream-load labels"),
			Opt("sink.buffer-flush.interval-ms", "Long", "300000", "interval of flushes, ms"),
			Opt("sink.properties.", "Map", "", "stream-load properties").open(),
		},
	}, &ConnectorSpec{
		Name: "faker", Desc: "flink-faker: rows of fake data from Datafaker expressions, for tests",
		Options: []Option{
			Opt("rows-per-second", "Long", "", "rows per second; unlimited when not set"),
			Opt("number-of-rows", "Long", "", "rows in all; unbounded when not set"),
			Opt("sleep-per-row", "Duration", "", "pause after each row"),
			Opt("fields.", "Map", "", "per column: fields.<col>.expression ('#{Name.fullName}'), null-rate, length").open(),
		},
		Lookup: true,
	}, &ConnectorSpec{
		Name: "hudi", Desc: "an Apache Hudi table",
		Options: []Option{
			Opt("path", "String", "", "base path of the table").Req(),
			Opt("table.type", "Enum", "COPY_ON_WRITE", "storage type").Values("COPY_ON_WRITE", "MERGE_ON_READ"),
			Opt("precombine.field", "String", "ts", "column that picks the latest of two rows of one key"),
			Opt("read.streaming.enabled", "Boolean", "false", "read the table as a stream"),
			Opt("hoodie.", "Map", "", "Hudi settings").open(),
		},
	})
	for _, name := range []string{"oracle-cdc", "sqlserver-cdc", "mongodb-cdc", "tidb-cdc", "oceanbase-cdc", "db2-cdc",
		"clickhouse", "redis", "kinesis", "firehose", "dynamodb", "elasticsearch-8", "opensearch", "opensearch-2",
		"hive", "values", "http", "rabbitmq", "pubsub", "prometheus"} {
		Connectors[name] = &ConnectorSpec{Name: name, Lookup: lookupByName[name]}
	}
}
