package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// bucketExceptions holds each job's Flink exception history as state sync
// saw it (schema 4): exceptions/<job id>, keyed by exceptionKey, so that
// a cursor walks them in time order and one failure seen twice is one key.
var bucketExceptions = []byte("exceptions")

// exceptionKey is the time (8-byte big-endian Unix nanoseconds, so bytes
// order as time) followed by the exception's name.
func exceptionKey(e model.JobException) []byte {
	k := make([]byte, 8, 8+len(e.Name))
	binary.BigEndian.PutUint64(k, uint64(e.Time.UnixNano()))
	return append(k, e.Name...)
}

func checkException(e model.JobException) error {
	switch {
	case e.JobID == "":
		return fmt.Errorf("exception %s has no job id: %w", e.Name, ErrInvalid)
	case e.Time.IsZero():
		return fmt.Errorf("exception %s of job %s has no time: %w", e.Name, e.JobID, ErrInvalid)
	}
	return nil
}

// Exceptions returns the job's kept exceptions, newest first.
func (t jobRecords) Exceptions(jobID string) ([]model.JobException, error) {
	if err := t.requireJob("list exceptions", jobID); err != nil {
		return nil, err
	}
	var out []model.JobException
	it := t.scan(in(bucketExceptions, jobID), scanOpts{desc: true})
	for {
		k, v, err := it.next()
		if err != nil {
			return nil, fmt.Errorf("list exceptions of job %s: %w", jobID, err)
		}
		if k == nil {
			return out, nil
		}
		e, err := decode[model.JobException]("exception", k, v)
		if err != nil {
			return nil, fmt.Errorf("list exceptions of job %s: %w", jobID, err)
		}
		out = append(out, e)
	}
}

// AddExceptions keeps the exceptions not kept yet (by time and name), then
// drops the oldest beyond model.MaxStoredExceptions.
func (t jobRecords) AddExceptions(jobID string, es []model.JobException) (int, error) {
	op := "keep exceptions of job " + jobID
	if err := t.requireJob(op, jobID); err != nil {
		return 0, err
	}
	b := in(bucketExceptions, jobID)
	// Which are kept already, asked at once: state sync hands over the
	// whole history Flink keeps on every cycle, and a backend across the
	// network answers a batch in one request.
	var keys [][]byte
	var invalid error
	for i, e := range es {
		e.JobID = jobID
		if invalid = checkException(e); invalid != nil {
			es = es[:i]
			break
		}
		keys = append(keys, exceptionKey(e))
	}
	kept, err := t.getMany(b, keys)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	added := 0
	seen := map[string]bool{}
	for i, e := range es {
		e.JobID = jobID
		k := keys[i]
		if kept[i] != nil || seen[string(k)] {
			continue
		}
		seen[string(k)] = true
		v, err := encode("exception", e.Key(), bounded(e))
		if err != nil {
			return added, fmt.Errorf("%s: %w", op, err)
		}
		if err := t.put(b, k, v); err != nil {
			return added, fmt.Errorf("%s: %w", op, err)
		}
		added++
	}
	if invalid != nil {
		return added, fmt.Errorf("%s: %w", op, invalid)
	}
	if err := trimOldest(t.txn, b, model.MaxStoredExceptions); err != nil {
		return added, fmt.Errorf("%s: %w", op, err)
	}
	return added, nil
}

// bounded cuts an exception to what the store keeps: the trace to
// model.MaxStoredTrace bytes, and so many concurrent exceptions.
func bounded(e model.JobException) model.JobException {
	e.Stacktrace, e.TraceTruncated = cutTrace(e.Stacktrace, e.TraceTruncated)
	if len(e.Concurrent) > model.MaxStoredConcurrent {
		e.Concurrent = e.Concurrent[:model.MaxStoredConcurrent]
	}
	cs := make([]model.JobException, 0, len(e.Concurrent))
	for _, c := range e.Concurrent {
		c.Concurrent = nil
		c.Stacktrace, c.TraceTruncated = cutTrace(c.Stacktrace, c.TraceTruncated)
		cs = append(cs, c)
	}
	e.Concurrent = cs
	if len(cs) == 0 {
		e.Concurrent = nil
	}
	return e
}

// cutTrace keeps a trace's first model.MaxStoredTrace bytes, at a line end
// when one is near, so that the innermost causes near the end of a long
// trace are lost rather than the outermost ones at its start; the
// Caused-by lines are kept whatever their place.
func cutTrace(s string, already bool) (string, bool) {
	if len(s) <= model.MaxStoredTrace {
		return s, already
	}
	var causes []string
	for _, l := range strings.Split(s[model.MaxStoredTrace/2:], "\n") {
		if strings.HasPrefix(l, "Caused by: ") {
			causes = append(causes, l)
		}
	}
	head := s[:model.MaxStoredTrace/2]
	if i := strings.LastIndexByte(head, '\n'); i > 0 {
		head = head[:i+1]
	}
	for len(head) > 0 && !utf8.ValidString(head) {
		head = head[:len(head)-1]
	}
	out := head + "\t... (cut by palink)\n" + strings.Join(causes, "\n")
	if len(out) > model.MaxStoredTrace {
		out = out[:model.MaxStoredTrace]
	}
	return out, true
}

// trimOldest deletes the first keys of b until at most keep remain.
func trimOldest(t *txn, b bucket, keep int) error {
	var keys [][]byte
	it := t.scan(b, scanOpts{keysOnly: true})
	for {
		k, _, err := it.next()
		if err != nil {
			return err
		}
		if k == nil {
			break
		}
		keys = append(keys, bytes.Clone(k))
	}
	for len(keys) > keep {
		if err := t.del(b, keys[0]); err != nil {
			return err
		}
		keys = keys[1:]
	}
	return nil
}

// migrateTo4 adds the exceptions bucket.
func migrateTo4(tx *bolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists(bucketExceptions); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketExceptions, err)
	}
	return nil
}
