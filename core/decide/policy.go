package decide

import (
	"fmt"
	"math"
	"time"

	"github.com/palink/palink/model"
)

// RestartPolicy is the platform's policy for FAILED jobs, applied after
// Flink's own restart strategy gave up: at most MaxAttempts restarts within
// Window, each after an exponential backoff, from the latest checkpoint;
// then it stops and says so.
type RestartPolicy struct {
	Enabled     bool
	MaxAttempts int
	Window      time.Duration
	Backoff     time.Duration
	MaxBackoff  time.Duration
	Multiplier  float64
}

// RestartDecision is what the policy decided for a failed job.
type RestartDecision struct {
	Restart bool      // schedule a restart
	At      time.Time // not before this time
	Attempt int       // the attempt number within the window, 1-based
	// WindowStart is the window the attempt counts in (a new window starts
	// when the last one is over).
	WindowStart time.Time
	Reason      string // for the job's timeline
}

// Decide says whether and when a job that just FAILED is restarted.
// It reads the job's PlatformRestarts and RestartWindow; the caller stores
// Attempt and WindowStart back when it schedules the restart.
func (p RestartPolicy) Decide(j model.Job, now time.Time) RestartDecision {
	if !p.Enabled || p.MaxAttempts <= 0 {
		return RestartDecision{Reason: "restart policy is off: a human must restart it"}
	}
	count, start := j.PlatformRestarts, j.RestartWindow
	if start.IsZero() || now.Sub(start) >= p.Window {
		count, start = 0, now
	}
	if count >= p.MaxAttempts {
		return RestartDecision{WindowStart: start, Attempt: count, Reason: fmt.Sprintf(
			"restart policy gave up: %d restarts within %s; a human must look at it", count, p.Window)}
	}
	delay := time.Duration(float64(p.Backoff) * math.Pow(p.Multiplier, float64(count)))
	if p.MaxBackoff > 0 && delay > p.MaxBackoff {
		delay = p.MaxBackoff
	}
	return RestartDecision{
		Restart: true, At: now.Add(delay), Attempt: count + 1, WindowStart: start,
		Reason: fmt.Sprintf("restart policy: attempt %d of %d in %s, from the latest checkpoint, in %s",
			count+1, p.MaxAttempts, p.Window, delay.Round(time.Second)),
	}
}
