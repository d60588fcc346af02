package store

import (
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// SchemaVersion is the layout this palink reads and writes (doc.go). Adding
// a migration step raises it; a test checks that it matches the step list.
const SchemaVersion = 9

// migration turns a store of version to-1 into version to.
type migration struct {
	to   int
	what string // for error messages: "migrate … to schema 2 (what)"
	run  func(tx *bolt.Tx) error
}

// migrations are the forward steps, in order. Never edit a shipped step:
// stores in the field were migrated by it; add the next one instead, and
// keep the previous version's fixture (doc.go) to test it from.
var migrations = []migration{
	{to: 1, what: "add the name, command and restore point indexes", run: migrateTo1},
	{to: 2, what: "add the alerts bucket", run: migrateTo2},
	{to: 3, what: "mint the store id", run: migrateTo3},
	{to: 4, what: "add the exceptions bucket", run: migrateTo4},
	{to: 5, what: "add the projects and artifacts buckets", run: migrateTo5},
	{to: 6, what: "add the catalog and variables buckets", run: migrateTo6},
	{to: 7, what: "add the UDF registry bucket", run: migrateTo7},
	{to: 8, what: "forget the checkpoints Flink subsumed", run: migrateTo8},
	{to: 9, what: "add the teams bucket", run: migrateTo9},
}

// prepareSchema brings a freshly opened store to SchemaVersion, or fails if
// it cannot: newer than this binary, or older and open read-only. It then
// reads the store id.
func (b *Bolt) prepareSchema() error {
	var v int
	err := b.db.View(func(tx *bolt.Tx) (err error) {
		v, err = readVersion(tx)
		return err
	})
	switch {
	case err != nil:
		return err
	case v > SchemaVersion:
		return newerSchemaError(v, SchemaVersion)
	case v < SchemaVersion && b.readOnly:
		return &sentinelError{
			msg: fmt.Sprintf("store schema %d is older than this palink (%d); open it once without --read-only to upgrade it", v, SchemaVersion),
			is:  ErrSchema,
		}
	case v < SchemaVersion:
		if err := b.db.Update(func(tx *bolt.Tx) error { return migrate(tx, migrations) }); err != nil {
			return err
		}
	}
	return b.db.View(func(tx *bolt.Tx) error {
		id := readStoreID(tx)
		if !validStoreID(id) {
			return damaged("open", b.path, fmt.Sprintf("its %s is %q, not 12 lowercase hex characters", keyStoreID, id))
		}
		b.id = id
		return nil
	})
}

// readStoreID returns meta/store_id, "" if there is none (before schema 3).
func readStoreID(tx *bolt.Tx) string {
	if meta := tx.Bucket(bucketMeta); meta != nil {
		return string(meta.Get(keyStoreID))
	}
	return ""
}

func newerSchemaError(found, known int) error {
	return &sentinelError{
		msg: fmt.Sprintf("store schema %d is newer than this palink (%d); upgrade palink", found, known),
		is:  ErrSchema,
	}
}

// migrate runs, in tx, every step whose target is above the store's version,
// then records the last one. The caller's single transaction makes the whole
// chain atomic.
func migrate(tx *bolt.Tx, steps []migration) error {
	v, err := readVersion(tx)
	if err != nil {
		return err
	}
	known := 0
	if len(steps) > 0 {
		known = steps[len(steps)-1].to
	}
	if v > known {
		return newerSchemaError(v, known)
	}
	for _, s := range steps {
		if s.to <= v {
			continue
		}
		if s.to != v+1 {
			return fmt.Errorf("migrate store: no step from schema %d to %d", v, s.to)
		}
		if err := s.run(tx); err != nil {
			return fmt.Errorf("migrate store from schema %d to %d (%s): %w", v, s.to, s.what, err)
		}
		v = s.to
	}
	return writeVersion(tx, v)
}

// readVersion returns the store's schema version; a store without meta is 0.
func readVersion(tx *bolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return 0, nil
	}
	raw := meta.Get(keyVersion)
	if raw == nil {
		return 0, fmt.Errorf("read schema version: meta bucket has no %q key (damaged file?)", keyVersion)
	}
	v, err := strconv.Atoi(string(raw))
	if err != nil || v < 0 {
		return 0, fmt.Errorf("read schema version: %q is not a version (damaged file?)", raw)
	}
	return v, nil
}

func writeVersion(tx *bolt.Tx, v int) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return fmt.Errorf("write schema version %d: %w", v, err)
	}
	if err := meta.Put(keyVersion, []byte(strconv.Itoa(v))); err != nil {
		return fmt.Errorf("write schema version %d: %w", v, err)
	}
	return nil
}

// migrateTo1 turns schema 0 (the primary buckets alone, or nothing at all
// for a new file) into schema 1 by creating every bucket and deriving the
// indexes from the records.
func migrateTo1(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketJobs, bucketJobNames, bucketSpecs, bucketCommands,
		bucketCommandsByState, bucketCommandsByJob, bucketEvents, bucketRestorePoints,
		bucketRestorePointPaths, bucketAudit} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	t := newBoltRecords(tx)
	defer t.close()

	names := tx.Bucket(bucketJobNames)
	err := tx.Bucket(bucketJobs).ForEach(func(k, v []byte) error {
		j, err := decode[model.Job]("job", k, v)
		if err != nil {
			return err
		}
		if other := names.Get([]byte(j.Name)); other != nil {
			return fmt.Errorf("jobs %s and %s are both named %q; rename one with the palink that wrote this store", other, k, j.Name)
		}
		return names.Put([]byte(j.Name), cloneBytes(k))
	})
	if err != nil {
		return fmt.Errorf("index job names: %w", err)
	}

	err = tx.Bucket(bucketCommands).ForEach(func(k, v []byte) error {
		c, err := decodeCommand(k, v)
		if err != nil {
			return err
		}
		return t.indexCommand(c)
	})
	if err != nil {
		return fmt.Errorf("index commands: %w", err)
	}

	paths := tx.Bucket(bucketRestorePointPaths)
	err = tx.Bucket(bucketRestorePoints).ForEachBucket(func(jobID []byte) error {
		byPath, err := paths.CreateBucketIfNotExists(jobID)
		if err != nil {
			return err
		}
		return tx.Bucket(bucketRestorePoints).Bucket(jobID).ForEach(func(k, v []byte) error {
			rp, err := decode[model.RestorePoint]("restore point", k, v)
			if err != nil {
				return err
			}
			if byPath.Get([]byte(rp.Path)) != nil {
				return fmt.Errorf("job %s records %s twice", jobID, rp.Path)
			}
			return byPath.Put([]byte(rp.Path), cloneBytes(k))
		})
	})
	if err != nil {
		return fmt.Errorf("index restore points: %w", err)
	}
	return nil
}

// migrateTo3 gives the store its identity: a store id, minted once, that
// YARN tags carry so that no other store takes this one's applications.
func migrateTo3(tx *bolt.Tx) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	if validStoreID(string(meta.Get(keyStoreID))) {
		return nil
	}
	return meta.Put(keyStoreID, []byte(newStoreID()))
}
