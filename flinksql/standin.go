package flinksql

import (
	"fmt"
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// StandIn is a SQL expression that stands in for a user function in a
// local debug run, which cannot load the function's jar or Python file:
// "mask(s)=UPPER(s)" replaces every call mask(x) by UPPER((x)).
type StandIn struct {
	Name   string
	Params []string
	Body   string
	// expr is Body parsed (by ParseStandIn).
	expr ast.Expr
}

// ParseStandIn reads "name(p1, p2)=expression".
func ParseStandIn(s string) (StandIn, error) {
	head, body, ok := strings.Cut(s, "=")
	head, body = strings.TrimSpace(head), strings.TrimSpace(body)
	open := strings.IndexByte(head, '(')
	if !ok || body == "" || open <= 0 || !strings.HasSuffix(head, ")") {
		return StandIn{}, fmt.Errorf("stand-in %q: want NAME(PARAM, …)=EXPRESSION, like 'mask(s)=UPPER(s)'", s)
	}
	in := StandIn{Name: strings.TrimSpace(head[:open]), Body: body}
	for _, p := range splitTopLevel(head[open+1 : len(head)-1]) {
		if !isIdent(p) {
			return StandIn{}, fmt.Errorf("stand-in %q: parameter %q is not a name", s, p)
		}
		in.Params = append(in.Params, p)
	}
	if !isIdent(in.Name) {
		return StandIn{}, fmt.Errorf("stand-in %q: %q is not a function name", s, in.Name)
	}
	e, errs := ParseExpr(body)
	if len(errs) > 0 {
		return StandIn{}, fmt.Errorf("stand-in %q: the expression does not parse at %s: %s", s, errs[0].Pos, errs[0].Msg)
	}
	in.expr = e
	return in, nil
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// maxStandInDepth bounds how deeply stand-ins are expanded: a call nested
// in another's argument is expanded on a later pass, and a stand-in whose
// body calls itself would never end.
const maxStandInDepth = 16

// ApplyStandIns rewrites a parsed script so that every call of a stood-in
// function is its stand-in's expression in parentheses, the call's
// arguments (each in parentheses) in place of the parameters: the tree
// the text "(UPPER((x)))" parses to. The expression's nodes stand where
// the call stood, so an error in them points at the call; the arguments
// keep their own positions.
func ApplyStandIns(script *Script, ins []StandIn) error {
	if len(ins) == 0 || script == nil {
		return nil
	}
	by := map[string]StandIn{}
	for _, in := range ins {
		if in.expr == nil {
			e, errs := ParseExpr(in.Body)
			if len(errs) > 0 {
				return fmt.Errorf("stand-in expression %q: %s", in.Body, errs[0].Msg)
			}
			in.expr = e
		}
		by[strings.ToUpper(in.Name)] = in
	}
	for range maxStandInDepth {
		n, err := standInPass(script, by)
		if err != nil || n == 0 {
			return err
		}
	}
	return fmt.Errorf("stand-ins still call stood-in functions after %d expansions: does one call itself?", maxStandInDepth)
}

// stoodIn is the stand-in of a call, if it has one.
func stoodIn(e ast.Expr, by map[string]StandIn) (*ast.FuncCall, StandIn, bool) {
	f, ok := e.(*ast.FuncCall)
	if !ok || len(f.Name.Parts) != 1 || f.NoParens {
		return nil, StandIn{}, false
	}
	in, hit := by[strings.ToUpper(f.Name.Parts[0].Name)]
	return f, in, hit
}

// standInPass replaces the outermost calls of stood-in functions and
// returns how many it replaced; a call in an argument or in a stand-in's
// expression is replaced on the next pass.
func standInPass(script *Script, by map[string]StandIn) (int, error) {
	var calls []*ast.FuncCall
	for _, st := range script.Stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			e, ok := n.(ast.Expr)
			if !ok {
				return true
			}
			if f, _, hit := stoodIn(e, by); hit {
				calls = append(calls, f)
				return false
			}
			return true
		})
	}
	for _, f := range calls {
		if in := by[strings.ToUpper(f.Name.Parts[0].Name)]; len(f.Args) != len(in.Params) {
			return 0, fmt.Errorf("%s: %s is called with %d argument(s); its stand-in %s(%s) takes %d",
				f.Pos, f.Name.Parts[0].Name, len(f.Args), in.Name, strings.Join(in.Params, ", "), len(in.Params))
		}
	}
	for _, st := range script.Stmts {
		ast.RewriteExprs(st, func(e ast.Expr) (ast.Expr, bool) {
			f, in, hit := stoodIn(e, by)
			if !hit {
				return nil, false
			}
			return standInFor(f, in), true
		})
	}
	return len(calls), nil
}

// standInFor is the stand-in's expression for call f: a copy, placed
// where f stands, its parameters (plain column references) replaced by
// copies of the call's arguments.
func standInFor(f *ast.FuncCall, in StandIn) ast.Expr {
	args := map[string]ast.Expr{}
	for i, p := range in.Params {
		args[strings.ToUpper(p)] = f.Args[i]
	}
	body := ast.Clone(in.expr)
	ast.Place(body, f.Span)
	param := func(e ast.Expr) (ast.Expr, bool) {
		c, ok := e.(*ast.ColumnRef)
		if !ok || len(c.Parts) != 1 {
			return nil, false
		}
		a, ok := args[strings.ToUpper(c.Parts[0].Name)]
		if !ok {
			return nil, false
		}
		return &ast.ParenExpr{Span: a.Range(), X: ast.Clone(a)}, true
	}
	if to, ok := param(body); ok {
		body = to
	} else {
		ast.RewriteExprs(body, param)
	}
	return &ast.ParenExpr{Span: f.Span, X: body}
}
