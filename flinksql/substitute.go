package flinksql

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"
)

// ParseWithVars parses src as a deploy sends it to Flink: each ${name}
// that values has is replaced by its value first (SubstituteVars). Every
// other ${name} — a secret, whose value is read only once the script is
// found to use it where it may (SecretsOutsideOptionsIn), or an undefined
// one — becomes a name of its own length, so that the text parses wherever
// a value may stand; FillOptions puts the secrets' values in afterwards.
//
// Every position — of the nodes, of the errors, of the constructs a release
// lacks (ReleaseLacks) — is one of src as written, and Script.Src is src:
// an error points at the user's file whatever the variables hold. A
// position inside a value is that of its reference.
func ParseWithVars(file, src string, values map[string]string) (*Script, []*Error) {
	sub := substitute(src, values)
	if len(sub.refs) == 0 {
		return ParseFile(file, src)
	}
	parsed(sub.text)
	script, errs := newParserFor(file, sub).script()
	script.vars = sub
	return script, errs
}

// substitution is a text with its variables replaced, and the way back
// from its offsets to those of the text as written.
type substitution struct {
	src, text string
	values    map[string]string
	refs      []placedRef
	lines     []int // offsets in src where lines start
}

// placedRef is a reference of src and where its value stands in text.
type placedRef struct {
	VarRef
	at, end int
}

// substitute replaces every ${name} of src: by values[name] when it has
// one, else by a name of its own length.
func substitute(src string, values map[string]string) *substitution {
	s := &substitution{src: src, values: values}
	refs := FindVars(src)
	if len(refs) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, r := range refs {
		b.WriteString(src[last:r.Pos.Offset])
		v, ok := values[r.Name]
		if !ok {
			v = strings.Repeat("v", r.End.Offset-r.Pos.Offset)
		}
		at := b.Len()
		b.WriteString(v)
		s.refs = append(s.refs, placedRef{VarRef: r, at: at, end: b.Len()})
		last = r.End.Offset
	}
	b.WriteString(src[last:])
	s.text = b.String()
	s.lines = []int{0}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			s.lines = append(s.lines, i+1)
		case '\r':
			if i+1 >= len(src) || src[i+1] != '\n' {
				s.lines = append(s.lines, i+1)
			}
		}
	}
	return s
}

// offset is where offset x of text was in src; end says x ends a span, so
// that a span ending where a value ends ends where its reference does.
func (s *substitution) offset(x int, end bool) int {
	i := sort.Search(len(s.refs), func(i int) bool {
		if end {
			return s.refs[i].at >= x
		}
		return s.refs[i].at > x
	}) - 1
	if i < 0 {
		return x
	}
	r := s.refs[i]
	switch {
	case !end && x < r.end:
		return r.Pos.Offset
	case end && x <= r.end:
		return r.End.Offset
	}
	return x - r.end + r.End.Offset
}

// pos is position p of text as a position of src.
func (s *substitution) pos(p ast.Pos, end bool) ast.Pos {
	off := s.offset(p.Offset, end)
	line := sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > off }) - 1
	return ast.Pos{Offset: off, Line: line + 1, Col: 1 + utf8.RuneCountInString(s.src[s.lines[line]:off])}
}

// span is sp of text as a span of src.
func (s *substitution) span(sp ast.Span) ast.Span {
	return ast.Span{Pos: s.pos(sp.Pos, false), End: s.pos(sp.End, true)}
}

// newParserFor is newParser over a substituted text whose tokens, comments
// and lexical errors are placed in the text as written.
func newParserFor(file string, sub *substitution) *parser {
	toks, comments, lexErrs := Lex(sub.text)
	apart := writtenApart(toks)
	for i := range toks {
		sp := sub.span(ast.Span{Pos: toks[i].Pos, End: toks[i].End})
		toks[i].Pos, toks[i].End = sp.Pos, sp.End
	}
	for i := range comments {
		sp := sub.span(ast.Span{Pos: comments[i].Pos, End: comments[i].End})
		comments[i].Pos, comments[i].End = sp.Pos, sp.End
	}
	p := &parser{file: file, src: sub.src, toks: toks, comments: comments, apart: apart}
	p.up = make([]string, len(toks))
	for i, t := range toks {
		if t.Kind == Word {
			p.up[i] = builtin.UpperWord(t.Text)
		}
	}
	for _, e := range lexErrs {
		sp := sub.span(ast.Span{Pos: e.Pos, End: e.End})
		e.Pos, e.End, e.File, e.src = sp.Pos, sp.End, file, sub.src
		p.addError(e)
	}
	p.lastEnd = ast.Pos{Line: 1, Col: 1}
	return p
}

// writtenApart says of each token whether space or a comment stands
// between it and the one before, in the text lexed.
func writtenApart(toks []Token) []bool {
	apart := make([]bool, len(toks))
	for i := 1; i < len(toks); i++ {
		apart[i] = toks[i].Pos.Offset > toks[i-1].End.Offset
	}
	return apart
}

// FillOptions puts in a script parsed by ParseWithVars the values of the
// variables it was parsed without (secrets, read once the script is found
// to use them only in options): each option's value (a WITH clause's, an
// OPTIONS hint's) that refers to one of them becomes what its text as
// written is with every variable replaced, as a deploy sends it. A
// reference anywhere else is left as parsed: SecretsOutsideOptionsIn
// refuses it first. An option whose text, its values in, is no longer one
// string (a value holds a quote) is an error at the option.
func FillOptions(script *Script, values map[string]string) error {
	sub := script.vars
	if sub == nil {
		return nil
	}
	var left []placedRef
	for _, r := range sub.refs {
		if _, had := sub.values[r.Name]; !had {
			if _, has := values[r.Name]; has {
				left = append(left, r)
			}
		}
	}
	if len(left) == 0 {
		return nil
	}
	all := maps.Clone(sub.values)
	if all == nil {
		all = map[string]string{}
	}
	maps.Copy(all, values)
	holds := func(sp ast.Span) (VarRef, bool) {
		for _, r := range left {
			if sp.Pos.Offset <= r.Pos.Offset && r.End.Offset <= sp.End.Offset {
				return r.VarRef, true
			}
		}
		return VarRef{}, false
	}
	var err error
	fill := func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.Property:
			if n.Value == nil {
				break
			}
			if r, ok := holds(n.Value.Span); ok {
				err = fillString(script, n.Value, r, all)
			}
		case *ast.Hint:
			if n.Name == nil || !strings.EqualFold(n.Name.Name, "OPTIONS") {
				break
			}
			for _, kv := range n.KVs {
				if kv.Value == nil {
					continue
				}
				r, ok := holds(kv.Value.Range())
				if !ok {
					continue
				}
				if lit, isString := kv.Value.(*ast.StringLit); isString {
					err = fillString(script, lit, r, all)
				} else {
					kv.Value, err = fillValue(script, kv.Value.Range(), r, all)
				}
				if err != nil {
					break
				}
			}
		}
		return true
	}
	ast.Inspect(script, fill)
	return err
}

// fillString gives lit the value its text as written has with the
// variables replaced; r is a reference it holds, for the error.
func fillString(script *Script, lit *ast.StringLit, r VarRef, values map[string]string) error {
	text := SubstituteVars(script.Text(lit), values)
	toks, _, errs := Lex(text)
	if len(errs) > 0 || len(toks) != 2 || toks[0].Kind != String || toks[0].End.Offset != len(text) {
		return fmt.Errorf("%s: the value of variable ${%s} ends the option's string: it holds a quote", lit.Pos, r.Name)
	}
	lit.Value = toks[0].Value
	return nil
}

// fillValue is an unquoted hint value's expression with the variables
// replaced, standing where the value stood.
func fillValue(script *Script, at ast.Span, r VarRef, values map[string]string) (ast.Expr, error) {
	e, errs := ParseExpr(SubstituteVars(script.Src[at.Pos.Offset:at.End.Offset], values))
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s: the value of variable ${%s} is no option value: it does not parse", at.Pos, r.Name)
	}
	ast.Place(e, at)
	return e, nil
}
