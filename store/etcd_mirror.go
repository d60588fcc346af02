package store

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/btree" // the ordered map under the mirror: etcd's own server keeps its index in it
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// etcdMirror is a copy of the store's keys in this process's memory, kept
// current by a watch of the prefix (doc.go, "The mirror"): a transaction
// whose snapshot the mirror holds reads from it instead of asking etcd,
// so that an action costs one request (its commit), not one per read.
//
// It keeps each key's newest version only, and a deleted key as a
// tombstone (Version 0) with the revision that deleted it. That is enough
// to serve a read at any snapshot between floor and rev exactly as etcd
// would: a key whose newest version is at or before the snapshot had that
// value then; one changed or deleted after it is asked of etcd at the
// snapshot; a key absent from the tree was absent then.
type etcdMirror struct {
	e *Etcd

	mu   sync.RWMutex
	tree *btree.BTreeG[*mvccpb.KeyValue]
	// rev is the newest revision whose changes are all in tree; floor
	// the oldest snapshot served (the load's, or the last time
	// tombstones were forgotten).
	rev, floor int64
	tombs      int
	// heard is when the watch last answered (a change or a progress
	// report); a mirror not heard from within mirrorStale serves nothing,
	// so that a palink cut off from etcd finds out as it would without it.
	heard time.Time
	live  bool
	// moved is closed, and made anew, whenever rev moves.
	moved chan struct{}

	served atomic.Int64 // reads answered from memory
	stop   context.CancelFunc
	done   chan struct{}
}

// The mirror's timings: how often it asks etcd for a progress report on
// a quiet store, after how long without an answer it stops serving, and
// how long a transaction waits for it to catch up with this process's
// own last commit before it reads from etcd instead.
const (
	mirrorProgressEvery = time.Second
	mirrorStale         = 3 * time.Second
	mirrorCatchUp       = 100 * time.Millisecond
	// mirrorMaxTombs: beyond as many tombstones the mirror forgets them,
	// and snapshots before then are read from etcd.
	mirrorMaxTombs = 4096
)

// mirrorSkips are the families the mirror does not copy: the long
// histories (events, audit, exceptions) and the specs, which a person
// reads one at a time and no action needs. Their sequences are copied.
var mirrorSkips = []string{string(bucketEvents), string(bucketAudit), string(bucketExceptions), string(bucketSpecs)}

func kvLess(a, b *mvccpb.KeyValue) bool { return bytes.Compare(a.Key, b.Key) < 0 }

func newMirrorTree() *btree.BTreeG[*mvccpb.KeyValue] { return btree.NewG(32, kvLess) }

func pivot(key string) *mvccpb.KeyValue { return &mvccpb.KeyValue{Key: []byte(key)} }

// mirrors reports whether key is one the mirror copies.
func (k etcdKeys) mirrors(key string) bool {
	b, _, seq, ok := k.parseKey(key)
	return !ok || seq || !slices.Contains(mirrorSkips, b[0])
}

// mirrorsRange reports whether every key from lo on in its family is one
// the mirror copies: not so in a family it skips, whose range holds the
// sequences it copies and the records it does not.
func (k etcdKeys) mirrorsRange(lo string) bool {
	rest, ok := strings.CutPrefix(lo, k.prefix)
	family, _, _ := strings.Cut(rest, "/")
	return ok && !slices.Contains(mirrorSkips, family)
}

// startMirror loads the mirror and keeps it current until Close.
func (e *Etcd) startMirror() error {
	ctx, cancel := context.WithCancel(context.Background())
	m := &etcdMirror{e: e, moved: make(chan struct{}), stop: cancel, done: make(chan struct{})}
	rev, err := m.load(ctx)
	if err != nil {
		cancel()
		return err
	}
	e.mirror = m
	go m.run(ctx, rev)
	return nil
}

// close stops the watch.
func (m *etcdMirror) close() {
	m.stop()
	<-m.done
}

// load reads every key the mirror copies, at one revision, into a new
// tree that replaces the old; it returns the revision.
func (m *etcdMirror) load(ctx context.Context) (int64, error) {
	tree := newMirrorTree()
	lo, hi := m.e.url.Prefix, clientv3.GetPrefixRangeEnd(m.e.url.Prefix)
	var rev int64
	for {
		opts := []clientv3.OpOption{clientv3.WithRange(hi), clientv3.WithLimit(maxPage)}
		if rev > 0 {
			opts = append(opts, clientv3.WithRev(rev))
		}
		rctx, cancel := m.e.reqCtx(ctx)
		resp, err := m.e.cli.Get(rctx, lo, opts...)
		cancel()
		if err != nil {
			return 0, m.e.unreachable(err, m.e.opts.RequestTimeout)
		}
		if rev == 0 {
			rev = resp.Header.Revision
		}
		for _, kv := range resp.Kvs {
			if m.e.mirrors(string(kv.Key)) {
				tree.ReplaceOrInsert(kv)
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			break
		}
		lo = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
	m.mu.Lock()
	m.tree, m.rev, m.floor, m.tombs = tree, rev, rev, 0
	m.live, m.heard = true, time.Now()
	m.signal()
	m.mu.Unlock()
	return rev, nil
}

// signal wakes whoever waits for rev to move; mu is held.
func (m *etcdMirror) signal() {
	close(m.moved)
	m.moved = make(chan struct{})
}

// run follows the watch from rev on; when etcd cuts it (a compaction
// passed it, the member lost its leader), the mirror serves nothing until
// it is loaded again.
func (m *etcdMirror) run(ctx context.Context, rev int64) {
	defer close(m.done)
	for backoff := 100 * time.Millisecond; ; {
		m.follow(ctx, rev)
		m.mu.Lock()
		m.live = false
		m.mu.Unlock()
		for {
			if ctx.Err() != nil {
				return
			}
			var err error
			if rev, err = m.load(ctx); err == nil {
				backoff = 100 * time.Millisecond
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 5*time.Second)
		}
	}
}

// follow applies the watch's changes after rev until the watch ends.
func (m *etcdMirror) follow(ctx context.Context, rev int64) {
	// The progress requests go to the watch's own stream: the client
	// picks it by the context's metadata, which WithRequireLeader sets.
	wctx, cancel := context.WithCancel(clientv3.WithRequireLeader(ctx))
	defer cancel()
	w := m.e.cli.Watch(wctx, m.e.url.Prefix, clientv3.WithPrefix(), clientv3.WithRev(rev+1))
	tick := time.NewTicker(mirrorProgressEvery)
	defer tick.Stop()
	for {
		select {
		case resp, ok := <-w:
			if !ok || resp.Err() != nil || resp.Canceled {
				return
			}
			m.apply(resp)
		case <-tick.C:
			rctx, rcancel := context.WithTimeout(wctx, mirrorProgressEvery)
			_ = m.e.cli.RequestProgress(rctx) // an answer is what counts (heard)
			rcancel()
		case <-ctx.Done():
			return
		}
	}
}

// apply puts one watch response's changes in the tree. etcd never
// splits a revision over two responses, so rev moves from one whole
// revision to the next.
func (m *etcdMirror) apply(resp clientv3.WatchResponse) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.heard = time.Now()
	if len(resp.Events) == 0 || resp.Events[len(resp.Events)-1].Kv.ModRevision <= m.rev {
		return // a progress report, or this process's commit, put in already
	}
	from := m.rev
	for _, ev := range resp.Events {
		kv := ev.Kv
		if kv.ModRevision <= from || !m.e.mirrors(string(kv.Key)) {
			continue
		}
		if ev.Type == mvccpb.DELETE {
			kv = &mvccpb.KeyValue{Key: kv.Key, ModRevision: kv.ModRevision}
			m.tombs++
		}
		m.tree.ReplaceOrInsert(kv)
	}
	m.rev = resp.Events[len(resp.Events)-1].Kv.ModRevision
	if m.tombs > mirrorMaxTombs {
		var dead []*mvccpb.KeyValue
		m.tree.Ascend(func(kv *mvccpb.KeyValue) bool {
			if kv.Version == 0 {
				dead = append(dead, kv)
			}
			return true
		})
		for _, kv := range dead {
			m.tree.Delete(kv)
		}
		m.floor, m.tombs = m.rev, 0
	}
	m.signal()
}

// committed puts what t committed at rev into the mirror at once, when
// rev follows the mirror's newest revision: nothing came between, so the
// transaction's writes are the whole of rev, and the next transaction of
// this process need not wait for the watch to bring them. Otherwise (or
// once the watch brought them first) the watch will.
func (m *etcdMirror) committed(rev int64, t *etcdKV, token string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.live || m.rev != rev-1 {
		return
	}
	put := func(key string, v []byte) {
		if m.e.mirrors(key) {
			m.tree.ReplaceOrInsert(&mvccpb.KeyValue{Key: []byte(key), Value: v, ModRevision: rev, CreateRevision: rev, Version: 1})
		}
	}
	del := func(key string) {
		if kv, found := m.tree.Get(pivot(key)); found && kv.Version > 0 {
			m.tree.ReplaceOrInsert(&mvccpb.KeyValue{Key: kv.Key, ModRevision: rev})
			m.tombs++
		}
	}
	for _, p := range t.drops {
		var under []string
		m.tree.AscendRange(pivot(p), pivot(clientv3.GetPrefixRangeEnd(p)), func(kv *mvccpb.KeyValue) bool {
			if _, own := t.writes[string(kv.Key)]; !own {
				under = append(under, string(kv.Key))
			}
			return true
		})
		for _, key := range under {
			del(key)
		}
	}
	for key, w := range t.writes {
		if w.del {
			del(key)
		} else {
			put(key, w.v)
		}
	}
	for mark := range t.deleted {
		put(mark, []byte{})
	}
	put(m.e.key(etcdTxnKey), []byte(token))
	m.rev = rev
	m.signal()
}

// snapshot is the revision a transaction may read from the mirror: its
// newest, once it holds this process's last commit (at least), waiting
// for the watch to bring it up to mirrorCatchUp. false when the mirror
// is not live or does not catch up: the transaction reads from etcd.
func (m *etcdMirror) snapshot(atLeast int64) (int64, bool) {
	var timer *time.Timer
	for {
		m.mu.RLock()
		rev, moved := m.rev, m.moved
		live := m.live && time.Since(m.heard) < mirrorStale
		m.mu.RUnlock()
		switch {
		case !live:
			return 0, false
		case rev >= atLeast:
			return rev, true
		case timer == nil:
			timer = time.NewTimer(mirrorCatchUp)
			defer timer.Stop()
		}
		select {
		case <-moved:
		case <-timer.C:
			return 0, false
		}
	}
}

// get is key's value and mod revision at the snapshot at (nil, 0 for a
// missing key); ok is false where the mirror cannot tell.
func (m *etcdMirror) get(key string, at int64) (v []byte, mod int64, ok bool) {
	if !m.e.mirrors(key) {
		return nil, 0, false
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if at < m.floor || at > m.rev {
		return nil, 0, false
	}
	kv, found := m.tree.Get(pivot(key))
	switch {
	case !found:
		m.served.Add(1)
		return nil, 0, true
	case kv.ModRevision > at:
		return nil, 0, false
	case kv.Version == 0:
		m.served.Add(1)
		return nil, 0, true
	}
	m.served.Add(1)
	return capped(present(kv.Value)), kv.ModRevision, true
}

// page is what etcd would answer a range read of [lo, hi) at the
// snapshot at, with at most limit keys, ascending or descending; ok is
// false where the mirror cannot tell (a key in the page changed since).
func (m *etcdMirror) page(lo, hi string, at int64, limit int, desc bool) (kvs []*mvccpb.KeyValue, more, ok bool) {
	if !m.e.mirrorsRange(lo) {
		return nil, false, false
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if at < m.floor || at > m.rev {
		return nil, false, false
	}
	ok = true
	visit := func(kv *mvccpb.KeyValue) bool {
		switch {
		case len(kvs) == limit:
			more = true
			return false
		case kv.ModRevision > at:
			ok = false
			return false
		case kv.Version > 0:
			kvs = append(kvs, kv)
		}
		return true
	}
	if desc {
		m.tree.DescendRange(pivot(hi), pivot(lo), func(kv *mvccpb.KeyValue) bool {
			return string(kv.Key) == hi || visit(kv)
		})
		// DescendRange leaves lo itself out.
		if kv, found := m.tree.Get(pivot(lo)); ok && !more && found {
			visit(kv)
		}
	} else {
		m.tree.AscendRange(pivot(lo), pivot(hi), visit)
	}
	if !ok {
		return nil, false, false
	}
	m.served.Add(1)
	return kvs, more, true
}
