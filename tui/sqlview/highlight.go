package sqlview

import (
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"

	"github.com/palink/palink/flinksql/builtin"
)

// Syntax highlighting is chroma's: a Flink SQL lexer registered below,
// whose words are keywords when flinksql says so (the same list the
// parser reserves), so the editor and the validator agree on what a keyword
// is. Its tokens are cut into lines and classed; the editor styles a class.

// sqlLexers is palink's chroma registry. chroma's global one (package
// lexers) would build 250 lexers at every start of palink, CLI included
// (14 ms and 2.7 MB measured), for the one language the editor shows.
var sqlLexers = chroma.NewLexerRegistry()

// flinkSQLLexer is chroma's lexer for Flink SQL, found as "flinksql".
var flinkSQLLexer = sqlLexers.Register(chroma.MustNewLexer(&chroma.Config{
	Name:      "Flink SQL",
	Aliases:   []string{"flinksql", "flink-sql"},
	Filenames: []string{"*.flink.sql"},
	MimeTypes: []string{"text/x-flink-sql"},
	// Flink's lexer is Calcite's; these rules follow flinksql.Lex.
}, flinkSQLRules))

func flinkSQLRules() chroma.Rules {
	word := chroma.EmitterFunc(func(groups []string, _ *chroma.LexerState) chroma.Iterator {
		return chroma.Literator(chroma.Token{Type: wordType(groups[0], false), Value: groups[0]})
	})
	call := chroma.EmitterFunc(func(groups []string, _ *chroma.LexerState) chroma.Iterator {
		return chroma.Literator(
			chroma.Token{Type: wordType(groups[1], true), Value: groups[1]},
			chroma.Token{Type: chroma.TextWhitespace, Value: groups[2]},
			chroma.Token{Type: chroma.Punctuation, Value: groups[3]},
		)
	})
	block := func(t chroma.TokenType) []chroma.Rule {
		return []chroma.Rule{
			{Pattern: `\*/`, Type: t, Mutator: chroma.Pop(1)},
			{Pattern: `[^*]+`, Type: t},
			{Pattern: `\*`, Type: t},
		}
	}
	return chroma.Rules{
		"root": {
			{Pattern: `\s+`, Type: chroma.TextWhitespace},
			{Pattern: `--[^\n]*`, Type: chroma.CommentSingle},
			{Pattern: `/\*\+`, Type: chroma.CommentPreproc, Mutator: chroma.Push("hint")},
			{Pattern: `/\*`, Type: chroma.CommentMultiline, Mutator: chroma.Push("comment")},
			{Pattern: `[xX]'[0-9a-fA-F\s]*'`, Type: chroma.LiteralStringOther},
			{Pattern: `'`, Type: chroma.LiteralStringSingle, Mutator: chroma.Push("string")},
			{Pattern: "`", Type: chroma.NameVariable, Mutator: chroma.Push("quoted")},
			{Pattern: `"`, Type: chroma.LiteralStringDouble, Mutator: chroma.Push("dstring")},
			{Pattern: `(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?`, Type: chroma.LiteralNumber},
			{Pattern: `([\p{L}_][\p{L}\p{N}_$]*)(\s*)(\()`, Type: call},
			{Pattern: `[\p{L}_][\p{L}\p{N}_$]*`, Type: word},
			{Pattern: `<>|!=|<=|>=|\|\||=>|[-+*/%=<>]`, Type: chroma.Operator},
			{Pattern: `[(),;.\[\]{}:?]`, Type: chroma.Punctuation},
			{Pattern: `.`, Type: chroma.Error},
		},
		"string": {
			{Pattern: `''`, Type: chroma.LiteralStringEscape},
			{Pattern: `'`, Type: chroma.LiteralStringSingle, Mutator: chroma.Pop(1)},
			{Pattern: `[^']+`, Type: chroma.LiteralStringSingle},
		},
		"dstring": {
			{Pattern: `""`, Type: chroma.LiteralStringEscape},
			{Pattern: `"`, Type: chroma.LiteralStringDouble, Mutator: chroma.Pop(1)},
			{Pattern: `[^"]+`, Type: chroma.LiteralStringDouble},
		},
		"quoted": {
			{Pattern: "``", Type: chroma.NameVariable},
			{Pattern: "`", Type: chroma.NameVariable, Mutator: chroma.Pop(1)},
			{Pattern: "[^`]+", Type: chroma.NameVariable},
		},
		"comment": block(chroma.CommentMultiline),
		"hint":    block(chroma.CommentPreproc),
	}
}

// sqlTypes are the names of Flink SQL's data types.
var sqlTypes = map[string]bool{}

func init() {
	for _, t := range strings.Fields(`BOOLEAN TINYINT SMALLINT INT INTEGER BIGINT FLOAT REAL DOUBLE DECIMAL DEC NUMERIC
		CHAR CHARACTER VARCHAR STRING BINARY VARBINARY BYTES DATE TIME TIMESTAMP TIMESTAMP_LTZ INTERVAL
		ARRAY MAP MULTISET ROW RAW VARIANT NULL`) {
		sqlTypes[t] = true
	}
}

// wordType classes a word: a data type, a keyword (by flinksql), a
// function when it is called, else a name.
func wordType(w string, called bool) chroma.TokenType {
	up := strings.ToUpper(w)
	switch {
	case sqlTypes[up] && up != "NULL":
		return chroma.KeywordType
	case builtin.IsKeyword(up):
		return chroma.Keyword
	case called:
		return chroma.NameFunction
	}
	return chroma.Name
}

// Class is what the editor styles a run of text as.
type Class uint8

const (
	synText Class = iota
	synKeyword
	synType
	synFunction
	synString
	synNumber
	synComment
	synHint
	synQuoted
	synOperator
	synIllegal
)

func classOf(t chroma.TokenType) Class {
	switch {
	case t == chroma.KeywordType:
		return synType
	case t.InCategory(chroma.Keyword):
		return synKeyword
	case t == chroma.NameFunction:
		return synFunction
	case t == chroma.NameVariable:
		return synQuoted
	case t.InCategory(chroma.LiteralString):
		return synString
	case t.InCategory(chroma.LiteralNumber):
		return synNumber
	case t == chroma.CommentPreproc:
		return synHint
	case t.InCategory(chroma.Comment):
		return synComment
	case t == chroma.Operator:
		return synOperator
	case t == chroma.Error:
		return synIllegal
	}
	return synText
}

// Span is a run of runes of one class within a line.
type Span struct {
	N     int // runes
	Class Class
}

// Highlight classes every rune of text, line by line. A lexer failure
// (chroma gives one only for a broken rule) leaves the text plain.
func Highlight(text string) [][]Span {
	lines := strings.Count(text, "\n") + 1
	out := make([][]Span, lines)
	it, err := flinkSQLLexer.Tokenise(nil, text)
	if err != nil {
		for i, l := range strings.Split(text, "\n") {
			out[i] = []Span{{N: utf8.RuneCountInString(l), Class: synText}}
		}
		return out
	}
	line := 0
	add := func(s string, c Class) {
		n := utf8.RuneCountInString(s)
		if n == 0 || line >= lines {
			return
		}
		spans := out[line]
		if k := len(spans) - 1; k >= 0 && spans[k].Class == c {
			spans[k].N += n
			return
		}
		out[line] = append(spans, Span{N: n, Class: c})
	}
	for tok := it(); tok != chroma.EOF; tok = it() {
		c := classOf(tok.Type)
		v := tok.Value
		for {
			i := strings.IndexByte(v, '\n')
			if i < 0 {
				add(v, c)
				break
			}
			add(v[:i], c)
			line++
			v = v[i+1:]
		}
	}
	return out
}
