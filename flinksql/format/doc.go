// Package format renders Flink SQL syntax trees (package ast) as text in
// palink's canonical style: keywords upper-case, two-space indent, one
// clause per line, one column or option per line. `palink sql fmt`, the
// editor and the debug runtime's column names use it; flinksql.Format is
// the short way for a parsed script.
//
// It reads the tree alone: it imports nothing of palink's but ast.
//
// A printer (printer.go: the lines written and the comments still to
// place) and three formatters writing to it. The files:
//
//	format.go   Script, Statement and Expr, and the comments between
//	            statements
//	printer.go  printer: output lines, indentation, and the comments
//	            inside a statement placed at the nearest line
//	stmt.go     stmtFormatter: statement by statement (SET, CREATE, ALTER,
//	            INSERT, SHOW, ...) and a CREATE's schema
//	ddl.go      the statements of Flink 1.20 and 2.x (materialized tables,
//	            models, connections)
//	query.go    queryFormatter: WITH, SELECT and its clauses, FROM items,
//	            set operations, VALUES
//	expr.go     exprFormatter: expressions inline, parenthesised by
//	            ast's operator precedence
package format
