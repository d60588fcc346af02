// Package commands is the TUI's `:cmd` view, every command newest first
// with its state, age and issuer, and a command's log, kept current while
// the command runs (the detail's Commands tab opens it too, through the
// root).
//
// It imports kit, core/api and model; never tui or another feature.
package commands
