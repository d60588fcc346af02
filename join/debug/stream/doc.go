// Package stream is the streaming runtime of debug runs: Flink's
// operators, run by one goroutine over bounded inputs, with Flink's
// changelog row kinds, event time and processing time.
//
// A run is a graph of operators connected by Out: each operator's inputs
// are Outs its upstream pushes records (Rec) and watermarks into, and its
// output is a Fan that pushes to every consumer. The Driver reads the
// sources in a fixed, documented order, pushes each row through the graph
// synchronously, advances each source's watermark by the run's policy and
// steps the simulated processing-time clock; so a run is repeatable, and
// a changelog is the same on every run (lookup joins aside, whose answers
// come back when the database gives them).
//
// The operators follow Flink's runtime (flink-table-runtime) in what they
// emit and when: Calc, FlatMap, Union and Limit (stateless), GroupAgg
// (GROUP BY with retraction), WindowTVF, WindowAgg and SessionAgg (window
// aggregation), WindowRank (window top-N and deduplication), WindowJoin,
// Rank (top-N, append-only or retracting) and Dedup, Over, Join (regular
// joins with retraction), SemiJoin (semi and anti joins), IntervalJoin,
// TemporalJoin (event time, against a versioned table) and Normalize
// (ChangelogNormalize of upsert sources). Expressions reach them as
// closures compiled by the planner; rows are value.Rows.
//
// It imports value, and nothing else of palink's.
package stream
