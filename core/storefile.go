package core

import (
	"context"
	"io"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// The store by its name — a bbolt file, or an etcd URL (etcd://host:2379,
// …/prefix) — for the CLI's `palink store` commands and for opening a
// Local over it: the CLI names stores, core opens them.

// IsEtcdStore reports whether a store's name is an etcd URL.
func IsEtcdStore(name string) bool { return store.IsEtcd(name) }

// StoreName is a store's name in the one form every palink gives it (the
// agent's socket is named after it): an etcd URL in its canonical form
// (ports and prefix spelt out), a file's path as given.
func StoreName(name string) string {
	if u, err := store.ParseEtcdURL(name); err == nil {
		return u.String()
	}
	return name
}

// storeOptions are the store's options out of core's.
func storeOptions(o Options) store.Options {
	return store.Options{ReadOnly: o.ReadOnly, NoSync: o.NoSync, Etcd: o.Etcd}
}

// Open opens the store named path — a file is created only where none
// exists, a store on etcd where nothing is under its prefix; o.ReadOnly
// opens it read-only, o.NoSync skips fsync (a throwaway file store), o.Etcd
// says how to reach etcd — and builds the service over it. Close closes
// the store.
func Open(path string, o Options) (*Local, error) {
	st, err := store.OpenStore(path, storeOptions(o))
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

// CheckStorePages walks every page of a store file (store.Bolt.CheckPages):
// the check Open leaves out so as to cost the same at any size, for a
// palink that keeps the store open and runs its background (the agent) to
// run once it started, beside its own work. Damage found is an ErrCorrupt
// error worded as Open's, with the restore command, and the store refuses
// writes from then on. A store on etcd has no pages of its own: nil.
func (d *lead) CheckStorePages(ctx context.Context) error {
	if b, ok := d.l.st.(*store.Bolt); ok {
		return b.CheckPages(ctx)
	}
	return nil
}

// StorePath names the store the service works on.
func (l *Local) StorePath() string { return l.st.Path() }

// BackupStore writes a consistent copy of the store named path, opened
// read-only, to w: a bbolt store file, whichever the store's backend.
func BackupStore(ctx context.Context, path string, o Options, w io.Writer) (int64, error) {
	o.ReadOnly = true
	st, err := store.OpenStore(path, storeOptions(o))
	if err != nil {
		return 0, err
	}
	defer st.Close()
	return st.Backup(ctx, w)
}

// RestoreStore replaces the store named path with a backup (a bbolt store
// file); no palink may be using it.
func RestoreStore(backup, path string, o Options) error {
	return store.RestoreStore(backup, path, storeOptions(o))
}

// MigrateStore copies the store named from into the one named to — a
// bbolt file into etcd, or back — and compares every record of the two;
// a destination holding a store is refused unless force. No palink may
// write from meanwhile.
func MigrateStore(ctx context.Context, from, to string, o Options, force bool) (api.StoreMigration, error) {
	rep, err := store.Migrate(ctx, from, to, storeOptions(o), force)
	return api.StoreMigration{From: rep.From, To: rep.To, Records: rep.Records, Sequences: rep.Sequences, Revision: rep.Revision}, err
}

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

// CompactReport says what CompactStore did: the checkpoint records it
// forgot, and the store file's size before and after (0 on etcd).
type CompactReport struct {
	Pruned        int
	Before, After int64
}

// CompactStore forgets the checkpoint records of the store named path
// that Flink no longer keeps (beyond the newest of each job its cluster
// retains, o.Clusters' CheckpointsRetained, but the ones the job's record
// names) and, for a file, copies it into a new, smaller one put in its
// place (bbolt never shrinks a file). No palink may be using a file.
func CompactStore(ctx context.Context, path string, o Options) (CompactReport, error) {
	retained := map[string]int{}
	for _, c := range o.Clusters {
		retained[c.Name] = c.CheckpointsRetained
	}
	rep, err := store.CompactStore(ctx, path, storeOptions(o), func(j model.Job) int { return max(retained[j.Cluster], 1) })
	return CompactReport{Pruned: rep.Pruned, Before: rep.Before, After: rep.After}, err
}
