package flinksql

import (
	"sort"
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// catalog is what a validation knows of the tables at the statement being
// checked: what the script has defined so far (tables and views, catalogs,
// databases, functions) and the tables Options says exist outside it.
type catalog struct {
	// opts are the validation's options: the target release among them.
	opts Options
	// known are Options.KnownTables; ignoreUnknown is
	// Options.IgnoreUnknownTables, or set for a script that defines no table.
	known         map[string]*TableInfo
	ignoreUnknown bool
	tables        map[string]*tableDef
	// broken are names of CREATE statements that did not parse: a reference
	// to them is not reported again.
	broken map[string]bool
	// catalogKnown is false once USE switches to a catalog or database the
	// script does not define: names then resolve to tables we cannot see.
	catalogKnown bool
	catalogs     map[string]string // catalogs created in the script -> type
	databases    map[string]bool
	// functions are the functions the script creates, upper-case.
	functions map[string]bool
	// models are the models the script creates.
	models map[string]bool
}

func newCatalog(opts Options) *catalog {
	return &catalog{opts: opts, known: opts.KnownTables, ignoreUnknown: opts.IgnoreUnknownTables,
		tables: map[string]*tableDef{}, broken: map[string]bool{}, catalogKnown: true,
		catalogs: map[string]string{}, databases: map[string]bool{}, functions: map[string]bool{}, models: map[string]bool{}}
}

// tableDef is what the validator knows about a table or view at a point of
// the script.
type tableDef struct {
	name      string
	cols      []ColumnInfo
	unknown   bool // columns not known
	view      bool
	connector string
	props     ast.Properties
	pk        []string
	def       ast.Node // the defining statement, for messages
}

func (t *tableDef) column(name string) *ColumnInfo {
	for i := range t.cols {
		if t.cols[i].Name == name {
			return &t.cols[i]
		}
	}
	return nil
}

// lookupTable finds the table a name refers to. skip is true when the name
// may refer to something the validator cannot see, so no error is due.
func (c *catalog) lookupTable(q *ast.QualifiedName) (t *tableDef, skip bool) {
	key := q.Key()
	if t := c.tables[key]; t != nil {
		return t, false
	}
	if info := c.known[key]; info != nil {
		return tableFromInfo(key, info), false
	}
	if len(q.Parts) > 1 {
		prefix := strings.Join(partNames(q.Parts[:len(q.Parts)-1]), ".")
		if prefix == "default_catalog.default_database" || prefix == "default_database" {
			if t := c.tables[q.Last()]; t != nil {
				return t, false
			}
		}
		// Another catalog or database: not ours to check.
		return nil, true
	}
	if c.broken[key] || !c.catalogKnown || c.ignoreUnknown {
		return nil, true
	}
	return nil, false
}

func partNames(ids []*ast.Ident) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.Name
	}
	return out
}

func tableFromInfo(name string, info *TableInfo) *tableDef {
	t := &tableDef{name: name, cols: info.Columns, unknown: info.Columns == nil, view: info.View,
		connector: info.Connector, pk: info.PrimaryKey}
	keys := make([]string, 0, len(info.Options))
	for k := range info.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.props = append(t.props, &ast.Property{Key: &ast.StringLit{Value: k}, Value: &ast.StringLit{Value: info.Options[k]}})
	}
	return t
}

// tableNames lists the names a table reference could have meant.
func (c *catalog) tableNames(extra ...string) []string {
	names := append([]string{}, extra...)
	for k := range c.tables {
		names = append(names, k)
	}
	for k := range c.known {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// inDefaultCatalog reports whether a table name lands in the default
// in-memory catalog, where a table needs a connector.
func (c *catalog) inDefaultCatalog(q *ast.QualifiedName) bool {
	if !c.catalogKnown {
		return false
	}
	switch len(q.Parts) {
	case 1:
		return true
	case 2:
		return true
	}
	cat := q.Parts[0].Name
	return cat == "default_catalog" || c.catalogs[cat] == "generic_in_memory"
}

// rename moves a table to its new name.
func (c *catalog) rename(t *tableDef, oldKey, newName string) {
	delete(c.tables, oldKey)
	t.name = newName
	c.tables[newName] = t
}

// use follows USE CATALOG and USE: whether the names that follow resolve
// to tables the script defines.
func (c *catalog) use(s *ast.UseStmt) {
	name := s.Name.Key()
	if s.Catalog {
		c.catalogKnown = name == "default_catalog" || c.catalogs[name] == "generic_in_memory"
	} else {
		c.catalogKnown = name == "default_database" || c.databases[name] ||
			name == "default_catalog.default_database"
	}
}
