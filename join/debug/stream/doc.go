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
// emit and when: GroupAgg (GROUP BY with retraction), Window (window TVF
// and legacy group window aggregation, window top-N, deduplication and
// join), Rank (top-N and deduplication), Join (regular joins with
// retraction, semi and anti joins), IntervalJoin, TemporalJoin, Over,
// SetOp, Normalize (ChangelogNormalize of upsert sources) and Match
// (MATCH_RECOGNIZE). Expressions reach them as closures compiled by the
// planner; rows are value.Rows.
//
// It imports value, and nothing else of palink's.
package stream
