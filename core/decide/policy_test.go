package decide

import (
	"fmt"
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
		if reason := fmt.Sprintf("attempt %d of 3 in 30m0s", i+1); !strings.Contains(d.Reason, reason) {
			t.Errorf("attempt %d: reason %q, want it to say %q", i+1, d.Reason, reason)
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

// TestRestartPolicyWindowBoundary: the window is [start, start+Window). A
// failure exactly Window after the window started opens a new window; one a
// nanosecond earlier still counts in the old one, which is spent.
func TestRestartPolicyWindowBoundary(t *testing.T) {
	p := RestartPolicy{Enabled: true, MaxAttempts: 2, Window: 30 * time.Minute, Backoff: 10 * time.Second, Multiplier: 2}
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	j := model.Job{Name: "orders", State: model.StateFailed, PlatformRestarts: 2, RestartWindow: t0}

	inside := t0.Add(p.Window - time.Nanosecond)
	if d := p.Decide(j, inside); d.Restart || !d.WindowStart.Equal(t0) || d.Attempt != 2 {
		t.Errorf("1ns before the window ends: %+v, want it to give up in the window of %s", d, t0)
	}
	at := t0.Add(p.Window)
	d := p.Decide(j, at)
	if !d.Restart || d.Attempt != 1 || !d.WindowStart.Equal(at) || d.At.Sub(at) != 10*time.Second {
		t.Errorf("exactly when the window ends: %+v, want attempt 1 of a new window starting %s, in 10s", d, at)
	}
}

// TestRestartPolicyBackoffWithoutCap: MaxBackoff 0 means no cap, not a
// cap of zero (which would restart a crash-looping job at once).
func TestRestartPolicyBackoffWithoutCap(t *testing.T) {
	p := RestartPolicy{Enabled: true, MaxAttempts: 5, Window: time.Hour, Backoff: 10 * time.Second, Multiplier: 2}
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	j := model.Job{Name: "orders", State: model.StateFailed}
	for i, want := range []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second} {
		d := p.Decide(j, t0)
		if !d.Restart || d.At.Sub(t0) != want {
			t.Fatalf("attempt %d: %+v, want restart in %s", i+1, d, want)
		}
		j.PlatformRestarts, j.RestartWindow = d.Attempt, d.WindowStart
	}
}
