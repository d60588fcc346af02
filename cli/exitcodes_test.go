package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palink/palink/yarn/sim"
)

// TestExitCodesAreConsistent runs palink as a process and checks the exit
// code each kind of failure gets, as `palink help exit-codes` documents
// them: 2 for a command line palink cannot run (with what was meant), 3
// for something that does not exist, 4 for what palink refuses, 1 for a
// failure.
func TestExitCodesAreConsistent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs palink as a process")
	}
	e := newCLIEnv(t, sim.Options{}, nil)
	bad := filepath.Join(t.TempDir(), "bad.sql")
	if err := os.WriteFile(bad, []byte("SELEC 1"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"jbos"}, 2, "Did you mean this?\n\tjob"},
		{[]string{"jobs", "--stat", "FAILED"}, 2, "unknown flag: --stat\n\nDid you mean this?\n\t--state"},
		{[]string{"logs", "orders", "jm", "--tial", "3"}, 2, "Did you mean this?\n\t--tail"},
		{[]string{"jobs", "-o", "xml"}, 2, `unknown output format "xml"`},
		{[]string{"logs"}, 2, "accepts between 1 and 2 arg(s), received 0"},
		{[]string{"logs", "orders", "jm", "--tail", "1k"}, 2, `invalid argument "1k" for "--tail"`},
		{[]string{"job", "show", "nope"}, 3, "nope"},
		{[]string{"logs", "nope"}, 3, "nope"},
		{[]string{"--read-only", "sync"}, 4, "read-only"},
		{[]string{"sql", "check", bad}, 1, "error: expected a statement"},
	} {
		out, code := runMain(t, "", nil, append([]string{"--config", e.config}, c.args...)...)
		if code != c.code || !strings.Contains(out, c.says) {
			t.Errorf("palink %s: exit %d, want %d saying %q:\n%s", strings.Join(c.args, " "), code, c.code, c.says, out)
		}
	}
	out, code := runMain(t, "", nil, "help", "exit-codes")
	for _, want := range []string{"0  ", "1  ", "2  ", "3  ", "4  ", "5  "} {
		if code != 0 || !strings.Contains(out, "\n  "+want) {
			t.Fatalf("palink help exit-codes: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
}
