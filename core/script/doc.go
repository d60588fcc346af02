// Package script is a Flink SQL job script as palink runs it on the SQL
// Gateway: Plan sorts it into its SET statements, its DDL and the one job
// statement (an INSERT, or a statement set in the one form the gateway
// takes), refusing scripts that would start no job or two; Explainable is
// the job statement in the form EXPLAIN takes. The deployer and Explain
// both read scripts through it, so that what is explained is what runs.
//
// It imports flinksql (for the lexer and statement splitting) and model.
package script
