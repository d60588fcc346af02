package sqlview

import "github.com/palink/palink/flinksql"

// CountSeverity counts the diagnostics of a severity.
func CountSeverity(ds []flinksql.Diagnostic, s flinksql.Severity) int {
	n := 0
	for _, d := range ds {
		if d.Severity == s {
			n++
		}
	}
	return n
}
