// Package flinksql is palink's Flink SQL front end: lexer, parser, AST,
// validator and pretty-printer. The SQL editor (live validation), `palink
// sql check/fmt`, the SQL deployer and the local debug runner all use it.
//
// It is pure: no I/O, no goroutines, and it imports nothing of palink's own.
//
// The pieces, in the order text goes through them:
//
//	Lex             text -> []Token (Calcite's lexical rules as Flink configures
//	                them: back-quoted names, '' escapes, X'..', hints as tokens)
//	ParseScript     text -> *Script of typed statements with positions; it
//	                recovers at the next ';' and reports every error
//	SplitStatements text -> statement texts, without parsing (the deployer)
//	Validate        *Script -> []Diagnostic, against the script's own DDL
//	Check           ParseScript + Validate for an editor, on every keystroke
//	Format          *Script -> canonical text; stable, comment-preserving
//
// Every node embeds a Span (Pos and End, 1-based line and rune column, and
// byte offsets), so Script.Text(stmt) is the statement exactly as written
// and a diagnostic's Snippet can underline the offending span.
//
// Flink's grammar is Calcite's plus Flink's extensions (flink-sql-parser
// Parser.tdd and parserImpls.ftl); the reserved words are the ones those
// files reserve, and a reserved word used as a name is reported the way
// Flink would reject it, while the statement still parses. The corpus in
// testdata/flinkdocs holds the SQL examples of Flink's documentation;
// every one parses and survives a format round trip.
package flinksql
