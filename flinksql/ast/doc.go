// Package ast is the syntax tree of palink's Flink SQL front end: the node
// types the parser (package flinksql) builds, and what walks and rewrites
// them. The validator, the formatter, the completer and the local debug
// runtime (join/debug) all read the same tree.
//
// Every node embeds a Span (Pos and End: 1-based line and rune column, and
// byte offsets), so a node's text is src[n.Pos.Offset:n.End.Offset] and a
// diagnostic can underline it. The parsed script itself, with its source
// and what the parser learnt about it, is flinksql.Script.
//
// It imports nothing of palink's own.
//
// The files:
//
//	pos.go      Pos (a place in the source) and Comment
//	node.go     Span and Node; the pieces every statement shares: Ident,
//	            QualifiedName, StringLit, Property and Properties, Hint;
//	            QuoteIdent and QuoteString
//	stmt.go     Statement and the statements of Flink 1.x: SET, CREATE
//	            TABLE/VIEW/FUNCTION/CATALOG/DATABASE, DROP, SHOW, INSERT,
//	            EXPLAIN, statement sets, CALL, DELETE, UPDATE, ...
//	ddl.go      the statements of Flink 1.20 and 2.x: materialized tables,
//	            models, connections
//	alter.go    ALTER TABLE and its actions, and the other ALTERs
//	query.go    Query and its bodies: SELECT, set operations, VALUES, the
//	            FROM items (tables, joins, table functions, MATCH_RECOGNIZE),
//	            windows, GROUP BY forms
//	expr.go     Expr and the expressions: literals, operators, calls, CASE,
//	            CAST, subqueries, the special forms; BadExpr
//	type.go     DataType and IntervalQualifier, and how each prints
//	walk.go     Inspect: a depth-first walk over any node
//	rewrite.go  Clone, RewriteExprs and Place: copying a tree, replacing
//	            its expressions, and giving a tree the span where it now stands (a stand-in)
package ast
