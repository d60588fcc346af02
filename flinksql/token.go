package flinksql

import (
	"fmt"

	"github.com/palink/palink/flinksql/ast"
)

// TokenKind classifies a token.
type TokenKind int

// The token kinds. Keywords are Word tokens: whether a word is a keyword
// depends on where it stands, so the parser decides.
const (
	EOF          TokenKind = iota
	Illegal                // a character or sequence the lexer cannot read; Text holds it
	Word                   // an unquoted identifier or keyword
	QuotedIdent            // `name` with `` as the escape for a back-quote
	String                 // 'text' with '' as the escape for a quote
	BinaryString           // X'0AFF'
	DoubleQuoted           // "text": not valid Flink SQL, kept so the parser can say so
	Integer                // 42
	Decimal                // 4.2, .5, 4.
	Approx                 // 4.2E-3
	LParen                 // (
	RParen                 // )
	LBracket               // [
	RBracket               // ]
	LBrace                 // {
	RBrace                 // }
	Comma                  // ,
	Semicolon              // ;
	Dot                    // .
	Colon                  // :
	Asterisk               // *
	Plus                   // +
	Minus                  // -
	Slash                  // /
	Percent                // %
	Eq                     // =
	Neq                    // <>
	BangEq                 // !=
	Lt                     // <
	Le                     // <=
	Gt                     // >
	Ge                     // >=
	Concat                 // ||
	Arrow                  // =>
	Question               // ?
	Caret                  // ^
	Pipe                   // |
	Dollar                 // $ (end anchor of a MATCH_RECOGNIZE pattern)
	HintStart              // /*+ opening a hint block
	HintEnd                // */ closing a hint block
)

var tokenKindNames = [...]string{
	EOF: "end of input", Illegal: "illegal character", Word: "word", QuotedIdent: "quoted identifier",
	String: "string", BinaryString: "binary string", DoubleQuoted: "double-quoted text",
	Integer: "integer", Decimal: "decimal", Approx: "number",
	LParen: "'('", RParen: "')'", LBracket: "'['", RBracket: "']'", LBrace: "'{'", RBrace: "'}'",
	Comma: "','", Semicolon: "';'", Dot: "'.'", Colon: "':'", Asterisk: "'*'", Plus: "'+'",
	Minus: "'-'", Slash: "'/'", Percent: "'%'", Eq: "'='", Neq: "'<>'", BangEq: "'!='",
	Lt: "'<'", Le: "'<='", Gt: "'>'", Ge: "'>='", Concat: "'||'", Arrow: "'=>'",
	Question: "'?'", Caret: "'^'", Pipe: "'|'", Dollar: "'$'", HintStart: "'/*+'", HintEnd: "'*/'",
}

// String names the kind the way an error message would.
func (k TokenKind) String() string {
	if k >= 0 && int(k) < len(tokenKindNames) && tokenKindNames[k] != "" {
		return tokenKindNames[k]
	}
	return fmt.Sprintf("TokenKind(%d)", int(k))
}

// Token is one lexical unit with its place in the source.
type Token struct {
	Kind TokenKind
	// Text is the token exactly as written.
	Text string
	// Value is the decoded value: the name of an identifier (escapes
	// removed), the contents of a string, the hex digits of a binary
	// string; for other kinds it equals Text.
	Value string
	// Pos is the first rune, End is just past the last one.
	Pos ast.Pos
	End ast.Pos
}
