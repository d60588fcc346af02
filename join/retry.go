package join

import (
	"math"
	"time"
)

// Retry is Flink's AsyncRetryStrategy: when an attempt's outcome asks for it,
// the input is looked up again after a delay, all within Options.Timeout.
// When the attempts run out, the last result is emitted (an empty one emits
// nothing) or the last error fails the run.
type Retry struct {
	MaxAttempts int                             // attempts in all, at least 1 (Flink's 'max-attempts' N is MaxAttempts N+1)
	Backoff     func(attempt int) time.Duration // delay after failed attempt n (1-based)
	IfEmpty     bool                            // also retry when the result is empty
	IfError     func(error) bool                // retry an error when this says so; nil: every error
}

// FixedDelay waits d after every failed attempt (Flink's FixedDelayRetryStrategy).
func FixedDelay(d time.Duration) func(int) time.Duration {
	return func(int) time.Duration { return d }
}

// ExponentialDelay waits initial after the first failed attempt, then
// initial*multiplier, initial*multiplier², … capped at max (Flink's
// ExponentialBackoffDelayRetryStrategy).
func ExponentialDelay(initial, max time.Duration, multiplier float64) func(int) time.Duration {
	return func(attempt int) time.Duration {
		if attempt <= 1 {
			return min(initial, max)
		}
		d := float64(initial) * math.Pow(multiplier, float64(attempt-1))
		if d >= float64(max) || math.IsNaN(d) {
			return max
		}
		return time.Duration(d)
	}
}
