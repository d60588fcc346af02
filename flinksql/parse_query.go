package flinksql

import (
	"github.com/palink/palink/flinksql/ast"
)

// isQueryStart reports whether a query starts here.
func (p *parser) isQueryStart() bool {
	p.probeWords("SELECT", "WITH", "VALUES")
	switch p.up[p.pos] {
	case "SELECT", "WITH", "VALUES":
		return true
	}
	return p.is(LParen) && p.parenLeadsToQuery()
}

// parenLeadsToQuery reports whether the parentheses opening here hold a
// query: after the run of '(' comes SELECT, WITH or VALUES.
func (p *parser) parenLeadsToQuery() bool {
	i := p.pos
	for i < len(p.toks) && p.toks[i].Kind == LParen {
		i++
	}
	if i >= len(p.toks) {
		return false
	}
	switch p.up[i] {
	case "SELECT", "WITH", "VALUES":
		return true
	}
	return false
}

// parseQuery reads [WITH ...] body [ORDER BY] [LIMIT] [OFFSET] [FETCH].
func (p *parser) parseQuery() *ast.Query {
	start := p.tok().Pos
	q := &ast.Query{}
	if !p.enter() {
		q.Body = &ast.Values{}
		return q
	}
	defer p.leave()
	if p.isKw("WITH") {
		q.With = p.parseWith()
	}
	q.Body = p.parseSetExpr(0)
	if p.acceptKws("ORDER", "BY") {
		q.OrderBy = p.parseOrderItems()
	}
	if p.acceptKw("LIMIT") {
		q.Limit = p.parseExprPrec(ast.PrecAdd)
	}
	if p.acceptKw("OFFSET") {
		q.Offset = p.parseExprPrec(ast.PrecAdd)
		if !p.acceptKw("ROWS") {
			p.acceptKw("ROW")
		}
	}
	if p.acceptKw("FETCH") {
		if !p.acceptKw("FIRST") {
			p.expectKw("NEXT")
		}
		if p.isKw("ROW") || p.isKw("ROWS") {
			q.Fetch = &ast.NumberLit{Span: ast.Span{Pos: p.tok().Pos, End: p.tok().Pos}, Text: "1"}
		} else {
			q.Fetch = p.parseExprPrec(ast.PrecAdd)
		}
		if !p.acceptKw("ROWS") {
			p.expectKw("ROW")
		}
		p.expectKw("ONLY")
	}
	q.Span = p.span(start)
	return q
}

func (p *parser) parseWith() *ast.With {
	start := p.next().Pos
	w := &ast.With{Recursive: p.acceptKw("RECURSIVE")}
	for !p.failed {
		cstart := p.tok().Pos
		c := &ast.CTE{Name: p.parseIdent("a name for the WITH query")}
		if p.is(LParen) {
			c.Columns = p.parseParenIdentList("a column name")
		}
		p.expectKw("AS")
		p.expect(LParen)
		c.Query = p.parseQuery()
		p.expect(RParen)
		c.Span = p.span(cstart)
		w.CTEs = append(w.CTEs, c)
		if !p.accept(Comma) {
			break
		}
	}
	w.Span = p.span(start)
	return w
}

// setOpPrec gives INTERSECT a tighter binding than UNION, EXCEPT and MINUS,
// as in standard SQL.
func (p *parser) setOpPrec() (string, int) {
	p.probeWords("UNION", "EXCEPT", "MINUS", "INTERSECT")
	switch w := p.up[p.pos]; w {
	case "UNION", "EXCEPT", "MINUS":
		return w, 1
	case "INTERSECT":
		return w, 2
	}
	return "", 0
}

func (p *parser) parseSetExpr(minPrec int) ast.QueryBody {
	l := p.parseQueryPrimary()
	for !p.failed {
		op, prec := p.setOpPrec()
		if prec == 0 || prec <= minPrec {
			break
		}
		p.next()
		so := &ast.SetOp{Op: op}
		switch {
		case p.acceptKw("ALL"):
			so.All = true
		case p.acceptKw("DISTINCT"):
			so.Distinct = true
		}
		so.L = l
		so.R = p.parseSetExpr(prec)
		so.Span = ast.Span{Pos: l.Range().Pos, End: p.lastEnd}
		l = so
	}
	return l
}

func (p *parser) parseQueryPrimary() ast.QueryBody {
	start := p.tok().Pos
	switch {
	case p.isKw("SELECT"):
		return p.parseSelect()
	case p.isKw("VALUES"):
		p.next()
		v := &ast.Values{}
		for !p.failed {
			v.Rows = append(v.Rows, p.parseExpr())
			if !p.accept(Comma) {
				break
			}
		}
		v.Span = p.span(start)
		return v
	case p.is(LParen):
		p.next()
		q := p.parseQuery()
		p.expect(RParen)
		return &ast.ParenQuery{Span: p.span(start), Query: q}
	}
	p.fail(p.tok(), "expected SELECT or VALUES, found "+describe(p.tok()), "")
	return &ast.Values{Span: p.span(start)}
}

func (p *parser) parseSelect() *ast.Select {
	start := p.next().Pos
	s := &ast.Select{}
	s.Hints = p.parseHints()
	switch {
	case p.acceptKw("DISTINCT"):
		s.Distinct = true
	case p.acceptKw("ALL"):
		s.All = true
	}
	for !p.failed {
		s.Items = append(s.Items, p.parseSelectItem())
		if !p.accept(Comma) {
			break
		}
	}
	if p.acceptKw("FROM") {
		s.From = p.parseFrom()
	}
	if p.acceptKw("WHERE") {
		s.Where = p.parseExpr()
	}
	if p.acceptKws("GROUP", "BY") {
		for !p.failed {
			s.GroupBy = append(s.GroupBy, p.parseGroupingElement())
			if !p.accept(Comma) {
				break
			}
		}
	}
	if p.acceptKw("HAVING") {
		s.Having = p.parseExpr()
	}
	if p.acceptKw("WINDOW") {
		for !p.failed {
			wstart := p.tok().Pos
			nw := &ast.NamedWindow{Name: p.parseIdent("a window name")}
			p.expectKw("AS")
			nw.Spec = p.parseWindowSpec()
			nw.Span = p.span(wstart)
			s.Windows = append(s.Windows, nw)
			if !p.accept(Comma) {
				break
			}
		}
	}
	s.Span = p.span(start)
	return s
}

func (p *parser) parseSelectItem() *ast.SelectItem {
	start := p.tok().Pos
	it := &ast.SelectItem{}
	if p.is(Asterisk) {
		t := p.next()
		it.Expr = &ast.Star{Span: ast.Span{Pos: t.Pos, End: t.End}}
	} else {
		it.Expr = p.parseExpr()
	}
	if _, star := it.Expr.(*ast.Star); !star {
		if a := p.parseOptionalAlias(false); a != nil {
			it.Alias = a.Name
		}
	}
	it.Span = p.span(start)
	return it
}

func (p *parser) parseGroupingElement() ast.Expr {
	start := p.tok().Pos
	switch {
	case p.acceptKws("GROUPING", "SETS"):
		g := &ast.GroupingSets{}
		p.expect(LParen)
		for !p.failed {
			g.Sets = append(g.Sets, p.parseGroupingElement())
			if !p.accept(Comma) {
				break
			}
		}
		p.expect(RParen)
		g.Span = p.span(start)
		return g
	case p.isKw("ROLLUP") && p.peek(1).Kind == LParen:
		p.next()
		r := &ast.Rollup{Items: p.parseParenExprList()}
		r.Span = p.span(start)
		return r
	case p.isKw("CUBE") && p.peek(1).Kind == LParen:
		p.next()
		c := &ast.Cube{Items: p.parseParenExprList()}
		c.Span = p.span(start)
		return c
	case p.is(LParen) && p.peek(1).Kind == RParen:
		p.next()
		p.next()
		return &ast.RowExpr{Span: p.span(start)}
	}
	return p.parseExpr()
}

func (p *parser) parseParenExprList() []ast.Expr {
	var list []ast.Expr
	p.expect(LParen)
	for !p.failed && !p.is(RParen) {
		list = append(list, p.parseExpr())
		if !p.accept(Comma) {
			break
		}
	}
	p.expect(RParen)
	return list
}

func (p *parser) parseOrderItems() []*ast.OrderItem {
	var items []*ast.OrderItem
	for !p.failed {
		items = append(items, p.parseOrderItem())
		if !p.accept(Comma) {
			break
		}
	}
	return items
}

func (p *parser) parseOrderItem() *ast.OrderItem {
	start := p.tok().Pos
	o := &ast.OrderItem{Expr: p.parseExpr()}
	switch {
	case p.acceptKw("ASC"):
		o.Dir = "ASC"
	case p.acceptKw("DESC"):
		o.Dir = "DESC"
	}
	if p.acceptKw("NULLS") {
		switch {
		case p.acceptKw("FIRST"):
			o.Nulls = "FIRST"
		case p.acceptKw("LAST"):
			o.Nulls = "LAST"
		default:
			p.fail(p.tok(), "expected FIRST or LAST after NULLS, found "+describe(p.tok()), "")
		}
	}
	o.Span = p.span(start)
	return o
}

// parseWindowSpec reads ( [base] [PARTITION BY] [ORDER BY] [frame] ).
func (p *parser) parseWindowSpec() *ast.WindowSpec {
	start := p.tok().Pos
	w := &ast.WindowSpec{}
	p.expect(LParen)
	if p.isNameToken() && !p.isKw("PARTITION") && !p.isKw("ORDER") && !p.isKw("ROWS") && !p.isKw("RANGE") {
		w.Ref = p.parseIdent("a window name")
	}
	if p.acceptKws("PARTITION", "BY") {
		for !p.failed {
			w.PartitionBy = append(w.PartitionBy, p.parseExpr())
			if !p.accept(Comma) {
				break
			}
		}
	}
	if p.acceptKws("ORDER", "BY") {
		w.OrderBy = p.parseOrderItems()
	}
	if p.isKw("ROWS") || p.isKw("RANGE") {
		fstart := p.tok().Pos
		f := &ast.WindowFrame{Unit: p.up[p.pos]}
		p.next()
		if p.acceptKw("BETWEEN") {
			f.Start = p.parseFrameBound()
			p.expectKw("AND")
			f.End = p.parseFrameBound()
		} else {
			f.Start = p.parseFrameBound()
		}
		f.Span = p.span(fstart)
		w.Frame = f
	}
	p.expect(RParen)
	w.Span = p.span(start)
	return w
}

func (p *parser) parseFrameBound() *ast.FrameBound {
	start := p.tok().Pos
	b := &ast.FrameBound{}
	switch {
	case p.acceptKws("UNBOUNDED", "PRECEDING"):
		b.Kind = "UNBOUNDED PRECEDING"
	case p.acceptKws("UNBOUNDED", "FOLLOWING"):
		b.Kind = "UNBOUNDED FOLLOWING"
	case p.acceptKws("CURRENT", "ROW"):
		b.Kind = "CURRENT ROW"
	default:
		b.Offset = p.parseExprPrec(ast.PrecConcat)
		switch {
		case p.acceptKw("PRECEDING"):
			b.Kind = "PRECEDING"
		case p.acceptKw("FOLLOWING"):
			b.Kind = "FOLLOWING"
		default:
			p.fail(p.tok(), "expected PRECEDING or FOLLOWING, found "+describe(p.tok()), "")
		}
	}
	b.Span = p.span(start)
	return b
}
