package flinksql

import "strings"

// isQueryStart reports whether a query starts here.
func (p *parser) isQueryStart() bool {
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
func (p *parser) parseQuery() *Query {
	start := p.tok().Pos
	q := &Query{}
	if !p.enter() {
		q.Body = &Values{}
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
		q.Limit = p.parseExprPrec(precAdd)
	}
	if p.acceptKw("OFFSET") {
		q.Offset = p.parseExprPrec(precAdd)
		if !p.acceptKw("ROWS") {
			p.acceptKw("ROW")
		}
	}
	if p.acceptKw("FETCH") {
		if !p.acceptKw("FIRST") {
			p.expectKw("NEXT")
		}
		if p.isKw("ROW") || p.isKw("ROWS") {
			q.Fetch = &NumberLit{Span: Span{p.tok().Pos, p.tok().Pos}, Text: "1"}
		} else {
			q.Fetch = p.parseExprPrec(precAdd)
		}
		if !p.acceptKw("ROWS") {
			p.expectKw("ROW")
		}
		p.expectKw("ONLY")
	}
	q.Span = p.span(start)
	return q
}

func (p *parser) parseWith() *With {
	start := p.next().Pos
	w := &With{Recursive: p.acceptKw("RECURSIVE")}
	for !p.failed {
		cstart := p.tok().Pos
		c := &CTE{Name: p.parseIdent("a name for the WITH query")}
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
	switch w := p.up[p.pos]; w {
	case "UNION", "EXCEPT", "MINUS":
		return w, 1
	case "INTERSECT":
		return w, 2
	}
	return "", 0
}

func (p *parser) parseSetExpr(minPrec int) QueryBody {
	l := p.parseQueryPrimary()
	for !p.failed {
		op, prec := p.setOpPrec()
		if prec == 0 || prec <= minPrec {
			break
		}
		p.next()
		so := &SetOp{Op: op}
		switch {
		case p.acceptKw("ALL"):
			so.All = true
		case p.acceptKw("DISTINCT"):
			so.Distinct = true
		}
		so.L = l
		so.R = p.parseSetExpr(prec)
		so.Span = Span{l.Range().Pos, p.lastEnd}
		l = so
	}
	return l
}

func (p *parser) parseQueryPrimary() QueryBody {
	start := p.tok().Pos
	switch {
	case p.isKw("SELECT"):
		return p.parseSelect()
	case p.isKw("VALUES"):
		p.next()
		v := &Values{}
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
		return &ParenQuery{Span: p.span(start), Query: q}
	}
	p.fail(p.tok(), "expected SELECT or VALUES, found "+describe(p.tok()), "")
	return &Values{Span: p.span(start)}
}

func (p *parser) parseSelect() *Select {
	start := p.next().Pos
	s := &Select{}
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
			nw := &NamedWindow{Name: p.parseIdent("a window name")}
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

func (p *parser) parseSelectItem() *SelectItem {
	start := p.tok().Pos
	it := &SelectItem{}
	if p.is(Asterisk) {
		t := p.next()
		it.Expr = &Star{Span: Span{t.Pos, t.End}}
	} else {
		it.Expr = p.parseExpr()
	}
	if _, star := it.Expr.(*Star); !star {
		if a := p.parseOptionalAlias(false); a != nil {
			it.Alias = a.Name
		}
	}
	it.Span = p.span(start)
	return it
}

func (p *parser) parseGroupingElement() Expr {
	start := p.tok().Pos
	switch {
	case p.acceptKws("GROUPING", "SETS"):
		g := &GroupingSets{}
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
		r := &Rollup{Items: p.parseParenExprList()}
		r.Span = p.span(start)
		return r
	case p.isKw("CUBE") && p.peek(1).Kind == LParen:
		p.next()
		c := &Cube{Items: p.parseParenExprList()}
		c.Span = p.span(start)
		return c
	case p.is(LParen) && p.peek(1).Kind == RParen:
		p.next()
		p.next()
		return &RowExpr{Span: p.span(start)}
	}
	return p.parseExpr()
}

func (p *parser) parseParenExprList() []Expr {
	var list []Expr
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

func (p *parser) parseOrderItems() []*OrderItem {
	var items []*OrderItem
	for !p.failed {
		items = append(items, p.parseOrderItem())
		if !p.accept(Comma) {
			break
		}
	}
	return items
}

func (p *parser) parseOrderItem() *OrderItem {
	start := p.tok().Pos
	o := &OrderItem{Expr: p.parseExpr()}
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
func (p *parser) parseWindowSpec() *WindowSpec {
	start := p.tok().Pos
	w := &WindowSpec{}
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
		f := &WindowFrame{Unit: p.up[p.pos]}
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

func (p *parser) parseFrameBound() *FrameBound {
	start := p.tok().Pos
	b := &FrameBound{}
	switch {
	case p.acceptKws("UNBOUNDED", "PRECEDING"):
		b.Kind = "UNBOUNDED PRECEDING"
	case p.acceptKws("UNBOUNDED", "FOLLOWING"):
		b.Kind = "UNBOUNDED FOLLOWING"
	case p.acceptKws("CURRENT", "ROW"):
		b.Kind = "CURRENT ROW"
	default:
		b.Offset = p.parseExprPrec(precConcat)
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

// ---- FROM ----

func (p *parser) parseFrom() TableExpr {
	l := p.parseTableRef()
	for !p.failed {
		start := l.Range().Pos
		j := &Join{L: l}
		switch {
		case p.accept(Comma):
			j.Kind = JoinComma
		case p.acceptKws("CROSS", "JOIN"):
			j.Kind = JoinCross
		default:
			j.Natural = p.acceptKw("NATURAL")
			switch {
			case p.acceptKw("JOIN"):
				j.Kind = JoinInner
			case p.acceptKws("INNER", "JOIN"):
				j.Kind = JoinInner
			case p.acceptKw("LEFT"):
				j.Kind = JoinLeft
				p.acceptKw("OUTER")
				p.expectKw("JOIN")
			case p.acceptKw("RIGHT"):
				j.Kind = JoinRight
				p.acceptKw("OUTER")
				p.expectKw("JOIN")
			case p.acceptKw("FULL"):
				j.Kind = JoinFull
				p.acceptKw("OUTER")
				p.expectKw("JOIN")
			default:
				if j.Natural {
					p.fail(p.tok(), "expected JOIN after NATURAL, found "+describe(p.tok()), "")
				}
				return l
			}
		}
		j.R = p.parseTableRef()
		if j.Kind != JoinComma && j.Kind != JoinCross && !j.Natural {
			switch {
			case p.acceptKw("ON"):
				j.On = p.parseExpr()
			case p.acceptKw("USING"):
				j.Using = p.parseParenIdentList("a join column")
			case j.Kind == JoinInner && isUnnestOrLateral(j.R):
				// JOIN UNNEST(...) / JOIN LATERAL TABLE(...) need no condition
				// in Flink when written ON TRUE; accept its absence too.
			default:
				p.fail(p.tok(), "expected ON or USING after the joined table, found "+describe(p.tok()), "write ON <condition>")
			}
		}
		j.Span = Span{start, p.lastEnd}
		l = j
	}
	return l
}

func isUnnestOrLateral(t TableExpr) bool {
	switch x := t.(type) {
	case *Unnest:
		return true
	case *TableFunc:
		return x.Lateral
	}
	return false
}

// parseTableRef reads one table primary with its suffixes.
func (p *parser) parseTableRef() TableExpr {
	start := p.tok().Pos
	if !p.enter() {
		return &TableRef{Name: &QualifiedName{}}
	}
	defer p.leave()
	var t TableExpr
	lateral := p.acceptKw("LATERAL")
	switch {
	case p.isKw("TABLE") && p.peek(1).Kind == LParen:
		p.next()
		p.next()
		tf := &TableFunc{Lateral: lateral, Wrapped: true, Call: p.parseExpr()}
		p.expect(RParen)
		tf.Span = p.span(start)
		return p.tableSuffix(tf, start)
	case p.isKw("UNNEST") && p.peek(1).Kind == LParen:
		p.next()
		u := &Unnest{Args: p.parseParenExprList()}
		u.WithOrdinality = p.acceptKws("WITH", "ORDINALITY")
		u.Alias = p.parseOptionalAlias(true)
		u.Span = p.span(start)
		return u
	case p.is(LParen) && p.parenLeadsToQuery():
		p.next()
		d := &DerivedTable{Lateral: lateral, Query: p.parseQuery()}
		p.expect(RParen)
		t = d
		d.Span = p.span(start)
	case p.is(LParen):
		if lateral {
			p.fail(p.tok(), "expected TABLE(...) or a subquery after LATERAL", "")
		}
		p.next()
		inner := p.parseFrom()
		p.expect(RParen)
		t = &ParenTable{Span: p.span(start), Table: inner}
	default:
		if lateral {
			p.fail(p.tok(), "expected TABLE(...) or a subquery after LATERAL, found "+describe(p.tok()), "")
		}
		name := p.parseQualifiedName("a table name")
		if p.is(LParen) && !p.failed {
			// A table function called without TABLE(...), as process table
			// functions may be.
			call := p.parseCallAfterName(name)
			t = &TableFunc{Span: p.span(start), Call: call}
			break
		}
		tr := &TableRef{Name: name}
		tr.Hints = p.parseHints()
		if p.acceptKws("FOR", "SYSTEM_TIME", "AS", "OF") {
			tr.SystemTime = p.parseExprPrec(precConcat)
		}
		tr.Span = p.span(start)
		t = tr
	}
	return p.tableSuffix(t, start)
}

// tableSuffix applies MATCH_RECOGNIZE and the alias to a table primary.
func (p *parser) tableSuffix(t TableExpr, start Pos) TableExpr {
	if p.isKw("MATCH_RECOGNIZE") && p.peek(1).Kind == LParen {
		t = p.parseMatchRecognize(t, start)
	}
	alias := p.parseOptionalAlias(true)
	if alias == nil {
		return t
	}
	switch x := t.(type) {
	case *TableRef:
		x.Alias = alias
		x.Span = p.span(start)
	case *DerivedTable:
		x.Alias = alias
		x.Span = p.span(start)
	case *TableFunc:
		x.Alias = alias
		x.Span = p.span(start)
	case *MatchRecognize:
		x.Alias = alias
		x.Span = p.span(start)
	default:
		p.fail(p.toks[p.pos-1], "an alias is not allowed here", "")
	}
	return t
}

// parseHints reads zero or more /*+ ... */ blocks.
func (p *parser) parseHints() []*Hint {
	var hints []*Hint
	for !p.failed && p.is(HintStart) {
		p.next()
		for !p.failed {
			hints = append(hints, p.parseHint())
			if !p.accept(Comma) {
				break
			}
		}
		p.expect(HintEnd)
	}
	return hints
}

func (p *parser) parseHint() *Hint {
	start := p.tok().Pos
	h := &Hint{Name: p.parseIdent("a hint name")}
	if !h.Name.Quoted {
		// Hint names are case-insensitive (Calcite's hint strategy table).
		h.Name.Name = strings.ToUpper(h.Name.Name)
	}
	if p.accept(LParen) {
		h.Parens = true
		kv := p.peek(1).Kind == Eq
		for !p.failed && !p.is(RParen) {
			if kv {
				kstart := p.tok().Pos
				var key Expr
				if p.is(String) {
					key = p.parseStringLit("a hint option key")
				} else {
					key = p.parseColumnRefOnly("a hint option key")
				}
				p.expect(Eq)
				val := p.parseHintValue()
				h.KVs = append(h.KVs, &HintKV{Span: p.span(kstart), Key: key, Value: val})
			} else {
				h.Args = append(h.Args, p.parseHintValue())
			}
			if !p.accept(Comma) {
				break
			}
		}
		p.expect(RParen)
	}
	h.Span = p.span(start)
	return h
}

func (p *parser) parseHintValue() Expr {
	switch p.tok().Kind {
	case String:
		return p.parseStringLit("a hint option")
	case Integer, Decimal, Approx:
		return p.parsePrimary()
	}
	return p.parseColumnRefOnly("a hint option")
}

// parseColumnRefOnly reads a dotted name as a ColumnRef.
func (p *parser) parseColumnRefOnly(what string) Expr {
	q := p.parseQualifiedName(what)
	return &ColumnRef{Span: q.Span, Parts: q.Parts}
}

// ---- MATCH_RECOGNIZE ----

func (p *parser) parseMatchRecognize(input TableExpr, start Pos) *MatchRecognize {
	p.expectKw("MATCH_RECOGNIZE")
	p.expect(LParen)
	m := &MatchRecognize{Input: input}
	if p.acceptKws("PARTITION", "BY") {
		for !p.failed {
			m.PartitionBy = append(m.PartitionBy, p.parseExpr())
			if !p.accept(Comma) {
				break
			}
		}
	}
	if p.acceptKws("ORDER", "BY") {
		m.OrderBy = p.parseOrderItems()
	}
	if p.acceptKw("MEASURES") {
		m.Measures = p.parseAsList("a measure name")
	}
	switch {
	case p.acceptKws("ONE", "ROW", "PER", "MATCH"):
		m.RowsPerMatch = "ONE ROW PER MATCH"
	case p.acceptKws("ALL", "ROWS", "PER", "MATCH"):
		m.RowsPerMatch = "ALL ROWS PER MATCH"
		switch {
		case p.acceptKws("SHOW", "EMPTY", "MATCHES"):
			m.RowsPerMatch += " SHOW EMPTY MATCHES"
		case p.acceptKws("OMIT", "EMPTY", "MATCHES"):
			m.RowsPerMatch += " OMIT EMPTY MATCHES"
		case p.acceptKws("WITH", "UNMATCHED", "ROWS"):
			m.RowsPerMatch += " WITH UNMATCHED ROWS"
		}
	}
	if p.isKw("AFTER") {
		astart := p.next().Pos
		p.expectKws("MATCH", "SKIP")
		a := &AfterMatch{}
		switch {
		case p.acceptKws("PAST", "LAST", "ROW"):
			a.Kind = "PAST LAST ROW"
		case p.acceptKws("TO", "NEXT", "ROW"):
			a.Kind = "TO NEXT ROW"
		case p.acceptKws("TO", "FIRST"):
			a.Kind = "TO FIRST"
			a.Var = p.parseIdent("a pattern variable")
		case p.acceptKws("TO", "LAST"):
			a.Kind = "TO LAST"
			a.Var = p.parseIdent("a pattern variable")
		case p.acceptKw("TO"):
			a.Kind = "TO"
			a.Var = p.parseIdent("a pattern variable")
		default:
			p.fail(p.tok(), "expected PAST LAST ROW or TO ... after AFTER MATCH SKIP, found "+describe(p.tok()), "")
		}
		a.Span = p.span(astart)
		m.AfterMatch = a
	}
	p.expectKw("PATTERN")
	p.expect(LParen)
	m.StrictStart = p.accept(Caret)
	m.Pattern = p.parsePatternAlt()
	m.StrictEnd = p.accept(Dollar)
	p.expect(RParen)
	if p.acceptKw("WITHIN") {
		m.Within = p.parseExprPrec(precConcat)
	}
	if p.acceptKw("SUBSET") {
		for !p.failed {
			sstart := p.tok().Pos
			s := &Subset{Name: p.parseIdent("a subset name")}
			p.expect(Eq)
			s.Vars = p.parseParenIdentList("a pattern variable")
			s.Span = p.span(sstart)
			m.Subsets = append(m.Subsets, s)
			if !p.accept(Comma) {
				break
			}
		}
	}
	p.expectKw("DEFINE")
	for !p.failed {
		dstart := p.tok().Pos
		name := p.parseIdent("a pattern variable")
		p.expectKw("AS")
		cond := p.parseExpr()
		m.Define = append(m.Define, &SelectItem{Span: p.span(dstart), Expr: cond, Alias: name})
		if !p.accept(Comma) {
			break
		}
	}
	p.expect(RParen)
	m.Span = p.span(start)
	return m
}

// parseAsList reads expr AS name, ... (MEASURES).
func (p *parser) parseAsList(what string) []*SelectItem {
	var items []*SelectItem
	for !p.failed {
		start := p.tok().Pos
		e := p.parseExpr()
		p.expectKw("AS")
		items = append(items, &SelectItem{Expr: e, Alias: p.parseIdent(what), Span: p.span(start)})
		if !p.accept(Comma) {
			break
		}
	}
	return items
}

func (p *parser) parsePatternAlt() PatternTerm {
	start := p.tok().Pos
	if !p.enter() {
		return &PatternSeq{}
	}
	defer p.leave()
	first := p.parsePatternSeq()
	if !p.is(Pipe) {
		return first
	}
	alt := &PatternAlt{Alts: []PatternTerm{first}}
	for !p.failed && p.accept(Pipe) {
		alt.Alts = append(alt.Alts, p.parsePatternSeq())
	}
	alt.Span = p.span(start)
	return alt
}

func (p *parser) patternFactorStarts() bool {
	switch p.tok().Kind {
	case Word, QuotedIdent, LParen:
		return true
	case LBrace:
		return p.peek(1).Kind == Minus
	}
	return false
}

func (p *parser) parsePatternSeq() PatternTerm {
	start := p.tok().Pos
	seq := &PatternSeq{}
	for !p.failed && p.patternFactorStarts() {
		seq.Items = append(seq.Items, p.parsePatternFactor())
	}
	if len(seq.Items) == 0 {
		p.fail(p.tok(), "expected a pattern variable, found "+describe(p.tok()), "")
	}
	if len(seq.Items) == 1 {
		return seq.Items[0]
	}
	seq.Span = p.span(start)
	return seq
}

func (p *parser) parsePatternFactor() PatternTerm {
	start := p.tok().Pos
	switch {
	case p.isKw("PERMUTE") && p.peek(1).Kind == LParen:
		p.next()
		p.next()
		pm := &PatternPermute{}
		for !p.failed {
			pm.Items = append(pm.Items, p.parsePatternAlt())
			if !p.accept(Comma) {
				break
			}
		}
		p.expect(RParen)
		pm.Span = p.span(start)
		return pm
	case p.is(LParen):
		p.next()
		g := &PatternGroup{Inner: p.parsePatternAlt()}
		p.expect(RParen)
		g.Quant = p.parseQuantifier()
		g.Span = p.span(start)
		return g
	case p.is(LBrace):
		p.next()
		p.expect(Minus)
		ex := &PatternExclude{Inner: p.parsePatternAlt()}
		p.expect(Minus)
		p.expect(RBrace)
		ex.Span = p.span(start)
		return ex
	}
	v := &PatternVar{Name: p.parseIdent("a pattern variable")}
	v.Quant = p.parseQuantifier()
	v.Span = p.span(start)
	return v
}

// parseQuantifier reads *, +, ?, {n}, {n,}, {,m}, {n,m}, each optionally
// followed by ? (reluctant), and returns it normalized.
func (p *parser) parseQuantifier() string {
	q := ""
	switch {
	case p.accept(Asterisk):
		q = "*"
	case p.accept(Plus):
		q = "+"
	case p.accept(Question):
		q = "?"
	case p.is(LBrace) && p.peek(1).Kind != Minus:
		p.next()
		q = "{"
		if p.is(Integer) {
			q += p.next().Text
		}
		if p.accept(Comma) {
			q += ","
			if p.is(Integer) {
				q += p.next().Text
			}
		}
		p.expect(RBrace)
		q += "}"
		if q == "{}" || q == "{,}" {
			p.fail(p.toks[p.pos-1], "a quantifier needs a bound, like {2} or {1,3}", "")
		}
	default:
		return ""
	}
	if p.accept(Question) {
		q += "?"
	}
	return q
}
