package flinksql

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// ---- CREATE ----

func (p *parser) parseCreate() ast.Statement {
	start := p.tok().Pos
	var orReplace, orAlter, replace, temporary, system bool
	if p.acceptKw("REPLACE") {
		replace = true
		p.uses(featReplaceTableAs, "REPLACE TABLE", start)
	} else {
		p.expectKw("CREATE")
		switch {
		case p.acceptKws("OR", "REPLACE"):
			orReplace = true
		case p.acceptKws("OR", "ALTER"):
			orAlter = true
		}
	}
	temporary = p.acceptKw("TEMPORARY")
	if p.isKw("SYSTEM") {
		t := p.next()
		system = true
		if !temporary && !p.isKw("CONNECTION") {
			p.report(t.Pos, t.End, CodeSyntax, "CREATE SYSTEM FUNCTION is not supported: system functions can only be registered as temporary functions",
				"write CREATE TEMPORARY SYSTEM FUNCTION")
		}
	}
	switch {
	case orAlter || p.isKws("MATERIALIZED", "TABLE"):
		return createMaterializedTable(p, start, orAlter, orReplace || replace, temporary)
	case p.acceptKw("TABLE"):
		if orReplace {
			p.uses(featReplaceTableAs, "CREATE OR REPLACE TABLE", start)
		}
		return p.parseCreateTable(start, orReplace, replace, temporary)
	case replace:
		p.fail(p.tok(), "expected TABLE after REPLACE, found "+describe(p.tok()), "")
	case p.acceptKw("VIEW"):
		return p.parseCreateView(start, orReplace, temporary)
	case p.acceptKw("FUNCTION"):
		return p.parseCreateFunction(start, orReplace, temporary, system)
	case p.acceptKw("CATALOG"):
		return p.parseCreateCatalog(start)
	case p.acceptKw("DATABASE"):
		return p.parseCreateDatabase(start)
	case p.acceptKw("MODEL"):
		return createModel(p, start, temporary)
	case p.acceptKw("CONNECTION"):
		return createConnection(p, start, temporary, system)
	default:
		p.fail(p.tok(), "expected TABLE, VIEW, FUNCTION, CATALOG, DATABASE, MATERIALIZED TABLE, MODEL or CONNECTION after CREATE, found "+describe(p.tok()), "")
	}
	return nil
}

func (p *parser) parseIfNotExists() bool { return p.acceptKws("IF", "NOT", "EXISTS") }

func (p *parser) parseIfExists() bool { return p.acceptKws("IF", "EXISTS") }

func (p *parser) parseCreateTable(start ast.Pos, orReplace, replace, temporary bool) ast.Statement {
	ct := &ast.CreateTable{OrReplace: orReplace, Replace: replace, Temporary: temporary}
	ct.IfNotExists = p.parseIfNotExists()
	ct.Name = p.parseQualifiedName("a table name")
	var schema tableSchema
	if p.is(LParen) && !p.failed {
		ct.HasSchema = true
		schema = parseTableSchema(p)
		ct.Columns, ct.ColumnNames, ct.Watermarks, ct.Constraints = schema.columns, schema.names, schema.watermarks, schema.constraints
	}
	if p.acceptKw("COMMENT") {
		ct.Comment = p.parseStringLit("the table comment")
	}
	if p.isKw("DISTRIBUTED") {
		dstart := p.tok().Pos
		ct.Distribution = p.parseDistribution()
		p.uses(featDistribution, "DISTRIBUTED", dstart)
	}
	if p.acceptKws("PARTITIONED", "BY") {
		ct.PartitionBy = p.parseParenIdentList("a partition column")
	}
	if p.acceptKw("WITH") {
		ct.With = p.parseProperties()
	}
	if p.isKw("LIKE") {
		ct.Like = p.parseLikeClause()
		if p.isKw("AS") && !p.failed {
			p.fail(p.tok(), "unexpected AS after LIKE: CREATE TABLE copies a table with LIKE or fills one with AS, not both", "")
			return nil
		}
	} else if p.isKw("AS") {
		astart := p.tok().Pos
		p.next()
		ct.As = p.parseQuery()
		if ct.HasSchema && (len(ct.Columns) > 0 || len(ct.Watermarks) > 0 || len(ct.Constraints) > 0 || len(ct.ColumnNames) > 0) {
			p.uses(featCTASSchema, "a schema in CREATE TABLE … AS", astart)
		}
	}
	if ct.ColumnNames != nil && ct.As == nil && !p.failed {
		p.report(schema.span.Pos, schema.span.End, CodeSyntax, "column names without types are supported in CREATE TABLE … AS only",
			"give each column a type, or fill the table with AS SELECT")
	}
	if !p.failed && !p.endOfStatement() {
		p.fail(p.tok(), "unexpected "+describe(p.tok())+" in CREATE TABLE",
			"the clauses go in this order: (schema) COMMENT, DISTRIBUTED BY, PARTITIONED BY, WITH (...), LIKE or AS")
		return nil
	}
	ct.Span = p.span(start)
	return ct
}

func (p *parser) parseWatermark() *ast.Watermark {
	start := p.tok().Pos
	p.expectKws("WATERMARK", "FOR")
	w := &ast.Watermark{Column: p.parseQualifiedName("the time attribute column")}
	p.expectKw("AS")
	w.Expr = p.parseExpr()
	noQueryIn(p, w.Expr, "a watermark")
	w.Span = p.span(start)
	return w
}

// parseTableConstraint reads [CONSTRAINT name] PRIMARY KEY [(cols)]
// [[NOT] ENFORCED]; withColumns is false for a column-level constraint.
func (p *parser) parseTableConstraint(withColumns bool) *ast.TableConstraint {
	start := p.tok().Pos
	c := &ast.TableConstraint{}
	if p.acceptKw("CONSTRAINT") {
		c.Name = p.parseIdent("a constraint name")
	}
	switch {
	case p.acceptKws("PRIMARY", "KEY"):
		c.Kind = "PRIMARY KEY"
	case p.acceptKw("UNIQUE"):
		c.Kind = "UNIQUE"
	default:
		p.fail(p.tok(), "expected PRIMARY KEY, found "+describe(p.tok()), "")
		return c
	}
	if withColumns {
		c.Columns = p.parseParenIdentList("a key column")
	}
	switch {
	case p.acceptKws("NOT", "ENFORCED"):
		c.Enforced = "NOT ENFORCED"
	case p.acceptKw("ENFORCED"):
		c.Enforced = "ENFORCED"
	}
	c.Span = p.span(start)
	return c
}

// parseColumnDef reads a physical, computed or metadata column;
// positioned allows FIRST / AFTER col (ALTER TABLE).
func (p *parser) parseColumnDef(positioned bool) *ast.ColumnDef {
	start := p.tok().Pos
	c := &ast.ColumnDef{Name: p.parseIdent("a column name")}
	for positioned && p.is(Dot) && !p.failed {
		// ALTER TABLE reaches into a ROW column: ADD a.b INT.
		p.next()
		c.Qualifier = append(c.Qualifier, c.Name)
		c.Name = p.parseIdent("a column name after '.'")
	}
	if p.acceptKw("AS") {
		c.Expr = p.parseExpr()
		noQueryIn(p, c.Expr, "a computed column")
	} else {
		c.Type = p.parseType()
		if p.acceptKw("METADATA") {
			c.Metadata = true
			if p.acceptKw("FROM") {
				c.MetadataFrom = p.parseStringLit("the metadata key in quotes")
			}
			c.Virtual = p.acceptKw("VIRTUAL")
		} else if p.isKw("CONSTRAINT") || p.isKws("PRIMARY", "KEY") || p.isKw("UNIQUE") {
			c.Constraint = p.parseTableConstraint(false)
		}
	}
	if p.acceptKw("COMMENT") {
		c.Comment = p.parseStringLit("the column comment")
	}
	if positioned {
		pstart := p.tok().Pos
		switch {
		case p.acceptKw("FIRST"):
			c.Position = &ast.ColumnPosition{First: true}
		case p.acceptKw("AFTER"):
			q := p.parseQualifiedName("a column name")
			c.Position = &ast.ColumnPosition{After: q.Parts[len(q.Parts)-1], AfterQualifier: q.Parts[:len(q.Parts)-1]}
		}
		if c.Position != nil {
			c.Position.Span = p.span(pstart)
		}
	}
	c.Span = p.span(start)
	return c
}

func (p *parser) parseDistribution() *ast.Distribution {
	start := p.tok().Pos
	p.expectKw("DISTRIBUTED")
	return distributionBody(p, start, "DISTRIBUTED")
}

func (p *parser) parseLikeClause() *ast.LikeClause {
	start := p.tok().Pos
	p.expectKw("LIKE")
	l := &ast.LikeClause{Table: p.parseQualifiedName("the source table of LIKE")}
	if p.accept(LParen) {
		for !p.failed {
			ostart := p.tok().Pos
			o := &ast.LikeOption{}
			switch {
			case p.acceptKw("INCLUDING"):
				o.Strategy = "INCLUDING"
			case p.acceptKw("EXCLUDING"):
				o.Strategy = "EXCLUDING"
			case p.acceptKw("OVERWRITING"):
				o.Strategy = "OVERWRITING"
			default:
				p.fail(p.tok(), "expected INCLUDING, EXCLUDING or OVERWRITING, found "+describe(p.tok()), "")
			}
			switch w := p.up[p.pos]; w {
			case "ALL", "CONSTRAINTS", "DISTRIBUTION", "GENERATED", "METADATA", "OPTIONS", "PARTITIONS", "WATERMARKS":
				o.Feature = w
				p.next()
			default:
				p.fail(p.tok(), "expected ALL, CONSTRAINTS, DISTRIBUTION, GENERATED, METADATA, OPTIONS, PARTITIONS or WATERMARKS, found "+describe(p.tok()), "")
			}
			o.Span = p.span(ostart)
			l.Options = append(l.Options, o)
			if p.is(Comma) {
				p.fail(p.tok(), "LIKE options are separated by spaces, not commas", "write (EXCLUDING ALL INCLUDING GENERATED)")
			}
			if !(p.isKw("INCLUDING") || p.isKw("EXCLUDING") || p.isKw("OVERWRITING")) {
				break
			}
		}
		p.expect(RParen)
	}
	l.Span = p.span(start)
	return l
}

func (p *parser) parseCreateView(start ast.Pos, orReplace, temporary bool) ast.Statement {
	v := &ast.CreateView{OrReplace: orReplace, Temporary: temporary}
	v.IfNotExists = p.parseIfNotExists()
	v.Name = p.parseQualifiedName("a view name")
	if p.is(LParen) {
		v.Columns = p.parseParenIdentList("a column name")
	}
	if p.acceptKw("COMMENT") {
		v.Comment = p.parseStringLit("the view comment")
	}
	p.expectKw("AS")
	v.Query = p.parseQuery()
	v.Span = p.span(start)
	return v
}

func (p *parser) parseLanguage() string {
	if !p.acceptKw("LANGUAGE") {
		return ""
	}
	for _, w := range []string{"JAVA", "SCALA", "SQL", "PYTHON"} {
		if p.acceptKw(w) {
			return w
		}
	}
	p.fail(p.tok(), "expected JAVA, SCALA, SQL or PYTHON after LANGUAGE, found "+describe(p.tok()), "")
	return ""
}

func (p *parser) parseCreateFunction(start ast.Pos, orReplace, temporary, system bool) ast.Statement {
	f := &ast.CreateFunction{OrReplace: orReplace, Temporary: temporary, System: system}
	f.IfNotExists = p.parseIfNotExists()
	f.Name = p.parseQualifiedName("a function name")
	if system && len(f.Name.Parts) > 1 && !p.failed {
		p.report(f.Name.Pos, f.Name.End, CodeSyntax, "a temporary system function has a simple name, without catalog or database: '"+f.Name.String()+"'",
			"write CREATE TEMPORARY SYSTEM FUNCTION "+f.Name.Parts[len(f.Name.Parts)-1].String()+", or CREATE TEMPORARY FUNCTION "+f.Name.String())
	}
	p.expectKw("AS")
	f.Class = p.parseStringLit("the implementing class in quotes")
	langTok := p.peek(1)
	f.Language = p.parseLanguage()
	if p.isKw("USING") && !p.failed {
		if f.Language == "SQL" || f.Language == "PYTHON" {
			p.report(langTok.Pos, langTok.End, CodeSyntax, "CREATE FUNCTION … USING JAR is not applicable to the "+f.Language+" language",
				"drop the USING clause: a "+strings.ToLower(f.Language)+" function is not loaded from a jar")
		}
		p.next()
		for !p.failed {
			rstart := p.tok().Pos
			r := &ast.Resource{}
			switch {
			case p.acceptKw("JAR"):
				r.Kind = "JAR"
			case p.acceptKw("ARTIFACT"):
				r.Kind = "ARTIFACT"
				p.uses(featArtifact, "", rstart)
			default:
				p.fail(p.tok(), "expected JAR or ARTIFACT after USING, found "+describe(p.tok()), "")
				return nil
			}
			r.Path = p.parseStringLit("the " + strings.ToLower(r.Kind) + " path in quotes")
			r.Span = p.span(rstart)
			f.Using = append(f.Using, r)
			f.Jars = append(f.Jars, r.Path)
			if !p.accept(Comma) {
				break
			}
		}
	}
	if p.isKw("WITH") {
		wstart := p.next().Pos
		f.With = p.parseProperties()
		p.uses(featFunctionOptions, "", wstart)
	}
	f.Span = p.span(start)
	return f
}

func (p *parser) parseCreateCatalog(start ast.Pos) ast.Statement {
	c := &ast.CreateCatalog{IfNotExists: p.parseIfNotExists()}
	c.Name = p.parseIdent("a catalog name")
	if p.isKw("COMMENT") {
		cstart := p.next().Pos
		c.Comment = p.parseStringLit("the catalog comment")
		p.uses(featCatalogComment, "", cstart)
	}
	if p.acceptKw("WITH") {
		c.With = p.parseProperties()
	}
	c.Span = p.span(start)
	return c
}

func (p *parser) parseCreateDatabase(start ast.Pos) ast.Statement {
	d := &ast.CreateDatabase{IfNotExists: p.parseIfNotExists()}
	d.Name = p.parseQualifiedName("a database name")
	if p.acceptKw("COMMENT") {
		d.Comment = p.parseStringLit("the database comment")
	}
	if p.acceptKw("WITH") {
		d.With = p.parseProperties()
	}
	d.Span = p.span(start)
	return d
}
