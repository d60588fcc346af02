package store

import (
	"bytes"
	"maps"
	"slices"
	"sync"

	"github.com/palink/palink/model"
)

// jobCache keeps the jobs a store decoded, by id, with the bytes they were
// decoded from. Every sync cycle, restart-policy backstop and alert round
// reads every job, and decoding one costs ~30 µs: 0.3 s a read at 10,000
// jobs, most of them unchanged since the last. A record whose bytes are
// the cached ones is handed out as a copy of the cached job (bytes.Equal
// of a kilobyte costs ~50 ns); any other is decoded and cached. The cache
// follows the store's bytes, so it is never stale: a job written by this
// process, another agent or a restore is decoded afresh. Safe for
// concurrent transactions.
type jobCache struct {
	mu sync.Mutex
	m  map[string]cachedJob
}

type cachedJob struct {
	raw []byte
	job model.Job
}

// size is how many jobs the cache holds: a hint, as jobs come and go.
func (c *jobCache) size() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// decode returns the job stored under key as the bytes v.
func (c *jobCache) decode(key, v []byte) (model.Job, error) {
	if c == nil {
		return decode[model.Job]("job", key, v)
	}
	c.mu.Lock()
	e, ok := c.m[string(key)]
	c.mu.Unlock()
	if ok && bytes.Equal(e.raw, v) {
		return cloneJob(e.job), nil
	}
	j, err := decode[model.Job]("job", key, v)
	if err != nil {
		return j, err
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]cachedJob{}
	}
	// The bytes of a transaction are valid only while it lasts (bbolt's
	// are the mapped file's): the cache keeps a copy.
	c.m[string(key)] = cachedJob{raw: bytes.Clone(v), job: cloneJob(j)}
	c.mu.Unlock()
	return j, nil
}

// cloneJob copies j down to what its pointers, map and slice hold, so
// that a caller that changes the job it got changes nothing of the cache.
func cloneJob(j model.Job) model.Job {
	j.Config = maps.Clone(j.Config)
	j.Charts = slices.Clone(j.Charts)
	if j.Drift != nil {
		d := *j.Drift
		j.Drift = &d
	}
	if j.LatestCheckpoint != nil {
		p := *j.LatestCheckpoint
		j.LatestCheckpoint = &p
	}
	if j.LatestSavepoint != nil {
		p := *j.LatestSavepoint
		j.LatestSavepoint = &p
	}
	if j.CrashLoop != nil {
		c := *j.CrashLoop
		j.CrashLoop = &c
	}
	return j
}
