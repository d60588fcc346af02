package model

import (
	"fmt"
	"strings"
	"time"
)

// The enums encode as their names, so that stored records and `-o json`
// output stay readable and survive reordering of the constants.

// MarshalText implements encoding.TextMarshaler.
func (k JobKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *JobKind) UnmarshalText(b []byte) (err error) { *k, err = ParseJobKind(string(b)); return }

// MarshalText implements encoding.TextMarshaler.
func (s JobState) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *JobState) UnmarshalText(b []byte) (err error) { *s, err = ParseJobState(string(b)); return }

// MarshalText implements encoding.TextMarshaler.
func (k RestorePointKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *RestorePointKind) UnmarshalText(b []byte) (err error) {
	*k, err = ParseRestorePointKind(string(b))
	return
}

// MarshalText implements encoding.TextMarshaler.
func (s SavepointStatus) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *SavepointStatus) UnmarshalText(b []byte) (err error) {
	*s, err = ParseSavepointStatus(string(b))
	return
}

// MarshalText implements encoding.TextMarshaler.
func (m ClaimMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (m *ClaimMode) UnmarshalText(b []byte) (err error) {
	*m, err = ParseClaimMode(string(b))
	return
}

// MarshalText implements encoding.TextMarshaler.
func (k CommandKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *CommandKind) UnmarshalText(b []byte) (err error) {
	*k, err = ParseCommandKind(string(b))
	return
}

// MarshalText implements encoding.TextMarshaler.
func (s CommandState) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *CommandState) UnmarshalText(b []byte) (err error) {
	*s, err = ParseCommandState(string(b))
	return
}

// MarshalText implements encoding.TextMarshaler.
func (r RestoreChoice) MarshalText() ([]byte, error) {
	if r == 0 {
		return []byte{}, nil
	}
	return []byte(r.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *RestoreChoice) UnmarshalText(b []byte) (err error) {
	if len(b) == 0 {
		*r = 0
		return nil
	}
	*r, err = ParseRestoreChoice(string(b))
	return
}

// MarshalText implements encoding.TextMarshaler; not known is "".
func (r CheckpointRetention) MarshalText() ([]byte, error) {
	if r == RetentionUnknown {
		return []byte{}, nil
	}
	return []byte(r.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *CheckpointRetention) UnmarshalText(b []byte) (err error) {
	if len(b) == 0 {
		*r = RetentionUnknown
		return nil
	}
	*r, err = ParseCheckpointRetention(string(b))
	return
}

// MarshalText implements encoding.TextMarshaler; not known is "".
func (e RunEnd) MarshalText() ([]byte, error) {
	if e == EndUnknown {
		return []byte{}, nil
	}
	return []byte(e.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (e *RunEnd) UnmarshalText(b []byte) (err error) {
	if len(b) == 0 {
		*e = EndUnknown
		return nil
	}
	*e, err = ParseRunEnd(string(b))
	return
}

// FirstLine is s up to its first line break: the headline of a diagnostics
// text or a stack trace.
func FirstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// Age renders a duration the way the screens show ages: 12s, 4m, 3h, 2d.
func Age(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}
