package flinksql

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"

	"github.com/palink/palink/flinksql/format"
)

// isScanOnly reports whether a connector palink follows is known not to
// serve lookups; of a connector it does not follow nothing is assumed.
func isScanOnly(name string) bool {
	spec := builtin.Connectors[name]
	return spec != nil && spec.Checked && spec.ScanOnly
}

// checkQueryHints checks that a LOOKUP hint names a table of the query.
func (qr *queryResolver) checkQueryHints(s *ast.Select, sc *scope) {
	for _, h := range s.Hints {
		if h.Name.Name != "LOOKUP" {
			continue
		}
		name, ok := h.Option("table")
		if !ok {
			qr.errorf(CodeLookupJoin, h, "write LOOKUP('table'='<name>', ...)", "LOOKUP hint needs the 'table' option")
			continue
		}
		found := false
		var names []string
		for _, r := range sc.rels {
			if r.table != nil {
				last := r.table.name
				if i := strings.LastIndexByte(last, '.'); i >= 0 {
					last = last[i+1:]
				}
				found = found || last == name || r.table.name == name
				names = append(names, last)
			}
		}
		if !found && len(names) > 0 {
			qr.warnf(CodeLookupJoin, h, didYouMean(name, names), "LOOKUP hint names '%s', which this query does not join", name)
		}
	}
}

// lookupJoin checks a join against a table read FOR SYSTEM_TIME AS OF: a
// lookup source joined on processing time and on a key, or a versioned
// table joined on event time.
func (qr *queryResolver) lookupJoin(j *ast.Join, r *ast.TableRef, sc *scope) {
	var rel *relation
	for _, x := range sc.rels {
		if x.node == ast.Node(r) {
			rel = x
		}
	}
	if rel == nil || rel.table == nil || rel.table.view {
		return
	}
	t := rel.table
	var proc, row, attrKnown bool
	switch x := r.SystemTime.(type) {
	case *ast.ColumnRef:
		if c := sc.resolveQuiet(x); c != nil && !c.unsure {
			attrKnown, proc, row = true, c.ProcTime, c.RowTime
		}
	case *ast.FuncCall:
		if x.FuncName() == "PROCTIME" {
			attrKnown, proc = true, true
		}
	}
	switch {
	case row:
		hasWM := false
		for _, c := range t.cols {
			hasWM = hasWM || c.RowTime
		}
		if (t.pk == nil || !hasWM) && !t.unknown {
			qr.errorf(CodeLookupJoin, r.Name, "declare a PRIMARY KEY ... NOT ENFORCED and a WATERMARK on it",
				"an event-time temporal join needs '%s' to be a versioned table (primary key and watermark)", t.name)
		}
		if spec := builtin.Connectors[t.connector]; spec != nil && spec.Lookup {
			qr.warnf(CodeLookupTimeAttr, r.SystemTime, "use a processing-time attribute declared AS PROCTIME()",
				"'%s' is an event-time attribute: a lookup join against %s '%s' should use processing time", format.Expr(r.SystemTime), t.connector, t.name)
		}
		return
	case isScanOnly(t.connector):
		qr.errorf(CodeLookupJoin, r.Name, "look up a table with a lookup connector such as 'jdbc' or 'hbase-2.2'",
			"'%s' (connector '%s') is not a lookup source", t.name, t.connector)
		return
	case attrKnown && !proc:
		qr.warnf(CodeLookupTimeAttr, r.SystemTime, "declare one in the probe table: proc_time AS PROCTIME()",
			"'%s' is not a processing-time attribute: a lookup join needs one", format.Expr(r.SystemTime))
	}
	if j.On == nil {
		return
	}
	if !hasKeyEquality(j.On, rel, sc) {
		alias := rel.alias
		qr.errorf(CodeLookupJoin, j.On, "join on a column of the looked-up table, like "+alias+".id = <probe column>",
			"lookup join on '%s' needs an equality between one of its columns and the other side", t.name)
	}
}

// hasKeyEquality reports whether cond has a conjunct lookupCol = expr where
// expr does not read the looked-up table.
func hasKeyEquality(cond ast.Expr, lookup *relation, sc *scope) bool {
	var conj []ast.Expr
	var flatten func(e ast.Expr)
	flatten = func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.BinaryExpr:
			if x.Op == "AND" {
				flatten(x.L)
				flatten(x.R)
				return
			}
		case *ast.ParenExpr:
			flatten(x.X)
			return
		}
		conj = append(conj, e)
	}
	flatten(cond)
	for _, c := range conj {
		b, ok := c.(*ast.BinaryExpr)
		if !ok || b.Op != "=" {
			continue
		}
		lRef, lOnly := readsOnly(b.L, lookup, sc)
		rRef, rOnly := readsOnly(b.R, lookup, sc)
		if lOnly && lRef && !rRef || rOnly && rRef && !lRef {
			return true
		}
	}
	return false
}

// readsOnly reports whether e reads the relation at all (reads) and whether
// e is a plain column of it (only).
func readsOnly(e ast.Expr, rel *relation, sc *scope) (reads, only bool) {
	ast.Inspect(e, func(n ast.Node) bool {
		if ref, ok := n.(*ast.ColumnRef); ok && refersTo(ref, rel, sc) {
			reads = true
		}
		return true
	})
	if ref, ok := e.(*ast.ColumnRef); ok {
		only = refersTo(ref, rel, sc)
	}
	return reads, only
}

// refersTo reports whether a column reference reads rel.
func refersTo(ref *ast.ColumnRef, rel *relation, sc *scope) bool {
	if len(ref.Parts) >= 2 {
		return ref.Parts[0].Name == rel.alias
	}
	if rel.column(ref.Parts[0].Name) == nil && !rel.unknown {
		return false
	}
	for _, o := range sc.rels {
		if o != rel && (o.column(ref.Parts[0].Name) != nil) {
			return false
		}
	}
	return true
}
