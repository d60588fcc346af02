package api

import "time"

// SyncStats describe one sync cycle.
type SyncStats struct {
	Jobs       int // jobs synced
	Changed    int // jobs whose record changed
	RMCalls    int64
	FlinkCalls int64
	Errors     int
	// Problems say what the first errors were ("cluster prod: …",
	// "job orders: …"), a few at most.
	Problems []string `json:",omitempty"`
	Duration time.Duration
}
