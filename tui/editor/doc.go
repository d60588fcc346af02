// Package editor is the TUI's SQL editor of a job: a multi-line editor
// (buffer.go: undo, selection, search) with Flink SQL highlighting and
// live validation (sqlview, flinksql) for the release of the job's
// cluster, with its table catalog and variables injected (assets.go: the
// strip under the title names the tables the script gets and their
// versions), a completion popup (complete.go: complete.At, tab or
// ctrl+space), saving new spec versions and
// submitting the saved one through the root's action flow; its versions
// list and their diff; $EDITOR; and local debug runs (a form for the data
// files, then the run's rows, live) through the Debugging the root gives
// it (debug.go: the debugger, and apart from it the sample files and
// stand-ins it knows, nil when it knows none).
//
// All it asks of core is its Service (svc.go): api.JobService,
// api.CatalogService, api.SQLPlanner and api.UDFService.
//
// It imports kit, sqlview, flinksql and flinksql/complete, core/api and
// model; never tui or another feature. Its text area is its own: bubbles'
// textarea has no syntax classes, problem spans or per-cell styling, and
// its undo and selection are what the editor needs on top.
package editor
