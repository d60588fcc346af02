package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/yarn/sim"
)

// TestVarSetSecretCmd: a secret read by a command is kept as its command,
// listed masked with the program only, and the flags' misuse is refused.
func TestVarSetSecretCmd(t *testing.T) {
	e := newCLIEnv(t, sim.Options{}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if out := e.mustRun("var", "set", "db_pass", "--secret-cmd", "vault kv get -field=password secret/db", "--cluster", "sim"); !strings.Contains(out, "${db_pass} of cluster sim = •••• (command vault)") {
		t.Errorf("var set --secret-cmd said %q", out)
	}
	if out := e.mustRun("var", "list", "-o", "json"); !strings.Contains(out, `"secret_cmd": "vault kv get -field=password secret/db"`) || !strings.Contains(out, `"value": "••••"`) {
		t.Errorf("var list -o json:\n%s", out)
	}
	for _, args := range [][]string{
		{"var", "set", "x", "--secret-cmd", "true", "--secret-env", "X"},
		{"var", "set", "x", "v", "--secret-cmd", "true"},
		{"var", "set", "x", "--secret-cmd", "  "},
	} {
		if _, err := e.run(ctx, args...); err == nil || !strings.Contains(err.Error(), "var set x:") {
			t.Errorf("%v: %v", args, err)
		}
	}
}
