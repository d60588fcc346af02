package flinksql

import (
	"sort"

	"github.com/palink/palink/flinksql/ast"
)

// Table returns the last CREATE TABLE of the script for the name (as
// written, e.g. "orders" or "cat.db.orders"), or nil. Statements inside
// statement sets are not definitions, so they are not searched.
func (s *Script) Table(name string) *ast.CreateTable {
	var found *ast.CreateTable
	for _, st := range s.Stmts {
		if ct, ok := st.(*ast.CreateTable); ok && ct.Name.Key() == name {
			found = ct
		}
	}
	return found
}

// View returns the last CREATE VIEW of the script for the name, or nil.
func (s *Script) View(name string) *ast.CreateView {
	var found *ast.CreateView
	for _, st := range s.Stmts {
		if cv, ok := st.(*ast.CreateView); ok && cv.Name.Key() == name {
			found = cv
		}
	}
	return found
}

// LookupJoin is a join against a table read FOR SYSTEM_TIME AS OF a time
// attribute, split the way a lookup operator needs it.
type LookupJoin struct {
	Join *ast.Join
	// Table is the looked-up table reference; Alias is the name its
	// columns are qualified with (its alias, or its own name).
	Table *ast.TableRef
	Alias string
	// Keys are the conjuncts of ON of the form lookupColumn = probe
	// expression, in written order: the lookup key.
	Keys []LookupKey
	// Residual are the other conjuncts of ON, applied after the lookup.
	Residual []ast.Expr
}

// LookupKey is one equality of a lookup join's condition.
type LookupKey struct {
	Column string   // column of the looked-up table
	Probe  ast.Expr // expression over the probe side
	Cond   *ast.BinaryExpr
}

// LookupJoins finds the lookup (and temporal) joins under n, in source
// order. A column reference counts as the looked-up table's when it is
// qualified with its alias; an unqualified one when the other side of the
// equality is qualified with another name.
func LookupJoins(n ast.Node) []*LookupJoin {
	var out []*LookupJoin
	ast.Inspect(n, func(node ast.Node) bool {
		j, ok := node.(*ast.Join)
		if !ok {
			return true
		}
		tr, ok := j.R.(*ast.TableRef)
		if !ok || tr.SystemTime == nil {
			return true
		}
		lj := &LookupJoin{Join: j, Table: tr, Alias: tr.Name.Last()}
		if tr.Alias != nil {
			lj.Alias = tr.Alias.Name.Name
		}
		for _, c := range conjuncts(j.On) {
			if k, ok := lookupKey(c, lj.Alias); ok {
				lj.Keys = append(lj.Keys, k)
			} else {
				lj.Residual = append(lj.Residual, c)
			}
		}
		out = append(out, lj)
		return true
	})
	// A left-deep join tree is visited outermost (last) join first.
	sort.SliceStable(out, func(i, k int) bool { return out[i].Table.Pos.Offset < out[k].Table.Pos.Offset })
	return out
}

func conjuncts(e ast.Expr) []ast.Expr {
	switch x := e.(type) {
	case nil:
		return nil
	case *ast.BinaryExpr:
		if x.Op == "AND" {
			return append(conjuncts(x.L), conjuncts(x.R)...)
		}
	case *ast.ParenExpr:
		if b, ok := x.X.(*ast.BinaryExpr); ok && b.Op == "AND" {
			return conjuncts(b)
		}
	}
	return []ast.Expr{e}
}

func lookupKey(e ast.Expr, alias string) (LookupKey, bool) {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != "=" {
		return LookupKey{}, false
	}
	side := func(x ast.Expr) (col string, lookup, other bool) {
		ref, ok := x.(*ast.ColumnRef)
		if !ok {
			return "", false, !readsQualifier(x, alias)
		}
		if len(ref.Parts) >= 2 {
			if ref.Parts[0].Name == alias {
				return ref.Parts[1].Name, true, false
			}
			return "", false, true
		}
		return ref.Parts[0].Name, false, false // unqualified: decided by the other side
	}
	lc, lLook, lOther := side(b.L)
	rc, rLook, rOther := side(b.R)
	switch {
	case lLook && (rOther || !rLook && rc == ""):
		return LookupKey{Column: lc, Probe: b.R, Cond: b}, true
	case rLook && (lOther || !lLook && lc == ""):
		return LookupKey{Column: rc, Probe: b.L, Cond: b}, true
	case lc != "" && !lLook && rOther:
		return LookupKey{Column: lc, Probe: b.R, Cond: b}, true
	case rc != "" && !rLook && lOther:
		return LookupKey{Column: rc, Probe: b.L, Cond: b}, true
	}
	return LookupKey{}, false
}

// readsQualifier reports whether e reads a column qualified with alias.
func readsQualifier(e ast.Expr, alias string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if ref, ok := n.(*ast.ColumnRef); ok && len(ref.Parts) >= 2 && ref.Parts[0].Name == alias {
			found = true
		}
		return !found
	})
	return found
}
