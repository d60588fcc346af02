package flinksql

import (
	"fmt"
	"strings"
	"testing"

	"github.com/palink/palink/flinksql/builtin"
)

// tokString renders tokens as "Kind:Value" for compact comparison.
func tokString(toks []Token) string {
	var parts []string
	for _, t := range toks {
		if t.Kind == EOF {
			break
		}
		parts = append(parts, fmt.Sprintf("%s:%s", t.Kind, t.Value))
	}
	return strings.Join(parts, " ")
}

func TestLexTokens(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"words and symbols", "SELECT a, b FROM t;", "word:SELECT word:a ',':, word:b word:FROM word:t ';':;"},
		{"back-quoted with escape", "`a``b` `x y`", "quoted identifier:a`b quoted identifier:x y"},
		{"string with escape", "'it''s' ''", "string:it's string:"},
		{"binary string", "X'0aFF' x'00'", "binary string:0aFF binary string:00"},
		{"integer decimal approx", "1 1.5 .5 7. 1e10 2.5E-3 3E+2", "integer:1 decimal:1.5 decimal:.5 decimal:7. number:1e10 number:2.5E-3 number:3E+2"},
		{"operators", "<> != <= >= || => = < > + - * / % ?", "'<>':<> '!=':!= '<=':<= '>=':>= '||':|| '=>':=> '=':= '<':< '>':> '+':+ '-':- '*':* '/':/ '%':% '?':?"},
		{"line comment skipped", "a -- note\nb", "word:a word:b"},
		{"block comment skipped", "a /* x\ny */ b", "word:a word:b"},
		{"hint is tokens", "SELECT /*+ LOOKUP('table'='d') */ a", "word:SELECT '/*+':/*+ word:LOOKUP '(':( string:table '=':= string:d ')':) '*/':*/ word:a"},
		{"star slash outside hint", "a */ b", "word:a '*':* '/':/ word:b"},
		{"minus minus is a comment, minus space minus is not", "1 - -2 --x", "integer:1 '-':- '-':- integer:2"},
		{"identifier with dollar and digits", "a1$b _x", "word:a1$b word:_x"},
		{"unicode identifier", "名前 straße", "word:名前 word:straße"},
		{"double quoted", `"abc"`, "double-quoted text:abc"},
		{"brackets and braces", "a[1] {- -}", "word:a '[':[ integer:1 ']':] '{':{ '-':- '-':- '}':}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, _, errs := Lex(tt.src)
			if len(errs) > 0 {
				t.Fatalf("Lex(%q) errors: %v", tt.src, errs)
			}
			if got := tokString(toks); got != tt.want {
				t.Errorf("Lex(%q)\n got %s\nwant %s", tt.src, got, tt.want)
			}
		})
	}
}

func TestLexPositions(t *testing.T) {
	src := "SELECT\n  `名前`, 'a''b'\r\n\tx /* c */ y"
	toks, comments, errs := Lex(src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []struct {
		text      string
		line, col int
		endCol    int
	}{
		{"SELECT", 1, 1, 7},
		{"`名前`", 2, 3, 7},
		{",", 2, 7, 8},
		{"'a''b'", 2, 9, 15},
		{"x", 3, 2, 3},
		{"y", 3, 12, 13},
	}
	for i, w := range want {
		tk := toks[i]
		if tk.Text != w.text || tk.Pos.Line != w.line || tk.Pos.Col != w.col || tk.End.Col != w.endCol {
			t.Errorf("token %d = %q at %d:%d-%d, want %q at %d:%d-%d", i, tk.Text, tk.Pos.Line, tk.Pos.Col, tk.End.Col, w.text, w.line, w.col, w.endCol)
		}
		if src[tk.Pos.Offset:tk.End.Offset] != tk.Text {
			t.Errorf("token %d offsets slice %q, want %q", i, src[tk.Pos.Offset:tk.End.Offset], tk.Text)
		}
	}
	if len(comments) != 1 || comments[0].Text != "/* c */" || comments[0].Pos.Col != 4 || !comments[0].Block {
		t.Errorf("comments = %+v, want one block comment at column 4", comments)
	}
}

func TestLexKeywordsAreCaseInsensitiveWords(t *testing.T) {
	p := newParser("", "select SeLeCt")
	if !p.isKw("SELECT") {
		t.Error("lower-case select is not the SELECT keyword")
	}
	p.pos = 1
	if !p.isKw("SELECT") {
		t.Error("mixed-case SeLeCt is not the SELECT keyword")
	}
}

func TestLexErrors(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"SELECT 'abc", 1, 8, "unterminated string"},
		{"SELECT\n  `abc", 2, 3, "unterminated quoted identifier"},
		{"a /* never closed", 1, 3, "unterminated comment"},
		{"SELECT #", 1, 8, "unexpected character '#'"},
		{"SELECT 12abc", 1, 8, "malformed number 12abc"},
		{"SELECT X'0F1'", 1, 8, "binary string X'0F1' must hold an even number of hex digits"},
		{"SELECT /*+ OPTIONS('a'='b')", 1, 28, "unterminated hint"},
	}
	for _, tt := range tests {
		_, _, errs := Lex(tt.src)
		if len(errs) != 1 {
			t.Errorf("Lex(%q): %d errors %v, want 1", tt.src, len(errs), errs)
			continue
		}
		e := errs[0]
		if e.Pos.Line != tt.line || e.Pos.Col != tt.col || !strings.HasPrefix(e.Msg, tt.msg) {
			t.Errorf("Lex(%q) error = %d:%d %q, want %d:%d %q", tt.src, e.Pos.Line, e.Pos.Col, e.Msg, tt.line, tt.col, tt.msg)
		}
	}
}

func TestSnippetCarets(t *testing.T) {
	src := "CREATE TABLE users (id BIGINT)\nWITH ('connector' = 'jdbc', 'table-nam' = 'users');"
	start := strings.Index(src, "'table-nam'")
	toks, _, _ := Lex(src)
	var tk Token
	for _, x := range toks {
		if x.Pos.Offset == start {
			tk = x
		}
	}
	e := &Error{Pos: tk.Pos, End: tk.End, Msg: "unknown option 'table-nam'", Hint: "did you mean 'table-name'?", src: src}
	want := "2 | WITH ('connector' = 'jdbc', 'table-nam' = 'users');\n" +
		"  | " + strings.Repeat(" ", 28) + "^^^^^^^^^^^ unknown option 'table-nam'; did you mean 'table-name'?"
	if got := e.Snippet(); got != want {
		t.Errorf("Snippet:\n%s\nwant:\n%s", got, want)
	}
	if got := e.Error(); got != "2:29: unknown option 'table-nam'; did you mean 'table-name'?" {
		t.Errorf("Error() = %q", got)
	}
	e.File = "job.sql"
	if got := e.Error(); !strings.HasPrefix(got, "job.sql:2:29: ") {
		t.Errorf("Error() with file = %q", got)
	}
}

func TestSnippetWideRunes(t *testing.T) {
	src := "SELECT '名前', x"
	toks, _, _ := Lex(src)
	x := toks[3]
	e := &Error{Pos: x.Pos, End: x.End, Msg: "m", src: src}
	// 13 runes precede x, two of them double width: 15 columns.
	want := "1 | SELECT '名前', x\n  | " + strings.Repeat(" ", 15) + "^ m"
	if got := e.Snippet(); got != want {
		t.Errorf("Snippet:\n%s\nwant:\n%s", got, want)
	}
}

func TestKeywordClasses(t *testing.T) {
	for _, w := range []string{"select", "VALUE", "user", "Timestamp", "watermark", "comment"} {
		if !builtin.IsReserved(w) || !builtin.IsKeyword(w) {
			t.Errorf("%q: reserved %v keyword %v, want both", w, builtin.IsReserved(w), builtin.IsKeyword(w))
		}
	}
	for _, w := range []string{"name", "data", "temporary", "metadata", "json", "tumble"} {
		if builtin.IsReserved(w) || !builtin.IsKeyword(w) {
			t.Errorf("%q: reserved %v keyword %v, want a non-reserved keyword", w, builtin.IsReserved(w), builtin.IsKeyword(w))
		}
	}
	if builtin.IsKeyword("order_id") || builtin.IsReserved("orders") {
		t.Error("plain names reported as keywords")
	}
}
