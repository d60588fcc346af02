package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Restore replaces the store at path with the backup in backupFile (a file
// written by Backup). The backup is copied next to path, synced and checked
// (it opens, its schema is one this palink knows, and at the current schema
// its indexes agree) before a rename puts it in place, so path always holds
// either the old store or the whole backup. The store must not be open: the
// file's lock is held while it is replaced, and a palink holding it makes
// Restore fail with ErrLocked. (A palink that starts opening the store
// during the Restore may get the replaced file once the lock is released;
// start palinks after Restore returns.) The old contents are gone
// afterwards: take a Backup first to keep them.
func Restore(backupFile, path string) (err error) {
	op := fmt.Sprintf("restore store %s from %s", path, backupFile)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("%s: create directory: %w", op, err)
	}
	unlock, err := lockExisting(path, DefaultLockTimeout)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer unlock()

	tmp, err := copyToTemp(backupFile, dir, filepath.Base(path))
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
		}
	}()
	if err := verifyBackup(tmp); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	// The rename is durable only once the directory entry is.
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// lockExisting takes the exclusive lock that bbolt writers take on path, if
// the file exists, and returns its release.
func lockExisting(path string, timeout time.Duration) (func(), error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, err
	}
	if err := lockFile(f, timeout); err != nil {
		_ = f.Close()
		if errors.Is(err, errLockTimeout) {
			return nil, lockedError(path, false, timeout)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { _ = f.Close() }, nil
}

// copyToTemp copies src into a new 0600 file of dir, synced, and returns its name.
func copyToTemp(src, dir, base string) (name string, err error) {
	in, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer in.Close()
	out, err := os.CreateTemp(dir, "."+base+".restore-*")
	if err != nil {
		return "", err
	}
	defer func() {
		if cerr := out.Close(); err == nil && cerr != nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(out.Name())
		}
	}()
	if _, err := io.Copy(out, in); err != nil {
		return "", fmt.Errorf("copy the backup: %w", err)
	}
	if err := out.Sync(); err != nil {
		return "", fmt.Errorf("sync the copy: %w", err)
	}
	return out.Name(), nil
}

// verifyBackup opens a copy of a backup read-only and checks that palink can
// use it: bbolt's pages, a schema this palink knows, and at the current
// schema its records and indexes.
func verifyBackup(path string) error {
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: DefaultLockTimeout})
	if err != nil {
		return fmt.Errorf("backup is not a bbolt store: %w", err)
	}
	defer db.Close()
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	var problems []string
	var refused error
	err = guard("verify", path, func() error {
		return db.View(func(tx *bolt.Tx) error {
			checkFile(tx, fi.Size(), &problems)
			if len(problems) > 0 {
				return nil
			}
			v, err := readVersion(tx)
			switch {
			case err != nil:
				refused = fmt.Errorf("backup: %w", err)
			case v == 0:
				refused = errors.New("backup has no schema version: not a palink store")
			case v > SchemaVersion:
				refused = fmt.Errorf("backup: %w", newerSchemaError(v, SchemaVersion))
			}
			return nil
		})
	})
	var d *damageError
	switch {
	case errors.As(err, &d):
		problems = append(problems, d.what)
	case err != nil:
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("backup is damaged: %s", strings.Join(problems, "; "))
	}
	return refused
}

// syncDir fsyncs a directory, so that a rename in it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}
