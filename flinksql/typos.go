package flinksql

import (
	"sort"
	"strings"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"
)

// warnTypo reports a name one or two edits from a known one, when the name
// itself is not known.
func typoOf(name string, known []string) string {
	limit := 1
	if len(name) >= 8 {
		limit = 2
	}
	best, bestD := "", limit+1
	for _, k := range known {
		if d := editDistance(name, k); d < bestD {
			best, bestD = k, d
		}
	}
	if bestD == 0 {
		return ""
	}
	return best
}

func (v *validator) checkSetKey(s *ast.SetStmt) {
	if s.Key == "" {
		return
	}
	for _, k := range builtin.ConfigKeys {
		if k == s.Key {
			return
		}
	}
	if m := typoOf(s.Key, builtin.ConfigKeys); m != "" {
		v.warnf(CodeUnknownConfig, s, "did you mean '"+m+"'?",
			"unknown configuration key '%s': Flink ignores keys it does not know", s.Key)
	}
}

// checkFunctionName warns about a call of a function that is neither
// built in nor created in the script but one typo from one that is: Flink
// would fail with "No match found for function signature".
func (ec *exprChecker) checkFunctionName(f *ast.FuncCall) {
	if len(f.Name.Parts) != 1 || f.NoParens {
		return
	}
	name := strings.ToUpper(f.Name.Parts[0].Name)
	if b := builtin.FunctionNamed(name); b != nil && !ec.cat.functions[name] {
		// A warning: the catalog's release of a function may be off by one,
		// and a cluster may carry it as a user function under the same name.
		if v := ec.cat.opts.Version; !v.IsZero() && !b.Since.IsZero() && v.Before(b.Since) {
			ec.warnf(CodeNeedsNewerFlink, f.Name, "", "function %s needs Flink %s; %s", b.Name, b.Since, ec.cat.opts.target())
		}
		return
	}
	if ec.cat.opts.Functions != nil && !builtin.BuiltinFunctions[name] && !builtin.ReservedWords[name] {
		ec.checkUserFunction(f, name)
		return
	}
	if len(name) < 5 || builtin.BuiltinFunctions[name] || builtin.ReservedWords[name] || ec.cat.functions[name] {
		return
	}
	known := make([]string, 0, len(builtin.BuiltinFunctions)+len(ec.cat.functions))
	for k := range builtin.BuiltinFunctions {
		known = append(known, k)
	}
	for k := range ec.cat.functions {
		known = append(known, k)
	}
	if m := typoOf(name, known); m != "" {
		ec.warnf(CodeUnknownFunction, f.Name, "did you mean "+m+"?", "unknown function '%s'", f.Name.Parts[0].Name)
	}
}

// suggest returns the candidate closest to s by edit distance, when it is
// close enough to be a likely typo.
func suggest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		d := editDistance(s, c)
		if d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	limit := 2
	if len(s) >= 12 {
		limit = 3
	}
	if bestD == 0 || bestD > limit {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b (in bytes; the
// option names are ASCII).
func editDistance(a, b string) int {
	if a == b {
		return 0
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
