package flinksql

import (
	"fmt"
	"sort"
	"strings"
)

// StandIn is a SQL expression that stands in for a user function in a
// local debug run, which cannot load the function's jar or Python file:
// "mask(s)=UPPER(s)" replaces every call mask(x) by UPPER((x)).
type StandIn struct {
	Name   string
	Params []string
	Body   string
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
	if _, errs := ParseExpr(body); len(errs) > 0 {
		return StandIn{}, fmt.Errorf("stand-in %q: the expression does not parse at %s: %s", s, errs[0].Pos, errs[0].Msg)
	}
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

// ApplyStandIns rewrites a script so that every call of a stood-in
// function is its stand-in's expression, the call's arguments in place of
// the parameters (each in parentheses). The rest of the text is kept as
// written, so positions before the first call do not move.
func ApplyStandIns(src string, ins []StandIn) (string, error) {
	if len(ins) == 0 {
		return src, nil
	}
	by := map[string]StandIn{}
	for _, in := range ins {
		by[strings.ToUpper(in.Name)] = in
	}
	for range maxStandInDepth {
		out, n, err := standInPass(src, by)
		if err != nil || n == 0 {
			return out, err
		}
		src = out
	}
	return "", fmt.Errorf("stand-ins still call stood-in functions after %d expansions: does one call itself?", maxStandInDepth)
}

// standInPass replaces the outermost calls of stood-in functions and
// returns how many it replaced.
func standInPass(src string, by map[string]StandIn) (string, int, error) {
	script, _ := ParseScript(src)
	if script == nil {
		return src, 0, nil
	}
	var calls []*FuncCall
	for _, st := range script.Stmts {
		Inspect(st, func(n Node) bool {
			f, ok := n.(*FuncCall)
			if ok && len(f.Name.Parts) == 1 && !f.NoParens {
				if _, hit := by[strings.ToUpper(f.Name.Parts[0].Name)]; hit {
					calls = append(calls, f)
					return false // an argument's call is expanded on the next pass
				}
			}
			return true
		})
	}
	sort.Slice(calls, func(i, j int) bool { return calls[i].Pos.Offset < calls[j].Pos.Offset })
	var b strings.Builder
	at := 0
	for _, f := range calls {
		in := by[strings.ToUpper(f.Name.Parts[0].Name)]
		if len(f.Args) != len(in.Params) {
			return "", 0, fmt.Errorf("%s: %s is called with %d argument(s); its stand-in %s(%s) takes %d",
				f.Pos, f.Name.Parts[0].Name, len(f.Args), in.Name, strings.Join(in.Params, ", "), len(in.Params))
		}
		args := map[string]string{}
		for i, p := range in.Params {
			a := f.Args[i].Range()
			args[strings.ToUpper(p)] = "(" + src[a.Pos.Offset:a.End.Offset] + ")"
		}
		body, err := substituteParams(in.Body, args)
		if err != nil {
			return "", 0, err
		}
		b.WriteString(src[at:f.Pos.Offset])
		b.WriteString("(" + body + ")")
		at = f.End.Offset
	}
	b.WriteString(src[at:])
	return b.String(), len(calls), nil
}

// substituteParams replaces the stand-in's parameters (plain column
// references in its body) by the call's argument texts.
func substituteParams(body string, args map[string]string) (string, error) {
	e, errs := ParseExpr(body)
	if len(errs) > 0 {
		return "", fmt.Errorf("stand-in expression %q: %s", body, errs[0].Msg)
	}
	type hole struct {
		from, to int
		text     string
	}
	var holes []hole
	Inspect(e, func(n Node) bool {
		if c, ok := n.(*ColumnRef); ok && len(c.Parts) == 1 {
			if a, ok := args[strings.ToUpper(c.Parts[0].Name)]; ok {
				holes = append(holes, hole{c.Pos.Offset, c.End.Offset, a})
			}
		}
		return true
	})
	sort.Slice(holes, func(i, j int) bool { return holes[i].from < holes[j].from })
	var b strings.Builder
	at := 0
	for _, h := range holes {
		b.WriteString(body[at:h.from])
		b.WriteString(h.text)
		at = h.to
	}
	b.WriteString(body[at:])
	return b.String(), nil
}
