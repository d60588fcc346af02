package flinksql

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palink/palink/flinksql/ast"
)

// Lex splits src into tokens by Flink's (Calcite's) lexical rules. It
// never fails: unreadable input becomes Illegal tokens and an error each,
// so the parser and the editor's highlighter keep going. The last token
// is always EOF. Comments are returned apart, in source order.
func Lex(src string) (toks []Token, comments []ast.Comment, errs []*Error) {
	lx := lexer{src: src, pos: ast.Pos{Offset: 0, Line: 1, Col: 1}}
	// About one token per five or six bytes of SQL (dense DDL and queries
	// come to five, just over the old estimate, which then doubled a
	// 1.3 MB slice); sizing for four up front saves the copies of a
	// growing slice.
	toks = make([]Token, 0, len(src)/4+8)
	for {
		t := lx.next()
		lx.lastLine = t.End.Line
		toks = append(toks, t)
		if t.Kind == EOF {
			break
		}
	}
	return toks, lx.comments, lx.errs
}

func twoCharKind(s string) TokenKind {
	switch s {
	case "<>":
		return Neq
	case "!=":
		return BangEq
	case "<=":
		return Le
	case ">=":
		return Ge
	case "||":
		return Concat
	case "=>":
		return Arrow
	}
	return Illegal
}

func oneCharKind(r rune) TokenKind {
	switch r {
	case '(':
		return LParen
	case ')':
		return RParen
	case '[':
		return LBracket
	case ']':
		return RBracket
	case '{':
		return LBrace
	case '}':
		return RBrace
	case ',':
		return Comma
	case ';':
		return Semicolon
	case '.':
		return Dot
	case ':':
		return Colon
	case '*':
		return Asterisk
	case '+':
		return Plus
	case '-':
		return Minus
	case '/':
		return Slash
	case '%':
		return Percent
	case '=':
		return Eq
	case '<':
		return Lt
	case '>':
		return Gt
	case '?':
		return Question
	case '^':
		return Caret
	case '|':
		return Pipe
	case '$':
		return Dollar
	}
	return Illegal
}

type lexer struct {
	src      string
	pos      ast.Pos
	inHint   bool
	lastLine int // line where the last token ended; 0 before any token
	comments []ast.Comment
	errs     []*Error
}

// peekRune returns the rune at byte offset off from the current position
// without moving.
func (lx *lexer) peekRune(off int) rune {
	i := lx.pos.Offset + off
	if i >= len(lx.src) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(lx.src[i:])
	return r
}

func (lx *lexer) peekByte(off int) byte {
	i := lx.pos.Offset + off
	if i >= len(lx.src) {
		return 0
	}
	return lx.src[i]
}

// advance moves past one rune, keeping line and column right. \r\n and a
// lone \r both end a line, as editors count them.
func (lx *lexer) advance() {
	if lx.pos.Offset >= len(lx.src) {
		return
	}
	if c := lx.src[lx.pos.Offset]; c < utf8.RuneSelf && c != '\n' && c != '\r' {
		lx.pos.Offset++
		lx.pos.Col++
		return
	}
	r, n := utf8.DecodeRuneInString(lx.src[lx.pos.Offset:])
	lx.pos.Offset += n
	switch {
	case r == '\n':
		lx.pos.Line++
		lx.pos.Col = 1
	case r == '\r' && lx.peekByte(0) != '\n':
		lx.pos.Line++
		lx.pos.Col = 1
	default:
		lx.pos.Col++
	}
}

func (lx *lexer) errorf(start, end ast.Pos, msg, hint string) {
	lx.errs = append(lx.errs, &Error{Pos: start, End: end, Msg: msg, Hint: hint, src: lx.src})
}

func (lx *lexer) token(kind TokenKind, start ast.Pos, value string) Token {
	text := lx.src[start.Offset:lx.pos.Offset]
	if kind != QuotedIdent && kind != String && kind != BinaryString && kind != DoubleQuoted {
		value = text
	}
	return Token{Kind: kind, Text: text, Value: value, Pos: start, End: lx.pos}
}

// skipSpaceAndComments moves past white space and comments, recording the
// comments. A /*+ opens a hint and is a token, so it stops here.
func (lx *lexer) skipSpaceAndComments() {
	for lx.pos.Offset < len(lx.src) {
		c := lx.src[lx.pos.Offset]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			lx.advance()
			continue
		}
		r := rune(c)
		if c >= utf8.RuneSelf {
			r = lx.peekRune(0)
		}
		switch {
		case unicode.IsSpace(r):
			lx.advance()
		case r == '-' && lx.peekByte(1) == '-':
			start := lx.pos
			for lx.pos.Offset < len(lx.src) && lx.peekByte(0) != '\n' && lx.peekByte(0) != '\r' {
				lx.advance()
			}
			lx.comments = append(lx.comments, ast.Comment{Text: lx.src[start.Offset:lx.pos.Offset], Pos: start, End: lx.pos,
				Trailing: lx.lastLine == start.Line})
		case r == '/' && lx.peekByte(1) == '*' && lx.peekByte(2) != '+':
			start := lx.pos
			lx.advance()
			lx.advance()
			closed := false
			for lx.pos.Offset < len(lx.src) {
				if lx.peekByte(0) == '*' && lx.peekByte(1) == '/' {
					lx.advance()
					lx.advance()
					closed = true
					break
				}
				lx.advance()
			}
			if !closed {
				lx.errorf(start, lx.pos, "unterminated comment", "close it with */")
			}
			lx.comments = append(lx.comments, ast.Comment{Text: lx.src[start.Offset:lx.pos.Offset], Pos: start, End: lx.pos, Block: true,
				Trailing: lx.lastLine == start.Line})
		default:
			return
		}
	}
}

func (lx *lexer) next() Token {
	lx.skipSpaceAndComments()
	start := lx.pos
	if lx.pos.Offset >= len(lx.src) {
		if lx.inHint {
			lx.errorf(start, start, "unterminated hint", "close it with */")
			lx.inHint = false
		}
		return Token{Kind: EOF, Pos: start, End: start}
	}
	r := lx.peekRune(0)
	switch {
	case (r == 'x' || r == 'X') && lx.peekByte(1) == '\'':
		lx.advance()
		v, ok := lx.quoted('\'')
		t := lx.token(BinaryString, start, v)
		if !ok {
			lx.errorf(start, lx.pos, "unterminated binary string", "close it with '")
		} else if !isHex(v) || len(v)%2 != 0 {
			lx.errorf(start, lx.pos, "binary string "+t.Text+" must hold an even number of hex digits", "")
		}
		return t
	case isIdentStart(r):
		for lx.pos.Offset < len(lx.src) {
			c := lx.src[lx.pos.Offset]
			if c < utf8.RuneSelf {
				if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
					break
				}
				lx.pos.Offset++
				lx.pos.Col++
				continue
			}
			if !isIdentPart(lx.peekRune(0)) {
				break
			}
			lx.advance()
		}
		return lx.token(Word, start, "")
	case r >= '0' && r <= '9' || r == '.' && isDigit(lx.peekByte(1)):
		return lx.number(start)
	case r == '`':
		v, ok := lx.quoted('`')
		if !ok {
			lx.errorf(start, lx.pos, "unterminated quoted identifier", "close it with `")
		} else if v == "" {
			lx.errorf(start, lx.pos, "empty quoted identifier", "")
		}
		return lx.token(QuotedIdent, start, v)
	case r == '\'':
		v, ok := lx.quoted('\'')
		if !ok {
			lx.errorf(start, lx.pos, "unterminated string", "close it with '")
		}
		return lx.token(String, start, v)
	case r == '"':
		v, ok := lx.quoted('"')
		if !ok {
			lx.errorf(start, lx.pos, "unterminated double-quoted text", "")
		}
		return lx.token(DoubleQuoted, start, v)
	}
	two := ""
	if lx.pos.Offset+2 <= len(lx.src) {
		two = lx.src[lx.pos.Offset : lx.pos.Offset+2]
	}
	if lx.pos.Offset+3 <= len(lx.src) && lx.src[lx.pos.Offset:lx.pos.Offset+3] == "/*+" {
		lx.advance()
		lx.advance()
		lx.advance()
		lx.inHint = true
		return lx.token(HintStart, start, "")
	}
	if two == "*/" && lx.inHint {
		lx.advance()
		lx.advance()
		lx.inHint = false
		return lx.token(HintEnd, start, "")
	}
	if k := twoCharKind(two); k != Illegal {
		lx.advance()
		lx.advance()
		return lx.token(k, start, "")
	}
	lx.advance()
	if k := oneCharKind(r); k != Illegal {
		return lx.token(k, start, "")
	}
	t := lx.token(Illegal, start, "")
	lx.errorf(start, lx.pos, "unexpected character "+quoteRune(r), "")
	return t
}

// quoted reads a quoted run starting at the opening quote q, where a doubled
// quote stands for one. It returns the decoded contents and whether the
// closing quote was found.
func (lx *lexer) quoted(q byte) (string, bool) {
	lx.advance()
	var b strings.Builder
	for lx.pos.Offset < len(lx.src) {
		c := lx.peekByte(0)
		if c == q {
			if lx.peekByte(1) == q {
				b.WriteByte(q)
				lx.advance()
				lx.advance()
				continue
			}
			lx.advance()
			return b.String(), true
		}
		r, n := utf8.DecodeRuneInString(lx.src[lx.pos.Offset:])
		if r == utf8.RuneError && n == 1 {
			b.WriteByte(c)
		} else {
			b.WriteRune(r)
		}
		lx.advance()
	}
	return b.String(), false
}

// number reads 12, 1.5, .5, 1., 1e10, 1.5E-3. A letter glued to a number
// (12abc) is an error, as it is in Flink.
func (lx *lexer) number(start ast.Pos) Token {
	kind := Integer
	for isDigit(lx.peekByte(0)) {
		lx.advance()
	}
	if lx.peekByte(0) == '.' && !(lx.peekByte(1) == '.') {
		kind = Decimal
		lx.advance()
		for isDigit(lx.peekByte(0)) {
			lx.advance()
		}
	}
	if c := lx.peekByte(0); c == 'e' || c == 'E' {
		d := lx.peekByte(1)
		if isDigit(d) || (d == '+' || d == '-') && isDigit(lx.peekByte(2)) {
			kind = Approx
			lx.advance()
			lx.advance()
			for isDigit(lx.peekByte(0)) {
				lx.advance()
			}
		}
	}
	if isIdentStart(lx.peekRune(0)) {
		for isIdentPart(lx.peekRune(0)) {
			lx.advance()
		}
		t := lx.token(Illegal, start, "")
		lx.errorf(start, lx.pos, "malformed number "+t.Text, "")
		return t
	}
	return lx.token(kind, start, "")
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func isIdentStart(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 && unicode.IsLetter(r)
}

func isIdentPart(r rune) bool {
	return isIdentStart(r) || r >= '0' && r <= '9' || r == '$' || r > 127 && unicode.IsDigit(r)
}

func quoteRune(r rune) string {
	if r == utf8.RuneError {
		return "(invalid UTF-8)"
	}
	if unicode.IsPrint(r) {
		return "'" + string(r) + "'"
	}
	return fmt.Sprintf("U+%04X", r)
}
