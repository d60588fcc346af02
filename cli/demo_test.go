package cli

import (
	"strings"
	"testing"
)

// `palink debug --demo` runs a demo job by its name on the demo's data,
// with no file to write and no config: the lookup join finds the users.
func TestDebugDemoJobGivesRows(t *testing.T) {
	out, _, err := runCLI(t, "debug", "--demo", "user-features-2", "--limit", "5")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "enriched: rows as they come\n") || !strings.Contains(out, "\nenriched: 5 rows\n") || !strings.Contains(out, "Ada A.") || !strings.Contains(out, "lookup users:") {
		t.Errorf("debug --demo user-features-2:\n%s\nwant 5 enriched rows, Ada A. among them, and the lookups' figures", out)
	}
	_, _, err = runCLI(t, "debug", "--demo", "orders")
	if err == nil || !strings.Contains(err.Error(), `no demo job "orders": want one of orders-enrich,`) {
		t.Errorf("debug --demo orders: %v, want the demo jobs named", err)
	}
}

// `palink debug --demo fraud-scoring` stands in for the UDF it calls, and
// user-features gets the demo's catalog tables, as their deploys do.
func TestDebugDemoJobsUseTheDemosAssets(t *testing.T) {
	out, errOut, err := runCLI(t, "debug", "--demo", "fraud-scoring", "--limit", "3")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "\npayment_risk: 3 rows\n") || !strings.Contains(errOut, "stand-in for this run: risk_score(id, amount)=amount / 400") {
		t.Errorf("debug --demo fraud-scoring:\n%s%s\nwant 3 scored payments, risk_score stood in for", out, errOut)
	}
	_, errOut, err = runCLI(t, "debug", "--demo", "user-features", "--limit", "3")
	if err != nil || !strings.Contains(errOut, "from the table catalog of cluster sim: orders@v1, users@v2") {
		t.Errorf("debug --demo user-features: %v\n%s\nwant the catalog's orders and users injected", err, errOut)
	}
}
