// Package debug is the local SQL runtime of debug runs (`palink debug`,
// ctrl-d in the SQL editor): it runs a Flink SQL job on this machine, on
// bounded test data, as Flink's streaming runtime would, and shows what
// each sink would receive — its changelog (+I, -U, +U, -D) and the table
// it would end up holding.
//
// Run parses the job with flinksql, reads each source table from a data
// file by the table's format (or generates datagen rows), plans every
// INSERT and SELECT into a graph of Flink's operators and drives the
// sources through it, with event time and watermarks. Covered: projections
// and filters with Flink's functions and CAST; lookup joins through join's
// lookup sources against the real table, with the job's SET and LOOKUP
// hints (WHERE conditions on the input alone are applied first, as Flink's
// planner does); GROUP BY with retraction, grouping sets and GROUPING();
// the window TVFs TUMBLE, HOP, CUMULATE and SESSION with window
// aggregation (by event or processing time), top-N, deduplication and
// joins; OVER aggregation; deduplication and top-N; regular, interval,
// temporal and semi joins (IN subqueries); scalar subqueries; UNION ALL,
// UNION, INTERSECT and EXCEPT (ALL too); UNNEST; MATCH_RECOGNIZE; views,
// WITH, subqueries in FROM, VALUES and LIMIT. What is not covered is
// refused before the run, at its line and column, in Flink's words where
// Flink has them (README.md lists both).
//
// The parts: run.go and plan*.go are the planner — the runner, and a type
// per kind of operator it plans (sources, joins, aggregates, ranks, set
// operations, table functions); compile*.go turn an expression into a
// closure over a row, functions*.go hold the built-in functions, sink.go
// and output.go the captured sinks (Result is core/api's DebugOutput). The
// subpackages are value (types, values, CAST and formatting), stream (the
// operators and the driver) and format (the data files).
//
// It may import join, flinksql, model and internal/jsonscan, nothing else
// of palink's; join must not import it.
package debug
