package sim

import (
	"testing"
	"time"
)

// TestFailJobAt: a job is failed at the checkpoint its caller names only
// while that is still its newest; once a newer one completed, nothing
// happens and the caller is told.
func TestFailJobAt(t *testing.T) {
	clock := NewManualClock(time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC))
	c := startCluster(t, Options{Seed: 3, Clock: clock})
	out, err := c.Submit(t.Context(), SubmitRequest{Name: "flaps", Config: map[string]string{
		"execution.checkpointing.interval":                          "2s",
		"execution.checkpointing.externalized-checkpoint-retention": "RETAIN_ON_CANCELLATION",
		"restart-strategy.fixed-delay.attempts":                     "1"}})
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(20 * time.Second)
	latest := func() (string, string) {
		for _, a := range c.Apps() {
			if a.ID == out.AppID && len(a.Jobs) > 0 {
				return a.Jobs[0].LatestCheckpoint, a.Jobs[0].State
			}
		}
		t.Fatalf("no job in %s", out.AppID)
		return "", ""
	}
	seen, state := latest()
	if seen == "" || state != "RUNNING" {
		t.Fatalf("after 20s: latest checkpoint %q, state %s", seen, state)
	}
	clock.Advance(5 * time.Second) // newer checkpoints complete
	if failed, err := c.FailJobAs(out.AppID, Failure{OnlyAt: true, At: seen}); failed || err != nil {
		t.Errorf("failed at a subsumed checkpoint: %t, %v", failed, err)
	}
	if _, state := latest(); state != "RUNNING" {
		t.Errorf("the job is %s after a refused FailJobAt", state)
	}
	now, _ := latest()
	if failed, err := c.FailJobAs(out.AppID, Failure{OnlyAt: true, At: now}); !failed || err != nil {
		t.Fatalf("FailJobAt at the newest checkpoint: %t, %v", failed, err)
	}
	clock.Advance(time.Minute)
	if after, state := latest(); state == "RUNNING" || after != now {
		t.Errorf("after the failure: %s, newest checkpoint %q, want it failed at %q", state, after, now)
	}
}
