package cli

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// TestCLIAlerts: `palink alerts` lists what the store holds, firing first,
// as a table or JSON, and --check exits 3 while one fires.
func TestCLIAlerts(t *testing.T) {
	e := newCLIEnv(t, sim.Options{}, nil)
	cfg, _, err := config.Load(e.config)
	if err != nil {
		t.Fatal(err)
	}
	if out := e.mustRun("alerts", "--check"); !strings.Contains(out, "no alerts") {
		t.Fatalf("empty store: %q", out)
	}
	st, err := store.Open(cfg.Store, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	err = st.Update(context.Background(), func(tx store.Tx) error {
		if err := tx.PutAlert(model.Alert{Rule: "restarts", Kind: "restarts", Severity: "warning", JobID: "j1", JobName: "clicks",
			State: model.AlertResolved, Since: now.Add(-time.Hour), ResolvedAt: now.Add(-30 * time.Minute), Value: "4 restarts in 10m (limit 3)"}); err != nil {
			return err
		}
		return tx.PutAlert(model.Alert{Rule: "job-failed", Kind: "job_failed", Severity: "critical", JobID: "j2", JobName: "orders",
			State: model.AlertFiring, Since: now.Add(-time.Minute), Value: "FAILED: boom"})
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	out := e.mustRun("alerts")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "FIRING") || !strings.Contains(lines[1], "FAILED: boom") || !strings.HasPrefix(lines[2], "RESOLVED") {
		t.Fatalf("table:\n%s", out)
	}
	var as []model.Alert
	if err := decodeWire([]byte(e.mustRun("alerts", "--firing", "-o", "json")), &as); err != nil || len(as) != 1 || as[0].JobName != "orders" {
		t.Fatalf("json: %+v %v", as, err)
	}
	_, err = e.run(context.Background(), "alerts", "--check")
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 3 {
		t.Fatalf("--check while an alert fires: %v", err)
	}
}
