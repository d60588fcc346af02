package flinksql

import (
	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"
)

// niladic are the functions written without parentheses.
var niladic = map[string]bool{
	"CURRENT_DATE": true, "CURRENT_TIME": true, "CURRENT_TIMESTAMP": true, "LOCALTIME": true,
	"LOCALTIMESTAMP": true, "CURRENT_USER": true, "SESSION_USER": true, "SYSTEM_USER": true,
	"USER": true, "CURRENT_ROLE": true, "CURRENT_PATH": true, "CURRENT_CATALOG": true,
	"CURRENT_SCHEMA": true,
}

// nonFunctionWords are reserved words that are never a function name
// even when '(' follows: doing otherwise turns a missing expression into
// a baffling call.
var functionWords = map[string]bool{"LEFT": true, "RIGHT": true, "INSERT": true}

func (p *parser) parsePrimary() ast.Expr {
	t := p.tok()
	start := t.Pos
	bad := &ast.BadExpr{Span: ast.Span{Pos: start, End: start}}
	if p.failed {
		return bad
	}
	switch t.Kind {
	case Integer, Decimal, Approx:
		p.next()
		k := ast.NumInteger
		if t.Kind == Decimal {
			k = ast.NumDecimal
		} else if t.Kind == Approx {
			k = ast.NumApprox
		}
		return &ast.NumberLit{Span: ast.Span{Pos: t.Pos, End: t.End}, Text: t.Text, Kind: k}
	case String:
		p.next()
		return &ast.StringLit{Span: ast.Span{Pos: t.Pos, End: t.End}, Value: t.Value}
	case BinaryString:
		p.next()
		return &ast.BinaryLit{Span: ast.Span{Pos: t.Pos, End: t.End}, Hex: t.Value}
	case Question:
		p.next()
		return &ast.Param{Span: ast.Span{Pos: t.Pos, End: t.End}}
	case LParen:
		if p.peekIsQueryAfterParen() {
			p.next()
			q := p.parseQuery()
			p.expect(RParen)
			return &ast.SubqueryExpr{Span: p.span(start), Query: q}
		}
		p.next()
		first := p.parseExpr()
		if p.is(Comma) {
			row := &ast.RowExpr{Items: []ast.Expr{first}}
			for !p.failed && p.accept(Comma) {
				row.Items = append(row.Items, p.parseExpr())
			}
			p.expect(RParen)
			row.Span = p.span(start)
			return row
		}
		p.expect(RParen)
		return &ast.ParenExpr{Span: p.span(start), X: first}
	case QuotedIdent:
		return p.parseNameExpr()
	case Word:
		return p.parseWordExpr()
	case EOF:
		p.probeExpr()
		p.fail(t, "expected an expression, found end of input", "")
		return bad
	}
	p.fail(t, "expected an expression, found "+describe(t), "")
	return bad
}

func (p *parser) parseWordExpr() ast.Expr {
	t := p.tok()
	start := t.Pos
	w := p.up[p.pos]
	nextParen := p.peek(1).Kind == LParen
	switch w {
	case "TRUE", "FALSE":
		p.next()
		return &ast.BoolLit{Span: ast.Span{Pos: t.Pos, End: t.End}, Value: w == "TRUE"}
	case "NULL":
		p.next()
		return &ast.NullLit{Span: ast.Span{Pos: t.Pos, End: t.End}}
	case "CASE":
		return p.parseCase()
	case "NOT":
		return p.parseNot()
	case "INTERVAL":
		return p.parseIntervalLit()
	case "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ":
		if p.peek(1).Kind == String {
			p.next()
			v := p.parseStringLit("a literal")
			return &ast.TypedLit{Span: p.span(start), Type: w, Value: v}
		}
	case "ROW":
		if nextParen {
			p.next()
			r := &ast.RowExpr{Explicit: true, Items: p.parseParenExprList()}
			r.Span = p.span(start)
			return r
		}
	case "ARRAY", "MAP":
		if p.peek(1).Kind == LBracket {
			p.next()
			p.next()
			var items []ast.Expr
			for !p.failed && !p.is(RBracket) {
				items = append(items, p.parseExpr())
				if !p.accept(Comma) {
					break
				}
			}
			p.expect(RBracket)
			if w == "ARRAY" {
				return &ast.ArrayExpr{Span: p.span(start), Items: items}
			}
			if len(items)%2 != 0 && !p.failed {
				p.fail(p.toks[p.pos-1], "MAP[...] needs key, value pairs: found an odd number of items", "")
			}
			return &ast.MapExpr{Span: p.span(start), Items: items}
		}
		if nextParen && p.peekUp(2) == "SELECT" {
			p.next()
			p.next()
			q := p.parseQuery()
			p.expect(RParen)
			if w == "ARRAY" {
				return &ast.ArrayExpr{Span: p.span(start), Query: q}
			}
			return &ast.MapExpr{Span: p.span(start), Query: q}
		}
	case "TABLE":
		if p.peek(1).Kind == Word || p.peek(1).Kind == QuotedIdent {
			return p.parseTableArg()
		}
	}
	if nextParen {
		switch w {
		case "CAST", "TRY_CAST":
			p.next()
			p.next()
			c := &ast.CastExpr{Try: w == "TRY_CAST", X: p.parseExpr()}
			p.expectKw("AS")
			c.Type = p.parseType()
			p.expect(RParen)
			c.Span = p.span(start)
			return c
		case "EXISTS":
			p.next()
			if !p.peekIsQueryAfterParen() {
				p.fail(p.peek(1), "expected a subquery after EXISTS", "")
				return &ast.BadExpr{}
			}
			p.next()
			q := p.parseQuery()
			p.expect(RParen)
			return &ast.ExistsExpr{Span: p.span(start), Query: q}
		case "EXTRACT":
			p.next()
			p.next()
			e := &ast.ExtractExpr{Unit: p.parseUnitWord()}
			p.expectKw("FROM")
			e.X = p.parseExpr()
			p.expect(RParen)
			e.Span = p.span(start)
			return e
		case "TRIM":
			return p.parseTrim()
		case "POSITION":
			p.next()
			p.next()
			pe := &ast.PositionExpr{Sub: p.parseExprPrec(ast.PrecConcat)}
			p.expectKw("IN")
			pe.X = p.parseExprPrec(ast.PrecConcat)
			if p.acceptKw("FROM") {
				pe.Start = p.parseExpr()
			}
			p.expect(RParen)
			pe.Span = p.span(start)
			return pe
		case "SUBSTRING":
			if p.isSpecialForm("FROM") {
				p.next()
				p.next()
				s := &ast.SubstringExpr{X: p.parseExpr()}
				p.expectKw("FROM")
				s.From = p.parseExpr()
				if p.acceptKw("FOR") {
					s.Length = p.parseExpr()
				}
				p.expect(RParen)
				s.Span = p.span(start)
				return s
			}
		case "OVERLAY":
			p.next()
			p.next()
			o := &ast.OverlayExpr{X: p.parseExpr()}
			p.expectKw("PLACING")
			o.Placing = p.parseExpr()
			p.expectKw("FROM")
			o.From = p.parseExpr()
			if p.acceptKw("FOR") {
				o.Length = p.parseExpr()
			}
			p.expect(RParen)
			o.Span = p.span(start)
			return o
		case "FLOOR", "CEIL", "CEILING":
			if p.isSpecialForm("TO") {
				p.next()
				p.next()
				f := &ast.FloorCeilExpr{Name: w, X: p.parseExpr()}
				p.expectKw("TO")
				f.Unit = p.parseUnitWord()
				p.expect(RParen)
				f.Span = p.span(start)
				return f
			}
		case "TIMESTAMPADD", "TIMESTAMPDIFF", "TIMESTAMP_DIFF", "DATEDIFF", "DATE_DIFF":
			if (p.peek(2).Kind == Word) && p.peek(3).Kind == Comma {
				p.next()
				name := &ast.QualifiedName{Span: ast.Span{Pos: t.Pos, End: t.End}, Parts: []*ast.Ident{{Span: ast.Span{Pos: t.Pos, End: t.End}, Name: w}}}
				p.next()
				ut := p.tok()
				unit := &ast.TimeUnitExpr{Span: ast.Span{Pos: ut.Pos, End: ut.End}, Unit: p.parseUnitWord()}
				f := &ast.FuncCall{Name: name, Args: []ast.Expr{unit}}
				for !p.failed && p.accept(Comma) {
					f.Args = append(f.Args, p.parseExpr())
				}
				p.expect(RParen)
				f.Span = p.span(start)
				return p.parseCallSuffix(f, start)
			}
		case "DESCRIPTOR":
			p.next()
			d := &ast.DescriptorExpr{Columns: p.parseParenIdentList("a column name")}
			d.Span = p.span(start)
			return d
		case "JSON_VALUE", "JSON_QUERY", "JSON_EXISTS", "JSON_OBJECT", "JSON_ARRAY", "JSON_OBJECTAGG", "JSON_ARRAYAGG":
			return p.parseJSONCall(w)
		}
	} else if niladic[w] {
		p.next()
		name := &ast.QualifiedName{Span: ast.Span{Pos: t.Pos, End: t.End}, Parts: []*ast.Ident{{Span: ast.Span{Pos: t.Pos, End: t.End}, Name: w}}}
		return &ast.FuncCall{Span: ast.Span{Pos: t.Pos, End: t.End}, Name: name, NoParens: true}
	}
	if (w == "FINAL" || w == "RUNNING") && p.peek(1).Kind == Word && p.peek(2).Kind == LParen {
		p.next()
		x := p.parseUnary()
		return &ast.UnaryExpr{Span: p.span(start), Op: w, X: x}
	}
	if p.reserved(w) {
		if nextParen && (!builtin.StructuralWords[w] || functionWords[w]) {
			p.next()
			// A keyword names the function: keywords are case-insensitive, so
			// the name is kept upper-case, as the formatter prints it.
			name := &ast.QualifiedName{Span: ast.Span{Pos: t.Pos, End: t.End}, Parts: []*ast.Ident{{Span: ast.Span{Pos: t.Pos, End: t.End}, Name: w}}}
			return p.parseCallAfterName(name)
		}
		if builtin.StructuralWords[w] {
			p.fail(t, "expected an expression, found "+describe(t), "")
			return &ast.BadExpr{Span: ast.Span{Pos: start, End: start}}
		}
	}
	return p.parseNameExpr()
}

// isSpecialForm reports whether a call starting here (name '(') uses the
// keyword form, by finding kw at the call's top nesting level.
func (p *parser) isSpecialForm(kw string) bool {
	depth := 0
	for i := p.pos + 1; i < len(p.toks); i++ {
		switch p.toks[i].Kind {
		case LParen, LBracket:
			depth++
		case RParen, RBracket:
			depth--
			if depth == 0 {
				return false
			}
		case Comma:
			if depth == 1 {
				return false
			}
		case Semicolon, EOF:
			return false
		case Word:
			if depth == 1 && p.up[i] == kw {
				return true
			}
			if p.up[i] == "CASE" || p.up[i] == "SELECT" {
				return false
			}
		}
	}
	return false
}
