package api

import "time"

// SyncStats describe one sync cycle.
type SyncStats struct {
	Jobs    int // jobs synced
	Changed int // jobs whose record changed
	// Transactions is how many write transactions the cycle took: none
	// when no job changed, one per batch of changed jobs otherwise.
	Transactions int
	RMCalls      int64
	FlinkCalls   int64
	Errors       int
	// Problems say what the first errors were ("cluster prod: …",
	// "job orders: …"), a few at most.
	Problems []string `json:",omitempty"`
	Duration time.Duration
}
