package store

import (
	"context"
	"slices"
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Change is what one committed transaction changed in a store, as Watch
// reports it: enough for a reader to know what to read again, not the
// records themselves.
type Change struct {
	// Revision is the store's revision after the transaction.
	Revision int64
	// Families are the top-level buckets it wrote (doc.go): "jobs",
	// "commands", "events", …, sorted.
	Families []string
	// Jobs are the ids of the jobs whose records (the job, its specs,
	// events, restore points, exceptions or commands) it wrote, sorted.
	Jobs []string
	// Resync says that changes may have been missed (the watch was cut
	// and started again): read everything again.
	Resync bool
	// Own says that this process committed it (through this Store):
	// what it wrote, it knows.
	Own bool
}

// Watcher is a Store whose changes by any palink can be watched: the
// store on etcd. A store in a file has a single writer, the process that
// opened it, which knows what it wrote.
type Watcher interface {
	// Watch reports every transaction committed after it is called, in
	// order, until ctx is done; then it closes the channel.
	Watch(ctx context.Context) <-chan Change
}

var _ Watcher = (*Etcd)(nil)

// jobFamilies are the buckets of per-job records, nested under the job's id.
var jobFamilies = []string{string(bucketSpecs), string(bucketEvents), string(bucketRestorePoints),
	string(bucketRestorePointPaths), string(bucketExceptions), string(bucketCommandsByJob)}

// Watch reports the store's changes: etcd's watch of the prefix, one
// Change per revision, each once this process's reads (its mirror) see
// it. When etcd cuts the watch (a compaction passed it,
// the member went away), it sends a Change with Resync and watches again
// from the newest revision.
func (e *Etcd) Watch(ctx context.Context) <-chan Change {
	out := make(chan Change, 16)
	e.watchers.Add(1)
	go func() {
		defer close(out)
		defer e.watchers.Add(-1)
		var from int64 // 0: from now
		for ctx.Err() == nil {
			opts := []clientv3.OpOption{clientv3.WithPrefix()}
			if from > 0 {
				opts = append(opts, clientv3.WithRev(from))
			}
			wctx, cancel := context.WithCancel(clientv3.WithRequireLeader(ctx))
			cut := false
			for resp := range e.cli.Watch(wctx, e.url.Prefix, opts...) {
				if resp.Err() != nil || resp.Canceled {
					cut = true
					break
				}
				for _, c := range e.changes(resp.Events) {
					if len(c.Families) == 0 {
						continue // the Update counter alone, or keys not palink's
					}
					if e.mirror != nil {
						// The mirror follows etcd on a watch of its own: a
						// change is told once reads see it, or a scheduler
						// woken by it reads past the command it was woken
						// for (and waits for its next tick).
						e.mirror.snapshot(c.Revision)
					}
					select {
					case out <- c:
					case <-ctx.Done():
						cancel()
						return
					}
					from = c.Revision + 1
				}
			}
			cancel()
			if ctx.Err() != nil {
				return
			}
			if cut {
				// Changes between the cut and the new watch are lost to
				// it; whoever watches reads everything again.
				from = 0
				select {
				case out <- Change{Resync: true}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

// changes groups a watch response's events by revision.
func (e *Etcd) changes(events []*clientv3.Event) []Change {
	var out []Change
	for _, ev := range events {
		rev := ev.Kv.ModRevision
		if len(out) == 0 || out[len(out)-1].Revision != rev {
			out = append(out, Change{Revision: rev})
		}
		c := &out[len(out)-1]
		if string(ev.Kv.Key) == e.key(etcdTxnKey) {
			c.Own = e.own.has(string(ev.Kv.Value))
		}
		b, k, _, ok := e.parseKey(string(ev.Kv.Key))
		if !ok {
			continue
		}
		c.Families = addSorted(c.Families, b[0])
		switch {
		case b[0] == string(bucketJobs) && k != nil:
			c.Jobs = addSorted(c.Jobs, string(k))
		case len(b) > 1 && slices.Contains(jobFamilies, b[0]):
			c.Jobs = addSorted(c.Jobs, b[1])
		}
	}
	return out
}

// addSorted inserts s into the sorted list xs unless it holds it.
func addSorted(xs []string, s string) []string {
	i, found := slices.BinarySearch(xs, s)
	if found {
		return xs
	}
	return slices.Insert(xs, i, s)
}

// ownTokens are the tokens of this process's newest commits, which each
// writes into the Update counter, as many as a watch may still report (a
// watch far behind finds its oldest gone, and takes them for another's:
// read again, never missed). A token, not a revision: the watch may
// report a commit before its own answer arrives.
type ownTokens struct {
	mu     sync.Mutex
	tokens map[string]bool
	order  []string
}

const maxOwnTokens = 4096

func (o *ownTokens) add(token string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.tokens == nil {
		o.tokens = map[string]bool{}
	}
	o.tokens[token] = true
	o.order = append(o.order, token)
	if len(o.order) > maxOwnTokens {
		delete(o.tokens, o.order[0])
		o.order = o.order[1:]
	}
}

func (o *ownTokens) has(token string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.tokens[token]
}
