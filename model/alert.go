package model

import "time"

// AlertState says whether an alert's condition holds.
type AlertState int

// Alert states. An alert fires when its rule's condition has held long
// enough, and resolves when it stops holding; a resolved alert that fires
// again is a new alert (a new Since).
const (
	AlertFiring AlertState = iota + 1
	AlertResolved
)

var alertStateNames = map[AlertState]string{AlertFiring: "FIRING", AlertResolved: "RESOLVED"}

func (s AlertState) String() string { return enumString(alertStateNames, s) }

// ParseAlertState is the inverse of String.
func ParseAlertState(s string) (AlertState, error) {
	return parseEnum(alertStateNames, "alert state", s)
}

// MarshalText implements encoding.TextMarshaler.
func (s AlertState) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *AlertState) UnmarshalText(b []byte) (err error) {
	*s, err = ParseAlertState(string(b))
	return
}

// Alert is one alert rule's verdict about one job: there is at most one
// record per (rule, job), the latest firing or its resolution. Webhook
// deliveries are recorded on it, so that a restarted palink neither
// notifies twice nor forgets a resolve it owes.
type Alert struct {
	Rule     string // the rule's name in the config
	Kind     string // the rule's kind: job_failed, restarts, …
	Severity string
	JobID    string
	JobName  string
	Cluster  string
	State    AlertState
	// Since is when the alert started firing; ResolvedAt when it stopped.
	Since      time.Time
	ResolvedAt time.Time
	// Value is the observation that fired it, for people:
	// "backpressure 87% at Sink: enriched".
	Value string
	// Message is the whole story in one line, as the webhooks send it.
	Message string
	// Notified and ResolveNotified name the webhooks that took the firing
	// and the resolve message.
	Notified        []string
	ResolveNotified []string
	// AckedBy and AckedAt say who took the current firing in hand; a new
	// firing is not acknowledged.
	AckedBy string
	AckedAt time.Time
	// SilencedUntil holds the alert's webhook messages back until then,
	// across firings of the same rule and job; SilencedBy set it.
	SilencedUntil time.Time
	SilencedBy    string
	UpdatedAt     time.Time
}

// Silenced reports whether the alert's messages are held back at now.
func (a Alert) Silenced(now time.Time) bool { return now.Before(a.SilencedUntil) }

// Key identifies an alert: its rule and its job.
func (a Alert) Key() string { return AlertKey(a.Rule, a.JobID) }

// AlertKey is the key of the alert of rule about job.
func AlertKey(rule, jobID string) string { return rule + "/" + jobID }
