// Package flinksql is palink's Flink SQL front end: lexer, parser, AST,
// validator and pretty-printer. The SQL editor (live validation), `palink
// sql check/fmt`, the SQL deployer and the local debug runner all use it.
//
// It is pure: no I/O, no goroutines, and it imports nothing of palink's own
// but its subpackages: ast, the syntax tree every stage reads, and
// builtin, the connectors, formats, functions and keywords as data, and
// format, the formatter. Completion is package complete, which imports
// this one.
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
//	Probe           a statement's text -> what the grammar looks for at its
//	                end (keywords, names, an expression, a type): what
//	                package complete's suggestions start from
//	Tables          statements -> their tables' columns as Validate sees
//	                them, for completion
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

// How the package is laid out (for its maintainers):
//
//	lexer.go token.go               Lex (the keywords are builtin's)
//	parser.go parse_*.go            the parser: one type, recursive descent;
//	                                parse_stmt (dispatch, SET, SHOW, EXPLAIN),
//	                                parse_create, parse_alter (DROP, ALTER),
//	                                parse_dml (INSERT, sets, CALL, ...),
//	                                parse_query, parse_from (FROM, hints,
//	                                MATCH_RECOGNIZE), parse_expr,
//	                                parse_primary, parse_forms (CASE, TRIM,
//	                                INTERVAL, JSON_*), parse_type
//	script.go                       Script: the statements, the source and
//	                                its comments (the tree is package ast)
//	split.go                        SplitStatements, StatementRanges
//	check.go errors.go              Check, Diagnostic and the codes
//	lookup.go                       Script.Table/View and LookupJoins, for the
//	                                debug runner
//	probe.go                        Probe: the parser run to the end of a
//	                                statement's text notes what the grammar
//	                                wants there, for completion
//	tables.go                       Tables: a validation's tables after the
//	                                statements it was given, for completion
//
// Validate is a few small types, each a room with its own methods, wired
// together by newValidator (validate.go):
//
//	validate_report.go   findings: the diagnostics sink every part reports to
//	validate_catalog.go  catalog: the tables, catalogs, databases and
//	                     functions defined so far, and Options.KnownTables
//	validate_stmt.go     validator: statement by statement — DDL, ALTER,
//	validate_insert.go   INSERT shapes and sinks, SET keys (typos.go:
//	                     the near-miss suggestions; the keys are builtin's)
//	validate_options.go  optionChecker: connector options in WITH, ALTER
//	                     TABLE SET and OPTIONS hints (builtin's connectors)
//	validate_query.go    queryResolver: WITH, FROM and joins, window TVFs,
//	validate_lookup.go   MATCH_RECOGNIZE, lookup joins; it builds the
//	                     scopes (validate_scope.go) and a query's columns;
//	validate_match.go    the MATCH_RECOGNIZE patterns Flink's CEP refuses
//	validate_expr.go     exprChecker: the columns an expression reads, the
//	validate_group.go    functions it calls (typos.go), windows, and GROUP BY
//
// The query resolver and the expression checker call each other: a FROM
// item's expressions go to the checker, a subquery back to the resolver.
//
// Format (script.go) hands the script to package format, which renders
// it from the tree alone.
//
// The rest:
//
//	feature.go     the constructs newer than the oldest release, where a
//	               script uses them, and the diagnostics for a release
//	               without them
//	inject.go      Injection: the catalog's tables a script reads, as
//	               CREATE TEMPORARY TABLE statements before it
//	standin.go     StandIn: a SQL expression standing in for a user
//	               function in a debug run (ApplyStandIns)
//	substitute.go  ParseWithVars: ${var} references substituted, positions
//	               kept in the source as written
//	vars.go        where variables and secrets may stand (options only)
//	udf.go         user functions: their signatures, and how the checker
//	               knows them (the completer reads Options.Functions)
//	parsehook.go   SetParseHook: a test counts how often a text is parsed
