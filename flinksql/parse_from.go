package flinksql

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// ---- FROM ----

func (p *parser) parseFrom() ast.TableExpr {
	l := p.parseTableRef()
	for !p.failed {
		start := l.Range().Pos
		j := &ast.Join{L: l}
		switch {
		case p.accept(Comma):
			j.Kind = ast.JoinComma
		case p.acceptKws("CROSS", "JOIN"):
			j.Kind = ast.JoinCross
		default:
			j.Natural = p.acceptKw("NATURAL")
			switch {
			case p.acceptKw("JOIN"):
				j.Kind = ast.JoinInner
			case p.acceptKws("INNER", "JOIN"):
				j.Kind = ast.JoinInner
			case p.acceptKw("LEFT"):
				j.Kind = ast.JoinLeft
				p.acceptKw("OUTER")
				p.expectKw("JOIN")
			case p.acceptKw("RIGHT"):
				j.Kind = ast.JoinRight
				p.acceptKw("OUTER")
				p.expectKw("JOIN")
			case p.acceptKw("FULL"):
				j.Kind = ast.JoinFull
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
		if j.Kind != ast.JoinComma && j.Kind != ast.JoinCross && !j.Natural {
			switch {
			case p.acceptKw("ON"):
				j.On = p.parseExpr()
			case p.acceptKw("USING"):
				j.Using = p.parseParenIdentList("a join column")
			case j.Kind == ast.JoinInner && isUnnestOrLateral(j.R):
				// JOIN UNNEST(...) / JOIN LATERAL TABLE(...) need no condition
				// in Flink when written ON TRUE; accept its absence too.
			default:
				p.fail(p.tok(), "expected ON or USING after the joined table, found "+describe(p.tok()), "write ON <condition>")
			}
		}
		j.Span = ast.Span{Pos: start, End: p.lastEnd}
		l = j
	}
	return l
}

func isUnnestOrLateral(t ast.TableExpr) bool {
	switch x := t.(type) {
	case *ast.Unnest:
		return true
	case *ast.TableFunc:
		return x.Lateral
	}
	return false
}

// parseTableRef reads one table primary with its suffixes.
func (p *parser) parseTableRef() ast.TableExpr {
	start := p.tok().Pos
	if !p.enter() {
		return &ast.TableRef{Name: &ast.QualifiedName{}}
	}
	defer p.leave()
	var t ast.TableExpr
	lateral := p.acceptKw("LATERAL")
	switch {
	case p.isKw("TABLE") && p.peek(1).Kind == LParen:
		p.next()
		p.next()
		tf := &ast.TableFunc{Lateral: lateral, Wrapped: true, Call: p.parseExpr()}
		p.expect(RParen)
		tf.Span = p.span(start)
		return p.tableSuffix(tf, start)
	case p.isKw("UNNEST") && p.peek(1).Kind == LParen:
		p.next()
		u := &ast.Unnest{Args: p.parseParenExprList()}
		u.WithOrdinality = p.acceptKws("WITH", "ORDINALITY")
		u.Alias = p.parseOptionalAlias(true)
		u.Span = p.span(start)
		return u
	case p.is(LParen) && p.parenLeadsToQuery():
		p.next()
		d := &ast.DerivedTable{Lateral: lateral, Query: p.parseQuery()}
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
		t = &ast.ParenTable{Span: p.span(start), Table: inner}
	default:
		if lateral {
			p.fail(p.tok(), "expected TABLE(...) or a subquery after LATERAL, found "+describe(p.tok()), "")
		}
		name := p.parseQualifiedName("a table name")
		if p.is(LParen) && !p.failed {
			// A table function called without TABLE(...), as process table
			// functions may be.
			call := p.parseCallAfterName(name)
			t = &ast.TableFunc{Span: p.span(start), Call: call}
			break
		}
		tr := &ast.TableRef{Name: name}
		tr.Hints = p.parseHints()
		if p.acceptKws("FOR", "SYSTEM_TIME", "AS", "OF") {
			tr.SystemTime = p.parseExprPrec(ast.PrecConcat)
		}
		tr.Span = p.span(start)
		t = tr
	}
	return p.tableSuffix(t, start)
}

// tableSuffix applies MATCH_RECOGNIZE and the alias to a table primary.
func (p *parser) tableSuffix(t ast.TableExpr, start ast.Pos) ast.TableExpr {
	if p.isKw("MATCH_RECOGNIZE") && p.peek(1).Kind == LParen {
		t = p.parseMatchRecognize(t, start)
	}
	alias := p.parseOptionalAlias(true)
	if alias == nil {
		return t
	}
	switch x := t.(type) {
	case *ast.TableRef:
		x.Alias = alias
		x.Span = p.span(start)
	case *ast.DerivedTable:
		x.Alias = alias
		x.Span = p.span(start)
	case *ast.TableFunc:
		x.Alias = alias
		x.Span = p.span(start)
	case *ast.MatchRecognize:
		x.Alias = alias
		x.Span = p.span(start)
	default:
		p.fail(p.toks[p.pos-1], "an alias is not allowed here", "")
	}
	return t
}

// parseHints reads zero or more /*+ ... */ blocks.
func (p *parser) parseHints() []*ast.Hint {
	var hints []*ast.Hint
	for !p.failed && p.is(HintStart) {
		p.next()
		for !p.failed {
			hints = append(hints, p.parseHint())
			// Hints are separated by commas or by white space alone:
			// /*+ BROADCAST(a) SHUFFLE_HASH(b) */ is read as two.
			if !p.accept(Comma) && !p.isNameToken() {
				break
			}
		}
		p.expect(HintEnd)
	}
	return hints
}

func (p *parser) parseHint() *ast.Hint {
	start := p.tok().Pos
	h := &ast.Hint{Name: p.parseIdent("a hint name")}
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
				var key ast.Expr
				if p.is(String) {
					key = p.parseStringLit("a hint option key")
				} else {
					key = p.parseColumnRefOnly("a hint option key")
				}
				p.expect(Eq)
				val := p.parseHintValue()
				h.KVs = append(h.KVs, &ast.HintKV{Span: p.span(kstart), Key: key, Value: val})
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

func (p *parser) parseHintValue() ast.Expr {
	switch p.tok().Kind {
	case String:
		return p.parseStringLit("a hint option")
	case Integer, Decimal, Approx:
		return p.parsePrimary()
	}
	return p.parseColumnRefOnly("a hint option")
}

// parseColumnRefOnly reads a dotted name as a ColumnRef.
func (p *parser) parseColumnRefOnly(what string) ast.Expr {
	q := p.parseQualifiedName(what)
	return &ast.ColumnRef{Span: q.Span, Parts: q.Parts}
}

// ---- MATCH_RECOGNIZE ----

func (p *parser) parseMatchRecognize(input ast.TableExpr, start ast.Pos) *ast.MatchRecognize {
	p.expectKw("MATCH_RECOGNIZE")
	p.expect(LParen)
	m := &ast.MatchRecognize{Input: input}
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
		a := &ast.AfterMatch{}
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
		m.Within = p.parseExprPrec(ast.PrecConcat)
	}
	if p.acceptKw("SUBSET") {
		for !p.failed {
			sstart := p.tok().Pos
			s := &ast.Subset{Name: p.parseIdent("a subset name")}
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
		m.Define = append(m.Define, &ast.SelectItem{Span: p.span(dstart), Expr: cond, Alias: name})
		if !p.accept(Comma) {
			break
		}
	}
	p.expect(RParen)
	m.Span = p.span(start)
	return m
}

// parseAsList reads expr AS name, ... (MEASURES).
func (p *parser) parseAsList(what string) []*ast.SelectItem {
	var items []*ast.SelectItem
	for !p.failed {
		start := p.tok().Pos
		e := p.parseExpr()
		p.expectKw("AS")
		items = append(items, &ast.SelectItem{Expr: e, Alias: p.parseIdent(what), Span: p.span(start)})
		if !p.accept(Comma) {
			break
		}
	}
	return items
}

func (p *parser) parsePatternAlt() ast.PatternTerm {
	start := p.tok().Pos
	if !p.enter() {
		return &ast.PatternSeq{}
	}
	defer p.leave()
	first := p.parsePatternSeq()
	if !p.is(Pipe) {
		return first
	}
	alt := &ast.PatternAlt{Alts: []ast.PatternTerm{first}}
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

func (p *parser) parsePatternSeq() ast.PatternTerm {
	start := p.tok().Pos
	seq := &ast.PatternSeq{}
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

func (p *parser) parsePatternFactor() ast.PatternTerm {
	start := p.tok().Pos
	switch {
	case p.isKw("PERMUTE") && p.peek(1).Kind == LParen:
		p.next()
		p.next()
		pm := &ast.PatternPermute{}
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
		g := &ast.PatternGroup{Inner: p.parsePatternAlt()}
		p.expect(RParen)
		g.Quant = p.parseQuantifier()
		g.Span = p.span(start)
		return g
	case p.is(LBrace):
		p.next()
		p.expect(Minus)
		ex := &ast.PatternExclude{Inner: p.parsePatternAlt()}
		p.expect(Minus)
		p.expect(RBrace)
		ex.Span = p.span(start)
		return ex
	}
	v := &ast.PatternVar{Name: p.parseIdent("a pattern variable")}
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
