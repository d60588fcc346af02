package format

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// exprFormatter renders expressions, and the window specs, ORDER BY items
// and hints inside them, inline: only a subquery spans lines, and it is
// handed to the query formatter.
type exprFormatter struct {
	*printer
}

// sub renders e, parenthesized when it binds looser than min (only for
// trees built by hand: parsed ones keep their ParenExpr).
func (f exprFormatter) sub(e ast.Expr, min, ind int) string {
	s := f.expr(e, ind)
	if exprPrec(e) < min {
		return "(" + s + ")"
	}
	return s
}

func (f exprFormatter) exprList(es []ast.Expr, ind int) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = f.expr(e, ind)
	}
	return strings.Join(parts, ", ")
}

func (f exprFormatter) subquery(q *ast.Query, ind int) string {
	queries := queryFormatter{printer: f.printer, exprs: f}
	inner := f.capture(func() { queries.query(q, ind+1) })
	return "(\n" + inner + "\n" + indent(ind) + ")"
}

func (f exprFormatter) expr(e ast.Expr, ind int) string {
	switch x := e.(type) {
	case nil:
		return ""
	case *ast.ColumnRef:
		return identPath(x.Parts)
	case *ast.Star:
		if len(x.Qualifier) > 0 {
			return identPath(x.Qualifier) + ".*"
		}
		return "*"
	case *ast.NumberLit:
		return x.Text
	case *ast.StringLit:
		return ast.QuoteString(x.Value)
	case *ast.BinaryLit:
		return "X'" + x.Hex + "'"
	case *ast.BoolLit:
		if x.Value {
			return "TRUE"
		}
		return "FALSE"
	case *ast.NullLit:
		return "NULL"
	case *ast.TypedLit:
		return x.Type + " " + ast.QuoteString(x.Value.Value)
	case *ast.IntervalLit:
		return "INTERVAL " + kw(x.Negative, "-") + f.expr(x.Value, ind) + " " + x.Qualifier.String()
	case *ast.Param:
		return "?"
	case *ast.UnaryExpr:
		if x.Op == "-" || x.Op == "+" {
			s := f.sub(x.X, ast.PrecUnary, ind)
			if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
				s = " " + s
			}
			return x.Op + s
		}
		if x.Op == "NOT" {
			return "NOT " + f.sub(x.X, ast.PrecNot, ind)
		}
		return x.Op + " " + f.sub(x.X, ast.PrecUnary, ind)
	case *ast.BinaryExpr:
		return f.binary(x, ind)
	case *ast.IsExpr:
		return f.sub(x.X, ast.PrecCmp, ind) + " IS " + kw(x.Not, "NOT ") + x.What
	case *ast.IsDistinctExpr:
		return f.sub(x.L, ast.PrecCmp, ind) + " IS " + kw(x.Not, "NOT ") + "DISTINCT FROM " + f.sub(x.R, ast.PrecConcat, ind)
	case *ast.InExpr:
		s := f.sub(x.X, ast.PrecCmp, ind) + kw(x.Not, " NOT") + " IN "
		if x.Query != nil {
			return s + f.subquery(x.Query, ind)
		}
		return s + "(" + f.exprList(x.List, ind) + ")"
	case *ast.BetweenExpr:
		s := f.sub(x.X, ast.PrecCmp, ind) + kw(x.Not, " NOT") + " BETWEEN "
		if x.Mode != "" {
			s += x.Mode + " "
		}
		return s + f.sub(x.Lo, ast.PrecConcat, ind) + " AND " + f.sub(x.Hi, ast.PrecConcat, ind)
	case *ast.LikeExpr:
		s := f.sub(x.X, ast.PrecCmp, ind) + kw(x.Not, " NOT") + " " + x.Op + " " + f.sub(x.Pattern, ast.PrecConcat, ind)
		if x.Escape != nil {
			s += " ESCAPE " + f.sub(x.Escape, ast.PrecConcat, ind)
		}
		return s
	case *ast.QuantifiedExpr:
		s := f.sub(x.L, ast.PrecCmp, ind) + " " + x.Op + " " + x.Quantifier + " "
		if x.Query != nil {
			return s + f.subquery(x.Query, ind)
		}
		return s + "(" + f.exprList(x.List, ind) + ")"
	case *ast.ExistsExpr:
		return "EXISTS " + f.subquery(x.Query, ind)
	case *ast.SubqueryExpr:
		return f.subquery(x.Query, ind)
	case *ast.CaseExpr:
		s := "CASE"
		if x.Operand != nil {
			s += " " + f.expr(x.Operand, ind)
		}
		for _, w := range x.Whens {
			s += " WHEN " + f.expr(w.Cond, ind) + " THEN " + f.expr(w.Result, ind)
		}
		if x.Else != nil {
			s += " ELSE " + f.expr(x.Else, ind)
		}
		return s + " END"
	case *ast.CastExpr:
		name := "CAST"
		if x.Try {
			name = "TRY_CAST"
		}
		return name + "(" + f.expr(x.X, ind) + " AS " + x.Type.String() + ")"
	case *ast.FuncCall:
		return f.funcCall(x, ind)
	case *ast.NamedArg:
		return x.Name.String() + " => " + f.expr(x.Value, ind)
	case *ast.TableArg:
		s := "TABLE " + qname(x.Name)
		if len(x.PartitionBy) == 1 {
			s += " PARTITION BY " + f.sub(x.PartitionBy[0], ast.PrecConcat, ind)
		} else if len(x.PartitionBy) > 1 {
			s += " PARTITION BY (" + f.exprList(x.PartitionBy, ind) + ")"
		}
		if len(x.OrderBy) == 1 {
			s += " ORDER BY " + f.orderItems(x.OrderBy, ind)
		} else if len(x.OrderBy) > 1 {
			s += " ORDER BY (" + f.orderItems(x.OrderBy, ind) + ")"
		}
		return s
	case *ast.DescriptorExpr:
		return "DESCRIPTOR(" + identList(x.Columns) + ")"
	case *ast.ModelArg:
		return "MODEL " + qname(x.Name)
	case *ast.TimeUnitExpr:
		return x.Unit
	case *ast.ExtractExpr:
		return "EXTRACT(" + x.Unit + " FROM " + f.expr(x.X, ind) + ")"
	case *ast.TrimExpr:
		s := "TRIM("
		if x.Side != "" {
			s += x.Side + " "
		}
		if x.Chars != nil {
			s += f.expr(x.Chars, ind) + " "
		}
		if x.From {
			s += "FROM "
		}
		return s + f.expr(x.X, ind) + ")"
	case *ast.PositionExpr:
		s := "POSITION(" + f.sub(x.Sub, ast.PrecConcat, ind) + " IN " + f.sub(x.X, ast.PrecConcat, ind)
		if x.Start != nil {
			s += " FROM " + f.expr(x.Start, ind)
		}
		return s + ")"
	case *ast.SubstringExpr:
		s := "SUBSTRING(" + f.expr(x.X, ind) + " FROM " + f.expr(x.From, ind)
		if x.Length != nil {
			s += " FOR " + f.expr(x.Length, ind)
		}
		return s + ")"
	case *ast.OverlayExpr:
		s := "OVERLAY(" + f.expr(x.X, ind) + " PLACING " + f.expr(x.Placing, ind) + " FROM " + f.expr(x.From, ind)
		if x.Length != nil {
			s += " FOR " + f.expr(x.Length, ind)
		}
		return s + ")"
	case *ast.FloorCeilExpr:
		return x.Name + "(" + f.expr(x.X, ind) + " TO " + x.Unit + ")"
	case *ast.JSONCallExpr:
		return f.jsonCall(x, ind)
	case *ast.RowExpr:
		s := "(" + f.exprList(x.Items, ind) + ")"
		if x.Explicit {
			return "ROW" + s
		}
		return s
	case *ast.ArrayExpr:
		if x.Query != nil {
			return "ARRAY" + f.subquery(x.Query, ind)
		}
		return "ARRAY[" + f.exprList(x.Items, ind) + "]"
	case *ast.MapExpr:
		if x.Query != nil {
			return "MAP" + f.subquery(x.Query, ind)
		}
		return "MAP[" + f.exprList(x.Items, ind) + "]"
	case *ast.ParenExpr:
		return "(" + f.expr(x.X, ind) + ")"
	case *ast.IndexExpr:
		return f.sub(x.X, ast.PrecUnary+1, ind) + "[" + f.expr(x.Index, ind) + "]"
	case *ast.FieldExpr:
		return f.sub(x.X, ast.PrecUnary+1, ind) + "." + x.Field.String()
	case *ast.GroupingSets:
		return "GROUPING SETS (" + f.exprList(x.Sets, ind) + ")"
	case *ast.Rollup:
		return "ROLLUP (" + f.exprList(x.Items, ind) + ")"
	case *ast.Cube:
		return "CUBE (" + f.exprList(x.Items, ind) + ")"
	}
	return ""
}

// binary renders a chain of left-associated operators of one precedence
// (a + b + c ...) in one pass: rendering it recursively would copy the
// growing left side at every step.
func (f exprFormatter) binary(x *ast.BinaryExpr, ind int) string {
	p := exprPrec(x)
	var chain []*ast.BinaryExpr
	var base ast.Expr = x
	for {
		b, ok := base.(*ast.BinaryExpr)
		if !ok || exprPrec(b) != p {
			break
		}
		chain = append(chain, b)
		base = b.L
	}
	var sb strings.Builder
	sb.WriteString(f.sub(base, p, ind))
	for i := len(chain) - 1; i >= 0; i-- {
		b := chain[i]
		rmin := p + 1
		if p == ast.PrecCmp {
			rmin = ast.PrecConcat
		}
		sb.WriteByte(' ')
		sb.WriteString(b.Op)
		sb.WriteByte(' ')
		sb.WriteString(f.sub(b.R, rmin, ind))
	}
	return sb.String()
}

func (f exprFormatter) funcCall(x *ast.FuncCall, ind int) string {
	s := qname(x.Name)
	if x.NoParens {
		return s
	}
	s += "(" + kw(x.Distinct, "DISTINCT ") + kw(x.All, "ALL ") + f.exprList(x.Args, ind) + ")"
	if len(x.WithinGroup) > 0 {
		s += " WITHIN GROUP (ORDER BY " + f.orderItems(x.WithinGroup, ind) + ")"
	}
	if x.Filter != nil {
		s += " FILTER (WHERE " + f.expr(x.Filter, ind) + ")"
	}
	if x.NullTreatment != "" {
		s += " " + x.NullTreatment
	}
	if x.Over != nil {
		s += " OVER " + f.windowSpec(x.Over, ind)
	} else if x.OverRef != nil {
		s += " OVER " + x.OverRef.String()
	}
	return s
}

func (f exprFormatter) jsonCall(x *ast.JSONCallExpr, ind int) string {
	var parts []string
	for _, a := range x.Args {
		parts = append(parts, f.expr(a, ind))
	}
	for _, e := range x.Entries {
		k := f.sub(e.Key, ast.PrecConcat, ind)
		if e.KeyWord {
			k = "KEY " + k
		}
		if e.Colon {
			parts = append(parts, k+" : "+f.expr(e.Value, ind))
		} else {
			parts = append(parts, k+" VALUE "+f.expr(e.Value, ind))
		}
	}
	s := x.Name + "(" + strings.Join(parts, ", ")
	if x.Returning != nil {
		s += " RETURNING " + x.Returning.String()
	}
	for _, c := range x.Clauses {
		text := c.Text
		if c.Default != nil {
			text = strings.Replace(text, "DEFAULT", "DEFAULT "+f.sub(c.Default, ast.PrecConcat, ind), 1)
		}
		s += " " + text
	}
	return s + ")"
}

func (f exprFormatter) hints(hs []*ast.Hint) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		s := h.Name.String()
		if h.Parens {
			var args []string
			for _, a := range h.Args {
				args = append(args, f.expr(a, 0))
			}
			for _, kv := range h.KVs {
				args = append(args, f.expr(kv.Key, 0)+" = "+f.expr(kv.Value, 0))
			}
			s += "(" + strings.Join(args, ", ") + ")"
		}
		parts[i] = s
	}
	return "/*+ " + strings.Join(parts, ", ") + " */"
}

func (f exprFormatter) orderItems(items []*ast.OrderItem, ind int) string {
	parts := make([]string, len(items))
	for i, o := range items {
		parts[i] = f.expr(o.Expr, ind)
		if o.Dir != "" {
			parts[i] += " " + o.Dir
		}
		if o.Nulls != "" {
			parts[i] += " NULLS " + o.Nulls
		}
	}
	return strings.Join(parts, ", ")
}

func (f exprFormatter) windowSpec(w *ast.WindowSpec, ind int) string {
	var parts []string
	if w.Ref != nil {
		parts = append(parts, w.Ref.String())
	}
	if len(w.PartitionBy) > 0 {
		parts = append(parts, "PARTITION BY "+f.exprList(w.PartitionBy, ind))
	}
	if len(w.OrderBy) > 0 {
		parts = append(parts, "ORDER BY "+f.orderItems(w.OrderBy, ind))
	}
	if w.Frame != nil {
		s := w.Frame.Unit + " "
		if w.Frame.End != nil {
			s += "BETWEEN " + f.frameBound(w.Frame.Start, ind) + " AND " + f.frameBound(w.Frame.End, ind)
		} else {
			s += f.frameBound(w.Frame.Start, ind)
		}
		parts = append(parts, s)
	}
	return "(" + strings.Join(parts, " ") + ")"
}

func (f exprFormatter) frameBound(b *ast.FrameBound, ind int) string {
	if b.Offset != nil {
		return f.sub(b.Offset, ast.PrecConcat, ind) + " " + b.Kind
	}
	return b.Kind
}

func exprPrec(e ast.Expr) int {
	switch x := e.(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case "OR":
			return ast.PrecOr
		case "AND":
			return ast.PrecAnd
		case "||":
			return ast.PrecConcat
		case "+", "-":
			return ast.PrecAdd
		case "*", "/", "%":
			return ast.PrecMul
		}
		return ast.PrecCmp
	case *ast.UnaryExpr:
		if x.Op == "NOT" {
			return ast.PrecNot
		}
		return ast.PrecUnary
	case *ast.IsExpr, *ast.IsDistinctExpr, *ast.InExpr, *ast.BetweenExpr, *ast.LikeExpr, *ast.QuantifiedExpr:
		return ast.PrecCmp
	}
	return ast.PrecUnary + 1
}

func qname(q *ast.QualifiedName) string { return q.String() }

func identPath(ids []*ast.Ident) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id.String()
	}
	return strings.Join(parts, ".")
}

func identList(ids []*ast.Ident) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id.String()
	}
	return strings.Join(parts, ", ")
}

func stringList(ss []*ast.StringLit) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = ast.QuoteString(s.Value)
	}
	return strings.Join(parts, ", ")
}
