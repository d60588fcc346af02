// Package scheduler runs commands, the platform's actions: Plan says what an
// action would do, Act records it as an UNDO command (a KILL superseding a
// stuck one), and Run claims commands under a lease, executes them —
// deploying (SQL Gateway, jar REST, `flink run`), pausing and taking
// savepoints (resumable by a persisted trigger id), killing — and ends each
// SUCCEEDED or FAILED with its log, in one transaction with its outcome on
// the job. A command whose process died is reclaimed when its lease
// expires and reconciled with the cluster before anything is retried
// (findOwnSubmission, refuseIfAlive), so nothing is done twice; transient
// cluster errors are retried inside a command.
//
// Decisions come from core/decide; the records change through
// core/journal; the clusters are core/clusters'. It never imports the rest
// of core, nor the TUI or the CLI.
package scheduler
