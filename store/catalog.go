package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// bucketCatalog holds the table catalog (schema 6): catalog/<cluster>/<name>,
// every version of a table keyed by its 8-byte big-endian version, the
// bucket sequence the last version given. Removing a table drops its
// versions; one added again under the name starts at version 1.
var bucketCatalog = []byte("catalog")

// bucketVars holds the variables (schema 6): vars/<cluster>, "*" for
// those of every cluster (vars.go).
var bucketVars = []byte("vars")

func checkCatalogTable(t model.CatalogTable) error {
	switch {
	case t.Cluster == "":
		return fmt.Errorf("catalog table %s has no cluster: %w", t.Name, ErrInvalid)
	case !model.ValidCatalogName(t.Name):
		return fmt.Errorf("catalog table name %q is not an identifier: %w", t.Name, ErrInvalid)
	case t.SQL == "":
		return fmt.Errorf("catalog table %s has no SQL: %w", t.Name, ErrInvalid)
	}
	return nil
}

// CatalogTables returns the newest version of each table of the cluster,
// ordered by name.
func (t catalogRecords) CatalogTables(cluster string) ([]model.CatalogTable, error) {
	names, err := t.children(in(bucketCatalog, cluster))
	if err != nil {
		return nil, fmt.Errorf("list catalog tables of cluster %s: %w", cluster, err)
	}
	out := []model.CatalogTable{}
	for _, name := range names {
		tb, found, err := last[model.CatalogTable](t.txn, in(bucketCatalog, cluster, name), "catalog table")
		if err != nil {
			return nil, fmt.Errorf("list catalog tables of cluster %s: %w", cluster, err)
		}
		if found {
			out = append(out, tb)
		}
	}
	return out, nil
}

// CatalogTable returns one version of a table (0: the newest).
func (t catalogRecords) CatalogTable(cluster, name string, version int) (model.CatalogTable, error) {
	op := fmt.Sprintf("read catalog table %s of cluster %s", name, cluster)
	b := in(bucketCatalog, cluster, name)
	if version == 0 {
		tb, found, err := last[model.CatalogTable](t.txn, b, "catalog table")
		switch {
		case err != nil:
			return model.CatalogTable{}, fmt.Errorf("%s: %w", op, err)
		case !found:
			return model.CatalogTable{}, fmt.Errorf("%s: %w", op, ErrNotFound)
		}
		return tb, nil
	}
	k := u64Key(uint64(version))
	v, err := t.get(b, k)
	if err != nil {
		return model.CatalogTable{}, fmt.Errorf("%s: %w", op, err)
	}
	if v == nil {
		return model.CatalogTable{}, fmt.Errorf("%s: version %d: %w", op, version, ErrNotFound)
	}
	tb, err := decode[model.CatalogTable]("catalog table", k, v)
	if err != nil {
		return model.CatalogTable{}, fmt.Errorf("%s: %w", op, err)
	}
	return tb, nil
}

// CatalogVersions returns every version of a table, oldest first.
func (t catalogRecords) CatalogVersions(cluster, name string) ([]model.CatalogTable, error) {
	op := fmt.Sprintf("list versions of catalog table %s of cluster %s", name, cluster)
	out, err := readAfter[model.CatalogTable](t.txn, in(bucketCatalog, cluster, name), "catalog table", 0, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	return out, nil
}

// PutCatalogTable stores the next version of a table.
func (t catalogRecords) PutCatalogTable(tb model.CatalogTable) (model.CatalogTable, error) {
	op := fmt.Sprintf("store catalog table %s of cluster %s", tb.Name, tb.Cluster)
	if err := checkCatalogTable(tb); err != nil {
		return model.CatalogTable{}, fmt.Errorf("%s: %w", op, err)
	}
	b := in(bucketCatalog, tb.Cluster, tb.Name)
	seq, err := t.nextSeq(b)
	if err != nil {
		return model.CatalogTable{}, fmt.Errorf("%s: %w", op, err)
	}
	tb.Version = int(seq)
	v, err := encode("catalog table", tb.Ref().String(), tb)
	if err != nil {
		return model.CatalogTable{}, fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(b, u64Key(seq), v); err != nil {
		return model.CatalogTable{}, fmt.Errorf("%s: %w", op, err)
	}
	return tb, nil
}

// DeleteCatalogTable removes a table with all its versions.
func (t catalogRecords) DeleteCatalogTable(cluster, name string) error {
	op := fmt.Sprintf("remove catalog table %s of cluster %s", name, cluster)
	b := in(bucketCatalog, cluster, name)
	k, _, err := t.scan(b, scanOpts{keysOnly: true, hint: 1}).next()
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if k == nil {
		return fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	if err := t.drop(b); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// migrateTo6 adds the catalog and variables buckets.
func migrateTo6(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketCatalog, bucketVars} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return nil
}

// checkCatalog verifies catalog/<cluster>/<name>: every record decodes,
// names its cluster, table and version as its key, and the bucket sequence
// is at least the newest version.
func checkCatalog(cat *bolt.Bucket, report func(string, ...any)) {
	if cat == nil {
		return
	}
	_ = cat.ForEachBucket(func(cluster []byte) error {
		return cat.Bucket(cluster).ForEachBucket(func(name []byte) error {
			b := cat.Bucket(cluster).Bucket(name)
			return b.ForEach(func(k, v []byte) error {
				tb, err := decode[model.CatalogTable]("catalog table", k, v)
				switch {
				case err != nil:
					report("%s/%s/%s: %v", bucketCatalog, cluster, name, err)
				case tb.Cluster != string(cluster) || tb.Name != string(name):
					report("%s/%s/%s: holds table %s of cluster %s", bucketCatalog, cluster, name, tb.Name, tb.Cluster)
				case string(u64Key(uint64(tb.Version))) != string(k):
					report("%s/%s/%s: version %d stored under key %x", bucketCatalog, cluster, name, tb.Version, k)
				case uint64(tb.Version) > b.Sequence():
					report("%s/%s/%s: version %d is beyond the bucket sequence %d", bucketCatalog, cluster, name, tb.Version, b.Sequence())
				}
				return nil
			})
		})
	})
}
