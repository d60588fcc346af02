package flinksql

import (
	"github.com/palink/palink/flinksql/ast"
)

// ---- DML ----

func (p *parser) parseInsert() ast.Statement {
	start := p.next().Pos
	ins := &ast.InsertStmt{}
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
	if p.isKws("ON", "CONFLICT") && !p.failed {
		cstart := p.next().Pos
		p.next()
		p.expectKw("DO")
		for _, w := range []string{"NOTHING", "ERROR", "DEDUPLICATE"} {
			if p.acceptKw(w) {
				ins.OnConflict = w
				break
			}
		}
		if ins.OnConflict == "" && !p.failed {
			p.fail(p.tok(), "expected NOTHING, ERROR or DEDUPLICATE after ON CONFLICT DO, found "+describe(p.tok()), "")
		}
		p.uses(featOnConflict, "", cstart)
	}
	ins.Span = p.span(start)
	return ins
}

// parseStatementSet reads BEGIN STATEMENT SET; stmts END, EXECUTE
// STATEMENT SET BEGIN stmts END or STATEMENT SET BEGIN stmts END.
func (p *parser) parseStatementSet(form ast.SetForm) ast.Statement {
	start := p.tok().Pos
	switch form {
	case ast.SetFormClient:
		p.expectKws("BEGIN", "STATEMENT", "SET")
		p.expect(Semicolon)
	case ast.SetFormExecute:
		p.expectKws("EXECUTE", "STATEMENT", "SET", "BEGIN")
	case ast.SetFormBare:
		p.expectKws("STATEMENT", "SET", "BEGIN")
	}
	ss := &ast.StatementSet{Form: form}
	if p.failed {
		return nil
	}
	for {
		for p.accept(Semicolon) {
		}
		if p.isKw("END") || p.is(EOF) {
			break
		}
		var st ast.Statement
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

func (p *parser) parseExecute() ast.Statement {
	if p.isKws("EXECUTE", "STATEMENT", "SET") {
		return p.parseStatementSet(ast.SetFormExecute)
	}
	start := p.next().Pos
	if p.acceptKw("PLAN") {
		ep := &ast.ExecutePlan{Path: p.parseStringLit("the plan file in quotes")}
		ep.Span = p.span(start)
		return ep
	}
	st := p.parseRestricted("EXECUTE takes an INSERT, a query or a statement set", true)
	if st == nil {
		return nil
	}
	return &ast.ExecuteStmt{Span: p.span(start), Stmt: st}
}

func (p *parser) parseCompilePlan() ast.Statement {
	start := p.next().Pos
	execute := p.acceptKws("AND", "EXECUTE")
	p.expectKw("PLAN")
	c := &ast.CompilePlan{Execute: execute, Path: p.parseStringLit("the plan file in quotes")}
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
func (p *parser) parseRestricted(what string, queries bool) ast.Statement {
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

func (p *parser) parseCall() ast.Statement {
	start := p.next().Pos
	e := p.parseExprPrec(ast.PrecUnary)
	call, ok := e.(*ast.FuncCall)
	if !ok && !p.failed {
		p.fail(p.toks[p.pos-1], "expected a procedure call after CALL, like CALL cat.sys.proc(1)", "")
		return nil
	}
	p.uses(featCall, "", start)
	return &ast.CallStmt{Span: p.span(start), Call: call}
}

func (p *parser) parseAnalyze() ast.Statement {
	start := p.next().Pos
	p.expectKw("TABLE")
	a := &ast.AnalyzeStmt{Table: p.parseQualifiedName("a table name")}
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

func (p *parser) parseTruncate() ast.Statement {
	start := p.next().Pos
	p.expectKw("TABLE")
	t := &ast.TruncateStmt{Table: p.parseQualifiedName("a table name")}
	p.uses(featTruncate, "", start)
	t.Span = p.span(start)
	return t
}

func (p *parser) parseDelete() ast.Statement {
	start := p.next().Pos
	p.expectKw("FROM")
	d := &ast.DeleteStmt{Table: p.parseQualifiedName("a table name")}
	p.uses(featDelete, "", start)
	if a := p.parseOptionalAlias(false); a != nil {
		d.Alias = a.Name
	}
	if p.acceptKw("WHERE") {
		d.Where = p.parseExpr()
	}
	d.Span = p.span(start)
	return d
}

func (p *parser) parseUpdate() ast.Statement {
	start := p.next().Pos
	u := &ast.UpdateStmt{Table: p.parseQualifiedName("a table name")}
	p.uses(featUpdate, "", start)
	if a := p.parseOptionalAlias(false); a != nil {
		u.Alias = a.Name
	}
	p.expectKw("SET")
	for !p.failed {
		astart := p.tok().Pos
		q := p.parseQualifiedName("a column name")
		p.expect(Eq)
		v := p.parseExpr()
		u.Set = append(u.Set, &ast.Assignment{Span: p.span(astart), Column: &ast.ColumnRef{Span: q.Span, Parts: q.Parts}, Value: v})
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

func (p *parser) parseStopJob() ast.Statement {
	start := p.next().Pos
	p.expectKw("JOB")
	s := &ast.StopJob{JobID: p.parseStringLit("the job id in quotes")}
	p.uses(featStopJob, "", start)
	// Flink takes [WITH SAVEPOINT] [WITH DRAIN] in this order, and DRAIN
	// only with a savepoint: draining ends the sources, which only makes
	// sense for a job stopped to be resumed elsewhere.
	if p.acceptKws("WITH", "SAVEPOINT") {
		s.WithSavepoint = true
	}
	if p.isKws("WITH", "DRAIN") && !p.failed {
		t := p.next()
		p.next()
		s.WithDrain = true
		if !s.WithSavepoint {
			p.report(t.Pos, p.lastEnd, CodeSyntax, "WITH DRAIN can only be used after WITH SAVEPOINT", "write STOP JOB '…' WITH SAVEPOINT WITH DRAIN")
		}
	}
	switch {
	case p.failed:
	case p.isKws("WITH", "SAVEPOINT"):
		p.fail(p.tok(), "WITH SAVEPOINT goes before WITH DRAIN", "write STOP JOB '…' WITH SAVEPOINT WITH DRAIN")
	case p.isKw("WITH"):
		p.next()
		p.fail(p.tok(), "expected SAVEPOINT or DRAIN after WITH, found "+describe(p.tok()), "")
	}
	s.Span = p.span(start)
	return s
}
