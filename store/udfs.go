package store

import (
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// bucketUDFs holds the UDF registry (schema 7): udfs <name> → model.UDF.
// Functions are global, like projects: a job of any cluster may call one.
var bucketUDFs = []byte("udfs")

func checkUDF(u model.UDF) error {
	places := 0
	for _, p := range []string{u.Project, u.Jar, u.PyFile} {
		if p != "" {
			places++
		}
	}
	switch {
	case !model.ValidCatalogName(u.Name):
		return fmt.Errorf("function name %q is not an identifier: %w", u.Name, ErrInvalid)
	case strings.TrimSpace(u.Class) == "":
		return fmt.Errorf("function %s has no class: %w", u.Name, ErrInvalid)
	case u.Language != model.UDFJava && u.Language != model.UDFScala && u.Language != model.UDFPython:
		return fmt.Errorf("function %s: language %q is not java, scala or python: %w", u.Name, u.Language, ErrInvalid)
	case places != 1:
		return fmt.Errorf("function %s must live in exactly one of a project, a jar or a Python file: %w", u.Name, ErrInvalid)
	}
	return nil
}

// UDF returns the registered function of that name; ErrNotFound if none.
func (t udfRecords) UDF(name string) (model.UDF, error) {
	v, err := t.get(in(bucketUDFs), []byte(name))
	if err != nil {
		return model.UDF{}, fmt.Errorf("read function %s: %w", name, err)
	}
	if v == nil {
		return model.UDF{}, fmt.Errorf("function %s: %w", name, ErrNotFound)
	}
	return decode[model.UDF]("function", []byte(name), v)
}

// UDFs returns every registered function, by name.
func (t udfRecords) UDFs() ([]model.UDF, error) {
	out, err := all[model.UDF](t.txn, in(bucketUDFs), "function")
	if err != nil {
		return nil, fmt.Errorf("read functions: %w", err)
	}
	return out, nil
}

// PutUDF creates or replaces a registered function.
func (t udfRecords) PutUDF(u model.UDF) error {
	op := "store function " + u.Name
	if err := checkUDF(u); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	v, err := encode("function", u.Name, u)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(in(bucketUDFs), []byte(u.Name), v); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// DeleteUDF removes a registered function; ErrNotFound if there is none.
func (t udfRecords) DeleteUDF(name string) error {
	op := "remove function " + name
	v, err := t.get(in(bucketUDFs), []byte(name))
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if v == nil {
		return fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	if err := t.del(in(bucketUDFs), []byte(name)); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// migrateTo7 adds the UDF registry's bucket.
func migrateTo7(tx *bolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists(bucketUDFs); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketUDFs, err)
	}
	return nil
}

// checkUDFs verifies that every function decodes and is stored under its
// name.
func checkUDFs(b *bolt.Bucket, report func(string, ...any)) {
	if b == nil {
		return
	}
	_ = b.ForEach(func(k, v []byte) error {
		if u, err := decode[model.UDF]("function", k, v); err != nil {
			report("%s: %w", bucketUDFs, err)
		} else if u.Name != string(k) {
			report("%s: function %q stored under %q", bucketUDFs, u.Name, k)
		}
		return nil
	})
}
