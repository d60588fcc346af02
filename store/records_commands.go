package store

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/palink/palink/model"
)

// Command returns one command by id.
func (t commandRecords) Command(id string) (model.Command, error) {
	v, err := t.get(in(bucketCommands), []byte(id))
	if err != nil {
		return model.Command{}, fmt.Errorf("get command %q: %w", id, err)
	}
	if v == nil {
		return model.Command{}, fmt.Errorf("get command %q: %w", id, ErrNotFound)
	}
	return decodeCommand([]byte(id), v)
}

// CommandBySeq returns the command with sequence number seq. Its id starts
// with CommandID(seq), alone for a command of before schema 3 or followed
// by "-" and its random suffix, and ids sort by that prefix: the first key
// from it is the command, if there is one.
func (t commandRecords) CommandBySeq(seq int64) (model.Command, error) {
	op := fmt.Sprintf("get command #%d", seq)
	if seq <= 0 {
		return model.Command{}, fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	k, v, err := t.scan(in(bucketCommands), scanOpts{from: []byte(CommandID(seq)), hint: 1}).next()
	if err != nil {
		return model.Command{}, fmt.Errorf("%s: %w", op, err)
	}
	if k == nil || !commandIDHasSeq(k, seq) {
		return model.Command{}, fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	c, err := decodeCommand(k, v)
	if err != nil {
		return model.Command{}, fmt.Errorf("%s: %w", op, err)
	}
	if c.Seq != seq {
		return model.Command{}, fmt.Errorf("%s: command %s holds seq %d (damaged record?)", op, k, c.Seq)
	}
	return c, nil
}

// PutCommand creates a command (empty ID) or replaces one, keeping the
// by-state and by-job indexes in step with the record.
func (t commandRecords) PutCommand(c model.Command) (model.Command, error) {
	if err := checkCommand(c); err != nil {
		return model.Command{}, fmt.Errorf("put command %s: %w", c.ID, err)
	}
	if c.ID == "" {
		if err := t.requireJob(fmt.Sprintf("add %s command", c.Kind), c.JobID); err != nil {
			return model.Command{}, err
		}
		seq, err := t.nextSeq(in(bucketCommands))
		if err != nil {
			return model.Command{}, fmt.Errorf("add %s command to job %s: %w", c.Kind, c.JobID, err)
		}
		c.Seq, c.ID = int64(seq), newCommandID(int64(seq))
	} else {
		old, err := t.Command(c.ID)
		if err != nil {
			return model.Command{}, fmt.Errorf("put command: %w", err)
		}
		switch {
		case c.Seq != 0 && c.Seq != old.Seq:
			return model.Command{}, fmt.Errorf("put command %s: seq %d differs from stored %d: %w", c.ID, c.Seq, old.Seq, ErrInvalid)
		case c.JobID != old.JobID:
			return model.Command{}, fmt.Errorf("put command %s: job %s differs from stored %s: %w", c.ID, c.JobID, old.JobID, ErrInvalid)
		case c.Kind != old.Kind:
			return model.Command{}, fmt.Errorf("put command %s: kind %s differs from stored %s: %w", c.ID, c.Kind, old.Kind, ErrInvalid)
		}
		c.Seq = old.Seq
		if old.State != c.State {
			if err := t.del(in(bucketCommandsByState, old.State.String()), []byte(old.ID)); err != nil {
				return model.Command{}, fmt.Errorf("put command %s: %w", c.ID, err)
			}
		}
	}
	op := fmt.Sprintf("put command %s (%s of job %s)", c.ID, c.Kind, c.JobID)
	v, err := encode("command", c.ID, c)
	if err != nil {
		return model.Command{}, fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(in(bucketCommands), []byte(c.ID), v); err != nil {
		return model.Command{}, fmt.Errorf("%s: %w", op, err)
	}
	if err := t.indexCommand(c); err != nil {
		return model.Command{}, fmt.Errorf("%s: %w", op, err)
	}
	return c, nil
}

// indexCommand adds c to its state's and its job's index (idempotent).
func (t commandRecords) indexCommand(c model.Command) error {
	// The state index names the command's job, so that a job's pending
	// command is found without reading every job's (Commands).
	if err := t.put(in(bucketCommandsByState, c.State.String()), []byte(c.ID), []byte(c.JobID)); err != nil {
		return err
	}
	return t.put(in(bucketCommandsByJob, c.JobID), []byte(c.ID), nil)
}

// Commands returns the commands matching f, oldest first. It walks the
// smallest index that f allows, newest first so that Limit stops early, and
// checks every candidate against its record.
func (t commandRecords) Commands(f CommandFilter) ([]model.Command, error) {
	if f.Limit < 0 {
		return nil, fmt.Errorf("list commands: limit %d is negative: %w", f.Limit, ErrInvalid)
	}
	for _, s := range f.States {
		if err := validEnum("list commands: state", s, commandStates); err != nil {
			return nil, err
		}
	}
	states := slices.Compact(slices.Sorted(slices.Values(f.States)))
	sources := commandSources(f.JobID, states)
	var out []model.Command
	keep := func(id, v []byte) (bool, error) {
		c, ok, err := commandMatch(f, states, id, v)
		if err != nil || !ok {
			return err == nil, err
		}
		out = append(out, c)
		return f.Limit == 0 || len(out) < f.Limit, nil
	}
	var err error
	if sources == nil {
		err = t.newestCommands(f.Limit, keep)
	} else {
		err = t.indexedCommands(mergeKeys(t.txn, sources, f.JobID, scanOpts{desc: true}), f.Limit, keep)
	}
	if err != nil {
		return nil, fmt.Errorf("list commands: %w", err)
	}
	slices.Reverse(out)
	if out == nil {
		out = []model.Command{}
	}
	return out, nil
}

// commandSources are the index buckets that hold every command a filter
// of job and states may match, nil for the commands bucket itself.
func commandSources(job string, states []model.CommandState) []bucket {
	var sources []bucket
	switch {
	case len(states) > 0 && (job == "" || !slices.ContainsFunc(states, model.CommandState.Final)):
		// UNDO and DOING hold a handful of commands; the final states hold
		// the history, where a job's own index is the smaller walk.
		for _, s := range states {
			sources = append(sources, in(bucketCommandsByState, s.String()))
		}
	case job != "":
		sources = append(sources, in(bucketCommandsByJob, job))
	}
	return sources
}

// commandMatch decodes the command record v stored under id and reports
// whether it matches f (whose states are states, sorted and compacted).
func commandMatch(f CommandFilter, states []model.CommandState, id, v []byte) (model.Command, bool, error) {
	if v == nil {
		return model.Command{}, false, fmt.Errorf("index lists command %s, which does not exist", id)
	}
	c, err := decodeCommand(id, v)
	if err != nil {
		return model.Command{}, false, err
	}
	ok := (f.JobID == "" || c.JobID == f.JobID) &&
		(len(states) == 0 || slices.Contains(states, c.State)) &&
		(len(f.Kinds) == 0 || slices.Contains(f.Kinds, c.Kind))
	return c, ok, nil
}

// newestCommands hands every command to keep, newest first, until keep
// returns false.
func (t commandRecords) newestCommands(limit int, keep func(id, v []byte) (bool, error)) error {
	it := t.scan(in(bucketCommands), scanOpts{desc: true, hint: limit})
	for {
		k, v, err := it.next()
		if err != nil || k == nil {
			return err
		}
		if more, err := keep(k, v); err != nil || !more {
			return err
		}
	}
}

// indexedCommands hands the commands whose ids come from ids (mergeKeys
// of index buckets) to keep, in that order, until keep returns false. The
// records are read a batch at a time: a backend across the network reads
// each batch in one request.
func (t commandRecords) indexedCommands(ids func() ([]byte, error), limit int, keep func(id, v []byte) (bool, error)) error {
	batch := 16
	if limit > 0 {
		batch = min(limit, maxBatch)
	}
	for {
		var keys [][]byte
		for len(keys) < batch {
			k, err := ids()
			if err != nil {
				return err
			}
			if k == nil {
				break
			}
			keys = append(keys, k)
		}
		if len(keys) == 0 {
			return nil
		}
		vals, err := t.getMany(in(bucketCommands), keys)
		if err != nil {
			return err
		}
		for i, k := range keys {
			if more, err := keep(k, vals[i]); err != nil || !more {
				return err
			}
		}
		batch = min(2*batch, maxBatch)
	}
}

// nextOf is it's next key whose value does not name another job than
// job; nil at the end.
func nextOf(it iterator, job string) ([]byte, error) {
	for {
		k, v, err := it.next()
		if err != nil || k == nil || job == "" || len(v) == 0 || string(v) == job {
			return k, err
		}
	}
}

// maxBatch bounds the records read in one batch.
const maxBatch = 100

// mergeKeys returns the union of the buckets' keys in the order of o
// (from the greatest down with o.desc, else up from o.from), each once, one
// per call, nil at the end. The index buckets hold disjoint keys; should a
// damaged one not, a command still comes out once. An entry whose value
// names a job other than job (when set) is passed over: the state index's
// values name each command's job (entries written before it did are
// empty, and kept).
func mergeKeys(t *txn, buckets []bucket, job string, o scanOpts) func() ([]byte, error) {
	its := make([]iterator, len(buckets))
	keys := make([][]byte, len(buckets))
	started := false
	var last []byte
	o.keysOnly = job == ""
	return func() ([]byte, error) {
		if !started {
			started = true
			for i, b := range buckets {
				its[i] = t.scan(b, o)
				k, err := nextOf(its[i], job)
				if err != nil {
					return nil, err
				}
				keys[i] = k
			}
		}
		for {
			top := -1
			for i, k := range keys {
				if k == nil {
					continue
				}
				if c := bytes.Compare(k, keys[max(top, 0)]); top < 0 || (o.desc && c > 0) || (!o.desc && c < 0) {
					top = i
				}
			}
			if top < 0 {
				return nil, nil
			}
			k := keys[top]
			next, err := nextOf(its[top], job)
			if err != nil {
				return nil, err
			}
			keys[top] = next
			if !bytes.Equal(k, last) {
				last = k
				return k, nil
			}
		}
	}
}
