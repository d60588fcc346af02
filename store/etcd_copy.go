package store

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	bolt "go.etcd.io/bbolt"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Backups, restores and migrations of an etcd store go through one form:
// a bbolt store file, the one Bolt.Backup writes. So `palink store
// backup` of either backend writes a file that `palink store restore`
// puts back into either, `palink store check` checks an etcd store by
// checking such a copy, and a migration is a copy through one.

// rawEntry is one key of a store below the records: a record of bucket b
// (key and value), or b's sequence (key nil).
type rawEntry struct {
	b     bucket
	key   []byte
	value []byte
	seq   uint64
}

// walkBolt hands fn every record and every non-zero sequence of the
// buckets of layout in a bbolt store, bucket by bucket.
func walkBolt(tx *bolt.Tx, fn func(rawEntry) error) error {
	var walk func(bk *bolt.Bucket, b bucket) error
	walk = func(bk *bolt.Bucket, b bucket) error {
		if s := bk.Sequence(); s > 0 {
			if err := fn(rawEntry{b: b, seq: s}); err != nil {
				return err
			}
		}
		return bk.ForEach(func(k, v []byte) error {
			if child := bk.Bucket(k); child != nil {
				return walk(child, append(slices.Clip(b), string(k)))
			}
			return fn(rawEntry{b: b, key: k, value: v})
		})
	}
	for _, l := range layout {
		if bk := tx.Bucket(l.name); bk != nil {
			if err := walk(bk, bucket{string(l.name)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// entries hands fn every record and sequence of the store at revision
// rev (0: now), and returns the revision read.
func (e *Etcd) entries(ctx context.Context, rev int64, fn func(rawEntry) error) (int64, error) {
	lo, hi := e.url.Prefix, clientv3.GetPrefixRangeEnd(e.url.Prefix)
	for {
		opts := []clientv3.OpOption{clientv3.WithRange(hi), clientv3.WithLimit(maxPage)}
		if rev > 0 {
			opts = append(opts, clientv3.WithRev(rev))
		}
		rctx, cancel := e.reqCtx(ctx)
		resp, err := e.cli.Get(rctx, lo, opts...)
		cancel()
		if err != nil {
			return rev, fmt.Errorf("read store %s: %w", e.name, e.unreachable(err, e.opts.RequestTimeout))
		}
		rev = resp.Header.Revision
		for _, kv := range resp.Kvs {
			b, k, isSeq, ok := e.parseKey(string(kv.Key))
			switch {
			case !ok:
				continue // the Update counter, or keys not palink's records
			case isSeq:
				n, err := strconv.ParseUint(string(kv.Value), 10, 64)
				if err != nil {
					return rev, fmt.Errorf("read store %s: sequence %s is %q: %w", e.name, kv.Key, kv.Value, ErrCorrupt)
				}
				err = fn(rawEntry{b: b, seq: n})
				if err != nil {
					return rev, err
				}
			default:
				if err := fn(rawEntry{b: b, key: k, value: present(kv.Value)}); err != nil {
					return rev, err
				}
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			return rev, nil
		}
		lo = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
}

// writeBolt writes the store at revision rev (0: now) into a new bbolt
// store file at path and returns the revision written.
func (e *Etcd) writeBolt(ctx context.Context, path string, rev int64) (int64, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: DefaultLockTimeout})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		// Every bucket, and a schema version the records then overwrite.
		if err := migrate(tx, migrations); err != nil {
			return err
		}
		rev, err = e.entries(ctx, rev, func(x rawEntry) error {
			bk, err := boltKV{tx}.bucket(x.b, true)
			if err != nil {
				return err
			}
			if x.key == nil {
				return bk.SetSequence(x.seq)
			}
			return bk.Put(x.key, x.value)
		})
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("copy store %s into %s: %w", e.name, path, err)
	}
	return rev, nil
}

// Backup writes a consistent copy of the store, as of one revision, to w:
// a bbolt store file, the form Bolt.Backup writes, which Restore (for a
// file) and RestoreEtcd take back. It is made in a private temporary file
// first, since bbolt writes a file, not a stream.
func (e *Etcd) Backup(ctx context.Context, w io.Writer) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("back up store %s: %w", e.name, err)
	}
	dir, err := os.MkdirTemp("", "palink-backup-*")
	if err != nil {
		return 0, fmt.Errorf("back up store %s: %w", e.name, err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "palink.db")
	if _, err := e.writeBolt(ctx, path, 0); err != nil {
		return 0, fmt.Errorf("back up store %s: %w", e.name, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("back up store %s: %w", e.name, err)
	}
	defer f.Close()
	n, err := io.Copy(&ctxWriter{ctx: ctx, w: w}, f)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			err = cerr
		}
		return n, fmt.Errorf("back up store %s: %w", e.name, err)
	}
	return n, nil
}

// recordRanges are the key ranges of the store's records: each bucket of
// layout and its sequence, and the Update counter. Keys outside them
// under the prefix are not the store's records, and neither a restore nor
// a migration touches them.
func (e *Etcd) recordRanges() []clientv3.Op {
	var ops []clientv3.Op
	for _, l := range layout {
		b := bucket{string(l.name)}
		ops = append(ops, clientv3.OpDelete(e.bucketPrefix(b), clientv3.WithPrefix()), clientv3.OpDelete(e.seqKey(b)))
	}
	return append(ops, clientv3.OpDelete(e.key(etcdTxnKey)))
}

// recordCount counts the keys of the store's records, and names one.
func (e *Etcd) recordCount(ctx context.Context) (int64, string, error) {
	var ops []clientv3.Op
	for _, l := range layout {
		b := bucket{string(l.name)}
		ops = append(ops, clientv3.OpGet(e.bucketPrefix(b), clientv3.WithPrefix(), clientv3.WithKeysOnly(), clientv3.WithLimit(1)),
			clientv3.OpGet(e.seqKey(b), clientv3.WithKeysOnly()))
	}
	rctx, cancel := e.reqCtx(ctx)
	defer cancel()
	resp, err := e.cli.Txn(rctx).Then(ops...).Commit()
	if err != nil {
		return 0, "", e.unreachable(err, e.opts.RequestTimeout)
	}
	var n int64
	first := ""
	for _, r := range resp.Responses {
		rr := r.GetResponseRange()
		n += rr.GetCount()
		if first == "" && len(rr.GetKvs()) > 0 {
			first = string(rr.GetKvs()[0].Key)
		}
	}
	return n, first, nil
}

// load replaces the records under the prefix with those of the bbolt
// store tx, in transactions as large as the cluster takes. The schema
// version goes last: until it is written the prefix is no store, and a
// palink opening it says the copy did not finish. It returns the entries
// written.
func (e *Etcd) load(ctx context.Context, tx *bolt.Tx) (int, error) {
	rctx, cancel := e.reqCtx(ctx)
	_, err := e.cli.Txn(rctx).Then(e.recordRanges()...).Commit()
	cancel()
	if err != nil {
		return 0, e.unreachable(err, e.opts.RequestTimeout)
	}
	var batch []clientv3.Op
	size, n := 0, 0
	budget := e.opts.MaxRequestBytes - 1024
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		rctx, cancel := e.reqCtx(ctx)
		defer cancel()
		if _, err := e.cli.Txn(rctx).Then(batch...).Commit(); err != nil {
			return e.unreachable(err, e.opts.RequestTimeout)
		}
		batch, size = batch[:0], 0
		return nil
	}
	var version []byte
	err = walkBolt(tx, func(x rawEntry) error {
		key, value := e.seqKey(x.b), strconv.FormatUint(x.seq, 10)
		if x.key != nil {
			key, value = e.bucketPrefix(x.b)+string(x.key), string(x.value)
		}
		if key == e.key(etcdVersionKey) {
			version = slices.Clone(x.value)
			return nil
		}
		n++
		op := len(key) + len(value) + etcdOpBytes
		if op > budget {
			return fmt.Errorf("%w: %s is %d bytes, and etcd takes at most %d in one request (max_request_bytes)",
				ErrTooLarge, entryName(x), len(value), e.opts.MaxRequestBytes)
		}
		if len(batch)+1 > e.opts.MaxTxnOps || size+op > budget {
			if err := flush(); err != nil {
				return err
			}
		}
		batch = append(batch, clientv3.OpPut(key, value))
		size += op
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return n, err
	}
	if version == nil {
		return n, errors.New("the copy has no schema version: not a palink store")
	}
	rctx, cancel = e.reqCtx(ctx)
	defer cancel()
	_, err = e.cli.Txn(rctx).Then(clientv3.OpPut(e.key(etcdVersionKey), string(version)),
		clientv3.OpPut(e.key(etcdTxnKey), "restore")).Commit()
	if err != nil {
		return n, e.unreachable(err, e.opts.RequestTimeout)
	}
	return n + 1, nil
}

// RestoreEtcd replaces the store at an etcd URL with the backup in
// backupFile (a bbolt store file, as Backup writes it). The backup is
// checked first as Restore checks one. No palink should be using the
// store meanwhile: those that do are refused every write afterwards
// (ErrReplaced), and one that reads during the restore may see it half
// done. The old records are gone afterwards: take a Backup first to keep
// them.
func RestoreEtcd(backupFile, name string, opts Options) error {
	op := fmt.Sprintf("restore store %s from %s", name, backupFile)
	u, err := ParseEtcdURL(name)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := verifyBackup(backupFile); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	e, err := dialEtcd(u, opts.Etcd)
	if err != nil {
		return err
	}
	defer e.Close()
	db, err := bolt.Open(backupFile, 0o600, &bolt.Options{ReadOnly: true, Timeout: DefaultLockTimeout})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		_, err := e.load(context.Background(), tx)
		return err
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// RestoreStore replaces the store that name names (a file or an etcd
// URL) with a backup: Restore or RestoreEtcd.
func RestoreStore(backupFile, name string, opts Options) error {
	if IsEtcd(name) {
		return RestoreEtcd(backupFile, name, opts)
	}
	return Restore(backupFile, name)
}

// entryName names a raw entry for a person: its bucket path, then its key
// (a sequence number as #n, other binary keys in hex).
func entryName(x rawEntry) string {
	name := strings.Join(x.b, "/")
	if x.key == nil {
		return name + " (sequence)"
	}
	if len(x.key) == 8 {
		if n, err := keyU64(x.key); err == nil && n < 1<<32 {
			return fmt.Sprintf("%s #%d", name, n)
		}
	}
	for _, r := range string(x.key) {
		if !unicode.IsPrint(r) {
			return fmt.Sprintf("%s %x", name, x.key)
		}
	}
	return fmt.Sprintf("%s %q", name, x.key)
}

// digest is every entry of a store, by name, as a hash of its value.
type digest map[string]entryDigest

type entryDigest struct {
	name string
	sum  [32]byte
	seq  bool
}

func (d digest) add(x rawEntry) error {
	id := strings.Join(x.b, "\x00") + "\x01"
	v := x.value
	if x.key == nil {
		id += "seq"
		v = []byte(strconv.FormatUint(x.seq, 10))
	} else {
		id += "=" + string(x.key)
	}
	d[id] = entryDigest{name: entryName(x), sum: sha256.Sum256(v), seq: x.key == nil}
	return nil
}

// compareDigests lists how want and got differ, at most 10 lines, in
// the order of the entries' names.
func compareDigests(want, got digest, wantName, gotName string) []string {
	var diffs []string
	for _, id := range slices.Sorted(func(yield func(string) bool) {
		for id := range want {
			if !yield(id) {
				return
			}
		}
		for id := range got {
			if _, ok := want[id]; !ok && !yield(id) {
				return
			}
		}
	}) {
		w, inWant := want[id]
		g, inGot := got[id]
		switch {
		case !inGot:
			diffs = append(diffs, fmt.Sprintf("%s: missing in %s", w.name, gotName))
		case !inWant:
			diffs = append(diffs, fmt.Sprintf("%s: only in %s", g.name, gotName))
		case w.sum != g.sum:
			diffs = append(diffs, fmt.Sprintf("%s: differs between %s and %s", w.name, wantName, gotName))
		}
	}
	if len(diffs) > 10 {
		diffs = append(diffs[:10], fmt.Sprintf("… and %d more", len(diffs)-10))
	}
	return diffs
}

// boltDigest reads the digest of a bbolt store file.
func boltDigest(path string) (digest, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: DefaultLockTimeout})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer db.Close()
	d := digest{}
	err = guard("read", path, func() error {
		return db.View(func(tx *bolt.Tx) error { return walkBolt(tx, d.add) })
	})
	return d, err
}

// MigrateReport is what Migrate copied and compared.
type MigrateReport struct {
	From, To string
	// Records and Sequences count the entries copied and compared: every
	// record and index entry, and every bucket sequence.
	Records, Sequences int
	// Revision is the etcd revision a store on etcd was copied at.
	Revision int64
}

// Migrate copies the store from into to — each a bbolt file or an etcd
// URL — and compares them, entry by entry: every record, every index
// entry and every sequence (command seqs, spec versions, event seqs…),
// byte for byte, so that the copy is the same store (its id too: YARN
// tags name it). It copies one snapshot of from (a file is opened
// read-only, so no palink may write it meanwhile; an etcd store is read at
// one revision, and what agents write after it is not copied: stop them
// first). A destination that holds a store is refused unless force, and
// then replaced.
func Migrate(ctx context.Context, from, to string, opts Options, force bool) (MigrateReport, error) {
	rep := MigrateReport{From: from, To: to}
	op := fmt.Sprintf("migrate store %s to %s", from, to)
	if same(from, to) {
		return rep, fmt.Errorf("%s: the same store", op)
	}
	dir, err := os.MkdirTemp("", "palink-migrate-*")
	if err != nil {
		return rep, fmt.Errorf("%s: %w", op, err)
	}
	defer os.RemoveAll(dir)
	snap := filepath.Join(dir, "snapshot.db")

	// The destination first: refused before anything is read or written.
	var dest *Etcd
	if IsEtcd(to) {
		u, err := ParseEtcdURL(to)
		if err != nil {
			return rep, fmt.Errorf("%s: %w", op, err)
		}
		if dest, err = dialEtcd(u, opts.Etcd); err != nil {
			return rep, fmt.Errorf("%s: %w", op, err)
		}
		defer dest.Close()
		n, first, err := dest.recordCount(ctx)
		if err != nil {
			return rep, fmt.Errorf("%s: %w", op, err)
		}
		if n > 0 && !force {
			return rep, fmt.Errorf("%s: %s holds a store already (%d keys, such as %s): --force replaces it", op, to, n, first)
		}
	} else if _, err := os.Lstat(to); err == nil && !force {
		return rep, fmt.Errorf("%s: %s exists: --force replaces it", op, to)
	}

	// One snapshot of the source, as a bbolt file.
	source := digest{}
	if IsEtcd(from) {
		src, err := OpenEtcd(from, Options{ReadOnly: true, Etcd: opts.Etcd})
		if err != nil {
			return rep, fmt.Errorf("%s: %w", op, err)
		}
		defer src.Close()
		if rep.Revision, err = src.writeBolt(ctx, snap, 0); err != nil {
			return rep, fmt.Errorf("%s: %w", op, err)
		}
		if _, err := src.entries(ctx, rep.Revision, source.add); err != nil {
			return rep, fmt.Errorf("%s: %w", op, err)
		}
	} else {
		if err := snapshotFile(ctx, from, snap, opts.LockTimeout); err != nil {
			return rep, fmt.Errorf("%s: %w", op, err)
		}
	}
	copied, err := boltDigest(snap)
	if err != nil {
		return rep, fmt.Errorf("%s: %w", op, err)
	}
	if IsEtcd(from) {
		if diffs := compareDigests(source, copied, from, "its copy"); len(diffs) > 0 {
			return rep, fmt.Errorf("%s: the copy of %s at revision %d differs:\n%s", op, from, rep.Revision, strings.Join(diffs, "\n"))
		}
	}

	// Into the destination, then read back and compared.
	got := digest{}
	if dest != nil {
		db, err := bolt.Open(snap, 0o600, &bolt.Options{ReadOnly: true, Timeout: DefaultLockTimeout})
		if err != nil {
			return rep, fmt.Errorf("%s: %w", op, err)
		}
		err = db.View(func(tx *bolt.Tx) error { _, err := dest.load(ctx, tx); return err })
		db.Close()
		if err != nil {
			return rep, fmt.Errorf("%s: %w", op, err)
		}
		if _, err := dest.entries(ctx, 0, got.add); err != nil {
			return rep, fmt.Errorf("%s: %w", op, err)
		}
	} else {
		if err := Restore(snap, to); err != nil {
			return rep, fmt.Errorf("%s: %w", op, err)
		}
		if got, err = boltDigest(to); err != nil {
			return rep, fmt.Errorf("%s: %w", op, err)
		}
	}
	if diffs := compareDigests(copied, got, from, to); len(diffs) > 0 {
		return rep, fmt.Errorf("%s: %s differs from %s after the copy:\n%s", op, to, from, strings.Join(diffs, "\n"))
	}
	for _, d := range copied {
		if d.seq {
			rep.Sequences++
		} else {
			rep.Records++
		}
	}
	return rep, nil
}

// same reports whether two store names name one store.
func same(a, b string) bool {
	if IsEtcd(a) && IsEtcd(b) {
		ua, err1 := ParseEtcdURL(a)
		ub, err2 := ParseEtcdURL(b)
		return err1 == nil && err2 == nil && ua.Prefix == ub.Prefix && slices.Equal(ua.Endpoints, ub.Endpoints)
	}
	if IsEtcd(a) || IsEtcd(b) {
		return false
	}
	pa, err1 := filepath.Abs(a)
	pb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && pa == pb
}

// snapshotFile copies the bbolt store at path, opened read-only (waiting
// up to wait for a writer), into a new file at snap.
func snapshotFile(ctx context.Context, path, snap string, wait time.Duration) error {
	b, err := Open(path, Options{ReadOnly: true, LockTimeout: wait})
	if err != nil {
		if errors.Is(err, ErrLocked) {
			return fmt.Errorf("stop the palink that uses it first (an agent, a TUI): %w", err)
		}
		return err
	}
	defer b.Close()
	f, err := os.OpenFile(snap, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = b.Backup(ctx, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
