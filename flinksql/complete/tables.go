package complete

import (
	"sort"
	"strings"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/flinksql/builtin"
)

// What completion knows of the script's tables: the DDL before the
// cursor's statement, indexed by name from its tokens, and the part of it
// the statement reads, validated so the columns are the validator's.

// ddlIndex is what the statements before the cursor's define, read from
// their first tokens without parsing: a name costs a few token compares,
// so a long script's DDL is indexed at every keystroke and only the
// definitions the statement reads are parsed and validated (tablesFor).
type ddlIndex struct {
	names []string // in the order they are defined
	defs  map[string]ddlDef
}

type ddlDef struct {
	rng       [2]int // token range of the defining statement
	view      bool
	connector string
}

// index builds the ddlIndex of the statements before the cursor's.
func (c *completer) index() *ddlIndex {
	if c.ddl != nil {
		return c.ddl
	}
	c.ddl = &ddlIndex{defs: map[string]ddlDef{}}
	for _, r := range c.ranges[:c.at] {
		toks := c.toks[r[0] : r[1]+1]
		name, view, ok := createdTable(toks)
		if !ok {
			continue
		}
		d := ddlDef{rng: r, view: view}
		for i := 0; i+2 < len(toks); i++ {
			if toks[i].Kind == flinksql.String && toks[i].Value == "connector" && toks[i+1].Kind == flinksql.Eq && toks[i+2].Kind == flinksql.String {
				d.connector = toks[i+2].Value
				break
			}
		}
		if _, dup := c.ddl.defs[name]; !dup {
			c.ddl.names = append(c.ddl.names, name)
		}
		c.ddl.defs[name] = d
	}
	return c.ddl
}

// createdTable reads CREATE [OR REPLACE|ALTER] [TEMPORARY] [MATERIALIZED]
// TABLE|VIEW [IF NOT EXISTS] name.
func createdTable(toks []flinksql.Token) (name string, view, ok bool) {
	i := 0
	word := func(ws ...string) bool {
		if i < len(toks) && toks[i].Kind == flinksql.Word {
			for _, w := range ws {
				if strings.EqualFold(toks[i].Text, w) {
					i++
					return true
				}
			}
		}
		return false
	}
	if !word("CREATE") {
		return "", false, false
	}
	if word("OR") {
		word("REPLACE", "ALTER")
	}
	word("TEMPORARY")
	word("MATERIALIZED")
	switch {
	case word("TABLE"):
	case word("VIEW"):
		view = true
	default:
		return "", false, false
	}
	if word("IF") {
		word("NOT")
		word("EXISTS")
	}
	name, _ = dottedName(toks, i)
	return name, view, name != ""
}

// dottedName reads a.b.c from toks[i], as QualifiedName.Key spells it,
// and returns the index after it.
func dottedName(toks []flinksql.Token, i int) (string, int) {
	var parts []string
	for i < len(toks) && (toks[i].Kind == flinksql.Word || toks[i].Kind == flinksql.QuotedIdent) {
		parts = append(parts, toks[i].Value)
		i++
		if i+1 < len(toks) && toks[i].Kind == flinksql.Dot {
			i++
			continue
		}
		break
	}
	return strings.Join(parts, "."), i
}

// tables suggests the tables and views defined before the statement and
// the ones opts.KnownTables lists.
func (c *completer) tables() {
	ix := c.index()
	for _, n := range ix.names {
		d := ix.defs[n]
		detail := "table"
		if d.view {
			detail = "view"
		}
		doc := ""
		if d.connector != "" {
			detail += " · " + d.connector
			if spec := builtin.Connectors[d.connector]; spec != nil {
				doc = spec.Desc
			}
		}
		c.add(Suggestion{Text: n, Kind: Table, Detail: detail, Doc: doc})
	}
	known := make([]string, 0, len(c.opts.KnownTables))
	for n := range c.opts.KnownTables {
		known = append(known, n)
	}
	sort.Strings(known)
	for _, n := range known {
		detail := "table · catalog"
		if info := c.opts.KnownTables[n]; info != nil && info.Origin != "" {
			detail = "table · " + info.Origin
		}
		c.add(Suggestion{Text: n, Kind: Table, Detail: detail})
	}
}

// queryColumns are the columns a subquery's or CTE's select list gives,
// as the validator resolves them (the tables are tablesFor's).
func (c *completer) queryColumns(text string) (cols []flinksql.ColumnInfo) {
	if c.cat == nil {
		return nil
	}
	script, _ := flinksql.ParseFileFor("", text, c.opts.Version)
	if len(script.Stmts) != 1 {
		return nil
	}
	qs, ok := script.Stmts[0].(*ast.QueryStmt)
	if !ok {
		return nil
	}
	defer func() { _ = recover() }() // a half-typed script must never take the editor down
	return c.cat.QueryColumns(qs.Query)
}

// tablesFor validates the definitions of the tables refs names, and of
// what those read in turn (a view's tables, LIKE's source), in script
// order: the tables then have their columns as Validate would see them,
// time attributes included.
func (c *completer) tablesFor(refs []tableRef) *flinksql.Tables {
	if c.cat != nil {
		return c.cat
	}
	ix := c.index()
	need := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		d, ok := ix.defs[name]
		if !ok || need[name] {
			return
		}
		need[name] = true
		for _, t := range c.toks[d.rng[0] : d.rng[1]+1] {
			if t.Kind == flinksql.Word || t.Kind == flinksql.QuotedIdent {
				visit(t.Value)
			}
		}
	}
	for _, r := range refs {
		visit(r.name)
	}
	var rngs [][2]int
	for name := range need {
		rngs = append(rngs, ix.defs[name].rng)
	}
	sort.Slice(rngs, func(i, j int) bool { return rngs[i][0] < rngs[j][0] })
	opts := c.opts
	opts.IgnoreUnknownTables = true
	c.cat = flinksql.NewTables(opts)
	func() {
		defer func() { _ = recover() }() // a half-typed script must never take the editor down
		for _, r := range rngs {
			text := c.src[c.toks[r[0]].Pos.Offset:c.toks[r[1]].End.Offset]
			script, _ := flinksql.ParseFileFor("", text, opts.Version)
			for _, st := range script.Stmts {
				if _, bad := st.(*ast.BadStmt); !bad {
					c.cat.Define(st)
				}
			}
		}
	}()
	return c.cat
}
