package store

import (
	"fmt"
	"slices"

	"github.com/palink/palink/model"
)

// Lists a page at a time, for a caller that writes out a list too long to
// hold whole (`palink jobs -o json` over 100,000 jobs): each page is read
// in its own transaction, from the key the page before named as next. A
// list read so is the list read at once when nothing changes meanwhile;
// what is written meanwhile shows in the pages still to come, never twice.

// JobsFrom returns the first n jobs whose id is ≥ from, in id order, and
// the id of the job after them ("" after the last job).
func (t jobRecords) JobsFrom(from string, n int) ([]model.Job, string, error) {
	if n <= 0 {
		return nil, "", fmt.Errorf("list jobs from %q: a page of %d: %w", from, n, ErrInvalid)
	}
	out := []model.Job{}
	it := t.scan(in(bucketJobs), scanOpts{from: keyFrom(from), hint: n + 1})
	for {
		k, v, err := it.next()
		switch {
		case err != nil:
			return nil, "", fmt.Errorf("list jobs from %q: %w", from, err)
		case k == nil:
			return out, "", nil
		case len(out) == n:
			return out, string(k), nil
		}
		j, err := t.jobs.decode(k, v)
		if err != nil {
			return nil, "", fmt.Errorf("list jobs from %q: %w", from, err)
		}
		out = append(out, j)
	}
}

// CommandsFrom returns the commands matching f whose id is ≥ from, oldest
// first, at most n, and the id of the next one that matches ("" after the
// last). With f.Limit, a from of "" starts at the oldest of the newest
// f.Limit, and the pages after it go on from their from (a command created
// meanwhile comes at the end).
func (t commandRecords) CommandsFrom(f CommandFilter, from string, n int) ([]model.Command, string, error) {
	op := fmt.Sprintf("list commands from %q", from)
	if n <= 0 || f.Limit < 0 {
		return nil, "", fmt.Errorf("%s: a page of %d, limit %d: %w", op, n, f.Limit, ErrInvalid)
	}
	for _, s := range f.States {
		if err := validEnum(op+": state", s, commandStates); err != nil {
			return nil, "", err
		}
	}
	states := slices.Compact(slices.Sorted(slices.Values(f.States)))
	sources := commandSources(f.JobID, states)
	if f.Limit > 0 && from == "" {
		// The oldest of the newest f.Limit: a walk down that keeps only
		// the last id it matched.
		var err error
		if from, err = t.oldestOfNewest(f, states, sources); err != nil || from == "" {
			return []model.Command{}, "", err
		}
	}
	out := []model.Command{}
	next := ""
	keep := func(id, v []byte) (bool, error) {
		c, ok, err := commandMatch(f, states, id, v)
		switch {
		case err != nil || !ok:
			return err == nil, err
		case len(out) == n:
			next = c.ID
			return false, nil
		}
		out = append(out, c)
		return true, nil
	}
	o := scanOpts{from: keyFrom(from), hint: n + 1}
	var err error
	if sources == nil {
		it := t.scan(in(bucketCommands), o)
		for more := true; more && err == nil; {
			var k, v []byte
			if k, v, err = it.next(); err == nil && k == nil {
				break
			}
			if err == nil {
				more, err = keep(k, v)
			}
		}
	} else {
		err = t.indexedCommands(mergeKeys(t.txn, sources, f.JobID, o), n+1, keep)
	}
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", op, err)
	}
	return out, next, nil
}

// oldestOfNewest is the id of the oldest of the newest f.Limit commands
// matching f, "" when none does.
func (t commandRecords) oldestOfNewest(f CommandFilter, states []model.CommandState, sources []bucket) (string, error) {
	oldest, seen := "", 0
	keep := func(id, v []byte) (bool, error) {
		_, ok, err := commandMatch(f, states, id, v)
		if err != nil || !ok {
			return err == nil, err
		}
		oldest, seen = string(id), seen+1
		return seen < f.Limit, nil
	}
	var err error
	if sources == nil {
		err = t.newestCommands(f.Limit, keep)
	} else {
		err = t.indexedCommands(mergeKeys(t.txn, sources, f.JobID, scanOpts{desc: true}), f.Limit, keep)
	}
	return oldest, err
}

// keyFrom is a scan's first key for a page's from: nil for the first page.
func keyFrom(from string) []byte {
	if from == "" {
		return nil
	}
	return []byte(from)
}
