package flinksql

// ---- CREATE ----

func (p *parser) parseCreate() Statement {
	start := p.tok().Pos
	var orReplace, replace, temporary, system bool
	if p.acceptKw("REPLACE") {
		replace = true
	} else {
		p.expectKw("CREATE")
		orReplace = p.acceptKws("OR", "REPLACE")
	}
	if p.acceptKw("TEMPORARY") {
		temporary = true
		system = p.acceptKw("SYSTEM")
	}
	switch {
	case p.acceptKw("TABLE"):
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
	default:
		p.fail(p.tok(), "expected TABLE, VIEW, FUNCTION, CATALOG or DATABASE after CREATE, found "+describe(p.tok()), "")
	}
	return nil
}

func (p *parser) parseIfNotExists() bool { return p.acceptKws("IF", "NOT", "EXISTS") }

func (p *parser) parseIfExists() bool { return p.acceptKws("IF", "EXISTS") }

func (p *parser) parseCreateTable(start Pos, orReplace, replace, temporary bool) Statement {
	ct := &CreateTable{OrReplace: orReplace, Replace: replace, Temporary: temporary}
	ct.IfNotExists = p.parseIfNotExists()
	ct.Name = p.parseQualifiedName("a table name")
	if p.is(LParen) && !p.failed {
		ct.HasSchema = true
		p.next()
		if !p.is(RParen) {
			for !p.failed {
				p.parseTableElement(ct)
				if !p.accept(Comma) {
					break
				}
			}
		}
		p.expect(RParen)
	}
	if p.acceptKw("COMMENT") {
		ct.Comment = p.parseStringLit("the table comment")
	}
	if p.isKw("DISTRIBUTED") {
		ct.Distribution = p.parseDistribution()
	}
	if p.acceptKws("PARTITIONED", "BY") {
		ct.PartitionBy = p.parseParenIdentList("a partition column")
	}
	if p.acceptKw("WITH") {
		ct.With = p.parseProperties()
	}
	if p.isKw("LIKE") {
		ct.Like = p.parseLikeClause()
	}
	if p.acceptKw("AS") {
		ct.As = p.parseQuery()
	}
	if !p.failed && !p.endOfStatement() {
		p.fail(p.tok(), "unexpected "+describe(p.tok())+" in CREATE TABLE",
			"the clauses go in this order: (schema) COMMENT, DISTRIBUTED BY, PARTITIONED BY, WITH (...), LIKE or AS")
		return nil
	}
	ct.Span = p.span(start)
	return ct
}

// parseTableElement reads one column, constraint or watermark of a
// table schema.
func (p *parser) parseTableElement(ct *CreateTable) {
	switch {
	case p.isKw("WATERMARK"):
		// WATERMARK is reserved, so it starts a watermark even when FOR is
		// missing: the error then says so.
		ct.Watermarks = append(ct.Watermarks, p.parseWatermark())
	case p.isKw("CONSTRAINT") || p.isKws("PRIMARY", "KEY") || p.isKw("UNIQUE") && p.peek(1).Kind == LParen:
		ct.Constraints = append(ct.Constraints, p.parseTableConstraint(true))
	default:
		ct.Columns = append(ct.Columns, p.parseColumnDef(false))
	}
}

func (p *parser) parseWatermark() *Watermark {
	start := p.tok().Pos
	p.expectKws("WATERMARK", "FOR")
	w := &Watermark{Column: p.parseQualifiedName("the time attribute column")}
	p.expectKw("AS")
	w.Expr = p.parseExpr()
	w.Span = p.span(start)
	return w
}

// parseTableConstraint reads [CONSTRAINT name] PRIMARY KEY [(cols)]
// [[NOT] ENFORCED]; withColumns is false for a column-level constraint.
func (p *parser) parseTableConstraint(withColumns bool) *TableConstraint {
	start := p.tok().Pos
	c := &TableConstraint{}
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
func (p *parser) parseColumnDef(positioned bool) *ColumnDef {
	start := p.tok().Pos
	c := &ColumnDef{Name: p.parseIdent("a column name")}
	if p.acceptKw("AS") {
		c.Expr = p.parseExpr()
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
			c.Position = &ColumnPosition{First: true}
		case p.acceptKw("AFTER"):
			c.Position = &ColumnPosition{After: p.parseIdent("a column name")}
		}
		if c.Position != nil {
			c.Position.Span = p.span(pstart)
		}
	}
	c.Span = p.span(start)
	return c
}

func (p *parser) parseDistribution() *Distribution {
	start := p.tok().Pos
	p.expectKw("DISTRIBUTED")
	d := &Distribution{}
	if p.acceptKw("BY") {
		switch {
		case p.acceptKw("HASH"):
			d.Kind = "HASH"
		case p.acceptKw("RANGE"):
			d.Kind = "RANGE"
		}
		d.Columns = p.parseParenIdentList("a distribution column")
	}
	if p.acceptKw("INTO") {
		d.Buckets = p.parseExprPrec(precAdd)
		p.expectKw("BUCKETS")
	}
	if d.Columns == nil && d.Buckets == nil && !p.failed {
		p.fail(p.tok(), "expected BY or INTO after DISTRIBUTED, found "+describe(p.tok()), "")
	}
	d.Span = p.span(start)
	return d
}

func (p *parser) parseLikeClause() *LikeClause {
	start := p.tok().Pos
	p.expectKw("LIKE")
	l := &LikeClause{Table: p.parseQualifiedName("the source table of LIKE")}
	if p.accept(LParen) {
		for !p.failed {
			ostart := p.tok().Pos
			o := &LikeOption{}
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

func (p *parser) parseCreateView(start Pos, orReplace, temporary bool) Statement {
	v := &CreateView{OrReplace: orReplace, Temporary: temporary}
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
	switch w := p.up[p.pos]; w {
	case "JAVA", "SCALA", "PYTHON", "SQL":
		p.next()
		return w
	}
	p.fail(p.tok(), "expected JAVA, SCALA or PYTHON after LANGUAGE, found "+describe(p.tok()), "")
	return ""
}

func (p *parser) parseCreateFunction(start Pos, orReplace, temporary, system bool) Statement {
	f := &CreateFunction{OrReplace: orReplace, Temporary: temporary, System: system}
	f.IfNotExists = p.parseIfNotExists()
	f.Name = p.parseQualifiedName("a function name")
	p.expectKw("AS")
	f.Class = p.parseStringLit("the implementing class in quotes")
	f.Language = p.parseLanguage()
	if p.acceptKw("USING") {
		for !p.failed {
			p.expectKw("JAR")
			f.Jars = append(f.Jars, p.parseStringLit("the jar path in quotes"))
			if !p.accept(Comma) {
				break
			}
		}
	}
	f.Span = p.span(start)
	return f
}

func (p *parser) parseCreateCatalog(start Pos) Statement {
	c := &CreateCatalog{IfNotExists: p.parseIfNotExists()}
	c.Name = p.parseIdent("a catalog name")
	if p.acceptKw("COMMENT") {
		c.Comment = p.parseStringLit("the catalog comment")
	}
	if p.acceptKw("WITH") {
		c.With = p.parseProperties()
	}
	c.Span = p.span(start)
	return c
}

func (p *parser) parseCreateDatabase(start Pos) Statement {
	d := &CreateDatabase{IfNotExists: p.parseIfNotExists()}
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
