package diagnose

import (
	"sync"
	"time"

	"github.com/palink/palink/core/api"
)

// Bounds of the rates measured between two reads of a vertex.
const (
	// minRateWindow is the shortest span two samples of a vertex's totals
	// are taken apart: a quicker read keeps the older sample.
	minRateWindow = time.Second
	// maxRateWindow is the oldest sample worth a rate: older, the rate
	// would say what the vertex did long ago.
	maxRateWindow = 5 * time.Minute
	// maxSamples bounds the vertices whose last sample is kept.
	maxSamples = 512
)

// rateSamples keeps the last totals read of each vertex, so that the next
// read turns the difference into rates over the time between the two: what
// each subtask does now, where Flink's own per-second meters average a
// minute and the totals count since the subtask started.
type rateSamples struct {
	mu sync.Mutex
	m  map[string]vertexSample
}

// vertexSample is one read of a vertex's subtasks' totals.
type vertexSample struct {
	at   time.Time // the JobManager's clock
	subs map[int]subtaskSample
}

type subtaskSample struct {
	attempt int
	in, out int64
}

// measure sets rows' rates from the difference with the vertex's previous
// sample, when there is one of the same attempts between minRateWindow and
// maxRateWindow old, and returns the window; 0 leaves rows as they were
// (Flink's per-second meters). It keeps rows as the vertex's sample.
func (s *rateSamples) measure(key string, rows []api.SubtaskRow, at time.Time) time.Duration {
	cur := vertexSample{at: at, subs: make(map[int]subtaskSample, len(rows))}
	for _, r := range rows {
		cur.subs[r.Index] = subtaskSample{attempt: r.Attempt, in: r.RecordsIn, out: r.RecordsOut}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]vertexSample{}
	}
	prev, ok := s.m[key]
	window := at.Sub(prev.at)
	if ok && window < minRateWindow && window >= 0 {
		return 0 // too close to the last sample: keep it for the next read
	}
	s.keep(key, cur)
	if !ok || window < minRateWindow || window > maxRateWindow {
		return 0
	}
	for _, r := range rows {
		p, ok := prev.subs[r.Index]
		if !ok || p.attempt != r.Attempt || r.RecordsIn < p.in || r.RecordsOut < p.out {
			return 0 // a subtask restarted or is new: its totals started over
		}
	}
	secs := window.Seconds()
	for i, r := range rows {
		p := prev.subs[r.Index]
		rows[i].RecordsInPerSec = float64(r.RecordsIn-p.in) / secs
		rows[i].RecordsOutPerSec = float64(r.RecordsOut-p.out) / secs
	}
	return window
}

// keep stores a sample, dropping the oldest when there are too many.
func (s *rateSamples) keep(key string, v vertexSample) {
	if _, ok := s.m[key]; !ok && len(s.m) >= maxSamples {
		oldest := ""
		for k, o := range s.m {
			if oldest == "" || o.at.Before(s.m[oldest].at) {
				oldest = k
			}
		}
		delete(s.m, oldest)
	}
	s.m[key] = v
}
