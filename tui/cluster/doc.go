// Package cluster is the TUI's `:cluster` view: one cluster's YARN
// metrics, queues and sessions, and the Flink applications on it that
// palink does not manage, which the adopt dialog (a adopts) makes palink
// jobs, one or all those marked at once. screen.go is the overview (the
// applications a kit.Table, the applications and queues kit.Columns
// specs), adopt.go the dialog, marks.go the marks and the adoption of the
// marked (a dry run, a confirmation, one AdoptAll), nodes.go the YARN
// nodes (n), the ones out of service first.
//
// All it asks of core is its Service (svc.go): api.FleetService and api.ActionService.
//
// It imports kit, core/api and model; never tui or another feature.
package cluster
