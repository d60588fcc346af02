package flinksql

import "strings"

// Operator precedence, lowest first.
const (
	precOr = iota + 1
	precAnd
	precNot
	precCmp
	precConcat
	precAdd
	precMul
	precUnary
)

func (p *parser) parseExpr() Expr { return p.parseExprPrec(precOr) }

// parseExprPrec parses an expression whose operators bind at least as
// tightly as min, so BETWEEN's bounds and frame offsets stop before AND.
func (p *parser) parseExprPrec(min int) Expr {
	if !p.enter() {
		return &badExpr{Span: Span{p.tok().Pos, p.tok().Pos}}
	}
	defer p.leave()
	switch min {
	case precOr:
		return p.parseOr()
	case precAnd:
		return p.parseAnd()
	case precNot:
		return p.parseNot()
	case precCmp:
		return p.parseComparison()
	case precConcat:
		return p.parseConcat()
	case precAdd:
		return p.parseAdd()
	case precMul:
		return p.parseMul()
	}
	return p.parseUnary()
}

func (p *parser) binary(op string, l, r Expr) Expr {
	return &BinaryExpr{Span: Span{l.Range().Pos, p.lastEnd}, Op: op, L: l, R: r}
}

func (p *parser) parseOr() Expr {
	l := p.parseAnd()
	for !p.failed && p.acceptKw("OR") {
		l = p.binary("OR", l, p.parseAnd())
	}
	return l
}

func (p *parser) parseAnd() Expr {
	l := p.parseNot()
	for !p.failed && p.acceptKw("AND") {
		l = p.binary("AND", l, p.parseNot())
	}
	return l
}

func (p *parser) parseNot() Expr {
	if p.isKw("NOT") && !p.failed {
		if !p.enter() {
			return &badExpr{}
		}
		defer p.leave()
		start := p.next().Pos
		x := p.parseNot()
		return &UnaryExpr{Span: p.span(start), Op: "NOT", X: x}
	}
	return p.parseComparison()
}

var comparisonOps = map[TokenKind]string{Eq: "=", Neq: "<>", BangEq: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">="}

func (p *parser) parseComparison() Expr {
	l := p.parseConcat()
	for !p.failed {
		start := l.Range().Pos
		if op, ok := comparisonOps[p.tok().Kind]; ok {
			p.next()
			if (p.isKw("ANY") || p.isKw("SOME") || p.isKw("ALL")) && p.peek(1).Kind == LParen {
				qe := &QuantifiedExpr{L: l, Op: op, Quantifier: p.up[p.pos]}
				p.next()
				if p.peekIsQueryAfterParen() {
					p.next()
					qe.Query = p.parseQuery()
					p.expect(RParen)
				} else {
					qe.List = p.parseParenExprList()
				}
				qe.Span = p.span(start)
				l = qe
				continue
			}
			l = p.binary(op, l, p.parseConcat())
			continue
		}
		if p.isKw("OVERLAPS") {
			p.next()
			l = p.binary("OVERLAPS", l, p.parseConcat())
			continue
		}
		if p.isKw("IS") {
			p.next()
			not := p.acceptKw("NOT")
			switch w := p.up[p.pos]; w {
			case "NULL", "TRUE", "FALSE", "UNKNOWN":
				p.next()
				l = &IsExpr{Span: p.span(start), X: l, Not: not, What: w}
			case "DISTINCT":
				p.next()
				p.expectKw("FROM")
				r := p.parseConcat()
				l = &IsDistinctExpr{Span: p.span(start), L: l, R: r, Not: not}
			case "JSON":
				p.next()
				what := "JSON"
				switch k := p.up[p.pos]; k {
				case "VALUE", "SCALAR", "ARRAY", "OBJECT":
					p.next()
					what += " " + k
				}
				l = &IsExpr{Span: p.span(start), X: l, Not: not, What: what}
			default:
				p.fail(p.tok(), "expected NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM after IS, found "+describe(p.tok()), "")
				return l
			}
			continue
		}
		not := false
		if p.isKw("NOT") {
			switch p.peekUp(1) {
			case "IN", "BETWEEN", "LIKE", "SIMILAR":
				p.next()
				not = true
			default:
				return l
			}
		}
		switch p.up[p.pos] {
		case "IN":
			p.next()
			in := &InExpr{X: l, Not: not}
			if p.peekIsQueryAfterParen() {
				p.next()
				in.Query = p.parseQuery()
				p.expect(RParen)
			} else {
				in.List = p.parseParenExprList()
				if len(in.List) == 0 && !p.failed {
					p.fail(p.toks[p.pos-1], "IN needs at least one value", "")
				}
			}
			in.Span = p.span(start)
			l = in
		case "BETWEEN":
			p.next()
			b := &BetweenExpr{X: l, Not: not}
			switch {
			case p.acceptKw("SYMMETRIC"):
				b.Mode = "SYMMETRIC"
			case p.acceptKw("ASYMMETRIC"):
				b.Mode = "ASYMMETRIC"
			}
			b.Lo = p.parseConcat()
			p.expectKw("AND")
			b.Hi = p.parseConcat()
			b.Span = p.span(start)
			l = b
		case "LIKE", "SIMILAR":
			lk := &LikeExpr{X: l, Not: not, Op: "LIKE"}
			if p.acceptKw("SIMILAR") {
				p.expectKw("TO")
				lk.Op = "SIMILAR TO"
			} else {
				p.next()
			}
			lk.Pattern = p.parseConcat()
			if p.acceptKw("ESCAPE") {
				lk.Escape = p.parseConcat()
			}
			lk.Span = p.span(start)
			l = lk
		default:
			return l
		}
	}
	return l
}

// peekIsQueryAfterParen reports whether '(' SELECT|WITH|VALUES follows.
func (p *parser) peekIsQueryAfterParen() bool {
	if !p.is(LParen) {
		return false
	}
	switch p.peekUp(1) {
	case "SELECT", "WITH", "VALUES":
		return true
	}
	return false
}

func (p *parser) parseConcat() Expr {
	l := p.parseAdd()
	for !p.failed && p.accept(Concat) {
		l = p.binary("||", l, p.parseAdd())
	}
	return l
}

func (p *parser) parseAdd() Expr {
	l := p.parseMul()
	for !p.failed {
		switch {
		case p.accept(Plus):
			l = p.binary("+", l, p.parseMul())
		case p.accept(Minus):
			l = p.binary("-", l, p.parseMul())
		default:
			return l
		}
	}
	return l
}

func (p *parser) parseMul() Expr {
	l := p.parseUnary()
	for !p.failed {
		switch {
		case p.accept(Asterisk):
			l = p.binary("*", l, p.parseUnary())
		case p.accept(Slash):
			l = p.binary("/", l, p.parseUnary())
		case p.accept(Percent):
			l = p.binary("%", l, p.parseUnary())
		default:
			return l
		}
	}
	return l
}

func (p *parser) parseUnary() Expr {
	if (p.is(Minus) || p.is(Plus)) && !p.failed {
		if !p.enter() {
			return &badExpr{}
		}
		defer p.leave()
		t := p.next()
		x := p.parseUnary()
		return &UnaryExpr{Span: p.span(t.Pos), Op: t.Text, X: x}
	}
	return p.parsePostfix(p.parsePrimary())
}

// parsePostfix applies x[i] and x.field.
func (p *parser) parsePostfix(x Expr) Expr {
	for !p.failed {
		start := x.Range().Pos
		switch {
		case p.is(LBracket):
			p.next()
			idx := p.parseExpr()
			p.expect(RBracket)
			x = &IndexExpr{Span: p.span(start), X: x, Index: idx}
		case p.is(Dot) && p.peek(1).Kind != Asterisk && fieldAccessible(x):
			p.next()
			f := p.parseIdent("a field name")
			x = &FieldExpr{Span: p.span(start), X: x, Field: f}
		default:
			return x
		}
	}
	return x
}

// fieldAccessible reports whether .field may follow x: a literal such as
// 0 .a would print as the malformed number 0.a.
func fieldAccessible(x Expr) bool {
	switch x.(type) {
	case *ColumnRef, *FuncCall, *ParenExpr, *IndexExpr, *FieldExpr, *CastExpr, *RowExpr, *SubqueryExpr:
		return true
	}
	return false
}

// niladic are the functions written without parentheses.
var niladic = map[string]bool{
	"CURRENT_DATE": true, "CURRENT_TIME": true, "CURRENT_TIMESTAMP": true, "LOCALTIME": true,
	"LOCALTIMESTAMP": true, "CURRENT_USER": true, "SESSION_USER": true, "SYSTEM_USER": true,
	"USER": true, "CURRENT_ROLE": true, "CURRENT_PATH": true, "CURRENT_CATALOG": true,
	"CURRENT_SCHEMA": true,
}

// nonFunctionWords are reserved words that are never a function name
// even when '(' follows: doing otherwise turns a missing expression into
// a baffling call.
var functionWords = map[string]bool{"LEFT": true, "RIGHT": true, "INSERT": true}

func (p *parser) parsePrimary() Expr {
	t := p.tok()
	start := t.Pos
	bad := &badExpr{Span: Span{start, start}}
	if p.failed {
		return bad
	}
	switch t.Kind {
	case Integer, Decimal, Approx:
		p.next()
		k := NumInteger
		if t.Kind == Decimal {
			k = NumDecimal
		} else if t.Kind == Approx {
			k = NumApprox
		}
		return &NumberLit{Span: Span{t.Pos, t.End}, Text: t.Text, Kind: k}
	case String:
		p.next()
		return &StringLit{Span: Span{t.Pos, t.End}, Value: t.Value}
	case BinaryString:
		p.next()
		return &BinaryLit{Span: Span{t.Pos, t.End}, Hex: t.Value}
	case Question:
		p.next()
		return &Param{Span: Span{t.Pos, t.End}}
	case LParen:
		if p.peekIsQueryAfterParen() {
			p.next()
			q := p.parseQuery()
			p.expect(RParen)
			return &SubqueryExpr{Span: p.span(start), Query: q}
		}
		p.next()
		first := p.parseExpr()
		if p.is(Comma) {
			row := &RowExpr{Items: []Expr{first}}
			for !p.failed && p.accept(Comma) {
				row.Items = append(row.Items, p.parseExpr())
			}
			p.expect(RParen)
			row.Span = p.span(start)
			return row
		}
		p.expect(RParen)
		return &ParenExpr{Span: p.span(start), X: first}
	case QuotedIdent:
		return p.parseNameExpr()
	case Word:
		return p.parseWordExpr()
	case EOF:
		p.fail(t, "expected an expression, found end of input", "")
		return bad
	}
	p.fail(t, "expected an expression, found "+describe(t), "")
	return bad
}

func (p *parser) parseWordExpr() Expr {
	t := p.tok()
	start := t.Pos
	w := p.up[p.pos]
	nextParen := p.peek(1).Kind == LParen
	switch w {
	case "TRUE", "FALSE":
		p.next()
		return &BoolLit{Span: Span{t.Pos, t.End}, Value: w == "TRUE"}
	case "NULL":
		p.next()
		return &NullLit{Span: Span{t.Pos, t.End}}
	case "CASE":
		return p.parseCase()
	case "NOT":
		return p.parseNot()
	case "INTERVAL":
		return p.parseIntervalLit()
	case "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ":
		if p.peek(1).Kind == String {
			p.next()
			v := p.parseStringLit("a literal")
			return &TypedLit{Span: p.span(start), Type: w, Value: v}
		}
	case "ROW":
		if nextParen {
			p.next()
			r := &RowExpr{Explicit: true, Items: p.parseParenExprList()}
			r.Span = p.span(start)
			return r
		}
	case "ARRAY", "MAP":
		if p.peek(1).Kind == LBracket {
			p.next()
			p.next()
			var items []Expr
			for !p.failed && !p.is(RBracket) {
				items = append(items, p.parseExpr())
				if !p.accept(Comma) {
					break
				}
			}
			p.expect(RBracket)
			if w == "ARRAY" {
				return &ArrayExpr{Span: p.span(start), Items: items}
			}
			if len(items)%2 != 0 && !p.failed {
				p.fail(p.toks[p.pos-1], "MAP[...] needs key, value pairs: found an odd number of items", "")
			}
			return &MapExpr{Span: p.span(start), Items: items}
		}
		if nextParen && p.peekUp(2) == "SELECT" {
			p.next()
			p.next()
			q := p.parseQuery()
			p.expect(RParen)
			if w == "ARRAY" {
				return &ArrayExpr{Span: p.span(start), Query: q}
			}
			return &MapExpr{Span: p.span(start), Query: q}
		}
	case "TABLE":
		if p.peek(1).Kind == Word || p.peek(1).Kind == QuotedIdent {
			return p.parseTableArg()
		}
	}
	if nextParen {
		switch w {
		case "CAST", "TRY_CAST":
			p.next()
			p.next()
			c := &CastExpr{Try: w == "TRY_CAST", X: p.parseExpr()}
			p.expectKw("AS")
			c.Type = p.parseType()
			p.expect(RParen)
			c.Span = p.span(start)
			return c
		case "EXISTS":
			p.next()
			if !p.peekIsQueryAfterParen() {
				p.fail(p.peek(1), "expected a subquery after EXISTS", "")
				return &badExpr{}
			}
			p.next()
			q := p.parseQuery()
			p.expect(RParen)
			return &ExistsExpr{Span: p.span(start), Query: q}
		case "EXTRACT":
			p.next()
			p.next()
			e := &ExtractExpr{Unit: p.parseUnitWord()}
			p.expectKw("FROM")
			e.X = p.parseExpr()
			p.expect(RParen)
			e.Span = p.span(start)
			return e
		case "TRIM":
			return p.parseTrim()
		case "POSITION":
			p.next()
			p.next()
			pe := &PositionExpr{Sub: p.parseExprPrec(precConcat)}
			p.expectKw("IN")
			pe.X = p.parseExprPrec(precConcat)
			if p.acceptKw("FROM") {
				pe.Start = p.parseExpr()
			}
			p.expect(RParen)
			pe.Span = p.span(start)
			return pe
		case "SUBSTRING":
			if p.isSpecialForm("FROM") {
				p.next()
				p.next()
				s := &SubstringExpr{X: p.parseExpr()}
				p.expectKw("FROM")
				s.From = p.parseExpr()
				if p.acceptKw("FOR") {
					s.Length = p.parseExpr()
				}
				p.expect(RParen)
				s.Span = p.span(start)
				return s
			}
		case "OVERLAY":
			p.next()
			p.next()
			o := &OverlayExpr{X: p.parseExpr()}
			p.expectKw("PLACING")
			o.Placing = p.parseExpr()
			p.expectKw("FROM")
			o.From = p.parseExpr()
			if p.acceptKw("FOR") {
				o.Length = p.parseExpr()
			}
			p.expect(RParen)
			o.Span = p.span(start)
			return o
		case "FLOOR", "CEIL", "CEILING":
			if p.isSpecialForm("TO") {
				p.next()
				p.next()
				f := &FloorCeilExpr{Name: w, X: p.parseExpr()}
				p.expectKw("TO")
				f.Unit = p.parseUnitWord()
				p.expect(RParen)
				f.Span = p.span(start)
				return f
			}
		case "TIMESTAMPADD", "TIMESTAMPDIFF", "TIMESTAMP_DIFF", "DATEDIFF", "DATE_DIFF":
			if (p.peek(2).Kind == Word) && p.peek(3).Kind == Comma {
				p.next()
				name := &QualifiedName{Span: Span{t.Pos, t.End}, Parts: []*Ident{{Span: Span{t.Pos, t.End}, Name: w}}}
				p.next()
				ut := p.tok()
				unit := &TimeUnitExpr{Span: Span{ut.Pos, ut.End}, Unit: p.parseUnitWord()}
				f := &FuncCall{Name: name, Args: []Expr{unit}}
				for !p.failed && p.accept(Comma) {
					f.Args = append(f.Args, p.parseExpr())
				}
				p.expect(RParen)
				f.Span = p.span(start)
				return p.parseCallSuffix(f, start)
			}
		case "DESCRIPTOR":
			p.next()
			d := &DescriptorExpr{Columns: p.parseParenIdentList("a column name")}
			d.Span = p.span(start)
			return d
		case "JSON_VALUE", "JSON_QUERY", "JSON_EXISTS", "JSON_OBJECT", "JSON_ARRAY", "JSON_OBJECTAGG", "JSON_ARRAYAGG":
			return p.parseJSONCall(w)
		}
	} else if niladic[w] {
		p.next()
		name := &QualifiedName{Span: Span{t.Pos, t.End}, Parts: []*Ident{{Span: Span{t.Pos, t.End}, Name: w}}}
		return &FuncCall{Span: Span{t.Pos, t.End}, Name: name, NoParens: true}
	}
	if (w == "FINAL" || w == "RUNNING") && p.peek(1).Kind == Word && p.peek(2).Kind == LParen {
		p.next()
		x := p.parseUnary()
		return &UnaryExpr{Span: p.span(start), Op: w, X: x}
	}
	if reservedWords[w] {
		if nextParen && (!structural[w] || functionWords[w]) {
			p.next()
			// A keyword names the function: keywords are case-insensitive, so
			// the name is kept upper-case, as the formatter prints it.
			name := &QualifiedName{Span: Span{t.Pos, t.End}, Parts: []*Ident{{Span: Span{t.Pos, t.End}, Name: w}}}
			return p.parseCallAfterName(name)
		}
		if structural[w] {
			p.fail(t, "expected an expression, found "+describe(t), "")
			return &badExpr{Span: Span{start, start}}
		}
	}
	return p.parseNameExpr()
}

// isSpecialForm reports whether a call starting here (name '(') uses the
// keyword form, by finding kw at the call's top nesting level.
func (p *parser) isSpecialForm(kw string) bool {
	depth := 0
	for i := p.pos + 1; i < len(p.toks); i++ {
		switch p.toks[i].Kind {
		case LParen, LBracket:
			depth++
		case RParen, RBracket:
			depth--
			if depth == 0 {
				return false
			}
		case Comma:
			if depth == 1 {
				return false
			}
		case Semicolon, EOF:
			return false
		case Word:
			if depth == 1 && p.up[i] == kw {
				return true
			}
			if p.up[i] == "CASE" || p.up[i] == "SELECT" {
				return false
			}
		}
	}
	return false
}

// parseUnitWord reads a time unit such as DAY or SECONDS.
func (p *parser) parseUnitWord() string {
	if p.failed {
		return ""
	}
	if !p.is(Word) {
		p.fail(p.tok(), "expected a time unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, ...), found "+describe(p.tok()), "")
		return ""
	}
	return strings.ToUpper(p.next().Text)
}

// parseNameExpr reads a dotted name: a column reference, t.*, or a call
// of a (qualified) function.
func (p *parser) parseNameExpr() Expr {
	start := p.tok().Pos
	parts := []*Ident{p.parseIdent("a name")}
	for !p.failed && p.is(Dot) {
		if p.peek(1).Kind == Asterisk {
			p.next()
			p.next()
			return &Star{Span: p.span(start), Qualifier: parts}
		}
		p.next()
		parts = append(parts, p.parseIdent("a name after '.'"))
	}
	if p.is(LParen) && !p.failed {
		name := &QualifiedName{Span: p.span(start), Parts: parts}
		return p.parseCallAfterName(name)
	}
	return &ColumnRef{Span: p.span(start), Parts: parts}
}

// parseCallAfterName reads (args) and the suffixes of a call whose name
// was read.
func (p *parser) parseCallAfterName(name *QualifiedName) Expr {
	start := name.Pos
	if len(name.Parts) == 1 && !name.Parts[0].Quoted {
		if up := strings.ToUpper(name.Parts[0].Name); builtinFunctions[up] {
			name.Parts[0].Name = up
		}
	}
	f := &FuncCall{Name: name}
	p.expect(LParen)
	switch {
	case p.acceptKw("DISTINCT"):
		f.Distinct = true
	case p.acceptKw("ALL"):
		f.All = true
	}
	if p.is(Asterisk) && p.peek(1).Kind == RParen {
		t := p.next()
		f.Args = []Expr{&Star{Span: Span{t.Pos, t.End}}}
	} else {
		for !p.failed && !p.is(RParen) {
			f.Args = append(f.Args, p.parseCallArg())
			if !p.accept(Comma) {
				break
			}
		}
	}
	p.expect(RParen)
	f.Span = p.span(start)
	return p.parseCallSuffix(f, start)
}

// parseCallSuffix reads WITHIN GROUP, FILTER, IGNORE/RESPECT NULLS and OVER.
func (p *parser) parseCallSuffix(f *FuncCall, start Pos) Expr {
	if p.isKws("WITHIN", "GROUP") {
		p.next()
		p.next()
		p.expect(LParen)
		p.expectKws("ORDER", "BY")
		f.WithinGroup = p.parseOrderItems()
		p.expect(RParen)
	}
	if p.isKw("FILTER") && p.peek(1).Kind == LParen {
		p.next()
		p.next()
		p.expectKw("WHERE")
		f.Filter = p.parseExpr()
		p.expect(RParen)
	}
	switch {
	case p.acceptKws("IGNORE", "NULLS"):
		f.NullTreatment = "IGNORE NULLS"
	case p.acceptKws("RESPECT", "NULLS"):
		f.NullTreatment = "RESPECT NULLS"
	}
	if p.acceptKw("OVER") {
		if p.is(LParen) {
			f.Over = p.parseWindowSpec()
		} else {
			f.OverRef = p.parseIdent("a window name or (window specification)")
		}
	}
	f.Span = p.span(start)
	return f
}

func (p *parser) parseCallArg() Expr {
	if (p.is(Word) || p.is(QuotedIdent)) && p.peek(1).Kind == Arrow {
		// Any word names an argument, reserved or not: the docs call
		// TUMBLE(..., OFFSET => ...) and Flink takes it.
		t := p.next()
		start := t.Pos
		name := &Ident{Span: Span{t.Pos, t.End}, Name: t.Value, Quoted: t.Kind == QuotedIdent}
		p.next()
		v := p.parseExpr()
		return &NamedArg{Span: p.span(start), Name: name, Value: v}
	}
	return p.parseExpr()
}

// parseTableArg reads TABLE t [PARTITION BY col | (cols)] [ORDER BY ...].
// As in Calcite, several partition columns need parentheses, since a comma
// ends the argument.
func (p *parser) parseTableArg() Expr {
	start := p.next().Pos
	ta := &TableArg{Name: p.parseQualifiedName("a table name")}
	if p.acceptKws("PARTITION", "BY") {
		if p.is(LParen) {
			ta.PartitionBy = p.parseParenExprList()
		} else {
			ta.PartitionBy = []Expr{p.parseExprPrec(precConcat)}
		}
	}
	if p.acceptKws("ORDER", "BY") {
		if p.is(LParen) && !p.peekIsQueryAfterParen() {
			p.next()
			ta.OrderBy = p.parseOrderItems()
			p.expect(RParen)
		} else {
			ta.OrderBy = []*OrderItem{p.parseOrderItem()}
		}
	}
	ta.Span = p.span(start)
	return ta
}

func (p *parser) parseCase() Expr {
	start := p.next().Pos
	c := &CaseExpr{}
	if !p.isKw("WHEN") {
		c.Operand = p.parseExpr()
	}
	for !p.failed && p.isKw("WHEN") {
		wstart := p.next().Pos
		cond := p.parseExpr()
		p.expectKw("THEN")
		res := p.parseExpr()
		c.Whens = append(c.Whens, &WhenClause{Span: p.span(wstart), Cond: cond, Result: res})
	}
	if len(c.Whens) == 0 && !p.failed {
		p.fail(p.tok(), "expected WHEN in CASE, found "+describe(p.tok()), "")
	}
	if p.acceptKw("ELSE") {
		c.Else = p.parseExpr()
	}
	p.expectKw("END")
	c.Span = p.span(start)
	return c
}

func (p *parser) parseTrim() Expr {
	start := p.next().Pos
	p.next()
	tr := &TrimExpr{}
	switch w := p.up[p.pos]; w {
	case "BOTH", "LEADING", "TRAILING":
		p.next()
		tr.Side = w
	}
	if p.acceptKw("FROM") {
		tr.From = true
		tr.X = p.parseExpr()
	} else {
		first := p.parseExpr()
		if p.acceptKw("FROM") {
			tr.From = true
			tr.Chars = first
			tr.X = p.parseExpr()
		} else {
			if tr.Side != "" && !p.failed {
				p.fail(p.tok(), "expected FROM in TRIM, found "+describe(p.tok()), "")
			}
			tr.X = first
		}
	}
	p.expect(RParen)
	tr.Span = p.span(start)
	return tr
}

// intervalUnits are the units an interval qualifier takes, with the plural
// forms Flink accepts.
var intervalUnits = map[string]bool{
	"YEAR": true, "YEARS": true, "QUARTER": true, "QUARTERS": true, "MONTH": true, "MONTHS": true,
	"WEEK": true, "WEEKS": true, "DAY": true, "DAYS": true, "HOUR": true, "HOURS": true,
	"MINUTE": true, "MINUTES": true, "SECOND": true, "SECONDS": true, "MILLISECOND": true,
	"MILLISECONDS": true, "MICROSECOND": true, "MICROSECONDS": true, "NANOSECOND": true, "NANOSECONDS": true,
}

func (p *parser) parseIntervalLit() Expr {
	start := p.next().Pos
	il := &IntervalLit{}
	switch {
	case p.accept(Minus):
		il.Negative = true
	case p.accept(Plus):
	}
	switch p.tok().Kind {
	case String:
		il.Value = p.parseStringLit("the interval value")
	case Integer, Decimal:
		il.Value = p.parsePrimary()
	default:
		p.fail(p.tok(), "expected the interval value in quotes, like INTERVAL '5' SECOND, found "+describe(p.tok()), "")
		return &badExpr{}
	}
	il.Qualifier = p.parseIntervalQualifier()
	il.Span = p.span(start)
	return il
}

func (p *parser) parseIntervalQualifier() *IntervalQualifier {
	start := p.tok().Pos
	q := &IntervalQualifier{}
	if p.failed {
		return q
	}
	if !intervalUnits[p.up[p.pos]] {
		p.fail(p.tok(), "expected an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND), found "+describe(p.tok()), "")
		return q
	}
	q.From = p.up[p.pos]
	p.next()
	q.FromParams = p.parseOptIntParams()
	if p.acceptKw("TO") {
		if !intervalUnits[p.up[p.pos]] {
			p.fail(p.tok(), "expected an interval unit after TO, found "+describe(p.tok()), "")
			return q
		}
		q.To = p.up[p.pos]
		p.next()
		q.ToParams = p.parseOptIntParams()
	}
	q.Span = p.span(start)
	return q
}

// parseOptIntParams reads an optional (n) or (n, m).
func (p *parser) parseOptIntParams() []int {
	if !p.is(LParen) || p.failed {
		return nil
	}
	p.next()
	params := []int{p.parseIntParam("a length or precision")}
	for !p.failed && p.accept(Comma) {
		params = append(params, p.parseIntParam("a scale"))
	}
	p.expect(RParen)
	return params
}

// parseJSONCall reads the JSON functions with keyword clauses.
func (p *parser) parseJSONCall(name string) Expr {
	start := p.next().Pos
	p.expect(LParen)
	j := &JSONCallExpr{Name: name}
	isObject := name == "JSON_OBJECT" || name == "JSON_OBJECTAGG"
	for !p.failed && !p.is(RParen) && !p.isJSONClauseStart() {
		if isObject {
			estart := p.tok().Pos
			e := &JSONEntry{KeyWord: p.acceptKw("KEY")}
			e.Key = p.parseExprPrec(precConcat)
			if p.accept(Colon) {
				e.Colon = true
			} else {
				p.expectKw("VALUE")
			}
			e.Value = p.parseExpr()
			e.Span = p.span(estart)
			j.Entries = append(j.Entries, e)
		} else {
			j.Args = append(j.Args, p.parseExpr())
		}
		if !p.accept(Comma) {
			break
		}
	}
	for !p.failed && !p.is(RParen) {
		if p.acceptKw("RETURNING") {
			j.Returning = p.parseType()
			continue
		}
		cstart := p.tok().Pos
		c := &JSONClause{}
		var words []string
		for !p.failed {
			if !p.is(Word) {
				p.fail(p.tok(), "expected a clause such as NULL ON NULL or ERROR ON ERROR, found "+describe(p.tok()), "")
				break
			}
			w := p.up[p.pos]
			p.next()
			words = append(words, w)
			if w == "DEFAULT" {
				c.Default = p.parseExprPrec(precConcat)
				continue
			}
			if w == "WRAPPER" {
				break
			}
			if w == "ON" {
				words = append(words, p.parseUnitWord())
				break
			}
		}
		c.Text = strings.Join(words, " ")
		c.Span = p.span(cstart)
		j.Clauses = append(j.Clauses, c)
	}
	p.expect(RParen)
	j.Span = p.span(start)
	return j
}

func (p *parser) isJSONClauseStart() bool {
	switch p.up[p.pos] {
	case "RETURNING", "ABSENT", "ERROR", "EMPTY", "WITH", "WITHOUT", "DEFAULT":
		return true
	case "NULL", "TRUE", "FALSE", "UNKNOWN":
		return p.isKwAt(1, "ON")
	}
	return false
}
