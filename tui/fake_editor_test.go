package tui

import (
	"context"
	"fmt"
	"strings"
)

// Explain is the fake's SQL Gateway: a plan naming the script's first
// INSERT target, or the error a gateway gives for a script without one.
func (f *fakeService) Explain(ctx context.Context, cluster, sql string) (string, error) {
	f.record("Explain %s", cluster)
	if err := f.wait(ctx); err != nil {
		return "", err
	}
	_, rest, ok := strings.Cut(strings.ToUpper(sql), "INSERT INTO ")
	if !ok {
		return "", fmt.Errorf("explain on %s: the script has no INSERT", cluster)
	}
	sink, _, _ := strings.Cut(rest, " ")
	return "== Optimized Execution Plan ==\nSink(table=[" + strings.ToLower(sink) + "])", nil
}
