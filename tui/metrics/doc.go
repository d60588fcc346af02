// Package metrics is the metric browser: every metric Flink exposes of a
// job, one of its vertices or a TaskManager of its cluster, filtered as
// one types, with the values of the rows on screen; a metric chosen goes
// to the charts of the job's Metrics tab, which the job keeps.
//
// It renders and dispatches only, through its Service (svc.go); the root
// opens it for kit.OpenMetricsMsg.
package metrics
