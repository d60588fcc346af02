package flinksql

import (
	"github.com/palink/palink/flinksql/ast"
)

// Materialized tables (Flink 1.20 and later), as flink-sql-parser's
// SqlCreateOrAlterMaterializedTable and SqlAlterMaterializedTable read them.
// They are functions rather than parser methods: each statement family of
// the newer grammar is a room of its own.

// createMaterializedTable reads CREATE [OR ALTER] MATERIALIZED TABLE after
// CREATE [OR ALTER] [TEMPORARY]; replace is CREATE OR REPLACE or REPLACE.
func createMaterializedTable(p *parser, start ast.Pos, orAlter, replace, temporary bool) ast.Statement {
	if !p.isKw("MATERIALIZED") {
		p.fail(p.tok(), "expected MATERIALIZED TABLE after CREATE OR ALTER, found "+describe(p.tok()), "")
		return nil
	}
	t := p.next()
	if temporary {
		p.report(t.Pos, t.End, CodeSyntax, "CREATE TEMPORARY MATERIALIZED TABLE is not supported", "drop TEMPORARY")
	}
	if replace {
		p.report(t.Pos, t.End, CodeSyntax, "REPLACE MATERIALIZED TABLE is not supported", "write CREATE OR ALTER MATERIALIZED TABLE")
	}
	p.expectKw("TABLE")
	p.uses(featMaterializedTable, "CREATE MATERIALIZED TABLE", start)
	if orAlter {
		p.uses(featCreateOrAlterMT, "", start)
	}
	m := &ast.CreateMaterializedTable{OrAlter: orAlter, Name: p.parseQualifiedName("a materialized table name")}
	if p.is(LParen) && !p.failed {
		s := parseTableSchema(p)
		m.HasSchema = true
		m.Columns, m.ColumnNames, m.Watermarks, m.Constraints = s.columns, s.names, s.watermarks, s.constraints
		if len(s.columns) > 0 || len(s.names) > 0 || len(s.watermarks) > 0 {
			// A primary key alone came with materialized tables (1.20);
			// columns and watermarks with Flink 2.3.
			p.features = append(p.features, featureUse{feat: featMTSchema, span: s.span})
		}
	}
	if p.acceptKw("COMMENT") {
		m.Comment = p.parseStringLit("the table comment")
	}
	if p.isKw("DISTRIBUTED") {
		dstart := p.tok().Pos
		m.Distribution = p.parseDistribution()
		p.uses(featMTDistribution, "", dstart)
	}
	if p.acceptKws("PARTITIONED", "BY") {
		m.PartitionBy = p.parseParenIdentList("a partition column")
	}
	if p.acceptKw("WITH") {
		m.With = p.parseProperties()
	}
	if p.isKw("START_MODE") {
		m.StartMode = parseStartMode(p)
	}
	if p.acceptKw("FRESHNESS") {
		m.Freshness = parseFreshness(p)
	} else if !p.failed {
		p.features = append(p.features, featureUse{feat: featMTWithoutFreshness, span: m.Name.Span})
	}
	if p.acceptKw("REFRESH_MODE") {
		m.RefreshMode = parseRefreshMode(p)
	}
	if !p.failed && !p.isKw("AS") {
		p.fail(p.tok(), "expected AS and the query of the materialized table, found "+describe(p.tok()),
			"the clauses go in this order: (schema) COMMENT, DISTRIBUTED BY, PARTITIONED BY, WITH (...), START_MODE, FRESHNESS, REFRESH_MODE, AS query")
		return nil
	}
	p.next()
	m.As = p.parseQuery()
	m.Span = p.span(start)
	return m
}

// parseFreshness reads = INTERVAL '…' unit after FRESHNESS.
func parseFreshness(p *parser) ast.Expr {
	p.expect(Eq)
	e := p.parseExpr()
	if _, ok := e.(*ast.IntervalLit); !ok && !p.failed {
		r := e.Range()
		p.report(r.Pos, r.End, CodeSyntax, "materialized table freshness must be an INTERVAL literal", "write FRESHNESS = INTERVAL '1' MINUTE")
	}
	return e
}

// parseRefreshMode reads = FULL | CONTINUOUS after REFRESH_MODE.
func parseRefreshMode(p *parser) string {
	p.expect(Eq)
	for _, w := range []string{"FULL", "CONTINUOUS"} {
		if p.acceptKw(w) {
			return w
		}
	}
	p.fail(p.tok(), "expected FULL or CONTINUOUS after REFRESH_MODE =, found "+describe(p.tok()), "")
	return ""
}

// startModes are the kinds of START_MODE, and whether each takes an
// argument: false never, true always; FROM_NOW's interval is optional.
var startModes = []struct {
	kind string
	arg  string // "", "optional" or "required"
}{
	{"FROM_BEGINNING", ""}, {"FROM_NOW", "optional"}, {"FROM_TIMESTAMP", "required"},
	{"RESUME_OR_FROM_BEGINNING", ""}, {"RESUME_OR_FROM_NOW", "optional"}, {"RESUME_OR_FROM_TIMESTAMP", "required"},
}

// parseStartMode reads START_MODE = kind [(arg)].
func parseStartMode(p *parser) *ast.StartMode {
	start := p.tok().Pos
	p.expectKw("START_MODE")
	p.expect(Eq)
	sm := &ast.StartMode{}
	for _, m := range startModes {
		if !p.acceptKw(m.kind) {
			continue
		}
		sm.Kind = m.kind
		if m.arg != "" && p.is(LParen) {
			p.next()
			sm.Arg = p.parseExpr()
			p.expect(RParen)
		} else if m.arg == "required" && !p.failed {
			p.fail(p.tok(), "expected '(' and a timestamp after "+m.kind+", found "+describe(p.tok()), "write "+m.kind+"(TIMESTAMP '2025-01-01 00:00:00')")
		}
		sm.Span = p.span(start)
		p.uses(featStartMode, "", start)
		return sm
	}
	p.fail(p.tok(), "expected FROM_BEGINNING, FROM_NOW, FROM_TIMESTAMP(…), RESUME_OR_FROM_BEGINNING, RESUME_OR_FROM_NOW or RESUME_OR_FROM_TIMESTAMP(…) after START_MODE =, found "+describe(p.tok()), "")
	return sm
}

// alterMaterializedTable reads ALTER MATERIALIZED TABLE name action.
func alterMaterializedTable(p *parser, start ast.Pos) ast.Statement {
	p.expectKws("MATERIALIZED", "TABLE")
	p.uses(featMaterializedTable, "ALTER MATERIALIZED TABLE", start)
	a := &ast.AlterMaterializedTable{Name: p.parseQualifiedName("a materialized table name")}
	astart := p.tok().Pos
	switch {
	case p.acceptKw("SUSPEND"):
		a.Op = "SUSPEND"
	case p.acceptKw("RESUME"):
		a.Op = "RESUME"
		if p.acceptKw("WITH") {
			a.With = p.parseProperties()
		}
	case p.acceptKw("REFRESH"):
		a.Op = "REFRESH"
		if p.acceptKw("PARTITION") {
			a.Partition = p.parsePartitionValues()
		}
	case p.acceptKws("SET", "FRESHNESS"):
		a.Op = "SET FRESHNESS"
		a.Freshness = parseFreshness(p)
	case p.acceptKws("SET", "REFRESH_MODE"):
		a.Op = "SET REFRESH_MODE"
		a.RefreshMode = parseRefreshMode(p)
	case p.acceptKw("SET"):
		a.Op = "SET"
		a.With = p.parseProperties()
	case p.acceptKw("RESET"):
		a.Op = "RESET"
		a.Reset = p.parseResetKeys()
	case p.isKw("START_MODE") || p.isKw("AS"):
		a.Op = "AS"
		if p.isKw("START_MODE") {
			a.StartMode = parseStartMode(p)
		}
		p.expectKw("AS")
		p.uses(featAlterMTAs, "", astart)
		a.As = p.parseQuery()
	case p.isKws("ADD", "DISTRIBUTION"), p.isKws("MODIFY", "DISTRIBUTION"):
		modify := p.isKw("MODIFY")
		p.next()
		p.next()
		a.Action = &ast.AlterSchema{Modify: modify, Items: []ast.Node{distributionBody(p, p.lastEnd, "DISTRIBUTION")}}
		p.uses(featMTDistribution, "", astart)
	case p.isKws("DROP", "DISTRIBUTION"):
		p.next()
		p.next()
		a.Action = &ast.DropSchema{Distribution: true}
		p.uses(featMTDistribution, "", astart)
	case p.isKw("ADD"), p.isKw("MODIFY"), p.isKw("DROP"), p.isKw("RENAME"):
		verb := p.up[p.pos]
		a.Action = alterTableAction(p, "ALTER MATERIALIZED TABLE", false)
		if a.Action == nil {
			return nil
		}
		p.uses(featMTSchema, "ALTER MATERIALIZED TABLE … "+verb, astart)
	default:
		p.fail(p.tok(), "expected SUSPEND, RESUME, REFRESH, SET, RESET, AS, ADD, MODIFY, DROP or RENAME after ALTER MATERIALIZED TABLE name, found "+describe(p.tok()), "")
		return nil
	}
	if a.Action != nil {
		setSpan(a.Action, p.span(astart))
	}
	a.Span = p.span(start)
	return a
}
