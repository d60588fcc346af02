// Package complete says what may be written at a cursor in a Flink SQL
// script that is being typed: keywords, tables, columns, functions, a
// connector's options and their values, hints — for the SQL editor's
// popup and status line and `palink sql complete`.
//
//	At        text + cursor -> Result: the prefix under the cursor and the
//	          suggestions, best first
//	Describe  the function, option or hint under the cursor, for a status
//	          line
//
// It asks the grammar itself what may come at the cursor, so there is no
// second grammar to keep in step with the parser: flinksql.Probe parses
// the cursor's statement up to the cursor and says which keywords, names
// (and what for) and whether an expression or a type the parser looked for
// there. The tables and their columns are the script's own DDL before the
// cursor's statement, validated by flinksql.Tables as Validate would, and
// Options.KnownTables; functions, options and formats are package
// builtin's, for the release Options.Version. A half-typed script never
// makes it panic (FuzzComplete). Cheap enough for every keystroke: it
// lexes the script and parses only the cursor's statement and the DDL it
// reads (BenchmarkComplete2000Lines).
//
// It imports flinksql (the lexer, Probe, StatementRanges, Tables), ast and
// builtin; flinksql does not import it.
//
// The files:
//
//	complete.go  At and Describe, the suggestion kinds; the cursor's
//	             statement and word; keywords, types and functions
//	tables.go    the script's tables: its DDL indexed by name from the
//	             tokens, and the part the statement reads validated
//	             (flinksql.Tables) for their columns
//	scope.go     the statement's tables and aliases, read from its tokens
//	             (a statement half typed does not parse), and their columns
//	options.go   inside WITH (…), SET '…' and /*+ … */: option keys and
//	             values, hint names
package complete
