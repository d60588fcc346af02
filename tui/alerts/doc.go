// Package alerts is the TUI's `:alerts` view: the firing alerts, newest
// first, then the ones resolved within the last day, each with its rule,
// job, since and value; enter opens the job. Its Load also feeds the
// root's alert badge. screen.go is the list (kit.Columns specs over a
// kit.Table), act.go what a key does to an alert: acknowledge, silence,
// lift a silence, undo.
//
// All it asks of core is its Service (svc.go): api.MetricsService.
//
// It imports kit, core/api and model; never tui or another feature.
package alerts
