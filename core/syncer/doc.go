// Package syncer is state sync: every interval one cycle lists each
// cluster's applications once, then fetches every live job's Flink state
// and checkpoints through its application's current tracking URL (spread
// over the interval with jitter, at bounded concurrency), maps what YARN
// and Flink report to the platform's state (core/decide), persists only
// changes, each as an event, shows drift with both sides, and schedules the
// restart policy's restarts of FAILED jobs (the scheduler starts them).
//
// It imports decide, clusters and journal of core, store and yarn; never
// the scheduler, the observer, the TUI or the CLI.
package syncer
