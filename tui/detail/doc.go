// Package detail is the TUI's job detail: a job in depth, in tabs
// (Overview, Timeline, Checkpoints, Exceptions, Commands, Metrics, Logs,
// SQL, Graph, TaskManagers), and the job as raw JSON or YAML (raw.go, y).
// The tabs that find the cause (graph.go, checkpoints.go, exceptions.go,
// taskmanagers.go) fetch through api.DiagnoseService when shown, and open
// tui/diagnose's views through kit.OpenDiagMsg. Opening it asks the
// service for the job, which syncs it with its cluster; Watch changes keep
// it current. Its tabs open other screens
// (a log, a command's log, the SQL editor) and start actions by asking
// the root with kit's messages.
//
// It imports kit, kit/dag, sqlview, flinksql, core/api and model; never
// tui or another feature. Charts are drawn here (chart.go says why not with a
// library).
package detail
