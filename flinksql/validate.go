package flinksql

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"
)

// Options tunes Validate and Check.
type Options struct {
	// File names the source in diagnostics.
	File string
	// KnownTables are tables that exist outside the script, in a catalog,
	// keyed by the name the script uses for them ("orders" or
	// "cat.db.orders").
	KnownTables map[string]*TableInfo
	// ParseOnly makes Check report syntax errors only.
	ParseOnly bool
	// IgnoreUnknownTables accepts references to tables the script does not
	// define and KnownTables does not list, as tables of unknown shape.
	IgnoreUnknownTables bool
	// Version is the Flink release the script is for: its keywords are the
	// reserved words, and a statement, clause or function newer than it is
	// reported. The zero Version is the newest palink knows.
	Version builtin.Version
	// Target says where Version comes from, for messages: "cluster prod"
	// gives "CREATE MODEL needs Flink 2.0; cluster prod runs 1.20".
	Target string
	// Functions are the user functions of palink's UDF registry, keyed by
	// upper-case name. When set (even empty), a call of a function that is
	// neither built in, created by the script, nor listed is an error, and
	// a listed one with a signature must get its number of arguments.
	Functions map[string]FunctionInfo
	// scriptFunctions are the functions the script creates anywhere in
	// it (Validate fills it when Functions is set).
	scriptFunctions map[string]bool
}

// TableInfo describes a table defined outside the script.
type TableInfo struct {
	// Columns is nil when the columns are not known: then any column name
	// is accepted.
	Columns    []ColumnInfo
	Connector  string
	Options    map[string]string
	PrimaryKey []string
	View       bool
	// Origin says where the table is defined, for completion's detail:
	// "catalog v3" for a table of palink's table catalog.
	Origin string
}

// ColumnInfo describes a column of a TableInfo.
type ColumnInfo struct {
	Name     string
	Type     *ast.DataType
	Kind     ast.ColumnKind
	Virtual  bool // a VIRTUAL metadata column: read-only
	ProcTime bool // a processing-time attribute (AS PROCTIME())
	RowTime  bool // an event-time attribute (has a WATERMARK)
	// unsure marks a column whose origin the validator could not follow
	// (it comes from a table of unknown shape): its time attributes are
	// unknown, so no check relies on them.
	unsure bool
}

// newValidator wires the parts of one validation together: each reports
// to the same findings and reads the same catalog.
func newValidator(file, src string, opts Options) *validator {
	f, cat := &findings{file: file, src: src}, newCatalog(opts)
	options := &optionChecker{findings: f, cat: cat}
	exprs := &exprChecker{findings: f, cat: cat}
	queries := &queryResolver{findings: f, cat: cat, exprs: exprs, options: options}
	exprs.queries = queries
	return &validator{findings: f, cat: cat, options: options, queries: queries, exprs: exprs}
}

// Validate checks a parsed script against its own DDL: names of tables and
// columns, connector options, lookup joins, INSERT shapes and common
// streaming mistakes. Statements that did not parse are skipped.
// Diagnostics come sorted by position.
func Validate(s *Script, opts Options) []Diagnostic {
	file := opts.File
	if file == "" {
		file = s.File
	}
	if opts.Functions != nil {
		opts.scriptFunctions = scriptFunctions(s)
	}
	v := newValidator(file, s.Src, opts)
	for _, st := range s.Stmts {
		if b, ok := st.(*ast.BadStmt); ok {
			if name := createdName(s.Text(b)); name != "" {
				v.cat.broken[name] = true
			}
		}
	}
	if !opts.IgnoreUnknownTables && !definesTables(s) && len(opts.KnownTables) == 0 && len(v.cat.broken) == 0 && len(s.Stmts) > 0 {
		// A script that defines no table at all reads them from a catalog
		// (or is a fragment of one that does): names are not ours to check.
		v.cat.ignoreUnknown = true
		at := s.Stmts[0].Range().Pos
		v.warnf(CodeCatalogTables, ast.Span{Pos: at, End: at}, "add the CREATE TABLE statements, or check with --parse-only",
			"this script defines no table: table and column names are not checked (they may come from a catalog)")
	}
	for _, st := range s.Stmts {
		v.stmt(st)
	}
	sortDiagnostics(v.diags)
	return v.diags
}

// definesTables reports whether the script creates any table or view.
func definesTables(s *Script) bool {
	for _, st := range s.Stmts {
		switch st.(type) {
		case *ast.CreateTable, *ast.CreateView:
			return true
		}
	}
	return false
}

// createdName finds the name a failed CREATE TABLE/VIEW statement meant to
// define, from its text.
func createdName(text string) string {
	toks, _, _ := Lex(text)
	i := 0
	word := func(w string) bool {
		if i < len(toks) && toks[i].Kind == Word && builtin.UpperASCII(toks[i].Text) == w {
			i++
			return true
		}
		return false
	}
	if !word("CREATE") {
		return ""
	}
	if word("OR") {
		word("REPLACE")
	}
	word("TEMPORARY")
	if !word("TABLE") && !word("VIEW") {
		return ""
	}
	if word("IF") {
		word("NOT")
		word("EXISTS")
	}
	var parts []string
	for i < len(toks) && (toks[i].Kind == Word || toks[i].Kind == QuotedIdent) {
		parts = append(parts, toks[i].Value)
		i++
		if i < len(toks) && toks[i].Kind == Dot {
			i++
			continue
		}
		break
	}
	return strings.Join(parts, ".")
}

// target says what a script is checked for, in a message: "cluster prod
// runs 1.20" or "checking for Flink 1.18".
func (o Options) target() string {
	if o.Target != "" {
		return o.Target + " runs " + o.Version.String()
	}
	return "checking for Flink " + o.Version.String()
}
