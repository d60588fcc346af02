// Package debug is the local SQL runtime of debug runs (`palink debug`,
// ctrl-d in the SQL editor): it runs a Flink SQL job on this machine.
//
// Run parses the job with flinksql, feeds each source table from a data
// file (JSON lines or CSV with a header, typed by the DDL; any connector) or
// from the datagen connector's options, replaces every sink with a capture,
// and evaluates projections, WHERE filters and expressions (CASE, CAST and
// TRY_CAST, arithmetic with exact decimals, comparisons, three-valued logic,
// IS NULL, IN, BETWEEN, LIKE, common string, number and time functions,
// PROCTIME()). Lookup joins (JOIN or LEFT JOIN t FOR SYSTEM_TIME AS OF …)
// run through join's async operator against the real table, with the job's
// SET and LOOKUP hints; WHERE conditions on the input alone are applied
// before the lookups, as Flink's planner does. Views, WITH, subqueries in
// FROM and LIMIT work. What a local run cannot do faithfully is refused with
// the reason: aggregations, GROUP BY, DISTINCT, windows, OVER, regular
// joins, ORDER BY, set operations, user-defined functions.
//
// The parts: the planner (run.go, plan.go, lookup.go) turns the job into
// stages connected by channels, each a goroutine of the run; the expression
// compiler (compile.go, compile_ops.go) turns an expression into a closure
// over a row, one compiler per kind of node, over the values of values.go;
// functions.go holds the built-in functions; source.go reads data files and
// generates datagen rows; output.go writes the captured rows (Result is
// core/api's DebugOutput).
//
// Values are join's Row values (join.Type says which Go type each Flink
// type has); DECIMAL is a *big.Rat while computed. It may import join,
// flinksql and model, nothing else of palink's; join must not import it.
package debug
