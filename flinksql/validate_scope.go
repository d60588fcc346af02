package flinksql

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// relation is one item of a FROM clause as a name resolver sees it.
type relation struct {
	alias   string
	cols    []ColumnInfo
	unknown bool      // columns not known: every name resolves
	table   *tableDef // the table of a plain table reference
	node    ast.Node
}

func (r *relation) column(name string) *ColumnInfo {
	for i := range r.cols {
		if r.cols[i].Name == name {
			return &r.cols[i]
		}
	}
	return nil
}

// scope is the set of names visible at a point of a query.
type scope struct {
	parent       *scope
	rels         []*relation
	ctes         map[string]*relation
	aliases      map[string]bool // select aliases
	allowAliases bool            // in GROUP BY, HAVING, ORDER BY
	windows      map[string]bool
	common       map[string]bool // USING / NATURAL join columns
	patternVars  map[string]*relation
}

func newScope(parent *scope) *scope {
	return &scope{parent: parent, ctes: map[string]*relation{}, aliases: map[string]bool{},
		windows: map[string]bool{}, common: map[string]bool{}, patternVars: map[string]*relation{}}
}

func (sc *scope) cte(name string) *relation {
	for s := sc; s != nil; s = s.parent {
		if r := s.ctes[name]; r != nil {
			return r
		}
	}
	return nil
}

func (sc *scope) window(name string) bool {
	for s := sc; s != nil; s = s.parent {
		if s.windows[name] {
			return true
		}
	}
	return false
}

// outCol is one output column of a query.
type outCol struct {
	ColumnInfo
}

func outColumns(cols []outCol) []ColumnInfo {
	out := make([]ColumnInfo, len(cols))
	for i, c := range cols {
		out[i] = c.ColumnInfo
	}
	return out
}

func renameColumns(cols []ColumnInfo, names []*ast.Ident) []ColumnInfo {
	out := make([]ColumnInfo, len(names))
	for i, id := range names {
		if i < len(cols) {
			out[i] = cols[i]
		}
		out[i].Name = id.Name
	}
	return out
}

func relAliases(sc *scope) []string {
	var out []string
	for s := sc; s != nil; s = s.parent {
		for _, r := range s.rels {
			if r.alias != "" {
				out = append(out, r.alias)
			}
		}
	}
	return out
}

func colNames(cols []ColumnInfo) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

type resolveStatus int

const (
	resolvedFound resolveStatus = iota
	resolvedUnknown
	resolvedMissing
	resolvedAmbiguous
)

// lookup resolves a reference within one scope level.
func (sc *scope) lookup(ref *ast.ColumnRef) (*ColumnInfo, resolveStatus, *relation) {
	first := ref.Parts[0].Name
	if len(ref.Parts) >= 2 {
		if r := sc.patternVars[first]; r != nil {
			if c := r.column(ref.Parts[1].Name); c != nil {
				return c, resolvedFound, r
			}
			if r.unknown {
				return nil, resolvedUnknown, r
			}
			return nil, resolvedMissing, r
		}
		for _, r := range sc.rels {
			if r.alias == first {
				if c := r.column(ref.Parts[1].Name); c != nil {
					return c, resolvedFound, r
				}
				if r.unknown {
					return nil, resolvedUnknown, r
				}
				return nil, resolvedMissing, r
			}
		}
	}
	if len(ref.Parts) >= 3 {
		// db.t.col or cat.db.t.col: the prefix names a table of this FROM.
		for _, r := range sc.rels {
			if r.table == nil {
				continue
			}
			for i := len(ref.Parts) - 1; i >= 2; i-- {
				if strings.Join(partNames(ref.Parts[:i]), ".") == r.table.name {
					if c := r.column(ref.Parts[i].Name); c != nil {
						return c, resolvedFound, r
					}
					if r.unknown {
						return nil, resolvedUnknown, r
					}
				}
			}
		}
	}
	var found *ColumnInfo
	n, unknown := 0, false
	for _, r := range sc.rels {
		if c := r.column(first); c != nil {
			if found == nil {
				found = c
			}
			n++
		} else if r.unknown {
			unknown = true
		}
	}
	switch {
	case n > 1 && !sc.common[first]:
		return found, resolvedAmbiguous, nil
	case n >= 1:
		return found, resolvedFound, nil
	case unknown:
		return nil, resolvedUnknown, nil
	}
	return nil, resolvedMissing, nil
}

// resolveQuiet resolves a reference in this scope or an enclosing one,
// without reporting.
func (sc *scope) resolveQuiet(ref *ast.ColumnRef) *ColumnInfo {
	for s := sc; s != nil; s = s.parent {
		c, st, _ := s.lookup(ref)
		if st != resolvedMissing {
			return c
		}
	}
	return nil
}
