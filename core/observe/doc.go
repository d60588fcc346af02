// Package observe is live metrics, alert rules and webhooks. The jobs that
// clients show (SetInterest) are measured every metrics interval, and the
// jobs metric alert rules select every alerts interval — never a job that
// nothing asked for, so requests follow the screen, not the fleet. Each
// shown job keeps a history in ring buffers (5 minutes at full rate, an
// hour by minute); headline figures go out as job changes. A job shown
// in depth also has the metrics its charts name read (charts.go), and a
// vertex a client shows subtask by subtask its subtasks' backpressure and
// watermarks, kept in a ring per subtask while it is shown (subtasks.go).
// After each round the rules judge every job (judge is pure), firing state is kept in
// the store, and each webhook hears of a firing and its resolve once.
//
// It imports clusters and journal of core, config (the rules and hooks),
// store and yarn; never the scheduler, the syncer, the TUI or the CLI.
package observe
