package api

import "context"

// Importer proposes a catalog table's DDL from what already exists: a
// database table (palink table import) or a Kafka topic's newest records
// (--kafka). Like Debugger it is not part of Service: it reads with the
// caller's credentials and network, so it runs in the caller's process
// even when Service is an agent's.
type Importer interface {
	// ImportJDBC reads a database table's columns and writes the DDL of
	// the catalog table that reads it through Flink's JDBC connector.
	//palink:api role=viewer local
	ImportJDBC(ctx context.Context, r ImportRequest) (ImportedTable, error)
	// ImportKafka infers a topic's schema from its newest records and
	// writes the DDL of the kafka table that reads it.
	//palink:api role=viewer local
	ImportKafka(ctx context.Context, r KafkaImportRequest) (ImportedTable, error)
}
