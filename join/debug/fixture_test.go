package debug

import (
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

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
