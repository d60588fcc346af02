package flinksql

import (
	"github.com/palink/palink/flinksql/ast"
)

// ---- DROP / ALTER ----

func (p *parser) parseDrop() ast.Statement {
	start := p.next().Pos
	d := &ast.DropStmt{}
	if p.acceptKw("TEMPORARY") {
		d.Temporary = true
		d.System = p.acceptKw("SYSTEM")
	}
	objects := []string{"TABLE", "VIEW", "FUNCTION", "CATALOG", "DATABASE", "MODEL", "CONNECTION"}
	for _, w := range objects {
		if p.acceptKw(w) {
			d.Object = w
			break
		}
	}
	switch {
	case d.Object == "MODEL":
		p.uses(featModel, "DROP MODEL", start)
	case d.Object == "CONNECTION":
		p.uses(featConnection, "DROP CONNECTION", start)
	case d.Object != "":
	case p.isKws("MATERIALIZED", "TABLE"):
		t := p.next()
		p.next()
		if d.Temporary {
			p.report(t.Pos, t.End, CodeSyntax, "DROP TEMPORARY MATERIALIZED TABLE is not supported: a materialized table is never temporary", "")
		}
		d.Object = "MATERIALIZED TABLE"
		p.uses(featMaterializedTable, "DROP MATERIALIZED TABLE", start)
	default:
		p.fail(p.tok(), "expected TABLE, VIEW, FUNCTION, CATALOG, DATABASE, MATERIALIZED TABLE, MODEL or CONNECTION after DROP, found "+describe(p.tok()), "")
		return nil
	}
	d.IfExists = p.parseIfExists()
	d.Name = p.parseQualifiedName("the name of what to drop")
	switch {
	case p.acceptKw("RESTRICT"):
		d.Behavior = "RESTRICT"
	case p.acceptKw("CASCADE"):
		d.Behavior = "CASCADE"
	}
	d.Span = p.span(start)
	return d
}

func (p *parser) parseAlter() ast.Statement {
	start := p.next().Pos
	temporary, system := false, false
	if p.acceptKw("TEMPORARY") {
		temporary = true
		system = p.acceptKw("SYSTEM")
	}
	switch {
	case p.acceptKw("FUNCTION"):
		f := &ast.AlterFunction{Temporary: temporary, System: system}
		f.IfExists = p.parseIfExists()
		f.Name = p.parseQualifiedName("a function name")
		p.expectKw("AS")
		f.Class = p.parseStringLit("the implementing class in quotes")
		f.Language = p.parseLanguage()
		f.Span = p.span(start)
		return f
	case temporary:
		p.fail(p.tok(), "expected FUNCTION after ALTER TEMPORARY, found "+describe(p.tok()), "")
	case p.acceptKw("TABLE"):
		return p.parseAlterTable(start)
	case p.isKws("MATERIALIZED", "TABLE"):
		return alterMaterializedTable(p, start)
	case p.acceptKw("MODEL"):
		p.uses(featModel, "ALTER MODEL", start)
		return alterObject(p, start, "MODEL")
	case p.acceptKw("CONNECTION"):
		p.uses(featConnection, "ALTER CONNECTION", start)
		return alterObject(p, start, "CONNECTION")
	case p.acceptKw("VIEW"):
		v := &ast.AlterView{Name: p.parseQualifiedName("a view name")}
		switch {
		case p.acceptKws("RENAME", "TO"):
			v.RenameTo = p.parseQualifiedName("the new view name")
		case p.acceptKw("AS"):
			v.As = p.parseQuery()
		default:
			p.fail(p.tok(), "expected RENAME TO or AS after ALTER VIEW name, found "+describe(p.tok()), "")
		}
		v.Span = p.span(start)
		return v
	case p.acceptKw("DATABASE"):
		d := &ast.AlterDatabase{Name: p.parseQualifiedName("a database name")}
		p.expectKw("SET")
		d.Props = p.parseProperties()
		d.Span = p.span(start)
		return d
	case p.acceptKw("CATALOG"):
		c := &ast.AlterCatalog{Name: p.parseIdent("a catalog name")}
		p.uses(featAlterCatalog, "", start)
		switch {
		case p.acceptKw("SET"):
			c.Set = p.parseProperties()
		case p.acceptKw("RESET"):
			c.Reset = p.parseResetKeys()
		case p.isKw("COMMENT"):
			cstart := p.next().Pos
			c.Comment = p.parseStringLit("the catalog comment")
			p.uses(featCatalogComment, "ALTER CATALOG … COMMENT", cstart)
		default:
			p.fail(p.tok(), "expected SET, RESET or COMMENT after ALTER CATALOG name, found "+describe(p.tok()), "")
		}
		c.Span = p.span(start)
		return c
	default:
		p.fail(p.tok(), "expected TABLE, VIEW, FUNCTION, DATABASE, CATALOG, MATERIALIZED TABLE, MODEL or CONNECTION after ALTER, found "+describe(p.tok()), "")
	}
	return nil
}

func (p *parser) parseResetKeys() []*ast.StringLit {
	var keys []*ast.StringLit
	p.expect(LParen)
	for !p.failed && !p.is(RParen) {
		keys = append(keys, p.parseStringLit("an option key in quotes"))
		if !p.accept(Comma) {
			break
		}
	}
	p.expect(RParen)
	return keys
}

func (p *parser) parseAlterTable(start ast.Pos) ast.Statement {
	a := &ast.AlterTable{IfExists: p.parseIfExists()}
	a.Name = p.parseQualifiedName("a table name")
	astart := p.tok().Pos
	switch {
	case p.acceptKw("SET"):
		a.Action = &ast.SetOptions{Props: p.parseProperties()}
	case p.acceptKw("RESET"):
		a.Action = &ast.ResetOptions{Keys: p.parseResetKeys()}
	default:
		a.Action = alterTableAction(p, "ALTER TABLE", true)
		if a.Action == nil {
			return nil
		}
	}
	setSpan(a.Action, p.span(astart))
	a.Span = p.span(start)
	return a
}

// alterTableAction reads RENAME, ADD, MODIFY or DROP of ALTER TABLE (and
// of ALTER MATERIALIZED TABLE, from Flink 2.3); partitions says whether
// partitions may be added or dropped.
func alterTableAction(p *parser, what string, partitions bool) ast.AlterTableAction {
	astart := p.tok().Pos
	switch {
	case p.acceptKw("RENAME"):
		if p.acceptKw("TO") {
			return &ast.RenameTable{To: p.parseQualifiedName("the new name")}
		}
		rc := &ast.RenameColumn{From: p.parseQualifiedName("the column to rename")}
		p.expectKw("TO")
		to := p.parseQualifiedName("the new column name")
		rc.To, rc.ToQualifier = to.Parts[len(to.Parts)-1], to.Parts[:len(to.Parts)-1]
		p.uses(featAlterTableSchema, what+" RENAME column", astart)
		return rc
	case partitions && p.isKw("ADD") && (p.isKwAt(1, "PARTITION") || p.isKws("ADD", "IF", "NOT", "EXISTS")):
		p.next()
		ap := &ast.AddPartitions{IfNotExists: p.parseIfNotExists()}
		for !p.failed && p.isKw("PARTITION") {
			ap.Partitions = append(ap.Partitions, p.parsePartitionSpec(true))
		}
		if len(ap.Partitions) == 0 {
			p.fail(p.tok(), "expected PARTITION, found "+describe(p.tok()), "")
		}
		return ap
	case p.isKw("ADD") || p.isKw("MODIFY"):
		as := &ast.AlterSchema{Modify: p.isKw("MODIFY")}
		p.next()
		if p.accept(LParen) {
			as.Parens = true
			for !p.failed {
				as.Items = append(as.Items, p.parseSchemaComponent())
				if !p.accept(Comma) {
					break
				}
			}
			p.expect(RParen)
		} else {
			as.Items = append(as.Items, p.parseSchemaComponent())
		}
		watermarks := 0
		for _, it := range as.Items {
			if w, ok := it.(*ast.Watermark); ok {
				if watermarks++; watermarks > 1 {
					p.report(w.Pos, w.End, CodeSyntax, "multiple WATERMARK statements are not supported", "a table has one watermark")
				}
			}
		}
		markSchemaChange(p, as.Items, what, astart)
		return as
	case p.acceptKw("DROP"):
		d := p.parseDropSchema()
		if ds, ok := d.(*ast.DropSchema); ok {
			if ds.Distribution {
				p.uses(featDistribution, what+" DROP DISTRIBUTION", astart)
			} else {
				p.uses(featAlterTableSchema, what+" DROP", astart)
			}
		}
		return d
	}
	p.fail(p.tok(), "expected RENAME, SET, RESET, ADD, MODIFY or DROP after "+what+" name, found "+describe(p.tok()), "")
	return nil
}

// markSchemaChange notes the feature an ADD or MODIFY uses: a distribution
// came with Flink 1.20, columns, keys and watermarks with 1.17.
func markSchemaChange(p *parser, items []ast.Node, what string, start ast.Pos) {
	for _, it := range items {
		if _, ok := it.(*ast.Distribution); !ok {
			p.uses(featAlterTableSchema, what+" ADD/MODIFY", start)
			return
		}
	}
	p.uses(featDistribution, what+" ADD/MODIFY DISTRIBUTION", start)
}

func (p *parser) parseSchemaComponent() ast.Node {
	switch {
	case p.isKw("WATERMARK"):
		return p.parseWatermark()
	case p.isKw("CONSTRAINT") || p.isKws("PRIMARY", "KEY") || p.isKw("UNIQUE") && p.peek(1).Kind == LParen:
		return p.parseTableConstraint(true)
	case p.isKw("DISTRIBUTION") || p.isKw("DISTRIBUTED"):
		if p.acceptKw("DISTRIBUTION") {
			// ALTER TABLE t ADD DISTRIBUTION BY ... reads like DISTRIBUTED BY.
			return distributionBody(p, p.lastEnd, "DISTRIBUTION")
		}
		return p.parseDistribution()
	}
	return p.parseColumnDef(true)
}

func (p *parser) parseDropSchema() ast.AlterTableAction {
	switch {
	case p.isKw("IF") || p.isKw("PARTITION"):
		dp := &ast.DropPartitions{IfExists: p.parseIfExists()}
		for !p.failed {
			dp.Partitions = append(dp.Partitions, p.parsePartitionSpec(false))
			if !p.accept(Comma) {
				break
			}
		}
		return dp
	case p.acceptKws("PRIMARY", "KEY"):
		return &ast.DropSchema{PrimaryKey: true}
	case p.acceptKw("CONSTRAINT"):
		return &ast.DropSchema{Constraint: p.parseIdent("a constraint name")}
	case p.acceptKw("WATERMARK"):
		return &ast.DropSchema{Watermark: true}
	case p.acceptKw("DISTRIBUTION"):
		return &ast.DropSchema{Distribution: true}
	case p.accept(LParen):
		d := &ast.DropSchema{Parens: true}
		for !p.failed {
			d.Columns = append(d.Columns, p.parseQualifiedName("a column name"))
			if !p.accept(Comma) {
				break
			}
		}
		p.expect(RParen)
		return d
	}
	return &ast.DropSchema{Columns: []*ast.QualifiedName{p.parseQualifiedName("a column name")}}
}

// parsePartitionSpec reads PARTITION (k = v, ...) [WITH (...)].
func (p *parser) parsePartitionSpec(withOptions bool) *ast.PartitionSpec {
	start := p.tok().Pos
	p.expectKw("PARTITION")
	ps := &ast.PartitionSpec{Values: p.parsePartitionValues()}
	if withOptions && p.acceptKw("WITH") {
		ps.With = p.parseProperties()
	}
	ps.Span = p.span(start)
	return ps
}

// parsePartitionValues reads (col [= literal], ...).
func (p *parser) parsePartitionValues() []*ast.PartitionValue {
	var vals []*ast.PartitionValue
	p.expect(LParen)
	for !p.failed {
		start := p.tok().Pos
		pv := &ast.PartitionValue{Name: p.parseIdent("a partition column")}
		if p.accept(Eq) {
			pv.Value = p.parseExprPrec(ast.PrecAdd)
		}
		pv.Span = p.span(start)
		vals = append(vals, pv)
		if !p.accept(Comma) {
			break
		}
	}
	p.expect(RParen)
	return vals
}

// setSpan sets the span of an action node built before its extent was
// known.
func setSpan(n ast.Node, s ast.Span) {
	switch a := n.(type) {
	case *ast.RenameTable:
		a.Span = s
	case *ast.RenameColumn:
		a.Span = s
	case *ast.SetOptions:
		a.Span = s
	case *ast.ResetOptions:
		a.Span = s
	case *ast.AlterSchema:
		a.Span = s
	case *ast.DropSchema:
		a.Span = s
	case *ast.AddPartitions:
		a.Span = s
	case *ast.DropPartitions:
		a.Span = s
	}
}
