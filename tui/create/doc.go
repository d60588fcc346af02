// Package create is the TUI's create-job form (n): name, cluster, kind,
// parallelism, then the SQL or the JAR's path, entry class and arguments.
// The new job is CREATED, not running: r on it submits it, through the
// usual confirmation. Its fields are bubbles' textinput and textarea.
//
// All it asks of core is its Service (svc.go): api.JobService.
//
// It imports kit, core/api and model; never tui or another feature.
package create
