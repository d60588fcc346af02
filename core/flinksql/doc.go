// Package flinksql is palink's Flink SQL front end: lexer, parser, AST,
// validator and pretty-printer. The editor, submit and debug runs all use it.
//
// It is pure: no I/O, and it imports nothing of palink's own.
package flinksql
