package flinksql

import (
	"strings"
	"testing"
	"time"
)

// TestPathologicalInputsStayFast guards against the super-linear cases the
// fuzzer found: thousands of lexer errors, long operator chains, many
// joins, and nested subqueries (which once formatted in exponential time).
func TestPathologicalInputsStayFast(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	inputs := map[string]string{
		"lexer errors":       "\x00 COUNT(" + strings.Repeat("\xb6", 20000),
		"long name":          "SELECT " + strings.Repeat("a.", 5000) + "b",
		"many statements":    strings.Repeat("SELECT 1;", 5000),
		"operator chain":     "SELECT " + strings.Repeat("1 + ", 5000) + "1",
		"nested CASE":        "SELECT " + strings.Repeat("CASE WHEN a THEN ", 200) + "1" + strings.Repeat(" END", 200),
		"open parentheses":   strings.Repeat("(", 20000),
		"many joins":         "SELECT * FROM t " + strings.Repeat("JOIN t ON TRUE ", 1000),
		"nested subqueries":  "SELECT a FROM t WHERE " + strings.Repeat("a IN (SELECT a FROM t WHERE a > 0 AND ", 100) + "1" + strings.Repeat(")", 100),
		"nested derived":     "SELECT * FROM " + strings.Repeat("(SELECT * FROM ", 100) + "t" + strings.Repeat(")", 100),
		"many window checks": strings.Repeat("SELECT SUM(v) FROM s GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);", 500),
	}
	for name, src := range inputs {
		start := time.Now()
		s, errs := ParseScript(src)
		for _, e := range errs {
			_ = e.Snippet()
		}
		Validate(s, Options{})
		if len(errs) == 0 {
			Format(s)
		}
		if len(errs) > maxErrors+1 {
			t.Errorf("%s: %d errors, want at most %d", name, len(errs), maxErrors+1)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s (%d bytes) took %v", name, len(src), d)
		}
	}
}
