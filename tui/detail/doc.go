// Package detail is the TUI's job detail: a job in depth, in tabs
// (Overview, Timeline, Checkpoints, Exceptions, Commands, Metrics, Logs,
// SQL, Graph, TaskManagers), and the job as raw JSON or YAML (raw.go, y).
// The tabs that find the cause (graph.go, checkpoints.go, exceptions.go,
// taskmanagers.go) fetch through api.DiagnoseService when shown — one
// diagFetch each (diagtab.go: one fetch in flight, another job's answer
// forgotten, the last answer kept through a failed refresh) — and open
// tui/diagnose's views through kit.OpenDiagMsg.
//
// Files: screen.go the screen, its tabs and keys; cmds.go its load;
// tabs.go the tabs made of lines (Overview, Timeline, Commands);
// catalog.go the catalog a deploy injected, under its command;
// checkpoints.go, exceptions.go, graph.go, taskmanagers.go the
// diagnostic tabs over diagtab.go; metrics.go and chart.go the Metrics
// tab and its charts; logs.go and logs_cmds.go the Logs tab; sql.go the
// SQL tab; raw.go the raw view; keys.go the help of each tab. Opening it asks the
// service for the job, which syncs it with its cluster; Watch changes keep
// it current. Its tabs open other screens
// (a log, a command's log, the SQL editor) and start actions by asking
// the root with kit's messages.
//
// All it asks of core is its Service (svc.go): api.JobService,
// api.MetricsService, api.LogService and api.DiagnoseService.
//
// It imports kit, kit/dag, sqlview, flinksql, core/api and model; never
// tui or another feature. Charts are drawn here (chart.go says why not with a
// library).
package detail
