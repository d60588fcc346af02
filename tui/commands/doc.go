// Package commands is the TUI's `:cmd` view, every command newest first
// with its state, age and issuer, and a command's log, kept current while
// the command runs (the detail's Commands tab opens it too, through the
// root). list.go is the list (its columns are kit.Columns specs, its
// state a kit.Table), log.go a command's log.
//
// All it asks of core is its Service (svc.go): api.ActionService.
//
// It imports kit, core/api and model; never tui or another feature.
package commands
