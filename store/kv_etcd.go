package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// etcdKV is kv over etcd: one transaction reads one revision of the
// store (the first read's, then asked for by number) and keeps its
// writes in memory until commit sends them in one etcd transaction, which
// holds only if what it read is still so (reads).
type etcdKV struct {
	e     *Etcd
	ctx   context.Context
	write bool
	rev   int64 // the snapshot; 0 until the first read
	// cache holds what was read at rev: the value, nil for a missing key.
	cache map[string][]byte
	// writes are the transaction's puts and deletes, by key.
	writes map[string]etcdWrite
	// drops are the prefixes of dropped buckets: nothing under them is
	// read from etcd any more, only what writes put there after.
	drops []string
	// err is the first failed read: the transaction cannot commit, and
	// Update and View return it.
	err error
	// fence, if set, is a condition of the commit (Etcd.Fenced).
	fence *Fence
	// reads is what an Update read, for its commit to compare.
	reads etcdReads
	// deleted are the deletion marks of the buckets this transaction
	// deletes keys from (etcdReads).
	deleted map[string]bool
	// mirror, if the store keeps one, answers the reads it can at rev;
	// fromMirror says that rev may be the mirror's newest, not etcd's
	// (not after a conflict: the mirror may lag behind what lost it).
	mirror     *etcdMirror
	fromMirror bool
}

// etcdReads is what an Update read, as the compares of its commit: the
// commit holds only if every key it read is as it was at the snapshot,
// so that two Updates conflict only where one wrote what the other read
// (not, as a single counter would make them, always).
//
// A key read alone compares its mod revision with the one read (0: it
// was missing, and must still be). A bucket scanned compares the keys of
// the range read, each modified at the snapshot or before (no key added
// or changed), and the bucket's deletion mark, which every transaction
// that deletes a key of the bucket writes (no key deleted: a deleted key
// leaves no revision to compare). A transaction that read more than one
// etcd request can compare falls back to the Update counter, which every
// commit writes: nothing committed since its snapshot.
type etcdReads struct {
	keys   map[string]int64 // key → mod revision read, 0 for missing
	ranges map[[2]string]bool
	// marks are the deletion marks compared: exact keys, and prefixes
	// (a bucket and the buckets nested in it).
	marks, markTrees map[string]bool
}

// etcdDeletedKey is where the deletion marks of buckets lie, outside the
// record ranges: a bucket's is this then the bucket's path as its key
// prefix (deleted/events/<job id>/).
const etcdDeletedKey = "deleted/"

// etcdWrite is a buffered put (v) or delete (del).
type etcdWrite struct {
	v   []byte
	del bool
}

func (e *Etcd) begin(ctx context.Context, write bool) *etcdKV {
	return &etcdKV{e: e, ctx: ctx, write: write, cache: map[string][]byte{}, writes: map[string]etcdWrite{},
		reads:   etcdReads{keys: map[string]int64{}, ranges: map[[2]string]bool{}, marks: map[string]bool{}, markTrees: map[string]bool{}},
		deleted: map[string]bool{}, mirror: e.mirror, fromMirror: e.mirror != nil}
}

// snapshot takes the mirror's newest revision as the transaction's
// snapshot, where it may and has none yet; the reads the mirror cannot
// answer ask etcd for that revision.
func (t *etcdKV) snapshot() {
	if t.rev == 0 && t.fromMirror && t.err == nil {
		if rev, ok := t.mirror.snapshot(t.e.committed.Load()); ok {
			t.rev = rev
		}
	}
}

// errViewWrite is a write in a View.
var errViewWrite = errors.New("write in a read-only transaction (View)")

// read sends one range request at the snapshot's revision, taking the
// snapshot at the first. Later reads may be served by any member that has
// the revision (serializable); one that lags behind is asked again
// linearizably.
func (t *etcdKV) read(key string, opts ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	if t.err != nil {
		return nil, t.err
	}
	ctx, cancel := t.e.reqCtx(t.ctx)
	defer cancel()
	t.e.requests.Add(1)
	var resp *clientv3.GetResponse
	var err error
	if t.rev == 0 {
		resp, err = t.e.cli.Get(ctx, key, opts...)
	} else {
		at := append(slices.Clip(opts), clientv3.WithRev(t.rev))
		resp, err = t.e.cli.Get(ctx, key, append(at, clientv3.WithSerializable())...)
		if errors.Is(err, rpctypes.ErrFutureRev) {
			resp, err = t.e.cli.Get(ctx, key, at...)
		}
	}
	if err != nil {
		return nil, t.fail(err)
	}
	if t.rev == 0 {
		t.rev = resp.Header.Revision
	}
	return resp, nil
}

// fail records the first failed read and returns it.
func (t *etcdKV) fail(err error) error {
	if t.err == nil {
		op := "read"
		if t.write {
			op = "update"
		}
		if ctxErr := t.ctx.Err(); ctxErr != nil {
			err = ctxErr
		} else {
			err = t.e.unreachable(err, t.e.opts.RequestTimeout)
		}
		t.err = fmt.Errorf("%s store %s: %w", op, t.e.name, err)
	}
	return t.err
}

// deletedMark is b's deletion mark (etcdReads).
func (k etcdKeys) deletedMark(b bucket) string {
	return k.key(etcdDeletedKey) + k.bucketPrefix(b)[len(k.prefix):]
}

// readRange records that an Update scanned [lo, hi) of bucket b: its
// commit compares the range, the marks of b and the buckets nested in it
// (a key deleted there), and those of the buckets b is nested in (b
// dropped with them).
func (t *etcdKV) readRange(b bucket, lo, hi string) {
	if !t.write {
		return
	}
	t.reads.ranges[[2]string{lo, hi}] = true
	t.reads.markTrees[t.e.deletedMark(b)] = true
	for i := 1; i < len(b); i++ {
		t.reads.marks[t.e.deletedMark(b[:i])] = true
	}
}

// dropped reports whether key lies in a bucket this transaction dropped.
func (t *etcdKV) dropped(key string) bool {
	for _, p := range t.drops {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// value is key's value as this transaction sees it: its own write, else
// nothing under a dropped bucket, else the snapshot's (read once).
func (t *etcdKV) value(key string) ([]byte, error) {
	if w, ok := t.writes[key]; ok {
		if w.del {
			return nil, nil
		}
		return w.v, nil
	}
	if t.dropped(key) {
		return nil, nil
	}
	if v, ok := t.cache[key]; ok {
		return v, nil
	}
	if v, mod, ok := t.fromMemory(key); ok {
		t.remember(key, v, mod)
		return v, nil
	}
	resp, err := t.read(key)
	if err != nil {
		return nil, err
	}
	var v []byte
	var mod int64
	if len(resp.Kvs) > 0 {
		v, mod = present(resp.Kvs[0].Value), resp.Kvs[0].ModRevision
	}
	t.remember(key, v, mod)
	return v, nil
}

// remember keeps what the transaction read of key at its snapshot: v
// (nil: missing) for its later reads, mod for its commit to compare.
func (t *etcdKV) remember(key string, v []byte, mod int64) {
	t.cache[key] = v
	t.reads.keys[key] = mod
}

// fromMemory is key's value and mod revision at the snapshot, from the
// mirror; ok is false where there is none or it cannot tell.
func (t *etcdKV) fromMemory(key string) (v []byte, mod int64, ok bool) {
	if t.mirror == nil {
		return nil, 0, false
	}
	t.snapshot()
	if t.rev == 0 {
		return nil, 0, false
	}
	return t.mirror.get(key, t.rev)
}

// present is a stored value, never nil: an empty one (an index entry)
// must not read as a missing key.
func present(v []byte) []byte {
	if v == nil {
		return []byte{}
	}
	return v
}

// capped is v with no room to append in place.
func capped(v []byte) []byte { return v[:len(v):len(v)] }

func (t *etcdKV) get(b bucket, k []byte) ([]byte, error) {
	return t.value(t.e.bucketPrefix(b) + string(k))
}

// getMany reads the keys not known yet in one etcd transaction of gets
// per MaxTxnOps keys, at the snapshot's revision.
func (t *etcdKV) getMany(b bucket, keys [][]byte) ([][]byte, error) {
	prefix := t.e.bucketPrefix(b)
	var missing []string
	for _, k := range keys {
		key := prefix + string(k)
		if _, ok := t.writes[key]; ok || t.dropped(key) {
			continue
		}
		if _, ok := t.cache[key]; ok {
			continue
		}
		if v, mod, ok := t.fromMemory(key); ok {
			t.remember(key, v, mod)
			continue
		}
		missing = append(missing, key)
	}
	for len(missing) > 0 {
		if t.err != nil {
			return nil, t.err
		}
		n := min(len(missing), t.e.opts.MaxTxnOps)
		var ops []clientv3.Op
		for _, key := range missing[:n] {
			var o []clientv3.OpOption
			if t.rev > 0 {
				o = append(o, clientv3.WithRev(t.rev))
			}
			ops = append(ops, clientv3.OpGet(key, o...))
		}
		ctx, cancel := t.e.reqCtx(t.ctx)
		t.e.requests.Add(1)
		resp, err := t.e.cli.Txn(ctx).Then(ops...).Commit()
		cancel()
		if err != nil {
			return nil, t.fail(err)
		}
		if t.rev == 0 {
			t.rev = resp.Header.Revision
		}
		for i, key := range missing[:n] {
			var v []byte
			var mod int64
			if kvs := resp.Responses[i].GetResponseRange().GetKvs(); len(kvs) > 0 {
				v, mod = present(kvs[0].Value), kvs[0].ModRevision
			}
			t.remember(key, v, mod)
		}
		missing = missing[n:]
	}
	out := make([][]byte, len(keys))
	for i, k := range keys {
		v, err := t.value(prefix + string(k))
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (t *etcdKV) put(b bucket, k, v []byte) error {
	if !t.write {
		return errViewWrite
	}
	t.writes[t.e.bucketPrefix(b)+string(k)] = etcdWrite{v: present(slices.Clone(v))}
	return nil
}

func (t *etcdKV) del(b bucket, k []byte) error {
	if !t.write {
		return errViewWrite
	}
	key := t.e.bucketPrefix(b) + string(k)
	if v, read := t.cache[key]; read && v == nil || t.dropped(key) {
		// Not in the snapshot: forgetting this transaction's own put is
		// the whole delete, and costs etcd no operation.
		delete(t.writes, key)
		return nil
	}
	t.writes[key] = etcdWrite{del: true}
	t.deleted[t.e.deletedMark(b)] = true
	return nil
}

func (t *etcdKV) drop(b bucket) error {
	if !t.write {
		return errViewWrite
	}
	p := t.e.bucketPrefix(b)
	for key := range t.writes {
		if strings.HasPrefix(key, p) {
			delete(t.writes, key)
		}
	}
	t.drops = append(t.drops, p)
	t.writes[t.e.seqKey(b)] = etcdWrite{del: true}
	t.deleted[t.e.deletedMark(b)] = true
	if len(b) > 1 {
		// The sequence lies in the parent's range.
		t.deleted[t.e.deletedMark(b[:len(b)-1])] = true
	}
	return nil
}

func (t *etcdKV) nextSeq(b bucket) (uint64, error) {
	if !t.write {
		return 0, errViewWrite
	}
	key := t.e.seqKey(b)
	v, err := t.value(key)
	if err != nil {
		return 0, err
	}
	var n uint64
	if v != nil {
		if n, err = strconv.ParseUint(string(v), 10, 64); err != nil {
			return 0, fmt.Errorf("sequence %s is %q, not a number: %w", key, v, ErrCorrupt)
		}
	}
	n++
	t.writes[key] = etcdWrite{v: []byte(strconv.FormatUint(n, 10))}
	return n, nil
}

func (t *etcdKV) children(b bucket) ([]string, error) {
	seen := map[string]bool{}
	it := t.scan(b, scanOpts{keysOnly: true})
	for {
		k, _, err := it.next()
		if err != nil {
			return nil, err
		}
		if k == nil {
			break
		}
		name, _, _ := strings.Cut(string(k), "/")
		seen[unescapeName.Replace(name)] = true
	}
	return slices.Sorted(func(yield func(string) bool) {
		for n := range seen {
			if !yield(n) {
				return
			}
		}
	}), nil
}

// The first page of a scan, and the largest one read ascending. etcd
// (up to 3.5 at least) reads a whole range to sort it descending, so
// descending pages grow without bound: a walk to the start reads the range
// a few times, not once per page.
const (
	firstPage = 64
	maxPage   = 512
)

func (t *etcdKV) scan(b bucket, o scanOpts) iterator {
	p := t.e.bucketPrefix(b)
	it := &etcdIterator{t: t, prefix: p, lo: p, hi: clientv3.GetPrefixRangeEnd(p), o: o, size: firstPage, more: true}
	if o.from != nil {
		it.lo = p + string(o.from)
	}
	if o.hint > 0 {
		it.size = o.hint
	}
	if t.dropped(p) {
		it.more = false
	} else {
		t.readRange(b, it.lo, it.hi)
	}
	for key, w := range t.writes {
		if !w.del && key >= it.lo && key < it.hi {
			it.own = append(it.own, key)
		}
	}
	slices.Sort(it.own)
	if o.desc {
		slices.Reverse(it.own)
	}
	return it
}

// etcdIterator merges the snapshot's keys, read a page at a time, with
// the transaction's own writes.
type etcdIterator struct {
	t      *etcdKV
	prefix string
	lo, hi string // what is still to read from etcd: [lo, hi)
	o      scanOpts
	size   int
	more   bool // etcd may hold more in [lo, hi)
	page   []*mvccpb.KeyValue
	own    []string // keys this transaction wrote in the range, in scan order
}

func (it *etcdIterator) next() ([]byte, []byte, error) {
	kv, err := it.peek()
	if err != nil {
		return nil, nil, err
	}
	switch {
	case kv == nil && len(it.own) == 0:
		return nil, nil, nil
	case kv == nil || len(it.own) > 0 && (string(kv.Key) > it.own[0]) != it.o.desc:
		key := it.own[0]
		it.own = it.own[1:]
		return []byte(key[len(it.prefix):]), it.t.writes[key].v, nil
	}
	it.page = it.page[1:]
	// Capped: a page from the mirror is shared with other transactions,
	// and an append must copy, not write past the end.
	key := kv.Key[len(it.prefix):len(kv.Key):len(kv.Key)]
	if it.o.keysOnly {
		return key, nil, nil
	}
	return key, capped(present(kv.Value)), nil
}

// peek returns the next key from etcd that this transaction did not
// write or drop, reading pages as needed; nil at the end.
func (it *etcdIterator) peek() (*mvccpb.KeyValue, error) {
	for {
		for len(it.page) > 0 {
			kv := it.page[0]
			key := string(kv.Key)
			if _, own := it.t.writes[key]; !own && !it.t.dropped(key) {
				return kv, nil
			}
			it.page = it.page[1:]
		}
		if !it.more {
			return nil, nil
		}
		opts := []clientv3.OpOption{clientv3.WithRange(it.hi), clientv3.WithLimit(int64(it.size))}
		if it.o.desc {
			opts = append(opts, clientv3.WithSort(clientv3.SortByKey, clientv3.SortDescend))
		}
		if it.o.keysOnly {
			opts = append(opts, clientv3.WithKeysOnly())
		}
		if kvs, more, ok := it.fromMemory(); ok {
			it.page, it.more = kvs, more
		} else {
			resp, err := it.t.read(it.lo, opts...)
			if err != nil {
				return nil, err
			}
			it.page, it.more = resp.Kvs, resp.More
		}
		if n := len(it.page); n > 0 {
			if it.o.desc {
				it.hi = string(it.page[n-1].Key)
				it.size *= 4
			} else {
				it.lo = string(it.page[n-1].Key) + "\x00"
				it.size = min(it.size*4, maxPage)
			}
		} else {
			it.more = false
		}
	}
}

// fromMemory is the iterator's next page from the mirror; ok is false
// where there is none or it cannot tell.
func (it *etcdIterator) fromMemory() ([]*mvccpb.KeyValue, bool, bool) {
	t := it.t
	if t.mirror == nil || t.err != nil {
		return nil, false, false
	}
	t.snapshot()
	if t.rev == 0 {
		return nil, false, false
	}
	return t.mirror.page(it.lo, it.hi, t.rev, it.size, it.o.desc)
}

// commit sends the transaction's writes in one etcd transaction that
// holds only if what the transaction read is still so (etcdReads) and
// the store was not replaced since it was opened. It returns false,
// writing nothing, when another committed a write to it first.
func (t *etcdKV) commit() (bool, error) {
	if len(t.writes) == 0 && len(t.drops) == 0 {
		return true, nil
	}
	if t.rev == 0 { // blind writes: the snapshot is now
		if _, err := t.read(t.e.key(etcdTxnKey), clientv3.WithKeysOnly()); err != nil {
			return false, err
		}
	}
	ops, size, err := t.ops()
	if err != nil {
		return false, err
	}
	for _, mark := range slices.Sorted(maps.Keys(t.deleted)) {
		ops = append(ops, clientv3.OpPut(mark, ""))
		size += len(mark) + etcdOpBytes
	}
	token := randomToken()
	if t.e.watchers.Load() > 0 {
		t.e.own.add(token)
	}
	txnKey, versionKey := t.e.key(etcdTxnKey), t.e.key(etcdVersionKey)
	ops = append(ops, clientv3.OpPut(txnKey, token))
	size += len(txnKey) + len(token) + etcdOpBytes
	cmps := []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(versionKey), "=", t.e.epoch.Load()), t.e.unfenced(token)}
	size += len(versionKey) + len(t.e.key(etcdLostKey)) + len(token) + 2*etcdOpBytes
	orElse := []clientv3.Op{clientv3.OpGet(versionKey)}
	if f := t.fence; f != nil {
		cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(f.Key), "=", f.CreateRevision))
		size += len(f.Key) + etcdOpBytes
		orElse = append(orElse, clientv3.OpGet(f.Key, clientv3.WithKeysOnly()))
	}
	reads, readSize := t.reads.compares(t.rev)
	if len(cmps)+len(reads) > t.e.opts.MaxTxnOps || size+readSize > t.e.opts.MaxRequestBytes-512 {
		// Too many to compare one by one: nothing committed since the snapshot.
		reads, readSize = []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(txnKey), "<", t.rev+1)}, len(txnKey)+etcdOpBytes
	}
	cmps = append(cmps, reads...)
	size += readSize
	if err := t.e.fits(len(ops), size, len(t.writes)); err != nil {
		return false, err
	}
	// The commit goes on when the caller gives up now: its outcome must
	// be known, not left to a cancelled request.
	ctx, cancel := t.e.reqCtx(context.WithoutCancel(t.ctx))
	defer cancel()
	t.e.requests.Add(1)
	resp, err := t.e.cli.Txn(ctx).If(cmps...).Then(ops...).Else(orElse...).Commit()
	switch {
	case errors.Is(err, rpctypes.ErrTooManyOps), errors.Is(err, rpctypes.ErrRequestTooLarge):
		return false, fmt.Errorf("%w: %d keys written, %d bytes: %v (raise the etcd options max_txn_ops / max_request_bytes to the cluster's)", ErrTooLarge, len(t.writes), size, err)
	case err != nil:
		return t.e.resolve(t.rev, token, err)
	case resp.Succeeded:
		if t.mirror != nil {
			t.mirror.committed(resp.Header.Revision, t, token)
		}
		t.e.noteCommit(resp.Header.Revision)
		return true, nil
	}
	if f := t.fence; f != nil {
		if kvs := resp.Responses[1].GetResponseRange().GetKvs(); len(kvs) == 0 || kvs[0].CreateRevision != f.CreateRevision {
			return false, fmt.Errorf("%w: %s is no longer the key created at revision %d", ErrFenced, f.Key, f.CreateRevision)
		}
	}
	if kvs := resp.Responses[0].GetResponseRange().GetKvs(); len(kvs) == 0 || kvs[0].ModRevision != t.e.epoch.Load() {
		return false, fmt.Errorf("%w (restored or migrated into): open it again", ErrReplaced)
	}
	return false, nil
}

// noteCommit records rev as this process's newest commit, if it is.
func (e *Etcd) noteCommit(rev int64) {
	for {
		old := e.committed.Load()
		if rev <= old || e.committed.CompareAndSwap(old, rev) {
			return
		}
	}
}

// compares are the conditions that what was read at rev is still so,
// and about how many bytes they add to the request.
func (r etcdReads) compares(rev int64) ([]clientv3.Cmp, int) {
	var cmps []clientv3.Cmp
	size := 0
	for _, key := range slices.Sorted(maps.Keys(r.keys)) {
		cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(key), "=", r.keys[key]))
		size += len(key) + etcdOpBytes
	}
	for _, rg := range slices.SortedFunc(maps.Keys(r.ranges), func(a, b [2]string) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) }) {
		cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(rg[0]), "<", rev+1).WithRange(rg[1]))
		size += len(rg[0]) + len(rg[1]) + etcdOpBytes
	}
	for _, mark := range slices.Sorted(maps.Keys(r.marks)) {
		cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(mark), "<", rev+1))
		size += len(mark) + etcdOpBytes
	}
	for _, mark := range slices.Sorted(maps.Keys(r.markTrees)) {
		cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(mark), "<", rev+1).WithPrefix())
		size += 2*len(mark) + etcdOpBytes
	}
	return cmps, size
}

// etcdOpBytes is a generous bound on what one operation of a transaction
// adds to the request beyond its key and value.
const etcdOpBytes = 24

// ops turns the writes into etcd operations, and says how large they are.
// A dropped bucket is one range delete, unless the transaction writes
// into it again: etcd refuses a put inside a range the same transaction
// deletes, so its old keys are deleted one by one then.
func (t *etcdKV) ops() ([]clientv3.Op, int, error) {
	var ops []clientv3.Op
	size := 0
	var ranged []string
	for _, p := range slices.Compact(slices.Sorted(slices.Values(t.drops))) {
		if slices.ContainsFunc(ranged, func(q string) bool { return strings.HasPrefix(p, q) }) {
			continue
		}
		rewritten := false
		for key, w := range t.writes {
			rewritten = rewritten || !w.del && strings.HasPrefix(key, p)
		}
		if !rewritten {
			ops = append(ops, clientv3.OpDelete(p, clientv3.WithPrefix()))
			size += 2*len(p) + etcdOpBytes
			ranged = append(ranged, p)
			continue
		}
		old, err := t.keysUnder(p)
		if err != nil {
			return nil, 0, err
		}
		for _, key := range old {
			if _, own := t.writes[key]; !own {
				ops = append(ops, clientv3.OpDelete(key))
				size += len(key) + etcdOpBytes
			}
		}
	}
	for _, key := range slices.Sorted(func(yield func(string) bool) {
		for k := range t.writes {
			if !yield(k) {
				return
			}
		}
	}) {
		w := t.writes[key]
		switch {
		case !w.del:
			ops = append(ops, clientv3.OpPut(key, string(w.v)))
			size += len(key) + len(w.v) + etcdOpBytes
		case !slices.ContainsFunc(ranged, func(p string) bool { return strings.HasPrefix(key, p) }):
			ops = append(ops, clientv3.OpDelete(key))
			size += len(key) + etcdOpBytes
		}
	}
	return ops, size, nil
}

// keysUnder lists the snapshot's keys that start with p, a bucket's
// prefix: all of them must be deleted, none added since.
func (t *etcdKV) keysUnder(p string) ([]string, error) {
	var out []string
	lo, hi := p, clientv3.GetPrefixRangeEnd(p)
	if b, _, _, ok := t.e.parseKey(p); ok {
		t.readRange(b, lo, hi)
	}
	for {
		resp, err := t.read(lo, clientv3.WithRange(hi), clientv3.WithKeysOnly(), clientv3.WithLimit(maxPage))
		if err != nil {
			return nil, err
		}
		for _, kv := range resp.Kvs {
			out = append(out, string(kv.Key))
		}
		if !resp.More || len(resp.Kvs) == 0 {
			return out, nil
		}
		lo = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
}

// fits fails with ErrTooLarge when a transaction of ops operations and
// about size bytes exceeds what the cluster takes in one request.
func (e *Etcd) fits(ops, size, keys int) error {
	// The compares and the request's own framing.
	size += 2*(len(e.key(etcdTxnKey))+etcdOpBytes) + 256
	switch {
	case ops > e.opts.MaxTxnOps:
		return fmt.Errorf("%w: it writes %d keys in %d operations, and etcd takes at most %d operations in one transaction (max_txn_ops; etcd's --max-txn-ops)",
			ErrTooLarge, keys, ops, e.opts.MaxTxnOps)
	case size > e.opts.MaxRequestBytes:
		return fmt.Errorf("%w: it writes %d keys, about %d bytes, and etcd takes at most %d bytes in one request (max_request_bytes; etcd's --max-request-bytes)",
			ErrTooLarge, keys, size, e.opts.MaxRequestBytes)
	}
	return nil
}

// etcdLostKey is where a commit whose answer was lost is fenced off: a
// key named by its token, which every commit compares absent (unfenced).
const etcdLostKey = "lost/"

// lostFenceTTL is how long a lost commit's fence stays: far longer than
// etcd keeps a request it has not applied yet.
const lostFenceTTL = 3600 // seconds

// unfenced is the compare of every commit that its token was not fenced
// off by a lookup of its outcome (resolve).
func (e *Etcd) unfenced(token string) clientv3.Cmp {
	return clientv3.Compare(clientv3.CreateRevision(e.key(etcdLostKey+token)), "=", 0)
}

// resolve finds out whether a commit whose request failed (cause) was
// applied: it fences the commit's token off, so that the lost request can
// no longer apply, and writes the Update counter, then reads the counter's
// history since the snapshot rev for the commit's token. It returns true
// only if the commit is found.
func (e *Etcd) resolve(rev int64, token string, cause error) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), e.opts.RequestTimeout)
	defer cancel()
	unknown := func(err error) (bool, error) {
		return false, fmt.Errorf("commit outcome unknown: %w (and finding out failed: %v)", e.unreachable(cause, e.opts.RequestTimeout), err)
	}
	key := e.key(etcdTxnKey)
	lease, err := e.cli.Grant(ctx, lostFenceTTL)
	if err != nil {
		return unknown(err)
	}
	fence, err := e.cli.Txn(ctx).Then(clientv3.OpPut(e.key(etcdLostKey+token), "", clientv3.WithLease(lease.ID)),
		clientv3.OpPut(key, "fence-"+token)).Commit()
	if err != nil {
		return unknown(err)
	}
	w := e.cli.Watch(clientv3.WithRequireLeader(ctx), key, clientv3.WithRev(rev+1))
	for resp := range w {
		if err := resp.Err(); err != nil {
			return unknown(err)
		}
		for _, ev := range resp.Events {
			if string(ev.Kv.Value) == token {
				return true, nil
			}
			if ev.Kv.ModRevision >= fence.Header.Revision {
				return false, fmt.Errorf("not committed: %w", e.unreachable(cause, e.opts.RequestTimeout))
			}
		}
	}
	return unknown(ctx.Err())
}

// randomToken names one commit in the Update counter.
func randomToken() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
