package store

import (
	"errors"
	"fmt"
)

// The record families are written once, over kv: one transaction of a
// backend seen the way bbolt shows a store, as buckets of keys in byte
// order. bbolt is that already (kv_bolt.go); etcd lays the buckets out as
// key prefixes (kv_etcd.go). What a family may hold, its indexes and its
// rules live in records and its methods, for every backend alike.

// bucket names a bucket by its path: a top-level bucket of layout, then
// the names of the buckets nested in it (specs/<job id>).
type bucket []string

// in is the bucket path top/nested….
func in(top []byte, nested ...string) bucket {
	return append(bucket{string(top)}, nested...)
}

// kv is one transaction of a backend. A bucket that holds nothing (no
// key, no sequence) is the same as no bucket: reads find nothing in it,
// and the first write makes it. Values returned stay valid until the
// transaction ends or writes them.
type kv interface {
	// get returns the value of k in b, nil if there is none.
	get(b bucket, k []byte) ([]byte, error)
	// getMany returns the values of keys in b, nil for each missing one.
	getMany(b bucket, keys [][]byte) ([][]byte, error)
	put(b bucket, k, v []byte) error
	// del deletes k from b; a missing key is no error.
	del(b bucket, k []byte) error
	// scan walks the keys of b in order (scanOpts).
	scan(b bucket, o scanOpts) iterator
	// children returns the names of the buckets nested in b, in byte order.
	children(b bucket) ([]string, error)
	// drop deletes b with its keys, its sequence and its nested buckets.
	drop(b bucket) error
	// nextSeq increments b's sequence and returns it: 1 for the first.
	nextSeq(b bucket) (uint64, error)
}

// scanOpts say where a scan starts and what it returns.
type scanOpts struct {
	// from is the first key (the first one ≥ from), nil for the first of
	// the bucket; with desc the scan starts at the last key, and from must
	// be nil.
	from []byte
	desc bool
	// keysOnly leaves values nil where a backend can spare reading them.
	keysOnly bool
	// hint is how many keys the caller expects to read (0: unknown), so
	// that a backend that reads in pages sizes its first one.
	hint int
}

// iterator is a scan under way. next returns k == nil at the end.
type iterator interface {
	next() (k, v []byte, err error)
}

// errIterator is a scan that fails at once.
type errIterator struct{ err error }

func (e errIterator) next() ([]byte, []byte, error) { return nil, nil, e.err }

// errTxDone reports the use of a transaction after its View or Update returned.
var errTxDone = errors.New("transaction already ended (a ReadTx or Tx must not outlive its View or Update)")

// txn is one kv transaction as the record families use it: the kv calls,
// refused once the transaction has ended.
type txn struct {
	kv   kv
	done bool
	// jobs are the store's decoded jobs (nil: decode every time).
	jobs *jobCache
}

// records implements Tx over one kv transaction, for every backend: each
// family is a type of its own over the transaction (jobRecords,
// commandRecords, …), as store.go's interfaces are. In a View, the backend
// refuses the writing methods.
type records struct {
	*txn
	jobRecords
	commandRecords
	restorePointRecords
	auditRecords
	alertRecords
	projectRecords
	catalogRecords
	udfRecords
	teamRecords
}

// The record families, each over the transaction.
type (
	jobRecords          struct{ *txn }
	commandRecords      struct{ *txn }
	restorePointRecords struct{ *txn }
	auditRecords        struct{ *txn }
	alertRecords        struct{ *txn }
	projectRecords      struct{ *txn }
	catalogRecords      struct{ *txn }
	udfRecords          struct{ *txn }
	teamRecords         struct{ *txn }
)

var (
	_ Tx              = (*records)(nil)
	_ JobsTx          = jobRecords{}
	_ CommandsTx      = commandRecords{}
	_ RestorePointsTx = restorePointRecords{}
	_ AuditTx         = auditRecords{}
	_ AlertsTx        = alertRecords{}
	_ ProjectsTx      = projectRecords{}
	_ CatalogTx       = catalogRecords{}
	_ UDFsTx          = udfRecords{}
	_ TeamsTx         = teamRecords{}
)

func newRecords(k kv) *records {
	t := &txn{kv: k}
	return &records{txn: t, jobRecords: jobRecords{t}, commandRecords: commandRecords{t}, restorePointRecords: restorePointRecords{t},
		auditRecords: auditRecords{t}, alertRecords: alertRecords{t}, projectRecords: projectRecords{t},
		catalogRecords: catalogRecords{t}, udfRecords: udfRecords{t}, teamRecords: teamRecords{t}}
}

func (t *txn) close() { t.done = true }

// The kv calls, refused once the transaction has ended.

func (t *txn) get(b bucket, k []byte) ([]byte, error) {
	if t.done {
		return nil, errTxDone
	}
	return t.kv.get(b, k)
}

func (t *txn) getMany(b bucket, keys [][]byte) ([][]byte, error) {
	if t.done {
		return nil, errTxDone
	}
	return t.kv.getMany(b, keys)
}

func (t *txn) put(b bucket, k, v []byte) error {
	if t.done {
		return errTxDone
	}
	return t.kv.put(b, k, v)
}

func (t *txn) del(b bucket, k []byte) error {
	if t.done {
		return errTxDone
	}
	return t.kv.del(b, k)
}

func (t *txn) scan(b bucket, o scanOpts) iterator {
	if t.done {
		return errIterator{errTxDone}
	}
	return t.kv.scan(b, o)
}

func (t *txn) children(b bucket) ([]string, error) {
	if t.done {
		return nil, errTxDone
	}
	return t.kv.children(b)
}

func (t *txn) drop(b bucket) error {
	if t.done {
		return errTxDone
	}
	return t.kv.drop(b)
}

func (t *txn) nextSeq(b bucket) (uint64, error) {
	if t.done {
		return 0, errTxDone
	}
	return t.kv.nextSeq(b)
}

// each decodes every record of b in order and hands it to fn.
func each[T any](t *txn, b bucket, what string, fn func(k []byte, rec T) error) error {
	it := t.scan(b, scanOpts{})
	for {
		k, v, err := it.next()
		if err != nil || k == nil {
			return err
		}
		rec, err := decode[T](what, k, v)
		if err != nil {
			return err
		}
		if err := fn(k, rec); err != nil {
			return err
		}
	}
}

// all decodes every record of b, in order; none is an empty list.
func all[T any](t *txn, b bucket, what string) ([]T, error) {
	out := []T{}
	err := each(t, b, what, func(_ []byte, rec T) error {
		out = append(out, rec)
		return nil
	})
	return out, err
}

// last decodes the last record of b; found is false when b is empty.
func last[T any](t *txn, b bucket, what string) (rec T, found bool, err error) {
	k, v, err := t.scan(b, scanOpts{desc: true, hint: 1}).next()
	if err != nil || k == nil {
		return rec, false, err
	}
	rec, err = decode[T](what, k, v)
	return rec, err == nil, err
}

// layout is every top-level bucket of schema SchemaVersion, with how many
// levels of buckets nest in it (doc.go): specs/<job id> is one level,
// catalog/<cluster>/<name> two. A backend that keeps buckets as key
// prefixes reads its keys back into buckets by it.
var layout = []struct {
	name   []byte
	nested int
}{
	{bucketMeta, 0},
	{bucketJobs, 0},
	{bucketJobNames, 0},
	{bucketSpecs, 1},
	{bucketCommands, 0},
	{bucketCommandsByState, 1},
	{bucketCommandsByJob, 1},
	{bucketEvents, 1},
	{bucketRestorePoints, 1},
	{bucketRestorePointPaths, 1},
	{bucketAudit, 0},
	{bucketAlerts, 0},
	{bucketExceptions, 1},
	{bucketProjects, 0},
	{bucketArtifacts, 1},
	{bucketCatalog, 2},
	{bucketVars, 1},
	{bucketUDFs, 0},
	{bucketTeams, 0},
}

// nestedLevels returns how many levels of buckets nest in the top-level
// bucket name; ok is false for a name that is no bucket of layout.
func nestedLevels(name string) (int, bool) {
	for _, l := range layout {
		if string(l.name) == name {
			return l.nested, true
		}
	}
	return 0, false
}

// needBucket is the error of a bucket path that does not fit layout: a
// bug in the record code, never a user's doing.
func needBucket(b bucket) error {
	return fmt.Errorf("bucket %v does not fit the store's layout", []string(b))
}
