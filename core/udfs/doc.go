// Package udfs is the UDF registry's logic in core: registering functions
// (checked against the project artifact, jar or Python file they live
// in), which jobs call them, and what a SQL deploy runs to create the
// ones a script calls without creating them — CREATE TEMPORARY FUNCTION …
// USING JAR on Flink 1.16 and later, the jar on pipeline.jars before.
// It reads and writes the store; parsing is flinksql's. It must not
// import yarn, the scheduler or the syncer: the scheduler uses it.
package udfs
