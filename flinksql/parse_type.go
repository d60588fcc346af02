package flinksql

import (
	"github.com/palink/palink/flinksql/ast"
)

// parseType reads a data type with its nullability and any postfix
// ARRAY / MULTISET.
func (p *parser) parseType() *ast.DataType {
	start := p.tok().Pos
	if !p.enter() {
		return &ast.DataType{}
	}
	defer p.leave()
	t := p.parseBaseType()
	p.parseNullability(t)
	t.Span = p.span(start)
	for !p.failed && (p.isKw("ARRAY") || p.isKw("MULTISET")) && p.peek(1).Kind != Lt {
		w := p.up[p.pos]
		p.next()
		t = &ast.DataType{Name: w, Elem: t, Postfix: true}
		p.parseNullability(t)
		t.Span = p.span(start)
	}
	return t
}

func (p *parser) parseNullability(t *ast.DataType) {
	switch {
	case p.acceptKws("NOT", "NULL"):
		t.NotNull = true
	case p.acceptKw("NULL"):
		t.Null = true
	}
}

// precisionTypes take an optional (n) or (p, s).
var precisionTypes = map[string]bool{
	"CHAR": true, "CHARACTER": true, "VARCHAR": true, "BINARY": true, "VARBINARY": true,
	"DECIMAL": true, "DEC": true, "NUMERIC": true, "FLOAT": true, "TIME": true, "TIMESTAMP": true,
	"TIMESTAMP_LTZ": true, "CHARACTER VARYING": true, "CHAR VARYING": true, "BINARY VARYING": true,
}

// simpleTypes take no parameters.
var simpleTypes = map[string]bool{
	"STRING": true, "BOOLEAN": true, "BYTES": true, "TINYINT": true, "SMALLINT": true, "INT": true,
	"INTEGER": true, "BIGINT": true, "REAL": true, "DATE": true, "NULL": true, "VARIANT": true,
	"DESCRIPTOR": true,
}

func (p *parser) parseBaseType() *ast.DataType {
	t := &ast.DataType{}
	if p.failed {
		return t
	}
	w := p.up[p.pos]
	p.probeType()
	switch {
	case simpleTypes[w]:
		start := p.next().Pos
		t.Name = w
		if w == "VARIANT" {
			p.uses(featVariantType, "", start)
		}
		return t
	case w == "DOUBLE":
		p.next()
		t.Name = "DOUBLE"
		if p.acceptKw("PRECISION") {
			t.Name = "DOUBLE PRECISION"
		}
		return t
	case w == "CHAR" || w == "CHARACTER" || w == "BINARY":
		p.next()
		t.Name = w
		if p.acceptKw("VARYING") {
			t.Name = w + " VARYING"
		}
		t.Params = p.parseOptIntParams()
		return t
	case precisionTypes[w]:
		p.next()
		t.Name = w
		t.Params = p.parseOptIntParams()
		if w == "TIME" || w == "TIMESTAMP" {
			switch {
			case p.acceptKws("WITHOUT", "TIME", "ZONE"):
				t.Zone = "WITHOUT TIME ZONE"
			case p.acceptKws("WITH", "LOCAL", "TIME", "ZONE"):
				t.Zone = "WITH LOCAL TIME ZONE"
			case p.acceptKws("WITH", "TIME", "ZONE"):
				t.Zone = "WITH TIME ZONE"
			}
		}
		return t
	case w == "INTERVAL":
		p.next()
		t.Name = "INTERVAL"
		t.Interval = p.parseIntervalQualifier()
		return t
	case (w == "ARRAY" || w == "MULTISET") && p.peek(1).Kind == Lt:
		p.next()
		p.next()
		t.Name = w
		t.Elem = p.parseType()
		p.expectTypeClose()
		return t
	case w == "MAP" && p.peek(1).Kind == Lt:
		p.next()
		p.next()
		t.Name = "MAP"
		t.Key = p.parseType()
		p.expect(Comma)
		t.Value = p.parseType()
		p.expectTypeClose()
		return t
	case w == "ROW" && p.peek(1).Kind == Neq:
		// ROW<> is the empty row type; the lexer reads <> as one token.
		p.next()
		p.next()
		t.Name = "ROW"
		return t
	case w == "ROW" && (p.peek(1).Kind == Lt || p.peek(1).Kind == LParen):
		p.next()
		t.Name = "ROW"
		t.Parens = p.is(LParen)
		closeKind := Gt
		if t.Parens {
			closeKind = RParen
		}
		p.next()
		for !p.failed && !p.is(closeKind) && !(closeKind == Gt && p.is(Ge)) {
			fstart := p.tok().Pos
			f := &ast.RowField{Name: p.parseIdent("a field name")}
			f.Type = p.parseType()
			if p.is(String) {
				f.Comment = p.parseStringLit("a field comment")
			}
			f.Span = p.span(fstart)
			t.Fields = append(t.Fields, f)
			if !p.accept(Comma) {
				break
			}
		}
		if t.Parens {
			p.expect(RParen)
		} else {
			p.expectTypeClose()
		}
		return t
	case w == "STRUCTURED" && p.peek(1).Kind == Lt:
		start := p.tok().Pos
		p.next()
		p.next()
		t.Name = "STRUCTURED"
		t.StructClass = p.parseStringLit("the class name in quotes")
		for !p.failed && p.accept(Comma) {
			fstart := p.tok().Pos
			f := &ast.RowField{Name: p.parseIdent("a field name")}
			f.Type = p.parseType()
			if p.is(String) {
				f.Comment = p.parseStringLit("a field comment")
			}
			f.Span = p.span(fstart)
			t.Fields = append(t.Fields, f)
		}
		p.expectTypeClose()
		p.uses(featStructuredType, "", start)
		return t
	case w == "RAW" && p.peek(1).Kind == LParen:
		p.next()
		p.next()
		t.Name = "RAW"
		t.RawClass = p.parseStringLit("the class name in quotes")
		p.expect(Comma)
		t.RawSnapshot = p.parseStringLit("the serializer snapshot in quotes")
		p.expect(RParen)
		return t
	case p.is(QuotedIdent) || p.is(Word) && !p.reserved(w):
		t.UserType = p.parseQualifiedName("a type name")
		return t
	}
	p.fail(p.tok(), "expected a data type, found "+describe(p.tok()),
		"types are like INT, STRING, VARCHAR(n), DECIMAL(p, s), TIMESTAMP(3), ARRAY<T>, MAP<K, V>, ROW<name T, ...>")
	return t
}

// expectTypeClose consumes the '>' closing ARRAY<, MAP< or ROW<. A '>='
// cannot close a type, so it is an error like any other token.
func (p *parser) expectTypeClose() {
	if p.failed {
		return
	}
	if !p.is(Gt) {
		p.fail(p.tok(), "expected '>' to close the type, found "+describe(p.tok()), "")
		return
	}
	p.next()
}
