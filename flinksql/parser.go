package flinksql

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"
)

// maxDepth bounds the nesting of expressions, queries and types so a
// pathological input fails with an error instead of exhausting the stack.
const maxDepth = 500

// ParseScript parses a script of statements separated by semicolons. It
// recovers from an error by skipping to the next semicolon outside
// parentheses, so one run reports the errors of every statement; a
// statement that failed is kept as a *BadStmt so indexes still line up.
func ParseScript(src string) (*Script, []*Error) {
	return ParseFile("", src)
}

// ParseFile is ParseScript with a file name that errors carry.
func ParseFile(file, src string) (*Script, []*Error) {
	return ParseFileFor(file, src, builtin.Version{})
}

// ParseFileFor is ParseFile for a Flink release: the words that release
// reserves are the ones that must be quoted to be names. The grammar is
// the newest release's whatever v is; Check reports what v lacks.
func ParseFileFor(file, src string, v builtin.Version) (*Script, []*Error) {
	parsed(src)
	p := newParser(file, src)
	p.version = v
	return p.script()
}

// script parses the whole text.
func (p *parser) script() (script *Script, errs []*Error) {
	defer func() {
		// A last guard: the parser is meant never to panic (FuzzParse
		// checks), but if it does, the editor must get an error, not a crash.
		if r := recover(); r != nil {
			script = &Script{File: p.file, Src: p.src, Comments: p.comments}
			errs = append(p.errs, &Error{File: p.file, Pos: ast.Pos{Line: 1, Col: 1}, End: ast.Pos{Line: 1, Col: 1},
				Msg: fmt.Sprintf("internal parser error: %v", r), Hint: "please report this with the SQL that caused it: " + firstLine(string(debug.Stack())),
				src: p.src, code: CodeInternal})
		}
	}()
	script = p.parseScript()
	script.features = p.features
	return script, p.errs
}

// Parse parses exactly one statement (a trailing semicolon is allowed).
func Parse(src string) (ast.Statement, []*Error) {
	script, errs := ParseScript(src)
	if len(errs) > 0 {
		return nil, errs
	}
	switch len(script.Stmts) {
	case 0:
		return nil, []*Error{{Pos: script.End, End: script.End, Msg: "no statement", src: src}}
	case 1:
		return script.Stmts[0], nil
	}
	second := script.Stmts[1].Range()
	return nil, []*Error{{Pos: second.Pos, End: second.End, Msg: "expected one statement, found several", src: src}}
}

// ParseExpr parses a single expression, as an editor's watch or a debug
// filter would hold.
func ParseExpr(src string) (ast.Expr, []*Error) {
	p := newParser("", src)
	e := p.parseExpr()
	if !p.failed && p.tok().Kind != EOF {
		p.fail(p.tok(), "expected end of expression, found "+describe(p.tok()), "")
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return e, nil
}

// ParseDataType parses a data type such as DECIMAL(10, 2) or
// ROW<a INT, b STRING>.
func ParseDataType(src string) (*ast.DataType, []*Error) {
	p := newParser("", src)
	t := p.parseType()
	if !p.failed && p.tok().Kind != EOF {
		p.fail(p.tok(), "expected end of type, found "+describe(p.tok()), "")
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return t, nil
}

type parser struct {
	file string
	src  string
	toks []Token
	up   []string // upper-cased text of Word tokens, "" for others
	// apart says of each token whether it was written apart from the one
	// before (by space or a comment), in the text lexed.
	apart    []bool
	comments []ast.Comment
	pos      int
	lastEnd  ast.Pos
	errs     []*Error
	// failed is set by the first fatal error of a statement; parse
	// functions then stop consuming and unwind, and the statement is
	// skipped to its semicolon.
	failed bool
	depth  int
	// version decides which words are reserved (the zero one: Latest).
	version builtin.Version
	// features are the newer constructs the script uses (feature.go).
	features []featureUse
	// probe, set by Probe only, notes what the grammar looks for at
	// the end of the text (probe.go).
	probe *probe
}

func newParser(file, src string) *parser {
	toks, comments, lexErrs := Lex(src)
	p := &parser{file: file, src: src, toks: toks, comments: comments, apart: writtenApart(toks)}
	p.up = make([]string, len(toks))
	for i, t := range toks {
		if t.Kind == Word {
			p.up[i] = builtin.UpperWord(t.Text)
		}
	}
	for _, e := range lexErrs {
		e.File = file
		p.addError(e)
	}
	p.lastEnd = ast.Pos{Line: 1, Col: 1}
	return p
}

func (p *parser) tok() Token { return p.toks[p.pos] }

func (p *parser) peek(n int) Token {
	if p.pos+n < len(p.toks) {
		return p.toks[p.pos+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) peekUp(n int) string {
	if p.pos+n < len(p.toks) {
		return p.up[p.pos+n]
	}
	return ""
}

func (p *parser) next() Token {
	t := p.toks[p.pos]
	if t.Kind != EOF {
		p.lastEnd = t.End
		p.pos++
	}
	return t
}

func (p *parser) is(k TokenKind) bool { return p.tok().Kind == k }

func (p *parser) accept(k TokenKind) bool {
	if p.failed || !p.is(k) {
		return false
	}
	p.next()
	return true
}

func (p *parser) expect(k TokenKind) Token {
	t := p.tok()
	if p.failed {
		return t
	}
	if t.Kind != k {
		p.fail(t, "expected "+k.String()+", found "+describe(t), "")
		return t
	}
	return p.next()
}

// isKw reports whether the current token is the keyword w (upper-case).
func (p *parser) isKw(w string) bool {
	if p.probe != nil && p.pos == p.probe.at && !p.failed {
		p.probe.word(w)
	}
	return p.up[p.pos] == w
}

// isKwAt reports whether the token n ahead is the keyword w.
func (p *parser) isKwAt(n int, w string) bool {
	if p.probe != nil && p.pos+n == p.probe.at && !p.failed {
		p.probe.word(w)
	}
	return p.peekUp(n) == w
}

// isKws reports whether the next tokens are the keywords ws in order.
func (p *parser) isKws(ws ...string) bool {
	for i, w := range ws {
		if p.probe != nil && p.pos+i == p.probe.at && !p.failed {
			p.probe.word(w)
		}
		if p.peekUp(i) != w {
			return false
		}
	}
	return true
}

func (p *parser) acceptKw(w string) bool {
	if p.failed || !p.isKw(w) {
		return false
	}
	p.next()
	return true
}

func (p *parser) acceptKws(ws ...string) bool {
	if p.failed || !p.isKws(ws...) {
		return false
	}
	for range ws {
		p.next()
	}
	return true
}

func (p *parser) expectKw(w string) {
	if p.failed {
		return
	}
	if !p.isKw(w) {
		p.fail(p.tok(), "expected "+w+", found "+describe(p.tok()), "")
		return
	}
	p.next()
}

func (p *parser) expectKws(ws ...string) {
	for _, w := range ws {
		p.expectKw(w)
	}
}

// fail records a fatal error for the current statement; later ones are
// dropped because they are usually consequences of the first.
func (p *parser) fail(t Token, msg, hint string) {
	if p.failed {
		return
	}
	p.failed = true
	if t.Kind == DoubleQuoted && hint == "" {
		msg = "double-quoted " + t.Text + " is not valid in Flink SQL"
		hint = "write strings in 'single quotes' and names in `back-quotes`"
	}
	p.addError(&Error{File: p.file, Pos: t.Pos, End: t.End, Msg: msg, Hint: hint, src: p.src})
}

// maxErrors bounds the errors of one parse: past it, more help nobody, and
// reporting them (with a snippet each) would make garbage input slow.
const maxErrors = 100

func (p *parser) addError(e *Error) {
	switch {
	case len(p.errs) < maxErrors:
		p.errs = append(p.errs, e)
	case len(p.errs) == maxErrors:
		p.errs = append(p.errs, &Error{File: p.file, Pos: e.Pos, End: e.Pos, src: p.src,
			Msg: fmt.Sprintf("too many errors; stopped reporting after %d", maxErrors)})
	}
}

// report records a non-fatal error: the parse goes on.
func (p *parser) report(start, end ast.Pos, code, msg, hint string) {
	p.addError(&Error{File: p.file, Pos: start, End: end, Msg: msg, Hint: hint, src: p.src, code: code})
}

func (p *parser) span(start ast.Pos) ast.Span { return ast.Span{Pos: start, End: p.lastEnd} }

// enter guards recursion depth; callers defer p.leave().
func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxDepth {
		p.fail(p.tok(), "nested too deeply", fmt.Sprintf("at most %d levels of nesting are supported", maxDepth))
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

func describe(t Token) string {
	switch t.Kind {
	case EOF:
		return "end of input"
	case String:
		return "string " + t.Text
	case Word:
		return "'" + t.Text + "'"
	}
	if len(t.Text) > 40 {
		return "'" + t.Text[:40] + "…'"
	}
	return "'" + t.Text + "'"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// ---- script and recovery ----

func (p *parser) parseScript() *Script {
	s := &Script{File: p.file, Src: p.src, Comments: p.comments}
	s.Pos = ast.Pos{Offset: 0, Line: 1, Col: 1}
	for !p.is(EOF) {
		if p.accept(Semicolon) {
			continue
		}
		if st := p.parseTopStatement(); st != nil {
			s.Stmts = append(s.Stmts, st)
		}
	}
	s.End = p.tok().End
	return s
}

// parseTopStatement parses one statement and its terminator, recovering
// from an error by skipping to the next semicolon at depth 0.
func (p *parser) parseTopStatement() ast.Statement {
	start := p.tok()
	p.failed = false
	p.depth = 0
	st := p.parseStatement()
	if !p.failed && !p.is(Semicolon) && !p.is(EOF) {
		p.fail(p.tok(), "expected ';' or end of input after the statement, found "+describe(p.tok()), "")
	}
	if p.failed {
		p.skipStatement()
		p.failed = false
		return &ast.BadStmt{Span: ast.Span{Pos: start.Pos, End: p.lastEnd}}
	}
	return st
}

// skipStatement moves to the next semicolon outside parentheses (or to
// the end), leaving it unconsumed.
func (p *parser) skipStatement() {
	depth := 0
	for !p.is(EOF) {
		switch p.tok().Kind {
		case LParen, LBracket:
			depth++
		case RParen, RBracket:
			if depth > 0 {
				depth--
			}
		case Semicolon:
			if depth == 0 {
				return
			}
		}
		p.next()
	}
}

// ---- identifiers ----

// isNameToken reports whether the current token can be a name without
// lenience: a quoted identifier or a non-reserved word.
func (p *parser) isNameToken() bool {
	t := p.tok()
	return t.Kind == QuotedIdent || t.Kind == Word && !p.reserved(p.up[p.pos])
}

// isLenientName also accepts reserved words that are not structural;
// they parse, with an error saying to quote them.
func (p *parser) isLenientName() bool {
	return p.isNameToken() || p.is(Word) && !builtin.StructuralWords[p.up[p.pos]]
}

// parseIdent reads a name where one is required. A reserved word is
// taken (so the rest of the statement is still checked) with an error
// that says to quote it, as Flink would reject it.
func (p *parser) parseIdent(what string) *ast.Ident {
	t := p.tok()
	if p.failed {
		return &ast.Ident{Span: ast.Span{Pos: t.Pos, End: t.Pos}}
	}
	if p.probe != nil && p.pos == p.probe.at && !p.failed {
		p.probe.name(what)
	}
	switch {
	case t.Kind == QuotedIdent:
		p.next()
		return &ast.Ident{Span: ast.Span{Pos: t.Pos, End: t.End}, Name: t.Value, Quoted: true}
	case t.Kind == Word && !p.reserved(p.up[p.pos]):
		p.next()
		return &ast.Ident{Span: ast.Span{Pos: t.Pos, End: t.End}, Name: t.Text}
	case t.Kind == Word && !builtin.StructuralWords[p.up[p.pos]]:
		p.reportReserved(t)
		p.next()
		return &ast.Ident{Span: ast.Span{Pos: t.Pos, End: t.End}, Name: t.Text}
	}
	hint := ""
	if t.Kind == Word && p.reserved(p.up[p.pos]) {
		hint = "'" + t.Text + "' is a reserved word: quote it as " + ast.QuoteIdent(t.Text) + " to use it as a name"
	}
	p.fail(t, "expected "+what+", found "+describe(t), hint)
	return &ast.Ident{Span: ast.Span{Pos: t.Pos, End: t.Pos}}
}

func (p *parser) reportReserved(t Token) {
	p.report(t.Pos, t.End, CodeReservedWord, "'"+t.Text+"' is a reserved word in Flink SQL",
		"quote it as "+ast.QuoteIdent(t.Text)+" to use it as a name")
}

// parseQualifiedName reads a.b.c.
func (p *parser) parseQualifiedName(what string) *ast.QualifiedName {
	start := p.tok().Pos
	q := &ast.QualifiedName{}
	q.Parts = append(q.Parts, p.parseIdent(what))
	for !p.failed && p.is(Dot) {
		p.next()
		q.Parts = append(q.Parts, p.parseIdent(what))
	}
	q.Span = p.span(start)
	return q
}

// parseIdentList reads a, b, c (without parentheses).
func (p *parser) parseIdentList(what string) []*ast.Ident {
	var ids []*ast.Ident
	ids = append(ids, p.parseIdent(what))
	for !p.failed && p.accept(Comma) {
		ids = append(ids, p.parseIdent(what))
	}
	return ids
}

// parseParenIdentList reads (a, b, c).
func (p *parser) parseParenIdentList(what string) []*ast.Ident {
	p.expect(LParen)
	ids := p.parseIdentList(what)
	p.expect(RParen)
	return ids
}

// parseOptionalAlias reads [AS] name [(cols)] where an alias may stand.
func (p *parser) parseOptionalAlias(allowColumns bool) *ast.Alias {
	start := p.tok().Pos
	var name *ast.Ident
	switch {
	case p.acceptKw("AS"):
		name = p.parseIdent("an alias after AS")
	case p.isNameToken() && !builtin.NoAliasWords[p.up[p.pos]]:
		name = p.parseIdent("an alias")
	default:
		return nil
	}
	a := &ast.Alias{Name: name}
	if allowColumns && p.is(LParen) && !p.failed {
		a.Columns = p.parseParenIdentList("a column alias")
	}
	a.Span = p.span(start)
	return a
}

// ---- literals ----

func (p *parser) parseStringLit(what string) *ast.StringLit {
	t := p.tok()
	if p.failed {
		return &ast.StringLit{Span: ast.Span{Pos: t.Pos, End: t.Pos}}
	}
	if t.Kind != String {
		p.fail(t, "expected "+what+", found "+describe(t), "")
		return &ast.StringLit{Span: ast.Span{Pos: t.Pos, End: t.Pos}}
	}
	p.next()
	return &ast.StringLit{Span: ast.Span{Pos: t.Pos, End: t.End}, Value: t.Value}
}

// parseProperties reads ('k' = 'v', ...).
func (p *parser) parseProperties() ast.Properties {
	props := ast.Properties{}
	p.expect(LParen)
	if p.accept(RParen) {
		return props
	}
	for !p.failed {
		start := p.tok().Pos
		k := p.parseStringLit("an option key in quotes, like 'connector'")
		p.expect(Eq)
		v := p.parseStringLit("an option value in quotes")
		props = append(props, &ast.Property{Span: p.span(start), Key: k, Value: v})
		if !p.accept(Comma) {
			break
		}
	}
	p.expect(RParen)
	return props
}

// parseIntParam reads an unsigned integer such as a length or precision.
func (p *parser) parseIntParam(what string) int {
	t := p.tok()
	if p.failed {
		return 0
	}
	if t.Kind != Integer {
		p.fail(t, "expected "+what+", found "+describe(t), "")
		return 0
	}
	p.next()
	n := 0
	for _, c := range t.Text {
		n = n*10 + int(c-'0')
		if n > 1<<30 {
			p.fail(t, what+" "+t.Text+" is too large", "")
			return 0
		}
	}
	return n
}

// reserved reports whether w (upper case) is reserved in the release the
// script is parsed for.
func (p *parser) reserved(w string) bool { return builtin.IsReservedIn(w, p.version) }
