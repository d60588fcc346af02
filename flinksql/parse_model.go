package flinksql

import (
	"github.com/palink/palink/flinksql/ast"
)

// Models (Flink 2.0) and connections (Flink 2.2): catalog objects with
// options, created, altered and dropped like tables.

// createModel reads CREATE [TEMPORARY] MODEL after MODEL: [IF NOT EXISTS]
// name [INPUT (cols)] [OUTPUT (cols)] [COMMENT 'c'] [WITH (...)] [AS query].
func createModel(p *parser, start ast.Pos, temporary bool) ast.Statement {
	p.uses(featModel, "CREATE MODEL", start)
	m := &ast.CreateModel{Temporary: temporary, IfNotExists: p.parseIfNotExists()}
	m.Name = p.parseQualifiedName("a model name")
	if p.acceptKw("INPUT") {
		m.Input = modelColumns(p)
	}
	if p.acceptKw("OUTPUT") {
		m.Output = modelColumns(p)
	}
	if p.acceptKw("COMMENT") {
		m.Comment = p.parseStringLit("the model comment")
	}
	if p.acceptKw("WITH") {
		m.With = p.parseProperties()
	}
	if p.acceptKw("AS") {
		m.As = p.parseQuery()
	}
	m.Span = p.span(start)
	return m
}

// modelColumns reads the (name type, ...) of INPUT or OUTPUT.
func modelColumns(p *parser) []*ast.ColumnDef {
	var cols []*ast.ColumnDef
	p.expect(LParen)
	for !p.failed {
		cols = append(cols, p.parseColumnDef(false))
		if !p.accept(Comma) {
			break
		}
	}
	p.expect(RParen)
	return cols
}

// createConnection reads CREATE [TEMPORARY [SYSTEM]] CONNECTION after
// CONNECTION: [IF NOT EXISTS] name [COMMENT 'c'] WITH (...).
func createConnection(p *parser, start ast.Pos, temporary, system bool) ast.Statement {
	p.uses(featConnection, "CREATE CONNECTION", start)
	c := &ast.CreateConnection{Temporary: temporary, System: system, IfNotExists: p.parseIfNotExists()}
	c.Name = p.parseQualifiedName("a connection name")
	if p.acceptKw("COMMENT") {
		c.Comment = p.parseStringLit("the connection comment")
	}
	if p.acceptKw("WITH") {
		c.With = p.parseProperties()
	}
	c.Span = p.span(start)
	return c
}

// alterObject reads ALTER MODEL|CONNECTION after the object's keyword.
func alterObject(p *parser, start ast.Pos, object string) ast.Statement {
	a := &ast.AlterObject{Object: object, IfExists: p.parseIfExists()}
	a.Name = p.parseQualifiedName("a " + lowerASCII(object) + " name")
	switch {
	case p.acceptKws("RENAME", "TO"):
		a.RenameTo = p.parseQualifiedName("the new name")
	case p.acceptKw("SET"):
		a.Set = p.parseProperties()
	case p.acceptKw("RESET"):
		a.Reset = p.parseResetKeys()
	default:
		p.fail(p.tok(), "expected RENAME TO, SET or RESET after ALTER "+object+" name, found "+describe(p.tok()), "")
		return nil
	}
	a.Span = p.span(start)
	return a
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
