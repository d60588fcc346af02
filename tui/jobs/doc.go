// Package jobs is the TUI's default view: one table of the jobs of every
// cluster, filtered (/), sorted (shift+letter by a column, o and O),
// scoped to a cluster (:jobs @NAME), marked for bulk actions (space), kept
// current by Watch. Its columns drop by rank on a narrow terminal, and
// the text columns are as wide as their values (STATE is never cut). It is
// virtualized: the filtered, sorted index is rebuilt only when the jobs,
// the filter, the scope or the sort change, and View draws only the rows
// on screen, so a frame costs the same for a hundred jobs as for a hundred
// thousand. Turning a job into cells (rows.go) and parsing the filter
// (filter.go) are pure functions.
//
// All it asks of core is its Service (svc.go): api.JobService.
//
// It imports kit, core/api and model; never tui or another feature. The
// table is its own rather than bubbles' table, which would render every
// row as plain strings: this one draws the visible rows only, colours the
// state cell alone and holds its order while the operator chooses.
package jobs
