// Package sqlview draws Flink SQL in the terminal: chroma highlighting
// with a Flink SQL lexer whose keywords are flinksql's, and lines rendered
// cell by cell with a cursor, a selection, search matches and the
// validator's problem spans over them. The SQL editor (tui/editor) and the
// job detail's SQL tab (tui/detail) both draw with it.
//
// It imports kit and flinksql; never tui or a feature package.
package sqlview
