package clusters

import (
	"slices"
	"sync"
	"time"

	"github.com/palink/palink/yarn"
)

// Reads are JobManager answers one part of palink read lately, kept for
// the others while they are fresh: state sync, the metrics rounds and the
// alert rules ask the same JobManagers for the same checkpoint
// statistics, and at fleet size each request is a share of a core. One
// fetch serves all three: the metrics rounds read a watched job's
// checkpoints every round, and state sync takes its latest checkpoint
// from them instead of asking again. A cluster and its team views share
// one. Safe for concurrent use.
type Reads struct {
	mu   sync.Mutex
	cps  map[string]checkpointsRead // by Flink job id
	puts int
}

type checkpointsRead struct {
	cps yarn.CheckpointStats
	at  time.Time
	by  string // the part that read it
}

// readsKept is how long a read is kept: longer than anyone takes one as
// fresh.
const readsKept = 10 * time.Minute

// PutCheckpoints keeps the checkpoint statistics of a Flink job that the
// part by (state sync, the metrics rounds) read at at.
func (r *Reads) PutCheckpoints(flinkJobID string, cps yarn.CheckpointStats, at time.Time, by string) {
	if r == nil || flinkJobID == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cps == nil {
		r.cps = map[string]checkpointsRead{}
	}
	if old, ok := r.cps[flinkJobID]; ok && old.at.After(at) {
		return
	}
	// Kept for 10,000 jobs, a read keeps what its readers use: the counts,
	// the latest checkpoints, and of the history (newest first) the run of
	// failures up to the newest completed one, which says how many failed
	// in a row.
	cps.Summary = yarn.CheckpointSummary{}
	cps.History = slices.Clone(cps.History[:historyKept(cps.History)])
	r.cps[flinkJobID] = checkpointsRead{cps: cps, at: at, by: by}
	// Forget reads nobody renewed (jobs ended or moved), now and then.
	if r.puts++; r.puts%1024 == 0 {
		for id, c := range r.cps {
			if at.Sub(c.at) > readsKept {
				delete(r.cps, id)
			}
		}
	}
}

// Checkpoints are the checkpoint statistics of a Flink job another part
// than by read at or after since, and when they were read. A part's own
// reads are not offered back to it: it reads on its own cadence.
func (r *Reads) Checkpoints(flinkJobID string, since time.Time, by string) (yarn.CheckpointStats, time.Time, bool) {
	if r == nil {
		return yarn.CheckpointStats{}, time.Time{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.cps[flinkJobID]
	if !ok || c.at.Before(since) || c.by == by {
		return yarn.CheckpointStats{}, time.Time{}, false
	}
	return c.cps, c.at, true
}

// historyKept is how many of the newest history entries run up to and
// including the newest completed one.
func historyKept(h []yarn.Checkpoint) int {
	for i, c := range h {
		if c.Status == "COMPLETED" {
			return i + 1
		}
	}
	return len(h)
}
