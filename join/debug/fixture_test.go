package debug

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/palink/palink/join"
	"github.com/palink/palink/join/internal/dbtest"
)

// The fixtures of the integration tests are dbtest's, shared with join.
var (
	date, ts  = dbtest.Date, dbtest.TS
	rowsEqual = dbtest.RowsEqual[join.Row]
	sortRows  = dbtest.SortRows[join.Row]
)

// wait bounds every blocking step of a test, so that a bug fails the test
// instead of hanging it.
const wait = 5 * time.Second

var fixedNow = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// runSQL parses a job and runs it, as `palink debug` does a job without
// tables from a catalog, variables or stand-ins.
func runSQL(ctx context.Context, src string, opts Options) (*Result, error) {
	script, err := Parse(src)
	if err != nil {
		return nil, err
	}
	return Run(ctx, script, opts)
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
