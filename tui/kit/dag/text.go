package dag

import (
	"strings"

	"github.com/palink/palink/tui/kit"
)

// shorten fits an operator name into w cells, losing the least first:
// Flink's names carry argument lists ("LookupJoin(table=[…], joinType=[…])")
// and chains ("Source: orders -> Calc -> Sink: out"), so the arguments go
// first, then the middle of the chain, and only then the end of the name.
func shorten(title string, w int) string {
	title = strings.Join(strings.Fields(title), " ")
	if kit.Width(title) <= w {
		return title
	}
	s := stripArgs(title)
	if kit.Width(s) <= w {
		return s
	}
	if parts := strings.Split(s, " -> "); len(parts) > 2 {
		for _, c := range []string{parts[0] + " → … → " + parts[len(parts)-1], parts[0] + "…" + parts[len(parts)-1]} {
			if kit.Width(c) <= w {
				return c
			}
		}
	}
	return kit.Truncate(s, w)
}

// stripArgs drops every parenthesised part of s, nested or not.
func stripArgs(s string) string {
	if !strings.Contains(s, "(") {
		return s
	}
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}
