// Package join is Flink's async lookup join, locally: the async wait operator
// (ordered and unordered output, capacity, timeout, retry), lookup sources
// (JDBC through database/sql, custom queries) with a lookup cache, and the
// local debug runner for SQL jobs.
//
// It may import core/flinksql and model, nothing else of palink's.
package join
