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
// as a table or JSON, and --check exits 5 while one fires.
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
	if !errors.As(err, &ee) || ee.code != exitFiring {
		t.Fatalf("--check while an alert fires: %v", err)
	}
}

// TestAlertAckAndSilence: an operator acknowledges a firing alert and
// silences it for a while; both are kept in the store, shown in the list
// and the JSON, and the silence lifts again.
func TestAlertAckAndSilence(t *testing.T) {
	e := newCLIEnv(t, sim.Options{}, nil)
	jobID := e.createJob("orders")
	cfg, _, err := config.Load(e.config)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(cfg.Store, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	err = st.Update(context.Background(), func(tx store.Tx) error {
		return tx.PutAlert(model.Alert{Rule: "job-failed", Kind: "job_failed", Severity: "critical", JobID: jobID, JobName: "orders",
			State: model.AlertFiring, Since: time.Now().Add(-time.Minute), Value: "FAILED: boom"})
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if out := e.mustRun("alerts", "ack", "job-failed", "orders"); !strings.Contains(out, "acked by") {
		t.Errorf("ack: %s", out)
	}
	if out := e.mustRun("alerts", "silence", "job-failed", "orders", "--for", "2h"); !strings.Contains(out, "silenced until") {
		t.Errorf("silence: %s", out)
	}
	if _, err := e.run(context.Background(), "alerts", "silence", "job-failed", "orders"); err == nil || !strings.Contains(err.Error(), "--for") {
		t.Errorf("silence without --for: %v", err)
	}
	if out := e.mustRun("alerts"); !strings.Contains(out, "acked by") || !strings.Contains(out, "silenced until") {
		t.Errorf("list:\n%s", out)
	}
	var as []model.Alert
	if err := decodeWire([]byte(e.mustRun("alerts", "-o", "json")), &as); err != nil || len(as) != 1 ||
		as[0].AckedBy == "" || as[0].AckedAt.IsZero() || time.Until(as[0].SilencedUntil) < 119*time.Minute {
		t.Fatalf("json: %+v %v", as, err)
	}
	e.mustRun("alerts", "unsilence", "job-failed", "orders")
	if err := decodeWire([]byte(e.mustRun("alerts", "-o", "json")), &as); err != nil || !as[0].SilencedUntil.IsZero() || as[0].AckedBy == "" {
		t.Errorf("after unsilence: %+v %v", as, err)
	}
	if _, err := e.run(context.Background(), "alerts", "ack", "restarts", "orders"); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("ack of an alert that does not exist: %v", err)
	}
}
