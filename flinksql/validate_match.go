package flinksql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// Quantifier is a pattern variable's quantifier read: Min to Max rows (Max
// -1: unbounded), greedy or reluctant.
type Quantifier struct {
	Min, Max int
	Greedy   bool
}

// ParseQuantifier reads *, +, ?, {n}, {n,}, {,m} and {n,m}, each maybe
// followed by ? (reluctant); "" is exactly one row.
func ParseQuantifier(q string) (Quantifier, error) {
	out := Quantifier{Min: 1, Max: 1, Greedy: true}
	if q == "" {
		return out, nil
	}
	base := q
	if len(q) > 1 && strings.HasSuffix(q, "?") {
		base, out.Greedy = q[:len(q)-1], false
	}
	switch base {
	case "*":
		out.Min, out.Max = 0, -1
	case "+":
		out.Min, out.Max = 1, -1
	case "?":
		out.Min, out.Max = 0, 1
	default:
		inner := strings.TrimSuffix(strings.TrimPrefix(base, "{"), "}")
		lo, hi, comma := strings.Cut(inner, ",")
		var bad bool
		num := func(s string, def int) int {
			s = strings.TrimSpace(s)
			if s == "" {
				return def
			}
			n, err := strconv.Atoi(s)
			bad = bad || err != nil || n < 0
			return n
		}
		out.Min = num(lo, 0)
		out.Max = out.Min
		if comma {
			out.Max = num(hi, -1)
		}
		if bad || out.Max >= 0 && out.Max < out.Min || out.Max == 0 {
			return out, fmt.Errorf("the quantifier %s is not valid", q)
		}
	}
	return out, nil
}

// optional is ? (greedy or not): CEP's optional, never marked greedy.
func (q Quantifier) optional() bool { return q.Min == 0 && q.Max == 1 }

// GreedyLoop says whether Flink's CEP marks the quantifier greedy: a loop
// of more than one possible length taken greedily.
func (q Quantifier) GreedyLoop() bool { return q.Greedy && q.Min != q.Max && !q.optional() }

// MatchPatternProblem is what Flink's planner refuses in a MATCH_RECOGNIZE
// pattern and output mode, in its words, and where; ok when nothing. Flink
// runs MATCH_RECOGNIZE on its CEP library, which takes a sequence of
// quantified variables only.
func MatchPatternProblem(m *ast.MatchRecognize) (at ast.Node, msg string, ok bool) {
	if strings.HasPrefix(m.RowsPerMatch, "ALL ROWS") {
		return m, "All rows per match mode is not supported yet.", false
	}
	seen := map[string]bool{}
	var vars []*ast.PatternVar
	var walk func(t ast.PatternTerm) (ast.Node, string)
	walk = func(t ast.PatternTerm) (ast.Node, string) {
		switch x := t.(type) {
		case *ast.PatternSeq:
			for _, it := range x.Items {
				if n, msg := walk(it); n != nil {
					return n, msg
				}
			}
		case *ast.PatternVar:
			key := strings.ToLower(x.Name.Name)
			if seen[key] {
				return x, "Pattern variables must be unique. That might change in the future."
			}
			seen[key] = true
			q, err := ParseQuantifier(x.Quant)
			if err != nil {
				return x, err.Error()
			}
			if !q.Greedy && q.optional() {
				return x, "Reluctant optional variables are not supported yet."
			}
			vars = append(vars, x)
		case *ast.PatternGroup:
			if x.Quant == "" {
				return walk(x.Inner)
			}
			return x, fmt.Sprintf("Expression not supported: %s Group patterns are not supported yet.", PatternText(x.Inner))
		case *ast.PatternAlt:
			return x, fmt.Sprintf("Expression not supported: %s. Currently, CEP doesn't support branching patterns.", PatternText(x))
		case *ast.PatternPermute:
			return x, fmt.Sprintf("Expression not supported: %s. Currently, CEP doesn't support PERMUTE patterns.", PatternText(x))
		case *ast.PatternExclude:
			return x, fmt.Sprintf("Expression not supported: %s. Currently, CEP doesn't support '{-' '-}' patterns.", PatternText(x))
		}
		return nil, ""
	}
	if n, msg := walk(m.Pattern); n != nil {
		return n, msg, false
	}
	if len(vars) == 0 {
		return nil, "", true
	}
	empty := true
	for _, v := range vars {
		q, _ := ParseQuantifier(v.Quant)
		empty = empty && q.Min == 0
	}
	if empty {
		return m.Pattern, "Patterns that can produce empty matches are not supported. There must be at least one non-optional state.", false
	}
	last := vars[len(vars)-1]
	if q, _ := ParseQuantifier(last.Quant); q.GreedyLoop() {
		return last, "Greedy quantifiers are not allowed as the last element of a Pattern yet. Finish your pattern with either a simple variable or reluctant quantifier.", false
	}
	return nil, "", true
}

// PatternText is a pattern as written, for messages.
func PatternText(p ast.PatternTerm) string {
	join := func(items []ast.PatternTerm, sep string) string {
		parts := make([]string, len(items))
		for i, it := range items {
			parts[i] = PatternText(it)
		}
		return strings.Join(parts, sep)
	}
	switch x := p.(type) {
	case *ast.PatternVar:
		return x.Name.Name + x.Quant
	case *ast.PatternSeq:
		return join(x.Items, " ")
	case *ast.PatternAlt:
		return join(x.Alts, " | ")
	case *ast.PatternGroup:
		return "(" + PatternText(x.Inner) + ")" + x.Quant
	case *ast.PatternPermute:
		return "PERMUTE(" + join(x.Items, ", ") + ")"
	case *ast.PatternExclude:
		return "{- " + PatternText(x.Inner) + " -}"
	}
	return "?"
}
