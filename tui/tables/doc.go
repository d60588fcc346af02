// Package tables is the TUI's `:tables` view: the table catalog of a
// cluster (the CREATE TABLE definitions its SQL jobs get injected), one
// row per table with its version, connector, author and age, and the
// cursor table's definition under the list: a kit.Table drawn from
// kit.Columns specs (screen.go).
//
// All it asks of core is its Service (svc.go): api.CatalogService.
//
// It imports kit, core/api and model; never tui or another feature.
package tables
