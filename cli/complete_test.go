package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/yarn/sim"
)

// TestShellCompletion: the shell completes job names (with their state),
// clusters and a job's log names, as `palink completion` scripts ask.
func TestShellCompletion(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	e := newCLIEnv(t, sim.Options{}, nil)
	e.createJob("orders-enrich")
	e.createJob("payments")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	complete := func(args ...string) string {
		out, _ := e.runBoth(ctx, append([]string{"__complete"}, args...)...)
		return out
	}
	if out := complete("job", "show", "or"); !strings.Contains(out, "orders-enrich\tCREATED on sim") || strings.Contains(out, "payments") {
		t.Errorf("job show or<TAB>:\n%s", out)
	}
	if out := complete("job", "kill", "orders-enrich", ""); !strings.Contains(out, "payments") {
		t.Errorf("job kill takes several jobs:\n%s", out)
	}
	if out := complete("job", "show", "orders-enrich", ""); strings.Contains(out, "payments") {
		t.Errorf("job show takes one job:\n%s", out)
	}
	if out := complete("jobs", "--cluster", ""); !strings.Contains(out, "sim") {
		t.Errorf("--cluster <TAB>:\n%s", out)
	}
	e.mustRun("job", "submit", "payments", "--wait")
	if out := complete("logs", "payments", ""); !strings.Contains(out, "jm") {
		t.Errorf("logs payments <TAB>:\n%s", out)
	}
}
