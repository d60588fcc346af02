package flinksql

import (
	"slices"

	"github.com/palink/palink/flinksql/builtin"
)

// Completion asks the grammar itself what may come at the cursor, so there
// is no second grammar to keep in step with the parser: it parses the
// statement up to the cursor with a probe, and every keyword the parser
// tests for at the end of that text, every name it wants there (and what
// for), and whether an expression or a type may start there, is noted. A
// recursive-descent parser tries the alternatives it allows before it
// gives up at the end of input, so the notes are the words valid there.

// probe is what the parser notes at the end of the text (token at), set
// by Probe only.
type probe struct {
	at int
	// words are the keywords tested for, in the order the grammar tried
	// them (roughly: the more specific construct first).
	words []string
	seen  map[string]bool
	// names are the descriptions of the names wanted there ("a table
	// name", "an alias"), as parseIdent's errors would give them.
	names []string
	expr  bool // an expression may start
	typ   bool // a data type may start
}

func (pr *probe) word(w string) {
	if !pr.seen[w] {
		pr.seen[w] = true
		pr.words = append(pr.words, w)
	}
}

func (pr *probe) name(what string) { pr.names = append(pr.names, what) }

// probeWords notes the keywords a switch on the current word accepts, for
// the switches that do not go through isKw.
func (p *parser) probeWords(ws ...string) {
	if p.probe != nil && p.pos == p.probe.at && !p.failed {
		for _, w := range ws {
			p.probe.word(w)
		}
	}
}

// probeExpr notes that an expression may start at the end of the text.
func (p *parser) probeExpr() {
	if p.probe != nil && p.pos == p.probe.at && !p.failed {
		p.probe.expr = true
	}
}

// probeType notes that a data type may start at the end of the text.
func (p *parser) probeType() {
	if p.probe != nil && p.pos == p.probe.at && !p.failed {
		p.probe.typ = true
	}
}

// statementStarts are the words parseStatement dispatches on.
var statementStarts = []string{"SELECT", "INSERT", "CREATE", "SET", "WITH", "EXPLAIN", "EXECUTE", "BEGIN",
	"ALTER", "DROP", "USE", "SHOW", "DESCRIBE", "RESET", "VALUES", "CALL", "DELETE", "UPDATE", "TRUNCATE",
	"ANALYZE", "LOAD", "UNLOAD", "ADD", "REMOVE", "STATEMENT", "COMPILE", "REPLACE", "DESC"}

// Expected is what the grammar looks for at the end of a statement's
// text: what Probe found.
type Expected struct {
	// Words are the keywords tested for, in the order the grammar tried
	// them (roughly: the more specific construct first).
	Words []string
	// Names say what the names wanted there are for, as the parser's
	// errors would: "a table name", "a column name", "an alias", "a column
	// of the sink", "the time attribute column".
	Names []string
	// Expr is set where an expression may start, Type where a data type
	// may.
	Expr, Type bool
}

// Probe parses text, a statement up to a cursor, for release v and says
// what the grammar looked for at its end: completion's way to ask the one
// grammar what may be written there. At the start of a statement (text
// without a token) the words are the ones a statement may start with. It
// never panics: a parser bug yields what was noted before it.
func Probe(text string, v builtin.Version) Expected {
	p := newParser("", text)
	p.version = v
	pr := &probe{at: len(p.toks) - 1, seen: map[string]bool{}}
	p.probe = pr
	if pr.at == 0 {
		return Expected{Words: slices.Clone(statementStarts)}
	}
	func() {
		defer func() {
			// The parser is meant never to panic (FuzzParse); completion
			// must not take the editor down if it does.
			_ = recover()
		}()
		p.parseScript()
	}()
	return Expected{Words: pr.words, Names: pr.names, Expr: pr.expr, Type: pr.typ}
}
