// Package yarn holds palink's REST clients: the YARN ResourceManager, the
// Flink JobManager REST API (through the RM web proxy or directly) and the
// Flink SQL Gateway. It is the only package that speaks HTTP.
//
// Field names, paths and states follow the official specs in
// ../shared/reference (Flink OpenAPI files, Hadoop ResourceManagerRest.md).
// It imports nothing of palink's own but model.
package yarn
