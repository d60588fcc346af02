package flinksql

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"
)

func (p *parser) parseExpr() ast.Expr { return p.parseExprPrec(ast.PrecOr) }

// parseExprPrec parses an expression whose operators bind at least as
// tightly as min, so BETWEEN's bounds and frame offsets stop before AND.
func (p *parser) parseExprPrec(min int) ast.Expr {
	if !p.enter() {
		return &ast.BadExpr{Span: ast.Span{Pos: p.tok().Pos, End: p.tok().Pos}}
	}
	defer p.leave()
	switch min {
	case ast.PrecOr:
		return p.parseOr()
	case ast.PrecAnd:
		return p.parseAnd()
	case ast.PrecNot:
		return p.parseNot()
	case ast.PrecCmp:
		return p.parseComparison()
	case ast.PrecConcat:
		return p.parseConcat()
	case ast.PrecAdd:
		return p.parseAdd()
	case ast.PrecMul:
		return p.parseMul()
	}
	return p.parseUnary()
}

func (p *parser) binary(op string, l, r ast.Expr) ast.Expr {
	return &ast.BinaryExpr{Span: ast.Span{Pos: l.Range().Pos, End: p.lastEnd}, Op: op, L: l, R: r}
}

func (p *parser) parseOr() ast.Expr {
	l := p.parseAnd()
	for !p.failed && p.acceptKw("OR") {
		l = p.binary("OR", l, p.parseAnd())
	}
	return l
}

func (p *parser) parseAnd() ast.Expr {
	l := p.parseNot()
	for !p.failed && p.acceptKw("AND") {
		l = p.binary("AND", l, p.parseNot())
	}
	return l
}

func (p *parser) parseNot() ast.Expr {
	if p.isKw("NOT") && !p.failed {
		if !p.enter() {
			return &ast.BadExpr{}
		}
		defer p.leave()
		start := p.next().Pos
		x := p.parseNot()
		return &ast.UnaryExpr{Span: p.span(start), Op: "NOT", X: x}
	}
	return p.parseComparison()
}

var comparisonOps = map[TokenKind]string{Eq: "=", Neq: "<>", BangEq: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">="}

func (p *parser) parseComparison() ast.Expr {
	l := p.parseConcat()
	for !p.failed {
		start := l.Range().Pos
		if op, ok := comparisonOps[p.tok().Kind]; ok {
			p.next()
			if (p.isKw("ANY") || p.isKw("SOME") || p.isKw("ALL")) && p.peek(1).Kind == LParen {
				qe := &ast.QuantifiedExpr{L: l, Op: op, Quantifier: p.up[p.pos]}
				p.next()
				if p.peekIsQueryAfterParen() {
					p.next()
					qe.Query = p.parseQuery()
					p.expect(RParen)
				} else {
					qe.List = p.parseParenExprList()
				}
				qe.Span = p.span(start)
				l = qe
				continue
			}
			l = p.binary(op, l, p.parseConcat())
			continue
		}
		if p.isKw("OVERLAPS") {
			p.next()
			l = p.binary("OVERLAPS", l, p.parseConcat())
			continue
		}
		if p.isKw("IS") {
			p.next()
			not := p.acceptKw("NOT")
			p.probeWords("NULL", "TRUE", "FALSE", "UNKNOWN", "DISTINCT", "JSON")
			switch w := p.up[p.pos]; w {
			case "NULL", "TRUE", "FALSE", "UNKNOWN":
				p.next()
				l = &ast.IsExpr{Span: p.span(start), X: l, Not: not, What: w}
			case "DISTINCT":
				p.next()
				p.expectKw("FROM")
				r := p.parseConcat()
				l = &ast.IsDistinctExpr{Span: p.span(start), L: l, R: r, Not: not}
			case "JSON":
				p.next()
				what := "JSON"
				switch k := p.up[p.pos]; k {
				case "VALUE", "SCALAR", "ARRAY", "OBJECT":
					p.next()
					what += " " + k
				}
				l = &ast.IsExpr{Span: p.span(start), X: l, Not: not, What: what}
			default:
				p.fail(p.tok(), "expected NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM after IS, found "+describe(p.tok()), "")
				return l
			}
			continue
		}
		not := false
		if p.isKw("NOT") {
			switch p.peekUp(1) {
			case "IN", "BETWEEN", "LIKE", "SIMILAR":
				p.next()
				not = true
			default:
				return l
			}
		}
		p.probeWords("IN", "BETWEEN", "LIKE", "SIMILAR")
		switch p.up[p.pos] {
		case "IN":
			p.next()
			in := &ast.InExpr{X: l, Not: not}
			if p.peekIsQueryAfterParen() {
				p.next()
				in.Query = p.parseQuery()
				p.expect(RParen)
			} else {
				in.List = p.parseParenExprList()
				if len(in.List) == 0 && !p.failed {
					p.fail(p.toks[p.pos-1], "IN needs at least one value", "")
				}
			}
			in.Span = p.span(start)
			l = in
		case "BETWEEN":
			p.next()
			b := &ast.BetweenExpr{X: l, Not: not}
			switch {
			case p.acceptKw("SYMMETRIC"):
				b.Mode = "SYMMETRIC"
			case p.acceptKw("ASYMMETRIC"):
				b.Mode = "ASYMMETRIC"
			}
			b.Lo = p.parseConcat()
			p.expectKw("AND")
			b.Hi = p.parseConcat()
			b.Span = p.span(start)
			l = b
		case "LIKE", "SIMILAR":
			lk := &ast.LikeExpr{X: l, Not: not, Op: "LIKE"}
			if p.acceptKw("SIMILAR") {
				p.expectKw("TO")
				lk.Op = "SIMILAR TO"
			} else {
				p.next()
			}
			lk.Pattern = p.parseConcat()
			if p.acceptKw("ESCAPE") {
				lk.Escape = p.parseConcat()
			}
			lk.Span = p.span(start)
			l = lk
		default:
			return l
		}
	}
	return l
}

// peekIsQueryAfterParen reports whether '(' SELECT|WITH|VALUES follows.
func (p *parser) peekIsQueryAfterParen() bool {
	if !p.is(LParen) {
		return false
	}
	switch p.peekUp(1) {
	case "SELECT", "WITH", "VALUES":
		return true
	}
	return false
}

func (p *parser) parseConcat() ast.Expr {
	l := p.parseAdd()
	for !p.failed && p.accept(Concat) {
		l = p.binary("||", l, p.parseAdd())
	}
	return l
}

func (p *parser) parseAdd() ast.Expr {
	l := p.parseMul()
	for !p.failed {
		switch {
		case p.accept(Plus):
			l = p.binary("+", l, p.parseMul())
		case p.accept(Minus):
			l = p.binary("-", l, p.parseMul())
		default:
			return l
		}
	}
	return l
}

func (p *parser) parseMul() ast.Expr {
	l := p.parseUnary()
	for !p.failed {
		switch {
		case p.accept(Asterisk):
			l = p.binary("*", l, p.parseUnary())
		case p.accept(Slash):
			l = p.binary("/", l, p.parseUnary())
		case p.accept(Percent):
			l = p.binary("%", l, p.parseUnary())
		default:
			return l
		}
	}
	return l
}

func (p *parser) parseUnary() ast.Expr {
	if (p.is(Minus) || p.is(Plus)) && !p.failed {
		if !p.enter() {
			return &ast.BadExpr{}
		}
		defer p.leave()
		t := p.next()
		x := p.parseUnary()
		return &ast.UnaryExpr{Span: p.span(t.Pos), Op: t.Text, X: x}
	}
	return p.parsePostfix(p.parsePrimary())
}

// parsePostfix applies x[i] and x.field.
func (p *parser) parsePostfix(x ast.Expr) ast.Expr {
	for !p.failed {
		start := x.Range().Pos
		switch {
		case p.is(LBracket):
			p.next()
			idx := p.parseExpr()
			p.expect(RBracket)
			x = &ast.IndexExpr{Span: p.span(start), X: x, Index: idx}
		case p.is(Dot) && p.peek(1).Kind != Asterisk && fieldAccessible(x):
			p.next()
			f := p.parseIdent("a field name")
			x = &ast.FieldExpr{Span: p.span(start), X: x, Field: f}
		default:
			return x
		}
	}
	return x
}

// fieldAccessible reports whether .field may follow x: a literal such as
// 0 .a would print as the malformed number 0.a.
func fieldAccessible(x ast.Expr) bool {
	switch x.(type) {
	case *ast.ColumnRef, *ast.FuncCall, *ast.ParenExpr, *ast.IndexExpr, *ast.FieldExpr, *ast.CastExpr, *ast.RowExpr, *ast.SubqueryExpr:
		return true
	}
	return false
}

// parseUnitWord reads a time unit such as DAY or SECONDS.
func (p *parser) parseUnitWord() string {
	if p.failed {
		return ""
	}
	if !p.is(Word) {
		p.fail(p.tok(), "expected a time unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, ...), found "+describe(p.tok()), "")
		return ""
	}
	return strings.ToUpper(p.next().Text)
}

// parseNameExpr reads a dotted name: a column reference, t.*, or a call
// of a (qualified) function.
func (p *parser) parseNameExpr() ast.Expr {
	start := p.tok().Pos
	parts := []*ast.Ident{p.parseIdent("a name")}
	for !p.failed && p.is(Dot) {
		if p.peek(1).Kind == Asterisk {
			p.next()
			p.next()
			return &ast.Star{Span: p.span(start), Qualifier: parts}
		}
		p.next()
		parts = append(parts, p.parseIdent("a name after '.'"))
	}
	if p.is(LParen) && !p.failed {
		name := &ast.QualifiedName{Span: p.span(start), Parts: parts}
		return p.parseCallAfterName(name)
	}
	return &ast.ColumnRef{Span: p.span(start), Parts: parts}
}

// parseCallAfterName reads (args) and the suffixes of a call whose name
// was read.
func (p *parser) parseCallAfterName(name *ast.QualifiedName) ast.Expr {
	start := name.Pos
	if len(name.Parts) == 1 && !name.Parts[0].Quoted {
		if up := strings.ToUpper(name.Parts[0].Name); builtin.BuiltinFunctions[up] {
			name.Parts[0].Name = up
		}
	}
	f := &ast.FuncCall{Name: name}
	p.expect(LParen)
	switch {
	case p.acceptKw("DISTINCT"):
		f.Distinct = true
	case p.acceptKw("ALL"):
		f.All = true
	}
	if p.is(Asterisk) && p.peek(1).Kind == RParen {
		t := p.next()
		f.Args = []ast.Expr{&ast.Star{Span: ast.Span{Pos: t.Pos, End: t.End}}}
	} else {
		for !p.failed && !p.is(RParen) {
			f.Args = append(f.Args, p.parseCallArg())
			if !p.accept(Comma) {
				break
			}
		}
	}
	p.expect(RParen)
	f.Span = p.span(start)
	return p.parseCallSuffix(f, start)
}

// parseCallSuffix reads WITHIN GROUP, FILTER, IGNORE/RESPECT NULLS and OVER.
func (p *parser) parseCallSuffix(f *ast.FuncCall, start ast.Pos) ast.Expr {
	if p.isKws("WITHIN", "GROUP") {
		p.next()
		p.next()
		p.expect(LParen)
		p.expectKws("ORDER", "BY")
		f.WithinGroup = p.parseOrderItems()
		p.expect(RParen)
	}
	if p.isKw("FILTER") && p.peek(1).Kind == LParen {
		p.next()
		p.next()
		p.expectKw("WHERE")
		f.Filter = p.parseExpr()
		p.expect(RParen)
	}
	switch {
	case p.acceptKws("IGNORE", "NULLS"):
		f.NullTreatment = "IGNORE NULLS"
	case p.acceptKws("RESPECT", "NULLS"):
		f.NullTreatment = "RESPECT NULLS"
	}
	if p.acceptKw("OVER") {
		if p.is(LParen) {
			f.Over = p.parseWindowSpec()
		} else {
			f.OverRef = p.parseIdent("a window name or (window specification)")
		}
	}
	f.Span = p.span(start)
	if f.FuncName() == "SESSION" && isWindowTVF(f) {
		p.uses(featSessionTVF, "", start)
	}
	return f
}

func (p *parser) parseCallArg() ast.Expr {
	if p.isKw("MODEL") && (p.peek(1).Kind == Word || p.peek(1).Kind == QuotedIdent) {
		// MODEL m names a model (Flink's ExplicitModel), as ML_PREDICT and
		// ML_EVALUATE take it; a column called model is never followed by
		// a name inside an argument list.
		start := p.next().Pos
		m := &ast.ModelArg{Name: p.parseQualifiedName("a model name")}
		m.Span = p.span(start)
		p.uses(featModelArg, "", start)
		return m
	}
	if (p.is(Word) || p.is(QuotedIdent)) && p.peek(1).Kind == Arrow {
		// Any word names an argument, reserved or not: the docs call
		// TUMBLE(..., OFFSET => ...) and Flink takes it.
		t := p.next()
		start := t.Pos
		name := &ast.Ident{Span: ast.Span{Pos: t.Pos, End: t.End}, Name: t.Value, Quoted: t.Kind == QuotedIdent}
		p.next()
		var v ast.Expr
		if p.isKw("MODEL") && (p.peek(1).Kind == Word || p.peek(1).Kind == QuotedIdent) {
			v = p.parseCallArg()
		} else {
			v = p.parseExpr()
		}
		return &ast.NamedArg{Span: p.span(start), Name: name, Value: v}
	}
	return p.parseExpr()
}

// parseTableArg reads TABLE t [PARTITION BY col | (cols)] [ORDER BY ...].
// As in Calcite, several partition columns need parentheses, since a comma
// ends the argument.
func (p *parser) parseTableArg() ast.Expr {
	start := p.next().Pos
	ta := &ast.TableArg{Name: p.parseQualifiedName("a table name")}
	if p.acceptKws("PARTITION", "BY") {
		if p.is(LParen) {
			ta.PartitionBy = p.parseParenExprList()
		} else {
			ta.PartitionBy = []ast.Expr{p.parseExprPrec(ast.PrecConcat)}
		}
	}
	if p.isKws("ORDER", "BY") {
		p.uses(featTableArgOrderBy, "", p.tok().Pos)
		p.next()
		p.next()
		if p.is(LParen) && !p.peekIsQueryAfterParen() {
			p.next()
			ta.OrderBy = p.parseOrderItems()
			p.expect(RParen)
		} else {
			ta.OrderBy = []*ast.OrderItem{p.parseOrderItem()}
		}
	}
	ta.Span = p.span(start)
	return ta
}
