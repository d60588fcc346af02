package flinksql

import (
	"strconv"
	"strings"
)

// exprFormatter renders expressions, and the window specs, ORDER BY items
// and hints inside them, inline: only a subquery spans lines, and it is
// handed to the query formatter.
type exprFormatter struct {
	*printer
}

// sub renders e, parenthesized when it binds looser than min (only for
// trees built by hand: parsed ones keep their ParenExpr).
func (f exprFormatter) sub(e Expr, min, ind int) string {
	s := f.expr(e, ind)
	if exprPrec(e) < min {
		return "(" + s + ")"
	}
	return s
}

func (f exprFormatter) exprList(es []Expr, ind int) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = f.expr(e, ind)
	}
	return strings.Join(parts, ", ")
}

func (f exprFormatter) subquery(q *Query, ind int) string {
	queries := queryFormatter{printer: f.printer, exprs: f}
	inner := f.capture(func() { queries.query(q, ind+1) })
	return "(\n" + inner + "\n" + indent(ind) + ")"
}

func (f exprFormatter) expr(e Expr, ind int) string {
	switch x := e.(type) {
	case nil:
		return ""
	case *ColumnRef:
		return identPath(x.Parts)
	case *Star:
		if len(x.Qualifier) > 0 {
			return identPath(x.Qualifier) + ".*"
		}
		return "*"
	case *NumberLit:
		return x.Text
	case *StringLit:
		return quoteString(x.Value)
	case *BinaryLit:
		return "X'" + x.Hex + "'"
	case *BoolLit:
		if x.Value {
			return "TRUE"
		}
		return "FALSE"
	case *NullLit:
		return "NULL"
	case *TypedLit:
		return x.Type + " " + quoteString(x.Value.Value)
	case *IntervalLit:
		return "INTERVAL " + kw(x.Negative, "-") + f.expr(x.Value, ind) + " " + qualifierString(x.Qualifier)
	case *Param:
		return "?"
	case *UnaryExpr:
		if x.Op == "-" || x.Op == "+" {
			s := f.sub(x.X, precUnary, ind)
			if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
				s = " " + s
			}
			return x.Op + s
		}
		if x.Op == "NOT" {
			return "NOT " + f.sub(x.X, precNot, ind)
		}
		return x.Op + " " + f.sub(x.X, precUnary, ind)
	case *BinaryExpr:
		return f.binary(x, ind)
	case *IsExpr:
		return f.sub(x.X, precCmp, ind) + " IS " + kw(x.Not, "NOT ") + x.What
	case *IsDistinctExpr:
		return f.sub(x.L, precCmp, ind) + " IS " + kw(x.Not, "NOT ") + "DISTINCT FROM " + f.sub(x.R, precConcat, ind)
	case *InExpr:
		s := f.sub(x.X, precCmp, ind) + kw(x.Not, " NOT") + " IN "
		if x.Query != nil {
			return s + f.subquery(x.Query, ind)
		}
		return s + "(" + f.exprList(x.List, ind) + ")"
	case *BetweenExpr:
		s := f.sub(x.X, precCmp, ind) + kw(x.Not, " NOT") + " BETWEEN "
		if x.Mode != "" {
			s += x.Mode + " "
		}
		return s + f.sub(x.Lo, precConcat, ind) + " AND " + f.sub(x.Hi, precConcat, ind)
	case *LikeExpr:
		s := f.sub(x.X, precCmp, ind) + kw(x.Not, " NOT") + " " + x.Op + " " + f.sub(x.Pattern, precConcat, ind)
		if x.Escape != nil {
			s += " ESCAPE " + f.sub(x.Escape, precConcat, ind)
		}
		return s
	case *QuantifiedExpr:
		s := f.sub(x.L, precCmp, ind) + " " + x.Op + " " + x.Quantifier + " "
		if x.Query != nil {
			return s + f.subquery(x.Query, ind)
		}
		return s + "(" + f.exprList(x.List, ind) + ")"
	case *ExistsExpr:
		return "EXISTS " + f.subquery(x.Query, ind)
	case *SubqueryExpr:
		return f.subquery(x.Query, ind)
	case *CaseExpr:
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
	case *CastExpr:
		name := "CAST"
		if x.Try {
			name = "TRY_CAST"
		}
		return name + "(" + f.expr(x.X, ind) + " AS " + typeString(x.Type) + ")"
	case *FuncCall:
		return f.funcCall(x, ind)
	case *NamedArg:
		return x.Name.String() + " => " + f.expr(x.Value, ind)
	case *TableArg:
		s := "TABLE " + qname(x.Name)
		if len(x.PartitionBy) == 1 {
			s += " PARTITION BY " + f.sub(x.PartitionBy[0], precConcat, ind)
		} else if len(x.PartitionBy) > 1 {
			s += " PARTITION BY (" + f.exprList(x.PartitionBy, ind) + ")"
		}
		if len(x.OrderBy) == 1 {
			s += " ORDER BY " + f.orderItems(x.OrderBy, ind)
		} else if len(x.OrderBy) > 1 {
			s += " ORDER BY (" + f.orderItems(x.OrderBy, ind) + ")"
		}
		return s
	case *DescriptorExpr:
		return "DESCRIPTOR(" + identList(x.Columns) + ")"
	case *ModelArg:
		return "MODEL " + qname(x.Name)
	case *TimeUnitExpr:
		return x.Unit
	case *ExtractExpr:
		return "EXTRACT(" + x.Unit + " FROM " + f.expr(x.X, ind) + ")"
	case *TrimExpr:
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
	case *PositionExpr:
		s := "POSITION(" + f.sub(x.Sub, precConcat, ind) + " IN " + f.sub(x.X, precConcat, ind)
		if x.Start != nil {
			s += " FROM " + f.expr(x.Start, ind)
		}
		return s + ")"
	case *SubstringExpr:
		s := "SUBSTRING(" + f.expr(x.X, ind) + " FROM " + f.expr(x.From, ind)
		if x.Length != nil {
			s += " FOR " + f.expr(x.Length, ind)
		}
		return s + ")"
	case *OverlayExpr:
		s := "OVERLAY(" + f.expr(x.X, ind) + " PLACING " + f.expr(x.Placing, ind) + " FROM " + f.expr(x.From, ind)
		if x.Length != nil {
			s += " FOR " + f.expr(x.Length, ind)
		}
		return s + ")"
	case *FloorCeilExpr:
		return x.Name + "(" + f.expr(x.X, ind) + " TO " + x.Unit + ")"
	case *JSONCallExpr:
		return f.jsonCall(x, ind)
	case *RowExpr:
		s := "(" + f.exprList(x.Items, ind) + ")"
		if x.Explicit {
			return "ROW" + s
		}
		return s
	case *ArrayExpr:
		if x.Query != nil {
			return "ARRAY" + f.subquery(x.Query, ind)
		}
		return "ARRAY[" + f.exprList(x.Items, ind) + "]"
	case *MapExpr:
		if x.Query != nil {
			return "MAP" + f.subquery(x.Query, ind)
		}
		return "MAP[" + f.exprList(x.Items, ind) + "]"
	case *ParenExpr:
		return "(" + f.expr(x.X, ind) + ")"
	case *IndexExpr:
		return f.sub(x.X, precUnary+1, ind) + "[" + f.expr(x.Index, ind) + "]"
	case *FieldExpr:
		return f.sub(x.X, precUnary+1, ind) + "." + x.Field.String()
	case *GroupingSets:
		return "GROUPING SETS (" + f.exprList(x.Sets, ind) + ")"
	case *Rollup:
		return "ROLLUP (" + f.exprList(x.Items, ind) + ")"
	case *Cube:
		return "CUBE (" + f.exprList(x.Items, ind) + ")"
	}
	return ""
}

// binary renders a chain of left-associated operators of one precedence
// (a + b + c ...) in one pass: rendering it recursively would copy the
// growing left side at every step.
func (f exprFormatter) binary(x *BinaryExpr, ind int) string {
	p := exprPrec(x)
	var chain []*BinaryExpr
	var base Expr = x
	for {
		b, ok := base.(*BinaryExpr)
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
		if p == precCmp {
			rmin = precConcat
		}
		sb.WriteByte(' ')
		sb.WriteString(b.Op)
		sb.WriteByte(' ')
		sb.WriteString(f.sub(b.R, rmin, ind))
	}
	return sb.String()
}

func (f exprFormatter) funcCall(x *FuncCall, ind int) string {
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

func (f exprFormatter) jsonCall(x *JSONCallExpr, ind int) string {
	var parts []string
	for _, a := range x.Args {
		parts = append(parts, f.expr(a, ind))
	}
	for _, e := range x.Entries {
		k := f.sub(e.Key, precConcat, ind)
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
		s += " RETURNING " + typeString(x.Returning)
	}
	for _, c := range x.Clauses {
		text := c.Text
		if c.Default != nil {
			text = strings.Replace(text, "DEFAULT", "DEFAULT "+f.sub(c.Default, precConcat, ind), 1)
		}
		s += " " + text
	}
	return s + ")"
}

func (f exprFormatter) hints(hs []*Hint) string {
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

func (f exprFormatter) orderItems(items []*OrderItem, ind int) string {
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

func (f exprFormatter) windowSpec(w *WindowSpec, ind int) string {
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

func (f exprFormatter) frameBound(b *FrameBound, ind int) string {
	if b.Offset != nil {
		return f.sub(b.Offset, precConcat, ind) + " " + b.Kind
	}
	return b.Kind
}

func exprPrec(e Expr) int {
	switch x := e.(type) {
	case *BinaryExpr:
		switch x.Op {
		case "OR":
			return precOr
		case "AND":
			return precAnd
		case "||":
			return precConcat
		case "+", "-":
			return precAdd
		case "*", "/", "%":
			return precMul
		}
		return precCmp
	case *UnaryExpr:
		if x.Op == "NOT" {
			return precNot
		}
		return precUnary
	case *IsExpr, *IsDistinctExpr, *InExpr, *BetweenExpr, *LikeExpr, *QuantifiedExpr:
		return precCmp
	}
	return precUnary + 1
}

func qualifierString(q *IntervalQualifier) string {
	if q == nil {
		return ""
	}
	s := q.From + intParams(q.FromParams)
	if q.To != "" {
		s += " TO " + q.To + intParams(q.ToParams)
	}
	return s
}

func intParams(ps []int) string {
	if len(ps) == 0 {
		return ""
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = strconv.Itoa(p)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func typeString(t *DataType) string {
	if t == nil {
		return ""
	}
	var s string
	switch {
	case t.UserType != nil:
		s = qname(t.UserType)
	case t.Postfix:
		s = typeString(t.Elem) + " " + t.Name
	case t.Name == "ARRAY" || t.Name == "MULTISET":
		s = t.Name + "<" + typeString(t.Elem) + ">"
	case t.Name == "MAP":
		s = "MAP<" + typeString(t.Key) + ", " + typeString(t.Value) + ">"
	case t.Name == "ROW":
		fields := make([]string, len(t.Fields))
		for i, fd := range t.Fields {
			fields[i] = fd.Name.String() + " " + typeString(fd.Type)
			if fd.Comment != nil {
				fields[i] += " " + quoteString(fd.Comment.Value)
			}
		}
		switch {
		case t.Parens:
			s = "ROW(" + strings.Join(fields, ", ") + ")"
		case len(fields) == 0:
			s = "ROW<>"
		default:
			s = "ROW<" + strings.Join(fields, ", ") + ">"
		}
	case t.Name == "STRUCTURED":
		fields := []string{quoteString(t.StructClass.Value)}
		for _, fd := range t.Fields {
			field := fd.Name.String() + " " + typeString(fd.Type)
			if fd.Comment != nil {
				field += " " + quoteString(fd.Comment.Value)
			}
			fields = append(fields, field)
		}
		s = "STRUCTURED<" + strings.Join(fields, ", ") + ">"
	case t.Name == "RAW":
		s = "RAW(" + quoteString(t.RawClass.Value)
		if t.RawSnapshot != nil {
			s += ", " + quoteString(t.RawSnapshot.Value)
		}
		s += ")"
	case t.Name == "INTERVAL":
		s = "INTERVAL " + qualifierString(t.Interval)
	default:
		s = t.Name + intParams(t.Params)
		if t.Zone != "" {
			s += " " + t.Zone
		}
	}
	if t.NotNull {
		s += " NOT NULL"
	} else if t.Null {
		s += " NULL"
	}
	return s
}

func qname(q *QualifiedName) string { return q.String() }

func identPath(ids []*Ident) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id.String()
	}
	return strings.Join(parts, ".")
}

func identList(ids []*Ident) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id.String()
	}
	return strings.Join(parts, ", ")
}

func stringList(ss []*StringLit) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = quoteString(s.Value)
	}
	return strings.Join(parts, ", ")
}
