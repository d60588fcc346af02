package flinksql

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// parseStatement dispatches on the statement's first keyword.
func (p *parser) parseStatement() ast.Statement {
	t := p.tok()
	p.probeWords(statementStarts...)
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
		return p.parseStatementSet(ast.SetFormClient)
	case "STATEMENT":
		return p.parseStatementSet(ast.SetFormBare)
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

func (p *parser) parseQueryStmt() ast.Statement {
	start := p.tok().Pos
	q := p.parseQuery()
	return &ast.QueryStmt{Span: p.span(start), Query: q}
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
	first := true
	for !stop() {
		if !first && p.apart[p.pos] {
			b.WriteByte(' ')
		}
		first = false
		b.WriteString(p.next().Text)
	}
	return b.String(), true
}

func (p *parser) endOfStatement() bool { return p.is(Semicolon) || p.is(EOF) }

func (p *parser) parseSet() ast.Statement {
	start := p.next().Pos
	s := &ast.SetStmt{}
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

func (p *parser) parseReset() ast.Statement {
	start := p.next().Pos
	s := &ast.ResetStmt{}
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

// ---- USE / SHOW / DESCRIBE / EXPLAIN ----

func (p *parser) parseUse() ast.Statement {
	start := p.next().Pos
	switch {
	case p.isKw("CATALOG") && p.peek(1).Kind != Semicolon && p.peek(1).Kind != EOF:
		p.next()
		return &ast.UseStmt{Catalog: true, Name: p.parseQualifiedName("a catalog name"), Span: p.span(start)}
	case p.isKw("MODULES") && p.peek(1).Kind != Semicolon && p.peek(1).Kind != EOF:
		p.next()
		names := p.parseIdentList("a module name")
		return &ast.UseModules{Span: p.span(start), Names: names}
	}
	name := p.parseQualifiedName("a catalog or database name")
	return &ast.UseStmt{Span: p.span(start), Name: name}
}

func (p *parser) parseShow() ast.Statement {
	start := p.next().Pos
	s := &ast.ShowStmt{}
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
			s.Target = &ast.QualifiedName{Span: id.Span, Parts: []*ast.Ident{id}}
		} else {
			s.Target = p.parseQualifiedName("the object name")
		}
		switch s.Object {
		case "CREATE CATALOG":
			p.uses(featShowCreateCatalog, "", start)
		case "CREATE MODEL":
			p.uses(featModel, "SHOW CREATE MODEL", start)
		case "CREATE MATERIALIZED TABLE":
			p.uses(featMaterializedTable, "SHOW CREATE MATERIALIZED TABLE", start)
		case "CREATE CONNECTION":
			p.uses(featConnection, "SHOW CREATE CONNECTION", start)
		}
	case words("MATERIALIZED", "TABLES"):
		p.uses(featShowMaterializedTables, "", start)
	case words("USER", "FUNCTIONS"), words("FULL", "MODULES"):
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
		for _, w := range []string{"CATALOGS", "DATABASES", "TABLES", "VIEWS", "FUNCTIONS", "MODULES", "JARS", "JOBS", "PROCEDURES", "MODELS", "CONNECTIONS"} {
			if p.acceptKw(w) {
				s.Object = w
				break
			}
		}
		switch s.Object {
		case "JOBS":
			p.uses(featShowJobs, "", start)
		case "PROCEDURES":
			p.uses(featShowProcedures, "", start)
		case "MODELS":
			p.uses(featModel, "SHOW MODELS", start)
		case "CONNECTIONS":
			p.uses(featConnection, "SHOW CONNECTIONS", start)
		case "":
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

func (p *parser) parseDescribe() ast.Statement {
	start := p.next().Pos
	d := &ast.DescribeStmt{}
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
			p.uses(featDescribeJob, "", start)
			return d
		}
	}
	switch d.Object {
	case "CATALOG":
		p.uses(featDescribeCatalog, "", start)
	case "MODEL":
		p.uses(featModel, "DESCRIBE MODEL", start)
	case "CONNECTION":
		p.uses(featConnection, "DESCRIBE CONNECTION", start)
	}
	if p.isKw("EXTENDED") && nameAhead(1) {
		p.next()
		d.Extended = true
	}
	d.Name = p.parseQualifiedName("the name of what to describe")
	d.Span = p.span(start)
	return d
}

func (p *parser) parseExplain() ast.Statement {
	start := p.next().Pos
	e := &ast.ExplainStmt{}
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
				if w == "PLAN_ADVICE" {
					p.uses(featPlanAdvice, "", p.tok().Pos)
				}
				p.next()
				if p.accept(Comma) {
					continue
				}
			}
			break
		}
	}
	if (p.isKw("CREATE") || p.isKw("REPLACE")) && !p.failed {
		// EXPLAIN takes the CREATE statements that define a query: CREATE
		// [OR REPLACE] TABLE ... AS and REPLACE TABLE ... AS.
		cstart := p.tok().Pos
		e.Stmt = p.parseCreate()
		if ct, ok := e.Stmt.(*ast.CreateTable); (!ok || ct.As == nil) && !p.failed {
			p.fail(Token{Pos: cstart, End: p.lastEnd}, "EXPLAIN takes CREATE TABLE … AS and REPLACE TABLE … AS, not other CREATE statements",
				"EXPLAIN explains a query: of the CREATE statements, only those with AS query have one")
		}
	} else if p.isKw("EXECUTE") && !p.failed {
		e.Stmt = p.parseExecute()
	} else {
		e.Stmt = p.parseRestricted("EXPLAIN takes a query, an INSERT, a statement set or CREATE TABLE … AS", true)
	}
	e.Span = p.span(start)
	return e
}

func (p *parser) parseLoadModule() ast.Statement {
	start := p.next().Pos
	p.expectKw("MODULE")
	l := &ast.LoadModule{Name: p.parseIdent("a module name")}
	if p.acceptKw("WITH") {
		l.With = p.parseProperties()
	}
	l.Span = p.span(start)
	return l
}

func (p *parser) parseUnloadModule() ast.Statement {
	start := p.next().Pos
	p.expectKw("MODULE")
	u := &ast.UnloadModule{Name: p.parseIdent("a module name")}
	u.Span = p.span(start)
	return u
}

func (p *parser) parseJar() ast.Statement {
	start := p.tok().Pos
	j := &ast.JarStmt{Remove: p.isKw("REMOVE")}
	p.next()
	p.expectKw("JAR")
	j.Path = p.parseStringLit("the jar path in quotes")
	j.Span = p.span(start)
	return j
}
