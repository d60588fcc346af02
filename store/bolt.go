package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// DefaultLockTimeout is how long Open waits for another process to release
// the store: long enough to ride out a CLI command that is finishing, short
// enough that a console stuck behind a running TUI says so at once.
const DefaultLockTimeout = time.Second

// Options tune Open.
type Options struct {
	// ReadOnly opens the store with a shared lock, so that it coexists with
	// other read-only palinks (but not with a writer); Update then fails
	// with ErrReadOnly. A read-only Open creates nothing and migrates nothing.
	ReadOnly bool
	// LockTimeout is how long to wait for a busy store: 0 means
	// DefaultLockTimeout, a negative value means fail at once.
	LockTimeout time.Duration
	// NoSync skips fsync after each commit: a crash may lose the last
	// transactions. For tests and benchmarks only.
	NoSync bool
	// Etcd says how to reach a store kept in etcd (OpenStore with an
	// etcd:// name); a file store ignores it, as etcd ignores LockTimeout
	// and NoSync.
	Etcd EtcdOptions
}

// OpenStore opens the store that name names: an etcd URL
// (etcd://host:2379,…/prefix, OpenEtcd) or a bbolt file (Open).
func OpenStore(name string, opts Options) (Store, error) {
	if IsEtcd(name) {
		e, err := OpenEtcd(name, opts)
		if err != nil {
			return nil, err
		}
		return e, nil
	}
	b, err := Open(name, opts)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Bolt is the Store kept in one bbolt file. It is safe for concurrent use:
// any number of View calls run in parallel, Update calls one at a time.
type Bolt struct {
	db       *bolt.DB
	path     string
	readOnly bool
	id       string // meta/store_id, read at Open
	// damage is the first damage a transaction met; Update refuses to
	// write once it is set.
	damage atomic.Pointer[damageError]
	jobs   jobCache
}

var _ Store = (*Bolt)(nil)

// Open opens the store at path, waiting for its lock up to
// opts.LockTimeout, and migrates it to SchemaVersion. Where no file exists
// it creates one (unless read-only): its directory 0700 and the file 0600,
// since the store holds job specs, which may embed credentials. Any file
// that is there is looked at before use, at a cost that does not grow with
// its size (doc.go, "Damaged files"): one that is empty, truncated, or
// whose meta pages, freelist or root pages are broken fails with
// ErrCorrupt, never a panic and never a new store in its place; a page
// damaged deeper in fails the transaction that reads it the same way.
func Open(path string, opts Options) (*Bolt, error) {
	if path == "" {
		return nil, errors.New("open store: no path given")
	}
	missing, err := statStore(path)
	switch {
	case err != nil:
		return nil, err
	case missing && opts.ReadOnly:
		return nil, fmt.Errorf("open store %s read-only: %w (a read-only palink creates no store; run once without --read-only)",
			path, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist})
	case missing:
		if err := create(path, opts); err != nil {
			return nil, err
		}
	}
	timeout := lockWait(opts.LockTimeout)
	// The file is looked at read-only first: a writer's bbolt reads the
	// freelist inside bolt.Open, past the end of a truncated file.
	db, err := openBolt(path, true, opts.NoSync, timeout)
	if err != nil {
		return nil, lockedAs(err, path, opts.ReadOnly, timeout)
	}
	if err := inspect(db, path); err != nil {
		_ = db.Close()
		return nil, err
	}
	if !opts.ReadOnly {
		_ = db.Close()
		if db, err = openBolt(path, false, opts.NoSync, timeout); err != nil {
			return nil, err
		}
	}
	b := &Bolt{db: db, path: path, readOnly: opts.ReadOnly}
	if err := b.guard("open", b.prepareSchema); err != nil {
		_ = db.Close()
		if errors.Is(err, ErrCorrupt) {
			return nil, err
		}
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return b, nil
}

// lockedAs restates a lock timeout of the read-only look at a store in the
// terms of the Open that asked: a writer is advised as a writer.
func lockedAs(err error, path string, readOnly bool, waited time.Duration) error {
	if errors.Is(err, ErrLocked) && !readOnly {
		return lockedError(path, false, waited)
	}
	return err
}

// lockInfo is who holds a store's flock, as far as the OS tells (lockHolder).
type lockInfo struct {
	pid    int
	shared bool // a read-only palink's shared lock, not a writer's
}

// lockedError says who holds the store, when the OS can tell, and how to go
// on. Its advice must work when followed: a read-only palink shares a store
// with other read-only ones but never with a writer, so --read-only is
// offered only when the holder is known to be read-only.
func lockedError(path string, readOnly bool, waited time.Duration) error {
	h, known := lockHolder(path)
	who := "another palink"
	if known && h.pid == os.Getpid() {
		who = fmt.Sprintf("this palink (pid %d) already", h.pid)
	} else if known {
		who = fmt.Sprintf("another palink (pid %d)", h.pid)
	}
	advice := "wait for it to finish or stop it, or point --db elsewhere; " +
		"to share one store among several palinks, run `palink agent`: every palink started without --db then talks to it"
	if known && h.shared && !readOnly {
		advice = "it has the store open read-only: wait for it to finish or stop it, or run this one with --read-only too"
	}
	return &sentinelError{
		msg: fmt.Sprintf("open store: %s holds %s (waited %v); %s", who, path, waited, advice),
		is:  ErrLocked,
	}
}

// sentinelError is an error with its own text that still matches a sentinel
// with errors.Is, for messages where ": <sentinel text>" would only repeat them.
type sentinelError struct {
	msg string
	is  error
}

func (e *sentinelError) Error() string { return e.msg }
func (e *sentinelError) Unwrap() error { return e.is }

// Path returns the store's file.
func (b *Bolt) Path() string { return b.path }

// ID returns the store's id (meta/store_id), minted when the store was
// created or migrated to schema 3. It is never empty: Open refuses a store
// without one, and a read-only Open refuses an older schema.
func (b *Bolt) ID() string { return b.id }

// ReadOnly reports whether the store was opened read-only.
func (b *Bolt) ReadOnly() bool { return b.readOnly }

// Close releases the file and its lock. Calling it again does nothing.
func (b *Bolt) Close() error {
	if err := b.db.Close(); err != nil {
		return fmt.Errorf("close store %s: %w", b.path, err)
	}
	return nil
}

// View runs fn in a read-only transaction. bbolt cannot interrupt a running
// transaction, so ctx is checked before it starts.
func (b *Bolt) View(ctx context.Context, fn func(ReadTx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("read store %s: %w", b.path, err)
	}
	var fnErr error
	err := b.guard("read", func() error {
		return b.db.View(func(btx *bolt.Tx) error {
			t := newBoltRecords(btx)
			t.jobs = &b.jobs
			defer t.close()
			fnErr = fn(t)
			return fnErr
		})
	})
	if errors.Is(err, ErrCorrupt) && err != fnErr {
		return err
	}
	if err != nil && err != fnErr {
		return fmt.Errorf("read store %s: %w", b.path, err)
	}
	return err
}

// Update runs fn in a read-write transaction and commits it if fn succeeds
// and ctx is still live; otherwise nothing fn wrote is kept. Writers queue
// on bbolt's single writer lock, which ctx cannot interrupt.
func (b *Bolt) Update(ctx context.Context, fn func(Tx) error) error {
	if b.readOnly {
		return fmt.Errorf("update store %s: %w", b.path, ErrReadOnly)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("update store %s: %w", b.path, err)
	}
	if d := b.damage.Load(); d != nil {
		return fmt.Errorf("update store %s: nothing is written to a damaged store: %w", b.path, d)
	}
	var fnErr error
	err := b.guard("update", func() error {
		return b.db.Update(func(btx *bolt.Tx) error {
			t := newBoltRecords(btx)
			t.jobs = &b.jobs
			defer t.close()
			if fnErr = fn(t); fnErr != nil {
				return fnErr
			}
			// A caller that gave up must not find its write done after all.
			if err := ctx.Err(); err != nil {
				fnErr = fmt.Errorf("update store %s: not committed: %w", b.path, err)
			}
			return fnErr
		})
	})
	if errors.Is(err, ErrCorrupt) && err != fnErr {
		return err
	}
	if err != nil && err != fnErr {
		// bbolt's own failure: starting the transaction or committing it.
		return fmt.Errorf("update store %s: %w", b.path, err)
	}
	return err
}

// Backup writes a consistent copy of the whole store to w, a valid bbolt
// file, while other transactions go on: it reads one snapshot. Writers are
// not blocked, except that the file cannot grow its memory map until the
// copy ends. Cancelling ctx stops the copy at the next write to w.
func (b *Bolt) Backup(ctx context.Context, w io.Writer) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("back up store %s: %w", b.path, err)
	}
	var n int64
	err := b.guard("back up", func() error {
		return b.db.View(func(tx *bolt.Tx) error {
			var err error
			n, err = tx.WriteTo(&ctxWriter{ctx: ctx, w: w})
			return err
		})
	})
	if errors.Is(err, ErrCorrupt) {
		return n, err
	}
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			// bbolt formats some writer errors with %s, losing the cause.
			err = cerr
		}
		return n, fmt.Errorf("back up store %s: %w", b.path, err)
	}
	return n, nil
}

// guard runs fn under the package's guard and remembers damage it meets,
// so that later Updates refuse to write.
func (b *Bolt) guard(op string, fn func() error) error {
	err := guard(op, b.path, fn)
	var d *damageError
	if errors.As(err, &d) {
		b.damage.CompareAndSwap(nil, d)
	}
	return err
}

// ctxWriter fails writes once its context is done, to abort a long copy.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c *ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
