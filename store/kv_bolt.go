package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// boltKV is kv over one bbolt transaction: buckets are bbolt's own. In a
// View, bbolt refuses every write.
type boltKV struct{ tx *bolt.Tx }

// newBoltRecords is the Tx of one bbolt transaction.
func newBoltRecords(tx *bolt.Tx) *records { return newRecords(boltKV{tx}) }

// bucket finds b, creating its nested buckets when create is set; nil
// when it does not exist (and create is not set). Migrations create
// every top-level bucket, so a missing one means a damaged file, reported
// instead of a nil dereference.
func (k boltKV) bucket(b bucket, create bool) (*bolt.Bucket, error) {
	bk := k.tx.Bucket([]byte(b[0]))
	if bk == nil {
		return nil, fmt.Errorf("store has no %s bucket (damaged file?)", b[0])
	}
	for _, name := range b[1:] {
		if !create {
			if bk = bk.Bucket([]byte(name)); bk == nil {
				return nil, nil
			}
			continue
		}
		next, err := bk.CreateBucketIfNotExists([]byte(name))
		if err != nil {
			return nil, err
		}
		bk = next
	}
	return bk, nil
}

func (k boltKV) get(b bucket, key []byte) ([]byte, error) {
	bk, err := k.bucket(b, false)
	if err != nil || bk == nil {
		return nil, err
	}
	return bk.Get(key), nil
}

func (k boltKV) getMany(b bucket, keys [][]byte) ([][]byte, error) {
	bk, err := k.bucket(b, false)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(keys))
	if bk != nil {
		for i, key := range keys {
			out[i] = bk.Get(key)
		}
	}
	return out, nil
}

func (k boltKV) put(b bucket, key, v []byte) error {
	bk, err := k.bucket(b, true)
	if err != nil {
		return err
	}
	return bk.Put(key, v)
}

func (k boltKV) del(b bucket, key []byte) error {
	bk, err := k.bucket(b, false)
	if err != nil || bk == nil {
		return err
	}
	return bk.Delete(key)
}

func (k boltKV) scan(b bucket, o scanOpts) iterator {
	bk, err := k.bucket(b, false)
	if err != nil {
		return errIterator{err}
	}
	it := &boltIterator{o: o}
	if bk != nil {
		it.c = bk.Cursor()
	}
	return it
}

func (k boltKV) children(b bucket) ([]string, error) {
	bk, err := k.bucket(b, false)
	if err != nil || bk == nil {
		return nil, err
	}
	var out []string
	err = bk.ForEachBucket(func(name []byte) error {
		out = append(out, string(name))
		return nil
	})
	return out, err
}

func (k boltKV) drop(b bucket) error {
	if len(b) < 2 {
		return needBucket(b)
	}
	parent, err := k.bucket(b[:len(b)-1], false)
	if err != nil || parent == nil || parent.Bucket([]byte(b[len(b)-1])) == nil {
		return err
	}
	return parent.DeleteBucket([]byte(b[len(b)-1]))
}

func (k boltKV) nextSeq(b bucket) (uint64, error) {
	bk, err := k.bucket(b, true)
	if err != nil {
		return 0, err
	}
	return bk.NextSequence()
}

// boltIterator walks a bbolt cursor; a nil cursor is an empty bucket.
type boltIterator struct {
	c       *bolt.Cursor
	o       scanOpts
	started bool
}

func (it *boltIterator) next() ([]byte, []byte, error) {
	if it.c == nil {
		return nil, nil, nil
	}
	var k, v []byte
	switch {
	case it.started && it.o.desc:
		k, v = it.c.Prev()
	case it.started:
		k, v = it.c.Next()
	case it.o.desc:
		k, v = it.c.Last()
	case it.o.from != nil:
		k, v = it.c.Seek(it.o.from)
	default:
		k, v = it.c.First()
	}
	it.started = true
	return k, v, nil
}
