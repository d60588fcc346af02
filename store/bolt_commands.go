package store

import (
	bolt "go.etcd.io/bbolt"

	"bytes"
	"fmt"
	"slices"

	"github.com/palink/palink/model"
)

// Command returns one command by id.
func (t *boltTx) Command(id string) (model.Command, error) {
	cmds, err := t.bucket(bucketCommands)
	if err != nil {
		return model.Command{}, fmt.Errorf("get command %q: %w", id, err)
	}
	v := cmds.Get([]byte(id))
	if v == nil {
		return model.Command{}, fmt.Errorf("get command %q: %w", id, ErrNotFound)
	}
	return decodeCommand([]byte(id), v)
}

// CommandBySeq returns the command with sequence number seq. Its id starts
// with CommandID(seq), alone for a command of before schema 3 or followed
// by "-" and its random suffix, and ids sort by that prefix: a cursor Seek
// to it lands on the command, if there is one.
func (t *boltTx) CommandBySeq(seq int64) (model.Command, error) {
	op := fmt.Sprintf("get command #%d", seq)
	cmds, err := t.bucket(bucketCommands)
	if err != nil {
		return model.Command{}, fmt.Errorf("%s: %w", op, err)
	}
	if seq <= 0 {
		return model.Command{}, fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	k, v := cmds.Cursor().Seek([]byte(CommandID(seq)))
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
func (t *boltTx) PutCommand(c model.Command) (model.Command, error) {
	if err := checkCommand(c); err != nil {
		return model.Command{}, fmt.Errorf("put command %s: %w", c.ID, err)
	}
	cmds, err := t.bucket(bucketCommands)
	if err != nil {
		return model.Command{}, fmt.Errorf("put command %s: %w", c.ID, err)
	}
	if c.ID == "" {
		if err := t.requireJob(fmt.Sprintf("add %s command", c.Kind), c.JobID); err != nil {
			return model.Command{}, err
		}
		seq, err := cmds.NextSequence()
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
			if err := t.unindexCommandState(old); err != nil {
				return model.Command{}, fmt.Errorf("put command %s: %w", c.ID, err)
			}
		}
	}
	op := fmt.Sprintf("put command %s (%s of job %s)", c.ID, c.Kind, c.JobID)
	v, err := encode("command", c.ID, c)
	if err != nil {
		return model.Command{}, fmt.Errorf("%s: %w", op, err)
	}
	if err := cmds.Put([]byte(c.ID), v); err != nil {
		return model.Command{}, fmt.Errorf("%s: %w", op, err)
	}
	if err := t.indexCommand(c); err != nil {
		return model.Command{}, fmt.Errorf("%s: %w", op, err)
	}
	return c, nil
}

// indexCommand adds c to its state's and its job's index (idempotent).
func (t *boltTx) indexCommand(c model.Command) error {
	byState, err := t.childForWrite(bucketCommandsByState, c.State.String())
	if err != nil {
		return err
	}
	if err := byState.Put([]byte(c.ID), nil); err != nil {
		return err
	}
	byJob, err := t.childForWrite(bucketCommandsByJob, c.JobID)
	if err != nil {
		return err
	}
	return byJob.Put([]byte(c.ID), nil)
}

func (t *boltTx) unindexCommandState(old model.Command) error {
	byState, err := t.child(bucketCommandsByState, old.State.String())
	if err != nil || byState == nil {
		return err
	}
	return byState.Delete([]byte(old.ID))
}

// Commands returns the commands matching f, oldest first. It walks the
// smallest index that f allows, newest first so that Limit stops early, and
// checks every candidate against its record.
func (t *boltTx) Commands(f CommandFilter) ([]model.Command, error) {
	if f.Limit < 0 {
		return nil, fmt.Errorf("list commands: limit %d is negative: %w", f.Limit, ErrInvalid)
	}
	cmds, err := t.bucket(bucketCommands)
	if err != nil {
		return nil, fmt.Errorf("list commands: %w", err)
	}
	for _, s := range f.States {
		if err := validEnum("list commands: state", s, commandStates); err != nil {
			return nil, err
		}
	}
	states := slices.Compact(slices.Sorted(slices.Values(f.States)))
	var sources []*bolt.Bucket
	switch {
	case len(states) > 0 && (f.JobID == "" || !slices.ContainsFunc(states, model.CommandState.Final)):
		// UNDO and DOING hold a handful of commands; the final states hold
		// the history, where a job's own index is the smaller walk.
		for _, s := range states {
			b, err := t.child(bucketCommandsByState, s.String())
			if err != nil {
				return nil, fmt.Errorf("list commands: %w", err)
			}
			if b != nil {
				sources = append(sources, b)
			}
		}
	case f.JobID != "":
		b, err := t.child(bucketCommandsByJob, f.JobID)
		if err != nil {
			return nil, fmt.Errorf("list commands: %w", err)
		}
		if b != nil {
			sources = append(sources, b)
		}
	default:
		sources = append(sources, cmds)
	}

	var out []model.Command
	err = mergeDescending(sources, func(id []byte) (bool, error) {
		v := cmds.Get(id)
		if v == nil {
			return false, fmt.Errorf("index lists command %s, which does not exist", id)
		}
		c, err := decodeCommand(id, v)
		if err != nil {
			return false, err
		}
		if (f.JobID != "" && c.JobID != f.JobID) ||
			(len(states) > 0 && !slices.Contains(states, c.State)) ||
			(len(f.Kinds) > 0 && !slices.Contains(f.Kinds, c.Kind)) {
			return true, nil
		}
		out = append(out, c)
		return f.Limit == 0 || len(out) < f.Limit, nil
	})
	if err != nil {
		return nil, fmt.Errorf("list commands: %w", err)
	}
	slices.Reverse(out)
	if out == nil {
		out = []model.Command{}
	}
	return out, nil
}

// mergeDescending visits the union of the buckets' keys from the greatest
// down, each once, until visit returns false. The index buckets hold
// disjoint keys; should a damaged one not, a command still comes out once.
func mergeDescending(buckets []*bolt.Bucket, visit func(k []byte) (bool, error)) error {
	curs := make([]*bolt.Cursor, len(buckets))
	keys := make([][]byte, len(buckets))
	for i, b := range buckets {
		curs[i] = b.Cursor()
		keys[i], _ = curs[i].Last()
	}
	var last []byte
	for {
		top := -1
		for i, k := range keys {
			if k != nil && (top < 0 || bytes.Compare(k, keys[top]) > 0) {
				top = i
			}
		}
		if top < 0 {
			return nil
		}
		if k := keys[top]; !bytes.Equal(k, last) {
			more, err := visit(k)
			if err != nil || !more {
				return err
			}
			last = k
		}
		keys[top], _ = curs[top].Prev()
	}
}
