// Package builtin is what palink knows of Flink's SQL as data, release by
// release: the connectors and formats with their WITH options, the
// built-in functions, the reserved and non-reserved keywords, the
// configuration keys, and the releases themselves (Version). The parser,
// the validator and the completer of package flinksql read it, and so do
// the editor's highlighting, `palink sql` and the deployer (ParseVersion).
//
// The tables are plain Go values (Connectors, Formats, Functions) with a
// few lookups over them (OptionFor, AllowedOptions, FunctionNamed,
// IsReservedIn); adding a connector or a function is adding a row. It
// imports only the syntax tree (for a table's WITH properties).
//
// The files:
//
//	version.go              Version, the releases palink knows (Oldest,
//	                        Latest, Versions) and ParseVersion
//	connectors.go           Option and ConnectorSpec, the registry
//	                        (Connectors), and the lookups over a table's
//	                        options: OptionFor, AllowedOptions
//	connectors_flink.go     Apache Flink's own connectors, which palink
//	                        checks option by option
//	connectors_external.go  Flink CDC, Paimon, Iceberg, Pulsar, Doris,
//	                        faker, ...: listed for completion, never reported
//	formats.go              the formats and their options (Formats)
//	functions.go            the built-in functions as completion shows them
//	                        (Functions, FunctionNamed)
//	builtins.go             the names the validator knows as built-in
//	                        functions and aggregates
//	keywords.go             the reserved and non-reserved words, the
//	                        release each reserved word came with, and the
//	                        words the parser never takes as a name
//	                        (StructuralWords) or as an alias (NoAliasWords)
//	config.go               the configuration keys a script SETs (ConfigKeys)
//	upper.go                UpperWord and UpperASCII: names are compared
//	                        upper-cased, as Flink does
package builtin
