package format

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// queryFormatter lays out queries: WITH, SELECT and its clauses, set
// operations, VALUES, FROM with its joins, and MATCH_RECOGNIZE.
type queryFormatter struct {
	*printer
	exprs exprFormatter
}

func (f queryFormatter) query(q *ast.Query, ind int) {
	if q.With != nil {
		for i, c := range q.With.CTEs {
			line := ""
			if i == 0 {
				line = "WITH " + kw(q.With.Recursive, "RECURSIVE ")
			} else {
				line = "), "
			}
			line += c.Name.String()
			if len(c.Columns) > 0 {
				line += " (" + identList(c.Columns) + ")"
			}
			line += " AS ("
			f.emit(c.Pos, ind, line)
			f.query(c.Query, ind+1)
		}
		f.emit(ast.Pos{}, ind, ")")
	}
	f.body(q.Body, ind)
	if len(q.OrderBy) > 0 {
		f.emit(q.OrderBy[0].Pos, ind, "ORDER BY "+f.exprs.orderItems(q.OrderBy, ind))
	}
	if q.Limit != nil {
		f.emit(q.Limit.Range().Pos, ind, "LIMIT "+f.exprs.expr(q.Limit, ind))
	}
	if q.Offset != nil {
		f.emit(q.Offset.Range().Pos, ind, "OFFSET "+f.exprs.expr(q.Offset, ind)+" ROWS")
	}
	if q.Fetch != nil {
		f.emit(q.Fetch.Range().Pos, ind, "FETCH FIRST "+f.exprs.expr(q.Fetch, ind)+" ROWS ONLY")
	}
}

func (f queryFormatter) body(b ast.QueryBody, ind int) {
	switch x := b.(type) {
	case *ast.Select:
		f.selectBlock(x, ind)
	case *ast.SetOp:
		f.body(x.L, ind)
		line := x.Op + kw(x.All, " ALL") + kw(x.Distinct, " DISTINCT")
		f.emit(ast.Pos{}, ind, line)
		f.body(x.R, ind)
	case *ast.Values:
		rows := make([]string, len(x.Rows))
		for i, r := range x.Rows {
			rows[i] = f.exprs.expr(r, ind+1)
		}
		if len(rows) == 1 {
			f.emit(x.Pos, ind, "VALUES "+rows[0])
			return
		}
		f.emit(x.Pos, ind, "VALUES")
		for i, r := range rows {
			if i < len(rows)-1 {
				r += ","
			}
			f.emitNode(x.Rows[i].Range(), ind+1, r)
		}
	case *ast.ParenQuery:
		f.emit(x.Pos, ind, "(")
		f.query(x.Query, ind+1)
		f.emit(ast.Pos{}, ind, ")")
	}
}

func (f queryFormatter) selectBlock(s *ast.Select, ind int) {
	head := "SELECT"
	if len(s.Hints) > 0 {
		head += " " + f.exprs.hints(s.Hints)
	}
	if s.Distinct {
		head += " DISTINCT"
	} else if s.All {
		head += " ALL"
	}
	f.flushBefore(s.Pos.Offset, ind)
	items := make([]string, len(s.Items))
	// Comments anywhere before the next clause put the items on lines of
	// their own, so each comment stays next to its item.
	listEnd := s.End
	if s.From != nil {
		listEnd = s.From.Range().Pos
	} else if s.Where != nil {
		listEnd = s.Where.Range().Pos
	}
	oneLine := !f.hasCommentsIn(ast.Span{Pos: s.Pos, End: listEnd})
	total := len(head)
	for i, it := range s.Items {
		items[i] = f.exprs.expr(it.Expr, ind+1)
		if it.Alias != nil {
			items[i] += " AS " + it.Alias.String()
		}
		total += len(items[i]) + 2
		if strings.Contains(items[i], "\n") {
			oneLine = false
		}
	}
	if oneLine && ind*2+total <= lineWidth {
		f.emit(s.Pos, ind, head+" "+strings.Join(items, ", "))
	} else {
		f.emit(s.Pos, ind, head)
		for i, it := range items {
			if i < len(items)-1 {
				it += ","
			}
			f.emitNode(s.Items[i].Span, ind+1, it)
		}
	}
	if s.From != nil {
		f.from(s.From, ind)
	}
	if s.Where != nil {
		f.condition("WHERE", s.Where, ind)
	}
	if len(s.GroupBy) > 0 {
		f.emit(s.GroupBy[0].Range().Pos, ind, "GROUP BY "+f.exprs.exprList(s.GroupBy, ind))
	}
	if s.Having != nil {
		f.condition("HAVING", s.Having, ind)
	}
	if len(s.Windows) > 0 {
		ws := make([]string, len(s.Windows))
		for i, w := range s.Windows {
			ws[i] = w.Name.String() + " AS " + f.exprs.windowSpec(w.Spec, ind)
		}
		f.emit(s.Windows[0].Pos, ind, "WINDOW "+strings.Join(ws, ", "))
	}
}

// condition writes WHERE/HAVING cond, breaking a long AND chain into one
// conjunct per line. Each conjunct is rendered once: rendering twice would
// be exponential in the nesting of subqueries, and would place comments
// twice.
func (f queryFormatter) condition(word string, cond ast.Expr, ind int) {
	f.flushBefore(cond.Range().Pos.Offset, ind)
	comments := f.hasCommentsIn(cond.Range())
	var conj []ast.Expr
	var flatten func(e ast.Expr)
	flatten = func(e ast.Expr) {
		if b, ok := e.(*ast.BinaryExpr); ok && b.Op == "AND" {
			flatten(b.L)
			flatten(b.R)
			return
		}
		conj = append(conj, e)
	}
	flatten(cond)
	parts := make([]string, len(conj))
	multi := false
	for i, c := range conj {
		in := ind + 1
		if i == 0 {
			in = ind
		}
		parts[i] = f.exprs.sub(c, ast.PrecAnd+1, in)
		multi = multi || strings.Contains(parts[i], "\n")
	}
	one := strings.Join(parts, " AND ")
	if len(conj) == 1 || !comments && !multi && ind*2+len(word)+1+len(one) <= lineWidth {
		f.emit(cond.Range().Pos, ind, word+" "+one)
		return
	}
	for i, c := range conj {
		if i == 0 {
			f.emit(c.Range().Pos, ind, word+" "+parts[i])
		} else {
			f.emit(c.Range().Pos, ind+1, "AND "+parts[i])
		}
	}
}

func (f queryFormatter) from(t ast.TableExpr, ind int) {
	var chain []*ast.Join
	base := t
	for {
		j, ok := base.(*ast.Join)
		if !ok {
			break
		}
		chain = append([]*ast.Join{j}, chain...)
		base = j.L
	}
	anchor := base.Range().Pos
	f.flushBefore(anchor.Offset, ind)
	line := "FROM " + f.table(base, ind)
	for _, j := range chain {
		if j.Kind == ast.JoinComma {
			line += ", " + f.table(j.R, ind)
			continue
		}
		f.emit(anchor, ind, line)
		anchor = j.R.Range().Pos
		line = kw(j.Natural, "NATURAL ") + j.Kind.String() + " " + f.table(j.R, ind)
		if len(j.Using) > 0 {
			line += " USING (" + identList(j.Using) + ")"
		}
		if j.On != nil {
			f.emit(anchor, ind, line)
			on := f.exprs.expr(j.On, ind+1)
			anchor = j.On.Range().Pos
			line = "  ON " + on
		}
	}
	f.emit(anchor, ind, line)
}

// table renders a table expression inline (a subquery spans lines).
func (f queryFormatter) table(t ast.TableExpr, ind int) string {
	switch x := t.(type) {
	case *ast.TableRef:
		s := qname(x.Name)
		if len(x.Hints) > 0 {
			s += " " + f.exprs.hints(x.Hints)
		}
		if x.SystemTime != nil {
			s += " FOR SYSTEM_TIME AS OF " + f.exprs.expr(x.SystemTime, ind)
		}
		return s + aliasString(x.Alias)
	case *ast.DerivedTable:
		inner := f.capture(func() { f.query(x.Query, ind+1) })
		return kw(x.Lateral, "LATERAL ") + "(\n" + inner + "\n" + indent(ind) + ")" + aliasString(x.Alias)
	case *ast.TableFunc:
		call := f.exprs.expr(x.Call, ind)
		if x.Wrapped {
			call = "TABLE(" + call + ")"
		}
		return kw(x.Lateral, "LATERAL ") + call + aliasString(x.Alias)
	case *ast.Unnest:
		return "UNNEST(" + f.exprs.exprList(x.Args, ind) + ")" + kw(x.WithOrdinality, " WITH ORDINALITY") + aliasString(x.Alias)
	case *ast.Join:
		s := f.table(x.L, ind)
		if x.Kind == ast.JoinComma {
			return s + ", " + f.table(x.R, ind)
		}
		s += " " + kw(x.Natural, "NATURAL ") + x.Kind.String() + " " + f.table(x.R, ind)
		if x.On != nil {
			s += " ON " + f.exprs.expr(x.On, ind)
		}
		if len(x.Using) > 0 {
			s += " USING (" + identList(x.Using) + ")"
		}
		return s
	case *ast.ParenTable:
		return "(" + f.table(x.Table, ind) + ")"
	case *ast.MatchRecognize:
		return f.matchRecognize(x, ind)
	}
	return ""
}

func (f queryFormatter) matchRecognize(m *ast.MatchRecognize, ind int) string {
	in := indent(ind + 1)
	var b strings.Builder
	b.WriteString(f.table(m.Input, ind))
	b.WriteString("\n" + in + "MATCH_RECOGNIZE (")
	in2 := indent(ind + 2)
	in3 := indent(ind + 3)
	if len(m.PartitionBy) > 0 {
		b.WriteString("\n" + in2 + "PARTITION BY " + f.exprs.exprList(m.PartitionBy, ind+2))
	}
	if len(m.OrderBy) > 0 {
		b.WriteString("\n" + in2 + "ORDER BY " + f.exprs.orderItems(m.OrderBy, ind+2))
	}
	if len(m.Measures) > 0 {
		b.WriteString("\n" + in2 + "MEASURES")
		for i, it := range m.Measures {
			b.WriteString("\n" + in3 + f.exprs.expr(it.Expr, ind+3) + " AS " + it.Alias.String())
			if i < len(m.Measures)-1 {
				b.WriteByte(',')
			}
		}
	}
	if m.RowsPerMatch != "" {
		b.WriteString("\n" + in2 + m.RowsPerMatch)
	}
	if m.AfterMatch != nil {
		b.WriteString("\n" + in2 + "AFTER MATCH SKIP " + m.AfterMatch.Kind)
		if m.AfterMatch.Var != nil {
			b.WriteString(" " + m.AfterMatch.Var.String())
		}
	}
	b.WriteString("\n" + in2 + "PATTERN (" + kw(m.StrictStart, "^ ") + patternString(m.Pattern) + kw(m.StrictEnd, " $") + ")")
	if m.Within != nil {
		b.WriteString(" WITHIN " + f.exprs.expr(m.Within, ind+2))
	}
	if len(m.Subsets) > 0 {
		subs := make([]string, len(m.Subsets))
		for i, s := range m.Subsets {
			subs[i] = s.Name.String() + " = (" + identList(s.Vars) + ")"
		}
		b.WriteString("\n" + in2 + "SUBSET " + strings.Join(subs, ", "))
	}
	b.WriteString("\n" + in2 + "DEFINE")
	for i, d := range m.Define {
		b.WriteString("\n" + in3 + d.Alias.String() + " AS " + f.exprs.expr(d.Expr, ind+3))
		if i < len(m.Define)-1 {
			b.WriteByte(',')
		}
	}
	b.WriteString("\n" + in + ")")
	b.WriteString(aliasString(m.Alias))
	return b.String()
}

func aliasString(a *ast.Alias) string {
	if a == nil {
		return ""
	}
	s := " AS " + a.Name.String()
	if len(a.Columns) > 0 {
		s += " (" + identList(a.Columns) + ")"
	}
	return s
}

func patternString(t ast.PatternTerm) string {
	switch x := t.(type) {
	case *ast.PatternVar:
		return x.Name.String() + x.Quant
	case *ast.PatternSeq:
		parts := make([]string, len(x.Items))
		for i, it := range x.Items {
			parts[i] = patternString(it)
		}
		return strings.Join(parts, " ")
	case *ast.PatternAlt:
		parts := make([]string, len(x.Alts))
		for i, it := range x.Alts {
			parts[i] = patternString(it)
		}
		return strings.Join(parts, " | ")
	case *ast.PatternGroup:
		return "(" + patternString(x.Inner) + ")" + x.Quant
	case *ast.PatternPermute:
		parts := make([]string, len(x.Items))
		for i, it := range x.Items {
			parts[i] = patternString(it)
		}
		return "PERMUTE(" + strings.Join(parts, ", ") + ")"
	case *ast.PatternExclude:
		return "{- " + patternString(x.Inner) + " -}"
	}
	return ""
}
