package decide

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
)

func TestRestartPolicyBacksOffThenGivesUp(t *testing.T) {
	p := RestartPolicy{Enabled: true, MaxAttempts: 3, Window: 30 * time.Minute,
		Backoff: 10 * time.Second, MaxBackoff: 25 * time.Second, Multiplier: 2}
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	j := model.Job{Name: "orders", State: model.StateFailed}
	wantDelays := []time.Duration{10 * time.Second, 20 * time.Second, 25 * time.Second}
	now := t0
	for i, want := range wantDelays {
		d := p.Decide(j, now)
		if !d.Restart || d.Attempt != i+1 || d.At.Sub(now) != want {
			t.Fatalf("attempt %d: %+v, want restart in %s", i+1, d, want)
		}
		if !d.WindowStart.Equal(t0) {
			t.Errorf("attempt %d: window starts %s, want %s", i+1, d.WindowStart, t0)
		}
		j.PlatformRestarts, j.RestartWindow = d.Attempt, d.WindowStart
		now = now.Add(time.Minute)
	}
	d := p.Decide(j, now)
	if d.Restart || !strings.Contains(d.Reason, "gave up: 3 restarts within 30m0s") {
		t.Fatalf("after max attempts: %+v", d)
	}
	// A new window starts once the old one is over.
	later := t0.Add(31 * time.Minute)
	d = p.Decide(j, later)
	if !d.Restart || d.Attempt != 1 || !d.WindowStart.Equal(later) || d.At.Sub(later) != 10*time.Second {
		t.Fatalf("new window: %+v", d)
	}
}

func TestRestartPolicyOff(t *testing.T) {
	for _, p := range []RestartPolicy{{Enabled: false, MaxAttempts: 3}, {Enabled: true, MaxAttempts: 0}} {
		if d := p.Decide(model.Job{}, time.Now()); d.Restart || !strings.Contains(d.Reason, "off") {
			t.Errorf("%+v: %+v", p, d)
		}
	}
}
