package flinksql

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

func (p *parser) parseCase() ast.Expr {
	start := p.next().Pos
	c := &ast.CaseExpr{}
	if !p.isKw("WHEN") {
		c.Operand = p.parseExpr()
	}
	for !p.failed && p.isKw("WHEN") {
		wstart := p.next().Pos
		cond := p.parseExpr()
		p.expectKw("THEN")
		res := p.parseExpr()
		c.Whens = append(c.Whens, &ast.WhenClause{Span: p.span(wstart), Cond: cond, Result: res})
	}
	if len(c.Whens) == 0 && !p.failed {
		p.fail(p.tok(), "expected WHEN in CASE, found "+describe(p.tok()), "")
	}
	if p.acceptKw("ELSE") {
		c.Else = p.parseExpr()
	}
	p.expectKw("END")
	c.Span = p.span(start)
	return c
}

func (p *parser) parseTrim() ast.Expr {
	start := p.next().Pos
	p.next()
	tr := &ast.TrimExpr{}
	switch w := p.up[p.pos]; w {
	case "BOTH", "LEADING", "TRAILING":
		p.next()
		tr.Side = w
	}
	if p.acceptKw("FROM") {
		tr.From = true
		tr.X = p.parseExpr()
	} else {
		first := p.parseExpr()
		if p.acceptKw("FROM") {
			tr.From = true
			tr.Chars = first
			tr.X = p.parseExpr()
		} else {
			if tr.Side != "" && !p.failed {
				p.fail(p.tok(), "expected FROM in TRIM, found "+describe(p.tok()), "")
			}
			tr.X = first
		}
	}
	p.expect(RParen)
	tr.Span = p.span(start)
	return tr
}

// intervalUnits are the units an interval qualifier takes, with the plural
// forms Flink accepts.
var intervalUnits = map[string]bool{
	"YEAR": true, "YEARS": true, "QUARTER": true, "QUARTERS": true, "MONTH": true, "MONTHS": true,
	"WEEK": true, "WEEKS": true, "DAY": true, "DAYS": true, "HOUR": true, "HOURS": true,
	"MINUTE": true, "MINUTES": true, "SECOND": true, "SECONDS": true, "MILLISECOND": true,
	"MILLISECONDS": true, "MICROSECOND": true, "MICROSECONDS": true, "NANOSECOND": true, "NANOSECONDS": true,
}

func (p *parser) parseIntervalLit() ast.Expr {
	start := p.next().Pos
	il := &ast.IntervalLit{}
	switch {
	case p.accept(Minus):
		il.Negative = true
	case p.accept(Plus):
	}
	switch p.tok().Kind {
	case String:
		il.Value = p.parseStringLit("the interval value")
	case Integer, Decimal:
		il.Value = p.parsePrimary()
	default:
		p.fail(p.tok(), "expected the interval value in quotes, like INTERVAL '5' SECOND, found "+describe(p.tok()), "")
		return &ast.BadExpr{}
	}
	il.Qualifier = p.parseIntervalQualifier()
	il.Span = p.span(start)
	return il
}

func (p *parser) parseIntervalQualifier() *ast.IntervalQualifier {
	start := p.tok().Pos
	q := &ast.IntervalQualifier{}
	if p.failed {
		return q
	}
	if !intervalUnits[p.up[p.pos]] {
		p.fail(p.tok(), "expected an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND), found "+describe(p.tok()), "")
		return q
	}
	q.From = p.up[p.pos]
	p.next()
	q.FromParams = p.parseOptIntParams()
	if p.acceptKw("TO") {
		if !intervalUnits[p.up[p.pos]] {
			p.fail(p.tok(), "expected an interval unit after TO, found "+describe(p.tok()), "")
			return q
		}
		q.To = p.up[p.pos]
		p.next()
		q.ToParams = p.parseOptIntParams()
	}
	q.Span = p.span(start)
	return q
}

// parseOptIntParams reads an optional (n) or (n, m).
func (p *parser) parseOptIntParams() []int {
	if !p.is(LParen) || p.failed {
		return nil
	}
	p.next()
	params := []int{p.parseIntParam("a length or precision")}
	for !p.failed && p.accept(Comma) {
		params = append(params, p.parseIntParam("a scale"))
	}
	p.expect(RParen)
	return params
}

// parseJSONCall reads the JSON functions with keyword clauses.
func (p *parser) parseJSONCall(name string) ast.Expr {
	start := p.next().Pos
	p.expect(LParen)
	j := &ast.JSONCallExpr{Name: name}
	isObject := name == "JSON_OBJECT" || name == "JSON_OBJECTAGG"
	for !p.failed && !p.is(RParen) && !p.isJSONClauseStart() {
		if isObject {
			estart := p.tok().Pos
			e := &ast.JSONEntry{KeyWord: p.acceptKw("KEY")}
			e.Key = p.parseExprPrec(ast.PrecConcat)
			if p.accept(Colon) {
				e.Colon = true
			} else {
				p.expectKw("VALUE")
			}
			e.Value = p.parseExpr()
			e.Span = p.span(estart)
			j.Entries = append(j.Entries, e)
		} else {
			j.Args = append(j.Args, p.parseExpr())
		}
		if !p.accept(Comma) {
			break
		}
	}
	for !p.failed && !p.is(RParen) {
		if p.acceptKw("RETURNING") {
			j.Returning = p.parseType()
			continue
		}
		cstart := p.tok().Pos
		c := &ast.JSONClause{}
		var words []string
		for !p.failed {
			if !p.is(Word) {
				p.fail(p.tok(), "expected a clause such as NULL ON NULL or ERROR ON ERROR, found "+describe(p.tok()), "")
				break
			}
			w := p.up[p.pos]
			p.next()
			words = append(words, w)
			if w == "DEFAULT" {
				c.Default = p.parseExprPrec(ast.PrecConcat)
				continue
			}
			if w == "WRAPPER" {
				break
			}
			if w == "ON" {
				words = append(words, p.parseUnitWord())
				break
			}
		}
		c.Text = strings.Join(words, " ")
		c.Span = p.span(cstart)
		j.Clauses = append(j.Clauses, c)
	}
	p.expect(RParen)
	j.Span = p.span(start)
	return j
}

func (p *parser) isJSONClauseStart() bool {
	switch p.up[p.pos] {
	case "RETURNING", "ABSENT", "ERROR", "EMPTY", "WITH", "WITHOUT", "DEFAULT":
		return true
	case "NULL", "TRUE", "FALSE", "UNKNOWN":
		return p.isKwAt(1, "ON")
	}
	return false
}
