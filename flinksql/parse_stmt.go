package flinksql

import "strings"

// parseStatement dispatches on the statement's first keyword.
func (p *parser) parseStatement() Statement {
	t := p.tok()
	switch p.up[p.pos] {
	case "SET":
		return p.parseSet()
	case "RESET":
		return p.parseReset()
	case "CREATE":
		return p.parseCreate()
	case "REPLACE":
		if p.isKwAt(1, "TABLE") {
			return p.parseCreate()
		}
	case "DROP":
		return p.parseDrop()
	case "ALTER":
		return p.parseAlter()
	case "USE":
		return p.parseUse()
	case "SHOW":
		return p.parseShow()
	case "DESCRIBE", "DESC":
		return p.parseDescribe()
	case "EXPLAIN":
		return p.parseExplain()
	case "LOAD":
		return p.parseLoadModule()
	case "UNLOAD":
		return p.parseUnloadModule()
	case "ADD", "REMOVE":
		if p.isKwAt(1, "JAR") {
			return p.parseJar()
		}
	case "INSERT":
		return p.parseInsert()
	case "BEGIN":
		return p.parseStatementSet(SetFormClient)
	case "STATEMENT":
		return p.parseStatementSet(SetFormBare)
	case "EXECUTE":
		return p.parseExecute()
	case "COMPILE":
		return p.parseCompilePlan()
	case "SELECT", "WITH", "VALUES":
		return p.parseQueryStmt()
	case "CALL":
		return p.parseCall()
	case "ANALYZE":
		return p.parseAnalyze()
	case "TRUNCATE":
		return p.parseTruncate()
	case "DELETE":
		return p.parseDelete()
	case "UPDATE":
		return p.parseUpdate()
	case "STOP":
		return p.parseStopJob()
	case "END":
		p.fail(t, "END without BEGIN STATEMENT SET", "")
		return nil
	}
	if t.Kind == LParen && p.parenLeadsToQuery() {
		return p.parseQueryStmt()
	}
	if t.Kind == EOF {
		p.fail(t, "expected a statement, found end of input", "")
		return nil
	}
	p.fail(t, "expected a statement, found "+describe(t),
		"statements start with SELECT, INSERT, CREATE, SET, ... ")
	return nil
}

func (p *parser) parseQueryStmt() Statement {
	start := p.tok().Pos
	q := p.parseQuery()
	return &QueryStmt{Span: p.span(start), Query: q}
}

// rawUntil collects the source text of the tokens before the first one
// for which stop is true; SET key = value takes unquoted keys with dots
// and dashes this way.
//
// Tokens written apart (by space or a comment) are joined by one space;
// comments stay comments, so the formatter does not print them twice.
func (p *parser) rawUntil(stop func() bool) (string, bool) {
	if p.failed || stop() {
		return "", false
	}
	var b strings.Builder
	prevEnd := -1
	for !stop() {
		t := p.next()
		if prevEnd >= 0 && t.Pos.Offset > prevEnd {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
		prevEnd = t.End.Offset
	}
	return b.String(), true
}

func (p *parser) endOfStatement() bool { return p.is(Semicolon) || p.is(EOF) }

func (p *parser) parseSet() Statement {
	start := p.next().Pos
	s := &SetStmt{}
	if p.endOfStatement() {
		s.Span = p.span(start)
		return s
	}
	if p.is(String) && (p.peek(1).Kind == Eq || p.peek(1).Kind == Semicolon || p.peek(1).Kind == EOF) {
		s.Key, s.KeyQuoted = p.next().Value, true
	} else {
		s.Key, _ = p.rawUntil(func() bool { return p.is(Eq) || p.endOfStatement() })
	}
	if !p.is(Eq) {
		p.fail(p.tok(), "expected '=' after the key of SET, found "+describe(p.tok()), "write SET 'key' = 'value'")
		return nil
	}
	p.next()
	s.HasValue = true
	if p.is(String) && (p.peek(1).Kind == Semicolon || p.peek(1).Kind == EOF) {
		s.Value, s.ValueQuoted = p.next().Value, true
	} else {
		var ok bool
		s.Value, ok = p.rawUntil(p.endOfStatement)
		if !ok {
			p.fail(p.tok(), "expected a value after '=', found "+describe(p.tok()), "write SET 'key' = 'value'")
			return nil
		}
	}
	s.Span = p.span(start)
	return s
}

func (p *parser) parseReset() Statement {
	start := p.next().Pos
	s := &ResetStmt{}
	switch {
	case p.endOfStatement():
	case p.is(String) && (p.peek(1).Kind == Semicolon || p.peek(1).Kind == EOF):
		s.Key, s.KeyQuoted = p.next().Value, true
	default:
		s.Key, _ = p.rawUntil(p.endOfStatement)
	}
	s.Span = p.span(start)
	return s
}

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

// ---- DROP / ALTER ----

func (p *parser) parseDrop() Statement {
	start := p.next().Pos
	d := &DropStmt{}
	if p.acceptKw("TEMPORARY") {
		d.Temporary = true
		d.System = p.acceptKw("SYSTEM")
	}
	switch w := p.up[p.pos]; w {
	case "TABLE", "VIEW", "FUNCTION", "CATALOG", "DATABASE", "MODEL", "CONNECTION":
		d.Object = w
		p.next()
	case "MATERIALIZED":
		p.next()
		p.expectKw("TABLE")
		d.Object = "MATERIALIZED TABLE"
	default:
		p.fail(p.tok(), "expected TABLE, VIEW, FUNCTION, CATALOG or DATABASE after DROP, found "+describe(p.tok()), "")
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

func (p *parser) parseAlter() Statement {
	start := p.next().Pos
	temporary, system := false, false
	if p.acceptKw("TEMPORARY") {
		temporary = true
		system = p.acceptKw("SYSTEM")
	}
	switch {
	case p.acceptKw("FUNCTION"):
		f := &AlterFunction{Temporary: temporary, System: system}
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
	case p.acceptKw("VIEW"):
		v := &AlterView{Name: p.parseQualifiedName("a view name")}
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
		d := &AlterDatabase{Name: p.parseQualifiedName("a database name")}
		p.expectKw("SET")
		d.Props = p.parseProperties()
		d.Span = p.span(start)
		return d
	case p.acceptKw("CATALOG"):
		c := &AlterCatalog{Name: p.parseIdent("a catalog name")}
		switch {
		case p.acceptKw("SET"):
			c.Set = p.parseProperties()
		case p.acceptKw("RESET"):
			c.Reset = p.parseResetKeys()
		case p.acceptKw("COMMENT"):
			c.Comment = p.parseStringLit("the catalog comment")
		default:
			p.fail(p.tok(), "expected SET, RESET or COMMENT after ALTER CATALOG name, found "+describe(p.tok()), "")
		}
		c.Span = p.span(start)
		return c
	default:
		p.fail(p.tok(), "expected TABLE, VIEW, FUNCTION, DATABASE or CATALOG after ALTER, found "+describe(p.tok()), "")
	}
	return nil
}

func (p *parser) parseResetKeys() []*StringLit {
	var keys []*StringLit
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

func (p *parser) parseAlterTable(start Pos) Statement {
	a := &AlterTable{IfExists: p.parseIfExists()}
	a.Name = p.parseQualifiedName("a table name")
	astart := p.tok().Pos
	switch {
	case p.acceptKw("RENAME"):
		if p.acceptKw("TO") {
			a.Action = &RenameTable{To: p.parseQualifiedName("the new table name")}
		} else {
			rc := &RenameColumn{From: p.parseQualifiedName("the column to rename")}
			p.expectKw("TO")
			rc.To = p.parseIdent("the new column name")
			a.Action = rc
		}
	case p.acceptKw("SET"):
		a.Action = &SetOptions{Props: p.parseProperties()}
	case p.acceptKw("RESET"):
		a.Action = &ResetOptions{Keys: p.parseResetKeys()}
	case p.isKw("ADD") && (p.isKwAt(1, "PARTITION") || p.isKws("ADD", "IF", "NOT", "EXISTS")):
		p.next()
		ap := &AddPartitions{IfNotExists: p.parseIfNotExists()}
		for !p.failed && p.isKw("PARTITION") {
			ap.Partitions = append(ap.Partitions, p.parsePartitionSpec(true))
		}
		if len(ap.Partitions) == 0 {
			p.fail(p.tok(), "expected PARTITION, found "+describe(p.tok()), "")
		}
		a.Action = ap
	case p.isKw("ADD") || p.isKw("MODIFY"):
		as := &AlterSchema{Modify: p.isKw("MODIFY")}
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
		a.Action = as
	case p.acceptKw("DROP"):
		a.Action = p.parseDropSchema()
	default:
		p.fail(p.tok(), "expected RENAME, SET, RESET, ADD, MODIFY or DROP after ALTER TABLE name, found "+describe(p.tok()), "")
		return nil
	}
	if a.Action != nil {
		setSpan(a.Action, p.span(astart))
	}
	a.Span = p.span(start)
	return a
}

func (p *parser) parseSchemaComponent() Node {
	switch {
	case p.isKw("WATERMARK"):
		return p.parseWatermark()
	case p.isKw("CONSTRAINT") || p.isKws("PRIMARY", "KEY") || p.isKw("UNIQUE") && p.peek(1).Kind == LParen:
		return p.parseTableConstraint(true)
	case p.isKw("DISTRIBUTION") || p.isKw("DISTRIBUTED"):
		if p.acceptKw("DISTRIBUTION") {
			// ALTER TABLE t ADD DISTRIBUTION BY ... reads like DISTRIBUTED BY.
			start := p.lastEnd
			d := &Distribution{}
			p.expectKw("BY")
			switch {
			case p.acceptKw("HASH"):
				d.Kind = "HASH"
			case p.acceptKw("RANGE"):
				d.Kind = "RANGE"
			}
			d.Columns = p.parseParenIdentList("a distribution column")
			if p.acceptKw("INTO") {
				d.Buckets = p.parseExprPrec(precAdd)
				p.expectKw("BUCKETS")
			}
			d.Span = p.span(start)
			return d
		}
		return p.parseDistribution()
	}
	return p.parseColumnDef(true)
}

func (p *parser) parseDropSchema() AlterTableAction {
	switch {
	case p.isKw("IF") || p.isKw("PARTITION"):
		dp := &DropPartitions{IfExists: p.parseIfExists()}
		for !p.failed {
			dp.Partitions = append(dp.Partitions, p.parsePartitionSpec(false))
			if !p.accept(Comma) {
				break
			}
		}
		return dp
	case p.acceptKws("PRIMARY", "KEY"):
		return &DropSchema{PrimaryKey: true}
	case p.acceptKw("CONSTRAINT"):
		return &DropSchema{Constraint: p.parseIdent("a constraint name")}
	case p.acceptKw("WATERMARK"):
		return &DropSchema{Watermark: true}
	case p.acceptKw("DISTRIBUTION"):
		return &DropSchema{Distribution: true}
	case p.accept(LParen):
		d := &DropSchema{Parens: true}
		for !p.failed {
			d.Columns = append(d.Columns, p.parseQualifiedName("a column name"))
			if !p.accept(Comma) {
				break
			}
		}
		p.expect(RParen)
		return d
	}
	return &DropSchema{Columns: []*QualifiedName{p.parseQualifiedName("a column name")}}
}

// parsePartitionSpec reads PARTITION (k = v, ...) [WITH (...)].
func (p *parser) parsePartitionSpec(withOptions bool) *PartitionSpec {
	start := p.tok().Pos
	p.expectKw("PARTITION")
	ps := &PartitionSpec{Values: p.parsePartitionValues()}
	if withOptions && p.acceptKw("WITH") {
		ps.With = p.parseProperties()
	}
	ps.Span = p.span(start)
	return ps
}

// parsePartitionValues reads (col [= literal], ...).
func (p *parser) parsePartitionValues() []*PartitionValue {
	var vals []*PartitionValue
	p.expect(LParen)
	for !p.failed {
		start := p.tok().Pos
		pv := &PartitionValue{Name: p.parseIdent("a partition column")}
		if p.accept(Eq) {
			pv.Value = p.parseExprPrec(precAdd)
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

// ---- USE / SHOW / DESCRIBE / EXPLAIN ----

func (p *parser) parseUse() Statement {
	start := p.next().Pos
	switch {
	case p.isKw("CATALOG") && p.peek(1).Kind != Semicolon && p.peek(1).Kind != EOF:
		p.next()
		return &UseStmt{Catalog: true, Name: p.parseQualifiedName("a catalog name"), Span: p.span(start)}
	case p.isKw("MODULES") && p.peek(1).Kind != Semicolon && p.peek(1).Kind != EOF:
		p.next()
		names := p.parseIdentList("a module name")
		return &UseModules{Span: p.span(start), Names: names}
	}
	name := p.parseQualifiedName("a catalog or database name")
	return &UseStmt{Span: p.span(start), Name: name}
}

func (p *parser) parseShow() Statement {
	start := p.next().Pos
	s := &ShowStmt{}
	words := func(ws ...string) bool {
		if p.acceptKws(ws...) {
			s.Object = strings.Join(ws, " ")
			return true
		}
		return false
	}
	switch {
	case words("CURRENT", "CATALOG"), words("CURRENT", "DATABASE"):
	case words("CREATE", "MATERIALIZED", "TABLE"), words("CREATE", "TABLE"), words("CREATE", "VIEW"),
		words("CREATE", "CATALOG"), words("CREATE", "MODEL"), words("CREATE", "CONNECTION"), words("CREATE", "FUNCTION"):
		if s.Object == "CREATE CATALOG" {
			id := p.parseIdent("a catalog name")
			s.Target = &QualifiedName{Span: id.Span, Parts: []*Ident{id}}
		} else {
			s.Target = p.parseQualifiedName("the object name")
		}
	case words("USER", "FUNCTIONS"), words("FULL", "MODULES"), words("MATERIALIZED", "TABLES"):
	case words("PARTITIONS"):
		s.Target = p.parseQualifiedName("a table name")
		if p.acceptKw("PARTITION") {
			s.Partition = p.parsePartitionValues()
		}
	case words("COLUMNS"):
		switch {
		case p.acceptKw("FROM"):
			s.FromKw = "FROM"
		case p.acceptKw("IN"):
			s.FromKw = "IN"
		default:
			p.fail(p.tok(), "expected FROM or IN after SHOW COLUMNS, found "+describe(p.tok()), "")
		}
		s.From = p.parseQualifiedName("a table name")
	default:
		switch w := p.up[p.pos]; w {
		case "CATALOGS", "DATABASES", "TABLES", "VIEWS", "FUNCTIONS", "MODULES", "JARS", "JOBS",
			"PROCEDURES", "MODELS", "CONNECTIONS":
			s.Object = w
			p.next()
		default:
			p.fail(p.tok(), "expected what to show (TABLES, DATABASES, CATALOGS, FUNCTIONS, VIEWS, MODULES, JARS, JOBS, CREATE TABLE, ...), found "+describe(p.tok()), "")
			return nil
		}
	}
	if s.FromKw == "" {
		switch {
		case p.acceptKw("FROM"):
			s.FromKw = "FROM"
			s.From = p.parseQualifiedName("a catalog or database name")
		case p.acceptKw("IN"):
			s.FromKw = "IN"
			s.From = p.parseQualifiedName("a catalog or database name")
		}
	}
	s.Not = p.isKw("NOT") && (p.isKwAt(1, "LIKE") || p.isKwAt(1, "ILIKE"))
	if s.Not {
		p.next()
	}
	switch {
	case p.acceptKw("LIKE"):
		s.LikeOp = "LIKE"
	case p.acceptKw("ILIKE"):
		s.LikeOp = "ILIKE"
	}
	if s.LikeOp != "" {
		s.Pattern = p.parseStringLit("a LIKE pattern in quotes")
	}
	s.Span = p.span(start)
	return s
}

func (p *parser) parseDescribe() Statement {
	start := p.next().Pos
	d := &DescribeStmt{}
	nameAhead := func(n int) bool {
		k := p.peek(n).Kind
		return k == Word || k == QuotedIdent || k == String
	}
	switch w := p.up[p.pos]; w {
	case "CATALOG", "DATABASE", "FUNCTION", "MODEL", "CONNECTION":
		if nameAhead(1) {
			d.Object = w
			p.next()
		}
	case "JOB":
		if p.peek(1).Kind == String {
			p.next()
			d.Object = "JOB"
			d.JobID = p.parseStringLit("a job id")
			d.Span = p.span(start)
			return d
		}
	}
	if p.isKw("EXTENDED") && nameAhead(1) {
		p.next()
		d.Extended = true
	}
	d.Name = p.parseQualifiedName("the name of what to describe")
	d.Span = p.span(start)
	return d
}

func (p *parser) parseExplain() Statement {
	start := p.next().Pos
	e := &ExplainStmt{}
	if p.acceptKws("PLAN", "FOR") {
		e.PlanFor = true
	} else {
		for !p.failed {
			switch w := p.up[p.pos]; w {
			case "ESTIMATED_COST", "CHANGELOG_MODE", "JSON_EXECUTION_PLAN", "PLAN_ADVICE":
				for _, d := range e.Details {
					if d == w {
						p.fail(p.tok(), "explain detail "+w+" is given twice", "")
					}
				}
				e.Details = append(e.Details, w)
				p.next()
				if p.accept(Comma) {
					continue
				}
			}
			break
		}
	}
	e.Stmt = p.parseRestricted("EXPLAIN takes a query, an INSERT or a statement set", true)
	e.Span = p.span(start)
	return e
}

func (p *parser) parseLoadModule() Statement {
	start := p.next().Pos
	p.expectKw("MODULE")
	l := &LoadModule{Name: p.parseIdent("a module name")}
	if p.acceptKw("WITH") {
		l.With = p.parseProperties()
	}
	l.Span = p.span(start)
	return l
}

func (p *parser) parseUnloadModule() Statement {
	start := p.next().Pos
	p.expectKw("MODULE")
	u := &UnloadModule{Name: p.parseIdent("a module name")}
	u.Span = p.span(start)
	return u
}

func (p *parser) parseJar() Statement {
	start := p.tok().Pos
	j := &JarStmt{Remove: p.isKw("REMOVE")}
	p.next()
	p.expectKw("JAR")
	j.Path = p.parseStringLit("the jar path in quotes")
	j.Span = p.span(start)
	return j
}

// ---- DML ----

func (p *parser) parseInsert() Statement {
	start := p.next().Pos
	ins := &InsertStmt{}
	switch {
	case p.acceptKw("INTO"):
	case p.acceptKw("OVERWRITE"):
		ins.Overwrite = true
	default:
		p.fail(p.tok(), "expected INTO or OVERWRITE after INSERT, found "+describe(p.tok()), "")
		return nil
	}
	ins.Table = p.parseQualifiedName("the sink table name")
	ins.Hints = p.parseHints()
	if p.acceptKw("PARTITION") {
		ins.Partition = p.parsePartitionValues()
		for _, pv := range ins.Partition {
			if pv.Value == nil && !p.failed {
				// INSERT takes static partitions only (PartitionSpecCommaList
				// in Flink's parser); dynamic ones are simply left out.
				p.fail(Token{Pos: pv.End, End: pv.End}, "expected '=' and a value for partition column '"+pv.Name.Name+"'",
					"leave dynamic partition columns out of PARTITION (...)")
			}
		}
	}
	if p.is(LParen) && !p.parenLeadsToQuery() {
		ins.Columns = p.parseParenIdentList("a column of the sink")
	}
	if !p.failed && !p.isQueryStart() {
		p.fail(p.tok(), "expected SELECT or VALUES after INSERT INTO "+ins.Table.String()+", found "+describe(p.tok()), "")
		return nil
	}
	ins.Query = p.parseQuery()
	ins.Span = p.span(start)
	return ins
}

// parseStatementSet reads BEGIN STATEMENT SET; stmts END, EXECUTE
// STATEMENT SET BEGIN stmts END or STATEMENT SET BEGIN stmts END.
func (p *parser) parseStatementSet(form SetForm) Statement {
	start := p.tok().Pos
	switch form {
	case SetFormClient:
		p.expectKws("BEGIN", "STATEMENT", "SET")
		p.expect(Semicolon)
	case SetFormExecute:
		p.expectKws("EXECUTE", "STATEMENT", "SET", "BEGIN")
	case SetFormBare:
		p.expectKws("STATEMENT", "SET", "BEGIN")
	}
	ss := &StatementSet{Form: form}
	if p.failed {
		return nil
	}
	for {
		for p.accept(Semicolon) {
		}
		if p.isKw("END") || p.is(EOF) {
			break
		}
		var st Statement
		if p.isKw("INSERT") {
			st = p.parseStatement()
		} else {
			p.fail(p.tok(), "a statement set holds only INSERT statements, found "+describe(p.tok()), "")
		}
		if !p.failed && !p.is(Semicolon) {
			p.fail(p.tok(), "expected ';' after a statement of the statement set, found "+describe(p.tok()), "")
		}
		if p.failed {
			// Recover inside the block so one bad INSERT does not hide the
			// others or swallow the END.
			p.skipStatement()
			p.failed = false
			continue
		}
		ss.Stmts = append(ss.Stmts, st)
	}
	if !p.isKw("END") {
		p.fail(p.tok(), "expected END to close the statement set, found "+describe(p.tok()), "")
		return nil
	}
	p.next()
	ss.Span = p.span(start)
	return ss
}

func (p *parser) parseExecute() Statement {
	if p.isKws("EXECUTE", "STATEMENT", "SET") {
		return p.parseStatementSet(SetFormExecute)
	}
	start := p.next().Pos
	if p.acceptKw("PLAN") {
		ep := &ExecutePlan{Path: p.parseStringLit("the plan file in quotes")}
		ep.Span = p.span(start)
		return ep
	}
	st := p.parseRestricted("EXECUTE takes an INSERT, a query or a statement set", true)
	if st == nil {
		return nil
	}
	return &ExecuteStmt{Span: p.span(start), Stmt: st}
}

func (p *parser) parseCompilePlan() Statement {
	start := p.next().Pos
	execute := p.acceptKws("AND", "EXECUTE")
	p.expectKw("PLAN")
	c := &CompilePlan{Execute: execute, Path: p.parseStringLit("the plan file in quotes")}
	if !execute {
		c.IfNotExists = p.parseIfNotExists()
	}
	p.expectKw("FOR")
	c.Stmt = p.parseRestricted("COMPILE PLAN takes an INSERT or a statement set", false)
	c.Span = p.span(start)
	return c
}

// parseRestricted parses the statement EXPLAIN, EXECUTE or COMPILE PLAN
// wraps: an INSERT, a statement set or (when queries is true) a query.
func (p *parser) parseRestricted(what string, queries bool) Statement {
	t := p.tok()
	switch {
	case p.isKw("INSERT"), p.isKws("STATEMENT", "SET"), p.isKws("EXECUTE", "STATEMENT", "SET"):
	case queries && p.isQueryStart():
	case p.is(EOF):
		p.fail(t, "expected a statement, found end of input", what)
		return nil
	default:
		p.fail(t, "unexpected "+describe(t), what)
		return nil
	}
	return p.parseStatement()
}

func (p *parser) parseCall() Statement {
	start := p.next().Pos
	e := p.parseExprPrec(precUnary)
	call, ok := e.(*FuncCall)
	if !ok && !p.failed {
		p.fail(p.toks[p.pos-1], "expected a procedure call after CALL, like CALL cat.sys.proc(1)", "")
		return nil
	}
	return &CallStmt{Span: p.span(start), Call: call}
}

func (p *parser) parseAnalyze() Statement {
	start := p.next().Pos
	p.expectKw("TABLE")
	a := &AnalyzeStmt{Table: p.parseQualifiedName("a table name")}
	if p.acceptKw("PARTITION") {
		a.Partition = p.parsePartitionValues()
	}
	p.expectKws("COMPUTE", "STATISTICS")
	if p.acceptKw("FOR") {
		if p.acceptKws("ALL", "COLUMNS") {
			a.AllColumns = true
		} else {
			p.expectKw("COLUMNS")
			a.Columns = p.parseIdentList("a column name")
		}
	}
	a.Span = p.span(start)
	return a
}

func (p *parser) parseTruncate() Statement {
	start := p.next().Pos
	p.expectKw("TABLE")
	t := &TruncateStmt{Table: p.parseQualifiedName("a table name")}
	t.Span = p.span(start)
	return t
}

func (p *parser) parseDelete() Statement {
	start := p.next().Pos
	p.expectKw("FROM")
	d := &DeleteStmt{Table: p.parseQualifiedName("a table name")}
	if a := p.parseOptionalAlias(false); a != nil {
		d.Alias = a.Name
	}
	if p.acceptKw("WHERE") {
		d.Where = p.parseExpr()
	}
	d.Span = p.span(start)
	return d
}

func (p *parser) parseUpdate() Statement {
	start := p.next().Pos
	u := &UpdateStmt{Table: p.parseQualifiedName("a table name")}
	if a := p.parseOptionalAlias(false); a != nil {
		u.Alias = a.Name
	}
	p.expectKw("SET")
	for !p.failed {
		astart := p.tok().Pos
		q := p.parseQualifiedName("a column name")
		p.expect(Eq)
		v := p.parseExpr()
		u.Set = append(u.Set, &Assignment{Span: p.span(astart), Column: &ColumnRef{Span: q.Span, Parts: q.Parts}, Value: v})
		if !p.accept(Comma) {
			break
		}
	}
	if p.acceptKw("WHERE") {
		u.Where = p.parseExpr()
	}
	u.Span = p.span(start)
	return u
}

func (p *parser) parseStopJob() Statement {
	start := p.next().Pos
	p.expectKw("JOB")
	s := &StopJob{JobID: p.parseStringLit("the job id in quotes")}
	for !p.failed && p.isKw("WITH") {
		switch {
		case p.acceptKws("WITH", "SAVEPOINT"):
			s.WithSavepoint = true
		case p.acceptKws("WITH", "DRAIN"):
			s.WithDrain = true
		default:
			p.next()
			p.fail(p.tok(), "expected SAVEPOINT or DRAIN after WITH, found "+describe(p.tok()), "")
		}
	}
	s.Span = p.span(start)
	return s
}

// setSpan sets the span of an action node built before its extent was
// known.
func setSpan(n Node, s Span) {
	switch a := n.(type) {
	case *RenameTable:
		a.Span = s
	case *RenameColumn:
		a.Span = s
	case *SetOptions:
		a.Span = s
	case *ResetOptions:
		a.Span = s
	case *AlterSchema:
		a.Span = s
	case *DropSchema:
		a.Span = s
	case *AddPartitions:
		a.Span = s
	case *DropPartitions:
		a.Span = s
	}
}
