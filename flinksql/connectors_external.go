package flinksql

// Connectors that ship outside Apache Flink's releases — Flink CDC, Apache
// Paimon, Iceberg, the Pulsar and MongoDB connectors, Doris, StarRocks,
// flink-faker — with the options of their own documentation. Their
// versions follow their projects, not the cluster's Flink, so palink lists
// their options for completion and never reports one: a table on them is
// checked for its structure only, with one warning that says so.

// cdcOptions are the options the Flink CDC sources share.
var cdcOptions = []option{
	o("hostname", "String", "", "host of the database server").req(),
	o("username", "String", "", "user with the replication privileges").req(),
	o("password", "String", "", "that user's password").req(),
	o("database-name", "String", "", "database to capture; a regular expression").req(),
	o("table-name", "String", "", "table to capture; a regular expression").req(),
	o("scan.incremental.snapshot.enabled", "Boolean", "true", "snapshot in parallel chunks, without locks"),
	o("scan.incremental.snapshot.chunk.size", "Integer", "8096", "rows per snapshot chunk"),
	o("scan.incremental.snapshot.chunk.key-column", "String", "", "column that splits the snapshot; the first primary key column by default"),
	o("scan.snapshot.fetch.size", "Integer", "1024", "rows fetched per round trip while snapshotting"),
	o("scan.newly-added-table.enabled", "Boolean", "false", "capture tables added to the pattern after the job started"),
	o("connect.timeout", "Duration", "30s", "timeout of connecting to the server"),
	o("connect.max-retries", "Integer", "3", "attempts to connect"),
	o("connection.pool.size", "Integer", "20", "connections of the pool"),
	o("heartbeat.interval", "Duration", "30s", "interval of heartbeats that move the offset on when nothing changes"),
	o("debezium.", "Map", "", "passed to Debezium as is").open(),
	o("jdbc.properties.", "Map", "", "passed to the JDBC url as is").open(),
}

// lookupByName are the connectors known by name only that serve lookups.
var lookupByName = map[string]bool{
	"redis": true, "hive": true, "elasticsearch-8": true, "opensearch": true, "http": true,
	"dynamodb": true, "clickhouse": true,
}

func init() {
	register(&connectorSpec{
		name: "mysql-cdc", desc: "Flink CDC: a MySQL table's snapshot, then its binlog",
		options: join(cdcOptions, []option{
			o("port", "Integer", "3306", "port of the MySQL server"),
			o("server-id", "String", "", "binlog client id, or a range like 5400-5408 for a parallel source"),
			o("server-time-zone", "String", "", "session time zone of the server, like Asia/Shanghai"),
			o("scan.startup.mode", "Enum", "initial", "snapshot then binlog, or only the binlog from a point").
				values("initial", "earliest-offset", "latest-offset", "specific-offset", "timestamp", "snapshot"),
			o("scan.startup.specific-offset.file", "String", "", "binlog file to start from"),
			o("scan.startup.specific-offset.pos", "Long", "", "position in that file"),
			o("scan.startup.specific-offset.gtid-set", "String", "", "GTID set to start from"),
			o("scan.startup.timestamp-millis", "Long", "", "start at this epoch millisecond"),
		}),
	}, &connectorSpec{
		name: "postgres-cdc", desc: "Flink CDC: a PostgreSQL table's snapshot, then its logical replication",
		options: join(cdcOptions, []option{
			o("port", "Integer", "5432", "port of the PostgreSQL server"),
			o("schema-name", "String", "", "schema to capture; a regular expression").req(),
			o("slot.name", "String", "", "replication slot of this source").req(),
			o("decoding.plugin.name", "String", "decoderbufs", "logical decoding plugin: decoderbufs, pgoutput, ..."),
			o("changelog-mode", "Enum", "all", "full changelog, or upserts without -U rows").values("all", "upsert"),
			o("scan.startup.mode", "Enum", "initial", "snapshot then changes, or only changes").values("initial", "latest-offset", "snapshot", "committed-offset"),
		}),
	}, &connectorSpec{
		name: "pulsar", desc: "read and write Pulsar topics",
		options: []option{
			o("topics", "List", "", "topics to read or write, separated by ';'").req(),
			o("service-url", "String", "", "Pulsar service url, pulsar://host:6650").req(),
			o("admin-url", "String", "", "Pulsar admin url, http://host:8080"),
			o("explicit", "Boolean", "true", "whether the table is declared in DDL rather than a catalog"),
			o("source.subscription-name", "String", "", "subscription of the source"),
			o("source.subscription-type", "Enum", "Exclusive", "subscription type").values("Exclusive", "Shared", "Failover", "Key_Shared"),
			o("source.start.message-id", "String", "", "where a new job starts: earliest, latest or a message id"),
			o("source.start.publish-time", "Long", "", "start at this publish time, epoch millis"),
			o("source.stop.at-message-id", "String", "", "stop before this message id"),
			o("source.stop.after-message-id", "String", "", "stop after this message id"),
			o("source.stop.at-publish-time", "Long", "", "stop at this publish time, epoch millis"),
			o("sink.topic-routing-mode", "Enum", "round-robin", "how rows go to topic partitions").values("round-robin", "message-key-hash"),
			o("sink.custom-topic-router", "String", "", "class of a custom topic router"),
			o("sink.message-delay-interval", "Duration", "0 ms", "delay of delivered messages"),
			o("format", "String", "", "format of the message value"),
			o("key.format", "String", "", "format of the message key"),
			o("key.fields", "List", "", "columns of the key, separated by ';'"),
			o("value.format", "String", "", "format of the message value (with key.format)"),
			o("pulsar.client.", "Map", "", "passed to the Pulsar client").open(),
			o("pulsar.admin.", "Map", "", "passed to the Pulsar admin client").open(),
			o("pulsar.source.", "Map", "", "Pulsar source settings").open(),
			o("pulsar.sink.", "Map", "", "Pulsar sink settings").open(),
		},
		formats: []string{"format", "key.format", "value.format"},
	}, &connectorSpec{
		name: "paimon", desc: "an Apache Paimon table: streaming lake storage, lookup and upsert",
		options: []option{
			o("path", "String", "", "the table's directory in the warehouse"),
			o("bucket", "Integer", "-1", "buckets of the table; -1 is dynamic bucketing"),
			o("bucket-key", "String", "", "columns that choose the bucket, separated by ','"),
			o("changelog-producer", "Enum", "none", "how the table produces its changelog").values("none", "input", "lookup", "full-compaction"),
			o("merge-engine", "Enum", "deduplicate", "how rows with one primary key merge").values("deduplicate", "partial-update", "aggregation", "first-row"),
			o("sequence.field", "String", "", "column that orders rows of one key"),
			o("file.format", "Enum", "parquet", "format of data files").values("parquet", "orc", "avro"),
			o("scan.mode", "Enum", "default", "what a read starts from").
				values("default", "latest-full", "full", "latest", "compacted-full", "from-timestamp", "from-snapshot", "from-snapshot-full", "incremental"),
			o("scan.snapshot-id", "Long", "", "snapshot to read from"),
			o("scan.timestamp-millis", "Long", "", "read from the snapshot at this epoch millisecond"),
			o("snapshot.time-retained", "Duration", "1 h", "how long snapshots are kept"),
			o("snapshot.num-retained.min", "Integer", "10", "snapshots always kept"),
			o("snapshot.num-retained.max", "Integer", "", "snapshots kept at most"),
			o("write-buffer-size", "MemorySize", "256 mb", "memory of a writer's sort buffer"),
			o("target-file-size", "MemorySize", "", "target size of data files"),
			o("full-compaction.delta-commits", "Integer", "", "commits between two full compactions"),
			o("partition.expiration-time", "Duration", "", "drop partitions older than this"),
			o("fields.", "Map", "", "per column: fields.<col>.aggregate-function, fields.<col>.sequence-group, ...").open(),
		},
		lookup: true,
	}, &connectorSpec{
		name: "iceberg", desc: "an Apache Iceberg table through an Iceberg catalog",
		options: []option{
			o("catalog-name", "String", "", "name of the Iceberg catalog").req(),
			o("catalog-type", "Enum", "hive", "kind of catalog").values("hive", "hadoop", "rest"),
			o("catalog-impl", "String", "", "class of a custom catalog"),
			o("catalog-database", "String", "", "database of the table in the catalog"),
			o("catalog-table", "String", "", "table name in the catalog"),
			o("uri", "String", "", "metastore or REST catalog uri"),
			o("warehouse", "String", "", "warehouse directory"),
			o("format-version", "Enum", "2", "Iceberg table format version").values("1", "2"),
			o("write.format.default", "Enum", "parquet", "format of data files").values("parquet", "avro", "orc"),
			o("write.upsert.enabled", "Boolean", "false", "write rows as upserts of the primary key"),
			o("write.target-file-size-bytes", "Long", "", "target size of data files"),
			o("write.distribution-mode", "Enum", "none", "how rows are shuffled before writing").values("none", "hash", "range"),
		},
	}, &connectorSpec{
		name: "mongodb", desc: "a MongoDB collection: scan, lookup and upsert sink",
		options: join([]option{
			o("uri", "String", "", "connection string, mongodb://user:password@host:27017").req(),
			o("database", "String", "", "database of the collection").req(),
			o("collection", "String", "", "the collection").req(),
			o("scan.fetch-size", "Integer", "2048", "documents per round trip"),
			o("scan.cursor.no-timeout", "Boolean", "true", "keep idle cursors open"),
			o("scan.partition.strategy", "Enum", "default", "how a scan is split").values("single", "sample", "split-vector", "sharded", "default"),
			o("scan.partition.size", "MemorySize", "64mb", "size of a scan partition"),
			o("scan.partition.samples", "Integer", "10", "samples per partition with the sample strategy"),
			o("sink.buffer-flush.max-rows", "Integer", "1000", "documents buffered before a flush"),
			o("sink.buffer-flush.interval", "Duration", "1s", "interval of flushes"),
			o("sink.max-retries", "Integer", "3", "attempts of a failed write"),
			o("sink.retry.interval", "Duration", "1s", "delay between attempts"),
			deliveryGuarantee, sinkParallelism,
			o("lookup.retry.interval", "Duration", "1s", "delay between lookup attempts"),
		}, lookupCacheOptions),
		lookup: true,
	}, &connectorSpec{
		name: "doris", desc: "an Apache Doris table: scan, lookup and stream-load sink",
		options: []option{
			o("fenodes", "String", "", "frontends, host:8030 separated by ','").req(),
			o("table.identifier", "String", "", "the table as db.table").req(),
			o("username", "String", "", "user").req(),
			o("password", "String", "", "password").req(),
			o("benodes", "String", "", "backends to write to directly"),
			o("jdbc-url", "String", "", "JDBC url, for lookups"),
			o("doris.request.retries", "Integer", "3", "attempts of a request"),
			o("doris.request.connect.timeout", "Duration", "30s", "timeout of connecting"),
			o("doris.request.read.timeout", "Duration", "30s", "timeout of reading"),
			o("doris.read.field", "String", "", "columns to read, separated by ','"),
			o("doris.filter.query", "String", "", "filter pushed into the scan"),
			o("doris.batch.size", "Integer", "1024", "rows per read batch"),
			o("doris.exec.mem.limit", "MemorySize", "2147483648", "memory of a query"),
			o("sink.label-prefix", "String", "", "prefix of stream-load labels; unique per job"),
			o("sink.enable-2pc", "Boolean", "true", "two-phase commit, for exactly-once"),
			o("sink.enable-delete", "Boolean", "true", "apply deletes of the changelog"),
			o("sink.buffer-size", "Integer", "1048576", "bytes buffered per stream load"),
			o("sink.buffer-count", "Integer", "3", "buffers per writer"),
			o("sink.max-retries", "Integer", "3", "attempts of a failed load"),
			o("sink.properties.", "Map", "", "stream-load properties, like sink.properties.format").open(),
			o("lookup.cache.max-rows", "Long", "-1", "rows the lookup cache keeps"),
			o("lookup.cache.ttl", "Duration", "10s", "how long a cached row lives"),
			o("lookup.max-retries", "Integer", "1", "attempts of a lookup"),
			o("lookup.jdbc.async", "Boolean", "false", "look up asynchronously"),
		},
		lookup: true,
	}, &connectorSpec{
		name: "starrocks", desc: "a StarRocks table: scan and stream-load sink",
		options: []option{
			o("jdbc-url", "String", "", "JDBC url of a frontend").req(),
			o("load-url", "String", "", "frontends' HTTP addresses, separated by ';'"),
			o("scan-url", "String", "", "frontends' HTTP addresses for scans"),
			o("database-name", "String", "", "database").req(),
			o("table-name", "String", "", "table").req(),
			o("username", "String", "", "user").req(),
			o("password", "String", "", "password").req(),
			o("sink.semantic", "Enum", "at-least-once", "the sink's guarantee").values("at-least-once", "exactly-once"),
			o("sink.label-prefix", "String", "", "prefix of stream-load labels"),
			o("sink.buffer-flush.interval-ms", "Long", "300000", "interval of flushes, ms"),
			o("sink.properties.", "Map", "", "stream-load properties").open(),
		},
	}, &connectorSpec{
		name: "faker", desc: "flink-faker: rows of fake data from Datafaker expressions, for tests",
		options: []option{
			o("rows-per-second", "Long", "", "rows per second; unlimited when not set"),
			o("number-of-rows", "Long", "", "rows in all; unbounded when not set"),
			o("sleep-per-row", "Duration", "", "pause after each row"),
			o("fields.", "Map", "", "per column: fields.<col>.expression ('#{Name.fullName}'), null-rate, length").open(),
		},
		lookup: true,
	}, &connectorSpec{
		name: "hudi", desc: "an Apache Hudi table",
		options: []option{
			o("path", "String", "", "base path of the table").req(),
			o("table.type", "Enum", "COPY_ON_WRITE", "storage type").values("COPY_ON_WRITE", "MERGE_ON_READ"),
			o("precombine.field", "String", "ts", "column that picks the latest of two rows of one key"),
			o("read.streaming.enabled", "Boolean", "false", "read the table as a stream"),
			o("hoodie.", "Map", "", "Hudi settings").open(),
		},
	})
	for _, name := range []string{"oracle-cdc", "sqlserver-cdc", "mongodb-cdc", "tidb-cdc", "oceanbase-cdc", "db2-cdc",
		"clickhouse", "redis", "kinesis", "firehose", "dynamodb", "elasticsearch-8", "opensearch", "opensearch-2",
		"hive", "values", "http", "rabbitmq", "pubsub", "prometheus"} {
		connectors[name] = &connectorSpec{name: name, lookup: lookupByName[name]}
	}
}
