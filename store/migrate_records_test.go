package store

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestMigrateFromV0RefusesDamagedRecords: an old store whose records cannot
// be indexed fails to upgrade, says which record and why, and stays as it
// was (the whole chain is one transaction).
func TestMigrateFromV0RefusesDamagedRecords(t *testing.T) {
	firstRestorePoint := func(tx *bolt.Tx) (*bolt.Bucket, []byte) {
		b := tx.Bucket(bucketRestorePoints).Bucket([]byte("j-001"))
		k, v := b.Cursor().First()
		if k == nil {
			t.Fatal("the seeded store has no restore point of j-001")
		}
		return b, v
	}
	for _, tc := range []struct {
		name   string
		damage func(tx *bolt.Tx) error
		want   []string
	}{
		{"a job that does not decode", func(tx *bolt.Tx) error {
			return tx.Bucket(bucketJobs).Put([]byte("j-009"), []byte("{"))
		}, []string{"index job names", `decode job "j-009"`}},
		{"a command that does not decode", func(tx *bolt.Tx) error {
			return tx.Bucket(bucketCommands).Put([]byte("garbled"), []byte("[]"))
		}, []string{"index commands", `decode command "garbled"`}},
		{"a restore point that does not decode", func(tx *bolt.Tx) error {
			b, _ := firstRestorePoint(tx)
			return b.Put([]byte("zzz"), []byte("{"))
		}, []string{"index restore points", `decode restore point "zzz"`}},
		{"a restore point recorded twice", func(tx *bolt.Tx) error {
			b, v := firstRestorePoint(tx)
			return b.Put([]byte("zzz"), slices.Clone(v))
		}, []string{"index restore points", "job j-001 records hdfs:///", "twice"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "palink.db")
			seededStore(t, path)
			stripToV0(t, path)
			corrupt(t, path, tc.damage)
			_, err := Open(path, Options{NoSync: true})
			if err == nil {
				t.Fatal("Open upgraded a damaged store")
			}
			for _, want := range append([]string{path, "schema 0 to 1"}, tc.want...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			if v := rawVersion(t, path); v != 0 {
				t.Errorf("failed migration left schema %d, want 0", v)
			}
		})
	}
}

// TestSchemaVersionRecord: the version record is a non-negative number;
// anything else is a damaged file, said as such even when opened
// read-only, and 0 written out is a store to migrate like one without meta.
func TestSchemaVersionRecord(t *testing.T) {
	for _, tc := range []struct {
		name     string
		set      func(meta *bolt.Bucket) error
		readOnly bool
		want     string // "" when Open succeeds
	}{
		{"no version key", func(m *bolt.Bucket) error { return m.Delete(keyVersion) }, false, `meta bucket has no "version" key (damaged file?)`},
		{"negative", func(m *bolt.Bucket) error { return m.Put(keyVersion, []byte("-1")) }, false, `"-1" is not a version`},
		{"garbled, read-only", func(m *bolt.Bucket) error { return m.Put(keyVersion, []byte("seven")) }, true, `"seven" is not a version`},
		{"zero", func(m *bolt.Bucket) error { return m.Put(keyVersion, []byte("0")) }, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "palink.db")
			seededStore(t, path)
			if tc.want == "" {
				stripToV0(t, path) // a schema 0 store that says so
			}
			corrupt(t, path, func(tx *bolt.Tx) error {
				meta, err := tx.CreateBucketIfNotExists(bucketMeta)
				if err != nil {
					return err
				}
				return tc.set(meta)
			})
			s, err := Open(path, Options{ReadOnly: tc.readOnly, NoSync: true})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				s.Close()
				if v := rawVersion(t, path); v != SchemaVersion {
					t.Errorf("schema %d after Open, want %d", v, SchemaVersion)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("Open = %v, want an error naming %s and %q", err, path, tc.want)
			}
		})
	}
}

// TestMigrateBounds: migrate itself (not only Open, which checks first)
// leaves a store at the last step's version alone, refuses one newer than
// its steps, and with no steps at all records schema 0.
func TestMigrateBounds(t *testing.T) {
	db, err := bolt.Open(filepath.Join(t.TempDir(), "raw.db"), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error { return migrate(tx, nil) }); err != nil {
		t.Fatalf("migrate with no steps: %v", err)
	}
	if err := db.Update(func(tx *bolt.Tx) error { return migrate(tx, migrations) }); err != nil {
		t.Fatalf("migrate a new store: %v", err)
	}
	ran := false
	again := append(slices.Clone(migrations[:len(migrations)-1]), migration{to: SchemaVersion, what: "again",
		run: func(*bolt.Tx) error { ran = true; return nil }})
	if err := db.Update(func(tx *bolt.Tx) error { return migrate(tx, again) }); err != nil || ran {
		t.Errorf("migrate at the last step's version: %v, step ran again: %t", err, ran)
	}
	err = db.Update(func(tx *bolt.Tx) error { return migrate(tx, migrations[:1]) })
	wantErr(t, err, ErrSchema, fmt.Sprintf("store schema %d is newer than this palink (1)", SchemaVersion))
	err = db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketMeta).Put(keyVersion, []byte("x")); err != nil {
			return err
		}
		return migrate(tx, migrations)
	})
	if err == nil || !strings.Contains(err.Error(), `"x" is not a version`) {
		t.Errorf("migrate of a garbled version = %v", err)
	}
}
