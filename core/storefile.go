package core

import (
	"context"
	"io"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/store"
)

// The store as a file, for the CLI's `palink store` commands and for
// opening a Local over it: the CLI names files, core opens them.

// Open opens the store at path — creating it only where no file exists;
// o.ReadOnly opens it read-only, o.NoSync skips fsync (a throwaway store) —
// and builds the service over it. Close closes the store.
func Open(path string, o Options) (*Local, error) {
	st, err := store.Open(path, store.Options{ReadOnly: o.ReadOnly, NoSync: o.NoSync})
	if err != nil {
		return nil, err
	}
	o.Store = st
	l, err := NewLocal(o)
	if err != nil {
		st.Close()
		return nil, err
	}
	l.closeStore = true
	return l, nil
}

// Close releases what Open opened.
func (l *Local) Close() error {
	if l.closeStore {
		return l.st.Close()
	}
	return nil
}

// StorePath names the store the service works on.
func (l *Local) StorePath() string { return l.st.Path() }

// BackupStore writes a consistent copy of the store file at path, opened
// read-only, to w.
func BackupStore(ctx context.Context, path string, w io.Writer) (int64, error) {
	st, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		return 0, err
	}
	defer st.Close()
	return st.Backup(ctx, w)
}

// RestoreStore replaces the store file at path with a backup; no palink
// may be using it.
func RestoreStore(backup, path string) error { return store.Restore(backup, path) }

// CheckStore checks the store file at file without using it: bbolt's
// pages, then every record and index. name is the store the report and its
// error speak of (file may be a snapshot of it); the error says, for a
// damaged store, how to restore it.
func CheckStore(ctx context.Context, file, name string) (api.StoreReport, error) {
	rep, err := store.CheckFile(ctx, file, store.Options{})
	if err != nil {
		return api.StoreReport{}, err
	}
	rep.Path = name
	out := api.StoreReport{Path: rep.Path, Size: rep.Size, Schema: rep.Schema, Current: store.SchemaVersion, ID: rep.ID,
		Jobs: rep.Jobs, Commands: rep.Commands, Problems: rep.Problems}
	return out, rep.Err()
}
