package flinksql

import (
	"sort"
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// exprChecker checks expressions: the columns they read (resolved in a
// scope), the functions they call and the windows they name, and, in an
// aggregating SELECT, that every column is grouped. A subquery goes back
// to the query resolver.
type exprChecker struct {
	*findings
	cat     *catalog // the functions the script creates
	queries *queryResolver
}

// expr checks the names an expression reads and returns the column info
// when the expression is a plain column reference.
func (ec *exprChecker) expr(e ast.Expr, sc *scope) *ColumnInfo {
	if ref, ok := e.(*ast.ColumnRef); ok {
		return ec.resolve(ref, sc)
	}
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ColumnRef:
			ec.resolve(x, sc)
			return false
		case *ast.SubqueryExpr:
			ec.queries.query(x.Query, sc)
			return false
		case *ast.ExistsExpr:
			ec.queries.query(x.Query, sc)
			return false
		case *ast.InExpr:
			if x.Query != nil {
				ec.expr(x.X, sc)
				ec.queries.query(x.Query, sc)
				return false
			}
		case *ast.QuantifiedExpr:
			if x.Query != nil {
				ec.expr(x.L, sc)
				ec.queries.query(x.Query, sc)
				return false
			}
		case *ast.ArrayExpr:
			if x.Query != nil {
				ec.queries.query(x.Query, sc)
				return false
			}
		case *ast.MapExpr:
			if x.Query != nil {
				ec.queries.query(x.Query, sc)
				return false
			}
		case *ast.FuncCall:
			ec.checkFunctionName(x)
			if x.OverRef != nil && !sc.window(x.OverRef.Name) {
				ec.errorf(CodeUnknownColumn, x.OverRef, "define it in a WINDOW clause", "unknown window '%s'", x.OverRef.Name)
			}
			if x.Over != nil {
				for _, a := range x.Args {
					ec.expr(a, sc)
				}
				if x.Filter != nil {
					ec.expr(x.Filter, sc)
				}
				ec.windowSpec(x.Over, sc)
				return false
			}
		case *ast.TableArg:
			ec.queries.namedRelation(x.Name, sc)
			return false
		case *ast.DescriptorExpr:
			return false
		}
		return true
	})
	return nil
}

// resolve resolves a column reference in the scope or an enclosing one,
// and reports one that is missing or ambiguous.
func (ec *exprChecker) resolve(ref *ast.ColumnRef, sc *scope) *ColumnInfo {
	for s := sc; s != nil; s = s.parent {
		c, st, rel := s.lookup(ref)
		switch st {
		case resolvedFound:
			return c
		case resolvedUnknown:
			return nil
		case resolvedAmbiguous:
			var in []string
			for _, r := range s.rels {
				if r.column(ref.Parts[0].Name) != nil {
					in = append(in, r.alias)
				}
			}
			ec.errorf(CodeAmbiguousColumn, ref, "qualify it: "+in[0]+"."+ref.Parts[0].Name,
				"column '%s' is ambiguous: it is in %s", ref.Parts[0].Name, strings.Join(quoteAll(in), " and "))
			return nil
		case resolvedMissing:
			if rel != nil {
				name := ref.Parts[1].Name
				ec.errorf(CodeUnknownColumn, ref, didYouMean(name, colNames(rel.cols)), "unknown column '%s' in '%s'", name, rel.alias)
				return nil
			}
		}
		if s.allowAliases && len(ref.Parts) == 1 && s.aliases[ref.Parts[0].Name] {
			return nil
		}
	}
	ec.errorf(CodeUnknownColumn, ref, ec.columnHint(ref, sc), "unknown column '%s'", ref.Key())
	return nil
}

// columnHint suggests the names an unknown column reference may have
// meant.
func (ec *exprChecker) columnHint(ref *ast.ColumnRef, sc *scope) string {
	var names []string
	seen := map[string]bool{}
	for s := sc; s != nil; s = s.parent {
		for _, r := range s.rels {
			for _, c := range r.cols {
				if !seen[c.Name] {
					seen[c.Name] = true
					names = append(names, c.Name)
				}
			}
		}
		if s.allowAliases {
			for a := range s.aliases {
				names = append(names, a)
			}
		}
	}
	sort.Strings(names)
	if len(ref.Parts) >= 2 {
		if h := didYouMean(ref.Parts[0].Name, relAliases(sc)); h != "" {
			return "no table or alias '" + ref.Parts[0].Name + "' here; " + h
		}
		return "no table or alias '" + ref.Parts[0].Name + "' here"
	}
	return didYouMean(ref.Parts[0].Name, names)
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "'" + s + "'"
	}
	return out
}

// windowSpec checks an OVER window or a WINDOW clause's definition.
func (ec *exprChecker) windowSpec(w *ast.WindowSpec, sc *scope) {
	if w.Ref != nil && !sc.window(w.Ref.Name) {
		ec.errorf(CodeUnknownColumn, w.Ref, "", "unknown window '%s'", w.Ref.Name)
	}
	for _, e := range w.PartitionBy {
		ec.expr(e, sc)
	}
	for _, o := range w.OrderBy {
		ec.expr(o.Expr, sc)
	}
	if w.Frame != nil {
		for _, b := range []*ast.FrameBound{w.Frame.Start, w.Frame.End} {
			if b != nil && b.Offset != nil {
				ec.expr(b.Offset, sc)
			}
		}
	}
}
