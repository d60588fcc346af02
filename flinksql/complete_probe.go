package flinksql

import (
	"github.com/palink/palink/flinksql/builtin"
)

// Completion asks the grammar itself what may come at the cursor, so there
// is no second grammar to keep in step with the parser: it parses the
// statement up to the cursor with a probe, and every keyword the parser
// tests for at the end of that text, every name it wants there (and what
// for), and whether an expression or a type may start there, is noted. A
// recursive-descent parser tries the alternatives it allows before it
// gives up at the end of input, so the notes are the words valid there.

// probe is what the parser noted at the end of the text (token at).
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

// typeNames are the data types completion offers where a type may start.
var typeNames = []string{"STRING", "BIGINT", "INT", "DECIMAL", "DOUBLE", "BOOLEAN", "TIMESTAMP", "TIMESTAMP_LTZ",
	"DATE", "TIME", "VARCHAR", "CHAR", "FLOAT", "SMALLINT", "TINYINT", "BYTES", "BINARY", "VARBINARY",
	"ARRAY", "MAP", "MULTISET", "ROW", "INTERVAL", "RAW", "VARIANT", "STRUCTURED"}

// probeAt parses text (a statement up to the cursor) for release v and
// returns what the grammar looked for at its end.
func probeAt(text string, v builtin.Version) *probe {
	p := newParser("", text)
	p.version = v
	p.probe = &probe{at: len(p.toks) - 1, seen: map[string]bool{}}
	func() {
		defer func() {
			// The parser is meant never to panic (FuzzParse); completion
			// must not take the editor down if it does.
			_ = recover()
		}()
		p.parseScript()
	}()
	return p.probe
}
