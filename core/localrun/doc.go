// Package localrun runs what happens in the caller's own process rather
// than through api.Service: a SQL job's debug run (Debugger, api.Debugger)
// and the DDL importers (Importer, api.Importer). The data files, the
// lookup databases, the Kafka brokers and their credentials are the
// caller's, so these run where the caller is even when Service is an
// agent's. Callers outside core reach them through those interfaces.
//
// Its files:
//
//	debug.go        Debugger: a run from its request to its events; the
//	                script parsed once (prepareDebug) and the plan shown
//	                before the first row
//	debug_udf.go    stand-ins for user functions, and the refusal of a
//	                call that has none
//	debug_mask.go   the run's output files, secrets masked
//	sample.go       --sample: a Kafka table's newest records as a data file
//	kafkaerr.go     a broker's answer, named in an error
//	kafkaschema.go  a topic's records' schema, inferred, as Flink DDL
//	importddl.go    Importer, and a database table's DDL (ImportJDBC)
//	importkafka.go  a Kafka topic's DDL from its newest records (ImportKafka)
//
// It imports the runtime (join/debug), the SQL (flinksql), the catalog's
// injection and variables (core/catalog) and api's types; nothing of the
// store, the clusters or the TUI.
package localrun
