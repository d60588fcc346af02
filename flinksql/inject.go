package flinksql

import (
	"fmt"
	"strings"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/format"
)

// CatalogDef is a table defined outside the script, in palink's table
// catalog: one version of a CREATE TABLE statement.
type CatalogDef struct {
	Name    string
	Version int
	SQL     string
}

// Ref is "name@v3".
func (d CatalogDef) Ref() string { return fmt.Sprintf("%s@v%d", d.Name, d.Version) }

// Injection is what a script gets from the catalog ("DDL injection"): the
// definitions of the tables it uses without defining them, which run
// before it as CREATE TEMPORARY TABLE.
type Injection struct {
	// Tables are the catalog tables the script uses and does not define,
	// in the order the script first uses them.
	Tables []InjectedTable
	// Shadowed are catalog tables the script defines itself: its own DDL
	// wins, and a warning says so.
	Shadowed []CatalogDef
	// Broken are catalog tables the script uses whose definition does not
	// validate (Reason says why): a job that uses one is refused.
	Broken []BrokenTable
}

// InjectedTable is one catalog table a script gets.
type InjectedTable struct {
	CatalogDef
	// Stmt is the CREATE TEMPORARY TABLE statement, without a ';'; Table
	// is that statement parsed.
	Stmt  string
	Table *ast.CreateTable
	Info  *TableInfo
}

// BrokenTable is a catalog table whose definition does not validate.
type BrokenTable struct {
	CatalogDef
	Reason string
}

// Statements are the injected CREATE TEMPORARY TABLE statements, in order.
func (in Injection) Statements() []string {
	out := make([]string, len(in.Tables))
	for i, t := range in.Tables {
		out[i] = t.Stmt
	}
	return out
}

// Prelude is the injected statements as script text, each ended by ";".
func (in Injection) Prelude() string {
	var b strings.Builder
	for _, t := range in.Tables {
		fmt.Fprintf(&b, "-- from the table catalog: %s\n%s;\n", t.Ref(), t.Stmt)
	}
	return b.String()
}

// Apply is the script with the injected statements before it.
func (in Injection) Apply(src string) string {
	if len(in.Tables) == 0 {
		return src
	}
	return in.Prelude() + src
}

// Prepend puts the injected statements before the script's own, as Apply
// does to a text, with each ${name} of theirs replaced by its value in
// values (their own texts are parsed again for that, not the script's).
// The script is then the one a deploy sends, parsed once. The injected
// statements' positions are in their own texts (t.Stmt), not in the
// script's Src: a run's error in one points into the catalog table, and
// Script.Text or Format of the whole script is not for such a script
// (format.Statement of each statement is).
func (in Injection) Prepend(script *Script, values map[string]string) error {
	if len(in.Tables) == 0 {
		return nil
	}
	stmts := make([]ast.Statement, 0, len(in.Tables)+len(script.Stmts))
	for _, t := range in.Tables {
		if len(FindVars(t.Stmt)) == 0 {
			stmts = append(stmts, ast.Clone(t.Table))
			continue
		}
		own, errs := ParseScript(SubstituteVars(t.Stmt, values))
		if len(errs) > 0 {
			return fmt.Errorf("catalog table %s with its variables' values does not parse: %s", t.Ref(), errs[0].Error())
		}
		if len(own.Stmts) != 1 {
			return fmt.Errorf("catalog table %s with its variables' values is %d statements, not one", t.Ref(), len(own.Stmts))
		}
		stmts = append(stmts, own.Stmts[0])
	}
	script.Stmts = append(stmts, script.Stmts...)
	return nil
}

// Err reports the broken catalog tables the script uses, nil if none.
func (in Injection) Err() error {
	if len(in.Broken) == 0 {
		return nil
	}
	var parts []string
	for _, b := range in.Broken {
		parts = append(parts, fmt.Sprintf("catalog table %s does not validate: %s", b.Ref(), b.Reason))
	}
	return fmt.Errorf("%s", strings.Join(parts, "; "))
}

// ParseCatalogTable parses and validates a catalog table definition: one
// CREATE TABLE statement (not AS, not LIKE, no catalog or database in its
// name) that validates on its own. name, when given, must be its name.
func ParseCatalogTable(name, sql string, opts Options) (*ast.CreateTable, error) {
	script, errs := ParseFileFor(opts.File, sql, opts.Version)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	if len(script.Stmts) != 1 {
		return nil, fmt.Errorf("a catalog table is one CREATE TABLE statement, not %d statements", len(script.Stmts))
	}
	ct, ok := script.Stmts[0].(*ast.CreateTable)
	switch {
	case !ok:
		return nil, fmt.Errorf("a catalog table is a CREATE TABLE statement, not %s", strings.ToUpper(leadWords(sql)))
	case ct.As != nil:
		return nil, fmt.Errorf("a catalog table cannot be CREATE TABLE … AS: it would run a query")
	case ct.Like != nil:
		return nil, fmt.Errorf("a catalog table cannot be CREATE TABLE … LIKE: write its columns out")
	case len(ct.Name.Parts) != 1:
		return nil, fmt.Errorf("a catalog table's name has no catalog or database: %s", ct.Name)
	case name != "" && ct.Name.Last() != name:
		return nil, fmt.Errorf("the statement creates table %s, not %s", ct.Name.Last(), name)
	}
	for _, d := range Validate(script, opts) {
		if d.Severity == SeverityError {
			return nil, d
		}
	}
	return ct, nil
}

func leadWords(s string) string {
	f := strings.Fields(s)
	if len(f) > 2 {
		f = f[:2]
	}
	return strings.Join(f, " ")
}

// TableInfoOf describes a CREATE TABLE for Options.KnownTables.
func TableInfoOf(ct *ast.CreateTable) *TableInfo {
	info := &TableInfo{Columns: columnsFromDDL(ct.Columns, ct.Watermarks), PrimaryKey: ct.PrimaryKey(), Options: map[string]string{}}
	for _, p := range ct.With {
		if p.Key == nil {
			continue
		}
		v := ""
		if p.Value != nil {
			v = p.Value.Value
		}
		info.Options[p.Key.Value] = v
	}
	info.Connector = info.Options["connector"]
	return info
}

// temporary is ct as CREATE TEMPORARY TABLE, and its text.
func temporary(ct *ast.CreateTable) (*ast.CreateTable, string) {
	c := *ct
	c.Temporary, c.OrReplace, c.Replace, c.IfNotExists = true, false, false, false
	return &c, format.Statement(&c)
}

// InjectCatalog works out which catalog tables a parsed script gets: the
// ones it refers to (FROM, JOIN, INSERT INTO, LIKE) and does not define.
func InjectCatalog(script *Script, defs []CatalogDef, opts Options) Injection {
	var in Injection
	if script == nil || len(defs) == 0 {
		return in
	}
	byName := map[string]CatalogDef{}
	for _, d := range defs {
		byName[d.Name] = d
	}
	defined, used := scriptTables(script)
	for _, name := range used {
		d, ok := byName[name]
		if !ok || defined[name] {
			continue
		}
		ct, err := ParseCatalogTable(d.Name, d.SQL, Options{Version: opts.Version, Target: opts.Target})
		if err != nil {
			in.Broken = append(in.Broken, BrokenTable{CatalogDef: d, Reason: catalogReason(err)})
			continue
		}
		tmp, stmt := temporary(ct)
		in.Tables = append(in.Tables, InjectedTable{CatalogDef: d, Stmt: stmt, Table: tmp, Info: TableInfoOf(ct)})
	}
	for _, d := range defs {
		if defined[d.Name] {
			in.Shadowed = append(in.Shadowed, d)
		}
	}
	return in
}

// catalogReason is an error's text without a position inside the
// catalog table's own text, which the job's author does not see.
func catalogReason(err error) string {
	if d, ok := err.(Diagnostic); ok {
		return fmt.Sprintf("line %d:%d: %s", d.Pos.Line, d.Pos.Col, d.Message())
	}
	if e, ok := err.(*Error); ok {
		return fmt.Sprintf("line %d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
	}
	return err.Error()
}

// tableKey is the name a reference resolves to in the default catalog
// and database, "" for another catalog's table.
func tableKey(q *ast.QualifiedName) string {
	if q == nil || len(q.Parts) == 0 {
		return ""
	}
	prefix := strings.Join(partNames(q.Parts[:len(q.Parts)-1]), ".")
	switch prefix {
	case "", "default_catalog.default_database", "default_database":
		return q.Last()
	}
	return ""
}

// ScriptTables returns the tables and views a script defines in the
// default catalog and database, and the names it refers to there (FROM,
// JOIN, INSERT INTO, LIKE), in the order of first use.
func ScriptTables(script *Script) (defined map[string]bool, used []string) {
	return scriptTables(script)
}

func scriptTables(script *Script) (defined map[string]bool, used []string) {
	defined = map[string]bool{}
	seen := map[string]bool{}
	use := func(q *ast.QualifiedName) {
		if k := tableKey(q); k != "" && !seen[k] {
			seen[k] = true
			used = append(used, k)
		}
	}
	for _, st := range script.Stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CreateTable:
				if k := tableKey(x.Name); k != "" {
					defined[k] = true
				}
				if x.Like != nil {
					use(x.Like.Table)
				}
			case *ast.CreateView:
				if k := tableKey(x.Name); k != "" {
					defined[k] = true
				}
			case *ast.InsertStmt:
				use(x.Table)
			case *ast.TableRef:
				use(x.Name)
			}
			return true
		})
	}
	return defined, used
}

// CheckWithCatalog is Check with the catalog's tables known: the tables
// the script uses without defining them come from defs (as they will be
// injected), a catalog table the script defines itself is a warning (its
// own DDL wins), and a catalog table it uses that does not validate is an
// error at its first use.
func CheckWithCatalog(src string, opts Options, defs []CatalogDef) (Result, Injection) {
	if opts.ParseOnly || len(defs) == 0 {
		return Check(src, opts), Injection{}
	}
	script, _ := ParseFileFor(opts.File, src, opts.Version)
	in := InjectCatalog(script, defs, opts)
	if len(in.Tables) > 0 {
		known := map[string]*TableInfo{}
		for k, v := range opts.KnownTables {
			known[k] = v
		}
		for _, t := range in.Tables {
			known[t.Name] = t.Info
		}
		opts.KnownTables = known
	}
	res := Check(src, opts)
	for _, d := range in.Shadowed {
		at := definition(script, d.Name)
		res.Diagnostics = append(res.Diagnostics, Diagnostic{Severity: SeverityWarning, Code: CodeCatalogShadowed,
			File: opts.File, Pos: at.Pos, End: at.End, src: src,
			Msg:  fmt.Sprintf("table '%s' is also in the cluster's table catalog (%s); the script's own definition is used", d.Name, d.Ref()),
			Hint: "drop this CREATE to use the catalog's"})
	}
	broken := map[string]string{}
	for _, b := range in.Broken {
		broken[b.Name] = fmt.Sprintf("catalog table %s does not validate: %s", b.Ref(), b.Reason)
	}
	if len(broken) > 0 {
		// The unknown-table errors of the broken tables give way to the reason.
		kept := res.Diagnostics[:0]
		for _, d := range res.Diagnostics {
			if d.Code == CodeUnknownTable && broken[wordAt(src, d.Pos, d.End)] != "" {
				continue
			}
			kept = append(kept, d)
		}
		res.Diagnostics = kept
		for _, b := range in.Broken {
			at := firstUse(script, b.Name)
			res.Diagnostics = append(res.Diagnostics, Diagnostic{Severity: SeverityError, Code: CodeCatalogBroken,
				File: opts.File, Pos: at.Pos, End: at.End, src: src, Msg: broken[b.Name],
				Hint: "fix it with palink table edit " + b.Name})
		}
	}
	sortDiagnostics(res.Diagnostics)
	return res, in
}

// wordAt is the text of a span on one line, unquoted.
func wordAt(src string, from, to ast.Pos) string {
	lines := strings.Split(src, "\n")
	if from.Line < 1 || from.Line > len(lines) || to.Line != from.Line {
		return ""
	}
	l := lines[from.Line-1]
	if from.Col < 1 || to.Col-1 > len(l) || to.Col <= from.Col {
		return ""
	}
	w := l[from.Col-1 : to.Col-1]
	if i := strings.LastIndexByte(w, '.'); i >= 0 {
		w = w[i+1:]
	}
	return strings.Trim(w, "`")
}

// definition is the span of the statement that defines name.
func definition(script *Script, name string) ast.Span {
	for _, st := range script.Stmts {
		switch x := st.(type) {
		case *ast.CreateTable:
			if tableKey(x.Name) == name {
				return x.Name.Span
			}
		case *ast.CreateView:
			if tableKey(x.Name) == name {
				return x.Name.Span
			}
		}
	}
	return ast.Span{Pos: ast.Pos{Line: 1, Col: 1}, End: ast.Pos{Line: 1, Col: 1}}
}

// firstUse is the span of the first reference to name.
func firstUse(script *Script, name string) ast.Span {
	var at *ast.Span
	for _, st := range script.Stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			if at != nil {
				return false
			}
			var q *ast.QualifiedName
			switch x := n.(type) {
			case *ast.InsertStmt:
				q = x.Table
			case *ast.TableRef:
				q = x.Name
			}
			if q != nil && tableKey(q) == name {
				s := q.Span
				at = &s
			}
			return true
		})
	}
	if at == nil {
		return ast.Span{Pos: ast.Pos{Line: 1, Col: 1}, End: ast.Pos{Line: 1, Col: 1}}
	}
	return *at
}
