package flinksql

import (
	"github.com/palink/palink/flinksql/ast"
)

// tableSchema is what the parentheses of CREATE TABLE and CREATE
// MATERIALIZED TABLE hold: columns, watermarks and constraints, or only
// column names (for ... AS query).
type tableSchema struct {
	span        ast.Span
	columns     []*ast.ColumnDef
	names       []*ast.Ident
	watermarks  []*ast.Watermark
	constraints []*ast.TableConstraint
}

// parseTableSchema reads (element, ...). As Flink's TableColumnsOrIdentifiers,
// the list holds either typed elements or bare names, never both: a first
// element that is a name followed by ',' or ')' makes it a list of names.
func parseTableSchema(p *parser) tableSchema {
	var s tableSchema
	start := p.tok().Pos
	p.expect(LParen)
	if p.is(RParen) {
		p.next()
		s.span = p.span(start)
		return s
	}
	if p.isNameToken() && (p.peek(1).Kind == Comma || p.peek(1).Kind == RParen) {
		s.names = p.parseIdentList("a column name")
		p.expect(RParen)
		s.span = p.span(start)
		return s
	}
	for !p.failed {
		switch {
		case p.isKw("WATERMARK"):
			// WATERMARK is reserved, so it starts a watermark even when FOR
			// is missing: the error then says so.
			w := p.parseWatermark()
			if len(s.watermarks) > 0 {
				p.report(w.Pos, w.End, CodeSyntax, "multiple WATERMARK statements are not supported",
					"a table has one watermark; keep the one on the event-time column")
			}
			s.watermarks = append(s.watermarks, w)
		case p.isKw("CONSTRAINT") || p.isKws("PRIMARY", "KEY") || p.isKw("UNIQUE") && p.peek(1).Kind == LParen:
			s.constraints = append(s.constraints, p.parseTableConstraint(true))
		default:
			s.columns = append(s.columns, p.parseColumnDef(false))
		}
		if !p.accept(Comma) {
			break
		}
	}
	p.expect(RParen)
	s.span = p.span(start)
	return s
}

// distributionBody reads what follows DISTRIBUTED (or ADD DISTRIBUTION):
// INTO n BUCKETS, or BY [HASH|RANGE] (cols) [INTO n BUCKETS].
func distributionBody(p *parser, start ast.Pos, after string) *ast.Distribution {
	d := &ast.Distribution{}
	switch {
	case p.acceptKw("BY"):
		switch {
		case p.acceptKw("HASH"):
			d.Kind = "HASH"
		case p.acceptKw("RANGE"):
			d.Kind = "RANGE"
		}
		d.Columns = p.parseParenIdentList("a distribution column")
		if p.isKw("INTO") {
			d.Buckets = bucketCount(p)
		}
	case p.isKw("INTO"):
		d.Buckets = bucketCount(p)
	case !p.failed:
		p.fail(p.tok(), "expected BY or INTO after "+after+", found "+describe(p.tok()), "")
	}
	d.Span = p.span(start)
	return d
}

// bucketCount reads INTO n BUCKETS. Flink takes an unsigned numeric
// literal there and refuses one that is not an integer.
func bucketCount(p *parser) ast.Expr {
	p.expectKw("INTO")
	t := p.tok()
	if p.failed {
		return &ast.BadExpr{Span: ast.Span{Pos: t.Pos, End: t.Pos}}
	}
	var n ast.Expr
	switch t.Kind {
	case Integer, Decimal, Approx:
		n = p.parsePrimary()
		if t.Kind != Integer || allZeros(t.Text) {
			p.report(t.Pos, t.End, CodeSyntax, "bucket count must be a positive integer, found "+t.Text, "")
		}
	case Minus:
		p.fail(t, "bucket count must be a positive integer, found '-'", "")
		return &ast.BadExpr{Span: ast.Span{Pos: t.Pos, End: t.Pos}}
	default:
		p.fail(t, "expected the number of buckets, found "+describe(t), "write INTO 4 BUCKETS")
		return &ast.BadExpr{Span: ast.Span{Pos: t.Pos, End: t.Pos}}
	}
	p.expectKw("BUCKETS")
	return n
}

func allZeros(s string) bool {
	for _, c := range s {
		if c != '0' {
			return false
		}
	}
	return true
}

// noQueryIn reports a subquery inside an expression that Flink parses
// without queries (ExprContext.ACCEPT_NON_QUERY): computed columns,
// watermarks and freshness.
func noQueryIn(p *parser, e ast.Expr, what string) {
	if e == nil || p.failed {
		return
	}
	ast.Inspect(e, func(n ast.Node) bool {
		var q bool
		switch x := n.(type) {
		case *ast.SubqueryExpr, *ast.ExistsExpr:
			q = true
		case *ast.InExpr:
			q = x.Query != nil
		case *ast.QuantifiedExpr:
			q = x.Query != nil
		case *ast.ArrayExpr:
			q = x.Query != nil
		case *ast.MapExpr:
			q = x.Query != nil
		}
		if q {
			r := n.Range()
			p.report(r.Pos, r.End, CodeSyntax, "query expression encountered in illegal context: "+what+" cannot hold a subquery", "")
			return false
		}
		return true
	})
}
